"""The CSV export for people (issue 25 item 6): one line per hand as a spreadsheet opens it, a
refereed hand's record as one line of JSON, ``made``/``failed``, a note's line breaks escaped,
the session times as local times to the second in the league's zone; read back into the same
league (to the second: the TOML and JSON exports keep the stored microseconds). The CSVs
written before (a multi-line TOML record, ``True``/``False``, UTC times to the microsecond)
still import: ``tests/data/csv/before-csv-for-people.csv`` is one, written by the code before
this change with the result turned back into the first exports' ``True``/``False``, beside the
same league's JSON export."""

from __future__ import annotations

import csv
import io
import json
import re
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from sqlalchemy import update
from sqlmodel import select

from databases import fresh_url, run
from mighty_cli.engine import safe_toml
from mighty_cli.engine.errors import MightyError
from mighty_cli.engine.records import load_record
from mighty_cli.store.db import make_engine
from mighty_cli.store.interchange.export_text import csv_note
from mighty_cli.store.interchange.exports import CSV_COLUMNS, export_league
from mighty_cli.store.interchange.formats import csv_note_value, csv_value, open_record
from mighty_cli.store.interchange.imports import import_record
from mighty_cli.store.ledger.hand_reads import list_hands
from mighty_cli.store.ledger.hands import record_hand
from mighty_cli.store.ledger.leagues import create_league, set_league_setting
from mighty_cli.store.ledger.lookups import get_league
from mighty_cli.store.ledger.queries import standings as read_standings
from mighty_cli.store.ledger.sessions import end_session, start_session
from mighty_cli.store.models import LeagueSession, utc_time

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "csv"
TABLE = ["민수", "Bo", "Cy", "Di", "Ed"]
NOTE = 'said "twice", then\nagain\r\n=SUM(A1) C:\\new back\\slash \\n'
LOCAL = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}\Z")


def people_league(engine, name: str = "people", zone: str | None = "Asia/Seoul") -> None:
    """A refereed hand (examples/run.toml), then outcome-only hands made and failed, a deal
    miss and a note of two lines with backslashes; sessions started at odd microseconds."""
    run(engine, create_league, name, "standard", who="t")
    if zone:
        run(engine, set_league_setting, name, "timezone", zone, who="t")
    run(engine, import_record, name, load_record(ROOT / "examples" / "run.toml"), who="t")
    run(engine, start_session, name, TABLE, who="t")
    run(engine, record_hand, name, declarer="Bo", contract="14S", friend="Cy", taken=16, who="t")
    run(
        engine,
        record_hand,
        name,
        declarer="Cy",
        contract="15H",
        friend="none",
        taken=9,
        note=NOTE,
        who="t",
    )
    run(engine, record_hand, name, deal_miss="Di", who="t")
    run(engine, end_session, name, who="t")
    set_times(
        engine,
        name,
        [
            datetime(2026, 1, 25, 18, 47, 12, 999999, tzinfo=timezone.utc),
            datetime(2026, 7, 25, 10, 5, 0, 1, tzinfo=timezone.utc),
        ],
    )


def set_times(engine, name: str, starts: list[datetime]) -> None:
    def write(s):
        league_id = get_league(s, name).id
        for number, start in enumerate(starts, start=1):
            s.exec(
                update(LeagueSession)
                .where(LeagueSession.league_id == league_id, LeagueSession.number == number)
                .values(started_at=start, ended_at=start + timedelta(hours=3, seconds=1))
            )

    run(engine, write)


def stored_times(engine, name: str) -> list[tuple]:
    """Each session's number, start and end, as aware UTC times."""

    def read(s):
        league_id = get_league(s, name).id
        return [
            (x.number, utc_time(x.started_at), utc_time(x.ended_at))
            for x in s.exec(
                select(LeagueSession)
                .where(LeagueSession.league_id == league_id)
                .order_by(LeagueSession.number)
            ).all()
        ]

    return run(engine, read)


def spreadsheet(path: Path) -> list[list[str]]:
    """The file as a spreadsheet program reads it: UTF-8 after its byte-order mark, the csv
    module's default dialect."""
    with open(path, encoding="utf-8-sig", newline="") as stream:
        return list(csv.reader(stream))


def exported(engine, tmp_path, name: str, fmt: str = "csv") -> Path:
    path = tmp_path / f"{name}.{fmt}"
    path.write_text(
        run(engine, export_league, name, fmt, bom=fmt == "csv"), encoding="utf-8", newline=""
    )
    return path


def hands(engine, name: str) -> list:
    """Every hand as ``hand show --json`` gives it, with the note and a refereed hand's record
    (without its ``players``, which every import, whatever the format, stores beside it)."""
    return [
        (
            view.to_json(),
            view.note,
            view.record_toml
            and {
                key: value
                for key, value in safe_toml.loads(view.record_toml).items()
                if key != "players"
            },
        )
        for view in run(engine, list_hands, name, include_voided=False)
    ]


