"""Player and league names: one spelling for one name, and nothing invisible in it.

A name is compared in Unicode NFC (a composed 한 and a decomposed 한 are one player), with its
spaces trimmed and runs of spaces made one (``"A"`` and ``"A "`` are one player, in a record as
in a league). Characters that change what a terminal shows without being seen (control
characters such as the escape that sets a terminal's title, zero-width and bidirectional
formatting such as U+202E that reverses a score on screen) are refused, never stripped
silently: the user learns which character and where.

Two names of one list that differ only in case or in the form of a character (``Anna`` and
``anna``, a full-width ``Ａ`` and ``A``) are one name to a reader and to the table's name
matching (:func:`folded`), so a list naming both is refused. A new name may not hold ``/``,
which separates the two names of ``--apart A/B`` and ``--substitute S/X``
(:data:`PAIR_SEPARATOR`); a store made before keeps its names, and a pair naming one of them is
read by the names the store knows (:func:`pair_splits`).
"""

from __future__ import annotations

import unicodedata

from .translation import N_, _

#: Unicode categories a name may not contain, and how a message names them.
REFUSED_CATEGORIES = {
    "Cc": N_("a control character"),
    "Cf": N_("an invisible formatting character (zero-width or bidirectional)"),
    "Co": N_("a private-use character"),
    "Cs": N_("a lone surrogate"),
    "Zl": N_("a line separator"),
    "Zp": N_("a paragraph separator"),
}


#: What separates the two names of a pair on the command line (``--apart A/B``).
PAIR_SEPARATOR = "/"


def normalize(text: str) -> str:
    """NFC, trimmed, with every run of white space made one space."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def refused_character(text: str) -> str | None:
    """What is wrong with the first refused character of ``text`` (None when there is none)."""
    for position, character in enumerate(text, 1):
        kind = REFUSED_CATEGORIES.get(unicodedata.category(character))
        if kind:
            return _("contains {kind}, U+{code:04X}, at character {position}").format(
                kind=_(kind), code=ord(character), position=position
            )
    return None


def visible(text: str) -> str:
    """``text`` quoted for a message, every refused character written as its code."""
    shown = "".join(
        f"\\u{ord(c):04x}" if unicodedata.category(c) in REFUSED_CATEGORIES else c
        for c in text[:60]
    )
    return "'" + shown + ("...'" if len(text) > 60 else "'")


def folded(text: str) -> str:
    """``text`` as names are told apart: NFKC, case folded (Unicode's caseless matching), so
    ``Anna``, ``anna`` and a full-width ``Ａnna`` are one."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def same_but_for_case(names: list[str]) -> tuple[str, str] | None:
    """The first two names of ``names`` that differ but are one name folded (:func:`folded`),
    else None."""
    seen: dict[str, str] = {}
    for name in names:
        first = seen.setdefault(folded(name), name)
        if first != name:
            return first, name
    return None


def pair_splits(text: str) -> list[tuple[str, str]]:
    """Every way of reading ``text`` as two names ``A/B``: one for each ``/`` in it (a name of
    an older store may hold one), each name trimmed and non-empty."""
    splits = []
    for at, character in enumerate(text):
        if character == PAIR_SEPARATOR:
            first, second = normalize(text[:at]), normalize(text[at + 1 :])
            if first and second:
                splits.append((first, second))
    return splits
