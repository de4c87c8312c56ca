"""Hand-record files (``mighty-hand-record/1``, docs/record-format.md): the format's keys and types,
reading a file into a :class:`Record` with its header and each hand's shape checked, writing one
back, and finding the ruleset it names.

Only the shape is checked here (keys, types, names spelt one way); the rules are checked when the
record is replayed (:mod:`records.replaying`). Every problem is one :class:`RecordError` line naming
the file, the hand and the key.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from .. import names, safe_toml
from ..errors import MightyError, RecordError
from ..limits import RECORD_MAX_BYTES
from ..ruleset import OutsideFolder, Ruleset, bundled_names, load_ruleset, ruleset_from_toml
from ..translation import N_, _

FORMAT = "mighty-hand-record/1"
TOP_KEYS = {
    "format",
    "ruleset",
    "players",
    "hands",
    "ruleset_toml",
    "title",
    "league",
    "date",
    "session",
}
FULL_KEYS = ("deal", "election", "discard", "contract", "friend", "tricks")
RECORDED_KEYS = ("declarer", "contract", "friend", "friend_call", "taken", "opposition")
HAND_KEYS = {
    "dealer",
    "opener",
    "players",
    "note",
    "deal_miss",
    "taken",
    "opposition",
    "declarer",
    "friend_call",
    "session",
    "date",
    "number",
    "elimination",
    "redistribution",
    "eliminated",
    "friend2",
    "session_started",
    "session_ended",
    *FULL_KEYS,
}
STATUSES = ("scored", "deal_miss", "redeal", "in_progress")

_TEXT = (str,)
_SCALAR = (str, int)
_DAY = (str, date)
_TIME = (str, datetime)
#: The type each key must have, and how a message says it (the rest is checked while replaying).
TOP_TYPES = {
    "ruleset": (_TEXT, N_("a ruleset name or path")),
    "title": (_TEXT, N_("a string")),
    "league": (_TEXT, N_("a league name")),
    "date": (_DAY, N_("a date such as 2024-03-05")),
    "session": (_SCALAR, N_("a session number or name")),
    "ruleset_toml": (_TEXT, N_("a ruleset's TOML text in a string")),
}
HAND_TYPES = {
    "dealer": (_TEXT, N_("a player's name")),
    "opener": (_TEXT, N_("a player's name")),
    "declarer": (_TEXT, N_("a player's name")),
    "deal_miss": (_TEXT, N_("a player's name")),
    "friend": (_TEXT, N_('a player\'s name, a call such as "SA", or "none"')),
    "friend2": (_TEXT, N_("a player's name")),
    "friend_call": (_TEXT, N_('a card or a call such as "mighty"')),
    "contract": (_TEXT, N_('a bid such as "15D" or "16NT"')),
    "discard": (_TEXT, N_('cards in one string, such as "C2 D3 H4"')),
    "note": (_TEXT, N_("a string")),
    "date": (_DAY, N_("a date such as 2024-03-05")),
    "session": (_SCALAR, N_("a session number or name")),
    "deal": ((dict,), N_('a table of player = "10 cards" and kitty = "3 cards"')),
    "players": ((list,), N_("a list of the five players' names")),
    "election": ((list,), N_('a list of calls such as "Bo 13H" or "Cy pass"')),
    "tricks": ((list,), N_("a list of strings of played cards")),
    "elimination": ((list,), N_('a list of calls such as "JK Bo" or "D5 kitty"')),
    "redistribution": ((dict,), N_('a table of player = "cards"')),
    "eliminated": ((list,), N_("a list of the eliminated players' names")),
    # A league's export: when the hand's session started and ended (its first hand).
    "session_started": (_TIME, N_("a time such as 2024-03-05T19:30:00+00:00")),
    "session_ended": (_TIME, N_("a time such as 2024-03-05T19:30:00+00:00")),
}
#: Keys of a hand that name a player, spelt as the record's players are (names.normalize).
NAME_KEYS = ("dealer", "opener", "declarer", "deal_miss", "friend", "friend2")
#: Keys of a hand whose list's names (or calls, naming their player) are spelt so.
NAMED_LISTS = ("players", "eliminated", "election")


@dataclass
class Record:
    """A hand-record file: a ruleset, the players in playing order, and hands as plain dicts."""

    ruleset: str
    players: list[str]
    hands: list[dict] = field(default_factory=list)
    format: str = FORMAT
    extra: dict = field(default_factory=dict)
    base_dir: Path | None = None
    #: A ruleset the user named on the command line (``--ruleset``): used instead of the one the
    #: file names, and the only way to use a file outside the record's folder.
    user_ruleset: str | None = None


# --- reading and writing ------------------------------------------------------------------------


def load_record(path: str | Path) -> Record:
    """Read a record file; any problem is a RecordError naming the file."""
    path = Path(path)
    text = safe_toml.read_text(path, RECORD_MAX_BYTES, str(path), RecordError)
    return read_record(text, source=str(path), base_dir=path.parent)


def read_record(text: str, source: str = "<record>", base_dir: Path | None = None) -> Record:
    """Parse record TOML text and check its shape and types (not yet its rules: see
    :func:`replay`). Player names are spelt one way (:func:`names.normalize`) everywhere."""
    data = safe_toml.parse(text, source, RecordError, RECORD_MAX_BYTES)
    record = record_header(data, source, base_dir)
    hands = data.get("hands", [])
    if not isinstance(hands, list) or not all(isinstance(h, dict) for h in hands):
        raise RecordError(_("{source}: hands: expected [[hands]] tables").format(source=source))
    for k, hand in enumerate(hands, 1):
        check_hand_shape(hand, k, record.players, source)
    # Five play each hand; a session seats up to eight (8마 Chicago), and a league's export
    # names everyone who ever played, each hand saying which five.
    if len(record.players) > most_players(record.ruleset) and not all(
        "players" in h for h in hands
    ):
        raise RecordError(five_players_message(source, record.players))
    record.hands = hands
    return record


def record_header(data: dict, source: str, base_dir: Path | None) -> Record:
    """A record's header (format, ruleset, players and the project's extra keys) checked, with
    no hands yet: shared by :func:`read_record` and the streaming reader."""
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(
            _("{source}: format = {value}: expected {expected}").format(
                source=source, value=safe_toml.short(fmt), expected=repr(FORMAT)
            )
        )
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise RecordError(
            _("{source}: unknown key {key} (expected: {keys})").format(
                source=source,
                key=safe_toml.short(sorted(unknown)[0]),
                keys=", ".join(sorted(TOP_KEYS)),
            )
        )
    _check_types(data, TOP_TYPES, source)
    ruleset = data.get("ruleset", "standard")
    players = checked_players(data.get("players"), source)
    extra = {k: v for k, v in data.items() if k not in ("format", "ruleset", "players", "hands")}
    return Record(ruleset=ruleset, players=players, hands=[], extra=extra, base_dir=base_dir)


def checked_players(players: Any, source: str) -> list[str]:
    """A record's ``players``: names without refused characters, spelt one way, none twice,
    at least five."""
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise RecordError(
            _("{source}: players: expected a list of player names").format(source=source)
        )
    for name in players:
        wrong = names.refused_character(name)
        if wrong:
            raise RecordError(
                _("{source}: players: {name} {problem}").format(
                    source=source, name=names.visible(name), problem=wrong
                )
            )
    players = [names.normalize(p) for p in players]
    if len(set(players)) != len(players):
        twice = next(p for p in players if players.count(p) > 1)
        raise RecordError(
            _("{source}: players: {name} appears twice").format(source=source, name=repr(twice))
        )
    if len(players) < 2:
        raise RecordError(five_players_message(source, players))
    return players


@functools.lru_cache(maxsize=64)
def most_players(ruleset: str) -> int:
    """The most players a record names without each hand naming its own: seven (six or seven
    present at a five-player table), or more where the bundled ruleset deals them all a hand
    (8마 Chicago: eight)."""
    try:
        if isinstance(ruleset, str) and ruleset in bundled_names():
            return max(7, load_ruleset(ruleset).table.players)
    except MightyError:
        pass  # the replay names what is wrong with the ruleset
    return 7


def five_players_message(source: str, players: list[str]) -> str:
    # Five play each hand (the ruleset's table.players: 4마, 3마, 2마 fewer; 8마 Chicago up to
    # eight); a session seats up to eight, and a league's export names everyone who ever
    # played, each hand saying which.
    return _(
        "{source}: players: Mighty is played by two to eight (six or seven present, five "
        "playing each hand; 8마 Chicago six to eight; more only when every hand names its "
        "players); got {count}"
    ).format(source=source, count=len(players))


def check_hand_shape(hand: Any, index: int, players: list[str], source: str) -> None:
    """The shape and type checks of one hand (its rules are checked on replay), its names
    spelt as the record's players are; a record of more than eight names each hand's five."""
    if not isinstance(hand, dict):
        raise RecordError(_("{source}: hands: expected [[hands]] tables").format(source=source))
    if _well_typed(hand):  # the usual hand, checked at once: the checks below would pass
        _normalize_names(hand)
        return
    _check_types(hand, HAND_TYPES, _("{source}: hand {index}").format(source=source, index=index))
    if "\0" in hand.get("note", ""):  # a league could not store it on PostgreSQL, nor restore it
        raise RecordError(
            _(
                "{source}: hand {index}: note: holds a NUL character (\\u0000), "
                "which no database stores"
            ).format(source=source, index=index)
        )
    _normalize_names(hand)
    unknown = set(hand) - HAND_KEYS
    if unknown:
        raise RecordError(
            _("{source}: hand {index}: unknown key {key}").format(
                source=source, index=index, key=safe_toml.short(sorted(unknown)[0])
            )
        )


def _check_types(data: dict, types: dict, where: str) -> None:
    for key, (allowed, what) in types.items():
        if key in data:
            value = data[key]
            if not isinstance(value, allowed) or isinstance(value, bool):
                raise RecordError(
                    _("{where}: {key} = {value}: expected {what}").format(
                        where=where, key=key, value=safe_toml.short(value), what=_(what)
                    )
                )
    for key in ("players", "election", "tricks"):
        if (
            key in types
            and isinstance(data.get(key), list)
            and not all(isinstance(v, str) for v in data[key])
        ):
            raise RecordError(
                _("{where}: {key}: expected {what}").format(
                    where=where, key=key, what=_(types[key][1])
                )
            )
    deal = data.get("deal") if "deal" in types else None
    if isinstance(deal, dict) and not all(isinstance(v, str) for v in deal.values()):
        what = types["deal"][1]
        raise RecordError(
            _("{where}: {key}: expected {what}").format(where=where, key="deal", what=_(what))
        )


#: Each key of a hand and the exact types of its value that pass _check_types (None: any value;
#: True: a list of strings; a table of strings for the deal).
_EXACT_TYPES: dict[str, Any] = dict.fromkeys(HAND_KEYS)
_EXACT_TYPES.update(
    {key: frozenset(allowed) - {bool} for key, (allowed, _what) in HAND_TYPES.items()}
)
_EXACT_TYPES.update(players=True, election=True, tricks=True)
_STRINGS = frozenset({str})


def _well_typed(hand: dict) -> bool:
    """Whether every key of a hand is known and its value of exactly the type it needs (a
    quick test; when it fails, _check_types and the key check say what is wrong, in their
    order). Stricter than they are: a subclass of str goes their way."""
    types = _EXACT_TYPES
    for key, value in hand.items():
        allowed = types.get(key, False)
        if allowed is None:
            continue
        if allowed is False:
            return False
        if allowed is True:
            if type(value) is not list or any(type(item) is not str for item in value):
                return False
        elif type(value) not in allowed:
            return False
        elif key == "deal" and any(type(cards) is not str for cards in value.values()):
            return False
        elif key == "note" and "\0" in value:
            return False
    return True


def _normalize_names(hand: dict) -> None:
    """Spell the names a hand mentions as the record's players are spelt."""
    get = NORMALIZED_NAMES.get  # the cache read inline: a record repeats its names in every hand
    for key in NAME_KEYS:
        value = hand.get(key)
        if isinstance(value, str):
            hand[key] = get(value) or normalized_name(value)
    for key in ("players", "eliminated"):
        if isinstance(hand.get(key), list):
            hand[key] = [normalized_name(p) if isinstance(p, str) else p for p in hand[key]]
    deal = hand.get("deal")
    if isinstance(deal, dict):
        hand["deal"] = {get(k) or normalized_name(k): v for k, v in deal.items()}
    election = hand.get("election")
    if isinstance(election, list):
        hand["election"] = [get(c) or normalized_name(c) for c in election]


