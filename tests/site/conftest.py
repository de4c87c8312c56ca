"""Fixtures of the site tests: the test league on every database, and its site (SQLite)."""

from __future__ import annotations

import pytest

from databases import database_params, fresh_url, run
from site_league import LEAGUE, make_league


@pytest.fixture(params=database_params())
def league_engine(request, tmp_path):
    from mighty_cli.store.db import make_engine

    engine = make_engine(fresh_url(request.param, tmp_path))
    make_league(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def engine(tmp_path):
    """The test league on SQLite, in the test's own folder."""
    from mighty_cli.store.db import make_engine

    engine = make_engine(f"sqlite:///{tmp_path / 'league.db'}")
    make_league(engine)
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The test league's site on SQLite, written once for the page tests."""
    from mighty_cli.site_data import build_site
    from mighty_cli.store.db import make_engine

    folder = tmp_path_factory.mktemp("site")
    engine = make_engine(f"sqlite:///{folder / 'league.db'}")
    make_league(engine)
    out = folder / "site"
    report = run(engine, build_site, LEAGUE, out, timezone_name="Asia/Seoul")
    yield out, report, engine
    engine.dispose()


@pytest.fixture(scope="module")
def site_ko(tmp_path_factory):
    """The test league's site in Korean (its folder), written once for the Korean page tests."""
    from mighty_cli.site_data import build_site
    from mighty_cli.store.db import make_engine

    folder = tmp_path_factory.mktemp("site_ko")
    engine = make_engine(f"sqlite:///{folder / 'league.db'}")
    make_league(engine)
    run(engine, build_site, LEAGUE, folder / "site", lang="ko")
    engine.dispose()
    return folder / "site"
