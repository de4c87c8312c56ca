"""The export's text of one hand, from its view: TOML, JSON or CSV.

The general writers take a :class:`~..ledger.hand_reads.HandView` (the hand with names, as ``hand show``
sees it): :func:`toml_hand` of :func:`export_hand`, :func:`hand_json` and :func:`csv_row`;
:func:`toml_export_hand` and :func:`json_export_hand` write the same text directly for a hand
recorded by its outcome. An export runs the chunk writers of :mod:`.export_chunks`, which write
from the store's rows and send every hand they do not cover here.
"""

from __future__ import annotations

import json
import re
from datetime import date
from functools import lru_cache
from typing import Any

from ...engine.records import FORMAT
from ...engine.safe_toml import tomllib
from ..ledger.hand_reads import HandView
from ..models import League

_JSON = json.JSONEncoder(ensure_ascii=False, default=str)


# --- TOML ---------------------------------------------------------------------------------------


_PLAIN = re.compile(r'[^"\\\x00-\x1f\x7f]*\Z')


@lru_cache(maxsize=4096)  # names, contracts and calls repeat on every hand
def toml_string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's, but DEL must be escaped too)."""
    if _PLAIN.match(text):
        return f'"{text}"'
    quoted = _JSON.encode(text)
    return quoted.replace("\x7f", "\\u007f") if "\x7f" in quoted else quoted


def _toml_value(value: Any) -> str:
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "[" + ", ".join(map(toml_string, value)) + "]"
    raise TypeError(type(value).__name__)


#: The key order of an exported hand (docs/record-format.md's, with number, session and date first).
TOML_ORDER = (
    "number",
    "session",
    "date",
    "session_started",
    "session_ended",
    "players",
    "dealer",
    "deal_miss",
    "declarer",
    "contract",
    "friend",
    "friend2",
    "friend_call",
    "taken",
    "opposition",
    "note",
)


def toml_hand(hand: dict) -> str:
    """One ``[[hands]]`` table as TOML text; a refereed hand (nested tables, card lists)
    goes through tomli_w."""
    lines = ["\n[[hands]]\n"]
    try:
        for key in TOML_ORDER:
            if key in hand:
                lines.append(f"{key} = {_toml_value(hand[key])}\n")
        for key, value in hand.items():
            if key not in TOML_ORDER:
                lines.append(f"{key} = {_toml_value(value)}\n")
    except TypeError:
        import tomli_w

        ordered = {k: hand[k] for k in TOML_ORDER if k in hand} | hand
        return "\n" + tomli_w.dumps({"hands": [ordered]}, multiline_strings=False)
    return "".join(lines)


def export_hand(view: HandView, times: tuple | None = None) -> dict:
    hand = {"number": view.number} | view.hand_dict()
    if times:  # the session's first hand: when it started and ended
        hand["session_started"] = times[0]
        if times[1] is not None:
            hand["session_ended"] = times[1]
    return hand


@lru_cache(maxsize=4096)  # a league has few seatings
def toml_names(names: tuple[str, ...]) -> str:
    return "[" + ", ".join(map(toml_string, names)) + "]"


