"""Hardening fixtures: a database of each kind (SQLite always, PostgreSQL when configured) and
helpers that hold a failed command to its promise (one line, exit 1 or 2, nothing changed)."""

from __future__ import annotations

import pytest

from databases import database_params, fresh_url


@pytest.fixture(params=database_params())
def db(request, tmp_path) -> str:
    """The URL of an empty database, passed to commands with --db."""
    return fresh_url(request.param, tmp_path, "hardening.db")
