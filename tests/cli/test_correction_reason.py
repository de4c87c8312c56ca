"""A correction needs a reason: asked for when ``--reason`` is missing, and when nothing can
be asked (a script's input ends) it is a usage error (exit 2, one line), not "Aborted!"
(exit 1); nothing changes. On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from mighty_cli.cli import cli


def run(db, *args, input=None):
    return CliRunner().invoke(cli, [*args, "--db", db], input=input)


def club(db) -> None:
    assert run(db, "league", "create", "club", "-r", "standard").exit_code == 0
    assert run(db, "session", "start", "-l", "club", "-p", "Ana,Bo,Cy,Di,Ed").exit_code == 0
    assert (
        run(db, "record", "-l", "club", "-d", "Ana", "-c", "14S", "-f", "Bo", "-t", "16").exit_code
        == 0
    )


@pytest.mark.parametrize(
    "command",
    [
        ("hand", "amend", "-l", "club", "1", "--taken", "12"),
        ("hand", "void", "-l", "club", "1"),
        ("hand", "unvoid", "-l", "club", "1"),
    ],
)
def test_a_correction_with_no_reason_and_no_input_is_a_usage_error(db, command):
    club(db)
    before = run(db, "hand", "list", "-l", "club", "--json").output
    result = run(db, *command, input="")
    assert result.exit_code == 2, result.output
    assert "Error: --reason must say why the hand changes" in result.output.splitlines()
    assert "Aborted" not in result.output
    assert run(db, "hand", "list", "-l", "club", "--json").output == before


def test_a_reason_given_at_the_question_is_kept(db):
    club(db)
    result = run(db, "hand", "amend", "-l", "club", "1", "--taken", "12", input="miscounted\n")
    assert result.exit_code == 0, result.output
    log = run(db, "hand", "log", "-l", "club", "--json").output
    assert "miscounted" in log
