"""Terminal tables that line up with Korean (and other wide) characters.

Hangul and CJK characters take two terminal columns; ``display_width`` counts columns, not
code points, so a column of 주공 names lines up with a column of Latin ones.
"""

from __future__ import annotations

import unicodedata
from typing import Callable, Iterable, Optional, Sequence
from ..engine.translation import N_, gettext as tool_gettext


def display_width(text: str) -> int:
    """How many terminal columns a string takes."""
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def signed(value: int) -> str:
    """A score change as a table shows it: ``+5``, ``-5``, ``0``."""
    return f"{value:+d}" if value else "0"


def pad(text: str, width: int, align: str = "<") -> str:
    """Pad a string to a display width, left (``<``) or right (``>``) aligned."""
    gap = max(0, width - display_width(text))
    return text + " " * gap if align == "<" else " " * gap + text


def table(headers: Sequence[str], rows: Iterable[Sequence[object]],
          align: str | None = None) -> str:
    """A plain-text table; ``align`` is one character per column, ``<`` or ``>``
    (numbers right-aligned by default)."""
    body = [["" if cell is None else visible(str(cell)) for cell in row] for row in rows]
    if align is None:
        align = "".join(">" if body and all(_numeric(r[i]) for r in body) else "<"
                        for i in range(len(headers)))
    widths = [display_width(h) for h in headers]
    for row in body:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], display_width(cell))
    lines = ["  ".join(pad(h, widths[i], align[i]) for i, h in enumerate(headers)).rstrip(),
             "  ".join("-" * w for w in widths)]
    for row in body:
        lines.append("  ".join(pad(c, widths[i], align[i]) for i, c in enumerate(row)).rstrip())
    return "\n".join(lines)


#: Characters a terminal acts on without showing (escapes, bidirectional overrides): a cell
#: shows them as codes, so a stored reason or an old name never retitles or reorders a screen.
_HIDDEN = ("Cc", "Cf", "Zl", "Zp")


def visible(text: str) -> str:
    """``text`` with every control or invisible formatting character written as ``\\uXXXX``."""
    if text.isprintable():
        return text
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) in _HIDDEN else c
                   for c in text)


def _numeric(cell: str) -> bool:
    text = cell.replace("%", "").replace(",", "").strip()
    if text in ("", "-"):
        return True
    try:
        float(text)
    except ValueError:
        return False
    return True


def friend_call_text(call: str, gettext: Optional[Callable[[str], str]] = None) -> str:
    """A stored friend call (``SA``, ``joker``, ``mighty``, ``first-trick``, ``player:Bo``,
    ``none``) as a table or page says it, in the user's language (or ``gettext``'s, a page's):
    ``♠A``, ``조커``, ``초구``."""

    translate = gettext or tool_gettext
    words = {"joker": translate(N_("the joker")), "mighty": translate(N_("the Mighty (마이티)")),
             "none": translate(N_("no friend (노프렌드)")),
             "first-trick": translate(N_("the first trick's winner (초구)")),
             "last-trick": translate(N_("the last trick's winner (막구)"))}
    low = call.strip().lower()
    if low in words:
        return words[low]
    if low.startswith("player:"):
        return call.strip()[7:].strip()
    head, space, lead = call.strip().partition(" ")  # " lead:H" kept as written
    return "+".join(_card_face(part, words) for part in head.split("+")) + space + lead


def _card_face(card: str, words: dict) -> str:
    symbols = dict(zip("SDHC", "♠◆♥♣"))
    if card.lower() in ("joker", "jk"):
        return words["joker"] if card.lower() == "joker" else card
    first = card[:1].upper()
    return symbols[first] + card[1:] if first in symbols and len(card) > 1 else card
