"""Seating for the evening: fewest repeated neighbours, keep-apart pairs respected."""

from __future__ import annotations

from itertools import permutations

import pytest

from mighty_cli.league.seating import SeatingError, neighbour_history, neighbours, propose_seating

SIX = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay"]


def test_fewest_repeated_neighbours_is_the_minimum_over_every_seating():
    history = neighbour_history(
        [SIX, ["Ana", "Cy", "Bo", "Ed", "Di", "Fay"], ["Ana", "Di", "Bo", "Fay", "Cy", "Ed"]]
    )
    seating = propose_seating(SIX, history, seed=1)
    best = min(
        sum(history.get(p, 0) for p in neighbours(["Ana", *rest])) for rest in permutations(SIX[1:])
    )
    assert seating.repeats == best
    assert sorted(seating.order) == sorted(SIX)


def test_without_history_any_seating_is_fine_and_the_seed_repeats_it():
    assert propose_seating(SIX, {}, seed=4).order == propose_seating(SIX, {}, seed=4).order
    assert propose_seating(SIX, {}, seed=4).repeats == 0


def test_keep_apart_pairs_never_sit_side_by_side():
    history = neighbour_history([SIX] * 5)  # Ana and Bo always sat together before
    for seed in range(10):
        seating = propose_seating(SIX, history, [("Ana", "Bo"), ("Cy", "Di")], seed=seed)
        pairs = neighbours(seating.order)
        assert frozenset(("Ana", "Bo")) not in pairs
        assert frozenset(("Cy", "Di")) not in pairs


def test_keep_apart_beats_history():
    # Ana-Cy never sat together, Ana-Bo often: keeping Ana away from Cy and Di still wins.
    history = {frozenset(("Ana", "Bo")): 50, frozenset(("Ana", "Ed")): 50}
    seating = propose_seating(
        ["Ana", "Bo", "Cy", "Di", "Ed"], history, [("Ana", "Cy"), ("Ana", "Di")]
    )
    assert set(neighbours(seating.order)) >= {frozenset(("Ana", "Bo")), frozenset(("Ana", "Ed"))}


def test_impossible_keep_apart_is_refused():
    with pytest.raises(SeatingError, match="keeps every --apart pair apart"):
        propose_seating(
            ["Ana", "Bo", "Cy", "Di", "Ed"], {}, [("Ana", "Bo"), ("Ana", "Cy"), ("Ana", "Di")]
        )


def test_keep_apart_names_must_be_present():
    with pytest.raises(SeatingError, match="Zed is not one of the players present"):
        propose_seating(SIX, {}, [("Ana", "Zed")])


def test_session_start_shuffle(runner):
    from mighty_cli.cli import cli

    runner.invoke(cli, ["league", "create", "t", "-r", "standard"])
    assert runner.invoke(cli, ["session", "start", "-l", "t", "-p", ",".join(SIX)]).exit_code == 0
    runner.invoke(cli, ["session", "end", "-l", "t"])
    result = runner.invoke(
        cli,
        [
            "session",
            "start",
            "-l",
            "t",
            "-p",
            ",".join(SIX),
            "--shuffle",
            "--apart",
            "Ana/Bo",
            "--seed",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    line = result.output.splitlines()[0]
    assert line.startswith("Seating (clockwise): ") and "0 repeated neighbour pairs" in line
    order = line.split(": ", 1)[1].split(" (")[0].split(", ")
    shown = runner.invoke(cli, ["session", "show", "-l", "t", "--json"])
    import json

    assert json.loads(shown.output)["players"] == order
    assert frozenset(("Ana", "Bo")) not in neighbours(order)


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["--apart", "Ana/Bo"], 2, "--apart is used with --shuffle"),
        (["--shuffle", "--apart", "Ana"], 2, "--apart Ana: expected two names as A/B"),
        (["--shuffle", "--apart", "Ana/Zed"], 1, "Zed is not one of the players present"),
    ],
)
def test_session_start_shuffle_bad_input(runner, args, code, message):
    from mighty_cli.cli import cli

    runner.invoke(cli, ["league", "create", "t", "-r", "standard"])
    result = runner.invoke(cli, ["session", "start", "-l", "t", "-p", ",".join(SIX), *args])
    assert result.exit_code == code
    assert message in result.output
    listed = runner.invoke(cli, ["session", "show", "-l", "t"])
    assert listed.exit_code == 1  # no session was started
