"""Hand records read as a stream: the header first, then one ``[[hands]]`` table at a time.

A season file is a sequence of hands, never one object in memory. :func:`stream_record` reads
the file line by line and returns a :class:`~.record.Record` whose ``hands`` is an iterator
(replay and import consume it once, in order). A hand written the way an export or tomli_w
writes it (a recorded outcome, a deal miss, a full hand with its lists and deal) is read and
shape-checked at once by :mod:`records.lines`. Any other hand's table is parsed by a fast path
for the lines an export writes (``key = value`` with a string, an integer, a boolean, a date or a
list of strings); any other line (an inline table, a comment, other spacing) sends that table
through :mod:`tomllib`, so the result is always exactly what ``tomllib`` would give for the
whole file, and errors are tomllib's, with the file's line number. A pipe is read the same way:
no line and no hand may pass the limits (limits.py), so memory stays flat whatever comes in.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .. import safe_toml
from ..errors import RecordError
from ..inputs import open_text
from ..limits import RECORD_BLOCK_MAX_BYTES, RECORD_LINE_MAX_BYTES
from ..translation import _
from . import Record, check_hand_shape, record_header
from .file import five_players_message, most_players
from .lines import ENTRIES, QUOTED, SlowPath, toml_value
from .lines import checked_hand as _checked_hand

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_LINE = re.compile(r"[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*(.*?)[ \t]*\r?\n?\Z", re.S)


def parse_hand_table(block: str | list[str], first_line: int) -> list[dict]:
    """The hands of one ``[[hands]]`` block (its text, or its lines, header line excluded):
    usually one, by a fast path; through tomllib when a line asks for it."""
    text = block if isinstance(block, str) else "".join(block)
    hand = _canonical_table(text)
    if hand is not None:
        return [hand]
    try:
        return [_fast_table(_LINE_SPLIT.findall(text))]
    except SlowPath:
        pass
    try:
        data = safe_toml.loads("[[hands]]\n" + text)  # the collector paused while it recurses
    except tomllib.TOMLDecodeError as exc:
        raise RecordError(_shift(str(exc), first_line - 2)) from None
    except RecursionError:
        raise RecordError(
            _("line {number}: tables or arrays nested too deeply").format(number=first_line)
        ) from None
    safe_toml.check_depth(data, _("line {number}").format(number=first_line), RecordError)
    extra = set(data) - {"hands"}
    if extra:  # a top-level table after the hands
        return [dict(hand, **{k: data[k] for k in extra}) for hand in data["hands"]]
    return data["hands"]


_LINE_SPLIT = re.compile(r"[^\n]*\n|[^\n]+\Z")


def _canonical_table(text: str) -> dict | None:
    """A hand's table written the canonical way (record_lines.ENTRIES: what tomli_w and the
    exporter write), exactly as tomllib reads it; None when the text is written any other way
    (or repeats a key): then it goes line by line (_fast_table), or through tomllib."""
    if not text.endswith("\n"):
        text += "\n"
    hand: dict[str, Any] = {}
    table = hand
    # entries one after the other over the whole text (findall skips nothing: every line is an
    # entry or the last group's), so the text is canonical unless that group caught a line
    for key, string, strings, scalar, subtable, other in ENTRIES.findall(text):
        if other:
            return None
        if not key:
            if subtable:
                if subtable in hand:
                    return None
                table = hand[subtable] = {}
            continue
        if key in table:
            return None
        if string:
            table[key] = string[1:-1]
        elif strings:
            table[key] = QUOTED.findall(strings)
        else:
            try:
                table[key] = toml_value(scalar)
            except SlowPath:
                return None
    return hand


def _fast_table(lines: list[str]) -> dict:
    """A hand's table from the lines tomli_w and the exporter write: ``key = value`` lines,
    lists of strings over several lines, inline tables of strings, and ``[hands.KEY]``
    sub-tables of strings. Anything else raises SlowPath."""
    hand: dict[str, Any] = {}
    table = hand
    position = 0
    count = len(lines)
    while position < count:
        line = lines[position]
        position += 1
        if "#" in line:
            raise SlowPath
        stripped = _trimmed(line)
        if not stripped:
            continue
        if stripped[0] == "[":
            match = _SUBTABLE.match(stripped)
            if match is None or match.group(1) in hand:
                raise SlowPath
            table = hand[match.group(1)] = {}
            continue
        match = _LINE.match(line)
        if match is None:
            raise SlowPath
        key, value = match.groups()
        if key in table:
            raise SlowPath
        if value == "[":  # a list over several lines, one string a line
            items = []
            separated = True  # TOML needs a comma between two items
            while True:
                if position >= count:
                    raise SlowPath
                item = _trimmed(lines[position])
                position += 1
                if item == "]":
                    break
                if not item:
                    continue
                if not separated or not _LIST_ITEM.match(item):
                    raise SlowPath
                separated = item.endswith(",")
                items.append(item[1 : item.rindex('"')])
            table[key] = items
        elif value[:1] == "{":
            if not _INLINE_TABLE.match(value):
                raise SlowPath
            pairs = dict(_INLINE_PAIR.findall(value))
            if len(pairs) != value.count("="):
                raise SlowPath  # a key twice
            table[key] = pairs
        else:
            table[key] = toml_value(value)
    return hand


def _trimmed(line: str) -> str:
    """A line without its line end and the white space TOML allows around a line's content
    (spaces and tabs: a form feed or a Unicode space is no white space to tomllib)."""
    if line.endswith("\r\n"):
        line = line[:-2]
    elif line.endswith("\n"):
        line = line[:-1]
    return line.strip(" \t")


_SUBTABLE = re.compile(r"\[[ \t]*hands[ \t]*\.[ \t]*([A-Za-z0-9_-]+)[ \t]*\]\Z")
_LIST_ITEM = re.compile(r'"[^"\\\x00-\x1f\x7f]*"[ \t]*,?\Z')
_INLINE_TABLE = re.compile(
    r'\{[ \t]*(?:[A-Za-z0-9_-]+[ \t]*=[ \t]*"[^"\\\x00-\x1f\x7f]*"'
    r"[ \t]*(?:,[ \t]*(?=[A-Za-z0-9_-])|(?=\})))*\}\Z"
)
_INLINE_PAIR = re.compile(r'([A-Za-z0-9_-]+)[ \t]*=[ \t]*"([^"]*)"')


def _shift(message: str, offset: int) -> str:
    """A tomllib message about a block, with the file's line number."""
    return re.sub(r"line (\d+)", lambda m: f"line {int(m.group(1)) + offset}", message)


