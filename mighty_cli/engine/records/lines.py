"""A hand's table read and shape-checked at once: the streamed reader's fast path (issue 12).

A season's hands are written the same way hand after hand (an export, tomli_w): ``key = value``
lines, lists of plain strings one a line, ``[hands.KEY]`` sub-tables of plain strings.
:func:`checked_hand` reads such a table and gives exactly what the general path gives it
(:func:`~.record_stream.parse_hand_table`, tomllib-exact, then
:func:`~.record_file.check_hand_shape`): the same dict, the same keys in the same order, names
spelt one way. Anything else (an escape, a comment, other spacing, a key twice, a key or value
the shape check would look at) gives None, and the hand goes the general way, which says what
is wrong.

Two readers, the quicker first:

- **Layouts.** A hand read line by line that holds a list over several lines or a sub-table (a
  full hand) teaches a *layout*: one pattern for the whole table, its keys in their order and
  each value's form (a plain string, an integer, a boolean, a date, a list of plain strings, a
  sub-table of so many plain strings), blank lines anywhere between. The next hands written
  the same way are read by one match of that pattern and a conversion per key.
- **Lines.** Otherwise each ``key = value`` line is parsed and checked once and remembered (a
  season repeats its players, dealers, contracts and counts); the strings of a list and the
  lines of a sub-table (a hand's tricks and deal) are read in one piece each and never
  remembered (names and calls are spelt through record_file's cache of names).

``tests/engine/test_record_lines.py`` holds both to the general path: the same hands and the same
errors word for word.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from datetime import date
from typing import Any, Literal, TypeAlias

from .file import (
    NAME_KEYS,
    NAMED_LISTS,
    NORMALIZED_NAMES,
    UNCHECKED,
    checked_value,
    normalized_name,
)

_INT = re.compile(r"[+-]?(?:0|[1-9][0-9]*)\Z")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")
_PLAIN_STRING = re.compile(r'"[^"\\\x00-\x1f\x7f]*"\Z')
_STRING_LIST = re.compile(
    r'\[[ \t]*(?:"[^"\\\x00-\x1f\x7f]*"[ \t]*,[ \t]*)*'
    r'(?:"[^"\\\x00-\x1f\x7f]*"[ \t]*)?\]\Z'
)
_ESCAPED_STRING = re.compile(r'"(?:[^"\\\x00-\x1f\x7f]|\\["\\bfnrt]|\\u[0-9A-Fa-f]{4})*"\Z')


class SlowPath(Exception):
    """A line the fast path does not take: parse the table with tomllib."""


def toml_value(text: str) -> Any:
    """A TOML value in the forms an export writes, exactly as tomllib reads it."""
    first = text[:1]
    if first == '"':
        if _PLAIN_STRING.match(text):
            return text[1:-1]
        if _ESCAPED_STRING.match(text):
            value = json.loads(text)
            if not any(0xD800 <= ord(c) <= 0xDFFF for c in value):  # TOML has no surrogates
                return value
        raise SlowPath
    if first == "[":
        if _STRING_LIST.match(text):
            return re.findall(r'"([^"]*)"', text)
        raise SlowPath
    if _INT.match(text):
        return int(text)
    if text == "true":
        return True
    if text == "false":
        return False
    if _DATE.match(text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise SlowPath from None
    raise SlowPath


# A hand's table exactly as tomli_w and the exporter write it: ``key = value`` lines (a plain
# string, an integer, a boolean, a date, a list of plain strings one a line or inline), blank
# lines and ``[hands.KEY]`` sub-tables. A block of only these is read by one findall (a line
# that is none of them is caught by the last group: then the block is not canonical).
_PLAIN = r'[^"\\\x00-\x1f\x7f]*'  # what a basic string holds without an escape
_STR = '"' + _PLAIN + '"'
_ENTRY = (
    r"(?:([A-Za-z0-9_-]+) = (?:(" + _STR + r")"
    r"|(\[\n(?:    " + _STR + r",\n)*\]|\[(?:" + _STR + r"(?:, " + _STR + r")*)?\])"
    r"|([+-]?(?:0|[1-9][0-9]*)|true|false|[0-9]{4}-[0-9]{2}-[0-9]{2}))\n"
    r"|\[hands\.([A-Za-z0-9_-]+)\]\n|\n)"
)
ENTRIES = re.compile(_ENTRY + r"|([^\n]*\n)")
QUOTED = re.compile(r'"([^"]*)"')


def checked_hand(text: str) -> dict | None:
    """A hand's table (the text of its ``[[hands]]`` block) parsed and shape-checked at once,
    or None when the general path must read it (see the module's docstring)."""
    if text[-1:] != "\n":
        text += "\n"
    layouts = _LAYOUTS
    for layout in layouts:
        match = layout[0](text)
        if match is not None:
            if layout is not layouts[0]:  # the hands of a season come in a few layouts
                layouts.remove(layout)
                layouts.insert(0, layout)
            try:
                return layout[1](match.groups())
            except SlowPath:  # a date that is no day, a sub-table naming a key twice
                return None
    if " = [\n" not in text and "[hands." not in text:  # one key a line: the usual summary
        return _hand_of_lines(text)
    hand = _hand_by_lines(text)
    if hand is not None:
        _learn(hand, text)
    return hand


# --- lines --------------------------------------------------------------------------------------

#: Lines of hand tables already read, each once: a line's key and its value as the shape check
#: leaves it (a list as a tuple), a key and :data:`_OPEN_LIST` or :data:`_OPEN_TABLE` for a line
#: opening a list over several lines or a ``[hands.KEY]`` sub-table, or False for a line
#: :func:`_hand_by_lines` does not take.
_LINES: dict[str, Any] = {}
_LINE_MEMO_LENGTH = 200  # longer lines (a long note) are read each time, not remembered
_OPEN_LIST: Any = object()  # ``key = [``: a list of strings follows, one a line
_OPEN_TABLE: Any = object()  # ``[hands.KEY]``: a sub-table of strings follows
_OPENER = re.compile(r"([A-Za-z0-9_-]+) = \[\Z|\[hands\.([A-Za-z0-9_-]+)\]\Z")
_ITEM_SEPARATOR = '",\n    "'  # between two strings of a list written one a line
#: What a string may not hold besides the line ends and quotes counted (TOML refuses control
#: characters unescaped; a backslash starts an escape).
_UNPLAIN = re.compile(r"[\x00-\x09\x0b-\x1f\x7f\\]")
_MOST_PAIRS = 16  # a sub-table of more lines goes the general way


def _hand_of_lines(text: str) -> dict | None:
    """The hand of a table of ``key = value`` lines only (no list over several lines, no
    sub-table), each line remembered once; None when it is not written the canonical way."""
    hand: dict[str, Any] = {}
    lines = _LINES
    for line in text.split("\n"):
        entry = lines.get(line)
        if entry is None:
            if not line:
                continue
            entry = _learned_line(line)
        if entry is False:
            return None
        key, value = entry
        if key in hand:
            return None
        hand[key] = list(value) if type(value) is tuple else value
    return hand


def _hand_by_lines(text: str) -> dict | None:
    """The hand of a table (its text ending with a line end) read line by line, each line of a
    key remembered once; None when it is not written the canonical way."""
    hand: dict[str, Any] = {}
    lines = _LINES
    remembered = lines.get
    find = text.find
    position = 0
    size = len(text)
    while position < size:
        end = find("\n", position)
        line = text[position:end]
        position = end + 1
        entry = remembered(line)
        if entry is None:
            if not line:
                continue
            entry = _learned_line(line)
        if entry is False:
            return None
        key, value = entry
        if key in hand:
            return None
        if value is _OPEN_LIST:
            # the strings up to the line "]": one line each, `    "text",`
            close = find("\n]\n", end)
            if close == end:
                value = []
            else:
                strings = text[position:close]
                value = strings[5:-2].split(_ITEM_SEPARATOR)
                # every line is `    "...",` with nothing in its string the form does not
                # allow: the separators account for every quote and line end
                if (
                    close < 0
                    or not strings.startswith('    "')
                    or not strings.endswith('",')
                    or strings.count('"') != 2 * len(value)
                    or strings.count("\n") != len(value) - 1
                    or _UNPLAIN.search(strings)
                ):
                    return None
            position = close + 3
            value = _checked_list(key, value)
            if value is None:
                return None
        elif value is _OPEN_TABLE:
            # the lines up to the next table header (or the hand's end): `key = "text"`
            close = find("\n[", end)
            if close < 0:
                close = size
            value = _table(text[position:close].rstrip("\n"), key)
            if value is None:
                return None
            position = close + 1
        elif type(value) is tuple:
            value = list(value)
        hand[key] = value
    return hand


def _learned_line(line: str) -> Any:
    """:func:`_checked_line`, remembered in the line memo (a memo miss: the loops look the
    line up themselves first)."""
    entry = _checked_line(line)
    if len(line) <= _LINE_MEMO_LENGTH:  # lines come from files: keep the memo small
        if len(_LINES) > 8192:
            _LINES.clear()
        _LINES[line] = entry
    return entry


def _checked_line(line: str) -> Any:
    """(key, value as the shape check leaves it) for one line of a canonical hand table, a key
    and _OPEN_LIST or _OPEN_TABLE for a line opening a list or a sub-table of the kind
    :func:`_hand_by_lines` reads, or False (what the general path's findall reads from the
    line, then :func:`~.record_file.checked_value`)."""
    opener = _OPENER.match(line)
    if opener is not None:
        listed, table = opener.groups()
        if listed:
            return listed, _OPEN_LIST
        # a sub-table the shape check takes as it is read: a table of strings
        return (table, _OPEN_TABLE) if table in ("deal", "redistribution") else False
    match = ENTRIES.fullmatch(line + "\n")
    if match is None:
        return False
    key, string, strings, scalar, _subtable, _other = match.groups()
    if not key:
        return False
    if string:
        value: Any = string[1:-1]
    elif strings:
        value = QUOTED.findall(strings)
    else:
        try:
            value = toml_value(scalar)
        except SlowPath:
            return False
    value = checked_value(key, value)
    return False if value is UNCHECKED else (key, value)


def _checked_list(key: str, strings: list[str]) -> list | None:
    """A list of strings as the shape check leaves it under ``key``, or None where it would
    look at it."""
    if key == "tricks":
        return strings
    if key == "election":
        return _names(strings)
    value = checked_value(key, strings)
    return None if value is UNCHECKED else list(value)


def _table(body: str, key: str) -> dict | None:
    """A sub-table's lines (``name = "text"``, no blank line among them) as the shape check
    leaves it under ``key``, or None when they are written another way or name a key twice."""
    count = body.count("\n") + 1
    if count > _MOST_PAIRS:
        return None
    match = _pairs_pattern(count).fullmatch(body)
    if match is None:
        return None
    try:
        return _pairs_table(match.groups(), 0, count, key == "deal")
    except SlowPath:
        return None


@functools.lru_cache(maxsize=_MOST_PAIRS)
def _pairs_pattern(count: int) -> re.Pattern:
    """``count`` lines of ``name = "text"`` (a bare or quoted name, a plain string)."""
    return re.compile("\n".join([_PAIR] * count))


_PAIR = r"([A-Za-z0-9_-]+|" + _STR + r') = "(' + _PLAIN + ')"'


def _pairs_table(groups: tuple, index: int, count: int, deal: bool) -> dict:
    """The table of ``count`` (name, text) pairs in groups[index:], a name in quotes taken
    within them (names spelt one way for a deal); SlowPath when a name comes twice."""
    end = index + 2 * count
    names = groups[index:end:2]
    if deal and names in _DEAL_NAMES:  # the usual deal: names as the record spells them
        return dict(zip(names, groups[index + 1 : end : 2]))
    quoted = '"' in "".join(names)
    if quoted:
        names = tuple(name[1:-1] if name[:1] == '"' else name for name in names)
    table = dict(zip(names, groups[index + 1 : end : 2]))
    if len(table) != count:
        raise SlowPath  # tomllib's error names the key
    if not deal:
        return table
    normalized = NORMALIZED_NAMES.get
    spelt = {normalized(name) or normalized_name(name): cards for name, cards in table.items()}
    if not quoted and tuple(spelt) == names:  # each name spelt so, none twice: remember them
        if len(_DEAL_NAMES) > 1024:
            _DEAL_NAMES.clear()
        _DEAL_NAMES.add(names)
    return spelt


#: The names of deals read before, each as its table's lines write it (no quotes), spelt as
#: check_hand_shape spells them and none twice: such a deal's table is kept as it is.
_DEAL_NAMES: set[tuple] = set()


# --- layouts ------------------------------------------------------------------------------------


#: The layouts learnt, the last used first (a season's hands come in a few): each the
#: ``fullmatch`` of its pattern and the function making a hand of the match's groups.
#: A layout: its pattern's ``fullmatch``, and the function making a hand of the match.
Layout: TypeAlias = tuple[Callable[[str], re.Match[str] | None], Callable[..., dict]]
_LAYOUTS: list[Layout] = []
_MOST_LAYOUTS = 8


def _names(names: list[str]) -> list[str]:
    """Names (or calls) spelt one way: each from the cache when all are in it (a season
    repeats them), else each through it."""
    try:
        return list(map(_SPELT, names))
    except KeyError:
        return [normalized_name(name) for name in names]


_SPELT = NORMALIZED_NAMES.__getitem__


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise SlowPath from None  # tomllib's error says what is wrong


_SCALARS = {
    bool: (r"(true|false)", "{group} == 'true'"),
    int: (r"([+-]?(?:0|[1-9][0-9]*))", "int({group})"),
    date: (r"([0-9]{4}-[0-9]{2}-[0-9]{2})", "day({group})"),
}
_MULTILINE_STRINGS = r"\[\n((?:    " + _STR + r",\n)*)\]"
_INLINE_STRINGS = r"\[((?:" + _STR + r"(?:, " + _STR + r")*)?)\]"
_NAME = "(get({group}) or normalized({group}))"  # names.normalize, the cache read inline


def _learn(hand: dict, text: str) -> None:
    """Remember the layout of a hand's table just read line by line (its keys and the forms
    of their values), when every value has a form a layout reads.

    The layout's hand is made by a function written for it (as :mod:`dataclasses` writes an
    ``__init__``): a dict display of the keys, each value an expression of the match's groups,
    the same conversions :func:`_hand_by_lines` makes (one Python call per key cost more than
    the rest of the hand). The keys written into it are bare TOML keys, each given as repr()."""
    pieces = []
    values = []
    index = 0
    for key, value in hand.items():
        kind = type(value)
        group = f"g[{index}]"
        if kind is str:
            piece = f'{key} = "({_PLAIN})"'
            expression = _NAME.format(group=group) if key in NAME_KEYS else group
        elif kind in _SCALARS:
            form, convert = _SCALARS[kind]
            piece, expression = f"{key} = {form}", convert.format(group=group)
        elif kind is list:
            if _checked_list(key, [""]) is None:  # a key whose list is not of strings
                return
            inline = not (text.startswith(f"{key} = [\n") or f"\n{key} = [\n" in text)
            piece = f"{key} = {_INLINE_STRINGS if inline else _MULTILINE_STRINGS}"
            separator, skip, trim = ('", "', 1, -1) if inline else (_ITEM_SEPARATOR, 5, -3)
            strings = f"{group}[{skip}:{trim}].split({separator!r})"
            if key in NAMED_LISTS:
                strings = f"names({strings})"
            expression = f"({strings} if {group} else [])"
        elif kind is dict:
            count = len(value)
            if not 0 < count <= _MOST_PAIRS:
                return
            piece = rf"\[hands\.{key}\]\n" + "\n".join([_PAIR] * count)
            expression = f"table(g, {index}, {count}, {key == 'deal'})"
            if key == "deal":  # the usual deal (names as the record spells them) made here
                names, texts = (
                    f"g[{index}:{index + 2 * count}:2]",
                    f"g[{index + 1}:{index + 2 * count}:2]",
                )
                expression = (
                    f"(dict(zip(n, {texts})) if (n := {names}) in known_deals else {expression})"
                )
            index += 2 * count - 1
        else:
            return
        pieces.append(piece + r"\n")
        values.append(f"{key!r}: {expression}")
        index += 1
    source = r"\n*" + r"\n*".join(pieces) + r"\n*"
    layout: Layout | Literal[False] | None = _MADE.get(source)
    if layout is None:
        pattern = re.compile(source)
        if pattern.fullmatch(text) is None:  # a deal whose names are one once spelt so
            layout = False
        else:
            namespace: dict[str, Any] = {
                "get": NORMALIZED_NAMES.get,
                "normalized": normalized_name,
                "day": _day,
                "table": _pairs_table,
                "names": _names,
                "known_deals": _DEAL_NAMES,
            }
            exec(f"def build(g):\n    return {{{', '.join(values)}}}\n", namespace)
            layout = (pattern.fullmatch, namespace["build"])
        if len(_MADE) > 64:  # layouts come from files: keep them few
            _MADE.clear()
        _MADE[source] = layout
    if layout:
        if len(_LAYOUTS) >= _MOST_LAYOUTS:
            _LAYOUTS.pop()
        _LAYOUTS.insert(0, layout)


#: Each layout made, by its pattern (False: one that does not read the hand it was made from):
#: a file of more layouts than are kept makes each once.
_MADE: dict[str, Layout | Literal[False]] = {}
