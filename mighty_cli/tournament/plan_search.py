"""The table plan's search: one or more rounds of tables, annealed under the plan's order of
rules (:mod:`mighty_cli.tournament.plan`). Pure; players are indices here.

The order is a lexicographic one, folded into one integer: each rule's unit is larger than
the most the rules below it can ever add up to, so a plan is cheaper exactly when it is better
by the first rule that tells the two apart. The rules, first first:

1. ``apart``: the meetings of a pair kept apart by the organiser;
2. ``strict``: with ``--seat-by``, how far each player sits from his place in the order given
   (the top table for the top of the standings);
3. ``every``: pairs together in every round they both played (two rounds or more: the
   earlier rounds and the planned ones);
4. ``beyond``: meetings beyond a pair's second;
5. ``repeats``: repeated meetings (a pair meeting ``m`` times counts ``m − 1``), then
6. ``squares``: the same squared (``(m − 1)²``: a pair meeting again and again weighs more);
7. ``swiss``: with ``--swiss``, how far each player sits from his place in the order given;
8. ``sit``: the sit-outs' balance: the sum over players of the square of the rounds each sat at
   a table larger than the ruleset's (six or seven at 5마), so they go round.

A pair's cost depends only on its meetings, so each pair carries a code (its segment of one
list of costs, plus its meetings) and a swap of two players changes the cost of the few pairs
it touches, read from that list: a step costs a couple of microseconds.

The search: simulated annealing on swaps of two players of two tables of one round, rule by
rule: each rule above ``repeats`` on its own scale (a phase ending once its rule and those
above are met, its steps left to the next); where one is still unmet (a pair meeting a third
time), a tabu search moving only the players it concerns (each move the best swap of one of
them, a move back forbidden for many moves, so the few of them do not undo each other); then
the repeats at a temperature measured in repeated meetings; then a tabu search from the best
plan seen (each move the best swap of a player who meets someone at his table at a cost, a
move back forbidden for a few moves), which takes the annealing's plan out of the basin it
cooled in; then each rule below; the best plan seen kept. A swap is drawn with one random
number (the round and two seats). Seeded by the caller's ``random.Random``: the same seed,
the same plan.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import combinations

#: The rules in order, first first (the module's docstring).
RULES = ("apart", "strict", "every", "beyond", "repeats", "squares", "swiss", "sit")

Schedule = list[list[list[int]]]  # rounds of tables of player indices

#: How many moves a tabu search forbids a player's way back, drawn between the two: the
#: polish of the repeats, and the repair of the rules above them (whose few conflicting
#: players would otherwise take the same few moves back and forth).
TENURE = (1, 3)
REPAIR_TENURE = (20, 60)


class Problem:
    """What a plan of ``rounds`` rounds of ``players`` at tables of ``sizes`` weighs, against
    the ``history`` (earlier rounds, each a list of tables of names; absent players ignored).

    ``apart``: pairs of indices kept apart. ``seated``: the ruleset's table (a larger table
    sits hands out in turn). ``table_costs``: per round, per player, per table, how far the
    player sits from his place (``--seat-by``); ``strict`` puts it first, else it comes after
    the repeats (Swiss)."""

    def __init__(
        self,
        players: Sequence[str],
        sizes: Sequence[int],
        rounds: int,
        history: Sequence[Sequence[Sequence[str]]] = (),
        *,
        apart: Sequence[tuple[int, int]] = (),
        seated: int | None = None,
        table_costs: Sequence[Sequence[Sequence[int]]] | None = None,
        strict: bool = False,
    ) -> None:
        n = len(players)
        self.n, self.sizes, self.rounds, self.strict = n, list(sizes), rounds, strict
        index = {name: i for i, name in enumerate(players)}
        met = [[0] * n for _ in range(n)]
        present = [0] * n  # a bit per earlier round the player sat in
        sat = [0] * n  # earlier rounds at a larger table
        for number, tables in enumerate(history):
            for table in tables:
                ids = [index[name] for name in table if name in index]
                larger = seated is not None and len(table) > seated
                for i in ids:
                    present[i] |= 1 << number
                    sat[i] += larger
                for a, b in combinations(ids, 2):
                    met[a][b] += 1
                    met[b][a] += 1
        self.met, self.sat = met, sat
        self.large = [seated is not None and size > seated for size in sizes]
        kept = {(min(a, b), max(a, b)) for a, b in apart}
        together = [
            [bin(present[a] & present[b]).count("1") + rounds for b in range(n)] for a in range(n)
        ]  # the rounds each pair both plays in
        longest = max([together[a][b] for a in range(n) for b in range(n) if a != b] or [1])
        pairs = n * (n - 1) // 2
        self.longest, self.kept = longest, bool(kept)
        costs = table_costs or []
        worst_place = sum(max(max(row) for row in by_player) for by_player in costs) if costs else 0
        bounds = {
            "apart": len(kept) * longest,
            "strict": worst_place if strict else 0,
            "every": pairs,
            "beyond": pairs * max(0, longest - 2),
            "repeats": pairs * max(0, longest - 1),
            "squares": pairs * max(0, longest - 1) ** 2,
            "swiss": 0 if strict else worst_place,
            "sit": sum((s + rounds) ** 2 for s in sat) if any(self.large) else 0,
        }
        unit, units = 1, {}
        for rule in reversed(RULES):
            units[rule] = unit
            unit *= bounds[rule] + 1
        self.units = units
        # One list of costs, a segment per kind of pair (rounds both play in, kept apart).
        self.costs: list[int] = []
        segments: dict[tuple[int, bool], int] = {}
        self.code = [[0] * n for _ in range(n)]
        for a in range(n):
            for b in range(a + 1, n):
                key = (together[a][b], (a, b) in kept)
                if key not in segments:
                    segments[key] = len(self.costs)
                    self.costs.extend(self.pair_cost(m, *key) for m in range(key[0] + 2))
                self.code[a][b] = self.code[b][a] = segments[key] + met[a][b]
        self.step_cost = _steps(self.costs)
        self.segments = segments
        longest_sit = max(sat, default=0) + rounds + 1
        self.sit_cost = [units["sit"] * s * s for s in range(longest_sit + 1)]
        scale = units["strict"] if strict else units["swiss"]
        self.place = (
            [[[scale * c for c in row] for row in by_player] for by_player in costs]
            if costs
            else None
        )

    def pair_cost(
        self, m: int, together: int, kept: bool, units: dict[str, int] | None = None
    ) -> int:
        """A pair's cost after ``m`` meetings in all, over ``together`` rounds both play."""
        units = units or self.units
        repeats = max(0, m - 1)
        return (
            units["apart"] * m * kept
            + units["every"] * (together >= 2 and m == together)
            + units["beyond"] * max(0, m - 2)
            + units["repeats"] * repeats
            + units["squares"] * repeats * repeats
        )

    def softened(self, every: float, beyond: float, sit: float) -> tuple[list[int], list[int]]:
        """The pairs' step costs and the sit-outs' costs with the rules weighed as ``every``,
        ``beyond`` and (a sit-out's square) ``sit`` repeated meetings: the annealing's, which
        may then trade them while hot."""
        unit = self.units["repeats"]
        units = dict(self.units, every=round(every * unit), beyond=round(beyond * unit))
        costs = [0] * len(self.costs)
        for (together, kept), start in self.segments.items():
            for m in range(together + 2):
                costs[start + m] = self.pair_cost(m, together, kept, units)
        sit_cost = [round(sit * unit * s * s) + cost for s, cost in enumerate(self.sit_cost)]
        return _steps(costs), sit_cost

    def cost(self, schedule: Schedule) -> int:
        """The plan's cost (the history's part included)."""
        n, code = self.n, [row[:] for row in self.code]
        sat = self.sat[:]
        place = 0
        for number, tables in enumerate(schedule):
            for t, table in enumerate(tables):
                for a, b in combinations(table, 2):
                    code[a][b] += 1
                    code[b][a] += 1
                for i in table:
                    sat[i] += self.large[t]
                    if self.place is not None:
                        place += self.place[number][i][t]
        return (
            sum(self.costs[code[a][b]] for a in range(n) for b in range(a + 1, n))
            + sum(self.sit_cost[s] for s in sat)
            + place
        )

    def random_schedule(self, rng: random.Random) -> Schedule:
        """Every round the players shuffled and cut into tables."""
        schedule = []
        for _number in range(self.rounds):
            order = list(range(self.n))
            rng.shuffle(order)
            tables, start = [], 0
            for size in self.sizes:
                tables.append(order[start : start + size])
                start += size
            schedule.append(tables)
        return schedule

    def anneal(
        self,
        start: Schedule,
        rng: random.Random,
        steps: int,
        hot: float = 0.6,
        cold: float = 0.1,
        upper: float = 0.2,
        closing: float = 0.15,
        soft: tuple[float, float, float] | None = None,
        ruled: tuple[float, float] = (2.0, 0.1),
        polish: int = 0,
        patience: int = 200,
        repair: float = 0.5,
    ) -> tuple[int, Schedule]:
        """The best plan seen annealing from ``start`` (changed in place), rule by rule:
        ``steps`` swaps tried, the ``upper`` share for the rules above the repeats (each on
        its own scale, every rule below it a random walk, so the search is free to find the
        plans best by it), then the temperature falling from ``hot`` to ``cold`` repeated
        meetings (the rules above now kept), then the ``closing`` share for the rules below,
        each on its own scale. With ``soft`` (every, beyond, sit), the repeats' annealing
        weighs those rules as that many repeated meetings (:meth:`softened`); the best plan is
        kept by the true order. With ``polish``, the repeats' best plan is polished by a tabu
        search of that much work (:meth:`_Walk.tabu`, ``patience`` moves without a better
        plan at most) before the rules below; and where the rules above the repeats are
        still unmet when their phases end, a tabu search moving only the players they
        concern repairs them first, with at most the ``repair`` share of that work (what it
        leaves goes to the polish)."""
        walk = _Walk(self, start)
        if len(self.sizes) < 2 or self.rounds < 1 or steps <= 0:
            return walk.best, walk.kept
        phases = (
            [(rule, upper / len(self.upper_rules())) for rule in self.upper_rules()]
            + [("repeats", 1 - upper - closing)]
            + [(rule, closing / len(self.lower_rules())) for rule in self.lower_rules()]
        )
        spare = 0  # the steps an upper phase did not need (its rules met), for the next
        for rule, share in phases:
            unit = self.units[rule]
            budget = round(steps * share) + spare
            if rule == "repeats":
                upper_rules = self.upper_rules()
                above = self.units[upper_rules[-1]] if upper_rules else 0
                if polish > 0 and walk.best >= above > 0:  # the rules above unmet: repaired
                    walk = _Walk(self, walk.finish())
                    mending = round(polish * repair)
                    polish -= mending - walk.tabu(rng, mending, patience, REPAIR_TENURE, above)
                    walk = _Walk(self, walk.finish())
                step_cost, sit_cost = (
                    self.softened(*soft) if soft else (self.step_cost, self.sit_cost)
                )
                spare = walk.run(rng, budget, step_cost, sit_cost, hot * unit, cold * unit)
                if polish > 0:  # from the best plan seen, and the rules below from its best
                    walk = _Walk(self, walk.finish())
                    walk.tabu(rng, polish, patience, TENURE)
                    walk = _Walk(self, walk.finish())
            else:
                met = unit if rule in self.upper_rules() else None
                spare = walk.run(
                    rng,
                    budget,
                    self.step_cost,
                    self.sit_cost,
                    ruled[0] * unit,
                    ruled[1] * unit,
                    met,
                )
        return walk.best, walk.finish()

    def upper_rules(self) -> list[str]:
        """The rules above the repeats that can tell plans of this problem apart."""
        rules = ["apart"] if self.kept else []
        if self.place is not None and self.strict:
            rules.append("strict")
        if self.longest >= 2:
            rules.append("every")
        if self.longest >= 3:
            rules.append("beyond")
        return rules

    def lower_rules(self) -> list[str]:
        """The rules below the repeats that can tell plans of this problem apart."""
        rules = ["squares"]
        if self.place is not None and not self.strict:
            rules.append("swiss")
        if any(self.large) and not all(self.large):
            rules.append("sit")
        return rules


