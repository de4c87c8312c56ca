"""The ruleset's [tournament] options (scoring across tables), one test per option, named after
it, each showing the option change the tournament table; worked by hand on small cases."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mighty_cli.engine.errors import RulesetError
from mighty_cli.engine.ruleset import Tournament, load_ruleset, ruleset_from_toml
from mighty_cli.tournament.ranking import TableResult, places_points, table_places, tournament_table

# Round 1: two tables. Table 1 (five players) played 4 hands, table 2 (six) played 8.
ROUND_1 = [
    TableResult(1, 1, "Ana", 30, 4, 2),
    TableResult(1, 1, "Bo", 10, 4),
    TableResult(1, 1, "Cy", 0, 4),
    TableResult(1, 1, "Di", -10, 4),
    TableResult(1, 1, "Ed", -30, 4),
    TableResult(1, 2, "Fay", 50, 7, 1),
    TableResult(1, 2, "Gil", 20, 7),
    TableResult(1, 2, "Hu", 0, 7),
    TableResult(1, 2, "Ida", 0, 7),
    TableResult(1, 2, "Jo", -30, 7),
    TableResult(1, 2, "Ki", -40, 6),
]


def table(options, results=ROUND_1, rounds=None):
    return {row.name: row for row in tournament_table(results, options, rounds)}


def test_tournament_score_raw():
    """raw: the points of the hands, whatever the table."""
    rows = table(Tournament(score="raw"))
    assert rows["Fay"].score == 50 and rows["Fay"].rank == 1
    assert rows["Ana"].score == 30 and rows["Ana"].rank == 2


def test_tournament_score_per_hand():
    """per_hand: Ana's 30 in 4 hands (7.5) beats Fay's 50 in 7 (7.14)."""
    rows = table(Tournament(score="per_hand"))
    assert rows["Ana"].score == 7.5 and rows["Ana"].rank == 1
    assert rows["Fay"].score == pytest.approx(50 / 7) and rows["Fay"].rank == 2


def test_tournament_score_place():
    """place: each table's first takes 60; at the six-player table the list is stretched."""
    rows = table(Tournament(score="place"))
    assert rows["Ana"].score == 60 and rows["Fay"].score == 60
    assert rows["Ed"].score == 12 and rows["Ki"].score == 12
    # Hu and Ida tie for third and fourth of six: (40.8 + 31.2) / 2 = 36
    assert rows["Hu"].score == rows["Ida"].score == pytest.approx(36.0)
    # tied on place points: the default tie-break, raw first, puts Fay's 50 before Ana's 30
    ordered = tournament_table(ROUND_1, Tournament(score="place"))
    assert [r.name for r in ordered[:2]] == ["Fay", "Ana"] and ordered[1].rank == 2


def test_tournament_place_points():
    """place_points: the list of each place's points, first first; ties share."""
    assert table_places(ROUND_1[:5], [3, 1, 0, -1, -3], True) == {
        "Ana": 3,
        "Bo": 1,
        "Cy": 0,
        "Di": -1,
        "Ed": -3,
    }
    rows = table(Tournament(score="place", place_points=[3, 1, 0, -1, -3]))
    assert rows["Ana"].score == 3 and rows["Ed"].score == -3
    tied = [
        TableResult(1, 1, n, s, 4) for n, s in (("A", 9), ("B", 9), ("C", 0), ("D", 0), ("E", 0))
    ]
    assert table_places(tied, [60, 48, 36, 24, 12], True) == {
        "A": 54,
        "B": 54,
        "C": 24,
        "D": 24,
        "E": 24,
    }


def test_tournament_size_adjusted():
    """size_adjusted: a six-player table spreads 60..12 over six places; without it the sixth
    place gets 0 and the fifth keeps 12."""
    assert places_points(6, [60, 48, 36, 24, 12], True) == pytest.approx(
        [60, 50.4, 40.8, 31.2, 21.6, 12]
    )
    assert places_points(4, [60, 48, 36, 24, 12], True) == pytest.approx([60, 44, 28, 12])
    assert places_points(6, [60, 48, 36, 24, 12], False) == [60, 48, 36, 24, 12, 0]
    on = table(Tournament(score="place"))
    off = table(Tournament(score="place", size_adjusted=False))
    assert on["Ki"].score == 12 and off["Ki"].score == 0
    assert on["Gil"].score == pytest.approx(50.4) and off["Gil"].score == 48


