"""``hand unvoid`` in the league store, on SQLite and PostgreSQL: a voided hand comes back as it
was recorded, later deposit pots are settled again, and the change log says who and why."""

from __future__ import annotations

import pytest

from databases import run, snapshot
from mighty_cli.engine.records import replay
from mighty_cli.store import LeagueError
from mighty_cli.store.interchange.exports import export_record
from mighty_cli.store.ledger.corrections import amend_hand, change_log, unvoid_hand, void_hand
from mighty_cli.store.ledger.hand_reads import show_hand
from mighty_cli.store.ledger.hands import record_hand
from mighty_cli.store.ledger.leagues import create_league
from mighty_cli.store.ledger.queries import standings
from mighty_cli.store.ledger.sessions import start_session

FIVE = ["Ana", "Bo", "Cy", "Di", "Ed"]


def scores(engine) -> dict:
    return {r.stats.name: r.stats.score for r in run(engine, standings, "tue").rows}


@pytest.fixture
def pot_league(engine):
    """club-requirements (deposit pot): a deal miss fills the pot, Bo's made contract wins it,
    Di's finds it empty."""
    run(engine, create_league, "tue", "club-requirements", who="t")
    run(engine, start_session, "tue", FIVE, who="t")
    for entry in (
        dict(deal_miss="Ana"),
        dict(declarer="Bo", contract="15D", friend="Cy", taken=16),
        dict(declarer="Di", contract="14S", friend="Ed", taken=15),
    ):
        run(engine, record_hand, "tue", who="t", **entry)
    return engine


def test_unvoid_restores_the_hand_and_settles_later_pots_again(pot_league):
    engine = pot_league
    played = scores(engine)
    run(engine, void_hand, "tue", 1, who="me", why="wrong table")
    assert run(engine, show_hand, "tue", 2).pot_after == 0
    assert scores(engine) != played
    correction = run(engine, unvoid_hand, "tue", 1, who="me", why="it was this table")
    assert not correction.after.voided and correction.before.voided
    assert scores(engine) == played
    assert run(engine, show_hand, "tue", 1).pot_after == 5
    assert run(engine, show_hand, "tue", 2).deltas["Bo"] == 15  # 10 + the pot's share
    assert correction.hands_resettled == 1
    assert {c.name for c in correction.changes} >= {"Ana", "Bo"}
    assert scores(engine) == replay(run(engine, export_record, "tue")).totals
    entry = run(engine, change_log, "tue")[-1]
    assert (entry.action, entry.who, entry.why) == ("hand unvoid", "me", "it was this table")


def test_unvoid_after_a_later_amend_uses_the_pots_as_they_are_now(pot_league):
    engine = pot_league
    run(engine, void_hand, "tue", 1, who="me", why="x")
    run(engine, amend_hand, "tue", 2, who="me", why="Bo failed", taken=10)
    run(engine, unvoid_hand, "tue", 1, who="me", why="y")
    # The pot of 5 now passes Bo's failed contract and goes to Di.
    assert run(engine, show_hand, "tue", 2).pot_after == 5
    assert run(engine, show_hand, "tue", 3).pot_after == 0
    assert scores(engine) == replay(run(engine, export_record, "tue")).totals


def test_unvoid_of_a_hand_that_is_not_void_is_refused_and_changes_nothing(pot_league):
    before = snapshot(pot_league)
    with pytest.raises(LeagueError, match="hand 2 is not void"):
        run(pot_league, unvoid_hand, "tue", 2, who="me", why="x")
    with pytest.raises(LeagueError, match="no hand 9"):
        run(pot_league, unvoid_hand, "tue", 9, who="me", why="x")
    assert snapshot(pot_league) == before
