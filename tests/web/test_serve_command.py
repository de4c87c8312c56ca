"""``mighty serve`` as a club starts it: its first line names its address, it serves, and
SIGTERM stops it cleanly (exit 0); what it refuses before it listens."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
import urllib.request

import pytest
from click.testing import CliRunner


def _line(stream, deadline: float) -> str:
    while time.monotonic() < deadline:
        ready, _w, _x = select.select([stream], [], [], 0.2)
        if ready:
            return stream.readline()
    raise AssertionError("the server said nothing in time")


@pytest.mark.serial
def test_the_server_says_its_address_serves_and_stops_cleanly(cup, tmp_path):
    environment = {**os.environ, "TMPDIR": str(tmp_path), "MIGHTY_LANG": "en"}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mighty_cli",
            "serve",
            "--league",
            "cup",
            "--db",
            cup,
            "--port",
            "0",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        cwd=tmp_path,
    )
    try:
        deadline = time.monotonic() + 60
        first = _line(server.stdout, deadline)
        found = re.fullmatch(r"Serving league cup at (http://127\.0\.0\.1:(\d+))\n", first)
        assert found and found.group(2) != "0", first
        director = _line(server.stdout, deadline)
        assert re.search(r"/director\?key=[A-Za-z0-9_-]{20,}$", director.strip()), director
        address = found.group(1)
        for _attempt in range(100):
            try:
                with urllib.request.urlopen(f"{address}/api/round", timeout=10) as answer:
                    data = json.loads(answer.read())
                break
            except OSError:
                time.sleep(0.1)
        assert data["league"] == "cup" and data["round"] == 1
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()
    assert server.returncode == 0, err
    assert out.rstrip().endswith("Server stopped.")
    assert err == ""
    assert not any(tmp_path.glob("mighty-serve-*"))  # its folder for the site, removed


def test_several_workers_need_postgresql(cup):
    from mighty_cli.cli import cli

    result = CliRunner().invoke(cli, ["serve", "-l", "cup", "--db", cup, "--workers", "2"])
    assert result.exit_code == 2
    assert "--workers: SQLite is served by one process" in result.output


def test_an_unknown_league_is_refused_before_listening(cup):
    from mighty_cli.cli import cli

    result = CliRunner().invoke(cli, ["serve", "-l", "nobody", "--db", cup])
    assert result.exit_code == 1
    assert "no league named 'nobody'" in result.output


def test_a_port_taken_is_one_line(cup):
    import socket

    from mighty_cli.cli import cli

    taken = socket.create_server(("127.0.0.1", 0))
    try:
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "-l", "cup", "--db", cup, "--port", str(port)])
    finally:
        taken.close()
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: cannot listen on 127.0.0.1 port {port}: ")
    assert len(result.output.strip().splitlines()) == 1


def test_the_phones_address_and_the_directors_are_printed_with_qr_codes(capsys):
    from mighty_cli.cli.serve import _announce
    from mighty_cli.web.served import ServeSettings

    settings = ServeSettings("cup", "sqlite://", "K3Y", public_url="http://192.168.0.10:8000")
    _announce(settings, "http://0.0.0.0:8000", settings.public_url)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Serving league cup at http://0.0.0.0:8000"
    assert lines[1] == "Phones on this network: http://192.168.0.10:8000"
    assert "http://192.168.0.10:8000/director?key=K3Y" in "\n".join(lines)
    assert sum("▀" in line or "▄" in line for line in lines) > 20  # two QR codes
    assert lines[-1] == "Ctrl-C stops the server."


def test_serve_does_not_slow_the_other_commands():
    """The web stack loads only when serve runs: not with the command's module, which
    ``mighty --help`` loads to list it."""
    from test_imports import loaded_in_a_fresh_process

    assert (
        loaded_in_a_fresh_process(
            "import mighty_cli.cli, mighty_cli.cli.serve",
            "m.split('.')[0] in ('starlette', 'uvicorn', 'segno') or m.startswith('mighty_cli.web')",
        )
        == []
    )


def test_the_servers_connections_send_each_answer_at_once():
    """TCP_NODELAY on every connection the server accepts: an answer's body does not wait for
    the phone to acknowledge its headers (40 ms and more on each request of a kept
    connection)."""
    import socket

    from mighty_cli.cli.serve import _listen

    listening = _listen("127.0.0.1", 0)
    with listening, socket.create_connection(listening.getsockname()[:2]):
        accepted, _address = listening.accept()
        with accepted:
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