def toml_export_hand(view: HandView, times: tuple | None = None) -> str:
    """An exported hand as TOML text: what ``toml_hand(export_hand(view, times))`` writes,
    built directly for a hand recorded by its outcome (a refereed hand, a 6마/7마 hand naming
    the eliminated, or a hand of two friends goes the general way). ``times``: the session's
    start and end, given with its first hand."""
    if view.full and view.record_toml or view.eliminated or view.friend2:
        return toml_hand(export_hand(view, times))
    text = (
        f"\n[[hands]]\nnumber = {view.number}\nsession = {view.session}\n"
        f"date = {view.day.isoformat()}\n"
    )
    if times:
        text += f"session_started = {times[0].isoformat()}\n"
        if times[1] is not None:
            text += f"session_ended = {times[1].isoformat()}\n"
    text += f"players = {toml_names(tuple(view.players))}\n"
    if view.dealer is not None:
        text += f"dealer = {toml_string(view.dealer)}\n"
    if view.status == "deal_miss":
        if view.deal_miss is not None:
            text += f"deal_miss = {toml_string(view.deal_miss)}\n"
    else:
        if view.declarer is not None:
            text += f"declarer = {toml_string(view.declarer)}\n"
        if view.contract is not None:
            text += f"contract = {toml_string(view.contract)}\n"
        text += f"friend = {toml_string(view.friend or 'none')}\n"
        if view.friend_call is not None:
            text += f"friend_call = {toml_string(view.friend_call)}\n"
        if view.taken is not None:
            text += f"taken = {view.taken}\n"
    if view.note:
        text += f"note = {toml_string(view.note)}\n"
    return text


def toml_header(league: League, players: list[str]) -> str:
    import tomli_w

    return tomli_w.dumps(
        {
            "format": FORMAT,
            "ruleset": league.ruleset_name,
            "players": players,
            "league": league.name,
            "ruleset_toml": league.ruleset_toml,
        },
        multiline_strings=False,
    )


# --- JSON ---------------------------------------------------------------------------------------


def hand_json(view: HandView, times: tuple | None = None) -> dict:
    """A hand as JSON: the view's fields (as ``HandView.to_json``), a refereed hand's record,
    and on a session's first hand (``times``) when the session started and ended."""
    base = view.base
    data = {
        "number": view.number,
        "session": view.session,
        "day": view.day.isoformat(),
        "status": view.status,
        "voided": view.voided,
        "players": view.players,
        "sitting_out": view.sitting_out,
        "dealer": view.dealer,
        "declarer": view.declarer,
        "friend": view.friend,
        "friend_call": view.friend_call,
        "contract": view.contract,
        "taken": view.taken,
        "success": view.success,
        "base": int(base) if base is not None and float(base).is_integer() else base,
        "multiplier": view.multiplier,
        "doublings": view.doublings,
        "deal_miss": view.deal_miss,
        "pot_after": view.pot_after,
        "full": view.full,
        "note": view.note,
        "deltas": view.deltas,
    }
    if view.eliminated:  # 6마, 7마
        data["eliminated"] = view.eliminated
    if view.friend2:  # 동대전 7마's second friend
        data["friend2"] = view.friend2
    if view.full and view.record_toml:
        data["record"] = tomllib.loads(view.record_toml)
    if times:
        data["session_started"] = times[0].isoformat()
        data["session_ended"] = times[1] and times[1].isoformat()
    return data


json_dumps = _JSON.encode
#: JSON of a value that repeats from hand to hand (typed: True, 1 and 1.0 are not the same).
json_value = lru_cache(maxsize=8192, typed=True)(json_dumps)


@lru_cache(maxsize=4096)
def json_names(names: tuple[str, ...]) -> str:
    return json_dumps(list(names))