def imported(tmp_path, path: Path, name: str, fmt: str = "csv"):
    """``path`` imported into a new database (a CSV's league made first: it names no ruleset)."""
    other = make_engine(fresh_url("sqlite", tmp_path, f"{path.stem}-{fmt}.db"))
    run(other, create_league, name, "standard", who="t")
    run(other, import_record, name, open_record(path, fmt), who="t")
    return other


# --- what a spreadsheet shows ------------------------------------------------------------------


def test_the_csv_opens_as_one_row_per_hand_with_clear_headers(engine, tmp_path):
    people_league(engine)
    path = exported(engine, tmp_path, "people")
    rows = spreadsheet(path)
    header, body = rows[0], rows[1:]
    assert header == list(CSV_COLUMNS) + TABLE
    fixed = header[: len(CSV_COLUMNS)]
    assert all(re.fullmatch(r"[a-z]+( [a-z]+)*( \(JSON\))?", name) for name in fixed), fixed
    assert len(set(fixed)) == len(fixed)
    assert [row[0] for row in body] == ["1", "2", "3", "4"]
    # One line per hand: no cell holds a line break, so the file has one line per row.
    assert not [cell for row in rows for cell in row if "\n" in cell or "\r" in cell]
    assert path.read_text(encoding="utf-8-sig").count("\n") == len(rows)


def test_a_hands_result_reads_made_or_failed(engine, tmp_path):
    people_league(engine)
    rows = list(csv.DictReader(io.StringIO(run(engine, export_league, "people", "csv"))))
    assert [row["result"] for row in rows] == ["made", "made", "failed", ""]  # "": a deal miss
    assert [row["status"] for row in rows] == ["scored", "scored", "scored", "deal_miss"]


def test_session_times_are_local_to_the_second_in_the_leagues_zone(engine, tmp_path):
    people_league(engine)
    rows = list(csv.DictReader(io.StringIO(run(engine, export_league, "people", "csv"))))
    shown = [
        (row["session started"], row["session ended"]) for row in rows if row["session started"]
    ]
    assert shown == [
        ("2026-01-26 03:47:12+09:00", "2026-01-26 06:47:13+09:00"),
        ("2026-07-25 19:05:00+09:00", "2026-07-25 22:05:01+09:00"),
    ]
    assert all(LOCAL.match(cell) for pair in shown for cell in pair)
    seoul = ZoneInfo("Asia/Seoul")
    for (_number, started, ended), (start_cell, end_cell) in zip(
        stored_times(engine, "people"), shown
    ):
        assert datetime.fromisoformat(start_cell) == started.replace(microsecond=0)
        assert datetime.fromisoformat(end_cell) == ended.replace(microsecond=0)
        assert (
            datetime.fromisoformat(start_cell).utcoffset() == started.astimezone(seoul).utcoffset()
        )
    # The TOML and the JSON exports keep the stored UTC times, to the microsecond.
    data = json.loads(run(engine, export_league, "people", "json"))
    assert [hand.get("session_started") for hand in data["hands"]] == [
        "2026-01-25T18:47:12.999999+00:00",
        "2026-07-25T10:05:00.000001+00:00",
        None,
        None,
    ]
    assert "session_started = 2026-07-25T10:05:00.000001+00:00" in run(
        engine, export_league, "people", "toml"
    )


def test_a_league_without_a_zone_shows_the_machines_own_with_summer_time(engine, monkeypatch):
    if not hasattr(time, "tzset"):
        pytest.skip("no time.tzset on this platform")
    people_league(engine, zone=None)
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    try:
        text = run(engine, export_league, "people", "csv")
    finally:
        monkeypatch.undo()
        time.tzset()
    rows = list(csv.DictReader(io.StringIO(text)))
    started = [row["session started"] for row in rows if row["session started"]]
    # Each moment with its own offset: winter -05:00, summer -04:00.
    assert started == ["2026-01-25 13:47:12-05:00", "2026-07-25 06:05:00-04:00"]


def test_a_refereed_hands_record_is_one_line_of_json(engine, tmp_path):
    people_league(engine)
    rows = list(csv.DictReader(io.StringIO(run(engine, export_league, "people", "csv"))))
    cell = rows[0]["refereed record (JSON)"]
    data = json.loads(run(engine, export_league, "people", "json"))
    assert json.loads(cell) == data["hands"][0]["record"]
    assert len(json.loads(cell)["tricks"]) == 10
    assert [row["refereed record (JSON)"] for row in rows[1:]] == ["", "", ""]


def test_a_notes_line_breaks_and_backslashes_are_escaped(engine):
    people_league(engine)
    rows = list(csv.DictReader(io.StringIO(run(engine, export_league, "people", "csv"))))
    assert rows[2]["note"] == (
        'said "twice", then\\nagain\\r\\n=SUM(A1) C:\\\\new back\\\\slash \\\\n'
    )


@given(st.text())
def test_a_note_reads_back_as_written(note):
    assume(note == note.strip() and not note.startswith("'"))  # what every cell reads as
    cell = csv_note(note)
    assert "\n" not in cell and "\r" not in cell
    assert csv_note_value(csv_value(cell)) == note


# --- read back ---------------------------------------------------------------------------------


