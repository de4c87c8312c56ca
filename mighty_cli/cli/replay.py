"""``mighty replay``: every hand of a record file checked card by card and scored, in flat memory.

The file is read twice, hand by hand: first every hand's shape is checked (so a late hand's
unknown key is reported before an early hand's broken rule, as when the file was held whole),
then each hand is replayed and dropped. What the output needs is kept as it goes: the totals as
running sums (the replay's own), the late-hand notes from a running session tally per session,
and each hand's table row (or, with ``--json``, its JSON text) in a spool, in memory while it is
small and in a temporary file beyond that. Nothing is printed until the last hand is replayed,
so a rule violation still prints its one line and nothing else, and the table's columns are as
wide as their widest cell: the output is what it was when every outcome was held. A record read
from a pipe, which cannot be read twice, is copied to a temporary file as the first reading goes,
and read again from there.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import click

from ..engine.cards import format_bid
from ..engine.hand.seats import eliminated_label
from ..engine.records import iter_replay, record_ruleset
from ..engine.scoring import doubling_label
from ..engine.session import SessionTally, has_session_end
from ..i18n import N_, _, ngettext
from ..render.text import display_width, pad, table, visible
from .options import json_option, record_ruleset_option

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).

#: A hand's status in the replay table (its code name is what --json says).
STATUS_LABELS = {
    "scored": N_("scored"),
    "deal_miss": N_("deal miss"),
    "redeal": N_("redeal"),
    "in_progress": N_("in progress"),
}
REPLAY_HEADERS = (
    N_("status"),
    N_("dealer"),
    N_("declarer"),
    N_("contract"),
    N_("friend"),
    N_("taken"),
    N_("mult"),
    N_("doublings"),
)
#: The spool stays in memory up to this many characters, then moves to a temporary file.
SPOOL_MEMORY = 4 * 2**20
#: Cells of a spooled row: :func:`~mighty_cli.render.text.visible` writes every control
#: character of a cell as a code, so neither can occur inside one.
CELL, ROW = "\x1f", "\n"
#: Table lines printed at a time.
ECHO_LINES = 256
#: JSON characters printed at a time.
ECHO_CHARS = 1 << 16
#: The JSON around the hands (``json.dumps(..., indent=2)``'s, not words to translate).
JSON_HANDS, JSON_HANDS_END, JSON_NO_HANDS = '{\n  "hands": [', "\n  ],", "],"


@click.command()
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@record_ruleset_option
@json_option
def replay(path: str, ruleset_name: str | None, as_json: bool) -> None:
    """Check every hand of a record file card by card, and score it.

    A rule violation exits 1 with one line naming the hand, the trick, the player, the card and
    the rule. Nothing is written.

    \b
    Examples:
      mighty replay examples/run.toml
      mighty replay season.toml --json
      mighty replay shared/season.toml --ruleset ../our-club.toml
    """
    replay_file(path, ruleset_name, as_json)


def replay_file(path: str, ruleset_name: str | None, as_json: bool) -> None:
    """Replay the record at ``path`` and print its table (or JSON)."""
    from ..engine.records.stream import open_record, stream_record

    source = Path(path)
    if source.is_file():
        for _hand in stream_record(path).hands:  # every hand checked before any is replayed
            pass
        _replay_record(stream_record(path), path, ruleset_name, as_json)
        return
    # a pipe cannot be read twice: copied as the check reads it, replayed from the copy
    try:
        copy = tempfile.TemporaryFile("w+", encoding="utf-8", newline="")
    except OSError as exc:
        raise click.ClickException(_temporary_file_error(exc)) from None
    with copy:
        for _hand in stream_record(_Copying(open_record(source), copy), path, source.parent).hands:
            pass
        copy.seek(0)
        _replay_record(stream_record(copy, path, source.parent), path, ruleset_name, as_json)


def _replay_record(record, path: str, ruleset_name: str | None, as_json: bool) -> None:
    """Replay ``record`` (its hands checked already) and print its table (or JSON)."""
    record.user_ruleset = ruleset_name
    rules = record_ruleset(record)
    totals = dict.fromkeys(record.players, 0)
    players = list(record.players)
    late = LateHands(rules)
    with tempfile.SpooledTemporaryFile(SPOOL_MEMORY, "w+", encoding="utf-8", newline=ROW) as spool:
        eliminating = bool(rules.table.eliminated)  # 6마, 7마, 시흥 은마: a column of who
        headers = REPLAY_HEADERS + ((N_("eliminated"),) if eliminating else ())
        rows = (
            JsonHands(spool)
            if as_json
            else TableRows(
                spool,
                ["#"] + [_(h) for h in headers] + players,
                "><<<<<>><" + "<" * eliminating + ">" * len(players),
            )
        )
        count, pot = 0, 0
        for hand, outcome in iter_replay(record, rules, totals):
            count += 1
            pot = outcome.pot_after
            late.add(hand.get("session"), outcome)
            rows.add(outcome if as_json else table_row(outcome, players, eliminating))
        late.finish()
        if as_json:
            rows.echo({"totals": dict(totals), "pot": pot})
            return
        click.echo(
            ngettext(
                "{path}: {count} hand under {title} ({name})",
                "{path}: {count} hands under {title} ({name})",
                count,
            ).format(path=path, count=count, title=rules.meta.title, name=rules.name)
        )
        rows.echo()
    click.echo(
        table(
            [_("totals")] + players,
            [[""] + [f"{totals[p]:+d}" for p in players]],
            align="<" + ">" * len(players),
        )
    )
    if pot:
        click.echo(_("deposit pot (공탁금) carried over: {pot}").format(pot=pot))
    for note in late.notes:
        click.echo(_("note: {note}").format(note=note))


class _Copying:
    """A text stream read once (a pipe) whose text is written to ``copy`` as it is read."""

    def __init__(self, source: IO[str], copy: IO[str]):
        self.source, self.copy = source, copy

    def read(self, size: int = -1) -> str:
        text = self.source.read(size)
        spool_write(self.copy, text)
        return text

    def close(self) -> None:
        self.source.close()


def table_row(outcome, players: Sequence[str], eliminating: bool = False) -> list:
    """A hand's row of the replay table (``eliminating``: with the cell of who the declarer
    eliminated, 6마, 7마 and 시흥 은마's player or dummy)."""
    score = outcome.score
    out = outcome.eliminated or ([outcome.eliminated_hand] if outcome.eliminated_hand else [])
    status = STATUS_LABELS.get(outcome.status)
    return (
        [
            outcome.index,
            _(status) if status else outcome.status,
            outcome.dealer or "",
            outcome.declarer or "",
            format_bid(outcome.contract) if outcome.contract else "",
            outcome.friend or ("-" if outcome.status == "scored" else ""),
            "" if outcome.taken is None else outcome.taken,
            "" if score is None else f"×{score.multiplier}",
            ", ".join(doubling_label(n) for n in score.doublings)
            if score
            else (
                _("deal miss by {player}").format(player=outcome.deal_miss_player)
                if outcome.deal_miss_player
                else ""
            ),
        ]
        + ([", ".join(map(eliminated_label, out))] if eliminating else [])
        + [f"{outcome.deltas.get(p, 0):+d}" for p in players]
    )


