"""SQLite's bulk path writes many rows to an INSERT (bulk.ROWS_PER_INSERT; issue 12: import
speed): the rows, their order and the refusals are what one row at a time gives."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from test_import_rows import _import_all, _league_rows
from test_interchange import SEASON

from databases import fresh_url, run
from mighty_cli.engine.records import load_record
from mighty_cli.store.interchange import bulk
from mighty_cli.store.interchange.imports import import_record
from mighty_cli.store.ledger.leagues import create_league
from mighty_cli.store.models import HandPlayer


def _rows_written(tmp_path, name: str) -> dict:
    from mighty_cli.store.db import make_engine

    engine = make_engine(fresh_url("sqlite", tmp_path, name))
    try:
        _import_all(engine)
        rows = _league_rows(engine)
        with engine.connect() as connection:  # the order written: the implicit row ids
            rows["order"] = connection.execute(
                text("SELECT hand_id, player_id FROM hand_player ORDER BY rowid")
            ).all()
        return rows
    finally:
        engine.dispose()


@pytest.mark.parametrize("per", [7, 200])
def test_many_rows_to_an_insert_write_what_one_row_at_a_time_writes(tmp_path, monkeypatch, per):
    monkeypatch.setattr(bulk, "ROWS_PER_INSERT", 1)
    one_at_a_time = _rows_written(tmp_path, "one.db")
    monkeypatch.setattr(bulk, "ROWS_PER_INSERT", per)
    assert _rows_written(tmp_path, f"many{per}.db") == one_at_a_time


def test_the_rows_per_insert_stay_under_the_librarys_variable_limit():
    class Driver:
        def __init__(self, limit):
            self.limit = limit

        def getlimit(self, _category):
            return self.limit

    assert bulk._rows_per_insert(Driver(32766), 7) == bulk.ROWS_PER_INSERT
    assert bulk._rows_per_insert(Driver(999), 24) == 41
    assert bulk._rows_per_insert(Driver(10), 24) == 1
    assert bulk._rows_per_insert(object(), 7) == 142  # no getlimit (Python 3.10): 999


@pytest.mark.parametrize("bad", [0, 5, 14])
@pytest.mark.parametrize("kind", ["foreign key", "unique"])
def test_a_refused_row_among_many_is_refused_with_the_same_line(tmp_path, monkeypatch, bad, kind):
    from mighty_cli.store.db import make_engine, transaction

    engine = make_engine(fresh_url("sqlite", tmp_path, "refused.db"))
    run(engine, create_league, "tue", "standard", who="t")
    run(engine, import_record, "tue", load_record(SEASON), who="t")
    columns = ("hand_id", "player_id", "league_id", "seat", "role", "points", "pot")
    with engine.connect() as connection:
        rows = [
            tuple(row)
            for row in connection.execute(
                text(f"SELECT {', '.join(columns)} FROM hand_player ORDER BY rowid LIMIT 15")
            )
        ]
    hand, player, league = rows[bad][:3]
    rows[bad] = (
        (hand + 99_999, player + 99_999, league)
        if kind == "foreign key"
        else rows[bad - 1 if bad else 1][:3]
    ) + rows[bad][3:]
    messages = []
    for per in (1, 4):
        monkeypatch.setattr(bulk, "ROWS_PER_INSERT", per)
        with pytest.raises(IntegrityError) as refused:
            with transaction(engine) as s:
                s.connection().exec_driver_sql("DELETE FROM hand_player")
                bulk.write_rows(s, HandPlayer.__table__, columns, rows)
        messages.append(str(refused.value.orig))
    assert (
        messages[0]
        == messages[1]
        == (
            "FOREIGN KEY constraint failed"
            if kind == "foreign key"
            else "UNIQUE constraint failed: hand_player.hand_id, hand_player.player_id"
        )
    )
    with engine.connect() as connection:  # and nothing of it was kept
        assert connection.execute(text("SELECT count(*) FROM hand_player")).scalar() > 15
    engine.dispose()
