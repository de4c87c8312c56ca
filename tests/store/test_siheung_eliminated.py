"""시흥 은마 (table.dummy) in the league: whose own hand the declarer eliminated, a player (who
then plays the dummy's hand from his seat and scores like anyone) or the dummy, is kept with a
hand recorded by its outcome (``hand.eliminated_seat``), shown with the hand, written by every
export, read back by import and restore, and kept by amend, void and unvoid, on SQLite and
PostgreSQL. 6마/7마 outcomes and refereed 시흥 hands go through the same round trips; a store
made before the column gains it when opened."""

from __future__ import annotations

import io

import pytest
from sqlalchemy import text
from sqlmodel import select
from test_export_chunks import general_export
from test_interchange import SIX, without_totals
from test_interchange_sessions import FORMATS, _round_trip

from databases import run
from mighty_cli.engine.errors import MightyError
from mighty_cli.engine.records import load_record, replay
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.store.db import ADDED_COLUMNS, make_engine, transaction
from mighty_cli.store.interchange import export_chunks
from mighty_cli.store.interchange.backup import iter_backup, restore
from mighty_cli.store.interchange.exports import export_league
from mighty_cli.store.interchange.imports import import_record
from mighty_cli.store.ledger.corrections import amend_hand, unvoid_hand, void_hand
from mighty_cli.store.ledger.hand_reads import list_hands, show_hand
from mighty_cli.store.ledger.hands import record_hand
from mighty_cli.store.ledger.leagues import create_league
from mighty_cli.store.ledger.queries import standings as read_standings
from mighty_cli.store.ledger.sessions import end_session, start_session
from mighty_cli.store.ledger.succession import session_proposal
from mighty_cli.store.models import Hand


def siheung_league(engine, name: str = "sh") -> list:
    """A 시흥 은마 league of six present (one sits out each hand): the friend's own hand out
    (he played the dummy's, which held the called card), the dummy out, an opponent out, a
    hand that leaves it unsaid, a deal miss, a hand voided and one restored, an amended one.
    The eliminated of each hand, as expected."""
    run(engine, create_league, name, "siheung-6", who="t")
    run(engine, start_session, name, SIX, who="t")
    expected = []

    def record(declarer, friend, taken, out, **more):
        players = run(engine, session_proposal, name)[1].players
        out_name = out if out in (None, "dummy", "Dummy") else players[out]
        run(
            engine,
            record_hand,
            name,
            declarer=players[declarer],
            contract="14S",
            friend=players[friend] if friend is not None else "none",
            taken=taken,
            eliminated=None if out_name is None else [out_name],
            who="t",
            **more,
        )
        expected.append([] if out_name is None else ["dummy" if out_name == "Dummy" else out_name])

    record(0, 1, 16, 1)  # the friend's own hand out: he played the dummy's
    record(0, 2, 15, "dummy")
    record(1, None, 9, 3, note="노프렌드")
    record(2, 3, 14, None)  # a record may leave it out: it changes no score
    players = run(engine, session_proposal, name)[1].players
    run(engine, record_hand, name, deal_miss=players[2], who="t")
    expected.append([])
    record(3, 4, 17, 0)
    record(4, 0, 12, "Dummy")
    record(1, 2, 18, 4)
    run(engine, void_hand, name, 6, who="t", why="entered twice")
    run(engine, void_hand, name, 7, who="t", why="x")
    run(engine, unvoid_hand, name, 7, who="t", why="it was right")
    run(engine, amend_hand, name, 8, who="t", why="miscounted", taken=12)
    return expected


def eliminated(engine, league: str) -> list:
    return [h.eliminated for h in run(engine, list_hands, league)]


def test_a_siheung_summary_hand_keeps_who_was_eliminated(engine):
    expected = siheung_league(engine)
    assert eliminated(engine, "sh") == expected
    shown = run(engine, show_hand, "sh", 2).to_json()
    assert shown["eliminated"] == ["dummy"]
    first = run(engine, show_hand, "sh", 1)
    assert first.eliminated == [first.friend]  # he played on, as the friend
    assert first.deltas[first.friend] > 0
    # An eliminated player keeps his role (he played the dummy's hand): nobody's row says
    # eliminated, and hand 1's friend is counted as the friend.
    roles = run(
        engine,
        lambda s: s.exec(
            text(
                "SELECT h.number, p.name, hp.role FROM hand_player hp JOIN hand h ON h.id = hp.hand_id "
                "JOIN player p ON p.id = hp.player_id"
            )
        ).all(),
    )
    assert "eliminated" not in {role for _n, _p, role in roles}
    assert (1, first.friend, "friend") in [tuple(r) for r in roles]
    stored = run(
        engine,
        lambda s: [
            (h.number, h.eliminated_seat) for h in s.exec(select(Hand).order_by(Hand.number)).all()
        ],
    )
    assert stored[1] == (2, 5) and stored[3] == (4, None) and stored[4] == (5, None)


