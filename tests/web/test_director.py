"""The director's actions, each through the store function its command calls, each in the
change log as made by the director; the table's correction of its last hand, logged as the
table's."""

from __future__ import annotations

import json

from serving import KEY, code_of, make_app, mighty, record_at, round_json
from starlette.testclient import TestClient


def log(db: str) -> list[dict]:
    return json.loads(mighty("hand", "log", "-l", "cup", "--json", db=db))["changes"]


def test_the_director_seats_someone_mid_round(director, client, cup):
    leaving = round_json(cup)["tables"][0]["players"][2]
    answer = director.post(
        "/director/seat",
        data={"table": "1", "leave": leaving, "join": "Mallory"},
        follow_redirects=False,
    )
    assert answer.status_code == 303 and answer.headers["location"] == "/director?done=seat"
    table = round_json(cup)["tables"][0]
    assert "Mallory" in table["players"] and leaving not in table["players"]
    entry = log(cup)[-1]
    assert (entry["action"], entry["who"]) == ("round seat", "director")
    board = client.get("/").text
    assert "Mallory" in board and f"{leaving} left" in board


def test_the_director_ends_the_round_and_starts_the_next(director, cup):
    assert (
        director.post("/director/end", data={"force": "1"}, follow_redirects=False).status_code
        == 303
    )
    assert round_json(cup)["ended"] is True
    answer = director.post(
        "/director/start",
        data={"players": "Ana, Bo\nCy,Di,Ed,Fay,Gil,Hu,Ida,Jo", "seed": "3"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    shown = round_json(cup)
    assert shown["round"] == 2 and len(shown["tables"]) == 2
    assert [(e["action"], e["who"]) for e in log(cup)[-2:]] == [
        ("round end", "director"),
        ("round start", "director"),
    ]
    assert "Round started." in director.get("/director?done=start").text


def test_the_director_starts_a_round_with_a_substitute(director, cup):
    director.post("/director/end", data={"force": "1"})
    answer = director.post(
        "/director/start",
        data={
            "players": "Zoe,Bo,Cy,Di,Ed,Fay,Gil,Hu,Ida,Jo",
            "substitutes": "Zoe/Ana",
            "credit": "1",
        },
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text
    assert round_json(cup)["substitutes"] == [{"player": "Zoe", "for": "Ana", "credited": True}]


def test_the_director_reseats_a_round_before_its_first_hand(director, cup):
    director.post("/director/end", data={"force": "1"})
    director.post("/director/start", data={"players": "Ana,Bo,Cy,Di,Ed,Fay,Gil,Hu,Ida,Jo"})
    answer = director.post("/director/reseat", data={"seed": "9"}, follow_redirects=False)
    assert answer.status_code == 303
    assert log(cup)[-1]["action"] == "round reseat"


def test_the_round_clock_is_on_every_board(director, client, cup):
    assert (
        director.post("/director/clock", data={"minutes": "45"}, follow_redirects=False).status_code
        == 303
    )
    board = client.get("/").text
    assert 'class="clock" data-left="' in board and "Round clock" in board
    entry = log(cup)[-1]
    assert (entry["action"], entry["who"], entry["after"]["minutes"]) == (
        "round clock",
        "director",
        45,
    )
    director.post("/director/clock-stop", data={})
    assert 'class="clock"' not in client.get("/").text


def test_the_director_amends_voids_and_restores_a_hand(director, cup):
    answer = director.post(
        "/director/amend",
        data={"table": "1", "hand": "1", "taken": "18", "reason": "kitty miscounted"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    shown = json.loads(mighty("hand", "show", "-l", "cup", "1", "--json", db=cup))
    assert shown["taken"] == 18
    director.post("/director/void", data={"hand": "1", "reason": "entered twice"})
    director.post("/director/unvoid", data={"hand": "1", "reason": "it was played"})
    assert [(e["action"], e["who"], e["why"]) for e in log(cup)[-3:]] == [
        ("hand amend", "director", "kitty miscounted"),
        ("hand void", "director", "entered twice"),
        ("hand unvoid", "director", "it was played"),
    ]


def test_the_table_corrects_its_last_hand_and_the_log_says_so(client, cup):
    answer = client.post(
        "/tables/1/correct",
        data={"code": code_of(cup, 1), "hand": "1", "taken": "13", "reason": "we counted again"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    entry = log(cup)[-1]
    assert (entry["action"], entry["who"], entry["why"]) == (
        "hand amend",
        "table 1",
        "we counted again",
    )
    assert (entry["before"]["taken"], entry["after"]["taken"]) == (16, 13)
    assert "Hand corrected." in client.get("/tables/1?done=amend").text


def test_a_table_cannot_correct_a_hand_that_is_no_longer_its_last(client, cup):
    record_at(cup, 1, taken=15)
    answer = client.post(
        "/tables/1/correct",
        data={"code": code_of(cup, 1), "hand": "1", "taken": "13", "reason": "x"},
    )
    assert answer.status_code == 409
    assert "last hand is now its hand 2, not 1" in answer.text


def test_the_table_voids_its_last_hand(client, cup):
    answer = client.post(
        "/tables/1/void",
        data={"code": code_of(cup, 1), "hand": "1", "reason": "entered twice"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    assert (log(cup)[-1]["action"], log(cup)[-1]["who"]) == ("hand void", "table 1")
    assert "Correct the last hand" not in client.get("/tables/1").text


def test_the_table_page_shows_hands_and_running_totals(client, cup):
    record_at(cup, 1, taken=12)
    page = client.get("/tables/1").text
    players = round_json(cup)["tables"][0]["players"]
    assert "2 hands" in page and players[0] in page
    # the declarer: +10 after the first hand, then a failed contract
    assert '<tr id="hand-2"' in page and "failed" in page


def test_the_directors_page_lists_the_latest_hands_and_the_log(director, cup):
    page = director.get("/director").text
    assert "table 1, hand 1" in page and "round start" in page


def test_a_league_gone_is_refused(tmp_path, cup):
    with TestClient(make_app(cup, tmp_path / "served", league="nobody")) as client:
        answer = client.get("/api/round")
        assert answer.status_code == 400 and "no league named 'nobody'" in answer.json()["error"]
        assert client.get(f"/director?key={KEY}", follow_redirects=False).status_code == 303
