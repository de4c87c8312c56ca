"""Shared fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent

# The tests assert English output: a Korean desktop (LANG=ko_KR.UTF-8) must not change that, in
# this process or in the commands tests start. Tests of the Korean output unset MIGHTY_LANG.
os.environ["MIGHTY_LANG"] = "en"


@pytest.fixture(autouse=True, scope="session")
def _template_cache(tmp_path_factory):
    """Compiled templates (``render.template_cache``) go into the session's scratch folder, here
    and in the commands tests start, never into the user's cache."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture(autouse=True)
def english():
    """Every test starts (and leaves the process) speaking English."""
    from mighty_cli.engine.translation import set_language

    set_language("en")
    yield
    set_language("en")


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path_factory, monkeypatch):
    """Every test runs in a scratch folder, so a file a command writes by default (a referee
    keeping unsaved work on quit) never lands in the source tree."""
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))


@pytest.fixture
def runner(tmp_path, monkeypatch) -> CliRunner:
    """A CliRunner whose default database lives in a temporary folder."""
    monkeypatch.setenv("MIGHTY_DB", f"sqlite:///{tmp_path / 'mighty.db'}")
    return CliRunner()


@pytest.fixture
def examples() -> Path:
    return ROOT / "examples"


@pytest.fixture(scope="session")
def chromium(tmp_path_factory):
    """One headless Chromium for the whole session (tests/headless.py): a test opens its pages
    in it, a tab each. A test taking it runs with the serial ones."""
    from headless import CHROMIUM, Chromium

    if not Path(CHROMIUM).exists():
        pytest.skip("chromium is not installed")
    browser = Chromium(tmp_path_factory.mktemp("chromium") / "profile")
    yield browser
    browser.close()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """A test that takes the browser is ``serial`` too (before ``-m`` selects)."""
    for item in items:
        if "chromium" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.serial)


def pytest_report_header(config):
    url = os.environ.get("MIGHTY_TEST_POSTGRES_URL")
    return f"PostgreSQL: {url or 'not configured (PostgreSQL tests skipped)'}"
