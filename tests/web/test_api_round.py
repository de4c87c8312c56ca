"""``GET /api/round``: exactly the fixed shape, and never an entry code on a page anyone may
read."""

from __future__ import annotations

from serving import code_of, make_app, mighty


def test_api_round_has_the_fixed_shape(client, cup):
    answer = client.get("/api/round")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    data = answer.json()
    assert set(data) == {"league", "round", "tables"}
    assert data["league"] == "cup" and data["round"] == 1
    assert [set(table) for table in data["tables"]] == [
        {"table", "session", "players", "hands", "playing"}
    ] * 2
    first, second = data["tables"]
    assert (first["table"], first["session"], first["hands"], first["playing"]) == (1, 1, 1, True)
    assert (second["table"], second["hands"]) == (2, 0)
    assert len(first["players"]) == 5 and len(second["players"]) == 5


def test_api_round_of_a_league_without_a_round(tmp_path):
    from starlette.testclient import TestClient

    db = f"sqlite:///{tmp_path / 'new.db'}"
    mighty("league", "create", "solo", "--ruleset", "standard", db=db)
    with TestClient(make_app(db, tmp_path / "served", league="solo")) as client:
        assert client.get("/api/round").json() == {"league": "solo", "round": None, "tables": []}


def test_an_ended_round_is_shown_not_playing(client, cup):
    mighty("round", "end", "-l", "cup", db=cup)
    data = client.get("/api/round").json()
    assert data["round"] == 1 and [t["playing"] for t in data["tables"]] == [False, False]


def test_no_page_anyone_reads_shows_an_entry_code(client, cup):
    codes = [code_of(cup, 1), code_of(cup, 2)]
    for path in (
        "/",
        "/projector",
        "/api/round",
        "/tables/1",
        "/tables/2",
        "/site/",
        "/api/changes",
    ):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert not any(code in answer.text for code in codes), path