def spool_write(spool: IO[str], text: str) -> None:
    """Write to the spool; a temporary file that cannot be written (a full disk, an unwritable
    folder) is one line."""
    try:
        spool.write(text)
    except OSError as exc:
        raise click.ClickException(_temporary_file_error(exc)) from None


def _temporary_file_error(exc: OSError) -> str:
    return _("cannot write a temporary file for the replay: {error}").format(
        error=exc.strerror or exc
    )


class TableRows:
    """:func:`~mighty_cli.render.text.table`'s text, its rows spooled as they come: each row's
    cells are written down as the table shows them, the columns' widths kept, and the table
    printed from the spool once the last row is in. Cells repeat (names, labels), so each
    one's display width is worked out once."""

    def __init__(self, spool: IO[str], headers: Sequence[str], align: str) -> None:
        self.spool = spool
        self.headers = list(headers)
        self.align = align
        self.widths = [display_width(h) for h in headers]
        self.known: dict[str, int] = {}

    def width(self, cell: str) -> int:
        """:func:`~mighty_cli.render.text.display_width` (ASCII, the table's escapes included,
        is one column a character)."""
        if cell.isascii():
            return len(cell)
        width = self.known.get(cell)
        if width is None:
            if len(self.known) >= 4096:
                self.known.clear()
            width = self.known[cell] = display_width(cell)
        return width

    def add(self, row: Sequence[Any]) -> None:
        cells = ["" if cell is None else visible(str(cell)) for cell in row]
        widths = self.widths
        for i, cell in enumerate(cells):
            width = self.width(cell)
            if width > widths[i]:
                widths[i] = width
        spool_write(self.spool, CELL.join(cells) + ROW)

    def line(self, cells: Sequence[str]) -> str:
        """A row as :func:`~mighty_cli.render.text.pad` lines it up."""
        widths, align, width = self.widths, self.align, self.width
        return "  ".join(
            cell + " " * (widths[i] - width(cell))
            if align[i] == "<"
            else " " * (widths[i] - width(cell)) + cell
            for i, cell in enumerate(cells)
        ).rstrip()

    def echo(self) -> None:
        widths, align = self.widths, self.align
        lines = [
            "  ".join(pad(h, widths[i], align[i]) for i, h in enumerate(self.headers)).rstrip(),
            "  ".join("-" * w for w in widths),
        ]
        self.spool.seek(0)
        for line in self.spool:
            lines.append(self.line(line[:-1].split(CELL)))
            if len(lines) >= ECHO_LINES:
                click.echo("\n".join(lines))
                lines = []
        click.echo("\n".join(lines))


