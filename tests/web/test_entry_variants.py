"""``POST /api/tables/T/hands`` under the variants a ruleset asks of an entry, each with the keys
``record``'s options name: 허니문's own friend hand (decided by the tool), 동대전 7마's second
friend and split count, 6마's eliminated player, a duplicate table's called card."""

from __future__ import annotations

import json

import pytest
from serving import code_of, make_app, mighty, round_json
from starlette.testclient import TestClient

from mighty_cli.engine.cards import format_cards
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.store.ledger.duplicate_deals import expected_deal

SEVEN = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus"]


@pytest.fixture
def league(tmp_path):
    """A league ``cup`` under a ruleset, round 1 started with these players: a client of its
    server and its database."""
    opened = []

    def make(ruleset: str, players: list[str], *more: str):
        db = f"sqlite:///{tmp_path / 'variant.db'}"
        mighty("league", "create", "cup", "--ruleset", ruleset, db=db)
        mighty("round", "start", "-l", "cup", "--players", ",".join(players), *more, db=db)
        client = TestClient(make_app(db, tmp_path / "served"))
        opened.append(client.__enter__())
        return client, db

    yield make
    for client in opened:
        client.__exit__(None, None, None)


def stored(db: str) -> dict:
    return json.loads(mighty("hand", "list", "-l", "cup", "--json", db=db))["hands"][-1]


def test_honeymoon_the_friend_is_the_declarers_own_hand(league):
    client, db = league("honeymoon", ["Ana", "Bo"])
    answer = client.post(
        "/api/tables/1/hands",
        json={"code": code_of(db, 1), "hand": 1, "declarer": "Bo", "contract": "14S", "taken": 16},
    )
    assert answer.status_code == 201
    assert answer.json()["deltas"] == {"Ana": -8, "Bo": 8}
    assert stored(db)["friend"] == "Bo's friend"


def test_honeymoon_another_friend_is_refused_with_records_line(league):
    client, db = league("honeymoon", ["Ana", "Bo"])
    answer = client.post(
        "/api/tables/1/hands",
        json={
            "code": code_of(db, 1),
            "hand": 1,
            "declarer": "Bo",
            "contract": "14S",
            "friend": "Ana",
            "taken": 16,
        },
    )
    assert answer.status_code == 422
    said = mighty(
        "record",
        "-l",
        "cup",
        "--table",
        "1",
        "-d",
        "Bo",
        "-c",
        "14S",
        "-f",
        "Ana",
        "-t",
        "16",
        db=db,
        code=1,
    )
    assert answer.json()["error"] in said


def test_dongdaejeon_7_a_second_friend_and_a_split_count(league):
    client, db = league("dongdaejeon-7", SEVEN)
    answer = client.post(
        "/api/tables/1/hands",
        json={
            "code": code_of(db, 1),
            "hand": 1,
            "declarer": "Ana",
            "contract": "13C",
            "friend": ["Fay", "Gus"],
            "taken": "15+3+1",
        },
    )
    assert answer.status_code == 201
    assert answer.json()["deltas"] == {
        "Ana": 16,
        "Bo": -8,
        "Cy": -8,
        "Di": -8,
        "Ed": -8,
        "Fay": 8,
        "Gus": 8,
    }
    hand = stored(db)
    assert (hand["friend"], hand["friend2"], hand["taken"]) == ("Fay", "Gus", 21)


def test_dongdaejeon_7_the_second_friend_is_checked_as_it_is_filled(league):
    client, db = league("dongdaejeon-7", SEVEN)
    answer = client.post(
        "/api/tables/1/check",
        json={"field": "friend", "value": ["fay", "gus"], "fields": {"declarer": "Ana"}},
    )
    assert answer.json() == {"field": "friend", "value": ["Fay", "Gus"]}
    answer = client.post(
        "/api/tables/1/check",
        json={
            "field": "taken",
            "value": "15+3+1",
            "fields": {"declarer": "Ana", "friend": ["Fay", "Gus"]},
        },
    )
    assert answer.json() == {"field": "taken", "value": 21}


def test_six_ma_the_eliminated_player_is_named(league):
    client, db = league("standard-6", SEVEN[:6])
    body = {
        "code": code_of(db, 1),
        "hand": 1,
        "declarer": "Bo",
        "contract": "14S",
        "friend": "Cy",
        "taken": 16,
    }
    refused = client.post("/api/tables/1/hands", json=body)
    assert refused.status_code == 422
    assert refused.json() == {
        "error": "--eliminated: standard-6 eliminates 1 player (table.eliminated): name him",
        "field": "eliminated",
    }
    answer = client.post("/api/tables/1/hands", json={**body, "eliminated": ["Di"]})
    assert answer.status_code == 201
    assert answer.json()["deltas"] == {"Ana": -2, "Bo": 4, "Cy": 2, "Di": 0, "Ed": -2, "Fay": -2}
    assert stored(db)["eliminated"] == ["Di"]


def holder(seed: int, deal: int, card: str = "SA") -> int:
    """The seat dealt ``card`` in a duplicate round's deal (every table alike)."""
    seats = [f"s{i}" for i in range(5)]
    cards = expected_deal(load_ruleset("standard"), seed, deal, seats)
    return next(i for i, who in enumerate(seats) if card in format_cards(cards[who]).split())


def test_a_duplicate_table_names_the_card_called(league):
    players = [f"P{i:02d}" for i in range(1, 11)]
    client, db = league("standard", players, "--duplicate", "--seed", "7")
    seats = round_json(db)["tables"][0]["players"]
    friend = seats[holder(7, 1)]
    declarer = next(name for name in seats[1:] if name != friend)
    body = {
        "code": code_of(db, 1),
        "hand": 1,
        "declarer": declarer,
        "contract": "14S",
        "friend": friend,
        "taken": 16,
    }
    refused = client.post("/api/tables/1/hands", json=body)
    assert refused.status_code == 422
    assert "(--friend-call" in refused.json()["error"]
    answer = client.post("/api/tables/1/hands", json={**body, "friend-call": "SA"})
    assert answer.status_code == 201
    assert stored(db)["friend_call"] == "SA"
