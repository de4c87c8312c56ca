"""Table plans: who sits at which table in a round, or in several rounds planned together.

A plan is judged by these rules, in this order (the first that tells two plans apart decides;
KRCG's seating rules, and what players complain of first):

1. the pairs the organiser keeps apart (``--apart``) are kept apart;
2. with ``--seat-by standings`` (or ``rating``), each table seats its band of the order
   (the top table the top players);
3. no pair sits together in **every round** they both play (two rounds or more: the league's
   earlier rounds and the planned ones), where that can be avoided;
4. no pair meets **beyond its second** time, where that can be avoided (the meetings beyond the
   second are counted);
5. the fewest **repeated meetings** (a pair meeting ``m`` times in all counts ``m − 1``), then
   the same squared, so repeats are spread over many pairs rather than heaped on a few;
6. with ``--swiss``, each table seats players as near its band of the order as the rules above
   allow;
7. the **sit-outs go round**: at a table larger than the ruleset's (six or seven at 5마) hands
   are sat out in turn, and the plan makes the rounds each player sits at one as even as it
   can (the sum of their squares).

A plan says what it could not avoid (:func:`plan_facts`): the most meetings of a pair, the
pairs together in every round, the pairs meeting a third time or more.

The arithmetic (docs/tournament-notes.md, "The arithmetic of repeats"):

* **Lower bound.** An earlier table of ``g`` players spread over ``t`` tables as evenly as
  possible (``g = q·t + r``) still puts ``r·C(q+1, 2) + (t−r)·C(q, 2)`` of its pairs together,
  and no spread does better (pairs grow convexly with a table's share). Summed over an earlier
  round's tables this bounds the repeats of the new round from below; every earlier round gives
  such a bound, and the plan must meet the largest. 20 players at 4 tables of 5 → 4; 10 at 5+5
  → 8; 11 at 5+6 → 10; 15 at 3×5 → 6; 22 at 5+5+6+6 → 6.
* **Exact designs** (:mod:`.designs`): where the players are ``k·q`` at tables of ``k`` for a
  prime power ``q ≥ k``, ``q`` rounds (``q + 1`` when ``k = q``, the affine plane) in which no
  pair meets twice: 25 players for six rounds, 35 for seven, 40 for eight; and ``k·(k + 1)``
  players at ``k + 1`` tables of ``k`` from columns and a difference array (30 at six tables
  of 5, six rounds); and 28 players at four tables of 7 (15 at three tables of 5, 24 at four
  of 6) from a difference matrix over GF(4) (GF(3), Z4): eight (six, six) rounds, no pair
  meeting three times, any two rounds sharing the fewest pairs they can (12; 6; 8), so the
  fewest repeats of any such plan for every number of rounds; and 40 players at
  7+7+7+7+6+6 over six rounds from a base round developed over Z6 (72 repeats, none thrice).
* **A design with players added** (:mod:`.extended_designs`): a design for a few players fewer,
  each of the others at one of its tables a round, where that meets the bound (no pair three
  times, every two rounds sharing only the pairs they must): 26-29 players at 5마 over up to
  five rounds, 31 and 37-39 over six with no pair twice; or such a design for all rounds but
  the last and the last searched after them (26-29 over six). Its sit-outs are not always the
  most even: the search runs too, and the plan better by the whole order is kept.
* **The library** (:mod:`.plan_library`): for a tournament whose players have not met, at the
  tables the bundled rulesets seat (up to 40 players, 2-6 rounds), the best plan the planning
  below found for the shape given many times a round start's time, its places drawn by the
  seed.
* Elsewhere a **seeded search** (:mod:`.plan_search`): annealed swaps of two players, under the
  rules' order, the annealed plan polished by a tabu search; the same seed gives the same plan.

Pure: players are names, a history is the list of earlier rounds' tables (a round whose table
changed its seating mid-round holds each seating it had: a pair or a player counts once a round).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from ..engine.translation import _
from .designs import PlanError, planned_design, spread_bound
from .extended_designs import extended_design
from .plan_library import library_plan
from .plan_search import Problem

Table = tuple[str, ...]
Round = list[Table]


def table_sizes(players: int, sizes: Sequence[int]) -> list[int]:
    """How ``players`` sit at tables of the allowed ``sizes`` (a ruleset's: 5; 6 and 7 where it
    seats or eliminates them): as few tables as the largest usual size allows, the tables as
    even as can be, the smallest allowed size preferred when there is a choice. Refused (one
    line) when no split exists."""
    allowed = sorted(set(sizes))
    if not allowed or players < allowed[0]:
        raise PlanError(
            _("{count} players cannot be seated: the smallest table seats {size}").format(
                count=players, size=allowed[0] if allowed else 0
            )
        )
    best: tuple | None = None
    for tables in range(math.ceil(players / allowed[-1]), players // allowed[0] + 1):
        low, extra = divmod(players, tables)
        split = [low + 1] * extra + [low] * (tables - extra)
        if all(size in allowed for size in split):
            key = (abs(low - allowed[0]) + (1 if extra else 0), tables)
            if best is None or key < best[0]:
                best = (key, split)
    if best is None:
        raise PlanError(
            _("{count} players cannot be split into tables of {sizes}").format(
                count=players, sizes=", ".join(map(str, allowed))
            )
        )
    return sorted(best[1], reverse=True)


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def meetings(history: Iterable[Round]) -> dict[tuple[str, str], int]:
    """How many earlier rounds each pair shared a table in (once a round, though a table whose
    seating changed mid-round is there as each seating it had)."""
    met: dict[tuple[str, str], int] = {}
    for tables in history:
        for key in {pair(a, b) for table in tables for a, b in combinations(table, 2)}:
            met[key] = met.get(key, 0) + 1
    return met


def repeated_pairs(tables: Round, history: Sequence[Round]) -> int:
    """The pairs seated together in ``tables`` who met in an earlier round."""
    met = meetings(history)
    return sum(1 for table in tables for a, b in combinations(table, 2) if pair(a, b) in met)


def lower_bound(tables: int, history: Sequence[Round], players: set | None = None) -> int:
    """A proven lower bound on a new round's repeated pairs: the largest spread bound of the
    earlier rounds (each counted among the players present now)."""
    best = 0
    for earlier in history:
        seen: set[str] = set()  # a player at two seatings of one round counts at the first
        present = []
        for table in earlier:
            present.append(
                tuple(p for p in table if (players is None or p in players) and p not in seen)
            )
            seen.update(table)
        best = max(best, spread_bound(present, tables))
    return best


@dataclass
class RoundPlan:
    """A round's tables (each in seat order, the first dealer first), its repeated pairs, the
    lower bound and the kept-apart pairs it could not keep apart."""

    tables: Round
    repeated_pairs: int
    lower_bound: int
    broken_apart: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class PlanFacts:
    """What a plan could not avoid, over the rounds it plans (the earlier rounds counted):
    the repeated meetings it makes, the most meetings of a pair it seats, the pairs together
    in every round they both played (two or more) with that number of rounds, the pairs it
    seats for the third time or more with their meetings, and the fewest and most rounds a
    player sat at a larger table (None when no table is larger)."""

    rounds: int
    repeats: int
    most_meetings: int
    every_round: list[tuple[str, str, int]] = field(default_factory=list)
    thrice: list[tuple[str, str, int]] = field(default_factory=list)
    sit_outs: tuple[int, int] | None = None

    def to_json(self) -> dict:
        data = {
            "rounds_planned": self.rounds,
            "repeated_meetings": self.repeats,
            "most_meetings": self.most_meetings,
            "pairs_every_round": [[a, b] for a, b, _rounds in self.every_round],
            "pairs_thrice": [{"players": [a, b], "meetings": m} for a, b, m in self.thrice],
        }
        if self.sit_outs is not None:
            data["sit_outs"] = {"fewest": self.sit_outs[0], "most": self.sit_outs[1]}
        return data


def plan_facts(
    history: Sequence[Round], planned: Sequence[Round], seated: int | None = None
) -> PlanFacts:
    """What ``planned`` (rounds of tables) could not avoid after ``history``: a pair is
    together in every round when it met in each of the rounds both its players sat in (two
    or more, earlier and planned)."""
    rounds = [*history, *planned]
    played: dict[str, int] = {}  # a bit per round the player sat in
    for number, tables in enumerate(rounds):
        for table in tables:
            for name in table:
                played[name] = played.get(name, 0) | 1 << number
    before = meetings(history)
    met = meetings(rounds)
    seated_now = meetings(planned)
    repeats = 0
    every_round, thrice = [], []
    most = 0
    for key in sorted(seated_now):
        m, h = met[key], before.get(key, 0)
        repeats += m - 1 - max(0, h - 1)
        most = max(most, m)
        both = bin(played[key[0]] & played[key[1]]).count("1")
        if both >= 2 and m == both:
            every_round.append((*key, both))
        if m >= 3:
            thrice.append((*key, m))
    thrice.sort(key=lambda item: (-item[2], item[0], item[1]))
    sit_outs = None
    if seated is not None and any(len(t) > seated for tables in planned for t in tables):
        times = sit_out_rounds(rounds, seated)
        names = {name for tables in planned for t in tables for name in t}
        counts = [times.get(name, 0) for name in names]
        sit_outs = (min(counts), max(counts))
    return PlanFacts(len(planned), repeats, most, every_round, thrice, sit_outs)


def sit_out_rounds(history: Sequence[Round], seated: int) -> dict[str, int]:
    """How many earlier rounds each player sat at a table of more than ``seated`` (the
    ruleset's ``table.players``): a table where players take turns to sit hands out."""
    counts: dict[str, int] = {}
    for tables in history:
        for name in {name for table in tables if len(table) > seated for name in table}:
            counts[name] = counts.get(name, 0) + 1
    return counts


def total_repeats(rounds: Sequence[Round]) -> int:
    """Repeated meetings over a schedule: a pair meeting ``m`` times in all counts ``m − 1``."""
    return sum(m - 1 for m in meetings(rounds).values() if m > 1)


def order_places(
    standing: Mapping[str, float], players: Sequence[str], sizes: Sequence[int]
) -> list[list[int]]:
    """How far each player sits from his band of the order at each table: the players ranked
    by ``standing`` (higher first; equal values share their places, one not listed comes
    last), table 1 seating the first ``sizes[0]`` places, table 2 the next, and so on; the
    cost of a table is the square of the places between the player's and the table's band."""
    ranked = sorted(players, key=lambda name: -standing.get(name, -math.inf))
    first: dict[float, int] = {}
    last: dict[float, int] = {}
    for position, name in enumerate(ranked):
        value = standing.get(name, -math.inf)
        first.setdefault(value, position)
        last[value] = position
    bands, start = [], 0
    for size in sizes:
        bands.append((start, start + size - 1))
        start += size
    costs = []
    for name in players:
        value = standing.get(name, -math.inf)
        low, high = first[value], last[value]
        costs.append([max(0, top - high, low - bottom) ** 2 for top, bottom in bands])
    return costs


#: The search's swaps tried per player and round planned, and at most; while it anneals the
#: repeats, a pair together in every round weighs as 3 repeated meetings, a meeting beyond
#: the second as 2 and a sit-out's square as 0.05 (the rules are kept in the plan chosen, by
#: the true order), at a temperature falling from 0.4 to 0.03 repeated meetings; the rules
#: above the repeats have half the budget (what they do not need once met goes on to the
#: repeats). The tabu search that polishes the annealed plan has ``POLISH`` times the swaps'
#: budget in work (swaps weighed), and stops after ``PATIENCE`` moves without a better plan.
#: ``benchmarks/plan.py`` measures them.
STEPS_PER_SEAT = 2500
MOST_STEPS = 300_000
SOFT = (3.0, 2.0, 0.05)
UPPER = 0.5
HOT, COLD = 0.4, 0.03
POLISH = 13
PATIENCE = 1000


def search_steps(players: int, rounds: int) -> int:
    """The search's budget for a plan of ``rounds`` rounds of ``players`` (its swaps; the
    polish has ``POLISH`` times as much work): under two seconds of one core at the most
    (``benchmarks/plan.py``)."""
    return min(MOST_STEPS, STEPS_PER_SEAT * players * rounds)


def plan_rounds(
    players: Sequence[str],
    sizes: Sequence[int],
    rounds: int,
    *,
    seed: int = 0,
    history: Sequence[Round] = (),
    seated: int | None = None,
    apart: Sequence[tuple[str, str]] = (),
    steps: int | None = None,
    standing: Mapping[str, float] | None = None,
    strict: bool = False,
    library: bool = True,
) -> list[RoundPlan]:
    """``rounds`` rounds of ``players`` at tables of ``sizes`` (as :func:`table_sizes`
    gives), planned together after ``history`` under the module's order of rules; where no
    pair of the players has met, an exact design where one exists, else the library's plan
    for the shape (:mod:`.plan_library`; not with ``library`` False); else the search
    (``steps`` swaps tried; :func:`search_steps` by default). With ``seated`` (the ruleset's
    ``table.players``) the larger tables' sit-outs go round; the ``apart`` pairs are kept
    apart in every round; with ``standing`` (a number per player, higher better), each table
    seats its band of the order: first of all where ``strict`` (``--seat-by``), after the
    repeats otherwise (Swiss)."""
    players = list(players)
    if sum(sizes) != len(players) or len(set(players)) != len(players):
        raise PlanError(
            _("the tables seat {seats} but {count} different players are present").format(
                seats=sum(sizes), count=len(set(players))
            )
        )
    rng = random.Random(seed)
    kept = {pair(a, b) for a, b in apart}
    schedule = extended = None
    if standing is None:
        schedule = _design(players, sizes, rounds, history, kept, rng, planned_design)
        if schedule is None and library and rounds >= 2:
            schedule = _design(
                players,
                sizes,
                rounds,
                history,
                kept,
                rng,
                lambda names, sizes, rounds: library_plan(names, sizes, rounds, seated),
            )
        if schedule is None:
            extended = _design(players, sizes, rounds, history, kept, rng, extended_design)
    if schedule is None:
        index = {name: i for i, name in enumerate(players)}
        places = order_places(standing, players, sizes) if standing is not None else None
        problem = Problem(
            players,
            sizes,
            rounds,
            history,
            seated=seated,
            apart=[(index[a], index[b]) for a, b in kept if a in index and b in index],
            table_costs=[places] * rounds if places else None,
            strict=strict,
        )
        budget = search_steps(len(players), rounds) if steps is None else steps
        best = _search(problem, rng, budget)
        schedule = [[tuple(players[i] for i in table) for table in tables] for tables in best]
        if extended is None and standing is None and rounds >= 3:
            extended = _design_then_search(
                players, sizes, rounds, history, kept, rng, seated, budget // (2 * rounds)
            )
        if extended is not None:  # its repeats are the best there are; its sit-outs may not be
            by_index = [[[index[p] for p in t] for t in tables] for tables in extended]
            if problem.cost(by_index) <= problem.cost(best):
                schedule = extended
    plans, done = [], list(history)
    for tables in schedule:
        placed = [tuple(_seat_order(t, rng)) for t in tables]
        plans.append(
            RoundPlan(
                placed,
                repeated_pairs(placed, done),
                lower_bound(len(sizes), done, set(players)),
                sorted(key for key in kept if any(set(key) <= set(t) for t in placed)),
            )
        )
        done.append(placed)
    return plans


def plan_round(
    players: Sequence[str],
    sizes: Sequence[int],
    history: Sequence[Round] = (),
    *,
    seed: int = 0,
    apart: Sequence[tuple[str, str]] = (),
    seated: int | None = None,
    steps: int | None = None,
    standing: Mapping[str, float] | None = None,
    strict: bool = False,
) -> RoundPlan:
    """One round of ``players`` after ``history``: :func:`plan_rounds` of one round."""
    return plan_rounds(
        players,
        sizes,
        1,
        seed=seed,
        history=history,
        seated=seated,
        apart=apart,
        steps=steps,
        standing=standing,
        strict=strict,
    )[0]


def _search(problem: Problem, rng: random.Random, steps: int) -> list[list[list[int]]]:
    """The better of two runs of the search, each half the budget, annealed then polished
    (``benchmarks/plan.py``: two runs reach the independent search's plans more often than
    one twice as long)."""
    best: tuple[int, list[list[list[int]]]] | None = None
    for _run in range(2):
        cost, schedule = problem.anneal(
            problem.random_schedule(rng),
            rng,
            steps // 2,
            upper=UPPER,
            soft=SOFT,
            hot=HOT,
            cold=COLD,
            polish=POLISH * steps // 2,
            patience=PATIENCE,
        )
        if best is None or cost < best[0]:
            best = (cost, schedule)
    assert best is not None
    return best[1]


def _design(
    players: list[str],
    sizes: Sequence[int],
    rounds: int,
    history: Sequence[Round],
    kept: set,
    rng: random.Random,
    build: Callable[[list[str], Sequence[int], int], list[Round] | None],
) -> list[Round] | None:
    """The rounds ``build`` gives for these players (a design; none of whom has met another
    before), its places drawn (nobody gets a design's place, such as a rotation's player who
    never turns, by the order of the names); a player kept apart from another drawn a place
    that never shares a table with the other's (:func:`_apart_places`), drawn again where
    none is left; None when there is none. A design seats players by their places in the list
    it is given, so it is built once and each draw renames its players."""
    if any(len(key) == 2 and set(key) <= set(players) for key in meetings(history)):
        return None
    design = build(players, sizes, rounds)
    if design is None:
        return None  # before any draw: the search's draws stay the seed's
    present = set(players)
    apart = [key for key in sorted(kept) if set(key) <= present]
    together = meetings(design) if apart else {}
    order = list(players)
    for _attempt in range(200):
        rng.shuffle(order)
        drawn = (  # a place's player
            _apart_places(players, order, apart, together, rng)
            if apart
            else dict(zip(players, order))
        )
        if drawn is not None:  # no kept pair at places that share a table
            return [[tuple(drawn[p] for p in t) for t in tables] for tables in design]
    return None


def _apart_places(
    places: list[str],
    order: list[str],
    apart: list[tuple[str, str]],
    together: Mapping[tuple[str, str], int],
    rng: random.Random,
) -> dict[str, str] | None:
    """The design's ``places`` given to the players of ``order`` (drawn): first each player
    of a pair kept ``apart``, in that order, the first place (of a drawn order) that shares
    no table with the places of those he is kept from (``together``: the places' pairs that
    do), then the others the places left, in order; None when a kept player finds none."""
    partners: dict[str, set[str]] = {}
    for a, b in apart:
        partners.setdefault(a, set()).add(b)
        partners.setdefault(b, set()).add(a)
    free = list(places)
    rng.shuffle(free)
    place_of: dict[str, str] = {}
    for player in (p for p in order if p in partners):
        taken = [place_of[q] for q in partners[player] if q in place_of]
        place = next((c for c in free if all(pair(c, t) not in together for t in taken)), None)
        if place is None:
            return None
        place_of[player] = place
        free.remove(place)
    open_places = set(free)
    left = iter(p for p in places if p in open_places)
    for player in order:
        if player not in place_of:
            place_of[player] = next(left)
    return {place: player for player, place in place_of.items()}


def _design_then_search(
    players: list[str],
    sizes: Sequence[int],
    rounds: int,
    history: Sequence[Round],
    kept: set,
    rng: random.Random,
    seated: int | None,
    steps: int,
) -> list[Round] | None:
    """A design with players added for all rounds but the last (where it has none for all of
    them: 26 at 5마 over six rounds), the last searched after them (``steps`` swaps); None
    when there is none for those rounds either."""
    head = _design(players, sizes, rounds - 1, history, kept, rng, extended_design)
    if head is None:
        return None
    last = plan_round(
        players,
        sizes,
        [*history, *head],
        seed=rng.randrange(1 << 30),
        apart=sorted(kept),
        seated=seated,
        steps=steps,
    )
    return [*head, list(last.tables)]


def _seat_order(table: Sequence[str], rng: random.Random) -> list[str]:
    """A table's seats (its first dealer first): drawn, so nobody deals first by their name."""
    seats = list(table)
    rng.shuffle(seats)
    return seats
