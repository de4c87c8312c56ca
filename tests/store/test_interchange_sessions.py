"""What an export carries besides the hands: when each session started and ended, and who a
6마/7마 declarer eliminated, in every format and back through an import, on both databases."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import update
from sqlmodel import select
from test_interchange import SIX, corrected_league

from databases import fresh_url, run, snapshot
from mighty_cli.engine.errors import MightyError
from mighty_cli.store.db import make_engine
from mighty_cli.store.interchange.exports import export_league
from mighty_cli.store.interchange.formats import open_record
from mighty_cli.store.interchange.imports import import_record
from mighty_cli.store.ledger.hand_reads import list_hands
from mighty_cli.store.ledger.hands import record_hand
from mighty_cli.store.ledger.leagues import configure_league, create_league, set_league_setting
from mighty_cli.store.ledger.lookups import get_league
from mighty_cli.store.ledger.queries import standings as read_standings
from mighty_cli.store.ledger.sessions import start_session
from mighty_cli.store.models import LeagueSession

FORMATS = ["toml", "json", "csv"]


def _times(engine, league: str) -> list[tuple]:
    """Each session's number, start and end, as stored (UTC)."""

    def read(s):
        league_id = get_league(s, league).id
        return [
            (x.number, x.started_at, x.ended_at)
            for x in s.exec(
                select(LeagueSession)
                .where(LeagueSession.league_id == league_id)
                .order_by(LeagueSession.number)
            ).all()
        ]

    return run(engine, read)


def _set_times(engine, league: str) -> None:
    """Give every session a start and (when ended) an end on its own evening in 2024, far
    from today, so an import that kept its own clock would show."""
    stored = _times(engine, league)

    def write(s):
        league_id = get_league(s, league).id
        for number, _started, ended in stored:
            start = datetime(2024, 3, number, 19, 30, 5, 120000 + number, tzinfo=timezone.utc)
            s.exec(
                update(LeagueSession)
                .where(LeagueSession.league_id == league_id, LeagueSession.number == number)
                .values(
                    started_at=start, ended_at=None if ended is None else start + timedelta(hours=3)
                )
            )

    run(engine, write)


def _round_trip(engine, db_url, tmp_path, league: str, fmt: str, ruleset: str):
    """Export ``league`` in ``fmt``, then import the file into an empty database of the same
    kind (PostgreSQL: the same database, emptied); the new engine."""
    path = tmp_path / f"{league}.{fmt}"
    path.write_text(run(engine, export_league, league, fmt), encoding="utf-8")
    engine.dispose()
    kind = "sqlite" if db_url.startswith("sqlite") else "postgres"
    other = make_engine(fresh_url(kind, tmp_path, "other.db"))
    if fmt == "csv":  # a CSV names no ruleset: the league is made first
        run(other, create_league, league, ruleset, who="t")
    run(other, import_record, league, open_record(path), who="t", create=True)
    return other


def _second(moment: datetime) -> datetime:
    return moment.replace(microsecond=0)


@pytest.mark.parametrize("fmt", FORMATS)
def test_imported_sessions_keep_their_exported_start_and_end(engine, db_url, tmp_path, fmt):
    corrected_league(engine)
    _set_times(engine, "tue")
    before = _times(engine, "tue")
    assert before[-1][2] is None and all(end for _, _, end in before[:-1])  # the last is open
    standings = run(engine, read_standings, "tue").to_json()
    other = _round_trip(engine, db_url, tmp_path, "tue", fmt, "standard")
    if fmt == "csv":  # a CSV is for people: its times go to the second (TOML, JSON: the µs)
        before = [(n, _second(start), end and _second(end)) for n, start, end in before]
    try:
        after = _times(other, "tue")
        assert [t[:2] for t in after] == [t[:2] for t in before]  # every start
        assert [t[2] for t in after[:-1]] == [t[2] for t in before[:-1]]  # every end
        # The session the export showed open is history once imported: ended at the import.
        assert after[-1][2] is not None and after[-1][2] > before[-1][1]
        run(other, configure_league, "tue", min_hands=3)
        assert run(other, read_standings, "tue").to_json() == standings
    finally:
        other.dispose()


