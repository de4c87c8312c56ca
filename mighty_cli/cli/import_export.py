"""Moving leagues in and out: ``import``, ``export``, ``backup`` and ``restore``.

Thin: parse, open one transaction, call the store, write. Files are read and written hand by
hand (row by row for a backup), so a season of any size fits in flat memory.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

import click

from ..engine.errors import MightyError, RecordError
from ..i18n import N_, _, ngettext
from .database import by_option, database, db_option, league_option, who_default
from .options import record_ruleset_option
from .progress import progress, quiet_option, silent

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).


@click.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@league_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["toml", "csv", "json"]),
    default=None,
    help=N_("The file's format (default: from its extension; otherwise a hand record)."),
)
@click.option(
    "--create/--no-create",
    default=True,
    show_default=True,
    help=N_("Create the league with the record's ruleset if it does not exist."),
)
@click.option(
    "--again",
    is_flag=True,
    help=N_("Import sessions even when the league already holds the same hands."),
)
@record_ruleset_option
@quiet_option
@db_option
@by_option
def import_(path, league_name, fmt, create, again, ruleset_name, quiet, db_url, who) -> None:
    """Import a hand-record file, or a league's TOML, JSON or CSV export, into a league: every
    hand is checked against the league's ruleset, players are created as needed, and the
    import is all or nothing. Hands with a 'session' key are grouped into sessions; an export
    imported into an empty league keeps its hand and session numbers. A league that does not
    exist yet is created with the record's ruleset. The file is read hand by hand.

    \b
    Examples:
      mighty import examples/season.toml --league demo
      mighty export -l tuesday -o tuesday.json && mighty import tuesday.json -l tuesday-copy
    """
    from ..store.interchange.formats import count_hands, open_record
    from ..store.interchange.imports import import_record

    with database(db_url, creates=True) as s, progress(_("importing hands"), quiet) as shown:
        record = open_record(path, fmt)
        record.user_ruleset = ruleset_name  # for a league --create makes (a league keeps its own)
        _same_table(s, league_name, record, path)
        if shown is not silent:
            record.hands = _counted(record.hands, shown, count_hands(path, fmt))
        done = import_record(
            s, league_name, record, who=who_default(who), create=create, again=again
        )
    if not done.hands:  # an export of a league with no hand yet: nothing to number
        click.echo(
            _("Imported no hand into {league}: {path} has none.").format(
                league=league_name, path=path
            )
        )
        return
    numbers = (
        ngettext("hand {numbers}", "hands {numbers}", done.last - done.first + 1).format(
            numbers=number_ranges(range(done.first, done.last + 1))
        )
        + ", "
        + ngettext("session {numbers}", "sessions {numbers}", len(done.sessions)).format(
            numbers=number_ranges(done.sessions)
        )
    )
    click.echo(
        ngettext(
            "Imported {count} hand into {league} ({numbers}).",
            "Imported {count} hands into {league} ({numbers}).",
            done.hands,
        ).format(count=done.hands, league=league_name, numbers=numbers)
        + (
            " " + _("New players: {names}.").format(names=", ".join(done.players_created))
            if done.players_created
            else ""
        )
    )
    for note in done.notes:
        click.echo(_("Note: {note}.").format(note=note))


def _counted(hands: Iterable[dict], shown, total: int | None) -> Iterator[dict]:
    """The record's hands, progress told as each is read."""
    for done, hand in enumerate(hands, start=1):
        yield hand
        shown(done, total)


