"""The search's tabu polish (:meth:`Problem.anneal` with ``polish``) and its repair of the
rules above the repeats: what they start from, what they reach and that their cost is the
plan's by the whole order."""

from __future__ import annotations

import random

from mighty_cli.tournament.plan import plan_facts, total_repeats
from mighty_cli.tournament.plan_search import REPAIR_TENURE, Problem, _Walk


def names(count):
    return [f"P{i:02d}" for i in range(count)]


def named(players, schedule):
    return [[tuple(players[i] for i in table) for table in tables] for tables in schedule]


def test_the_polish_alone_takes_a_round_played_twice_to_the_bound():
    # 20 at four tables of five, the second round the first again: 40 repeats, every pair
    # of a table together in both rounds; the fewest a second round can make is 4 (each
    # table spread over four tables puts two of its players together).
    players = names(20)
    problem = Problem(players, [5] * 4, 2)
    first = [list(range(start, start + 5)) for start in range(0, 20, 5)]
    start = [first, [table[:] for table in first]]
    assert total_repeats(named(players, start)) == 40
    cost, plan = problem.anneal(start, random.Random(1), 1, hot=0.0, cold=0.0, polish=200_000)
    assert total_repeats(named(players, plan)) == 4
    assert cost == problem.cost(plan)


def test_the_polish_weighs_the_sit_outs_and_the_places_as_the_order_does():
    # 11 at 6+5 (the table of six sits hands out in turn) over four rounds, seated as near a
    # standing as the repeats allow (Swiss): the cost returned is the plan's own.
    players = names(11)
    places = [[abs(i // 6 - t) for t in range(2)] for i in range(11)]
    problem = Problem(players, [6, 5], 4, seated=5, table_costs=[places] * 4)
    rng = random.Random(3)
    start = problem.random_schedule(rng)
    before = problem.cost([[t[:] for t in tables] for tables in start])
    cost, plan = problem.anneal(start, rng, 1, hot=0.0, cold=0.0, polish=200_000)
    assert cost == problem.cost(plan) <= before
    assert sorted(p for tables in plan[:1] for t in tables for p in t) == list(range(11))


def test_the_polish_finds_fewer_repeats_than_the_annealing_it_starts_from():
    # 36 at six tables of six over five rounds (there is no affine plane of order
    # 6) with a short annealing: the same draws up to the annealed plan, then the
    # polish from its best.
    players = names(36)
    problem = Problem(players, [6] * 6, 5)
    plain = problem.anneal(problem.random_schedule(random.Random(5)), random.Random(5), 20_000)
    polished = problem.anneal(
        problem.random_schedule(random.Random(5)), random.Random(5), 20_000, polish=500_000
    )
    assert total_repeats(named(players, polished[1])) < total_repeats(named(players, plain[1]))
    assert polished[0] < plain[0]


def test_the_polish_stops_where_no_player_meets_anyone_at_a_cost():
    # 25 at five tables of five over two rounds, the second the first's columns: no repeats,
    # nothing to polish; the plan is left as it was.
    players = names(25)
    problem = Problem(players, [5] * 5, 2)
    rows = [list(range(start, start + 5)) for start in range(0, 25, 5)]
    columns = [list(range(column, 25, 5)) for column in range(5)]
    cost, plan = problem.anneal(
        [rows, columns], random.Random(1), 1, hot=0.0, cold=0.0, polish=10**9
    )
    assert total_repeats(named(players, plan)) == 0
    assert cost == problem.cost(plan)


def test_the_repair_ends_the_third_meetings_and_stops_there():
    # 15 at three tables of five, the same tables three rounds running: the 30 pairs of a
    # table meet in every round. The repair moves only players who meet someone a third
    # time and stops, work left, once no pair does.
    players = names(15)
    problem = Problem(players, [5, 5, 5], 3)
    first = [list(range(start, start + 5)) for start in range(0, 15, 5)]
    walk = _Walk(problem, [[table[:] for table in first] for _round in range(3)])
    above = problem.units["beyond"]  # the least a pair meeting a third time costs
    assert walk.best >= above
    left = walk.tabu(random.Random(1), 10**6, 1000, REPAIR_TENURE, above)
    plan = walk.finish()
    facts = plan_facts([], named(players, plan))
    assert facts.most_meetings == 2 and not facts.every_round
    assert walk.best == problem.cost(plan) < above
    assert 0 < left < 10**6


def test_the_repair_leaves_a_plan_that_meets_the_rules_above_as_it_was():
    # 25 at five tables of five over three rounds, rows, columns and diagonals of a 5 x 5
    # grid: no pair meets twice; nothing to repair, no work spent.
    players = names(25)
    problem = Problem(players, [5] * 5, 3)
    rows = [list(range(start, start + 5)) for start in range(0, 25, 5)]
    columns = [list(range(column, 25, 5)) for column in range(5)]
    diagonals = [[5 * r + (r + d) % 5 for r in range(5)] for d in range(5)]
    start = [rows, columns, diagonals]
    walk = _Walk(problem, [[table[:] for table in tables] for tables in start])
    left = walk.tabu(random.Random(1), 1000, 1000, REPAIR_TENURE, problem.units["beyond"])
    assert left == 1000
    assert walk.finish() == start
