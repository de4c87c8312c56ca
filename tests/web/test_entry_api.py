"""The fixed interface ``POST /api/tables/T/hands`` (issue 37): a hand stored is answered 201,
the same entry sent again 200 (stored once), another entry of a stored hand 409 with the stored
hand, a missing or wrong code 403 with nothing stored, an outcome ``record`` refuses 422 with
``record``'s line; a keeper's terminal and a phone at one table under the same rule; and
``POST /api/tables/T/check``, one field checked as it is filled."""

from __future__ import annotations

import json

import pytest
from serving import code_of, make_app, mighty, record_at, round_json


def hands_of(db: str, league: str = "cup") -> list[dict]:
    return json.loads(mighty("hand", "list", "-l", league, "--json", db=db))["hands"]


def entry(db: str, table: int, hand: int, **fields) -> dict:
    """An entry of the table's hand ``hand``: its first player declares 15D with the second."""
    players = round_json(db)["tables"][table - 1]["players"]
    body = {
        "code": code_of(db, table),
        "hand": hand,
        "declarer": players[0],
        "contract": "15D",
        "friend": players[1],
        "taken": 16,
    }
    body.update(fields)
    return {key: value for key, value in body.items() if value is not None}


def test_a_hand_entered_from_a_phone_is_stored_and_answered_201(client, cup):
    answer = client.post("/api/tables/2/hands", json=entry(cup, 2, 1))
    assert answer.status_code == 201
    players = round_json(cup)["tables"][1]["players"]
    assert answer.json() == {
        "table_hand": 1,
        "league_hand": 2,
        "deltas": {players[0]: 10, players[1]: 5, players[2]: -5, players[3]: -5, players[4]: -5},
    }
    stored = hands_of(cup)[-1]
    assert (stored["number"], stored["table"], stored["table_hand"]) == (2, 2, 1)
    assert stored["deltas"] == answer.json()["deltas"]


def test_the_change_log_says_the_table_entered_it(client, cup):
    client.post("/api/tables/2/hands", json=entry(cup, 2, 1))
    changes = json.loads(mighty("hand", "log", "-l", "cup", "--json", db=cup))["changes"]
    assert (changes[-1]["action"], changes[-1]["who"], changes[-1]["after"]["number"]) == (
        "hand record",
        "table 2",
        2,
    )


def test_the_same_entry_sent_again_is_answered_200_and_stored_once(client, cup):
    first = client.post("/api/tables/2/hands", json=entry(cup, 2, 1))
    again = client.post("/api/tables/2/hands", json=entry(cup, 2, 1))
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert len(hands_of(cup)) == 2


def test_an_entry_sent_again_after_its_friend_sat_out_the_next_hand_is_answered_200(tmp_path):
    """At a table of six the dealer sits out: a phone that lost its answer sends hand 1 again
    when its friend, dealing hand 2, no longer plays; it is still this very entry."""
    from starlette.testclient import TestClient

    from mighty_cli.store.db import make_engine, transaction
    from mighty_cli.table.next_hand import read_next_hand

    db = f"sqlite:///{tmp_path / 'six.db'}"
    mighty("league", "create", "six", "--ruleset", "standard", db=db)
    mighty("round", "start", "-l", "six", "--players", "Ana,Bo,Cy,Di,Ed,Fay", db=db)
    table = json.loads(mighty("round", "show", "-l", "six", "--json", db=db))["tables"][0]
    engine = make_engine(db)
    with transaction(engine) as s:
        playing = read_next_hand(s, "six", table["session"]).players
    body = {
        "code": table["code"],
        "hand": 1,
        "declarer": playing[0],
        "contract": "15D",
        "friend": playing[1],
        "taken": 16,
    }
    with TestClient(make_app(db, tmp_path / "served", league="six")) as client:
        first = client.post("/api/tables/1/hands", json=body)
        with transaction(engine) as s:
            sitting_out = set(table["players"]) - set(read_next_hand(s, "six", 1).players)
        again = client.post("/api/tables/1/hands", json=body)
    engine.dispose()
    assert sitting_out == {playing[1]}
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert len(hands_of(db, "six")) == 1


def test_another_entry_of_a_stored_hand_is_refused_409_with_the_stored_hand(client, cup):
    client.post("/api/tables/2/hands", json=entry(cup, 2, 1))
    players = round_json(cup)["tables"][1]["players"]
    answer = client.post("/api/tables/2/hands", json=entry(cup, 2, 1, taken=12))
    assert answer.status_code == 409
    said = answer.json()
    assert said["error"].startswith(
        f"table 2's hand 1 is already entered (declarer {players[0]} 15D, by table 2 at "
    )
    assert said["next_hand"] == 2
    assert (
        said["hand"]["table_hand"],
        said["hand"]["league_hand"],
        said["hand"]["taken"],
        said["hand"]["declarer"],
    ) == (1, 2, 16, players[0])
    assert len(hands_of(cup)) == 2


