"""Storage fixtures: every storage test runs on SQLite, and on PostgreSQL when
MIGHTY_TEST_POSTGRES_URL names a server (e.g. postgresql+psycopg://postgres@localhost/mighty_test)."""

from __future__ import annotations

import pytest

from databases import database_params, fresh_url


@pytest.fixture(params=database_params())
def db_url(request, tmp_path) -> str:
    return fresh_url(request.param, tmp_path)


@pytest.fixture
def engine(db_url):
    from mighty_cli.store.db import make_engine

    made = make_engine(db_url)
    yield made
    made.dispose()
