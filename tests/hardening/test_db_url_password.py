"""A --db URL never shows its password (the URL may come from a club's shared notes; the line
lands in terminals, screenshots and chat): it is masked as SQLAlchemy reads the URL (issue 35,
item 18), in `where` and in every error, and a URL SQLAlchemy cannot read is shown without
anything after its scheme."""

from __future__ import annotations

import pytest

from mighty_cli.cli import cli

READABLE = [
    "postgresql+nodriver://keeper:s3cret-pw@db.example/club",  # an unknown driver
    "weird://keeper:s3cret-pw@db.example/club",  # an unknown database
]
UNREADABLE = [
    ("postgresql+psycopg://keeper:s3cret-pw@127.0.0.1:notaport/club", "postgresql+psycopg://…"),
    ("postgresql+psycopg://keeper:s3cret-pw@[::1/club", "postgresql+psycopg://…"),  # address
    ("postgresql+psycopg://keeper:s3c@ret:pw@db.example/club", "postgresql+psycopg://…"),
    ("://keeper:s3cret-pw@db.example/club", "://…"),  # no scheme at all
]


def one_error_line(runner, *args: str) -> str:
    result = runner.invoke(cli, list(args))
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: --db "), result.output
    return lines[0]


@pytest.mark.parametrize("url", READABLE)
def test_a_bad_database_url_is_one_line_without_its_password(runner, url):
    said = one_error_line(runner, "league", "list", "--db", url)
    assert "s3cret-pw" not in said
    assert "keeper:***@" in said  # the user is named (the password masked): the keeper sees
    # which URL it was


@pytest.mark.parametrize("url,shown", UNREADABLE)
def test_a_url_sqlalchemy_cannot_read_is_shown_without_its_text(runner, url, shown):
    said = one_error_line(runner, "league", "list", "--db", url)
    assert said == f"Error: --db '{shown}': not a database URL SQLAlchemy can read"
    where = runner.invoke(cli, ["where", "--db", url])
    assert where.exit_code == 0 and f"database:  {shown}\n" in where.output


@pytest.mark.parametrize(
    "url,shown",
    [
        # a '?' in the password: SQLAlchemy reads it as the password's, not as a query
        (
            "postgresql://keeper:secret?pw@db.invalid/club",
            "postgresql://keeper:***@db.invalid/club",
        ),
        # a password in the query, its name percent-encoded
        (
            "postgresql://keeper@db.invalid/club?%70assword=secretpw&sslmode=require",
            "postgresql://keeper@db.invalid/club?password=***&sslmode=require",
        ),
        (
            "postgresql://keeper@db.invalid/club?sslpassword=secretpw",
            "postgresql://keeper@db.invalid/club?sslpassword=***",
        ),
        (
            "postgresql://keeper:p%40ss%3Fsecret@db.invalid/club",
            "postgresql://keeper:***@db.invalid/club",
        ),
    ],
)
def test_where_masks_the_password_as_sqlalchemy_reads_it(runner, url, shown):
    result = runner.invoke(cli, ["where", "--db", url])
    assert result.exit_code == 0, result.output
    assert f"database:  {shown}\n" in result.output and "secret" not in result.output


def test_a_question_mark_in_the_password_is_no_reason_to_refuse(runner):
    said = one_error_line(
        runner,
        "standings",
        "-l",
        "L",
        "--db",
        "postgresql+psycopg://keeper:secret?pw@db.invalid/club",
    )
    assert said.startswith(
        "Error: --db postgresql+psycopg://keeper:***@db.invalid/club: cannot open the database: "
    )
    assert "secret" not in said and "holds '@'" not in said


def test_a_bare_at_in_the_password_is_refused_without_its_pieces(runner):
    said = one_error_line(
        runner,
        "standings",
        "-l",
        "L",
        "--db",
        "postgresql+psycopg://keeper:sec@ret@db.invalid/club",
    )
    assert said == (
        "Error: --db postgresql+psycopg://keeper:***@db.invalid/club: the user or "
        "password holds '@': write it as %40 (URL encoding)"
    )