def number_ranges(numbers: Sequence[int]) -> str:
    """Numbers as runs, ``1-3, 5, 7-9`` (an import of a long history names its thousands of
    sessions in a few words)."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ", ".join(str(first) if first == last else f"{first}-{last}" for first, last in runs)


def _same_table(s, league_name: str, record, path: str) -> None:
    """A record dealt at another table (a 7마 export into a 5마 league) is refused by what
    differs, before its first hand fails with 'expected five distinct names'."""
    from ..engine.records import record_ruleset
    from ..store.ledger.lookups import get_league, league_rules

    if not record.ruleset or record.extra.get("ruleset_unknown"):  # a CSV export names none
        return
    try:
        rules = league_rules(get_league(s, league_name))
        theirs = record_ruleset(record)
    except MightyError:  # no such league (created from the record), or no ruleset to read
        return
    if theirs.table.players != rules.table.players:
        raise click.ClickException(
            _(
                "{path} was played under {theirs} ({their_count} at the table); league {league} "
                "plays {ruleset} ({count} at the table), so its hands cannot be checked against "
                "the league's rules: import it into a league of its own (--league NEW)"
            ).format(
                path=click.format_filename(path),
                theirs=record.ruleset,
                their_count=theirs.table.players,
                league=league_name,
                ruleset=rules.name,
                count=rules.table.players,
            )
        )


@contextmanager
def output_file(output: str | None) -> Iterator:
    """Standard output, or a file written beside its final name and moved there only when
    complete (a failed export leaves no half-written file). A path that exists and is not a
    regular file (a device such as /dev/stdout, a pipe) is written in place: moving a file over
    it would replace the device itself."""
    import sys

    if not output:
        yield sys.stdout
        sys.stdout.flush()
        return
    from ..engine.outputs import replaced_file

    with replaced_file(output, newline="") as out:
        yield out


@click.command()
@league_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["toml", "csv", "json"]),
    default=None,
    help=N_(
        "Hand-record TOML, CSV or JSON; all three import again (default: from "
        "the --output file's extension, else toml)."
    ),
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help=N_("Write to a file instead of standard output."),
)
@click.option(
    "--bom/--no-bom",
    default=True,
    show_default=True,
    help=N_(
        "Start a CSV with a UTF-8 byte-order mark, so Excel opens it as UTF-8 "
        "and Hangul names read right (--no-bom for tools that do not expect "
        "one)."
    ),
)
@quiet_option
@db_option
def export(league_name, fmt, output, bom, quiet, db_url) -> None:
    """Export a league's hands (voided hands left out; a backup keeps everything), hand by
    hand. CSV is for spreadsheets: one line per hand and one column per player in seating
    order, blank when the player sat the hand out; a result reads made or failed, session
    times are local to the second in the league's time zone (league set --timezone), and a
    refereed hand's record is one line of JSON. It starts with a UTF-8 byte-order mark, so
    Excel opens it with Hangul intact (--no-bom leaves it out). TOML and JSON keep the stored
    UTC times to the microsecond; all three import again.

    \b
    Examples:
      mighty export --league tuesday > tuesday.toml
      mighty export --league tuesday -o tuesday.csv
      mighty export --league tuesday --format json -o tuesday.json
    """
    from ..store.interchange.exports import write_export
    from ..store.interchange.formats import detect_format
    from ..store.ledger.leagues import league_summaries

    fmt = fmt or (detect_format(output) if output else "toml")
    with (
        database(db_url) as s,
        output_file(output) as out,
        progress(_("exporting hands"), quiet) as shown,
    ):
        write_export(
            s,
            league_name,
            fmt,
            out,
            bom=bom and fmt == "csv",
            progress=None if shown is silent else shown,
        )
        hands = league_summaries(s, league_name)[0].hands if output else 0
    if output:  # on standard output the export is the output: nothing is added to it
        click.echo(
            ngettext(
                "Wrote {path} ({count} hand, {format}).",
                "Wrote {path} ({count} hands, {format}).",
                hands,
            ).format(path=output, count=hands, format=fmt)
        )


@click.command()
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, writable=True),
    required=True,
    help=N_("The backup file (JSON lines)."),
)
@quiet_option
@db_option
def backup(output, quiet, db_url) -> None:
    """Back up the whole database: players, leagues and their settings, sessions open or
    ended, every hand (voided ones too) with its number, and the change log. 'mighty
    restore' puts it back into an empty database, table for table.

    \b
    Examples:
      mighty backup -o club-2024-06-01.jsonl
      mighty restore club-2024-06-01.jsonl --db new.db
    """
    from ..store.interchange.backup import iter_backup

    rows, total = 0, None
    with (
        database(db_url) as s,
        output_file(output) as out,
        progress(_("backing up rows"), quiet) as shown,
    ):
        for text in iter_backup(s):
            out.write(text)
            if total is None:  # the first line counts every table's rows
                total = sum(json.loads(text)["tables"].values())
            rows += text.count("\n")
            shown(rows - 1, total)
    click.echo(
        ngettext("Wrote {path} ({count} row).", "Wrote {path} ({count} rows).", rows - 1).format(
            path=output, count=rows - 1
        )
    )


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@quiet_option
@db_option
def restore(path, quiet, db_url) -> None:
    """Restore a backup into an empty database (all or nothing).

    \b
    Examples:
      mighty restore club-2024-06-01.jsonl --db new.db
    """
    from ..engine.inputs import open_text
    from ..store.interchange.backup import restore as restore_backup

    stream = open_text(path, path, RecordError, encoding="utf-8")
    with stream, database(db_url, creates=True) as s, progress(_("restoring rows"), quiet) as shown:
        try:
            counts = restore_backup(s, stream, path, progress=shown)
        except UnicodeDecodeError as exc:
            raise RecordError(
                _("{path}: cannot read: {error}").format(path=path, error=exc)
            ) from None
    total = sum(counts.values())
    click.echo(
        ngettext(
            "Restored {count} row ({hands}, {leagues}).",
            "Restored {count} rows ({hands}, {leagues}).",
            total,
        ).format(
            count=total,
            hands=ngettext("{count} hand", "{count} hands", counts.get("hand", 0)).format(
                count=counts.get("hand", 0)
            ),
            leagues=ngettext("{count} league", "{count} leagues", counts.get("league", 0)).format(
                count=counts.get("league", 0)
            ),
        )
    )
