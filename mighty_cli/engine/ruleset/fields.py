"""How a ruleset option is declared: a dataclass field carrying its documentation, its
constraints and its source (read by ``ruleset/__init__.py``'s loading, ``ruleset/coercion.py``'s
checks by ``kind``, ``mighty ruleset show``/``diff`` and the catalog's option docs); the rank
names options may use; the ruleset's ``[meta]`` table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RANK_KEYS = ("A", "K", "Q", "J", "10")
#: The ranks cards.point_ranks may name: 서울과고's 11 too, where the deck has it
#: (table.rank_eleven).
POINT_RANK_KEYS = ("A", "K", "Q", "J", "11", "10")
BID_COUNTS = ("taken", "opposition_beats", "opposition_limit", "tricks")


def option(
    default: Any,
    doc: str,
    *,
    source: str = "",
    kind: str = "",
    choices: tuple = (),
    low: float | None = None,
    high: float | None = None,
) -> Any:
    """A ruleset option: a dataclass field with its documentation and constraints."""
    meta = {
        "doc": doc,
        "source": source,
        "kind": kind,
        "choices": choices,
        "low": low,
        "high": high,
    }
    if isinstance(default, (dict, list)):
        return field(default_factory=lambda: type(default)(default), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class Meta:
    """Who the ruleset is for and where its rules come from."""

    name: str = option("standard", "Short name of the ruleset (the file name without .toml).")
    title: str = option("Standard Mighty", "Human-readable title, in the club's own words.")
    description: str = option("", "What this rulebook is and who plays it.")
    source: str = option("003; 000 §3.2, §4", "The documents the rules come from.")