def test_the_csv_imports_back_into_the_same_league_to_the_second(engine, tmp_path):
    people_league(engine)
    before, standings = hands(engine, "people"), run(engine, read_standings, "people").to_json()
    times = [
        (n, a.replace(microsecond=0), b.replace(microsecond=0))
        for n, a, b in stored_times(engine, "people")
    ]
    other = imported(tmp_path, exported(engine, tmp_path, "people"), "people")
    from_json = imported(tmp_path, exported(engine, tmp_path, "people", "json"), "people", "json")
    try:
        assert hands(other, "people") == before == hands(from_json, "people")
        assert before[2][1] == NOTE and before[0][2]["tricks"]  # the note, the record
        assert run(other, read_standings, "people").to_json() == standings
        assert stored_times(other, "people") == times
    finally:
        other.dispose()
        from_json.dispose()


def test_the_result_column_is_worked_out_again_whatever_it_says(engine, tmp_path):
    """The import reads the hand, not its result: True/False (the first exports), 성공/실패
    or a cell a spreadsheet user changed make no difference."""
    people_league(engine)
    rows = spreadsheet(exported(engine, tmp_path, "people"))
    column = rows[0].index("result")
    for row, word in zip(rows[1:], ["True", "성공", "False", "실패"]):
        row[column] = word
    path = tmp_path / "changed.csv"
    with open(path, "w", encoding="utf-8", newline="") as out:
        csv.writer(out).writerows(rows)
    other = imported(tmp_path, path, "people")
    try:
        assert hands(other, "people") == hands(engine, "people")
    finally:
        other.dispose()


def test_a_csv_written_before_imports_as_its_leagues_json_export(tmp_path):
    old = DATA / "before-csv-for-people.csv"
    text = old.read_text(encoding="utf-8-sig")
    assert "True" in text and "False" in text and ".120001+00:00" in text  # the old style
    assert 'dealer = ""민수""\nelection = [' in text  # the record in a multi-line TOML cell
    from_csv = imported(tmp_path, old, "old")
    from_json = imported(tmp_path, DATA / "before-csv-for-people.json", "old", "json")
    try:
        assert hands(from_csv, "old") == hands(from_json, "old")
        assert hands(from_csv, "old")[0][2]["tricks"]  # the refereed hand, card by card
        notes = [note for _hand, note, _record in hands(from_csv, "old")]
        assert notes[2] == 'said "twice", then\nagain'
        assert notes[4] == "C:\\new back\\slash"  # an old note is read as it is, unescaped
        assert stored_times(from_csv, "old") == stored_times(from_json, "old")
        assert stored_times(from_csv, "old")[0][1].microsecond == 120001  # to the µs
        assert (
            run(from_csv, read_standings, "old").to_json()
            == run(from_json, read_standings, "old").to_json()
        )
    finally:
        from_csv.dispose()
        from_json.dispose()


def test_a_csv_written_before_the_eliminated_and_session_times_imports(tmp_path):
    """The first CSV layout (19 fixed columns: no eliminated, no session times)."""
    rows = spreadsheet(DATA / "before-csv-for-people.csv")
    cut = rows[0].index("eliminated")
    path = tmp_path / "first.csv"
    with open(path, "w", encoding="utf-8", newline="") as out:
        csv.writer(out).writerows(row[:cut] + row[cut + 3 :] for row in rows)
    from_csv = imported(tmp_path, path, "old")
    from_json = imported(tmp_path, DATA / "before-csv-for-people.json", "old", "json")
    try:
        assert hands(from_csv, "old") == hands(from_json, "old")
    finally:
        from_csv.dispose()
        from_json.dispose()


@pytest.mark.parametrize(
    "cell, says", [("{not json", "not valid JSON"), ('{"dealer": [}', "not valid JSON")]
)
def test_a_record_cell_that_is_not_json_is_one_line_and_changes_nothing(
    engine, tmp_path, cell, says
):
    people_league(engine)
    rows = spreadsheet(exported(engine, tmp_path, "people"))
    rows[1][rows[0].index("refereed record (JSON)")] = cell
    path = tmp_path / "broken.csv"
    with open(path, "w", encoding="utf-8", newline="") as out:
        csv.writer(out).writerows(rows)
    other = make_engine(fresh_url("sqlite", tmp_path, "broken.db"))
    try:
        run(other, create_league, "people", "standard", who="t")
        with pytest.raises(MightyError) as caught:
            run(other, import_record, "people", open_record(path), who="t")
        message = str(caught.value)
        assert "line 2: refereed record: " + says in message and "\n" not in message
        assert run(other, list_hands, "people") == []
    finally:
        other.dispose()


def test_a_record_cell_of_json_that_is_not_an_object_is_refused(tmp_path):
    header = ",".join(CSV_COLUMNS) + ",Ana,Bo,Cy,Di,Ed\r\n"
    path = tmp_path / "list.csv"
    path.write_text(
        header + "1,1,2024-03-05,scored" + "," * 18 + '"[1, 2]",,,,,\r\n', encoding="utf-8"
    )
    with pytest.raises(MightyError, match="line 2: refereed record: expected a JSON object"):
        list(open_record(path).hands)
