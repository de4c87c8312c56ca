"""Names as the table types them: case-insensitively, and by a unique prefix (``j`` → 지현 when
nobody else's name starts with j)."""

from __future__ import annotations

import unicodedata
from typing import Optional, Sequence

from ..engine.errors import MightyError


class UnknownName(MightyError):
    """A typed name that matches no player, or more than one."""


def _key(text: str) -> str:
    return unicodedata.normalize("NFC", " ".join(text.split())).casefold()


def match_name(text: str, names: Sequence[str], what: str = "the players") -> str:
    """The one name ``text`` means: an exact match (ignoring case), else the only name it
    begins. Raises UnknownName saying who was meant to be among."""
    key = _key(text)
    if not key:
        raise UnknownName(f"say which of {what} ({', '.join(names)})")
    exact = [n for n in names if _key(n) == key]
    if exact:
        return exact[0]
    starts = [n for n in names if _key(n).startswith(key)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise UnknownName(f"{text.strip()!r} could be {' or '.join(starts)}: type more of the "
                          f"name")
    raise UnknownName(f"{text.strip()!r} is not one of {what} ({', '.join(names)})")


def find_name(text: str, names: Sequence[str]) -> Optional[str]:
    """Like :func:`match_name`, but None when ``text`` names nobody (or several)."""
    try:
        return match_name(text, names)
    except UnknownName:
        return None
