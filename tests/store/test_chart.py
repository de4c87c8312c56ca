"""The standings page's chart of cumulative scores, on SQLite and PostgreSQL: one point per
hand, thinned evenly (exact running totals at evenly spaced hands) in a long league."""

from __future__ import annotations

from itertools import accumulate as running

from mighty_cli.engine.records import Record
from mighty_cli.store.db import transaction
from mighty_cli.store.interchange.imports import import_record
from mighty_cli.store.ledger.hand_reads import list_hands
from mighty_cli.store.ledger.league_page import league_page
from mighty_cli.store.ledger.leagues import create_league

FIVE = ["Ana", "Bo", "Cy", "Di", "Ed"]


def run(engine, function, *args, **kwargs):
    with transaction(engine) as s:
        return function(s, *args, **kwargs)


def season(sessions: int, hands_each: int) -> Record:
    """Short sessions of recorded hands, the declarer and friend turning round the table."""
    hands = []
    for index in range(sessions * hands_each):
        declarer, friend = FIVE[index % 5], FIVE[(index + 2) % 5]
        hands.append(
            {
                "session": index // hands_each + 1,
                "declarer": declarer,
                "contract": "14S",
                "friend": friend,
                "taken": 12 + index % 7,
            }
        )
    return Record(ruleset="standard", players=FIVE, hands=hands)


def running_totals(engine) -> dict[str, list[int]]:
    """Each player's total after every hand (hand 0 = the start), from the stored hands."""
    hands = run(engine, list_hands, "tue")
    return {name: [0] + list(running(h.deltas.get(name, 0) for h in hands)) for name in FIVE}


def league(engine, sessions: int, hands_each: int):
    run(engine, create_league, "tue", "standard", who="t")
    run(engine, import_record, "tue", season(sessions, hands_each), who="t")


def test_chart_has_a_point_per_hand_even_with_many_sessions(engine):
    league(engine, 12, 3)
    page = run(engine, league_page, "tue")
    assert page.chart_x == list(range(37))
    totals = running_totals(engine)
    assert {s.name: s.points for s in page.chart_series} == totals


def test_chart_of_a_long_league_is_thinned_evenly_to_exact_totals(engine):
    league(engine, 12, 10)
    page = run(engine, league_page, "tue", max_points=25)
    assert len(page.chart_x) <= 26
    assert page.chart_x[0] == 0 and page.chart_x[-1] == 120
    steps = {b - a for a, b in zip(page.chart_x, page.chart_x[1:])}
    assert steps == {5}
    totals = running_totals(engine)
    for series in page.chart_series:
        assert series.points == [totals[series.name][x] for x in page.chart_x]