class _Walk:
    """A plan being searched: its pairs' codes, its players' rounds at a larger table, its
    cost (by the true order) and the best plan seen."""

    def __init__(self, problem: Problem, schedule: Schedule) -> None:
        self.problem, self.schedule = problem, schedule
        self.code = [row[:] for row in problem.code]
        self.sat = problem.sat[:]
        for tables in schedule:
            for t, table in enumerate(tables):
                for a, b in combinations(table, 2):
                    self.code[a][b] += 1
                    self.code[b][a] += 1
                for i in table:
                    self.sat[i] += problem.large[t]
        self.cost = self.best = problem.cost(schedule)
        self.kept = [[t[:] for t in tables] for tables in schedule]
        self.at_best = True  # the plan now is as good as the best seen (not yet copied)

    def finish(self) -> Schedule:
        if self.at_best:
            self.kept = [[t[:] for t in tables] for tables in self.schedule]
        return self.kept

    def run(
        self,
        rng: random.Random,
        steps: int,
        step_cost: list[int],
        sit_cost: list[int],
        hot: float,
        cold: float,
        met: int | None = None,
    ) -> int:
        """``steps`` swaps tried, accepted by ``step_cost`` and ``sit_cost`` at a temperature
        falling from ``hot`` to ``cold`` (0: only a swap that costs nothing more); with
        ``met``, stopping once the plan costs less (the rule annealed and those above it all
        met): the steps left are returned."""
        if met is not None and self.cost < met:
            return steps
        problem, schedule, code, sat = self.problem, self.schedule, self.code, self.sat
        exact, exact_sit = problem.step_cost, problem.sit_cost
        large, place = problem.large, problem.place
        rounds, n = problem.rounds, problem.n
        # A seat is a place in the round's tables, in order: its table and its place there.
        seat_table = [t for t, size in enumerate(problem.sizes) for _ in range(size)]
        seat_place = [i for size in problem.sizes for i in range(size)]
        same = step_cost is exact and sit_cost is exact_sit
        temperature = hot
        decay = (cold / hot) ** (1 / max(1, steps)) if hot > 0 else 1.0
        bits, uniform, exp = rng.getrandbits, rng.random, math.exp
        cost, best, at_best = self.cost, self.best, self.at_best
        for _step in range(steps):
            # one draw for the round and two seats (of two tables: a draw of one table is
            # drawn again); 48 bits leave no bias the search could see
            temperature *= decay
            draw = bits(48)
            r = draw % rounds
            draw //= rounds
            s, t = draw % n, draw // n % n
            a, b = seat_table[s], seat_table[t]
            if a == b:
                continue
            tables = schedule[r]
            one, other = tables[a], tables[b]
            i, j = seat_place[s], seat_place[t]
            x, y = one[i], other[j]
            cx, cy = code[x], code[y]
            delta = 0
            for z in one:
                if z != x:
                    delta += step_cost[cy[z]] - step_cost[cx[z] - 1]
            for z in other:
                if z != y:
                    delta += step_cost[cx[z]] - step_cost[cy[z] - 1]
            extra = 0
            moved = large[a] != large[b]
            if moved:
                move = 1 if large[b] else -1  # x to the larger table, or from it
                sx, sy = sat[x], sat[y]
                delta += sit_cost[sx + move] - sit_cost[sx] + sit_cost[sy - move] - sit_cost[sy]
            if place is not None:
                row = place[r]
                extra = row[x][b] + row[y][a] - row[x][a] - row[y][b]
                delta += extra
            if delta > 0 and (temperature <= 0 or uniform() >= exp(-delta / temperature)):
                continue
            if not same:
                delta = extra
                if moved:
                    delta += (
                        exact_sit[sx + move] - exact_sit[sx] + exact_sit[sy - move] - exact_sit[sy]
                    )
                for z in one:
                    if z != x:
                        delta += exact[cy[z]] - exact[cx[z] - 1]
                for z in other:
                    if z != y:
                        delta += exact[cx[z]] - exact[cy[z] - 1]
            if delta > 0 and at_best:  # leaving the best plan seen: keep it
                self.kept = [[t[:] for t in tables_] for tables_ in schedule]
                at_best = False
            self.exchange(one, i, other, j, move if moved else 0)
            cost += delta
            if cost <= best:
                best, at_best = cost, True
                if met is not None and cost < met:
                    self.cost, self.best, self.at_best = cost, best, at_best
                    return steps - _step - 1
        self.cost, self.best, self.at_best = cost, best, at_best
        return 0

    def exchange(self, one: list[int], i: int, other: list[int], j: int, shift: int) -> None:
        """``one[i]`` and ``other[j]`` (two tables of a round) change places: their pairs'
        codes follow, and ``shift`` (1, -1 or 0) is the rounds at a larger table the first
        gains and the second loses."""
        code, x, y = self.code, one[i], other[j]
        for table, gone, come in ((one, x, y), (other, y, x)):  # each leaves, the other comes
            left, joined = code[gone], code[come]
            for z in table:
                if z != gone:
                    left[z] -= 1
                    code[z][gone] -= 1
                    joined[z] += 1
                    code[z][come] += 1
        if shift:
            self.sat[x] += shift
            self.sat[y] -= shift
        one[i], other[j] = y, x

    def tabu(
        self,
        rng: random.Random,
        work: int,
        patience: int,
        tenure: tuple[int, int],
        met: int | None = None,
    ) -> int:
        """A tabu search from the plan now (:meth:`Problem.anneal`'s polish and repair):
        each move the best swap of a player who meets someone at his table at a cost (a
        repeat, a meeting beyond the second, a pair kept apart; with ``met``, a cost of at
        least that) with a player of another table of that round, by the true order, ties
        drawn; a player may not go back to the table he left for a number of moves drawn in
        ``tenure`` unless that makes the best plan seen. It stops after ``work`` (the swaps
        weighed and the players' costs at each table counted) or ``patience`` moves without a
        better plan, when no player meets anyone at such a cost, or (with ``met``) once the
        plan costs less than ``met``; the work left is returned."""
        problem, schedule, code, sat = self.problem, self.schedule, self.code, self.sat
        step, sit_cost = problem.step_cost, problem.sit_cost
        twice = [2 * s for s in step]
        large, place = problem.large, problem.place
        n = problem.n
        at = step.__getitem__

        def joining(codes: list[int], table: list[int]) -> int:
            """What joining ``table`` costs a player whose pairs' codes are ``codes``."""
            return sum(map(at, map(codes.__getitem__, table)))

        def leaving(x: int, table: list[int]) -> int:
            """What ``x``'s leaving his ``table`` saves."""
            cx = code[x]
            return sum([step[cx[z] - 1] for z in table if z != x])

        # Per round: where each player sits, what his leaving saves, and per table what
        # joining it costs each player; a move changes them only where its two players and
        # their table-mates are.
        where = [[0] * n for _tables in schedule]
        leave = [[0] * n for _tables in schedule]
        join: list[list[list[int]]] = []  # per round, per table, per player
        for r, tables in enumerate(schedule):
            for t, table in enumerate(tables):
                for x in table:
                    where[r][x] = t
                    leave[r][x] = leaving(x, table)
            join.append([[joining(cp, table) for cp in code] for table in tables])
        tabu_until: dict[tuple[int, int, int], int] = {}
        focus = 1 if met is None else met  # what leaving his table saves a player moved
        cost, best = self.cost, self.best
        move = idle = 0
        while work > 0 and idle < patience:
            lowest = math.inf
            chosen: list[tuple[int, int, int, int, int]] = []
            for r, tables in enumerate(schedule):
                gains, joins = leave[r], join[r]
                row = place[r] if place is not None else None
                for a, one in enumerate(tables):
                    movers = [(i, x) for i, x in enumerate(one) if gains[x] >= focus]
                    if not movers:
                        continue
                    into_one = joins[a]
                    for b, other in enumerate(tables):
                        if b == a:
                            continue
                        # A swap of x (of ``one``) and y (of ``other``) costs what x's move
                        # costs him, what y's costs him, less their pair counted in both
                        # (a pair's code is the same either way round).
                        shift = 0 if large[a] == large[b] else 1 if large[b] else -1
                        theirs = [into_one[y] - gains[y] for y in other]
                        if shift:
                            theirs = [
                                v + sit_cost[sat[y] - shift] - sit_cost[sat[y]]
                                for v, y in zip(theirs, other)
                            ]
                        if row is not None:
                            theirs = [v + row[y][a] - row[y][b] for v, y in zip(theirs, other)]
                        into_other = joins[b]
                        for i, x in movers:
                            work -= len(other)
                            mine = into_other[x] - gains[x]
                            if shift:
                                mine += sit_cost[sat[x] + shift] - sit_cost[sat[x]]
                            if row is not None:
                                mine += row[x][b] - row[x][a]
                            cx = code[x]
                            deltas = [mine + v - twice[cx[y]] for v, y in zip(theirs, other)]
                            if min(deltas) > lowest:
                                continue
                            for j, delta in enumerate(deltas):
                                if delta > lowest:
                                    continue
                                y = other[j]
                                if (
                                    tabu_until.get((x, r, b), -1) >= move
                                    or tabu_until.get((y, r, a), -1) >= move
                                ) and cost + delta >= best:
                                    continue
                                if delta < lowest:
                                    lowest, chosen = delta, [(r, a, i, b, j)]
                                else:
                                    chosen.append((r, a, i, b, j))
            if not chosen:
                break
            if len(chosen) > 1:  # the ties drawn in the seats' order (the scan's is not)
                chosen.sort()
            r, a, i, b, j = chosen[rng.randrange(len(chosen))] if len(chosen) > 1 else chosen[0]
            gain = int(lowest)
            one, other = schedule[r][a], schedule[r][b]
            x, y = one[i], other[j]
            if gain > 0 and self.at_best:  # leaving the best plan seen: keep it
                self.kept = [[t[:] for t in tables_] for tables_ in schedule]
                self.at_best = False
            partners = [z for z in one if z != x] + [z for z in other if z != y]
            self.exchange(one, i, other, j, 0 if large[a] == large[b] else 1 if large[b] else -1)
            where[r][x], where[r][y] = b, a
            for q, tables in enumerate(schedule):
                joins = join[q]
                if q == r:  # two tables changed: everyone's cost of joining them
                    joins[a] = [joining(cp, one) for cp in code]
                    joins[b] = [joining(cp, other) for cp in code]
                for t, table in enumerate(tables):
                    joins[t][x] = joining(code[x], table)
                    joins[t][y] = joining(code[y], table)
                near = {where[q][x], where[q][y]}
                for z in partners:  # their pairs with x and y changed
                    for t in near:
                        joins[t][z] = joining(code[z], tables[t])
                for t in near:
                    for p in tables[t]:
                        leave[q][p] = leaving(p, tables[t])
                # the work counted: x's and y's costs at every table, a partner's at two
                # tables of about six (the round's two changed tables not counted)
                work -= 2 * n + len(partners) * 12
            cost += gain
            tabu_until[x, r, a] = move + rng.randint(*tenure)
            tabu_until[y, r, b] = move + rng.randint(*tenure)
            move += 1
            if cost < best:
                best, idle = cost, 0
            else:
                idle += 1
            if cost <= best:
                self.at_best = True
            if met is not None and cost < met:
                break
        self.cost, self.best = cost, best
        return max(0, work)


def _steps(costs: list[int]) -> list[int]:
    """What one more meeting costs at each code."""
    return [later - now for now, later in zip(costs, costs[1:])] + [0]
