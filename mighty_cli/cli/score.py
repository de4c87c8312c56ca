"""``mighty score``: score one hand from its outcome (the acceptance interface)."""

from __future__ import annotations

import click

from ..engine.cards import Bid, parse_trump
from ..engine.errors import InvalidNotation
from ..engine.ruleset import load_ruleset
from ..engine.scoring import describe, score_hand
from .options import echo_json, json_option, ruleset_option


class TrumpType(click.ParamType):
    name = "S|D|H|C|NT"

    def convert(self, value, param, ctx):
        try:
            return parse_trump(value)
        except InvalidNotation as exc:
            self.fail(str(exc), param, ctx)


@click.command()
@ruleset_option()
@click.option("--bid", type=click.IntRange(0, 99), required=True,
              help="The contract's number (after any trump-change raise).")
@click.option("--trump", type=TrumpType(), required=True, help="S, D, H, C or NT.")
@click.option("--taken", type=click.IntRange(0, 99), default=None,
              help="Point cards the ruling party took, discards included.")
@click.option("--opposition", type=click.IntRange(0, 99), default=None,
              help="Or: point cards the opposition took.")
@click.option("--no-friend", is_flag=True, help="The declarer played alone.")
@json_option
def score(ruleset_name: str, bid: int, trump, taken, opposition, no_friend: bool,
          as_json: bool) -> None:
    """Score one hand: base, doublings and every seat's share.

    \b
    Examples:
      mighty score --ruleset standard --bid 15 --trump D --taken 16
      mighty score -r seoul-science --bid 13 --trump NT --opposition 2 --no-friend --json
    """
    if (taken is None) == (opposition is None):
        raise click.UsageError("give exactly one of --taken and --opposition")
    rules = load_ruleset(ruleset_name)
    if taken is None:
        taken = rules.point_card_total - opposition
        if taken < 0:
            raise click.UsageError(f"--opposition {opposition} is more than the "
                                   f"{rules.point_card_total} point cards in play")
    result = score_hand(rules, Bid(bid, trump), taken, has_friend=not no_friend)
    if as_json:
        echo_json(result.to_json())
    else:
        click.echo(f"{rules.meta.title} ({rules.name})")
        click.echo(describe(result, rules))
