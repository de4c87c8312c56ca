"""``amend_hand(..., eliminated=[...])`` in the league store, on SQLite and PostgreSQL: the hand
is scored again with the new eliminated (6마/7마: their ``hand_player`` role, 시흥 은마:
``hand.eliminated_seat``), the running totals follow so the standings equal those of a league
recorded right in the first place, and a refused amendment leaves every table as it was."""

from __future__ import annotations

import pytest
from sqlmodel import select

from databases import run
from mighty_cli.engine.errors import MightyError
from mighty_cli.engine.records import replay
from mighty_cli.store.interchange.exports import export_record
from mighty_cli.store.ledger.corrections import amend_hand, change_log
from mighty_cli.store.ledger.hand_reads import show_hand
from mighty_cli.store.ledger.hands import record_hand
from mighty_cli.store.ledger.leagues import create_league
from mighty_cli.store.ledger.queries import standings as read_standings
from mighty_cli.store.ledger.sessions import end_session, start_session
from mighty_cli.store.models import Hand

SEVEN = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus"]
FIVE = SEVEN[:5]


def every_table(engine) -> dict:
    """Every row of every table of the store (the running totals and their mark included)."""
    from sqlalchemy import text
    from sqlmodel import SQLModel

    with engine.connect() as connection:
        return {
            t.name: sorted(map(repr, connection.execute(text(f"SELECT * FROM {t.name}"))))
            for t in SQLModel.metadata.sorted_tables
        }


def seven_league(engine, name: str, first_out: list[str]) -> None:
    """A 7마 league (standard-7): hand 1's eliminated are ``first_out``."""
    run(engine, create_league, name, "standard-7", who="t")
    run(engine, start_session, name, SEVEN, who="t")
    for entry in (
        dict(declarer="Ana", contract="14S", friend="Bo", taken=16, eliminated=first_out),
        dict(deal_miss="Cy"),
        dict(declarer="Gus", contract="15C", friend="none", taken=9, eliminated=["Ana", "Bo"]),
        dict(declarer="Di", contract="14H", friend="Cy", taken=20, eliminated=["Ed", "Gus"]),
    ):
        run(engine, record_hand, name, who="t", **entry)


def rows(engine, name: str) -> list:
    """Every standings line (all statistics), by player."""
    return sorted(
        (vars(r.stats) for r in run(engine, read_standings, name).rows),
        key=lambda stats: stats["name"],
    )


def test_amend_eliminated_keeps_the_running_totals_right(engine):
    seven_league(engine, "wrong", ["Cy", "Di"])
    run(engine, end_session, "wrong", who="t")  # one person, one open table, in any league
    seven_league(engine, "right", ["Di", "Fay"])
    assert rows(engine, "wrong") != rows(engine, "right")
    correction = run(
        engine,
        amend_hand,
        "wrong",
        1,
        who="me",
        why="Fay was out, not Cy",
        eliminated=["Di", "Fay"],
    )
    assert (correction.before.eliminated, correction.after.eliminated) == (
        ["Cy", "Di"],
        ["Di", "Fay"],
    )
    assert {c.name for c in correction.changes} == {"Cy", "Fay"}
    assert rows(engine, "wrong") == rows(engine, "right")
    scores = {r.stats.name: r.stats.score for r in run(engine, read_standings, "wrong").rows}
    assert scores == replay(run(engine, export_record, "wrong")).totals
    shown = run(engine, show_hand, "wrong", 1)
    assert shown.deltas["Cy"] != 0 and shown.deltas["Fay"] == 0


def test_amend_eliminated_siheung_stores_the_seat(engine):
    run(engine, create_league, "sh", "siheung-6", who="t")
    run(engine, start_session, "sh", FIVE, who="t")
    run(
        engine,
        record_hand,
        "sh",
        who="t",
        declarer="Bo",
        contract="14S",
        friend="Ed",
        taken=16,
        eliminated=["Ed"],
    )

    def seat() -> int:
        return run(engine, lambda s: s.exec(select(Hand.eliminated_seat)).one())

    assert seat() == 4
    run(engine, amend_hand, "sh", 1, who="me", why="x", eliminated=["dummy"])
    assert seat() == 5 and run(engine, show_hand, "sh", 1).eliminated == ["dummy"]
    run(engine, amend_hand, "sh", 1, who="me", why="x", eliminated=["Ana"])
    assert seat() == 0 and run(engine, show_hand, "sh", 1).eliminated == ["Ana"]
    entry = run(engine, change_log, "sh")[-1]
    assert ('"eliminated": ["dummy"]' in entry.before, '"eliminated": ["Ana"]' in entry.after) == (
        True,
        True,
    )


@pytest.mark.parametrize(
    "number, eliminated, message",
    [
        (1, ["Ana", "Cy"], "hand 1: eliminated: Ana is the declarer; the eliminated play no trick"),
        (1, ["Bo", "Cy"], "hand 1: eliminated: Bo is the friend; the eliminated play no trick"),
        (1, ["Cy"], "hand 1: eliminated: expected 2 distinct players (table.eliminated), got 1"),
        (
            2,
            ["Cy", "Di"],
            "hand 2: eliminated: the hand is a deal miss (딜 미스), nobody was eliminated",
        ),
    ],
    ids=["declarer", "friend", "count", "deal-miss"],
)
def test_a_refused_amend_leaves_every_table_as_it_was(engine, number, eliminated, message):
    seven_league(engine, "tue", ["Cy", "Di"])
    standings = rows(engine, "tue")  # the totals are folded: nothing left to bring up to date
    before = every_table(engine)
    with pytest.raises(MightyError) as refused:
        run(engine, amend_hand, "tue", number, who="me", why="x", eliminated=eliminated)
    assert str(refused.value) == message
    assert every_table(engine) == before
    assert rows(engine, "tue") == standings


def test_amend_eliminated_refused_where_nobody_is_eliminated(engine):
    run(engine, create_league, "five", "standard", who="t")
    run(engine, start_session, "five", FIVE, who="t")
    run(engine, record_hand, "five", who="t", declarer="Ana", contract="14S", friend="Bo", taken=15)
    run(engine, read_standings, "five")
    before = every_table(engine)
    with pytest.raises(MightyError) as refused:
        run(engine, amend_hand, "five", 1, who="me", why="x", eliminated=["Cy"])
    assert str(refused.value) == (
        "hand 1: eliminated: nobody is eliminated under standard (table.eliminated = 0)"
    )
    assert every_table(engine) == before
