"""Restore fixtures: the test league backed up once per test session, and an empty target of
each kind (SQLite always, PostgreSQL when MIGHTY_TEST_POSTGRES_URL names a server)."""

from __future__ import annotations

import json

import pytest

from databases import database_params, fresh_url
from restoring import Backup, Target, build_league, ok


@pytest.fixture(scope="session")
def backup(tmp_path_factory) -> Backup:
    folder = tmp_path_factory.mktemp("restore-source")
    db = f"sqlite:///{folder / 'club.db'}"
    table_one = build_league(db)
    ok("backup", "-o", str(folder / "club.jsonl"), "--db", db)
    lines = [
        json.loads(line)
        for line in (folder / "club.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    return Backup(lines, table_one)


@pytest.fixture(params=database_params())
def target(request, tmp_path) -> Target:
    if request.param == "sqlite":
        path = tmp_path / "target" / "restored.db"
        path.parent.mkdir()
        path.touch()  # an existing empty file: a refused restore leaves it empty
        return Target("sqlite", f"sqlite:///{path}", path)
    # this test process's database, without a table: a restore's target
    return Target("postgres", fresh_url("postgres", tmp_path, tables=False))