def json_export_hand(view: HandView, times: tuple | None = None) -> str:
    """An exported hand as JSON text: what ``json_dumps(hand_json(view, times))`` writes, built
    directly for a hand recorded by its outcome (a refereed hand, or a 6마/7마 hand naming the
    eliminated, goes the general way)."""
    if view.full and view.record_toml or view.eliminated or view.friend2:
        return json_dumps(hand_json(view, times))
    j = json_value
    base = view.base
    if base is not None and float(base).is_integer():
        base = int(base)
    deltas = ", ".join([f"{j(name)}: {value}" for name, value in view.deltas.items()])
    return (
        f'{{"number": {view.number}, "session": {view.session}, '
        f'"day": "{view.day.isoformat()}", "status": {j(view.status)}, '
        f'"voided": {"true" if view.voided else "false"}, '
        f'"players": {json_names(tuple(view.players))}, '
        f'"sitting_out": {json_names(tuple(view.sitting_out))}, '
        f'"dealer": {j(view.dealer)}, "declarer": {j(view.declarer)}, '
        f'"friend": {j(view.friend)}, "friend_call": {j(view.friend_call)}, '
        f'"contract": {j(view.contract)}, "taken": {j(view.taken)}, '
        f'"success": {j(view.success)}, "base": {j(base)}, '
        f'"multiplier": {j(view.multiplier)}, '
        f'"doublings": {json_names(tuple(view.doublings))}, '
        f'"deal_miss": {j(view.deal_miss)}, "pot_after": {view.pot_after}, '
        f'"full": {"true" if view.full else "false"}, "note": {json_dumps(view.note)}, '
        f'"deltas": {{{deltas}}}'
        + (
            "}"
            if not times
            else f', "session_started": "{times[0].isoformat()}", "session_ended": '
            f"{json_dumps(times[1] and times[1].isoformat())}}}"
        )
    )


# --- CSV ----------------------------------------------------------------------------------------


#: What a spreadsheet reads as the start of a formula (OWASP's CSV injection list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> str:
    """Every CSV cell is written through here: blank for nothing, whole numbers without
    ``.0``, and text a spreadsheet would run as a formula (a player named ``=HYPERLINK(...)``)
    neutralised by a leading apostrophe (:func:`.formats.csv_value` reads it back); numbers
    stay numbers."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return str(value)


#: :func:`csv_cell` of a text that repeats from hand to hand (names, contracts, seatings).
_csv_text = lru_cache(maxsize=8192, typed=True)(csv_cell)  # typed: True is not 1.0

#: A note's characters a CSV cell writes escaped, so each hand stays one line.
_NOTE_ESCAPES = str.maketrans({"\\": "\\\\", "\n": "\\n", "\r": "\\r"})


def csv_note(note: str | None) -> str:
    """A note as a CSV cell on one line: a line break written ``\\n`` (``\\r``), a backslash
    ``\\\\`` (:func:`.formats.csv_note_value` reads it back)."""
    return "" if note is None else csv_cell(note.translate(_NOTE_ESCAPES))


def record_json(record_toml: str) -> str:
    """A refereed hand's record as one line of JSON: the JSON export's ``record``."""

    return json_dumps(tomllib.loads(record_toml))


def csv_row(view: HandView, names: list[str], times: tuple | None = None) -> list[str]:
    """One hand as a CSV row: the fixed columns (:data:`.exports.CSV_COLUMNS`), then each
    player's points (blank for a player who sat the hand out and paid nothing). Every cell is
    :func:`csv_cell`'s; no cell holds a line break. The session's start and end (``times``, as
    :func:`.exports.csv_session_times` gives them) are written on its first hand only."""
    text = _csv_text
    playing = view.players
    deltas = view.deltas
    taken, multiplier = view.taken, view.multiplier
    row = [
        str(view.number),
        str(view.session),
        view.day.isoformat(),
        text(view.status),
        text(view.dealer),
        text(view.declarer),
        text(view.contract),
        text(f"{view.friend}, {view.friend2}" if view.friend2 else view.friend),
        text(view.friend_call),
        "" if taken is None else str(taken),
        "" if view.success is None else "made" if view.success else "failed",
        text(view.base),
        "" if multiplier is None else str(multiplier),
        text(" ".join(view.doublings)),
        text(view.deal_miss),
        str(view.pot_after),
        text(", ".join(playing)),
        text(", ".join(view.eliminated)) if view.eliminated else "",
        csv_note(view.note),
        times[0].isoformat(sep=" ") if times else "",
        times[1].isoformat(sep=" ") if times and times[1] is not None else "",
        record_json(view.record_toml) if view.full and view.record_toml else "",
    ]
    for name in names:
        value = deltas.get(name)
        row.append("" if value is None or (not value and name not in playing) else str(value))
    return row
