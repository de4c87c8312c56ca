"""Seating for the evening (``mighty session start --shuffle``): a seating around the table
that gives each player neighbours they have sat beside least, and never seats a "keep apart"
pair side by side when that can be avoided, as Mahjong Pantheon seats its events. Pure; no
database.

A table of five to seven has at most 6!/2 = 360 distinct seatings around it (rotations and
reflections are the same table), so every seating is scored and the best kept: the cost is
the number of times each pair of new neighbours has sat together before, a kept-apart pair
beside each other costing more than any history can. Among the best, one is chosen at random
(``seed``), so a club does not get the same seating every time the history ties.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import permutations
from typing import Iterable, Mapping, Optional, Sequence

from .engine.errors import MightyError
from .engine.translation import _


class SeatingError(MightyError):
    """A seating that cannot be made: a keep-apart pair naming someone absent, or pairs that
    cannot all be kept apart around this table."""


@dataclass
class Seating:
    order: list[str]               # clockwise
    repeats: int                   # neighbour pairs that sat together before (times)
    apart_broken: list[tuple[str, str]]


def neighbours(order: Sequence[str]) -> list[frozenset]:
    """The pairs sitting side by side around a round table."""
    return [frozenset((order[i], order[(i + 1) % len(order)])) for i in range(len(order))]


def neighbour_history(sessions: Iterable[Sequence[str]]) -> dict[frozenset, int]:
    """How many times each pair sat side by side, from past seatings (clockwise lists)."""
    counts: dict[frozenset, int] = {}
    for order in sessions:
        if len(order) > 2:
            for pair in neighbours(order):
                counts[pair] = counts.get(pair, 0) + 1
    return counts


def propose_seating(players: Sequence[str], history: Mapping[frozenset, int],
                    apart: Iterable[tuple[str, str]] = (), seed: Optional[int] = None) -> Seating:
    """The seating of ``players`` with the fewest repeated neighbours that keeps every
    ``apart`` pair apart (a :class:`SeatingError` when that is impossible)."""
    players = list(players)
    apart_pairs = set()
    for a, b in apart:
        for name in (a, b):
            if name not in players:
                raise SeatingError(_("--apart {a}/{b}: {name} is not one of the players "
                                     "present").format(a=a, b=b, name=name))
        apart_pairs.add(frozenset((a, b)))
    penalty = 1 + sum(history.values()) * 2
    best: list[tuple[list[str], int, int]] = []
    best_cost = None
    first, rest = players[0], players[1:]
    for tail in permutations(rest):
        if len(tail) > 1 and tail[0] > tail[-1]:
            continue  # the mirror image of a seating already scored
        order = [first, *tail]
        pairs = neighbours(order)
        broken = sum(pair in apart_pairs for pair in pairs)
        repeats = sum(history.get(pair, 0) for pair in pairs)
        cost = broken * penalty + repeats
        if best_cost is None or cost < best_cost:
            best, best_cost = [(order, repeats, broken)], cost
        elif cost == best_cost:
            best.append((order, repeats, broken))
    order, repeats, broken = random.Random(seed).choice(best)
    if broken:
        side = [sorted(p) for p in neighbours(order) if p in apart_pairs]
        raise SeatingError(_("no seating of {count} keeps every --apart pair apart ({a} and "
                             "{b} would sit side by side)").format(count=len(players),
                                                                   a=side[0][0], b=side[0][1]))
    return Seating(order, repeats, [])
