"""Phones entering one table's hand at the same moment, against a real server (uvicorn on
127.0.0.1), on SQLite and, when configured, PostgreSQL: one entry is stored (201), the same
entry from the others is answered as stored (200), another is refused (409) with the stored
hand; the database holds the hand once."""

from __future__ import annotations

import threading

import pytest
from serving import PLAYERS, code_of, make_app, mighty, round_json, running

from databases import database_params, fresh_url


@pytest.fixture(params=database_params())
def league(request, tmp_path) -> str:
    url = fresh_url(request.param, tmp_path, "phones.db")
    mighty("league", "create", "cup", "--ruleset", "standard", db=url)
    mighty("round", "start", "-l", "cup", "--players", PLAYERS, db=url)
    return url


def test_phones_entering_one_hand_at_once_store_it_once(league, tmp_path):
    import httpx2

    players = round_json(league)["tables"][0]["players"]
    same = {
        "code": code_of(league, 1),
        "hand": 1,
        "declarer": players[0],
        "contract": "15D",
        "friend": players[1],
        "taken": 16,
    }
    bodies = [
        same,
        same,
        same,
        {**same, "taken": 12},
        {**same, "taken": 12},
        {**same, "contract": "14S"},
    ]
    answers: list = [None] * len(bodies)
    with running(make_app(league, tmp_path / "served")) as address:
        start = threading.Barrier(len(bodies))

        def send(index: int) -> None:
            with httpx2.Client(timeout=60) as client:
                start.wait()
                answers[index] = client.post(f"{address}/api/tables/1/hands", json=bodies[index])

        threads = [threading.Thread(target=send, args=(k,)) for k in range(len(bodies))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    statuses = [answer.status_code for answer in answers]
    assert statuses.count(201) == 1, statuses
    won = statuses.index(201)
    stored = answers[won].json()
    for body, answer in zip(bodies, answers, strict=True):
        if answer.status_code == 201:
            continue
        if body == bodies[won]:
            assert (answer.status_code, answer.json()) == (200, stored)
        else:
            assert answer.status_code == 409
            assert answer.json()["hand"]["deltas"] == stored["deltas"]
    hands = [h for h in round_json(league)["tables"] if h["table"] == 1]
    assert hands[0]["hands"] == 1
