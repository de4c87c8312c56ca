"""``mighty deal``: reproducible deals as a hand record (``mighty replay`` is
:mod:`.replay`)."""

from __future__ import annotations

import click

from ..engine.cards import format_cards
from ..engine.cards.deck import hand_seed
from ..engine.hand.seats import arranged_deal, seats
from ..engine.records import Record, dump_record
from ..engine.ruleset import load_ruleset
from ..i18n import N_, _, ngettext
from .options import SEED, ruleset_option, write_output

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).


@click.command()
@click.option("--seed", type=SEED, required=True, help=N_("Same seed, same deals, at every table."))
@click.option(
    "--players",
    default=None,
    help=N_(
        "The players in playing order, separated by commas (as many as the "
        "ruleset's table.players; default P1,P2,...)."
    ),
)
@click.option(
    "--hands",
    "count",
    type=click.IntRange(1, 1000),
    default=1,
    show_default=True,
    help=N_("How many hands to deal."),
)
@ruleset_option(default="standard")
@click.option(
    "--dealer", default=None, help=N_("Dealer of the first hand (default: first player).")
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help=N_("Write the record to a file instead of printing it."),
)
def deal(
    seed: int,
    players: str | None,
    count: int,
    ruleset_name: str,
    dealer: str | None,
    output: str | None,
) -> None:
    """Deal reproducible hands as a hand record, ready to referee or replay.

    \b
    Examples:
      mighty deal --seed 42 --players 민수,Bo,Cy,Di,Ed
      mighty deal --seed 7 --hands 8 -o tonight.toml
    """
    from ..engine.hand import deal_cards

    rules = load_ruleset(ruleset_name)  # fail early on an unknown ruleset
    if rules.table.deal == "draft":  # 변형 2마: the players make their hands at the table
        raise click.UsageError(
            _(
                "{ruleset}: the players draft their hands at the table "
                "(table.deal = draft), so there is no deal to print; "
                "'mighty simulate' plays random drafts"
            ).format(ruleset=rules.name)
        )
    n = rules.table.players
    if players is None:
        players = ",".join(f"P{k}" for k in range(1, n + 1))
    names = [p.strip() for p in players.split(",") if p.strip()]
    if len(names) != n or len(set(names)) != n:
        raise click.BadParameter(
            ngettext(
                "expected {count} distinct name (table.players of {ruleset})",
                "expected {count} distinct names (table.players of {ruleset})",
                n,
            ).format(count=n, ruleset=rules.name),
            param_hint="--players",
        )
    if dealer is not None and dealer not in names:
        raise click.BadParameter(
            _("{dealer!r} is not one of the players").format(dealer=dealer), param_hint="--dealer"
        )
    hands = []
    for number in range(1, count + 1):
        seated = list(seats(rules, names))  # ghost 4마: the ghost's pile too, in its order
        cards = arranged_deal(
            deal_cards(hand_seed(seed, number), seated, rules.deck_cards, rules.table.hand_size)
        )
        hand = {"deal": {who: format_cards(cards[who]) for who in seated + ["kitty"]}}
        if number == 1:
            hand = {"dealer": dealer or names[0]} | hand
        hands.append(hand)
    text = dump_record(Record(ruleset=ruleset_name, players=names, hands=hands))
    header = f"# dealt by: mighty deal --seed {seed} --hands {count}\n"
    if output:
        write_output(output, header + text)
        click.echo(
            ngettext(
                "wrote {count} hand to {output}", "wrote {count} hands to {output}", count
            ).format(count=count, output=output)
        )
    else:
        click.echo(header + text, nl=False)
