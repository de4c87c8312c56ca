"""``mighty score``: score one hand from its outcome (the acceptance interface).

Where two cards are called (``friend.called_cards = 2``, 동대전 7마) ``--friends 2`` scores
two friends: each takes a friend's share, the declarer the balance. ``--taken`` also takes the
ruling party's cards split between its members (``10+8+2``: :mod:`mighty_cli.table.taken`),
weighed by the ruleset's friend weights as a refereed hand is.
"""

from __future__ import annotations

import click

from ..engine.cards import Bid, parse_trump
from ..engine.errors import InvalidNotation, MightyError
from ..engine.ruleset import load_ruleset
from ..engine.scoring import describe, friends_weighed, score_hand
from ..i18n import N_, _
from ..table.taken import ruling_party_count
from .options import echo_json, json_option, ruleset_option
from .score_taken import TakenType

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).


class TrumpType(click.ParamType):
    name = "S|D|H|C|NT"

    def convert(self, value, param, ctx):
        try:
            return parse_trump(value)
        except InvalidNotation as exc:
            self.fail(str(exc), param, ctx)


@click.command()
@ruleset_option()
@click.option(
    "--bid",
    type=click.IntRange(0, 99),
    required=True,
    help=N_("The contract's number (after any trump-change raise)."),
)
@click.option(
    "--trump",
    type=TrumpType(),
    required=True,
    help=N_("S, D, H, C or NT (or 스페이드, 다이아, 하트, 클로버, 노기루다)."),
)
@click.option(
    "--taken",
    type=TakenType(),
    default=None,
    help=N_(
        "Point cards the ruling party took, discards included; or split as the "
        "declarer's and each friend's (10+8+2), weighed by the ruleset's friend "
        "weights."
    ),
)
@click.option(
    "--opposition",
    type=click.IntRange(0, 99),
    default=None,
    help=N_("Or: point cards the opposition took."),
)
@click.option("--no-friend", is_flag=True, help=N_("The declarer played alone."))
@click.option(
    "--friends",
    type=click.IntRange(0, 2),
    default=None,
    help=N_(
        "How many friends the declarer had: 0 (as --no-friend), 1, or 2 where "
        "two cards are called (friend.called_cards = 2, 동대전 7마)."
    ),
)
@json_option
def score(
    ruleset_name: str, bid: int, trump, taken, opposition, no_friend: bool, friends, as_json: bool
) -> None:
    """Score one hand: base, doublings and every seat's share.

    Under a ruleset where no friend can be called (3마, 2마) the declarer is alone.

    \b
    Examples:
      mighty score --ruleset standard --bid 15 --trump D --taken 16
      mighty score -r seoul-science --bid 13 --trump NT --opposition 2 --no-friend --json
      mighty score -r dongdaejeon-7 --bid 13 --trump C --friends 2 --taken 10+8+2
    """
    if (taken is None) == (opposition is None):
        raise click.UsageError(_("give exactly one of --taken and --opposition"))
    if no_friend and friends:
        raise click.UsageError(
            _("give --no-friend or --friends {count}, not both").format(count=friends)
        )
    rules = load_ruleset(ruleset_name)
    from ..engine.records import friend_possible

    # how many friends: --friends, else as many as the split names, else one (or none)
    count = (
        0
        if no_friend
        else friends
        if friends is not None
        else len(taken.parts) - 1
        if taken is not None and taken.split
        else 1
    )
    # 3마, 2마: the declarer always plays alone (no friend call is allowed, or two play)
    if not friend_possible(rules):
        count = 0
    if taken is not None:
        if not all(0 <= part <= 99 for part in taken.parts):  # as click.IntRange(0, 99) did
            raise click.BadParameter(
                _("{value} is not in the range {range}.").format(value=taken, range="0<=x<=99"),
                param_hint="--taken",
            )
        try:
            taken = ruling_party_count(rules, taken, count)
        except MightyError as exc:
            raise click.BadParameter(str(exc), param_hint="--taken") from None
    if taken is None and count and friends_weighed(rules):
        raise click.UsageError(
            _(
                "--opposition: under {ruleset} a friend's point cards are "
                "weighed (scoring.friend_weight), so the opposition's count "
                "cannot give the ruling party's; give --taken, split as the "
                "declarer's and each friend's (10+8+2)"
            ).format(ruleset=rules.name)
        )
    if taken is None:
        total = rules.count_total  # point cards, or tricks (election.bid_counts = "tricks")
        taken = total - opposition
        if taken < 0:
            message = (
                _("--opposition {opposition} is more than the {total} tricks of a hand")
                if rules.election.bid_counts == "tricks"
                else _("--opposition {opposition} is more than the {total} point cards in play")
            )
            raise click.UsageError(message.format(opposition=opposition, total=total))
    result = score_hand(rules, Bid(bid, trump), taken, has_friend=count > 0, friends=max(1, count))
    if as_json:
        echo_json(result.to_json() | ({"friends": 2} if count == 2 else {}))
        return
    click.echo(f"{rules.meta.title} ({rules.name})")
    lines = describe(result, rules).splitlines()
    if count == 2:  # each friend a friend's share, the declarer the balance
        lines[-1] = _(
            "declarer {declarer:+d}, each of the two friends {friend:+d}, each "
            "opponent {opponent:+d}"
        ).format(declarer=result.declarer, friend=result.friend, opponent=result.opponent)
    click.echo("\n".join(lines))
