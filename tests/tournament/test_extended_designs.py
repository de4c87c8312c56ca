"""A design for a few players fewer, the others added one to a table
(``mighty_cli.tournament.extended_designs``): at the bound where it can be, and no pair three
times or in every round."""

from __future__ import annotations

import math

import pytest

from mighty_cli.tournament.extended_designs import extended_design, spread_pairs
from mighty_cli.tournament.plan import plan_facts, plan_rounds, table_sizes


def names(count: int) -> list[str]:
    return [f"P{i:02d}" for i in range(count)]


def check(plan, players, sizes):
    assert plan is not None
    assert all(sorted(p for t in tables for p in t) == sorted(players) for tables in plan)
    assert all([len(t) for t in tables] == list(sizes) for tables in plan)
    return plan_facts([], plan)


@pytest.mark.parametrize("count", [31, 37, 38, 39])
def test_players_added_to_a_design_with_disjoint_tables_meet_nobody_twice(count):
    """31 at 6+5+5+5+5+5 (the 30's columns and one more), 37-39 (the 35's transversal design
    and two to four more): each added player's six tables share nobody, so six rounds seat no
    pair twice, where the search left 10 to 19 repeats."""
    sizes = table_sizes(count, [5, 6, 7])
    facts = check(extended_design(names(count), sizes, 6), names(count), sizes)
    assert (facts.repeats, facts.most_meetings) == (0, 1)


@pytest.mark.parametrize("count", [26, 27, 28, 29])
def test_players_added_to_the_affine_plane_repeat_at_the_bound(count):
    """26-29 at tables of five and six over five rounds: each added player's five lines meet
    pairwise in one player each and no three in one, so every two rounds share exactly the
    pairs they must: C(5, 2) times the spread, no pair three times."""
    sizes = table_sizes(count, [5, 6, 7])
    facts = check(extended_design(names(count), sizes, 5), names(count), sizes)
    assert facts.thrice == [] and facts.every_round == []
    assert facts.repeats == math.comb(5, 2) * spread_pairs(sizes) == 10 * (count - 25)


def test_no_plan_where_a_pair_would_meet_three_times():
    """Over six rounds an added player's six lines of the affine plane of order 5, one of each
    direction, always have three through one player (with the line at infinity they would be
    seven lines of the projective plane with no three through a point; at most six exist), so
    26 over six rounds are left to the search; so are tables of one size with no design for
    one player fewer a table, and a single round."""
    assert extended_design(names(26), [6, 5, 5, 5, 5], 6) is None
    assert extended_design(names(22), [6, 6, 5, 5], 3) is None
    assert extended_design(names(31), [6, 5, 5, 5, 5, 5], 1) is None


def test_added_players_off_the_bound_still_repeat_little():
    """32-34 at 5마 over six rounds: two added players' tables cannot all be apart (the bound,
    0, is not met), but the search for them, each time asking one repeat fewer, leaves 6, 12
    and 20 (the annealing of all six rounds 21, 23, 35; the reference 19, 23, 27)."""
    for count, repeats in [(32, 6), (33, 12), (34, 20)]:
        sizes = table_sizes(count, [5, 6, 7])
        facts = check(extended_design(names(count), sizes, 6), names(count), sizes)
        assert (facts.repeats, facts.thrice, facts.every_round) == (repeats, [], [])


def test_spread_pairs_is_the_fewest_pairs_two_rounds_share():
    assert spread_pairs([5, 5, 5]) == 6  # five over three tables: 2 + 2 + 1
    assert spread_pairs([7, 7, 7, 7]) == 12
    assert spread_pairs([6, 5, 5, 5, 5]) == 1  # the six over five tables


def test_plan_rounds_takes_it_in_the_order_of_the_tables_sizes():
    sizes = [5, 6, 5, 5, 6, 5, 5]
    plans = plan_rounds(names(37), sizes, 6, seed=4, seated=5, steps=20_000, library=False)
    assert all([len(t) for t in p.tables] == sizes for p in plans)
    assert plan_facts([], [p.tables for p in plans]).repeats == 0


def test_six_rounds_take_the_design_for_five_and_search_the_sixth():
    """28 at 6+6+6+5+5 over six rounds: the affine plane with three added players has no six
    rounds at the bound, but has five (30 repeats); the sixth is searched after them, and the
    plan is kept where it is better by the whole order than the search of all six (with the
    full budget: 47 repeats, where the search of all six left 61 and the reference 55)."""
    sizes = table_sizes(28, [5, 6, 7])
    plans = plan_rounds(names(28), sizes, 6, seed=1, seated=5, steps=60_000, library=False)
    rounds = [p.tables for p in plans]
    assert plan_facts([], rounds[:5]).repeats == 30  # the design's five rounds
    facts = plan_facts([], rounds)
    assert facts.thrice == [] and facts.every_round == [] and facts.repeats < 61
