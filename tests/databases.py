"""The databases the storage and league tests run against, and helpers to compare their
contents: every such test runs on SQLite, and on PostgreSQL when MIGHTY_TEST_POSTGRES_URL names
a server (e.g. postgresql+psycopg://postgres:postgres@127.0.0.1/mighty_test; .ci/run starts one)."""

from __future__ import annotations

import os

import pytest

POSTGRES_URL = os.environ.get("MIGHTY_TEST_POSTGRES_URL")


def _tables() -> tuple:
    """Every table of the store (the running totals, the live hand and the league settings
    included), from the models themselves, so a new table is compared too."""
    from sqlmodel import SQLModel

    import mighty_cli.store.models  # noqa: F401  (the tables' definitions)

    return tuple(table.name for table in SQLModel.metadata.sorted_tables)


TABLES = _tables()


def database_params():
    """The databases storage tests run against."""
    return [pytest.param("sqlite", id="sqlite"),
            pytest.param("postgres", id="postgres", marks=[
                pytest.mark.postgres,
                pytest.mark.skipif(not POSTGRES_URL, reason="MIGHTY_TEST_POSTGRES_URL not set")])]


def fresh_url(kind: str, tmp_path, name: str = "league.db") -> str:
    """A URL of an empty database of that kind (PostgreSQL: the tables dropped first)."""
    if kind == "sqlite":  # an empty database, made (only a creating command makes one)
        from mighty_cli.store.db import make_engine

        url = f"sqlite:///{tmp_path / name}"
        make_engine(url).dispose()
        return url
    from sqlmodel import SQLModel, create_engine

    from mighty_cli.store import models  # noqa: F401  (registers the tables)

    engine = create_engine(POSTGRES_URL)
    SQLModel.metadata.drop_all(engine)
    engine.dispose()
    return POSTGRES_URL  # type: ignore[return-value]


def snapshot(engine) -> dict:
    """Every row of every table, to compare before and after a refused operation."""
    from sqlalchemy import text

    with engine.connect() as connection:
        return {t: sorted(map(repr, connection.execute(text(f"SELECT * FROM {t}")).all()))
                for t in TABLES}


def run(engine, function, *args, **kwargs):
    """Call a store service in its own transaction."""
    from mighty_cli.store.db import transaction

    with transaction(engine) as s:
        return function(s, *args, **kwargs)
