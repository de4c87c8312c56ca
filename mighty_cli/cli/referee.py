"""``mighty referee``: the click command of the live table (the table itself is
:mod:`mighty_cli.table`: the hand in :mod:`~mighty_cli.table.referee_session`, the evening in
:mod:`~mighty_cli.table.evening`; setting up and the input loop in :mod:`.evening_setup`)."""

from __future__ import annotations

from pathlib import Path

import click

from ..engine.records import load_record, record_ruleset, replay
from ..i18n import N_, _
from ..table.referee_session import RefereeSession, deal_cards, rebuild
from . import completion
from .options import SEED, ruleset_option

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).


def resume_session(path: Path, save_path: Path | None) -> RefereeSession:
    """Rebuild a session from a saved record: its last hand, every action replayed for undo."""
    record = load_record(path)
    rules = record_ruleset(record)
    result = replay(record, rules)
    if not result.hands or result.hands[-1].state is None:
        raise click.UsageError(
            _("{path}: the last hand is not a refereed hand to resume").format(path=path)
        )
    last = result.hands[-1]
    raw = record.hands[-1]
    deal = deal_cards(raw["deal"], rules) if "deal" in raw else None
    return rebuild(
        rules,
        record.ruleset,
        list(last.players),
        raw.get("dealer", last.dealer),
        deal,
        last.state,
        save_path,
        opener=raw.get("opener"),
    )


@click.command()
@ruleset_option(required=False)
@click.option(
    "--players",
    default=None,
    shell_complete=completion.players,
    help=N_(
        "The players present, in playing order, comma-separated: the ruleset's "
        "table.players (five; 2 to 7 for 2마 to 7마), or one or two more taking "
        "turns to sit out (with --league: only to start a session)."
    ),
)
@click.option(
    "--dealer",
    default=None,
    shell_complete=completion.players,
    help=N_("The first hand's dealer (default: as proposed)."),
)
@click.option(
    "--opener", default=None, help=N_("Who opens the first election (default: by the ruleset).")
)
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help=N_(
        "Deal the cards: hand k of the session is dealt from seed N and k "
        "(as 'mighty deal --seed N' deals its k-th hand)."
    ),
)
@click.option(
    "--deal",
    "deal_file",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help=N_("Take the deals from a hand-record file, one per hand in order (then open cards)."),
)
@click.option(
    "--resume",
    is_flag=False,
    flag_value="",
    default=None,
    metavar="[FILE]",
    help=N_(
        "Resume a saved evening record at the same card; with --league, the "
        "league's hand in progress (resumed anyway when there is one)."
    ),
)
@click.option(
    "--save",
    "save_file",
    type=click.Path(dir_okay=False),
    default=None,
    help=N_(
        "Keep the evening's record in this file, rewritten after every entry "
        "(never a file this run did not write: use --resume FILE to continue "
        "one)."
    ),
)
@click.option(
    "--league",
    default=None,
    shell_complete=completion.leagues,
    help=N_(
        "Referee this league's open session: its ruleset, seating and "
        "succession; every hand is stored."
    ),
)
@click.option(
    "--session",
    "session_number",
    type=click.IntRange(1, 2**31 - 1),
    default=None,
    shell_complete=completion.sessions,
    help=N_("Which open session of the league (when several are open)."),
)
@click.option(
    "--table",
    type=click.IntRange(1, 2**31 - 1),
    default=None,
    shell_complete=completion.tables,
    help=N_("Which table of the league's open round (mighty round start)."),
)
@click.option("--db", default=None, envvar="MIGHTY_DB", help=N_("Database URL (with --league)."))
def referee(
    ruleset_name: str | None,
    players: str | None,
    dealer: str | None,
    opener: str | None,
    seed: int | None,
    deal_file: str | None,
    resume: str | None,
    save_file: str | None,
    league: str | None,
    session_number: int | None,
    table: int | None,
    db: str | None,
) -> None:
    """Referee a live table: every call and card checked as it is entered, hand after hand.

    After each hand the next one is proposed (dealer, opener, who sits out: the ruleset's
    [session] options); the referee may change it before the first call with 'dealer NAME',
    'opener NAME' or 'out NAME'. With --league the league's ruleset and open session are used
    and each finished hand (or deal miss) is stored at once; the hand in progress is kept in
    the league as it is entered, so a killed process resumes at the same card. Type 'help' at
    the prompt.

    With no deal (no --seed or --deal) the cards are open: the tool checks what can be checked
    as they appear (no card twice, joker rules, trick winners, points) and infers voids, so a
    revoke is caught when the player later plays the suit he showed out of.

    \b
    Examples:
      mighty referee --players 민수,Bo,Cy,Di,Ed --seed 42 --save evening.toml
      mighty referee --league tuesday                 (the league's open session)
      mighty referee -r seoul-science --players A,B,C,D,E,F   (open cards, six present)
      mighty referee --resume evening.toml
    """
    from .evening_setup import EveningOptions, run_evening

    if table is not None and (league is None or session_number is not None):
        raise click.UsageError(
            _(
                "--table is a table of a league's open round: give it with "
                "--league, and not with --session"
            )
        )

    run_evening(
        EveningOptions(
            ruleset_name=ruleset_name,
            players=players,
            dealer=dealer,
            opener=opener,
            seed=seed,
            deal_file=Path(deal_file) if deal_file else None,
            resume=resume,
            save_file=Path(save_file) if save_file else None,
            league=league,
            session_number=session_number,
            table=table,
            db=db,
        )
    )