#: What :func:`checked_value` gives for a value the quick test does not pass.
UNCHECKED: Any = object()


def checked_value(key: str, value: Any) -> Any:
    """One key's value as :func:`check_hand_shape` leaves it in a hand that passes
    :func:`_well_typed` (a name spelt one way, a list of names each spelt so, as a tuple), or
    :data:`UNCHECKED` when this key and value would not pass it: then the hand must go through
    :func:`check_hand_shape` itself. For the streamed reader's fast path, which checks each line
    of a hand once and remembers it (``tests/engine/test_record_lines.py`` holds the two to
    the same results)."""
    allowed = _EXACT_TYPES.get(key, False)
    if allowed is False or key == "deal":
        return UNCHECKED
    if allowed is True:
        if type(value) is not list or any(type(item) is not str for item in value):
            return UNCHECKED
    elif allowed is not None and type(value) not in allowed:
        return UNCHECKED
    if key == "note" and "\0" in value:
        return UNCHECKED
    if key in NAME_KEYS and isinstance(value, str):
        return normalized_name(value)
    if key in NAMED_LISTS and isinstance(value, list):
        return tuple(normalized_name(p) if isinstance(p, str) else p for p in value)
    if isinstance(value, list):
        return tuple(value)
    return value


NORMALIZED_NAMES: dict[str, str] = {}


