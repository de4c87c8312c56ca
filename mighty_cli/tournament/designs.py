"""Exact designs: rounds of tables in which no pair meets twice (or, where that cannot be, the
fewest meet twice and none three times), built over a finite field.
Pure.

* **Resolvable transversal design** ``RTD(k, q)`` for a prime power ``q ≥ k``: ``k·q``
  players in ``k`` groups of ``q`` (player ``(g, v)``, ``v`` an element of GF(q)); round ``b``
  seats at table ``a`` the players ``(g, a + b·e_g)`` for distinct field elements ``e_g``.
  Two players of different groups share a table in exactly one of the ``q`` rounds (the one
  with ``b = (v − w)/(e_g − e_h)``), two of one group never: ``q`` rounds of ``q`` tables of
  ``k`` with no pair meeting twice. 35 players at tables of 5 (q = 7) have 7 such rounds,
  40 (q = 8) have 8.
* **Affine plane** of order ``q`` (``k = q``): the groups themselves are one more round, so
  ``q²`` players have ``q + 1`` rounds at ``q`` tables of ``q`` with every pair meeting exactly
  once (25 players, tables of 5, six rounds).
* **Columns and a difference array** for ``k·(k + 1)`` players at ``k + 1`` tables of ``k``,
  where no field gives a design (30 players at six tables of 5): ``k + 1`` columns of ``k``
  players (player ``(c, v)``, ``v`` in Z_k); round ``i`` seats column ``i`` at a table and
  the other columns at the ``k`` translates of a transversal, table ``t`` seating
  ``(c, a[i][c] + t)``. Two players of columns ``c`` and ``d`` share a table in round ``i``
  when ``w − v = a[i][d] − a[i][c]``: when those differences are distinct over the rounds
  (:data:`DIFFERENCE_ARRAYS`), no pair meets twice in ``k + 1`` rounds.

* **A difference matrix** over GF(q)'s addition where the field has too few elements for a
  transversal design (``q < k``: 15 players at three tables of 5, 24 at four tables of 6, 28
  at four tables of 7): ``k`` groups of ``q``
  (player ``(g, v)``); round ``r`` seats at table ``a`` the players ``(g, a + m[r][g])``
  (:data:`DIFFERENCE_MATRICES`). Two players of groups ``g`` and ``h`` share a table in round
  ``r`` when ``w − v = m[r][h] − m[r][g]``; each difference comes up at most twice over the
  matrix's rounds, so no pair meets more than twice; and in any two rounds ``r`` and ``s`` the
  groups' ``m[s][g] − m[r][g]`` fall as evenly over GF(q) as ``k`` values can (7 over 4: 2, 2,
  2, 1; 5 over 3: 2, 2, 1; 6 over 4: 2, 2, 1, 1), so each table of one round spreads over the
  other's tables as evenly as can be and the two rounds share the fewest pairs any plan can (12
  for 28 at tables of 7, 6 for 15 at tables of 5, 8 for 24 at tables of 6). For every number of
  rounds up to the matrix's (eight; six; six), no plan with no pair meeting three times has
  fewer repeats. (For 24 the shifts add modulo 4: over GF(4) no such matrix exists.)

* **A base round developed over Z6** where the tables are not all of one size (40 players at
  7+7+7+7+6+6, six rounds: :data:`ROTATIONS`): the players fall in orbits of 6, 3 and 1 under
  a rotation ``ρ`` of order 6 (player ``(o, r)`` of an orbit of ``s`` goes to ``(o, r + 1 mod
  s)``); round ``j`` seats the base round's tables with every player moved by ``ρ^j``. Two
  rounds ``j`` and ``j + d`` share as many pairs as rounds 0 and ``d`` (the rotation carries
  the one pair of rounds onto the other), so the plan's repeats are ``6·o₁ + 6·o₂ + 3·o₃`` for
  the base round's overlaps ``o_d`` with its own turn by ``d``, and a search for the base round
  (one round of 40 players, not six) reached 72 repeats with no pair meeting three times,
  where the annealing of the six rounds leaves 81 to 85 and the independent search 80.

GF(q) for a prime ``q`` is arithmetic modulo ``q``; for 4, 8, 9, 16, 25, 27 and 32 it is
polynomial arithmetic modulo an irreducible polynomial (:data:`IRREDUCIBLE`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.errors import MightyError
from ..engine.translation import _

Table = tuple[str, ...]

#: A prime power's prime, degree and an irreducible polynomial of that degree (its
#: coefficients below the leading one, lowest first).
IRREDUCIBLE = {
    4: (2, 2, (1, 1)),
    8: (2, 3, (1, 1, 0)),
    9: (3, 2, (1, 0)),
    16: (2, 4, (1, 1, 0, 0)),
    25: (5, 2, (2, 0)),
    27: (3, 3, (1, 2, 0)),
    32: (2, 5, (1, 0, 1, 0, 0)),
}


#: For a table size ``k``: row ``i`` (a round) gives column ``c`` its shift ``a[i][c]`` in
#: Z_k (None: the column seated at its own table that round), such that for any two columns
#: the differences ``a[i][d] − a[i][c]`` over the rounds that split both are distinct (found
#: by a search; ``tests/tournament/test_plan.py`` checks it; no quadratic formula over GF(5)
#: has it).
DIFFERENCE_ARRAYS: dict[int, tuple[tuple[int | None, ...], ...]] = {
    5: (
        (None, 0, 3, 1, 0, 4),
        (0, None, 0, 1, 4, 2),
        (0, 3, None, 3, 0, 0),
        (0, 1, 1, None, 2, 4),
        (0, 2, 4, 4, None, 3),
        (0, 4, 3, 2, 3, None),
    ),
}


#: For ``k`` groups of ``q`` players: row ``r`` (a round) gives group ``g`` its shift
#: ``m[r][g]`` in GF(q), such that for any two groups every difference ``m[r][h] − m[r][g]``
#: comes up equally often over the rows and for any two rows the groups' differences fall as
#: evenly as they can (found by an exhaustive search with rows and columns normalised to start
#: at 0; ``tests/tournament/test_plan.py`` checks both). The shifts add in GF(q) (GF(4)'s
#: addition is the bits' XOR), or modulo ``q`` for the matrices of :data:`CYCLIC`.
DIFFERENCE_MATRICES: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    (5, 3): (
        (0, 0, 0, 0, 0),
        (0, 0, 1, 1, 2),
        (0, 1, 0, 2, 1),
        (0, 1, 2, 0, 2),
        (0, 2, 1, 2, 0),
        (0, 2, 2, 1, 1),
    ),
    (6, 4): (
        (0, 0, 0, 0, 0, 0),
        (0, 0, 1, 1, 2, 3),
        (0, 1, 0, 3, 2, 1),
        (0, 1, 3, 1, 0, 2),
        (0, 2, 2, 3, 1, 0),
        (0, 3, 1, 2, 3, 1),
    ),
    (7, 4): (
        (0, 0, 0, 0, 0, 0, 0),
        (0, 0, 1, 1, 2, 2, 3),
        (0, 1, 2, 3, 0, 1, 2),
        (0, 1, 3, 2, 2, 3, 1),
        (0, 2, 0, 2, 3, 1, 3),
        (0, 2, 1, 3, 1, 3, 0),
        (0, 3, 2, 1, 3, 0, 1),
        (0, 3, 3, 0, 1, 2, 2),
    ),
}


@dataclass(frozen=True)
class Rotation:
    """A base round developed over Z6: the players' ``orbits`` (their sizes, dividing 6; the
    players taken in order, an orbit's players one after another), the ``base`` round's tables
    (each player as its orbit and residue) and the ``order`` the six turns are played in (the
    totals are the same in any order; this one repeats least over the first rounds)."""

    orbits: tuple[int, ...]
    base: tuple[tuple[tuple[int, int], ...], ...]
    order: tuple[int, ...]


#: For (players, the tables' sizes, rounds): the rotation that seats them (found by annealing
#: swaps in the base round, the six turns' pair counts kept as it changes, a meeting beyond the
#: second weighed 50 repeats; about one run in ten of 400,000 swaps ends under 80;
#: ``tests/tournament/test_plan.py`` checks the plan it gives).
ROTATIONS: dict[tuple[int, tuple[int, ...], int], Rotation] = {
    (40, (7, 7, 7, 7, 6, 6), 6): Rotation(
        orbits=(6, 6, 6, 6, 6, 3, 3, 3, 1),
        base=(
            ((0, 1), (0, 5), (1, 0), (1, 5), (4, 1), (5, 2), (6, 1)),
            ((0, 0), (2, 1), (2, 5), (4, 4), (4, 5), (6, 0), (7, 2)),
            ((1, 1), (1, 3), (2, 3), (2, 4), (3, 3), (5, 1), (7, 0)),
            ((1, 2), (3, 0), (3, 1), (4, 0), (4, 2), (5, 0), (7, 1)),
            ((0, 3), (0, 4), (2, 0), (3, 2), (3, 4), (6, 2)),
            ((0, 2), (1, 4), (2, 2), (3, 5), (4, 3), (8, 0)),
        ),
        order=(0, 3, 1, 4, 2, 5),
    ),
}


#: The matrices whose shifts add modulo ``q`` (Z4 has one for six groups of four, GF(4) none).
CYCLIC = {(6, 4)}


class PlanError(MightyError):
    """A round that cannot be planned: too few players, sizes no table can take, or a design
    asked of a size it does not exist for."""


def spread_bound(earlier: Sequence[Sequence[object]], tables: int) -> int:
    """The fewest pairs of ``earlier``'s tables that any round of ``tables`` tables seats
    together again (each earlier table spread as evenly as possible): what two rounds of a
    design share at the least."""
    total = 0
    for table in earlier:
        q, r = divmod(len(table), tables)
        total += r * math.comb(q + 1, 2) + (tables - r) * math.comb(q, 2)
    return total


def is_prime(value: int) -> bool:
    return value >= 2 and all(value % d for d in range(2, math.isqrt(value) + 1))


class Field:
    """GF(q): its elements are 0..q-1 (a polynomial's coefficients as base-p digits)."""

    #: x^degree's reduction: the irreducible polynomial's lower coefficients (none: q is prime)
    modulus: tuple[int, ...]

    def __init__(self, q: int) -> None:
        if is_prime(q):
            self.p, self.degree, self.modulus = q, 1, ()
        elif q in IRREDUCIBLE:
            self.p, self.degree, self.modulus = IRREDUCIBLE[q]
        else:
            raise PlanError(_("no field of {q} elements is known here").format(q=q))
        self.q = q
        self.add = [[self._add(a, b) for b in range(q)] for a in range(q)]
        self.mul = [[self._mul(a, b) for b in range(q)] for a in range(q)]

    def _digits(self, a: int) -> list[int]:
        return [(a // self.p**k) % self.p for k in range(self.degree)]

    def _number(self, digits: Sequence[int]) -> int:
        return sum(d * self.p**k for k, d in enumerate(digits))

    def _add(self, a: int, b: int) -> int:
        return self._number([(x + y) % self.p for x, y in zip(self._digits(a), self._digits(b))])

    def _mul(self, a: int, b: int) -> int:
        if self.degree == 1:
            return a * b % self.p
        product = [0] * (2 * self.degree - 1)
        for i, x in enumerate(self._digits(a)):
            for j, y in enumerate(self._digits(b)):
                product[i + j] = (product[i + j] + x * y) % self.p
        for k in range(len(product) - 1, self.degree - 1, -1):  # x^d = -(modulus)
            top, product[k] = product[k], 0
            for i, c in enumerate(self.modulus):
                product[k - self.degree + i] = (product[k - self.degree + i] - top * c) % self.p
        return self._number(product[: self.degree])


def field_order(q: int) -> bool:
    """Whether GF(q) is one this module builds."""
    return is_prime(q) or q in IRREDUCIBLE


def design_rounds(players: Sequence[str], size: int, rounds: int) -> list[list[Table]] | None:
    """``rounds`` rounds of ``players`` at tables of ``size`` in which no pair meets twice, from
    a resolvable transversal design (or the affine plane when ``size`` is the field's order),
    else from columns and a difference array; None when this module has none for them."""
    if size < 2 or len(players) % size:
        return None
    if len(players) == size * (size + 1) and size in DIFFERENCE_ARRAYS:
        return column_rounds(players, size, rounds)
    q = len(players) // size
    if (size, q) in DIFFERENCE_MATRICES:
        return matrix_rounds(players, size, rounds)
    if q < size or not field_order(q) or rounds > q + (size == q):
        return None
    field = Field(q)
    add, mul = field.add, field.mul
    point = {(g, v): players[g * q + v] for g in range(size) for v in range(q)}
    plan: list[list[Table]] = []
    for b in range(min(rounds, q)):
        plan.append([tuple(point[(g, add[a][mul[b][g]])] for g in range(size)) for a in range(q)])
    if rounds > q:  # the affine plane's last parallel class: the groups
        plan.append([tuple(point[(g, v)] for v in range(q)) for g in range(size)])
    return plan


def planned_design(
    players: Sequence[str], sizes: Sequence[int], rounds: int
) -> list[list[Table]] | None:
    """The design this module has for ``players`` at tables of ``sizes`` over ``rounds``
    rounds (a rotation, or for tables all of one size :func:`design_rounds`), its tables in the
    order of ``sizes``; None when it has none."""
    rotation = ROTATIONS.get((len(players), tuple(sorted(sizes, reverse=True)), rounds))
    if rotation is not None:
        return [in_size_order(tables, sizes) for tables in rotated_rounds(players, rotation)]
    if len(set(sizes)) == 1:
        return design_rounds(players, sizes[0], rounds)
    return None


def rotated_rounds(players: Sequence[str], rotation: Rotation) -> list[list[Table]]:
    """The six rounds of a base round developed over Z6 (:class:`Rotation`)."""
    starts = [sum(rotation.orbits[:o]) for o in range(len(rotation.orbits))]
    return [
        [
            tuple(players[starts[o] + (r + turn) % rotation.orbits[o]] for o, r in table)
            for table in rotation.base
        ]
        for turn in rotation.order
    ]


def in_size_order(tables: list[Table], sizes: Sequence[int]) -> list[Table]:
    """``tables`` ordered so that each has the size ``sizes`` gives in its place."""
    left = list(tables)
    ordered = []
    for size in sizes:
        table = next(t for t in left if len(t) == size)
        left.remove(table)
        ordered.append(table)
    return ordered


def matrix_rounds(players: Sequence[str], size: int, rounds: int) -> list[list[Table]] | None:
    """``rounds`` rounds of ``players`` in groups of ``q`` at ``q`` tables of ``size`` from a
    difference matrix over GF(q) (:data:`DIFFERENCE_MATRICES`): no pair meets more than twice,
    any two rounds share the fewest pairs they can; None when the module has no matrix for
    them or the rounds are more than its rows."""
    q, extra = divmod(len(players), size)
    matrix = DIFFERENCE_MATRICES.get((size, q))
    if extra or matrix is None or rounds > len(matrix):
        return None
    add = matrix_addition(size, q)
    point = {(g, v): players[g * q + v] for g in range(size) for v in range(q)}
    return [
        [tuple(point[(g, add[a][shift])] for g, shift in enumerate(row)) for a in range(q)]
        for row in matrix[:rounds]
    ]


def matrix_addition(size: int, q: int) -> list[list[int]]:
    """The addition the shifts of the matrix for ``size`` groups of ``q`` are taken in."""
    if (size, q) in CYCLIC:
        return [[(a + b) % q for b in range(q)] for a in range(q)]
    return Field(q).add


def column_rounds(players: Sequence[str], size: int, rounds: int) -> list[list[Table]] | None:
    """``rounds`` (at most ``size + 1``) rounds of ``size · (size + 1)`` players at
    ``size + 1`` tables of ``size``, no pair meeting twice: each round a column at its own
    table and the other columns at the translates of a transversal (:data:`DIFFERENCE_ARRAYS`);
    None when the module has no array for ``size`` or the rounds are more."""
    array = DIFFERENCE_ARRAYS.get(size)
    if array is None or len(players) != size * (size + 1) or rounds > len(array):
        return None
    columns = [players[c * size : (c + 1) * size] for c in range(size + 1)]
    plan: list[list[Table]] = []
    for row in array[:rounds]:
        own = next(c for c, shift in enumerate(row) if shift is None)
        tables = [tuple(columns[own])]
        for t in range(size):
            tables.append(
                tuple(
                    columns[c][(shift + t) % size]
                    for c, shift in enumerate(row)
                    if shift is not None
                )
            )
        plan.append(tables)
    return plan


def affine_rounds(players: Sequence[str], rounds: int) -> list[list[Table]]:
    """The affine plane of prime-power order ``q`` (``len(players) == q²``): ``rounds`` (at
    most ``q + 1``) rounds of ``q`` tables of ``q`` in which no pair meets twice."""
    q = math.isqrt(len(players))
    if q * q != len(players) or not field_order(q):
        raise PlanError(
            _(
                "an affine plane seats a prime power's square of players ({count} is not one)"
            ).format(count=len(players))
        )
    if not 1 <= rounds <= q + 1:
        raise PlanError(
            _("an affine plane of order {p} has {most} rounds, not {rounds}").format(
                p=q, most=q + 1, rounds=rounds
            )
        )
    plan = design_rounds(players, q, rounds)
    assert plan is not None
    return plan
