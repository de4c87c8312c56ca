"""League CLI fixtures: each command test runs on SQLite and, when configured, PostgreSQL."""

from __future__ import annotations

import pytest

from databases import database_params, fresh_url


@pytest.fixture(params=database_params())
def db(request, tmp_path) -> str:
    """The URL of an empty database, passed to commands with --db."""
    return fresh_url(request.param, tmp_path, "cli.db")