def normalized_name(text: str) -> str:
    """names.normalize, cached: a record repeats the same names and calls in every hand."""
    name = NORMALIZED_NAMES.get(text)
    if name is None:
        if len(NORMALIZED_NAMES) > 4096:  # names come from files: keep the cache bounded
            NORMALIZED_NAMES.clear()
        name = NORMALIZED_NAMES[text] = names.normalize(text)
    return name


#: A hand's keys in the order docs/record-format.md writes them (any others after them).
HAND_KEY_ORDER = (
    "players",
    "dealer",
    "deal_miss",
    "deal",
    "election",
    "discard",
    "declarer",
    "contract",
    "friend",
    "friend_call",
    "taken",
    "opposition",
    "tricks",
    "note",
)


def _ordered(hand: dict) -> dict:
    return {k: hand[k] for k in HAND_KEY_ORDER if k in hand and hand[k] is not None} | {
        k: v for k, v in hand.items() if k not in HAND_KEY_ORDER and v is not None
    }


def _head(record: Record) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": record.ruleset,
        "players": list(record.players),
    }
    data.update({k: v for k, v in record.extra.items() if v is not None})
    return data


def dump_record(record: Record) -> str:
    """The record as TOML text, in the key order docs/record-format.md uses."""
    import tomli_w

    data = _head(record)
    data["hands"] = [_ordered(hand) for hand in record.hands]
    return tomli_w.dumps(data, multiline_strings=False)