def test_an_entry_ahead_of_the_table_is_refused_409(client, cup):
    answer = client.post("/api/tables/2/hands", json=entry(cup, 2, 3))
    assert answer.status_code == 409
    assert answer.json()["error"] == ("the table has 0 hands stored: its next is hand 1, not 3")
    assert answer.json()["next_hand"] == 1 and answer.json()["hand"] is None
    assert len(hands_of(cup)) == 1


def test_a_missing_code_is_refused_403_and_stores_nothing(client, cup):
    answer = client.post("/api/tables/2/hands", json=entry(cup, 2, 1, code=None))
    assert answer.status_code == 403
    assert answer.json() == {
        "error": "Table 2: its entry code is needed (on its slip, or from the director)"
    }
    assert len(hands_of(cup)) == 1


def test_a_wrong_code_is_refused_403_and_stores_nothing(client, cup):
    wrong = "00000" if code_of(cup, 2) != "00000" else "11111"
    answer = client.post("/api/tables/2/hands", json=entry(cup, 2, 1, code=wrong))
    assert answer.status_code == 403
    assert answer.json() == {"error": "wrong entry code for Table 2"}
    assert len(hands_of(cup)) == 1


def test_another_tables_code_is_wrong_here(client, cup):
    if code_of(cup, 1) == code_of(cup, 2):
        pytest.skip("the two tables drew one code")
    answer = client.post("/api/tables/2/hands", json=entry(cup, 2, 1, code=code_of(cup, 1)))
    assert answer.status_code == 403


def test_wrong_codes_are_slowed_down_after_three(client, cup):
    wrong = "00000" if code_of(cup, 2) != "00000" else "11111"
    for _attempt in range(4):
        assert (
            client.post("/api/tables/2/hands", json=entry(cup, 2, 1, code=wrong)).status_code == 403
        )
    answer = client.post("/api/tables/2/hands", json=entry(cup, 2, 1))
    assert answer.status_code == 429
    assert answer.headers["retry-after"] == "2"
    assert len(hands_of(cup)) == 1


def test_the_code_the_phone_keeps_is_enough(client, cup):
    assert (
        client.get(f"/tables/2?code={code_of(cup, 2)}", follow_redirects=False).status_code == 303
    )
    answer = client.post("/api/tables/2/hands", json=entry(cup, 2, 1, code=None))
    assert answer.status_code == 201


def test_an_ended_table_takes_no_entry(director, client, cup):
    assert director.post("/director/end", data={}).status_code in (200, 303)
    answer = client.post("/api/tables/2/hands", json=entry(cup, 2, 1))
    assert answer.status_code == 403
    assert "no longer playing" in answer.json()["error"]


def record_says(db: str, *args: str) -> str:
    """The line ``record`` refuses an outcome with (its last, without ``Error: ``)."""
    from click.testing import CliRunner

    from mighty_cli.cli import cli

    result = CliRunner().invoke(cli, ["record", "-l", "cup", *args, "--db", db])
    assert result.exit_code in (1, 2), result.output
    return result.output.strip().splitlines()[-1]


@pytest.mark.parametrize(
    "fields,argument",
    [
        ({"contract": "99Q"}, ("-c", "99Q")),
        ({"declarer": "Nobody"}, ("-d", "Nobody")),
        ({"taken": 25}, ("-t", "25")),
        ({"friend": "Mallory"}, ("-f", "Mallory")),
    ],
    ids=["contract", "declarer", "taken", "friend"],
)
def test_an_outcome_record_refuses_is_422_with_records_line(client, cup, fields, argument):
    body = entry(cup, 2, 1, **fields)
    answer = client.post("/api/tables/2/hands", json=body)
    assert answer.status_code == 422
    given = {
        "-d": body["declarer"],
        "-c": body["contract"],
        "-f": body["friend"],
        "-t": str(body["taken"]),
    }
    given[argument[0]] = argument[1]
    said = record_says(cup, "--table", "2", *[x for pair in given.items() for x in pair])
    assert answer.json()["error"] in said
    assert len(hands_of(cup)) == 1


def test_the_same_outcome_as_the_previous_hand_is_422_unless_again(client, cup):
    assert client.post("/api/tables/2/hands", json=entry(cup, 2, 1)).status_code == 201
    twice = client.post("/api/tables/2/hands", json=entry(cup, 2, 2))
    assert twice.status_code == 422
    assert twice.json()["error"].startswith("the same outcome as table 2's hand 1 (")
    assert twice.json()["again"] is True
    answer = client.post("/api/tables/2/hands", json=entry(cup, 2, 2, again=True))
    assert answer.status_code == 201 and answer.json()["table_hand"] == 2


