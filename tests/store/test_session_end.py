"""The end of a session (docs/rules.md §9; 001 §1.9, 002) in the league store, on SQLite and
PostgreSQL: ``session.hands_per_session`` and ``session.starting_points`` end a session by
themselves, a hand after the end is refused, corrections never end or reopen a session.

No bundled ruleset sets either option (001 leaves both to the table), so each test plays the
same hands under club-requirements and under a club file extending it that sets the option."""

from __future__ import annotations

import pytest

from club_files import club_file
from databases import run, snapshot
from mighty_cli.engine.records import Record, dump_record, replay
from mighty_cli.store import LeagueError
from mighty_cli.store.interchange.imports import import_record, save_refereed_hand
from mighty_cli.store.ledger import sessions
from mighty_cli.store.ledger.corrections import amend_hand, change_log, unvoid_hand, void_hand
from mighty_cli.store.ledger.hands import record_hand
from mighty_cli.store.ledger.leagues import create_league
from mighty_cli.store.ledger.lookups import get_league
from mighty_cli.store.ledger.queries import standings
from mighty_cli.store.ledger.sessions import end_session, session_end_info, start_session
from mighty_cli.store.models import LeagueSession

FIVE = ["Ana", "Bo", "Cy", "Di", "Ed"]


def scores(engine, league: str) -> dict:
    return {r.stats.name: r.stats.score for r in run(engine, standings, league).rows}


BO_MADE = dict(declarer="Bo", contract="14S", friend="Cy", taken=16)  # Ana, Di, Ed -4
ANA_MADE = dict(declarer="Ana", contract="14S", friend="Bo", taken=16)  # Cy, Di, Ed -4
DI_MADE = dict(declarer="Di", contract="14S", friend="Ed", taken=16)  # Ana, Bo, Cy -4


def open_league(engine, name: str, ruleset: str) -> None:
    run(engine, create_league, name, ruleset, who="t")
    run(engine, start_session, name, FIVE, who="t")


def record(engine, name: str, **entry):
    return run(engine, record_hand, name, who="t", **entry)


def session_row(engine, name: str, number: int = 1) -> LeagueSession:
    def get(s):
        league = get_league(s, name)
        return sessions.find_session(s, league, number, open_only=False)

    return run(engine, get)


def test_hands_per_session_ends_the_session_after_its_last_hand(engine, tmp_path):
    open_league(engine, "open", "club-requirements")  # the same hands never end it
    assert record(engine, "open", **BO_MADE).session_ended is None
    assert record(engine, "open", deal_miss="Cy").session_ended is None
    assert record(engine, "open", **ANA_MADE).session_ended is None
    assert session_row(engine, "open").ended_at is None
    run(engine, end_session, "open", who="t")  # one person, one open table, in any league
    open_league(engine, "short", club_file(tmp_path, hands_per_session=2))
    assert record(engine, "short", **BO_MADE).session_ended is None
    assert record(engine, "short", deal_miss="Cy").session_ended is None  # not a hand played
    reason = record(engine, "short", **ANA_MADE).session_ended
    assert reason == "session.hands_per_session = 2: 2 hands played"
    assert session_row(engine, "short").ended_at is not None
    entry = run(engine, change_log, "short")[-1]
    assert (entry.action, entry.who, entry.why) == ("session end", "t", reason)


def test_starting_points_ends_the_session_when_a_stack_is_lost(engine, tmp_path):
    open_league(engine, "open", "club-requirements")  # the same hands never end it
    assert record(engine, "open", **BO_MADE).session_ended is None
    assert record(engine, "open", **ANA_MADE).session_ended is None
    assert session_row(engine, "open").ended_at is None
    run(engine, end_session, "open", who="t")  # one person, one open table, in any league
    open_league(engine, "stack", club_file(tmp_path, starting_points=8))
    assert record(engine, "stack", **BO_MADE).session_ended is None  # Di at 4
    assert record(engine, "stack", **ANA_MADE).session_ended == (
        "session.starting_points = 8: Di is at 0 (-8 this session), Ed is at 0 (-8 this session)"
    )
    assert session_row(engine, "stack").ended_at is not None


