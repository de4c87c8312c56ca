"""An option's value from a ruleset file, checked and put in its canonical form.

Each option is checked by its kind (``option(kind=...)`` in ``ruleset/fields.py``: a card, a
list of cards, suits, ranks, weights, an expression...) or, where it declares none, by its type
(``bool``, ``int``, ``float``, ``str``): :data:`CHECKS` holds one function for each. A plain
number or string is then held to the option's ``choices`` and its ``low``/``high`` bounds. A
wrong value is a :class:`RulesetError` naming the file, the key, the value and what was expected.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any, NamedTuple

from .. import safe_toml
from ..cards import format_card, format_cards, parse_card, parse_cards, parse_suit
from ..errors import InvalidNotation, RulesetError
from ..translation import _
from .fields import POINT_RANK_KEYS, RANK_KEYS
from .scoring_options import TIE_BREAK_KEYS


class Place(NamedTuple):
    """Where a value was read (the file's label and the option's key), to name in an error."""

    label: str
    key: str
    value: Any
    field: dataclasses.Field[Any]

    def fail(self, what: str) -> RulesetError:
        """The error for a value that is not ``what`` (already translated)."""
        return RulesetError(
            _("{label}: {key} = {value}: expected {what}").format(
                label=self.label, key=self.key, value=safe_toml.short(self.value), what=what
            )
        )


#: How an option's value is checked: it returns the value in its canonical form.
Check = Callable[[Any, Place], Any]

#: The ranks ``table.removed_ranks`` may name (any rank of a suit).
ANY_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def coerce(value: Any, f: dataclasses.Field[Any], label: str, key: str) -> Any:
    """An option's value checked by its kind or, where it declares none, its type."""
    kind = f.metadata.get("kind", "") or type_name(f)
    return CHECKS.get(kind, in_range)(value, Place(label, key, value, f))


def type_name(f: dataclasses.Field[Any]) -> str:
    """The name of a field's type (``"int"``); annotations are strings here (PEP 563)."""
    return f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))


def is_number(value: Any) -> bool:
    """A finite number: TOML's nan and inf would pass every comparison and fail later."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _is_strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


# --- the kinds --------------------------------------------------------------------------------


def _card(value: Any, place: Place) -> str:
    if not isinstance(value, str):
        raise place.fail(_('a card such as "SA" or "C3"'))
    try:
        return format_card(parse_card(value))
    except InvalidNotation:
        raise place.fail(_("a card that exists (a suit S D H C and a rank 2-10 J Q K A)")) from None


def _any_ranks(value: Any, place: Place) -> list[str]:
    if (
        not _is_strings(value)
        or {v.upper() for v in value} - set(ANY_RANKS)
        or len(set(value)) != len(value)
    ):
        raise place.fail(_('a list of distinct ranks such as ["2", "3"] (2-10, J, Q, K, A)'))
    return [r for r in ANY_RANKS if r in {v.upper() for v in value}]


def _cards(value: Any, place: Place) -> str:
    if not isinstance(value, str):
        raise place.fail(_('a list of cards in a string, such as "S2 D2 H2 C2"'))
    try:  # a card named twice: both copies of two decks (table.decks, checked below)
        cards = parse_cards(value, copies=True) if value.strip() else []
    except InvalidNotation as exc:
        raise place.fail(_("cards ({exc})").format(exc=exc)) from None
    if len(set(cards)) != len(cards):
        raise place.fail(_("each card once"))
    return format_cards(sorted(cards)) if cards else ""


def _suits(value: Any, place: Place) -> list[int]:
    if not _is_strings(value):
        raise place.fail(_('a list of suits such as ["S", "D", "H", "C"]'))
    try:
        suits = [parse_suit(v) for v in value]
    except InvalidNotation:
        raise place.fail(_("a list of the suits S, D, H, C")) from None
    if len(set(suits)) != len(suits) or len(suits) not in (0, 4):
        raise place.fail(_("each of the four suits S, D, H, C exactly once (or an empty list)"))
    return suits


def _rank_weights(value: Any, place: Place) -> dict[str, float]:
    if (
        not isinstance(value, dict)
        or set(value) - set(RANK_KEYS)
        or not all(is_number(v) for v in value.values())
    ):
        raise place.fail(_("a table of weights for the ranks A, K, Q, J, 10"))
    return {r: float(value.get(r, 0.0)) for r in RANK_KEYS}


def _card_weights(value: Any, place: Place) -> dict[int, float]:
    if not isinstance(value, dict) or not all(is_number(v) for v in value.values()):
        raise place.fail(_("a table of card = weight, such as { SJ = 0.5 }"))
    try:
        return {parse_card(k): float(v) for k, v in value.items()}
    except InvalidNotation as exc:
        raise place.fail(_("cards as keys ({exc})").format(exc=exc)) from None


def _point_ranks(value: Any, place: Place) -> list[str]:
    """11: 서울과고's rank (table.rank_eleven; the consistency checks hold it to the deck)."""
    if (
        not _is_strings(value)
        or set(value) - set(POINT_RANK_KEYS)
        or len(set(value)) != len(value)
        or not value
    ):
        raise place.fail(_("a list of distinct point ranks from A, K, Q, J, 10"))
    return [r for r in POINT_RANK_KEYS if r in value]


