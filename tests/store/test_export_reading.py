"""The export's chunked reader: on PostgreSQL the next chunk is read by a thread while this one
is written out. An export stopped early, or a read the database refuses, leaves the
transaction's connection usable, and the refusal is raised where the export runs."""

from __future__ import annotations

import pytest
from sqlmodel import Session
from test_interchange import corrected_league

from databases import run
from mighty_cli.store.interchange import exports
from mighty_cli.store.interchange.exports import export_league, iter_hand_views
from mighty_cli.store.ledger.hand_reads import list_hands
from mighty_cli.store.ledger.lookups import get_league


def test_an_export_stopped_early_leaves_the_connection_usable(engine):
    corrected_league(engine)
    with Session(engine) as s:
        league = get_league(s, "tue")
        views = iter_hand_views(s, league, chunk=3)
        first = [next(views).number for _ in range(4)]  # into the second chunk
        views.close()
        assert first == [1, 2, 3, 4]
        assert [v.number for v in iter_hand_views(s, league, chunk=5)] == [
            h.number for h in list_hands(s, "tue", include_voided=False)
        ]


def test_a_chunk_the_database_refuses_is_raised_by_the_export(engine, monkeypatch):
    corrected_league(engine)
    monkeypatch.setattr(
        exports, "_HAND_SQL", exports._HAND_SQL.replace("FROM hand", "FROM no_such_table")
    )
    # The driver's own error, as the export's plain-SQL reads have always raised it.
    with pytest.raises(engine.dialect.dbapi.Error, match="no_such_table"):
        run(engine, export_league, "tue", "json")
    monkeypatch.undo()
    assert '"number": 1,' in run(engine, export_league, "tue", "json")
