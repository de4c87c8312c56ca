"""Fixtures of the site tests: the test league on every database, and its site (SQLite).

The test league takes a second or two to make: it is made once per session on SQLite
(``league_file``) and each test that wants it gets a copy of the file (``engine``,
``league_copy``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from databases import database_params, fresh_url, run
from site_league import LEAGUE, make_league


@pytest.fixture(scope="session")
def league_file(tmp_path_factory) -> Path:
    """The test league on SQLite, made once per session; copy it, never open it in place."""
    from mighty_cli.store.db import make_engine

    path = tmp_path_factory.mktemp("test-league") / "league.db"
    engine = make_engine(f"sqlite:///{path}")
    make_league(engine)
    engine.dispose()  # the last connection gone: its write-ahead log is in the file
    assert not path.with_name(path.name + "-wal").exists()
    return path


@pytest.fixture
def league_copy(league_file):
    """Makes a copy of the test league at a path and returns its engine."""
    from mighty_cli.store.db import make_engine

    engines = []

    def copy(path: Path):
        shutil.copyfile(league_file, path)
        engines.append(make_engine(f"sqlite:///{path}"))
        return engines[-1]

    yield copy
    for engine in engines:
        engine.dispose()


@pytest.fixture(params=database_params())
def league_engine(request, tmp_path, league_copy):
    from mighty_cli.store.db import make_engine

    if request.param == "sqlite":
        yield league_copy(tmp_path / "league.db")
        return
    engine = make_engine(fresh_url(request.param, tmp_path))
    make_league(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def engine(tmp_path, league_copy):
    """The test league on SQLite, in the test's own folder."""
    return league_copy(tmp_path / "league.db")


@pytest.fixture(scope="module")
def site(tmp_path_factory, league_file):
    """The test league's site on SQLite, written once for the page tests."""
    from mighty_cli.site.build import build_site
    from mighty_cli.store.db import make_engine

    folder = tmp_path_factory.mktemp("site")
    shutil.copyfile(league_file, folder / "league.db")
    engine = make_engine(f"sqlite:///{folder / 'league.db'}")
    out = folder / "site"
    report = run(engine, build_site, LEAGUE, out, timezone_name="Asia/Seoul")
    yield out, report, engine
    engine.dispose()


@pytest.fixture(scope="module")
def site_ko(tmp_path_factory):
    """The test league's site in Korean (its folder), written once for the Korean page tests."""
    from mighty_cli.site.build import build_site
    from mighty_cli.store.db import make_engine

    folder = tmp_path_factory.mktemp("site_ko")
    engine = make_engine(f"sqlite:///{folder / 'league.db'}")
    make_league(engine)
    run(engine, build_site, LEAGUE, folder / "site", lang="ko")
    engine.dispose()
    return folder / "site"
