"""The bulk paths of import and export (:mod:`mighty_cli.store.interchange.bulk`): a long import
sets its checks aside and puts them back, or rolls everything back with them; it counts the running
totals as it writes; and the export's direct readers and writers give exactly what the general ones
give."""

from __future__ import annotations

import dataclasses
import itertools
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from test_interchange import corrected_league

from databases import run, snapshot
from mighty_cli.engine import safe_toml
from mighty_cli.engine.errors import MightyError
from mighty_cli.engine.records import load_record
from mighty_cli.store.interchange import bulk, exports, import_batch
from mighty_cli.store.interchange.export_text import (
    csv_cell,
    csv_row,
    export_hand,
    hand_json,
    json_export_hand,
    toml_export_hand,
    toml_hand,
)
from mighty_cli.store.interchange.exports import export_league, iter_hand_views, league_players
from mighty_cli.store.interchange.formats import open_record
from mighty_cli.store.interchange.imports import import_record
from mighty_cli.store.ledger.hand_reads import list_hands
from mighty_cli.store.ledger.leagues import create_league
from mighty_cli.store.ledger.lookups import get_league
from mighty_cli.store.ledger.queries import player_stats, standings

ROOT = Path(__file__).resolve().parents[2]
SEASON = ROOT / "examples" / "season.toml"


def schema(engine) -> list:
    """The indexes and constraints of the database."""
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            return connection.execute(
                text("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")
            ).all()
        return connection.execute(
            text(
                "SELECT conname, conrelid::regclass::text, pg_get_constraintdef(oid) "
                "FROM pg_constraint WHERE connamespace = 'public'::regnamespace "
                "UNION ALL SELECT indexname, tablename, indexdef FROM pg_indexes "
                "WHERE schemaname = 'public' ORDER BY 1, 2, 3"
            )
        ).all()


@pytest.fixture
def set_aside(monkeypatch):
    """Batches of four hands, and what each import set aside (its list of statements)."""
    monkeypatch.setattr(import_batch, "BATCH", 4)
    seen: list[list] = []
    consider = bulk.DeferredIndexes.consider

    def spy(self, written, table):
        consider(self, written, table)
        if self.dropped and self.dropped not in seen:
            seen.append(list(self.dropped))

    monkeypatch.setattr(bulk.DeferredIndexes, "consider", spy)
    return seen


def test_a_long_import_sets_its_checks_aside_and_puts_them_back(engine, set_aside):
    run(engine, create_league, "tue", "standard", who="t")
    before = schema(engine)
    done = run(engine, import_record, "tue", load_record(SEASON), who="t")
    assert done.hands == 30
    assert set_aside, "the import wrote more hands than the store held: checks set aside"
    kinds = {statement.split()[0] for _, statement in set_aside[0]}
    # PostgreSQL: its plain indexes too, since the import speed work of issue 12 (an empty
    # store only, like its keys)
    assert kinds == ({"CREATE"} if engine.dialect.name == "sqlite" else {"CREATE", "ALTER"})
    assert schema(engine) == before
    if engine.dialect.name == "postgresql":  # the keys are back, and they check
        with pytest.raises(IntegrityError), engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO hand_player (hand_id, player_id, league_id, "
                    "role, points, pot) SELECT id, 999999, league_id, 'out', 0, "
                    "0 FROM hand LIMIT 1"
                )
            )


def test_a_long_import_that_fails_leaves_rows_and_schema_as_they_were(engine, tmp_path, set_aside):
    corrected_league(engine)
    exported = run(engine, export_league, "tue", "toml")
    last = exported.rindex("taken = ")
    path = tmp_path / "late.toml"
    path.write_text(exported[:last] + "taken = 35" + exported[last + 10 :], encoding="utf-8")
    rows, indexes = snapshot(engine), schema(engine)
    with pytest.raises(MightyError, match="taken = 35"):
        run(engine, import_record, "tue", open_record(path), who="t", again=True)
    if engine.dialect.name == "sqlite":  # PostgreSQL sets keys aside only in an empty store
        assert set_aside, "the failure came after the indexes were set aside"
    assert (snapshot(engine), schema(engine)) == (rows, indexes)
    engine.dispose()  # a new connection sees the same: the drop was rolled back
    assert schema(engine) == indexes


