"""Names as the table types them: case-insensitively, and by a unique prefix (``j`` → 지현 when
nobody else's name starts with j); a list of them comma-separated (``--players A,B,C``)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from ..engine.errors import MightyError
from ..engine.translation import _


class UnknownName(MightyError):
    """A typed name that matches no player, or more than one."""


def _key(text: str) -> str:
    return unicodedata.normalize("NFC", " ".join(text.split())).casefold()


def match_name(text: str, names: Sequence[str], what: str | None = None) -> str:
    """The one name ``text`` means: an exact match (ignoring case), else the only name it
    begins. Raises UnknownName saying who was meant to be among (``what``, translated by the
    caller; default "the players")."""
    what = what or _("the players")
    key = _key(text)
    if not key:
        raise UnknownName(
            _("say which of {what} ({names})").format(what=what, names=", ".join(names))
        )
    exact = [n for n in names if _key(n) == key]
    if exact:
        return exact[0]
    starts = [n for n in names if _key(n).startswith(key)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise UnknownName(
            _("{text!r} could be {names}: type more of the name").format(
                text=text.strip(), names=_(" or ").join(starts)
            )
        )
    raise UnknownName(
        _("{text!r} is not one of {what} ({names})").format(
            text=text.strip(), what=what, names=", ".join(names)
        )
    )


def split_names(text: str | None) -> list[str] | None:
    """``"A,B,C"`` -> ``["A", "B", "C"]`` (names are trimmed); None for None."""
    if text is None:
        return None
    return [name.strip() for name in text.split(",") if name.strip()]


def find_name(text: str, names: Sequence[str]) -> str | None:
    """Like :func:`match_name`, but None when ``text`` names nobody (or several)."""
    try:
        return match_name(text, names)
    except UnknownName:
        return None