class JsonHands:
    """``{"hands": [...], "totals": ..., "pot": ...}`` as ``json.dumps(..., indent=2)`` writes
    it (:func:`~mighty_cli.cli.options.echo_json`), each hand's object spooled as it comes."""

    def __init__(self, spool: IO[str]) -> None:
        self.spool = spool
        self.count = 0

    def add(self, outcome) -> None:
        text = json.dumps(outcome.to_json(), ensure_ascii=False, indent=2)
        # a level deeper (strings never hold a line break: JSON writes it as \n)
        spool_write(
            self.spool, ("    " if not self.count else ",\n    ") + text.replace("\n", "\n    ")
        )
        self.count += 1

    def echo(self, rest: dict) -> None:
        click.echo(JSON_HANDS + ("\n" if self.count else ""), nl=False)
        self.spool.seek(0)
        while text := self.spool.read(ECHO_CHARS):
            click.echo(text, nl=False)
        tail = json.dumps(rest, ensure_ascii=False, indent=2)[1:]  # its "{" is the hands'
        click.echo((JSON_HANDS_END if self.count else JSON_NO_HANDS) + tail)


class LateHands:
    """Hands a record plays after its session's end (session.hands_per_session,
    session.starting_points): reported, not refused, since a record is what was played.
    Hands are given in order with their ``session`` key (None where they have none); a run of
    hands of one key is a session, tallied as it goes (hands in progress left out)."""

    def __init__(self, rules) -> None:
        self.rules = rules
        self.on = has_session_end(rules)
        self.notes: list[str] = []
        self.session: Any = object()
        self.tally = SessionTally()
        self.end: tuple[int, str] | None = None  # the last hand of the session, and why
        self.later: tuple[int, int, int] = (0, 0, 0)  # hands after it: how many, first, last

    def add(self, session: Any, outcome) -> None:
        if not self.on:
            return
        if session != self.session:
            self.finish()
            self.session, self.tally, self.end = session, SessionTally(), None
        if outcome.status == "in_progress":
            return
        if self.end is not None:
            count, first, _last = self.later
            self.later = (count + 1, first if count else outcome.index, outcome.index)
            return
        reason = self.tally.add(self.rules, outcome.status, outcome.deltas)
        if reason:
            self.end = (outcome.index, reason)

    def finish(self) -> None:
        """The note of the session just played, if hands came after its end."""
        count, first, last = self.later
        if self.end is not None and count:
            if count == 1:
                span = _("hand {number} came after its end").format(number=first)
            else:
                span = _("hands {first}-{last} came after its end").format(first=first, last=last)
            self.notes.append(
                _("the session ended after hand {number} ({reason}); {span}").format(
                    number=self.end[0], reason=self.end[1], span=span
                )
            )
        self.end, self.later = None, (0, 0, 0)