#: A ``[[hands]]`` header line: ``[[hands]]`` with the white space TOML allows around it
#: (spaces and tabs; a carriage return before the line's end).
_HEADER = re.compile(r"^[ \t]*\[\[hands\]\][ \t]*\r?$", re.M)
_CHUNK = 1 << 18  # characters read at a time


def _quotes(text: str, start: int, end: int) -> int:
    """The triple quotes in text[start:end] (counted in place: no copy of the slice)."""
    return text.count('"""', start, end) + text.count("'''", start, end)


def _blocks(stream: IO[str], name: str) -> Iterator[tuple[int, str]]:
    """(line number of the first line, text) of the header, then of each ``[[hands]]`` block,
    the header line left out. A header inside a multi-line string still open (an odd count of
    triple quotes since the block began) is part of the block. The stream is read in chunks;
    no line may be longer than :data:`~.limits.RECORD_LINE_MAX_BYTES` and no block than
    :data:`~.limits.RECORD_BLOCK_MAX_BYTES` (a file of one endless line, or a pipe of endless
    short lines, is refused, not read into memory)."""
    buffer = ""
    begin = 0  # where the current block begins in the buffer
    start = 1  # its first line's number in the file
    searched = 0  # no header between begin and here (outside the last line read)
    quotes = 0  # triple quotes in buffer[begin:searched]
    at_end = False
    plain = True  # the buffer holds no triple quote: none to count
    match_header = _HEADER.match
    try:
        while True:
            find = buffer.find
            if plain:  # the usual headers first: [[hands]] alone on its line, no quotes to count
                found = find("[[hands]]", searched)
                while (
                    found >= 0
                    and buffer[found + 9 : found + 10] == "\n"
                    and (found == searched or buffer[found - 1] == "\n")
                ):
                    text = buffer[begin:found]
                    yield start, text
                    start += text.count("\n") + 1
                    begin = searched = found + 10
                    found = find("[[hands]]", searched)
            # the next header line: the lines holding [[hands]] found by str.find (far quicker
            # than the pattern trying every line), each tested with the pattern from its start
            found = find("[[hands]]", searched)
            header = -1
            while found >= 0:
                if buffer[found + 9 : found + 10] == "\n" and (
                    found == searched or buffer[found - 1] == "\n"
                ):
                    header, after = found, found + 9  # the usual header: the line's only text
                    break
                match = match_header(buffer, buffer.rfind("\n", searched, found) + 1 or searched)
                if match is not None:
                    header, after = match.span()
                    break
                found = find("[[hands]]", found + 1)
            # a header needs its whole line: the line's end read, or the stream's
            if header >= 0 and (after < len(buffer) or at_end):
                if not plain:
                    quotes += _quotes(buffer, searched, header)
                searched = after + 1
                if quotes % 2:  # inside a multi-line string: not a header
                    continue
                text = buffer[begin:header]
                yield start, text
                start += text.count("\n") + 1
                begin = searched
                quotes = 0
                continue
            if at_end:
                yield start, buffer[begin:]
                return
            # no header so far: the complete lines hold none, the last one may be cut
            last_line = buffer.rfind("\n") + 1
            if last_line > searched:
                if not plain:
                    quotes += _quotes(buffer, searched, last_line)
                searched = last_line
            chunk = stream.read(_CHUNK)
            if not chunk:
                at_end = True
                continue
            buffer = buffer[begin:] + chunk
            plain = '"""' not in buffer and "'''" not in buffer
            searched -= begin
            last_line -= begin
            begin = 0
            # one hand (or the header) under its limit: an endless stream of short lines is
            # refused too
            if len(buffer) > RECORD_BLOCK_MAX_BYTES:
                raise RecordError(
                    _(
                        "{label}: line {line}: a hand (or the header) longer than "
                        "{size} MiB: not a file this tool reads"
                    ).format(label=name, line=start, size=RECORD_BLOCK_MAX_BYTES >> 20)
                )
            # every line read so far under the limit (the last may still be incomplete)
            if (
                len(buffer) - last_line > RECORD_LINE_MAX_BYTES
                and max(map(len, buffer[last_line:].split("\n"))) > RECORD_LINE_MAX_BYTES
            ):
                raise RecordError(
                    _("{label}: a line longer than {size} MiB: not a file this tool reads").format(
                        label=name, size=RECORD_LINE_MAX_BYTES >> 20
                    )
                )
    except UnicodeDecodeError as exc:
        raise RecordError(
            _("{label}: cannot read: not UTF-8 text ({error})").format(label=name, error=exc)
        ) from None
    finally:
        stream.close()


