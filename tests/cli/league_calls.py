"""Calling ``mighty`` on a league database in tests: a command that must work, and one that
must be refused with one line and nothing changed."""

from __future__ import annotations

from click.testing import CliRunner

from mighty_cli.cli import cli


def mighty(db, *args, stdin=None):
    return CliRunner().invoke(cli, [*args, "--db", db], input=stdin)


def ok(db, *args) -> str:
    result = mighty(db, *args)
    assert result.exit_code == 0, result.output
    return result.output


def league_state(db, league: str = "cup") -> str:
    """All a refusal must leave as it was: the league's hands, its change log, its round."""
    return (
        ok(db, "export", "-l", league, "--format", "json")
        + ok(db, "hand", "log", "-l", league, "--json")
        + ok(db, "round", "show", "-l", league, "--json")
    )


def refused(db, *args, code=1) -> str:
    """Run a command that must fail: exit ``code``, one line for a refusal (a usage error is
    click's usage and error), no traceback, the league unchanged; its output."""
    before = league_state(db)
    result = mighty(db, *args)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    if code == 1:
        assert len(result.output.strip().splitlines()) == 1, result.output
    assert league_state(db) == before
    return result.output
