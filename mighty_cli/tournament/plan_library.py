"""The plan library: for a fresh tournament's usual shapes, the best plan the planning found
given many times the time a round start has. Pure.

A shape is the ruleset's table (``table.players``), the tables' sizes and the rounds planned
together: every count from two tables to 40 players at the tables the bundled rulesets seat
(4 to 8, and up to two more sitting hands out) over 2-6 rounds, where :mod:`.designs` has no
exact design.
``tools/plan_library.py`` planned each with :func:`..plan.plan_rounds` (designs with players
added, the search) under many seeds and kept the best plan by the plan's order;
``plan_library.txt`` holds them, a line a shape: the shape, the plan's figures (pairs together
in every round, meetings beyond the second, repeats, their squares, the sit-outs' squares),
then each round as a digit per player, his table (the tables in order of size, largest first).

A plan depends only on its shape until players have met, so a tournament whose players have
not met is seated from the library (:func:`..plan.plan_rounds`), its places drawn by the seed
as a design's are; with a history, another shape, kept-apart pairs no draw seats apart, or
seating by standings, the search runs at the table. ``tests/tournament/test_plan_library.py``
checks every line (a plan of its shape, its figures as written).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

from .designs import Table, in_size_order

LIBRARY = Path(__file__).with_name("plan_library.txt")

Shape = tuple[int | None, tuple[int, ...], int]  # the ruleset's table, the sizes, the rounds


def shape(seated: int | None, sizes: Sequence[int], rounds: int) -> Shape:
    """A plan's shape: the tables' sizes largest first."""
    return (seated, tuple(sorted(sizes, reverse=True)), rounds)


def shape_text(key: Shape) -> str:
    """A shape as a line of the library starts: ``5 19=7+6+6 x4``."""
    seated, sizes, rounds = key
    return f"{seated} {sum(sizes)}={'+'.join(map(str, sizes))} x{rounds}"


def library_plan(
    players: Sequence[str], sizes: Sequence[int], rounds: int, seated: int | None
) -> list[list[Table]] | None:
    """The library's plan for ``players`` at tables of ``sizes`` (in that order) over
    ``rounds`` rounds at a ruleset seating ``seated``, the players in their places in the list
    given; None when the library has none for that shape."""
    key = shape(seated, sizes, rounds)
    text = _text()
    start = text.find(f"\n{shape_text(key)} |")  # one line read, not the whole library
    if start < 0:
        return None
    _key, _figures, rounds_tables = parse_line(text[start + 1 : text.index("\n", start + 1)])
    by_size = sorted(sizes, reverse=True)
    plan = []
    for tables_of in rounds_tables:
        tables: list[list[str]] = [[] for _ in by_size]
        for player, table in zip(players, tables_of):
            tables[table].append(player)
        plan.append(in_size_order([tuple(t) for t in tables], sizes))
    return plan


@functools.cache
def _text() -> str:
    return "\n" + LIBRARY.read_text(encoding="utf-8")


def entries() -> dict[Shape, tuple[list[int], list[list[int]]]]:
    """The whole library read: per shape, the figures written and each round's table per
    player."""
    found: dict[Shape, tuple[list[int], list[list[int]]]] = {}
    for line in _text().splitlines():
        if line and not line.startswith("#"):
            key, figures, plan = parse_line(line)
            found[key] = (figures, plan)
    return found


def parse_line(line: str) -> tuple[Shape, list[int], list[list[int]]]:
    """A line of the library: ``5 19=7+6+6 x4 | 0 0 66 66 304 | 0120… 0012… …``."""
    head, figures, rounds = line.split("|")
    seated, sizes, count = head.split()
    key = (int(seated), tuple(int(s) for s in sizes.split("=")[1].split("+")), int(count[1:]))
    return key, [int(f) for f in figures.split()], [[int(c) for c in r] for r in rounds.split()]


def format_line(key: Shape, schedule: Sequence[Sequence[Sequence[int]]]) -> str:
    """A plan of players 0 to n−1 (rounds of tables, in order of size) as a line of the
    library, its figures counted."""
    n = sum(key[1])
    rounds = []
    for tables in schedule:
        table_of = [0] * n
        for t, table in enumerate(tables):
            for player in table:
                table_of[player] = t
        rounds.append("".join(map(str, table_of)))
    counted = " ".join(map(str, figures(schedule, key[0])))
    return f"{shape_text(key)} | {counted} | {' '.join(rounds)}"


def figures(schedule: Sequence[Sequence[Sequence[object]]], seated: int | None) -> list[int]:
    """A fresh plan's figures by the plan's order, first first (compared as a list): pairs
    together in every round (two rounds or more), meetings beyond a pair's second, repeated
    meetings, their squares, the sum of the squares of each player's rounds at a table larger
    than ``seated``."""
    met: dict[frozenset, int] = {}
    sat: dict[object, int] = {}
    for tables in schedule:
        for table in tables:
            for pair in map(frozenset, combinations(table, 2)):
                met[pair] = met.get(pair, 0) + 1
            for player in table:
                sat[player] = sat.get(player, 0) + (seated is not None and len(table) > seated)
    rounds = len(schedule)
    return [
        sum(m == rounds for m in met.values()) if rounds >= 2 else 0,
        sum(max(0, m - 2) for m in met.values()),
        sum(m - 1 for m in met.values()),
        sum((m - 1) ** 2 for m in met.values()),
        sum(s * s for s in sat.values()),
    ]
