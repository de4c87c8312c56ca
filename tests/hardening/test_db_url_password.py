"""A malformed --db URL is refused in one line that never shows its password (the URL may come
from a club's shared notes; the line lands in terminals, screenshots and chat)."""

from __future__ import annotations

import pytest

from mighty_cli.cli import cli

BAD_URLS = [
    "postgresql+psycopg://keeper:s3cret-pw@127.0.0.1:notaport/club",  # a port that is no number
    "postgresql+nodriver://keeper:s3cret-pw@db.example/club",        # an unknown driver
    "weird://keeper:s3cret-pw@db.example/club",                      # an unknown database
    "postgresql+psycopg://keeper:s3cret-pw@[::1/club",               # a broken address
    "://keeper:s3cret-pw@db.example/club",                           # no scheme at all
]


@pytest.mark.parametrize("url", BAD_URLS)
def test_a_bad_database_url_is_one_line_without_its_password(runner, url):
    result = runner.invoke(cli, ["league", "list", "--db", url])
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: --db "), result.output
    assert "s3cret-pw" not in result.output
    assert "keeper:***@" in result.output  # the user is named (the password masked), so the
    # keeper sees which URL it was
