"""A hand's entry as a front end sends it: the JSON body of ``POST /api/tables/T/hands`` (and of
the field checks), or the fields of the table page's form, read into what
:mod:`mighty_cli.table.score_entry` takes: ``record``'s option names to the text typed.

The body is ``{"code", "hand", "declarer", "contract", "friend", "taken"}`` plus the variants'
keys, named as ``record``'s options (:data:`ENTRY_KEYS`: ``friend_call``, ``eliminated``,
``opposition``, ``deal_miss``, ``dealer``, ``players``, ``note``; ``deal-miss`` and
``friend-call`` as the options are spelled; ``again`` as ``--again``). ``friend`` is a name
or a list of two (a second friend where two cards are called); ``eliminated`` and
``players`` a list or names separated by commas; ``taken`` a count or a split (``10+8+2``).
Whatever is malformed (not JSON, not an object, a key twice or unknown, a value of the wrong
kind, too long, a character that changes what a screen shows) is a 4xx with one line
(:class:`~.forms.RequestError`); what the values mean is the table's to judge.
"""

from __future__ import annotations

import json
from typing import Any

from ..engine.names import refused_character
from ..engine.translation import _
from .forms import RequestError

#: The largest JSON body read (bytes): an entry is a few names and numbers.
JSON_MAX_BYTES = 16 * 1024
#: The longest text of one value (characters).
VALUE_MAX = 200
#: The entry's keys besides the code, the table's hand and ``again``: ``record``'s options.
ENTRY_KEYS = (
    "declarer",
    "contract",
    "friend",
    "taken",
    "friend_call",
    "eliminated",
    "opposition",
    "deal_miss",
    "dealer",
    "players",
    "note",
)
#: Keys a front end may send besides the entry's.
OTHER_KEYS = ("code", "hand", "again")
#: The highest table hand a body may name.
HAND_MAX = 10**6


async def read_json(request) -> dict[str, Any]:
    """The request's JSON object, or :class:`RequestError` (415 for another type, 413 too
    large, 400 unreadable, not an object, a key twice)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise RequestError(415, _("send the entry as application/json"))
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > JSON_MAX_BYTES:
            raise RequestError(
                413, _("the request is larger than {size} KiB").format(size=JSON_MAX_BYTES >> 10)
            )
    try:
        found = json.loads(
            bytes(body).decode("utf-8"), object_pairs_hook=_once, parse_constant=_no_constant
        )
    except UnicodeDecodeError:
        raise RequestError(400, _("the request is not UTF-8 text")) from None
    except RequestError:
        raise
    except (ValueError, RecursionError):
        raise RequestError(400, _("the request is not JSON")) from None
    if not isinstance(found, dict):
        raise RequestError(400, _("the request is not a JSON object"))
    return found


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise RequestError(400, _("the request gives {key!r} twice").format(key=key[:40]))
        found[key] = value
    return found


def _no_constant(name: str):
    raise RequestError(400, _("the request is not JSON"))


def entry_key(key: str) -> str:
    """A key as the entry names it: ``deal-miss`` is ``deal_miss``."""
    return key.replace("-", "_")


def entry_fields(body: dict[str, Any]) -> dict[str, Any]:
    """The entry's fields of a JSON body (``record``'s option names to text, ``friend`` a
    list), each checked for its kind; an unknown key or one given twice is refused."""
    fields: dict[str, Any] = {}
    for key, value in body.items():
        name = entry_key(str(key))
        if name in OTHER_KEYS:
            continue
        if name not in ENTRY_KEYS:
            raise RequestError(
                400,
                _("{key!r} is not a key of an entry ({keys})").format(
                    key=str(key)[:40], keys=", ".join((*OTHER_KEYS, *ENTRY_KEYS))
                ),
            )
        if name in fields:
            raise RequestError(400, _("the request gives {key!r} twice").format(key=name))
        fields[name] = _value(name, value)
    return {name: value for name, value in fields.items() if value not in (None, "", [])}


def _value(name: str, value: Any):
    if value is None:
        return None
    if name in ("friend", "eliminated", "players") and isinstance(value, list):
        most = 2 if name == "friend" else 10
        if len(value) > most:
            raise RequestError(400, _("{key}: at most {count} names").format(key=name, count=most))
        names = [_text(name, item, numbers=False) for item in value]
        names = [item for item in names if item]
        if name == "friend":
            return names
        return ", ".join(names)
    text = _text(name, value, numbers=name in ("taken", "opposition"))
    return [text] if name == "friend" and text else text


def _text(name: str, value: Any, *, numbers: bool) -> str:
    if (
        isinstance(value, bool)
        or not isinstance(value, (str, int))
        or (isinstance(value, int) and not numbers)
    ):
        kind = _("a text or a whole number") if numbers else _("a text")
        raise RequestError(400, _("{key}: expected {kind}").format(key=name, kind=kind))
    text = str(value).strip()
    if len(text) > VALUE_MAX:
        raise RequestError(
            400, _("{key}: longer than {count} characters").format(key=name, count=VALUE_MAX)
        )
    wrong = refused_character(text)
    if wrong:
        raise RequestError(400, f"{name}: {wrong}")
    return text


def table_hand(value: Any) -> int:
    """The table's hand the entry names (``hand``): a whole number from 1."""
    if value is None:
        raise RequestError(400, _("hand: required (the table's hand this entry is)"))
    if (
        isinstance(value, str)
        and value.strip().isascii()
        and value.strip().isdigit()
        and len(value.strip()) < 8
    ):
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= HAND_MAX:
        raise RequestError(400, _("hand: a whole number from 1 to {high}").format(high=HAND_MAX))
    return value


def again(value: Any) -> bool:
    """``again`` (``record --again``): true or false."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise RequestError(400, _("again: true or false"))
    return value


def code(value: Any) -> str | None:
    """The table's entry code, as given (None: none)."""
    if value is None:
        return None
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise RequestError(400, _("code: expected a text"))
    text = str(value).strip()
    if len(text) > 40:
        raise RequestError(400, _("code: longer than {count} characters").format(count=40))
    return text or None