def _place_points(value: Any, place: Place) -> list[int]:
    """tournament.place_points: first place first, none above the one before."""
    if (
        not isinstance(value, list)
        or not 2 <= len(value) <= 8
        or not all(
            isinstance(v, int) and not isinstance(v, bool) and abs(v) <= 1000000 for v in value
        )
        or any(a < b for a, b in zip(value, value[1:]))
    ):
        raise place.fail(
            _(
                "a list of 2 to 8 whole numbers, first place first, none above the "
                "one before (such as [60, 48, 36, 24, 12])"
            )
        )
    return value


def _tie_break(value: Any, place: Place) -> list[str]:
    """tournament.tie_break: distinct keys of TIE_BREAK_KEYS."""
    if (
        not isinstance(value, list)
        or not all(v in TIE_BREAK_KEYS for v in value)
        or len(set(value)) != len(value)
    ):
        raise place.fail(
            _("a list of distinct keys from {keys}").format(keys=", ".join(TIE_BREAK_KEYS))
        )
    return value


def _int_or_bid(value: Any, place: Place) -> int | str:
    if value == "bid" or (
        isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 42
    ):  # two decks: 40 and 2 jokers
        return value
    raise place.fail(_('a number of point cards from 1 to 42, or "bid"'))


def _expression(value: Any, place: Place) -> str:
    if not isinstance(value, str):
        raise place.fail(_('an expression in a string, such as "taken - 10"'))
    if value:
        # deferred for start-up time: only custom formulas need it
        from .formulas import compile_expression

        try:
            compile_expression(value)
        except ValueError as exc:
            raise RulesetError(f"{place.label}: {place.key}: {exc}") from None
    return value


# --- the types (options of no kind) --------------------------------------------------------


def _bool(value: Any, place: Place) -> bool:
    if not isinstance(value, bool):
        raise place.fail(_("true or false"))
    return value


def _int(value: Any, place: Place) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise place.fail(_("a whole number"))
    return in_range(value, place)


def _float(value: Any, place: Place) -> float:
    if not is_number(value):
        raise place.fail(
            _("a finite number (not nan or inf)") if isinstance(value, float) else _("a number")
        )
    return in_range(float(value), place)


def _str(value: Any, place: Place) -> str:
    if not isinstance(value, str):
        raise place.fail(_("a string"))
    return in_range(value, place)


def in_range(value: Any, place: Place) -> Any:
    """A plain value held to its option's ``choices`` and ``low``/``high`` bounds."""
    meta = place.field.metadata
    choices = meta.get("choices") or ()
    if choices and value not in choices:
        raise place.fail(_("one of {choices}").format(choices=", ".join(repr(c) for c in choices)))
    low, high = meta.get("low"), meta.get("high")
    if low is not None and value < low or high is not None and value > high:
        raise place.fail(_("a value from {low:g} to {high:g}").format(low=low, high=high))
    return value


#: Each kind of option (``option(kind=...)``) and each type of an option of no kind, with its
#: check.
CHECKS: dict[str, Check] = {
    "card": _card,
    "any_ranks": _any_ranks,
    "cards": _cards,
    "suits": _suits,
    "rank_weights": _rank_weights,
    "card_weights": _card_weights,
    "ranks": _point_ranks,
    "place_points": _place_points,
    "tie_break": _tie_break,
    "int_or_bid": _int_or_bid,
    "expression": _expression,
    "bool": _bool,
    "int": _int,
    "float": _float,
    "str": _str,
}
