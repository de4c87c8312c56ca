"""A league's hand checked alone (``record``, ``hand amend``) is named by its own number in
every language: the Korean error of hand 5 says 5판, not the 1판 of the one-hand check (the
English "hand 1" was rewritten, the Korean one was not). On SQLite and PostgreSQL."""

from __future__ import annotations

from click.testing import CliRunner

from mighty_cli.cli import cli

PLAYERS = "Ana,Bo,Cy,Di,Ed"


def run(db, *args):
    return CliRunner().invoke(cli, [*args, "--db", db])


def last_line(result) -> str:
    assert "Traceback" not in result.output
    return result.output.splitlines()[-1]


def club(db) -> None:
    assert run(db, "league", "create", "club", "-r", "standard").exit_code == 0
    assert run(db, "session", "start", "-l", "club", "-p", PLAYERS).exit_code == 0
    for _ in range(4):
        assert (
            run(
                db,
                "record",
                "-l",
                "club",
                "-d",
                "Ana",
                "-c",
                "14S",
                "-f",
                "Bo",
                "-t",
                "16",
                "--again",
            ).exit_code
            == 0
        )


def test_a_korean_amend_error_names_the_amended_hand(db):
    club(db)
    result = run(
        db,
        "--lang",
        "ko",
        "hand",
        "amend",
        "-l",
        "club",
        "3",
        "--taken",
        "30",
        "--reason",
        "세다가 틀림",
    )
    assert result.exit_code == 1
    assert last_line(result).startswith("오류: 3판: taken = 30")
    english = run(db, "hand", "amend", "-l", "club", "3", "--taken", "30", "--reason", "x")
    assert last_line(english).startswith("Error: hand 3: taken = 30 is impossible")


def test_a_korean_record_error_names_the_hand_being_recorded(db):
    club(db)
    result = run(
        db,
        "--lang",
        "ko",
        "record",
        "-l",
        "club",
        "-d",
        "Ana",
        "-c",
        "14S",
        "-f",
        "Ana",
        "-t",
        "16",
    )
    assert result.exit_code == 1
    assert last_line(result).startswith("오류: 5판: "), result.output
