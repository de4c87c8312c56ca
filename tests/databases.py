"""The databases the storage and league tests run against, and helpers to compare their
contents: every such test runs on SQLite, and on PostgreSQL when MIGHTY_TEST_POSTGRES_URL names
a server (e.g. postgresql+psycopg://postgres:postgres@127.0.0.1/mighty_test; .ci/run starts one).

PostgreSQL: each test process has a database of its own on that server (the URL's own database
in a single process, ``<database>_gw0``, ``<database>_gw1``... under pytest-xdist, created on
first use), whose tables are made once and emptied before each test (every row deleted, every
id counting from 1 again): making the tables for each test cost a third of a second. A test
that changes the schema (drops a column, a table, an index) needs nothing special: the schema
is compared with the models' before each test and made again when it differs."""

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
    return [
        pytest.param("sqlite", id="sqlite"),
        pytest.param(
            "postgres",
            id="postgres",
            marks=[
                pytest.mark.postgres,
                pytest.mark.skipif(not POSTGRES_URL, reason="MIGHTY_TEST_POSTGRES_URL not set"),
            ],
        ),
    ]


def fresh_url(kind: str, tmp_path, name: str = "league.db", *, tables: bool = True) -> str:
    """A URL of an empty database of that kind, its tables made (PostgreSQL: this process's
    database, emptied). ``tables=False``: PostgreSQL's without any table, as a server no
    command has opened yet (SQLite's is the same either way: a file with the tables)."""
    if kind == "sqlite":  # an empty database, made (only a creating command makes one)
        from mighty_cli.store.db import make_engine

        url = f"sqlite:///{tmp_path / name}"
        make_engine(url).dispose()
        return url
    return _postgres.fresh(tables)


class _Postgres:
    """This process's PostgreSQL database: made once, its tables made once and emptied
    before each test."""

    def __init__(self) -> None:
        self.url: str | None = None
        self.engine = None
        self.schema: tuple | None = None  # the schema's fingerprint as the models make it
        self.empty_sql = ""

    def fresh(self, tables: bool) -> str:
        from sqlmodel import SQLModel

        from mighty_cli.store import models  # noqa: F401  (registers the tables)

        if self.engine is None:
            self._connect()
        if not tables:
            self._end_other_connections()
            SQLModel.metadata.drop_all(self.engine)
            return self.url  # type: ignore[return-value]
        with self.engine.connect() as connection:
            found = _fingerprint(connection)
        if found != self.schema:  # the first test, or the last one changed the schema
            self._make_tables()
        self._empty()
        return self.url  # type: ignore[return-value]

    def _connect(self) -> None:
        """This process's database: the URL's own in a single process, its own under xdist."""
        from sqlalchemy import create_engine, make_url, text

        url = make_url(POSTGRES_URL)
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        if worker:
            name = f"{url.database}_{worker}"
            server = create_engine(url, isolation_level="AUTOCOMMIT")
            with server.connect() as connection:
                if not connection.execute(
                    text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}
                ).first():
                    connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
            server.dispose()
            url = url.set(database=name)
        self.url = url.render_as_string(hide_password=False)
        self.engine = create_engine(self.url, pool_pre_ping=True)

    def _make_tables(self) -> None:
        """Every table dropped (the store's, and any a test left) and made again as a command
        makes them."""
        from sqlalchemy import text

        from mighty_cli.store.db import make_engine

        self._end_other_connections()  # one a test left open would hold its tables' locks
        with self.engine.begin() as connection:
            connection.execute(text("DROP SCHEMA public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))
        make_engine(self.url).dispose()
        with self.engine.connect() as connection:
            self.schema = _fingerprint(connection)
            sequences = connection.execute(
                text("SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")
            ).scalars()
            self.empty_sql = "; ".join(
                [f'DELETE FROM "{table}"' for table in reversed(TABLES)]
                + [f'ALTER SEQUENCE "{sequence}" RESTART' for sequence in sequences]
            )

    def _empty(self) -> None:
        """Every row deleted, every id from 1 again (DELETE: on tables this small it is five
        times faster than TRUNCATE, and waits for no reader a test left open). A connection a
        test left holding a row's lock is ended after a few seconds."""
        from sqlalchemy import text
        from sqlalchemy.exc import OperationalError

        for attempt in range(2):
            try:
                with self.engine.begin() as connection:
                    connection.execute(text("SET LOCAL lock_timeout = '5s'"))
                    connection.exec_driver_sql(self.empty_sql)
                return
            except OperationalError:
                if attempt:
                    raise
                self._end_other_connections()

    def _end_other_connections(self) -> None:
        from sqlalchemy import text

        with self.engine.connect() as connection:
            connection.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                    "datname = current_database() AND pid <> pg_backend_pid()"
                )
            )

    def rows(self) -> tuple:
        """Every row of every table and where each sequence stands."""
        from sqlalchemy import select, text
        from sqlmodel import SQLModel

        with self.engine.connect() as connection:
            rows = [
                (
                    table,
                    [
                        dict(row._mapping)
                        for row in connection.execute(
                            select(table).order_by(*table.primary_key.columns)
                        )
                    ],
                )
                for table in SQLModel.metadata.sorted_tables
            ]
            sequences = connection.execute(
                text(
                    "SELECT sequencename, last_value FROM pg_sequences "
                    "WHERE schemaname = 'public' AND last_value IS NOT NULL"
                )
            ).all()
        return rows, sequences

    def load(self, saved: tuple) -> None:
        """Put back what :meth:`rows` saved, into the emptied database."""
        from sqlalchemy import text

        rows, sequences = saved
        with self.engine.begin() as connection:
            for table, values in rows:
                if values:
                    connection.execute(table.insert(), values)
            for name, value in sequences:
                connection.execute(
                    text("SELECT setval(:name, :value)"), {"name": f'"{name}"', "value": value}
                )


