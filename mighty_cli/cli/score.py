"""``mighty score``: score one hand from its outcome (the acceptance interface)."""

from __future__ import annotations

import click

from ..engine.cards import Bid, parse_trump
from ..engine.errors import InvalidNotation
from ..engine.ruleset import load_ruleset
from ..engine.scoring import describe, score_hand
from ..i18n import N_, _
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
              help=N_("The contract's number (after any trump-change raise)."))
@click.option("--trump", type=TrumpType(), required=True,
              help=N_("S, D, H, C or NT (or 스페이드, 다이아, 하트, 클로버, 노기루다)."))
@click.option("--taken", type=click.IntRange(0, 99), default=None,
              help=N_("Point cards the ruling party took, discards included."))
@click.option("--opposition", type=click.IntRange(0, 99), default=None,
              help=N_("Or: point cards the opposition took."))
@click.option("--no-friend", is_flag=True, help=N_("The declarer played alone."))
@json_option
def score(ruleset_name: str, bid: int, trump, taken, opposition, no_friend: bool,
          as_json: bool) -> None:
    """Score one hand: base, doublings and every seat's share.

    Under a ruleset where no friend can be called (3마, 2마) the declarer is alone.

    \b
    Examples:
      mighty score --ruleset standard --bid 15 --trump D --taken 16
      mighty score -r seoul-science --bid 13 --trump NT --opposition 2 --no-friend --json
    """
    if (taken is None) == (opposition is None):
        raise click.UsageError(_("give exactly one of --taken and --opposition"))
    rules = load_ruleset(ruleset_name)
    if taken is None:
        total = rules.count_total  # point cards, or tricks (election.bid_counts = "tricks")
        taken = total - opposition
        if taken < 0:
            message = (_("--opposition {opposition} is more than the {total} tricks of a hand")
                       if rules.election.bid_counts == "tricks" else
                       _("--opposition {opposition} is more than the {total} point cards in "
                         "play"))
            raise click.UsageError(message.format(opposition=opposition, total=total))
    from ..engine.record import friend_possible

    # 3마, 2마: the declarer always plays alone (no friend call is allowed, or two play)
    alone = no_friend or not friend_possible(rules)
    result = score_hand(rules, Bid(bid, trump), taken, has_friend=not alone)
    if as_json:
        echo_json(result.to_json())
    else:
        click.echo(f"{rules.meta.title} ({rules.name})")
        click.echo(describe(result, rules))
