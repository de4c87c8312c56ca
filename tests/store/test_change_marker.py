"""The change marker (:mod:`mighty_cli.store.ledger.change_marker`) that every live page of
``mighty serve`` polls: it moves whenever a change is committed, in whatever order the writers'
transactions commit."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from databases import POSTGRES_URL, fresh_url
from mighty_cli.store.db import make_engine
from mighty_cli.store.ledger.change_marker import change_marker, table_marker
from mighty_cli.store.models import ChangeLog


def markers(engine) -> tuple[str, str]:
    with Session(engine) as s:
        return change_marker(s, 1), table_marker(s, 1)


@pytest.mark.postgres
@pytest.mark.skipif(not POSTGRES_URL, reason="MIGHTY_TEST_POSTGRES_URL not set")
def test_a_change_committed_after_a_later_one_still_moves_the_marker(tmp_path):
    # Two keepers' commands at once on PostgreSQL: the first takes its change's id, the second
    # takes the next and commits first; the first commits after a page has read the marker.
    # (SQLite lets one writer at a time: its ids commit in order.)
    engine = make_engine(fresh_url("postgres", tmp_path))
    try:
        with Session(engine) as first, Session(engine) as second:
            first.add(ChangeLog(action="hand", who="table 1"))
            first.flush()  # its id taken, not yet committed
            second.add(ChangeLog(action="hand", who="table 2"))
            second.commit()
            seen = markers(engine)
            first.commit()
        with Session(engine) as s:  # the first to commit has the later id
            assert [row.who for row in s.exec(select(ChangeLog).order_by(ChangeLog.id))] == [
                "table 1",
                "table 2",
            ]
        after = markers(engine)
        assert after[0] != seen[0] and after[1] != seen[1]
    finally:
        engine.dispose()


def test_the_marker_moves_with_each_change_and_stays_without_one(engine):
    before = markers(engine)
    assert markers(engine) == before
    with Session(engine) as s:
        s.add(ChangeLog(action="hand", who="table 1"))
        s.commit()
    assert markers(engine) != before
