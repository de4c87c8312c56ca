"""mighty serve's fixtures: a league with a round playing (made once per process, copied), the
application on it in-process (Starlette's TestClient), the clock wrong codes wait by, and a
browser (Playwright driving the system's Chromium). What the tests share besides is in
serving.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from serving import KEY, Clock, build, make_app

from databases import made_once


@pytest.fixture
def cup(tmp_path) -> str:
    """A SQLite league ``cup``: round 1 open at two tables, table 1 with one hand."""
    url, _nothing = made_once("sqlite", tmp_path, "serve-cup", build)
    return url


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(cup, tmp_path, clock):
    return make_app(cup, tmp_path / "served", clock)


@pytest.fixture
def client(app):
    from starlette.testclient import TestClient

    with TestClient(app, client=("10.0.0.7", 50000)) as client:
        yield client


@pytest.fixture
def director(app):
    """A client holding the director's key (its cookie), as the printed address gives it."""
    from starlette.testclient import TestClient

    with TestClient(app, client=("10.0.0.2", 50000)) as client:
        answer = client.get(f"/director?key={KEY}", follow_redirects=False)
        assert answer.status_code == 303
        yield client


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """One headless Chromium for the session's browser tests, driven by Playwright: Debian's
    own (executable_path), never a browser Playwright would download. Its temporary files go
    into the session's scratch folder."""
    from headless import CHROMIUM

    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("chromium is not installed")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TMPDIR", str(tmp_path_factory.mktemp("playwright")))
        with sync_api.sync_playwright() as playwright:
            launched = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
            )
            yield launched
            launched.close()


@pytest.fixture
def phone(browser):
    """A page as a phone shows it: 390×844, Korean."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="ko-KR", is_mobile=True, has_touch=True
    )
    page = context.new_page()
    yield page
    context.close()
