"""The import's own row builder (``import_batch.ImportRun._append``) writes exactly what the
general functions (``hands.hand_columns``, ``hands._member_tuples``) and the running totals
would: an import through each, of the same records, leaves the same rows and standings."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlmodel import Session
from test_interchange import ROOT, SEASON, SIX
from test_interchange_sessions import six_ma_league

from databases import fresh_url, run, snapshot
from mighty_cli.engine.records import load_record
from mighty_cli.store.interchange import import_batch, import_columns
from mighty_cli.store.interchange.exports import export_league, export_record
from mighty_cli.store.interchange.formats import open_record
from mighty_cli.store.interchange.imports import import_record
from mighty_cli.store.ledger.hands import _member_tuples, hand_columns, record_hand
from mighty_cli.store.ledger.leagues import create_league
from mighty_cli.store.ledger.lookups import get_league
from mighty_cli.store.ledger.queries import player_stats
from mighty_cli.store.ledger.queries import standings as read_standings
from mighty_cli.store.ledger.sessions import end_session, start_session
from mighty_cli.store.ledger.succession import session_proposal


def _general_append(self, outcome, number, session_id, present, points, pot, record_toml, note):
    """The rows as the general functions make them, the totals counted from those rows."""
    columns = hand_columns(self.rules, outcome, self.ids, self.total)
    hand_id = self.hand_ids.take()
    self.hand_rows.append(
        (
            hand_id,
            self.league.id,
            session_id,
            number,
            False,
            self.pot,
            record_toml,
            note,
            self.stamp,
        )
        + tuple(columns[c] for c in import_columns.OUTCOME_COLUMNS)
    )
    if present is None:  # a new session's: those sitting out are written at its end
        at_table = {name: amount for name, amount in pot.items() if name in outcome.players}
        members = _member_tuples(
            outcome, outcome.players, points, at_table, self.ids, self.league.id
        )
        self.pending.append((hand_id, outcome.players, points, pot, columns["deal_miss_id"]))
    else:
        members = _member_tuples(outcome, present, points, pot, self.ids, self.league.id)
    self.member_rows.extend((hand_id,) + row for row in members)
    for player_id, _league, _seat, role, gained, paid in members:
        line = self.counts.setdefault(player_id, [0] * 9)
        line[0] += 1
        line[2] += gained + paid
        if role in ("declarer", "friend", "opponent"):
            line[1] += 1
        if role == "declarer":
            line[3] += 1
            line[4] += columns["success"] is True
        if role == "friend":
            line[5] += 1
        if role in ("declarer", "friend"):
            line[6] += columns["run"]
        if role == "opponent":
            line[7] += columns["back_run"]
        if player_id == columns["deal_miss_id"]:
            line[8] += 1


def _league_rows(engine) -> dict:
    with engine.connect() as connection:
        return {
            table: sorted(map(repr, connection.execute(text(f"SELECT {columns} FROM {table}"))))
            for table, columns in (
                (
                    "hand",
                    "id, league_id, session_id, number, status, dealer_id, declarer_id, "
                    "friend_id, deal_miss_id, contract, friend_call, taken, success, "
                    'base, multiplier, doublings, run, back_run, pot_after, "full", '
                    "record_toml, note",
                ),
                ("hand_player", "*"),
                ("player_total", "*"),
            )
        }


def _import_all(engine) -> None:
    """Leagues with deal misses and a deposit pot (standard), refereed hands, six present
    with one sitting out, and 6마 hands with someone eliminated, each imported."""
    run(engine, create_league, "tue", "standard", who="t")
    run(engine, import_record, "tue", load_record(SEASON), who="t")
    run(engine, import_record, "tue", load_record(ROOT / "examples" / "run.toml"), who="t")
    run(engine, start_session, "tue", SIX, who="t")
    for _ in range(3):
        proposal = run(engine, session_proposal, "tue")[1]
        run(
            engine,
            record_hand,
            "tue",
            declarer=proposal.players[0],
            contract="14H",
            friend=proposal.players[1],
            taken=15,
            who="t",
        )
    run(engine, end_session, "tue", who="t")
    six_ma_league(engine)
    for league, ruleset in (("tue", "standard"), ("six", "standard-6")):
        record = run(engine, export_record, league)
        run(engine, create_league, f"{league}-again", ruleset, who="t")
        run(engine, import_record, f"{league}-again", record, who="t", again=True)


def test_the_imports_row_builder_writes_what_the_general_functions_would(
    db_url, tmp_path, monkeypatch
):
    from mighty_cli.store.db import make_engine

    kind = "sqlite" if db_url.startswith("sqlite") else "postgres"
    engine = make_engine(fresh_url(kind, tmp_path, "fast.db"))
    _import_all(engine)
    fast = _league_rows(engine)
    standings = {
        name: run(engine, read_standings, name).to_json()
        for name in ("tue", "six", "tue-again", "six-again")
    }
    engine.dispose()
    monkeypatch.setattr(import_batch.ImportRun, "_append", _general_append)
    engine = make_engine(fresh_url(kind, tmp_path, "general.db"))
    _import_all(engine)
    try:
        assert _league_rows(engine) == fast
        assert {
            name: run(engine, read_standings, name).to_json() for name in standings
        } == standings
        with Session(engine) as s:  # and the totals agree with every hand
            for name in standings:
                league = get_league(s, name)
                full = sorted(player_stats(s, league.id), key=lambda p: p.name)
                assert (
                    sorted((r.stats for r in read_standings(s, name).rows), key=lambda p: p.name)
                    == full
                )
    finally:
        engine.dispose()


@pytest.mark.parametrize("failing", ["hand", "hand_player"])
def test_a_batch_the_database_refuses_mid_import_changes_nothing(
    engine, tmp_path, monkeypatch, failing
):
    """PostgreSQL writes each batch on a thread while the next is built: a batch the database
    refuses (here the third) still stops the import with that error, and nothing is kept."""
    from test_interchange import corrected_league

    corrected_league(engine)
    path = tmp_path / "tue.toml"
    path.write_text(run(engine, export_league, "tue", "toml"), encoding="utf-8")
    before = snapshot(engine)
    monkeypatch.setattr(import_batch, "BATCH", 4)
    written = []
    real = import_batch.write_rows

    def refusing(s, table, columns, rows):
        if table.name == failing and rows:
            written.append(len(rows))
            if len(written) == 3:
                raise RuntimeError(f"refused batch of {table.name}")
        real(s, table, columns, rows)

    monkeypatch.setattr(import_batch, "write_rows", refusing)
    with pytest.raises(RuntimeError, match=f"refused batch of {failing}"):
        run(engine, import_record, "copy", open_record(path), who="t", create=True)
    assert len(written) == 3
    assert snapshot(engine) == before
    monkeypatch.setattr(import_batch, "write_rows", real)  # and the connection still works
    run(engine, import_record, "copy", open_record(path), who="t", create=True)
    scores = [
        {
            name: line.stats.score
            for name, line in run(engine, read_standings, league).by_name().items()
        }
        for league in ("copy", "tue")
    ]
    assert scores[0] == scores[1]
