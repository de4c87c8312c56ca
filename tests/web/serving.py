"""What mighty serve's tests share besides their fixtures (tests/web/conftest.py): the league
they serve, the commands they run, the application, a real server in a thread."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from click.testing import CliRunner

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
    return mighty(
        "record",
        "-l",
        "cup",
        "--table",
        str(table),
        "-d",
        players[0],
        "-c",
        "15D",
        "-f",
        players[1],
        "-t",
        taken,
        "--again",
        db=db,
    )


def build(url: str) -> None:
    mighty("league", "create", "cup", "--ruleset", "standard", db=url)
    mighty("round", "start", "-l", "cup", "--players", PLAYERS, db=url)
    record_at(url, 1)


class Clock:
    """The seconds wrong codes wait by, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_app(db: str, folder: Path, clock=time.monotonic, league: str = "cup"):
    from mighty_cli.web.app import create_app
    from mighty_cli.web.served import ServeSettings

    return create_app(ServeSettings(league, db, KEY, lang="en", folder=str(folder)), clock=clock)


def code_of(db: str, table: int) -> str:
    return round_json(db)["tables"][table - 1]["code"]


@contextmanager
def running(app):
    """The application served by uvicorn in a thread, on a free port of 127.0.0.1: its
    address."""
    import uvicorn

    listening = socket.create_server(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=2)
    )
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
