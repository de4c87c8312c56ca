"""``mighty simulate``: random legal hands under a ruleset, written as a hand record."""

from __future__ import annotations

import click

from ..i18n import N_, _, ngettext
from ..render.text import table
from .options import SEED, echo_json, json_option, ruleset_option
from .progress import progress, quiet_option

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).


@click.command()
@ruleset_option()
@click.option(
    "--hands",
    "count",
    type=click.IntRange(1, 100_000),
    required=True,
    help=N_("How many hands to play."),
)
@click.option(
    "--seed",
    type=SEED,
    required=True,
    help=N_("Same seed, same hands (the deals are those of 'mighty deal --seed')."),
)
@click.option(
    "--players",
    default=None,
    help=N_(
        "Names in playing order, separated by commas: the ruleset's "
        "table.players, or one or two more who sit out in turn (default "
        "P1,P2,...)."
    ),
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, writable=True),
    required=True,
    help=N_("The hand-record file to write."),
)
@json_option
@quiet_option
def simulate(
    ruleset_name: str,
    count: int,
    seed: int,
    players: str | None,
    output: str,
    as_json: bool,
    quiet: bool,
) -> None:
    """Play random legal hands (every phase, random legal choices) and write them as a hand
    record that 'mighty replay' scores to the same totals; print how often each contract,
    friend call, run and back run occurred.

    \b
    Examples:
      mighty simulate --ruleset standard --hands 1000 --seed 1 -o try.toml
      mighty simulate -r our-club.toml --hands 200 --seed 7 --players A,B,C,D,E,F -o six.toml
    """
    from ..engine.outputs import replaced_file
    from ..engine.records import Record, dump_record_hand, dump_record_head
    from ..engine.ruleset import load_ruleset
    from ..engine.simulation import simulate as run

    rules = load_ruleset(ruleset_name)
    n = rules.table.players
    if players is None:
        players = ",".join(f"P{k}" for k in range(1, n + 1))
    names = [p.strip() for p in players.split(",") if p.strip()]
    if not n <= len(names) <= n + 2 or len(set(names)) != len(names):
        raise click.BadParameter(
            _(
                "expected {low} to {high} distinct names (table.players of "
                "{ruleset} = {low}, plus up to two who sit out in turn)"
            ).format(low=n, high=n + 2, ruleset=rules.name),
            param_hint="--players",
        )
    header = (
        f"# simulated by: mighty simulate --ruleset {ruleset_name} --hands {count} --seed {seed}\n"
    )
    # written hand by hand (a file appears whole, or not at all): flat memory at any count
    with replaced_file(output) as out, progress(_("simulating hands"), quiet) as shown:
        out.write(header + dump_record_head(Record(ruleset=ruleset_name, players=names)))
        sim = run(
            rules,
            ruleset_name,
            names,
            count,
            seed,
            progress=shown,
            on_hand=lambda hand: out.write(dump_record_hand(hand)),
        )
    if as_json:
        echo_json(sim.to_json())
        return
    click.echo(
        ngettext(
            "wrote {count} hand to {output} under {title} ({name})",
            "wrote {count} hands to {output} under {title} ({name})",
            count,
        ).format(count=count, output=output, title=rules.meta.title, name=rules.name)
    )
    _print_counts(sim, count)


#: The frequency tables' titles, translated when shown.
TITLES = {"contract": N_("contract"), "friend call": N_("friend call"), "doubling": N_("doubling")}
#: The rows' labels (a hand's status, a kind of friend call, a doubling), translated when
#: shown; English shows the keys as they are (the keys of ``--json``).
LABELS = {
    "scored": N_("scored"),
    "deal_miss": N_("deal_miss"),
    "redeal": N_("redeal"),
    "made": N_("made"),
    "card": N_("card"),
    "mighty": N_("mighty"),
    "joker": N_("joker"),
    "none": N_("none"),
    "first-trick": N_("first-trick"),
    "last-trick": N_("last-trick"),
    "player": N_("player"),
    "run": N_("run"),
    "back_run": N_("back_run"),
    "no_trump": N_("no_trump"),
    "no_friend": N_("no_friend"),
}


def _label(key: str) -> str:
    return _(LABELS[key]) if key in LABELS else key


def _share(part: int, whole: int) -> str:
    return f"{part:>6}  {100 * part / whole:5.1f}%" if whole else f"{part:>6}"


def _print_counts(sim, count: int) -> None:
    """The frequencies, one table per question, most frequent first."""
    scored = sim.statuses.get("scored", 0)
    rows = [
        [_label(status), _share(sim.statuses.get(status, 0), count)]
        for status in ("scored", "deal_miss", "redeal")
    ]
    rows.append([_label("made"), _share(sim.made, scored)])
    click.echo(table([_("hands"), _("count")], rows, align="<>"))
    for title, counter in (
        ("contract", sim.contracts),
        ("friend call", sim.friend_kinds),
        ("doubling", sim.doublings),
    ):
        rows = [
            [_label(key), _share(value, scored)]
            for key, value in sorted(counter.items(), key=lambda item: (-item[1], item[0]))
        ]
        if title == "doubling":
            rows = [
                [_label(key), _share(sim.doublings.get(key, 0), scored)]
                for key in ("run", "back_run", "no_trump", "no_friend")
            ]
        click.echo(table([_(TITLES[title]), _("count")], rows, align="<>"))
    click.echo(
        table(
            [_("totals")] + list(sim.totals),
            [[""] + [f"{value:+d}" for value in sim.totals.values()]],
            align="<" + ">" * len(sim.totals),
        )
    )
