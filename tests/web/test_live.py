"""The board learns of a hand stored anywhere: the change marker moves when a keeper's terminal
records one, and the live events (a real server, in a thread) say so."""

from __future__ import annotations

import http.client
import time
from urllib.parse import urlparse

from serving import record_at, running


def test_the_marker_moves_when_a_terminal_records_a_hand(client, cup):
    before = client.get("/api/changes").json()["marker"]
    assert client.get("/api/changes").json()["marker"] == before
    record_at(cup, 2)
    assert client.get("/api/changes").json()["marker"] != before


def test_the_page_carries_the_marker_it_was_made_at(client):
    marker = client.get("/api/changes").json()["marker"]
    assert f'data-marker="{marker}"' in client.get("/").text


def _events(address: str):
    """The live events' lines, as they come."""
    url = urlparse(address)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=20)
    connection.request("GET", "/events")
    answer = connection.getresponse()
    assert answer.status == 200
    assert answer.getheader("content-type").startswith("text/event-stream")
    try:
        while True:
            line = answer.readline()
            if not line:
                return
            yield line.decode().rstrip("\r\n")
    finally:
        connection.close()


def test_the_live_events_say_a_hand_recorded_by_the_cli(app, cup):
    with running(app) as address:
        lines = _events(address)
        assert next(lines) == "retry: 1000"
        assert next(lines) == "event: marker"
        first = next(lines).removeprefix("data: ")
        record_at(cup, 2)
        started = time.monotonic()
        for line in lines:
            if line == "event: change":
                break
        moved = next(lines).removeprefix("data: ")
        assert moved != first
        assert time.monotonic() - started < 10