def dump_record_head(record: Record) -> str:
    """The record's text before its hands (its own hands left out), to write a record of one
    hand or more hand by hand: the head, then :func:`dump_record_hand` of each hand. It reads
    back as the record; for hands too long for one line (every refereed hand) it is the same
    text as :func:`dump_record` of the whole."""
    import tomli_w

    return tomli_w.dumps(_head(record), multiline_strings=False)


#: A table header at the start of a line (``[deal]``, ``[[tricks]]``): nothing else starts a
#: line of tomli_w's output with a bracket, array items being indented and strings one-line.
_TABLE_HEADER = re.compile(r"^\[(\[?)", re.MULTILINE)


def dump_record_hand(hand: dict) -> str:
    """One hand of a record written hand by hand (:func:`dump_record_head`), always as a
    ``[[hands]]`` table (a hand short enough for one line would otherwise be written as an
    inline array, which cannot be continued by the next hand)."""
    import tomli_w

    body = tomli_w.dumps(_ordered(hand), multiline_strings=False)
    return "\n[[hands]]\n" + _TABLE_HEADER.sub(r"[\1hands.", body)


def record_ruleset(record: Record) -> Ruleset:
    """The ruleset a record names: an embedded ``ruleset_toml``, a bundled name, or a path.

    A record is a shared file: the path it names (and any ``extends`` on the way) must lead to
    a file in the record's folder or below it. A ruleset the user named on the command line
    (``record.user_ruleset``) is used instead, from anywhere."""
    if record.user_ruleset:
        return load_ruleset(record.user_ruleset)
    folder = record.base_dir or Path.cwd()
    embedded = record.extra.get("ruleset_toml")
    if isinstance(embedded, str) and embedded.strip():
        return ruleset_from_toml(
            embedded, label=f"{record.ruleset} (embedded)", relative_to=folder, confine_to=folder
        ).ruleset
    try:
        return load_ruleset(record.ruleset, relative_to=folder, confine_to=folder)
    except OutsideFolder as exc:
        raise OutsideFolder(
            _("{error} (give another ruleset on the command line: --ruleset FILE)").format(
                error=exc
            )
        ) from None


