"""League CLI fixtures: each command test runs on SQLite and, when configured, PostgreSQL."""

from __future__ import annotations

import pytest

from databases import database_params, fresh_url


@pytest.fixture(params=database_params())
def db(request, tmp_path) -> str:
    """The URL of an empty database, passed to commands with --db."""
    return fresh_url(request.param, tmp_path, "cli.db")


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path_factory, monkeypatch):
    """Commands run in a scratch folder, so a file they write by default (a referee keeping
    unsaved work on quit) never lands in the source tree."""
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))
