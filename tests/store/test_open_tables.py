"""One person, one open table in the store: ``seated_twice`` finds anyone a store seats at
two open tables (what a restore calls on what it restored), on SQLite and (when configured)
PostgreSQL."""

from __future__ import annotations

import pytest

TEN = ["Anna", "Boris", "Cyril", "Dmitri", "Edgar", "Fiona", "Gwen", "Hugo", "Ingrid", "Jonas"]


def test_the_store_finds_anyone_seated_twice(engine):
    """``seated_twice``: what a restore calls on what it restored; empty for a store that
    keeps one person, one open table, else each such player's seats."""
    from mighty_cli.store import LeagueError
    from mighty_cli.store.db import transaction
    from mighty_cli.store.ledger.leagues import create_league
    from mighty_cli.store.ledger.open_tables import refuse_seated_twice, seated_twice
    from mighty_cli.store.ledger.sessions import start_session
    from mighty_cli.store.models import SessionSeat

    with transaction(engine) as s:
        for name in ("cup", "tue"):
            create_league(s, name, "standard")
        first, _ = start_session(s, "cup", TEN[:5])
        second, _ = start_session(s, "tue", TEN[5:])
        assert seated_twice(s) == []
        s.add(
            SessionSeat(session_id=second.id, seat=5, player_id=s.exec(_player_id("Anna")).one())
        )  # as a restore might
        s.flush()
        twice = seated_twice(s)
        assert [
            [(seat.player, seat.league, seat.session) for seat in seats] for seats in twice
        ] == [[("Anna", "cup", 1), ("Anna", "tue", 1)]]
        assert seated_twice(s, ["Boris"]) == []
        with pytest.raises(
            LeagueError,
            match="'Anna' sits at session 1 of league 'cup' and at "
            "session 1 of league 'tue', both open",
        ):
            refuse_seated_twice(s)


def _player_id(name):
    from sqlmodel import select

    from mighty_cli.store.models import Player

    return select(Player.id).where(Player.name == name)