def open_record(path: Path) -> IO[str]:
    """A record file opened for :func:`stream_record`. A pipe or a device is streamed like a
    file: it has no size to trust (/dev/zero never ends), but _blocks refuses a line or a hand
    beyond the limits before holding it."""
    return open_text(path, str(path), RecordError)


def stream_record(
    source: IO[str] | str | Path, name: str | None = None, base_dir: Path | None = None
) -> Record:
    """A record read from a text stream or a file, its hands an iterator. The header (format,
    ruleset, players) is read and checked now; each hand is checked as it comes (the same
    checks as :func:`~.record.read_record`)."""
    if isinstance(source, (str, Path)):
        path = Path(source)
        name = name or str(path)
        base_dir = base_dir or path.parent
        stream = open_record(path)
    else:
        stream = source
    name = name or "<record>"
    blocks = _blocks(stream, name)
    _first_line, header = next(blocks)
    data = safe_toml.parse(header, name, RecordError)
    record = record_header(data, name, base_dir)
    hands = _hands(
        data.get("hands", []), blocks, record.players, name, most_players(record.ruleset)
    )
    record.hands = hands  # type: ignore[assignment]  # streamed: an iterator, read once
    return record


def _hands(
    first: Any, blocks: Iterator[tuple[int, str]], players: list[str], source: str, most: int = 7
) -> Iterator[dict]:
    index = 0
    if not isinstance(first, list):
        raise RecordError(_("{source}: hands: expected [[hands]] tables").format(source=source))

    for hand in first:
        index += 1
        check_hand(hand, index, players, source, most)
        yield hand
    named = len(players) > most  # every hand must name its players
    for start, text in blocks:
        hand = _checked_hand(text)  # the usual hand: read and checked at once (record_lines)
        if hand is not None:
            index += 1
            if named and "players" not in hand:
                raise RecordError(five_players_message(source, players))
            yield hand
            continue
        try:
            tables = parse_hand_table(text, start)
        except RecordError as exc:
            raise RecordError(
                _("{label}: not valid TOML: {error}").format(label=source, error=exc)
            ) from None
        for hand in tables:
            index += 1
            check_hand(hand, index, players, source, most)
            yield hand


def check_hand(hand: Any, index: int, players: list[str], source: str, most: int = 7) -> None:
    """The checks :func:`~.record.read_record` makes of each hand, one hand at a time (``most``:
    the players a record names without each hand naming its own, record_file.most_players)."""
    check_hand_shape(hand, index, players, source)
    if len(players) > most and "players" not in hand:
        raise RecordError(five_players_message(source, players))