def _fingerprint(connection) -> tuple:
    """The schema in a few numbers: its tables' columns, its indexes and its constraints."""
    from sqlalchemy import text

    return tuple(
        connection.execute(
            text(
                "SELECT (SELECT count(*) FROM information_schema.columns WHERE table_schema = 'public'),"
                " (SELECT count(*) FROM pg_indexes WHERE schemaname = 'public'),"
                " (SELECT count(*) FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace"
                "  WHERE n.nspname = 'public')"
            )
        ).one()
    )


_postgres = _Postgres()

#: What :func:`made_once` made, by kind and key: (folder of its files, database, value).
_MADE: dict = {}


def made_once(kind: str, tmp_path, key: str, build, name: str = "league.db"):
    """A database of that kind (a URL) holding what ``build(url)`` writes into an empty one,
    with the files the build wrote into ``tmp_path``, and what ``build`` returned: built once
    per test process for each key, then copied for each test that asks (SQLite: the file;
    PostgreSQL: the rows, into the emptied database). For a fixture that takes seconds to
    fill a league: what ``build`` returns must not name the test's folder (give file names)."""
    import shutil
    import sqlite3

    made = _MADE.get((kind, key))
    if made is None:
        url = fresh_url(kind, tmp_path, name)
        before = set(tmp_path.iterdir())
        value = build(url)
        store = tmp_path.parent / f"made-{kind}-{key}"
        store.mkdir()
        for path in set(tmp_path.iterdir()) - before:
            if not path.name.startswith(name):  # the database itself and its -wal, -shm
                (shutil.copytree if path.is_dir() else shutil.copy2)(path, store / path.name)
        if kind == "sqlite":  # SQLite's own copy: the committed rows, whatever is in the log
            with sqlite3.connect(tmp_path / name) as source, sqlite3.connect(store / name) as copy:
                source.backup(copy)
            source.close()
            copy.close()
            database = None
        else:
            database = _postgres.rows()
        _MADE[(kind, key)] = (store, database, value)
        return url, value
    store, database, value = made
    for path in store.iterdir():
        (shutil.copytree if path.is_dir() else shutil.copy2)(path, tmp_path / path.name)
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / name}", value
    url = fresh_url(kind, tmp_path, name)
    _postgres.load(database)
    return url, value


def snapshot(engine) -> dict:
    """Every row of every table, to compare before and after a refused operation."""
    from sqlalchemy import text

    with engine.connect() as connection:
        return {
            t: sorted(map(repr, connection.execute(text(f"SELECT * FROM {t}")).all()))
            for t in TABLES
        }


def run(engine, function, *args, **kwargs):
    """Call a store service in its own transaction."""
    from mighty_cli.store.db import transaction

    with transaction(engine) as s:
        return function(s, *args, **kwargs)
