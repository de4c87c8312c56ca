"""An import holds one hand's record at a time, however long the session: a streamed record
whose hands carry no ``session`` key (one session of them all, as ``mighty simulate`` writes)
is stored hand by hand, only a few numbers a hand kept for the session's end."""

from __future__ import annotations

import weakref

from databases import run
from mighty_cli.engine.records import Record
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.engine.simulation import simulate
from mighty_cli.store.db import make_engine
from mighty_cli.store.interchange.imports import import_record
from mighty_cli.store.ledger.hand_reads import list_hands
from mighty_cli.store.ledger.leagues import create_league
from mighty_cli.store.ledger.queries import standings

SIX = ["Ana", "Bo", "Cy", "Di", "Ed", "Fu"]  # one sits out each hand: rows written at the end


class Hand(dict):
    """A hand of the record that can be watched for release (a dict cannot)."""


def test_an_import_holds_one_hand_of_a_long_session_at_a_time(tmp_path):
    played = simulate(load_ruleset("standard"), "standard", SIX, hands=40, seed=3).record.hands
    watched: list[weakref.ref] = []
    most_alive = 0

    def stream():
        nonlocal most_alive
        for hand in played:
            most_alive = max(most_alive, sum(ref() is not None for ref in watched))
            copy = Hand(hand)
            watched.append(weakref.ref(copy))
            yield copy

    engine = make_engine(f"sqlite:///{tmp_path / 'l.db'}")
    run(engine, create_league, "sim", "standard")
    imported = run(
        engine, import_record, "sim", Record(ruleset="standard", players=SIX, hands=stream())
    )  # type: ignore
    assert imported.hands == 40 and len(imported.sessions) == 1
    assert most_alive <= 2, f"{most_alive} hands' records held at once"
    again = run(engine, list_hands, "sim")
    assert len(again) == 40
    whole = make_engine(f"sqlite:///{tmp_path / 'whole.db'}")
    run(whole, create_league, "sim", "standard")
    run(whole, import_record, "sim", Record(ruleset="standard", players=SIX, hands=played))
    assert run(engine, standings, "sim").to_json() == run(whole, standings, "sim").to_json()
    seated = [len(view.sitting_out) for view in again]
    assert seated == [1] * 40  # the one sitting out each hand has its row
    engine.dispose()
    whole.dispose()