def test_a_short_import_into_a_larger_store_keeps_its_checks(engine, set_aside):
    run(engine, create_league, "tue", "standard", who="t")
    run(engine, import_record, "tue", load_record(SEASON), who="t")
    set_aside.clear()
    run(engine, import_record, "tue", load_record(ROOT / "examples" / "run.toml"), who="t")
    run(engine, create_league, "wed", "standard", who="t")
    run(engine, import_record, "wed", load_record(SEASON), who="t")  # 30 hands, 31 stored
    assert set_aside == []


def test_an_import_counts_the_running_totals_the_hands_give(engine, set_aside):
    corrected_league(engine)  # recorded, corrected and imported hands, a session still open
    run(engine, create_league, "wed", "standard", who="t")
    run(engine, import_record, "wed", load_record(SEASON), who="t")
    run(engine, import_record, "tue", load_record(SEASON), who="t", again=True)
    from sqlmodel import Session

    for name in ("tue", "wed"):
        with Session(engine) as s:
            full = sorted(player_stats(s, get_league(s, name).id), key=lambda p: p.name)
        table = sorted((r.stats for r in run(engine, standings, name).rows), key=lambda p: p.name)
        assert table == full


def test_the_exports_direct_reader_and_writers_agree_with_the_general_ones(engine):
    corrected_league(engine)  # voided, refereed, deal-miss, sitting-out hands; quoted notes
    from sqlmodel import Session

    with Session(engine) as s:
        league = get_league(s, "tue")
        names = league_players(s, league.id)
        views = list(iter_hand_views(s, league, include_voided=True, chunk=3))
        assert views == list_hands(s, "tue")  # the ORM's reading of the same hands
    assert {v.status for v in views} >= {"scored", "deal_miss"}
    assert any(v.full for v in views) and any(v.voided for v in views)
    assert any(v.sitting_out for v in views) and any(v.note for v in views)
    # Cells a cache keyed without types would mix up: True, 1 and 1.0 are equal in Python.
    views.append(dataclasses.replace(views[0], success=True, base=1.0, multiplier=1, taken=1))
    views.append(
        dataclasses.replace(
            views[0],
            success=False,
            base=0.5,
            note="=1+1",
            friend_call="-x",
            doublings=["run", "no_trump"],
        )
    )
    views.append(
        dataclasses.replace(
            views[0], note='"quoted" \\ back\n\x7f', base=None, deltas={"김철수": -3, 'A "b"': 0}
        )
    )
    views.append(dataclasses.replace(views[0], eliminated=["Ed"]))  # 6마, 7마
    started = datetime(2024, 3, 5, 19, 30, 1, 250, tzinfo=timezone.utc)
    ended = datetime(2024, 3, 5, 23, 0, tzinfo=timezone.utc)
    # A session's first hand carries its start and end (its end missing while it is open).
    for view, times in itertools.product(views, (None, (started, None), (started, ended))):
        assert toml_export_hand(view, times) == toml_hand(export_hand(view, times))
        assert json_export_hand(view, times) == json.dumps(
            hand_json(view, times), ensure_ascii=False
        )
        playing = set(view.players)
        assert csv_row(view, names, times) == [
            csv_cell(v)
            for v in (
                view.number,
                view.session,
                view.day.isoformat(),
                view.status,
                view.dealer,
                view.declarer,
                view.contract,
                view.friend,
                view.friend_call,
                view.taken,
                None if view.success is None else "made" if view.success else "failed",
                view.base,
                view.multiplier,
                " ".join(view.doublings),
                view.deal_miss,
                view.pot_after,
                ", ".join(view.players),
                ", ".join(view.eliminated) or None,
                view.note
                and view.note.replace("\\", "\\\\")
                .replace("\r", "\\r")
                .replace("\n", "\\n"),  # one line: a note's line breaks escaped
                times and str(times[0]),
                times and times[1] and str(times[1]),
                json.dumps(safe_toml.loads(view.record_toml), ensure_ascii=False)  # one line
                if view.full and view.record_toml
                else None,
            )
        ] + [
            csv_cell(view.deltas.get(n) if n in playing or view.deltas.get(n) else None)
            for n in names
        ]
    assert exports.CHUNK > 3
