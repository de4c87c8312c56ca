"""mighty serve's fixtures: a league with a round playing (made once per process, copied), the
application on it in-process (Starlette's TestClient), a real server in a thread for what
needs one (the live events, the browser), and the clock wrong codes wait by."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from databases import made_once

#: The director's key of the test servers.
KEY = "test-director-key"
#: The round's players: two tables of five under the standard rules.
PLAYERS = "Ana,Bo,Cy,Di,Ed,Fay,Gil,Hu,Ida,Jo"


def mighty(*args: str, db: str, code: int = 0) -> str:
    """A command run in-process; its output (the exit status checked)."""
    from mighty_cli.cli import cli

    result = CliRunner().invoke(cli, [*args, "--db", db], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def round_json(db: str) -> dict:
    import json

    return json.loads(mighty("round", "show", "-l", "cup", "--json", db=db))


def record_at(db: str, table: int, **changes) -> str:
    """A hand recorded at a table of the round by its keeper's terminal (its first player the
    declarer, the second his friend)."""
    players = round_json(db)["tables"][table - 1]["players"]
    taken = str(changes.get("taken", 16))
    return mighty("record", "-l", "cup", "--table", str(table), "-d", players[0], "-c", "15D",
                  "-f", players[1], "-t", taken, "--again", db=db)


def _build(url: str) -> None:
    mighty("league", "create", "cup", "--ruleset", "standard", db=url)
    mighty("round", "start", "-l", "cup", "--players", PLAYERS, db=url)
    record_at(url, 1)


@pytest.fixture
def cup(tmp_path) -> str:
    """A SQLite league ``cup``: round 1 open at two tables, table 1 with one hand."""
    url, _nothing = made_once("sqlite", tmp_path, "serve-cup", _build)
    return url


class Clock:
    """The seconds wrong codes wait by, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


def make_app(db: str, folder: Path, clock=time.monotonic, league: str = "cup"):
    from mighty_cli.web.app import create_app
    from mighty_cli.web.served import ServeSettings

    return create_app(ServeSettings(league, db, KEY, lang="en", folder=str(folder)),
                      clock=clock)


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


def code_of(db: str, table: int) -> str:
    return round_json(db)["tables"][table - 1]["code"]


@contextmanager
def running(app):
    """The application served by uvicorn in a thread, on a free port of 127.0.0.1: its
    address."""
    import uvicorn

    listening = socket.create_server(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on",
                                           timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        app.state.served.stopping.set()  # what Ctrl-C does in a real server: the streams end
        server.should_exit = True
        thread.join(30)
        listening.close()


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
            launched = playwright.chromium.launch(executable_path=CHROMIUM,
                                                  args=["--no-sandbox", "--disable-gpu"])
            yield launched
            launched.close()


@pytest.fixture
def phone(browser):
    """A page as a phone shows it: 390×844, Korean."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ko-KR",
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    yield page
    context.close()