def test_hand_after_the_session_end_is_refused_and_changes_nothing(engine, tmp_path):
    open_league(engine, "short", club_file(tmp_path, hands_per_session=1))
    record(engine, "short", **BO_MADE)
    before = snapshot(engine)
    with pytest.raises(
        LeagueError,
        match=r"no open session \(session 1 ended by its ruleset: "
        r"session.hands_per_session = 1: 1 hand played\)",
    ):
        record(engine, "short", **ANA_MADE)
    with pytest.raises(
        LeagueError,
        match="session 1 of league 'short' has ended by its ruleset "
        r"\(session.hands_per_session = 1",
    ):
        record(engine, "short", session_number=1, **ANA_MADE)
    assert snapshot(engine) == before


def test_voiding_a_hand_never_reopens_the_session_but_says_so(engine, tmp_path):
    open_league(engine, "short", club_file(tmp_path, hands_per_session=2))
    record(engine, "short", **BO_MADE)
    record(engine, "short", **ANA_MADE)
    correction = run(engine, void_hand, "short", 2, who="me", why="never played")
    assert scores(engine, "short")["Bo"] == 8  # standings recomputed
    assert session_row(engine, "short").ended_at is not None
    assert "would not have ended yet" in correction.session_note
    info = run(engine, session_end_info, "short", 1)
    assert info.ended_by == "session.hands_per_session = 2: 2 hands played"
    assert info.note == correction.session_note
    restored = run(engine, unvoid_hand, "short", 2, who="me", why="it was played")
    assert restored.session_note is None


def test_amending_a_hand_never_ends_the_session_until_its_next_hand(engine, tmp_path):
    open_league(engine, "stack", club_file(tmp_path, starting_points=12))
    record(engine, "stack", **BO_MADE)  # Di at 8
    record(engine, "stack", **DI_MADE)  # Di at 16
    correction = run(
        engine, amend_hand, "stack", 2, who="me", why="Di failed", contract="16S", taken=10
    )  # Di at -4
    assert session_row(engine, "stack").ended_at is None
    assert correction.session_note.startswith(
        "by its hands as corrected, session 1 was complete after hand 2 "
        "(session.starting_points = 12: Di is at -4"
    )
    assert "Di is at -4" in record(engine, "stack", **BO_MADE).session_ended
    assert session_row(engine, "stack").ended_at is not None


def refereed(*hands: dict) -> str:
    return dump_record(Record(ruleset="club-requirements", players=FIVE, hands=list(hands)))


def test_refereed_hand_that_completes_the_session_ends_it(engine, tmp_path):
    open_league(engine, "short", club_file(tmp_path, hands_per_session=2))
    record(engine, "short", **BO_MADE)
    done = run(engine, save_refereed_hand, "short", refereed(ANA_MADE), who="t")
    assert done.ended == [(1, "session.hands_per_session = 2: 2 hands played")]
    assert session_row(engine, "short").ended_at is not None


def test_refereed_hands_past_the_session_end_are_refused_and_change_nothing(engine, tmp_path):
    open_league(engine, "short", club_file(tmp_path, hands_per_session=2))
    record(engine, "short", **BO_MADE)
    before = snapshot(engine)
    with pytest.raises(
        LeagueError,
        match=r"hand 2: session 1 of league 'short' ended after "
        r"hand 2 \(session.hands_per_session = 2",
    ):
        run(engine, save_refereed_hand, "short", refereed(ANA_MADE, DI_MADE), who="t")
    assert snapshot(engine) == before


def test_import_keeps_hands_played_after_a_session_end_and_reports_them(engine, tmp_path):
    run(engine, create_league, "short", club_file(tmp_path, hands_per_session=2), who="t")
    hands = [dict(h, session=1) for h in (BO_MADE, ANA_MADE, DI_MADE)] + [dict(BO_MADE, session=2)]
    record_ = Record(ruleset="club-requirements", players=FIVE, hands=hands)
    done = run(engine, import_record, "short", record_, who="t")
    assert done.hands == 4 and done.sessions == [1, 2]
    assert done.notes == [
        "session 1 ended by its ruleset after hand 2 (session.hands_per_session "
        "= 2: 2 hands played); the record plays on: hand 3 stored as played"
    ]
    assert scores(engine, "short") == replay(record_).totals