def test_amend_void_and_unvoid_keep_the_eliminated(engine):
    expected = siheung_league(engine)
    hands = run(engine, list_hands, "sh")
    assert [h.voided for h in hands].count(True) == 1 and hands[5].voided
    assert hands[6].eliminated == ["dummy"] and hands[7].eliminated == expected[7]
    assert hands[7].taken == 12
    # An amend that makes the eliminated player the declarer is refused, as a record's would be.
    out = hands[7].eliminated[0]
    with pytest.raises(MightyError) as caught:
        run(engine, amend_hand, "sh", 8, who="t", why="x", declarer=out)
    assert (
        str(caught.value) == f"hand 8: eliminated: {out} is the declarer and cannot be eliminated"
    )
    assert eliminated(engine, "sh") == expected


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_siheung_league_round_trips_with_who_was_eliminated(engine, db_url, tmp_path, fmt):
    expected = siheung_league(engine)
    live = [h.to_json() for h in run(engine, list_hands, "sh", include_voided=False)]
    assert [h.get("eliminated", []) for h in live] == [e for i, e in enumerate(expected) if i != 5]
    standings = run(engine, read_standings, "sh").to_json()
    other = _round_trip(engine, db_url, tmp_path, "sh", fmt, "siheung-6")
    try:
        assert [h.to_json() for h in run(other, list_hands, "sh")] == live  # numbers too
        assert run(other, read_standings, "sh").to_json() == standings
    finally:
        other.dispose()


def test_the_chunk_writers_write_siheung_hands_as_the_general_ones(engine, monkeypatch):
    siheung_league(engine)
    expected = {fmt: run(engine, general_export, "sh", fmt) for fmt in FORMATS}
    general = []  # the chunk writers write these hands themselves: none goes the general way
    for writer in ("toml_export_hand", "json_export_hand"):
        monkeypatch.setattr(export_chunks, writer, lambda view, times: general.append(view))
    monkeypatch.setattr(
        export_chunks.CsvChunks, "_general", lambda self, row, *args: general.append(row)
    )
    for fmt in FORMATS:
        whole = run(engine, export_league, "sh", fmt, bom=fmt == "csv")
        assert whole == expected[fmt]
        assert ('"dummy"' if fmt != "csv" else ",dummy,") in whole
    assert general == []


def every_row(engine) -> str:
    with transaction(engine) as s:
        return "".join(iter_backup(s))


@pytest.mark.parametrize("ruleset", ["siheung-6", "standard-6", "standard-7"])
def test_backup_then_restore_keeps_the_eliminated(engine, tmp_path, ruleset):
    source = make_engine(f"sqlite:///{tmp_path / 'source.db'}")
    if ruleset == "siheung-6":
        siheung_league(source)
    else:
        eliminated_league(source, ruleset)
    backup = every_row(source)
    with transaction(engine) as s:
        restore(s, io.StringIO(backup))
    assert without_totals(every_row(engine)) == without_totals(backup)  # totals counted again
    assert [h.to_json() for h in run(engine, list_hands, "sh")] == [
        h.to_json() for h in run(source, list_hands, "sh")
    ]
    assert any(eliminated(engine, "sh"))
    assert (
        run(engine, read_standings, "sh").to_json() == run(source, read_standings, "sh").to_json()
    )
    source.dispose()


def eliminated_league(engine, ruleset: str) -> list:
    """6마 (standard-6: one eliminated of six) or 7마 (standard-7: two of seven) outcomes."""
    rules = load_ruleset(ruleset)
    present = SIX + ["Gus"] if rules.table.players == 7 else SIX
    run(engine, create_league, "sh", ruleset, who="t")
    run(engine, start_session, "sh", present, who="t")
    expected = []
    for declarer, friend, out in ((0, 1, (2, 3)), (1, None, (0, 4)), (2, 3, (5, 6))):
        players = run(engine, session_proposal, "sh")[1].players
        names = [players[i] for i in out[: rules.table.eliminated] if i < len(players)]
        run(
            engine,
            record_hand,
            "sh",
            declarer=players[declarer],
            contract="14S",
            friend=players[friend] if friend is not None else "none",
            taken=11,
            eliminated=names,
            who="t",
        )
        expected.append(names)
    return expected


