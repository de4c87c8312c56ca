"""Issue 9, item 4: a transaction PostgreSQL rolls back to keep concurrent writers consistent
(serialization failure 40001, deadlock 40P01) runs the command again; after a few attempts the
failure is one line. Simulated here, so it runs on every database."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import OperationalError

from mighty_cli.store.ledger import leagues
from promises import error_line, invoke


class SerializationFailure(Exception):
    sqlstate = "40001"


class UniqueViolation(Exception):
    sqlstate = "23505"


@pytest.fixture
def failing(monkeypatch):
    """add_player fails the first ``times`` calls with the given database error."""
    calls = []
    real = leagues.add_player
    monkeypatch.setattr("mighty_cli.cli.time.sleep", lambda seconds: None)

    def arrange(times: int, error: type[Exception]):
        def add_player(s, name, who=""):
            calls.append(name)
            if len(calls) <= times:
                raise OperationalError("INSERT ...", {}, error("could not serialize access"))
            return real(s, name, who)

        monkeypatch.setattr(leagues, "add_player", add_player)
        return calls

    return arrange


def test_a_rolled_back_transaction_runs_again(failing, tmp_path):
    calls = failing(2, SerializationFailure)
    result = invoke("player", "add", "Hana", "--db", f"sqlite:///{tmp_path / 'r.db'}")
    assert result.exit_code == 0, result.output
    assert result.output == "Added Hana.\n"
    assert calls == ["Hana"] * 3


def test_a_transaction_that_keeps_failing_is_one_line(failing, tmp_path):
    calls = failing(100, SerializationFailure)
    message = error_line(invoke("player", "add", "Hana", "--db", f"sqlite:///{tmp_path / 'r.db'}"))
    assert message == "database error: could not serialize access"
    assert len(calls) == 7  # the first attempt and six more


def test_other_database_errors_run_once(failing, tmp_path):
    calls = failing(1, UniqueViolation)
    error_line(invoke("player", "add", "Hana", "--db", f"sqlite:///{tmp_path / 'r.db'}"))
    assert calls == ["Hana"]
