"""What round start does with the rounds planned ahead (store.planned_rounds.next_step): the
same --rounds R (or none) takes the planned round, another R or another roster plans the rounds
ahead again and says why, a plan kept by an earlier release (of unknown length) is taken."""

from __future__ import annotations

from mighty_cli.store.rounds.planned_rounds import PlanChange, next_step

AHEAD = [
    [("A", "B", "C", "D", "E"), ("F", "G", "H", "I", "J")],
    [("A", "F", "B", "G", "C"), ("D", "H", "E", "I", "J")],
]
TEN = list("ABCDEFGHIJ")


def test_the_same_r_or_none_takes_the_planned_round():
    for rounds in (3, None):
        step = next_step(AHEAD, (1, 3), TEN, rounds, [], 2)
        assert (step.tables, step.first, step.rounds, bool(step.change)) == (AHEAD[0], 1, 3, False)


def test_another_r_plans_the_rest_of_the_plan_again():
    step = next_step(AHEAD, (1, 3), TEN, 5, [], 2)
    assert step.tables is None and (step.count, step.first, step.rounds) == (4, 1, 5)
    assert step.change == PlanChange(rounds=(3, 5))


def test_an_r_the_plan_has_passed_starts_a_new_plan_here():
    step = next_step(AHEAD, (1, 3), TEN, 1, [], 3)
    assert (step.count, step.first, step.rounds) == (1, 3, 1)


def test_who_is_missing_and_who_is_new_are_said():
    step = next_step(AHEAD, (1, 3), TEN[1:] + ["K"], None, [], 2)
    assert step.change.missing == ["A"] and step.change.new == ["K"]
    assert (step.count, step.first, step.rounds) == (2, 1, 3)


def test_a_pair_to_keep_apart_at_a_planned_table_plans_again():
    step = next_step(AHEAD, (1, 3), TEN, 3, [("B", "A")], 2)
    assert step.tables is None and step.change.apart == [("A", "B")]


def test_a_plan_of_unknown_length_is_taken_as_planned():
    step = next_step(AHEAD, (None, None), TEN, 4, [], 2)
    assert step.tables == AHEAD[0] and step.rounds is None


def test_without_a_plan_ahead_r_rounds_are_planned_from_here():
    step = next_step([], (None, None), TEN, 4, [], 5)
    assert (step.tables, step.count, step.first, step.rounds) == (None, 4, 5, 4)