@pytest.mark.parametrize("ruleset", ["standard-6", "standard-7"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_six_and_seven_ma_outcomes_round_trip_with_the_eliminated(
    engine, db_url, tmp_path, ruleset, fmt
):
    expected = eliminated_league(engine, ruleset)
    hands = [h.to_json() for h in run(engine, list_hands, "sh")]
    assert [h["eliminated"] for h in hands] == expected
    standings = run(engine, read_standings, "sh").to_json()
    other = _round_trip(engine, db_url, tmp_path, "sh", fmt, ruleset)
    try:
        assert [h.to_json() for h in run(other, list_hands, "sh")] == hands
        assert run(other, read_standings, "sh").to_json() == standings
    finally:
        other.dispose()


@pytest.mark.parametrize("ruleset", ["standard-6", "standard-7"])
def test_six_and_seven_ma_eliminated_keep_their_role_not_the_siheung_column(engine, ruleset):
    eliminated_league(engine, ruleset)
    stored = run(engine, lambda s: {h.eliminated_seat for h in s.exec(select(Hand)).all()})
    assert stored == {None}
    roles = run(engine, lambda s: s.exec(text("SELECT role FROM hand_player")).all())
    assert sum(1 for (role,) in roles if role == "eliminated") == 3 * (int(ruleset[-1]) - 5)


def simulated(tmp_path, runner_cli) -> tuple:
    """Refereed 시흥 hands (``mighty simulate``: every card), some with a player out and some
    with the dummy out, as a record file; each hand's eliminated as the replay gives it."""
    path = tmp_path / "sim.toml"
    result = runner_cli(
        [
            "simulate",
            "-r",
            "siheung-6",
            "--hands",
            "40",
            "--seed",
            "3",
            "--players",
            ",".join(SIX),
            "-o",
            str(path),
        ]
    )
    assert result.exit_code == 0, result.output
    record = load_record(path)
    outcomes = replay(record, load_ruleset("siheung-6")).hands
    expected = [[o.eliminated_hand] if o.eliminated_hand else [] for o in outcomes]
    assert any(e == ["dummy"] for e in expected) and any(e and e != ["dummy"] for e in expected)
    return path, expected


@pytest.mark.parametrize("fmt", FORMATS)
def test_refereed_siheung_hands_import_and_export_with_the_eliminated(
    engine, db_url, tmp_path, fmt
):
    from click.testing import CliRunner

    from mighty_cli.cli import cli

    path, expected = simulated(tmp_path, lambda args: CliRunner().invoke(cli, args))
    run(engine, create_league, "sh", "siheung-6", who="t")
    run(engine, import_record, "sh", load_record(path), who="t")
    hands = [h.to_json() for h in run(engine, list_hands, "sh")]
    assert all(h["full"] for h in hands)
    assert [h.get("eliminated", []) for h in hands] == expected
    standings = run(engine, read_standings, "sh").to_json()
    other = _round_trip(engine, db_url, tmp_path, "sh", fmt, "siheung-6")
    try:
        assert [h.to_json() for h in run(other, list_hands, "sh")] == hands
        assert run(other, read_standings, "sh").to_json() == standings
    finally:
        other.dispose()


def _drop_added_columns(url: str) -> None:
    """Make the store as a release before :data:`ADDED_COLUMNS` made it."""
    from sqlalchemy import create_engine

    engine = create_engine(url)
    with engine.begin() as connection:
        for table, column, _kind in ADDED_COLUMNS:
            connection.execute(text(f'ALTER TABLE "{table}" DROP COLUMN "{column}"'))
    engine.dispose()


def test_a_store_made_before_the_column_gains_it_when_opened(db_url):
    from sqlalchemy import inspect

    engine = make_engine(db_url)
    run(engine, create_league, "six", "standard-6", who="t")
    run(engine, start_session, "six", SIX, who="t")
    run(
        engine,
        record_hand,
        "six",
        declarer="Bo",
        contract="14S",
        friend="Cy",
        taken=16,
        eliminated=["Di"],
        who="t",
    )
    before = [h.to_json() for h in run(engine, list_hands, "six")]
    standings = run(engine, read_standings, "six").to_json()
    engine.dispose()
    _drop_added_columns(db_url)
    old = make_engine(db_url, create=False)
    assert "eliminated_seat" not in {c["name"] for c in inspect(old).get_columns("hand")}
    old.dispose()
    for _ in range(2):  # opened again and again: added once
        engine = make_engine(db_url)
        assert "eliminated_seat" in {c["name"] for c in inspect(engine).get_columns("hand")}
        assert [h.to_json() for h in run(engine, list_hands, "six")] == before
        assert run(engine, read_standings, "six").to_json() == standings
        engine.dispose()
    # The old store takes 시흥 hands now.
    engine = make_engine(db_url)
    run(engine, end_session, "six", who="t")  # one person, one open table, in any league
    run(engine, create_league, "sh", "siheung-6", who="t")
    run(engine, start_session, "sh", SIX[:5], who="t")
    run(
        engine,
        record_hand,
        "sh",
        declarer="Bo",
        contract="14S",
        friend="Cy",
        taken=16,
        eliminated=["dummy"],
        who="t",
    )
    assert eliminated(engine, "sh") == [["dummy"]]
    engine.dispose()


def test_processes_opening_an_old_store_at_once_add_the_column_once(db_url):
    """Several commands opening a store made before the column, at the same moment: each waits
    for the store's write lock (SQLite's BEGIN IMMEDIATE, PostgreSQL's advisory lock) and
    looks again, so the column is added once and none of them fails."""
    import threading

    from sqlalchemy import inspect

    make_engine(db_url).dispose()
    _drop_added_columns(db_url)
    start = threading.Barrier(4)
    errors: list = []

    def open_store() -> None:
        try:
            start.wait()
            make_engine(db_url).dispose()
        except Exception as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    engine = make_engine(db_url)
    assert "eliminated_seat" in {c["name"] for c in inspect(engine).get_columns("hand")}
    engine.dispose()
