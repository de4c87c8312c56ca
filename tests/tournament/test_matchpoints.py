"""Matchpoints (duplicate Mighty, issue 23): each seat's result on a deal against the others
who held the same cards, checked by hand."""

from __future__ import annotations

import pytest

from mighty_cli.tournament.matchpoints import SeatResult, matchpoints, places, seat_matchpoints


def result(table, seat, points, deal=1, size=5, player=None, round_=1):
    return SeatResult(size, deal, seat, table, player or f"T{table}S{seat}", points, round_)


def test_a_result_scores_one_per_result_beaten_and_a_half_per_tie():
    assert seat_matchpoints(8, [8, -4]) == 1.5
    assert seat_matchpoints(-4, [8, 8]) == 0.0
    assert seat_matchpoints(2, [-4, -4, 2]) == 2.5


def test_three_tables_on_one_deal_checked_by_hand():
    """Seat 2 scored +8, -4, +8 at tables 1-3: tables 1 and 3 beat table 2 and tie each
    other (1 + 1/2 of a top of 2), table 2 beats nobody."""
    rows = {
        row.player: row for row in matchpoints([result(1, 2, 8), result(2, 2, -4), result(3, 2, 8)])
    }
    assert (rows["T1S2"].matchpoints, rows["T1S2"].top) == (1.5, 2)
    assert (rows["T3S2"].matchpoints, rows["T3S2"].top) == (1.5, 2)
    assert (rows["T2S2"].matchpoints, rows["T2S2"].top) == (0.0, 2)
    assert rows["T1S2"].percent == 75.0 and rows["T2S2"].percent == 0.0


def test_only_the_same_cards_are_compared():
    """Another seat, another deal, another table size or another round is another board."""
    rows = {
        row.player: row
        for row in matchpoints(
            [
                result(1, 0, 4, player="a"),
                result(2, 1, -4, player="b"),
                result(3, 0, -4, deal=2, player="c"),
                result(4, 0, -4, size=6, player="d"),
                result(5, 0, -4, round_=2, player="e"),
            ]
        )
    }
    assert all(row.top == 0 and row.percent is None for row in rows.values())


def test_a_deal_played_at_one_table_only_scores_nothing():
    rows = {
        row.player: row
        for row in matchpoints([result(1, 0, 4), result(2, 0, 2), result(1, 0, -4, deal=2)])
    }
    assert (rows["T1S0"].matchpoints, rows["T1S0"].top, rows["T1S0"].deals) == (1.0, 1, 1)


def test_ranked_by_percentage_and_ties_share_a_place():
    rows = matchpoints(
        [
            result(1, 0, 4, player="Ana"),
            result(2, 0, 4, player="Bo"),
            result(3, 0, -4, player="Cy"),
            result(4, 0, 9, deal=3, player="Di"),
        ]
    )
    assert [row.player for row in rows] == ["Ana", "Bo", "Cy", "Di"]
    assert places(rows) == [1, 1, 3, None]
    assert rows[0].to_json() == {
        "player": "Ana",
        "matchpoints": 1.5,
        "top": 2,
        "deals": 1,
        "percent": 75.0,
    }


@pytest.mark.parametrize("points", [[0, 0, 0, 0], [5, -3, 5, 1], [-8, 4, 4, 4]])
def test_matchpoints_on_a_board_sum_to_half_the_comparisons(points):
    """Every comparison hands out exactly one matchpoint between its two results."""
    rows = matchpoints([result(t, 0, p) for t, p in enumerate(points, start=1)])
    n = len(points)
    assert sum(row.matchpoints for row in rows) == n * (n - 1) / 2