def test_a_deal_miss_is_entered_by_its_player(client, cup):
    players = round_json(cup)["tables"][1]["players"]
    body = {"code": code_of(cup, 2), "hand": 1, "deal-miss": players[3]}
    answer = client.post("/api/tables/2/hands", json=body)
    assert answer.status_code == 201
    assert hands_of(cup)[-1]["deal_miss"] == players[3]


def test_korean_contract_words_are_taken_as_record_takes_them(client, cup):
    answer = client.post("/api/tables/2/hands", json=entry(cup, 2, 1, contract="다이아 15"))
    assert answer.status_code == 201
    assert hands_of(cup)[-1]["contract"] == "15D"


# --- a keeper's terminal and a phone at one table -------------------------------------------


def test_a_terminal_and_a_phone_at_one_table_are_held_to_the_same_rule(client, cup):
    """Table 1 holds hand 1 (the fixture's); its keeper records hand 2 at his terminal; a phone
    entering its own hand 2 is refused (409, the terminal's hand shown); the phone's hand 3 is
    stored, and sent again it is answered as stored."""
    record_at(cup, 1, taken=18)
    phone = client.post("/api/tables/1/hands", json=entry(cup, 1, 2, taken=12))
    assert phone.status_code == 409
    assert phone.json()["error"].startswith("table 1's hand 2 is already entered (")
    assert phone.json()["hand"]["taken"] == 18
    stored = client.post("/api/tables/1/hands", json=entry(cup, 1, 3, taken=12))
    retry = client.post("/api/tables/1/hands", json=entry(cup, 1, 3, taken=12))
    assert (stored.status_code, retry.status_code) == (201, 200)
    assert retry.json() == stored.json() and stored.json()["table_hand"] == 3
    assert [h["table_hand"] for h in hands_of(cup) if h["table"] == 1] == [1, 2, 3]


def test_a_terminal_after_a_phone_records_the_next_hand(client, cup):
    client.post("/api/tables/1/hands", json=entry(cup, 1, 2, taken=12))
    record_at(cup, 1, taken=18)
    assert [(h["table_hand"], h["taken"]) for h in hands_of(cup) if h["table"] == 1] == [
        (1, 16),
        (2, 12),
        (3, 18),
    ]


def test_a_referees_hand_in_progress_gives_way_to_a_phones_entry(client, cup):
    """A referee window holds table 2's hand in progress; a phone enters that hand first: it is
    stored, and the referee's next entry is refused (his hand was stored elsewhere), nothing
    stored twice."""
    from mighty_cli.store.db import make_engine, transaction
    from mighty_cli.store.ledger.table_entry import (
        HandGone,
        keep_live_hand,
        new_token,
        take_live_hand,
    )

    session = round_json(cup)["tables"][1]["session"]
    engine = make_engine(cup)
    try:
        with transaction(engine) as s:
            claim, _record = take_live_hand(s, "cup", session, new_token())
        assert client.post("/api/tables/2/hands", json=entry(cup, 2, 1)).status_code == 201
        with pytest.raises(HandGone) as refused, transaction(engine) as s:
            keep_live_hand(s, "cup", session, 'players = ["x"]\n', claim)
    finally:
        engine.dispose()
    assert refused.value.what == "stored"
    assert str(refused.value).startswith("table 2's hand 1 was entered meanwhile elsewhere (")
    assert len(hands_of(cup)) == 2


# --- the field checks ---------------------------------------------------------------------------


def test_a_field_is_checked_as_it_is_filled(client, cup):
    players = round_json(cup)["tables"][1]["players"]
    answer = client.post(
        "/api/tables/2/check", json={"field": "declarer", "value": players[0].lower()}
    )
    assert answer.json() == {"field": "declarer", "value": players[0]}
    answer = client.post("/api/tables/2/check", json={"field": "contract", "value": "스페이드 14"})
    assert answer.json() == {"field": "contract", "value": "14S"}


def test_a_wrong_field_is_answered_with_records_question_line(client, cup):
    answer = client.post("/api/tables/2/check", json={"field": "contract", "value": "99Q"})
    assert answer.status_code == 422
    assert answer.json()["field"] == "contract"
    players = round_json(cup)["tables"][1]["players"]
    said = record_says(
        cup, "--table", "2", "-c", "99Q", "-d", players[0], "-f", players[1], "-t", "16"
    )
    assert answer.json()["error"] in said


def test_a_friend_is_checked_against_the_declarer_given(client, cup):
    players = round_json(cup)["tables"][1]["players"]
    answer = client.post(
        "/api/tables/2/check",
        json={"field": "friend", "value": players[0], "fields": {"declarer": players[0]}},
    )
    assert answer.status_code == 422 and answer.json()["field"] == "friend"