def test_session_times_are_written_on_each_sessions_first_hand(engine):
    corrected_league(engine)
    _set_times(engine, "tue")
    data = json.loads(run(engine, export_league, "tue", "json"))
    firsts = {}
    for hand in data["hands"]:
        if hand["session"] not in firsts:
            firsts[hand["session"]] = hand
        else:
            assert "session_started" not in hand
    assert firsts[1]["session_started"] == "2024-03-01T19:30:05.120001+00:00"
    assert firsts[1]["session_ended"] == "2024-03-01T22:30:05.120001+00:00"
    assert firsts[max(firsts)]["session_ended"] is None  # still open
    toml = run(engine, export_league, "tue", "toml")
    assert "\nsession_started = 2024-03-01T19:30:05.120001+00:00\n" in toml
    # The CSV: local times in the league's zone, to the second.
    run(engine, set_league_setting, "tue", "timezone", "Asia/Seoul", who="t")
    rows = list(csv.DictReader(io.StringIO(run(engine, export_league, "tue", "csv"))))
    assert rows[0]["session started"] == "2024-03-02 04:30:05+09:00"
    assert rows[0]["session ended"] == "2024-03-02 07:30:05+09:00"
    assert rows[1]["session started"] == rows[1]["session ended"] == ""
    assert "+00:00" in run(engine, export_league, "tue", "toml")  # TOML, JSON: UTC as stored


def test_a_hand_written_record_without_session_times_is_stamped_with_the_import(engine, tmp_path):
    run(engine, create_league, "tue", "standard", who="t")
    path = tmp_path / "s.toml"
    path.write_text(
        'format = "mighty-hand-record/1"\nruleset = "standard"\n'
        'players = ["Ana", "Bo", "Cy", "Di", "Ed"]\n\n[[hands]]\ndate = 2024-03-05\n'
        'dealer = "Ana"\ndeclarer = "Bo"\ncontract = "14S"\nfriend = "Cy"\n'
        "taken = 15\n",
        encoding="utf-8",
    )
    start = datetime.now(timezone.utc).replace(tzinfo=None) - timedelta(minutes=5)
    run(engine, import_record, "tue", open_record(path), who="t")
    [(number, started, ended)] = _times(engine, "tue")
    assert started.replace(tzinfo=None) > start and ended == started


@pytest.mark.parametrize("value", ['"yesterday"', "2024-03-05", '"2024-13-05T19:30:00"'])
def test_a_session_time_that_is_not_a_time_is_one_line_and_changes_nothing(engine, tmp_path, value):
    run(engine, create_league, "tue", "standard", who="t")
    path = tmp_path / "s.toml"
    path.write_text(
        'format = "mighty-hand-record/1"\nruleset = "standard"\n'
        'players = ["Ana", "Bo", "Cy", "Di", "Ed"]\n\n[[hands]]\ndate = 2024-03-05\n'
        f'session_started = {value}\ndealer = "Ana"\ndeclarer = "Bo"\n'
        'contract = "14S"\nfriend = "Cy"\ntaken = 15\n',
        encoding="utf-8",
    )
    before = snapshot(engine)
    with pytest.raises(MightyError) as caught:
        run(engine, import_record, "tue", open_record(path), who="t")
    assert "session_started" in str(caught.value) and "\n" not in str(caught.value)
    assert "2024-03-05T19:30:00+00:00" in str(caught.value)
    assert snapshot(engine) == before


def six_ma_league(engine) -> None:
    """A 6마 league (standard-6: the declarer eliminates one of the six) of three outcomes."""
    run(engine, create_league, "six", "standard-6", who="t")
    run(engine, start_session, "six", SIX, who="t")
    for declarer, contract, friend, taken, eliminated in (
        ("Bo", "14S", "Cy", 16, "Di"),
        ("Cy", "15H", None, 9, "Ana"),
        ("김철수", "16NT", "Ed", 17, "Bo"),
    ):
        run(
            engine,
            record_hand,
            "six",
            declarer=declarer,
            contract=contract,
            friend=friend or "none",
            taken=taken,
            eliminated=[eliminated],
            who="t",
        )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_six_ma_league_round_trips_with_who_was_eliminated(engine, db_url, tmp_path, fmt):
    six_ma_league(engine)
    hands = [h.to_json() for h in run(engine, list_hands, "six")]
    assert [h["eliminated"] for h in hands] == [["Di"], ["Ana"], ["Bo"]]
    standings = run(engine, read_standings, "six").to_json()
    other = _round_trip(engine, db_url, tmp_path, "six", fmt, "standard-6")
    try:
        assert [h.to_json() for h in run(other, list_hands, "six")] == hands
        assert run(other, read_standings, "six").to_json() == standings
    finally:
        other.dispose()


def test_the_csv_eliminated_column_reads_as_a_spreadsheet_user_expects(engine):
    six_ma_league(engine)
    text = run(engine, export_league, "six", "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["eliminated"] for r in rows] == ["Di", "Ana", "Bo"]
    header = next(csv.reader(io.StringIO(text)))
    # Beside the players of the hand, before everyone's points (seating order).
    assert header.index("eliminated") == header.index("players") + 1
    assert header[-6:] == SIX
    # The CSVs exported before the eliminated had a column: tests/store/test_csv_for_people.py
