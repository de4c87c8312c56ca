"""League storage on SQLite and PostgreSQL: every operation, and that a bad entry changes
nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from databases import run, snapshot
from mighty_cli.engine.errors import MightyError
from mighty_cli.engine.records import load_record, read_record, replay
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.league.standings import ScoredHand, accumulate
from mighty_cli.store import LeagueError
from mighty_cli.store.db import make_engine
from mighty_cli.store.interchange.exports import export_league, export_record
from mighty_cli.store.interchange.imports import import_record, save_refereed_hand
from mighty_cli.store.ledger.corrections import amend_hand, change_log, void_hand
from mighty_cli.store.ledger.hand_reads import list_hands, show_hand
from mighty_cli.store.ledger.hands import record_hand
from mighty_cli.store.ledger.league_page import league_page
from mighty_cli.store.ledger.leagues import (
    configure_league,
    create_league,
    merge_players,
    rename_player,
)
from mighty_cli.store.ledger.lookups import find_player, get_league, league_rules
from mighty_cli.store.ledger.queries import player_stats, standings
from mighty_cli.store.ledger.sessions import end_session, start_session
from mighty_cli.store.ledger.succession import session_proposal

ROOT = Path(__file__).resolve().parents[2]
SEASON = ROOT / "examples" / "season.toml"
FIVE = ["Ana", "Bo", "Cy", "Di", "Ed"]
SIX = FIVE + ["김철수"]


def league_with_session(engine, players=FIVE, ruleset="standard", name="tue"):
    run(engine, create_league, name, ruleset, who="t")
    run(engine, start_session, name, players, who="t")


def scores(engine, league="tue") -> dict:
    return {r.stats.name: r.stats.score for r in run(engine, standings, league).rows}


def test_league_stores_its_ruleset_text_not_a_reference(engine):
    league = run(engine, create_league, "tue", "seoul-science", who="t")
    assert "extends" not in league.ruleset_toml
    assert league_rules(league) == load_ruleset("seoul-science")


def test_duplicate_league_is_refused_and_nothing_changes(engine):
    run(engine, create_league, "tue", "standard", who="t")
    before = snapshot(engine)
    with pytest.raises(LeagueError, match="already exists"):
        run(engine, create_league, "tue", "standard", who="t")
    assert snapshot(engine) == before


def test_recorded_hand_is_scored_at_once(engine):
    league_with_session(engine)
    done = run(
        engine, record_hand, "tue", declarer="Bo", contract="15D", friend="Cy", taken=16, who="t"
    )
    assert done.hand.deltas == {"Bo": 10, "Cy": 5, "Ana": -5, "Di": -5, "Ed": -5}
    assert done.proposal.dealer == "Cy"  # the friend deals next


@pytest.mark.parametrize(
    "bad",
    [
        dict(declarer="Zed", contract="15D", friend="Cy", taken=16),  # not at the table
        dict(declarer="Bo", contract="9D", friend="Cy", taken=16),  # below the minimum bid
        dict(declarer="Bo", contract="15D", friend="Bo", taken=16),  # his own friend
        dict(declarer="Bo", contract="15D", friend="Cy", taken=21),  # impossible points
        dict(declarer="Bo", contract="15X", friend="Cy", taken=16),  # bad notation
        dict(deal_miss="Zed"),
    ],
)
def test_bad_entry_leaves_the_database_unchanged(engine, bad):
    league_with_session(engine)
    run(engine, record_hand, "tue", declarer="Bo", contract="15D", friend="Cy", taken=16, who="t")
    before = snapshot(engine)
    with pytest.raises(MightyError):
        run(engine, record_hand, "tue", who="t", **bad)
    assert snapshot(engine) == before


def test_record_without_an_open_session_is_refused(engine):
    run(engine, create_league, "tue", "standard", who="t")
    with pytest.raises(LeagueError, match="no open session"):
        run(
            engine,
            record_hand,
            "tue",
            declarer="Bo",
            contract="15D",
            friend="Cy",
            taken=16,
            who="t",
        )


def test_six_present_hand_leaves_the_sitter_at_zero(engine):
    league_with_session(engine, SIX)
    done = run(
        engine, record_hand, "tue", declarer="Bo", contract="15D", friend="Cy", taken=16, who="t"
    )
    assert done.hand.sitting_out == ["Ana"]
    assert done.hand.deltas["Ana"] == 0
    assert done.proposal.sitting_out == ("Cy",)


def test_amend_recomputes_later_pots_and_reports_the_standings_change(engine):
    league_with_session(engine, ruleset="club-requirements")
    run(engine, record_hand, "tue", deal_miss="Ana", who="t")  # pot 5
    run(
        engine, record_hand, "tue", declarer="Bo", contract="15D", friend="Cy", taken=10, who="t"
    )  # fails: pot stays
    run(
        engine, record_hand, "tue", declarer="Di", contract="14S", friend="Ed", taken=15, who="t"
    )  # wins the pot
    assert run(engine, show_hand, "tue", 3).pot_after == 0
    correction = run(engine, amend_hand, "tue", 2, who="me", why="miscounted", taken=16)
    assert correction.hands_resettled == 1
    # Bo now made 15D and won the pot; Di's later contract finds it empty.
    assert run(engine, show_hand, "tue", 2).pot_after == 0
    hand3 = run(engine, show_hand, "tue", 3)
    assert sum(hand3.deltas.values()) == 0
    names = {c.name for c in correction.changes}
    assert {"Bo", "Di"} <= names
    log = run(engine, change_log, "tue")
    assert log[-1].action == "hand amend" and log[-1].who == "me" and log[-1].why == "miscounted"


def test_amend_matches_a_fresh_replay(engine):
    league_with_session(engine, ruleset="club-requirements")
    entries = [
        dict(deal_miss="Ana"),
        dict(declarer="Bo", contract="15D", friend="Cy", taken=10),
        dict(deal_miss="Cy"),
        dict(declarer="Di", contract="14S", friend="Ed", taken=15),
    ]
    for entry in entries:
        run(engine, record_hand, "tue", who="t", **entry)
    run(engine, amend_hand, "tue", 2, who="me", why="x", taken=15)
    record = run(engine, export_record, "tue")
    assert scores(engine) == dict(replay(record).totals.items())


def test_void_takes_the_hand_out_of_the_standings(engine):
    league_with_session(engine)
    run(engine, record_hand, "tue", declarer="Bo", contract="15D", friend="Cy", taken=16, who="t")
    run(engine, record_hand, "tue", declarer="Bo", contract="15D", friend="Cy", taken=16, who="t")
    correction = run(engine, void_hand, "tue", 2, who="me", why="entered twice")
    assert scores(engine)["Bo"] == 10
    assert correction.after.voided
    with pytest.raises(LeagueError, match="already void"):
        run(engine, void_hand, "tue", 2, who="me", why="again")


def test_merge_keeps_every_hand_under_one_name(engine):
    run(engine, create_league, "tue", "standard", who="t")
    run(engine, start_session, "tue", ["Ana", "Bo", "Cy", "Di", "Kim"], who="t")
    run(engine, record_hand, "tue", declarer="Kim", contract="15D", friend="Cy", taken=16, who="t")
    run(engine, end_session, "tue", who="t")
    run(engine, start_session, "tue", ["Ana", "Bo", "Cy", "Di", "김철수"], who="t")
    run(
        engine,
        record_hand,
        "tue",
        declarer="김철수",
        contract="15D",
        friend="Cy",
        taken=16,
        who="t",
    )
    run(engine, merge_players, "Kim", "김철수", who="t", why="same person")
    table = run(engine, standings, "tue").by_name()
    assert "Kim" not in table
    assert table["김철수"].stats.hands == 2 and table["김철수"].stats.score == 20
    assert find_player.__name__  # the alias still resolves:
    assert run(engine, find_player, "Kim").name == "김철수"


def test_merge_of_two_people_at_one_table_is_refused(engine):
    league_with_session(engine)
    before = snapshot(engine)
    with pytest.raises(LeagueError, match="two people"):
        run(engine, merge_players, "Ana", "Bo", who="t")
    assert snapshot(engine) == before


def test_rename_follows_every_hand(engine):
    league_with_session(engine)
    run(engine, record_hand, "tue", declarer="Bo", contract="15D", friend="Cy", taken=16, who="t")
    run(engine, rename_player, "Bo", "보", who="t")
    assert scores(engine)["보"] == 10


def test_import_of_the_example_season_matches_its_replay(engine):
    run(engine, create_league, "tue", "standard", who="t")
    record = load_record(SEASON)
    done = run(engine, import_record, "tue", record, who="t")
    assert done.hands == len(record.hands) and done.sessions == [1, 2, 3]
    assert scores(engine) == replay(record).totals


def test_import_with_a_bad_hand_writes_nothing(engine):
    run(engine, create_league, "tue", "standard", who="t")
    text_ = SEASON.read_text(encoding="utf-8").replace('contract = "15C"', 'contract = "25C"', 1)
    before = snapshot(engine)
    with pytest.raises(MightyError, match="hand 1"):
        run(engine, import_record, "tue", read_record(text_), who="t")
    assert snapshot(engine) == before


def test_export_then_import_into_an_empty_database_gives_the_same_standings(engine, tmp_path):
    run(engine, create_league, "tue", "club-requirements", min_hands=3, who="t")
    run(engine, import_record, "tue", load_record(SEASON), who="t")
    run(engine, amend_hand, "tue", 4, who="t", why="x", taken=20)
    run(engine, void_hand, "tue", 5, who="t", why="x")
    exported = run(engine, export_league, "tue", "toml")
    other = make_engine(f"sqlite:///{tmp_path / 'other.db'}")
    run(other, import_record, "copy", read_record(exported), who="t", create=True)
    run(other, configure_league, "copy", min_hands=3)
    assert league_rules(run(other, get_league, "copy")) == load_ruleset("club-requirements")
    assert run(other, standings, "copy").to_json() == run(engine, standings, "tue").to_json()


def test_six_present_session_exports_and_imports(engine, tmp_path):
    league_with_session(engine, SIX)
    for declarer in ("Bo", "Cy", "Di"):
        proposal = run(engine, session_proposal, "tue")[1]
        friend = next(p for p in proposal.players if p != declarer and p in proposal.players)
        if declarer not in proposal.players:
            declarer = proposal.players[0]
            friend = proposal.players[1]
        run(
            engine,
            record_hand,
            "tue",
            declarer=declarer,
            contract="14H",
            friend=friend,
            taken=15,
            who="t",
        )
    exported = run(engine, export_league, "tue", "toml")
    other = make_engine(f"sqlite:///{tmp_path / 'other.db'}")
    run(other, create_league, "copy", "standard", who="t")
    run(other, import_record, "copy", read_record(exported), who="t")
    assert scores(other, "copy") == scores(engine)


def test_store_aggregate_agrees_with_pure_standings(engine):
    run(engine, create_league, "tue", "standard", who="t")
    run(engine, import_record, "tue", load_record(SEASON), who="t")
    hands = run(engine, list_hands, "tue", include_voided=False)
    reference = accumulate(
        ScoredHand(
            h.number,
            h.status,
            h.players,
            h.deltas,
            h.declarer,
            h.friend,
            h.success,
            deal_miss=h.deal_miss,
            run=h.taken == 20,
            back_run=(h.taken is not None and 20 - h.taken >= 11),
        )
        for h in hands
    )
    from sqlmodel import Session

    with Session(engine) as s:  # closed, so the next test's drop_all does not wait on it
        stored = {st.name: st for st in player_stats(s, get_league(s, "tue").id)}
    assert stored == reference


def test_export_csv_and_json(engine):
    league_with_session(engine, SIX)
    run(engine, record_hand, "tue", declarer="Bo", contract="15D", friend="Cy", taken=16, who="t")
    csv_text = run(engine, export_league, "tue", "csv")
    header, row = csv_text.splitlines()[:2]
    assert header.startswith("hand,session,date,status") and "김철수" in header
    assert row.startswith("1,1,")
    import json

    data = json.loads(run(engine, export_league, "tue", "json"))
    assert data["hands"][0]["deltas"]["Bo"] == 10
    assert data["standings"]["players"][0]["name"] == "Bo"


def test_refereed_hand_is_saved_into_the_open_session(engine):
    league_with_session(engine)
    text_ = (
        'format = "mighty-hand-record/1"\nruleset = "standard"\n'
        'players = ["Ana", "Bo", "Cy", "Di", "Ed"]\n'
        '[[hands]]\ndealer = "Ana"\ndeclarer = "Bo"\ncontract = "15D"\nfriend = "Cy"\n'
        "taken = 16\n"
    )
    done = run(engine, save_refereed_hand, "tue", text_, who="t")
    assert done.sessions == [1]
    assert scores(engine)["Bo"] == 10


def test_league_page_has_a_series_per_player(engine):
    run(engine, create_league, "tue", "standard", who="t")
    run(engine, import_record, "tue", load_record(SEASON), who="t")
    page = run(engine, league_page, "tue")
    assert len(page.sessions) == 3
    assert {s.name for s in page.chart_series} == set(scores(engine))
    final = {s.name: s.points[-1] for s in page.chart_series}
    assert final == scores(engine)
