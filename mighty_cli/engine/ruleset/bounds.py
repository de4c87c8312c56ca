"""The limits a ruleset must keep so that using it can never fail (issue 9).

Loading a ruleset (:func:`.ruleset._build`) ends here: its texts must fit what a league stores,
and every score it can give must be a number a league stores (``limits.POINTS_LIMIT``). The
scoring formula is evaluated for every contract a hand can reach and every number of point
cards taken, so a formula that divides by zero or grows out of range somewhere fails
``mighty ruleset check``, not a score-keeper at a table.
"""

from __future__ import annotations

import dataclasses
import functools
from fractions import Fraction
from typing import Any

from ..cards import Bid
from ..errors import MightyError, RulesetError
from ..limits import POINTS_LIMIT
from ..translation import _
from .formulas import compile_expression
from .schema import FORMULAS, Ruleset


def effective_minimum(contract: Bid, rules: Ruleset) -> int:
    """What the formula's ``minimum`` is for this contract (see the module docstring)."""
    minimum = rules.election.min_bid
    if not contract.no_trump:
        return minimum
    how = rules.scoring.no_trump_minimum
    if how == "no_trump_minimum":
        return rules.no_trump_minimum
    if how == "clamp":
        return min(minimum, contract.number)
    return minimum


def check_limits(rules: Ruleset, label: str) -> None:
    """Raise RulesetError when the ruleset breaks a limit (texts, then scores)."""
    _check_text_lengths(rules, label)
    _check_score_range(rules, label)


#: The longest each text of [meta] may be (a league stores the name and the title).
TEXT_LIMITS = {"name": 100, "title": 200, "description": 10_000, "source": 1_000}


def _check_text_lengths(rules: Ruleset, label: str) -> None:
    for key, most in TEXT_LIMITS.items():
        if len(getattr(rules.meta, key)) > most:
            raise RulesetError(
                _(
                    "{label}: meta.{key} is {count:,} characters long: at most {most:,} are allowed"
                ).format(label=label, key=key, count=len(getattr(rules.meta, key)), most=most)
            )


def _check_score_range(rules: Ruleset, label: str) -> None:
    """Every score the ruleset can give is one a league can store (``limits.POINTS_LIMIT``).

    The base formula is evaluated for every contract a hand can reach (suit and no-trump, from
    the lowest bid to the highest) and every number of point cards taken, so a formula that
    divides by zero or grows out of range somewhere fails here, not at a table; the largest
    base times every doubling, the scale and the largest share bounds what one player can get.
    """
    s, e = rules.scoring, rules.election
    success, failure = (s.success, s.failure) if s.formula == "custom" else FORMULAS[s.formula]
    total = rules.point_card_total
    contracts = []
    for trump in [0] + ([None] if e.no_trump_allowed else []):
        lowest = rules.no_trump_minimum if trump is None else e.min_bid
        for number in range(max(lowest, 0), (e.max_bid or total) + 1):
            contracts.append((number, trump, effective_minimum(Bid(number, trump), rules)))
    try:
        largest, worst = _largest_base(
            success, failure, total, e.max_bid or total, tuple(contracts)
        )
    except _FormulaFails as exc:
        made, number, trump, taken, why = exc.args
        raise RulesetError(
            _(
                "{label}: scoring.{outcome} fails for a {contract} contract with "
                "{taken} point cards taken: {why}"
            ).format(
                label=label,
                outcome="success" if made else "failure",
                contract=_contract(Bid(number, trump)),
                taken=taken,
                why=why,
            )
        ) from None
    if not largest:
        return
    doublings = [getattr(s, f.name) for f in dataclasses.fields(s)]
    factors = [
        d.factor
        for d in doublings
        if getattr(d, "enabled", False) and isinstance(getattr(d, "factor", None), int)
    ]
    multiplier = 1
    for factor in factors:
        multiplier = multiplier * factor if s.cumulative else max(multiplier, factor)
    unit = -(-largest * multiplier * Fraction(str(s.scale)) // 1)  # rounded up
    if s.cap:
        unit = min(unit, s.cap)
    most = unit * max(3 * s.opponent_share + s.friend_share, 4 * s.opponent_share)
    if most > POINTS_LIMIT:
        contract, taken = worst
        raise RulesetError(
            _(
                "{label}: scoring could give one player {most:,} points in a hand "
                "(base {largest} for a {contract} contract with {taken} point "
                "cards taken, ×{multiplier} doublings, scale {scale:g}): a hand's "
                "points must stay within ±{limit:,}"
            ).format(
                label=label,
                most=most,
                largest=largest,
                contract=_contract(contract),
                taken=taken,
                multiplier=multiplier,
                scale=s.scale,
                limit=POINTS_LIMIT,
            )
        )


class _FormulaFails(Exception):
    """Where a formula failed: (made, number, trump, taken, why)."""


@functools.lru_cache(maxsize=256)
def _largest_base(
    success: str, failure: str, total: int, max_bid: int, contracts: tuple
) -> tuple[Any, Any]:
    """The largest base score (in magnitude) the formulas give over every contract
    ``(number, trump, minimum)`` and every count of point cards taken, and where. Remembered:
    most rulesets share their formula and their range of bids."""
    formulas = {True: compile_expression(success), False: compile_expression(failure)}
    largest, worst = Fraction(0), None
    for number, trump, minimum in contracts:
        # The variables scoring.score_hand gives a formula (keep the two in step).
        env = {"bid": number, "minimum": minimum, "max_bid": max_bid, "total": total}
        for taken in range(total + 1):
            made = taken >= number
            env["taken"], env["opposition"] = taken, total - taken
            try:
                base = formulas[made](env)
            except (ZeroDivisionError, MightyError) as exc:
                raise _FormulaFails(made, number, trump, taken, str(exc)) from None
            if abs(base) > largest:
                largest, worst = abs(base), (Bid(number, trump), taken)
    return largest, worst


def _contract(contract: Any) -> str:
    return f"{contract.number}{'NT' if contract.trump is None else 'S'}"
