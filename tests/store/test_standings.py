"""Pure standings: ranking keys, ties, the minimum-hands threshold, statistics."""

from __future__ import annotations

import pytest

from mighty_cli.league.standings import (
    PlayerStats,
    ScoredHand,
    StandingsError,
    accumulate,
    diff,
    parse_rank_by,
    rank,
)


def test_equal_on_every_deciding_key_share_a_rank():
    table = rank([PlayerStats("A", 5, 10), PlayerStats("B", 5, 10), PlayerStats("C", 5, 3)])
    assert [(r.rank, r.stats.name) for r in table.rows] == [(1, "A"), (1, "B"), (3, "C")]


def test_tie_break_by_score_per_hand():
    table = rank([PlayerStats("A", 10, 10), PlayerStats("B", 5, 10)])
    assert [r.stats.name for r in table.rows] == ["B", "A"]


def test_below_minimum_hands_is_listed_without_rank():
    table = rank([PlayerStats("A", 2, 50), PlayerStats("B", 5, 1)], min_hands=3)
    assert [(r.rank, r.stats.name) for r in table.rows] == [(1, "B"), (None, "A")]


def test_rank_by_score_per_hand_first():
    table = rank(
        [PlayerStats("A", 10, 20), PlayerStats("B", 2, 6)],
        rank_by=parse_rank_by("score_per_hand,score,name"),
    )
    assert table.rows[0].stats.name == "B"


def test_unknown_rank_key_is_refused():
    with pytest.raises(StandingsError, match="unknown key 'luck'"):
        parse_rank_by("score,luck")


def test_accumulate_counts_declarer_friend_runs_and_back_runs():
    five = ["A", "B", "C", "D", "E"]
    hands = [
        ScoredHand(
            1,
            "scored",
            five,
            {"A": 40, "B": 20, "C": -20, "D": -20, "E": -20},
            "A",
            "B",
            True,
            run=True,
        ),
        ScoredHand(
            2,
            "scored",
            five,
            {"A": -24, "B": -12, "C": 12, "D": 12, "E": 12},
            "A",
            "B",
            False,
            back_run=True,
        ),
        ScoredHand(3, "deal_miss", five, {"C": -5}, deal_miss="C"),
    ]
    stats = accumulate(hands)
    assert (stats["A"].hands, stats["A"].declarer, stats["A"].declarer_success) == (2, 2, 1)
    assert stats["A"].success_rate == 0.5
    assert (stats["B"].friend, stats["B"].runs) == (2, 1)
    assert (stats["C"].back_runs, stats["C"].deal_misses, stats["C"].score) == (1, 1, -13)


def test_diff_lists_only_players_who_moved():
    before = rank([PlayerStats("A", 5, 10), PlayerStats("B", 5, 3)])
    after = rank([PlayerStats("A", 5, 10), PlayerStats("B", 5, 13)])
    changes = diff(before, after)
    assert [(c.name, c.rank_before, c.rank_after) for c in changes] == [("B", 2, 1), ("A", 1, 2)]


def test_the_running_totals_hold_what_standings_count():
    """One list of counted columns (standings.COUNTED, PlayerStats' fields): the store's running
    totals row has exactly those, after the hand_player rows it counts."""
    from mighty_cli.league.standings import COUNTED, PlayerStats
    from mighty_cli.store.ledger.totals import COUNTS
    from mighty_cli.store.models import PlayerTotal

    columns = [
        c.name for c in PlayerTotal.__table__.columns if c.name not in ("league_id", "player_id")
    ]
    assert tuple(columns) == COUNTS == ("rows",) + COUNTED
    assert COUNTED == (
        "hands",
        "score",
        "declarer",
        "declarer_success",
        "friend",
        "runs",
        "back_runs",
        "deal_misses",
    )
    total = PlayerStats("Ana", 1, 2, 3, 4, 5, 6, 7, 8)
    total.add(PlayerStats("Ana", 1, 1, 1, 1, 1, 1, 1, 1))
    assert total == PlayerStats("Ana", 2, 3, 4, 5, 6, 7, 8, 9)
