"""Restore fixtures: the test league backed up once per test session, and an empty target of
each kind (SQLite always, PostgreSQL when MIGHTY_TEST_POSTGRES_URL names a server)."""

from __future__ import annotations

import json

import pytest

from databases import POSTGRES_URL, database_params
from restoring import Backup, Target, build_league, ok


@pytest.fixture(scope="session")
def backup(tmp_path_factory) -> Backup:
    folder = tmp_path_factory.mktemp("restore-source")
    db = f"sqlite:///{folder / 'club.db'}"
    table_one = build_league(db)
    ok("backup", "-o", str(folder / "club.jsonl"), "--db", db)
    lines = [json.loads(line) for line in
             (folder / "club.jsonl").read_text(encoding="utf-8").splitlines()]
    return Backup(lines, table_one)


@pytest.fixture(params=database_params())
def target(request, tmp_path) -> Target:
    if request.param == "sqlite":
        path = tmp_path / "target" / "restored.db"
        path.parent.mkdir()
        path.touch()  # an existing empty file: a refused restore leaves it empty
        return Target("sqlite", f"sqlite:///{path}", path)
    from sqlmodel import SQLModel, create_engine

    from mighty_cli.store import models  # noqa: F401  (registers the tables)

    engine = create_engine(POSTGRES_URL)
    SQLModel.metadata.drop_all(engine)
    engine.dispose()
    return Target("postgres", POSTGRES_URL)  # type: ignore[arg-type]