def test_tournament_absent():
    """absent = "average": a player missing a round gets his average place points for it."""
    round_2 = [
        TableResult(2, 1, n, s, 5)
        for n, s in (("Ana", -20), ("Bo", 40), ("Cy", 10), ("Di", 0), ("Ed", -30))
    ]
    results = ROUND_1 + round_2
    none = table(Tournament(score="place"), results, [1, 2])
    average = table(Tournament(score="place", absent="average"), results, [1, 2])
    assert none["Fay"].score == 60 and none["Fay"].rounds == 1
    assert average["Fay"].score == 120  # 60 played, 60 for the round missed
    assert average["Ana"].score == none["Ana"].score == 60 + 24  # played both: unchanged
    assert table(Tournament(score="raw", absent="average"), results)["Fay"].score == 50


def test_tournament_tie_break():
    """tie_break: Ana and Fay tie on place points (60); raw first puts Fay ahead, per_hand
    first Ana; with the name as the key each has his own place; with no key they share it."""
    options = Tournament(score="place")
    first = [r.name for r in tournament_table(ROUND_1, options)][:2]
    assert first == ["Fay", "Ana"]
    by_per_hand = tournament_table(ROUND_1, replace(options, tie_break=["per_hand"]))
    assert [r.name for r in by_per_hand][:2] == ["Ana", "Fay"]
    by_name = tournament_table(ROUND_1, replace(options, tie_break=["name"]))
    assert [(r.name, r.rank) for r in by_name][:2] == [("Ana", 1), ("Fay", 2)]
    shared = tournament_table(ROUND_1, replace(options, tie_break=[]))
    assert [(r.name, r.rank) for r in shared][:2] == [("Ana", 1), ("Fay", 1)]


def test_tournament_tie_break_ending_in_name_gives_every_player_his_own_place():
    """The default breaks ties by raw points and points per hand; those still equal share a
    place unless the organiser lists name last (issue: "6 송하은 / 6 이지현")."""
    options = Tournament(score="place", tie_break=["raw", "per_hand", "name"])
    ranks = [r.rank for r in tournament_table(ROUND_1, options)]
    assert ranks == list(range(1, len(ranks) + 1))
    assert Tournament().tie_break == ["raw", "per_hand"]


@pytest.mark.parametrize(
    "text, message",
    [
        ('score = "best"', "tournament.score"),
        ("place_points = [60]", "a list of 2 to 8 whole numbers"),
        ("place_points = [12, 60]", "none above the one before"),
        ('place_points = [60, "x"]', "a list of 2 to 8 whole numbers"),
        ('tie_break = ["raw", "luck"]', "a list of distinct keys from raw, per_hand, place"),
        ('tie_break = ["raw", "raw"]', "distinct keys"),
        ('absent = "fixed"', "tournament.absent"),
    ],
)
def test_tournament_options_are_checked(text, message):
    with pytest.raises(RulesetError, match=message.replace("(", r"\(").replace("[", r"\[")):
        ruleset_from_toml(
            f'extends = "standard"\n[meta]\nname = "t"\n[tournament]\n{text}\n', "t.toml"
        )


def test_the_bundled_rulesets_score_raw_by_default():
    assert load_ruleset("standard").tournament == Tournament()


def test_a_player_moved_mid_round_has_the_mean_of_his_places():
    """Ki moved from table 2 to table 1 mid-round (round seat): a place at each table (last of
    six at table 2, 12 of [60..12] stretched to six; first at table 1, 60), the round giving
    him their mean, counted as one round."""
    moved = ROUND_1 + [TableResult(1, 1, "Ki", 40, 2)]
    rows = table(
        Tournament(score="place", place_points=[60, 48, 36, 24, 12], size_adjusted=True), moved
    )
    assert rows["Ki"].place == (60 + 12) / 2 and rows["Ki"].rounds == 1
    assert rows["Ki"].raw == 0 and rows["Ki"].hands == 8