def renamed_hand(hand: dict, old: str, new: str) -> dict:
    """The hand-record table ``hand`` with player ``old`` called ``new`` wherever the format
    names a player: the name keys, ``player:NAME`` calls, the named lists, an election call's
    caller (its last word is the bid), an elimination call's holder (its first word is the
    card), and the tables keyed by player (``deal``, ``redistribution``). A name is matched
    whole, never as part of another (``Ed`` is not in ``Ed Kim 14S``: the bid is one word)."""

    def name(value: Any) -> Any:
        if value == old:
            return new
        if (
            isinstance(value, str)
            and value.lower().startswith("player:")
            and value[7:].strip() == old
        ):
            return value[:7] + new
        return value

    def call(entry: Any, caller_first: bool) -> Any:
        if not isinstance(entry, str):
            return entry
        if caller_first:  # "Alexander 김-Johnson 14S": the caller, then one word
            parts = entry.rsplit(None, 1)
            return f"{new} {parts[1]}" if len(parts) == 2 and parts[0] == old else entry
        parts = entry.split(None, 1)  # "D6 Alexander 김-Johnson": the card, then the holder
        if len(parts) == 2 and parts[1].strip() == old:
            return f"{parts[0]} {new}"
        return name(entry)

    out = dict(hand)
    for key in NAME_KEYS + ("friend_call",):
        if key in out:
            out[key] = name(out[key])
    for key in ("players", "eliminated"):
        if isinstance(out.get(key), list):
            out[key] = [name(v) for v in out[key]]
    if isinstance(out.get("election"), list):
        out["election"] = [call(v, True) for v in out["election"]]
    if isinstance(out.get("elimination"), list):
        out["elimination"] = [call(v, False) for v in out["elimination"]]
    for key in ("deal", "redistribution"):
        if isinstance(out.get(key), dict):
            out[key] = {name(k): v for k, v in out[key].items()}
    return out
