"""Storage fixtures: every storage test runs on SQLite, and on PostgreSQL when
MIGHTY_TEST_POSTGRES_URL names a server (e.g. postgresql+psycopg://postgres@localhost/mighty_test)."""

from __future__ import annotations

import os

import pytest

POSTGRES_URL = os.environ.get("MIGHTY_TEST_POSTGRES_URL")


def database_params():
    """The databases storage tests run against."""
    return [pytest.param("sqlite", id="sqlite"),
            pytest.param("postgres", id="postgres", marks=[
                pytest.mark.postgres,
                pytest.mark.skipif(not POSTGRES_URL, reason="MIGHTY_TEST_POSTGRES_URL not set")])]


def fresh_url(kind: str, tmp_path) -> str:
    """A URL of an empty database of that kind (PostgreSQL: the tables dropped first)."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'league.db'}"
    from sqlmodel import SQLModel, create_engine

    from mighty_cli.store import models  # noqa: F401

    engine = create_engine(POSTGRES_URL)
    SQLModel.metadata.drop_all(engine)
    engine.dispose()
    return POSTGRES_URL  # type: ignore[return-value]


@pytest.fixture(params=database_params())
def db_url(request, tmp_path) -> str:
    return fresh_url(request.param, tmp_path)


@pytest.fixture
def engine(db_url):
    from mighty_cli.store.db import make_engine

    made = make_engine(db_url)
    yield made
    made.dispose()
