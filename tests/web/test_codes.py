"""Who may write: a table's entry code (right, wrong, missing), wrong codes slowed down per
client and table, the director's key; codes kept across a seating change, made for a lone
session, shown by round show."""

from __future__ import annotations

import re

import pytest
from serving import KEY, code_of, mighty, round_json
from starlette.testclient import TestClient

CORRECTION = {"hand": "1", "taken": "17", "reason": "miscounted"}


def taken_of_hand_one(db: str) -> int:
    import json

    return json.loads(mighty("hand", "show", "-l", "cup", "1", "--json", db=db))["taken"]


def test_the_right_code_is_kept_by_the_phone_and_the_address_loses_it(client, cup):
    answer = client.get(f"/tables/1?code={code_of(cup, 1)}", follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == "/tables/1?done=code"
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("mighty_code_1=") and "HttpOnly" in cookie
    assert "SameSite=strict" in cookie or "SameSite=Strict" in cookie
    assert (
        client.post("/tables/1/correct", data=CORRECTION, follow_redirects=False).status_code == 303
    )
    assert taken_of_hand_one(cup) == 17


def test_a_correction_with_the_code_in_its_form_is_stored(client, cup):
    answer = client.post(
        "/tables/1/correct", data={**CORRECTION, "code": code_of(cup, 1)}, follow_redirects=False
    )
    assert answer.status_code == 303
    assert taken_of_hand_one(cup) == 17


def test_a_missing_code_is_refused_and_changes_nothing(client, cup):
    answer = client.post("/tables/1/correct", data=CORRECTION)
    assert answer.status_code == 403
    assert "its entry code is needed" in answer.text
    assert taken_of_hand_one(cup) == 16


def test_a_wrong_code_is_refused_and_changes_nothing(client, cup):
    wrong = "00000" if code_of(cup, 1) != "00000" else "11111"
    answer = client.post("/tables/1/correct", data={**CORRECTION, "code": wrong})
    assert answer.status_code == 403
    assert "wrong entry code for Table 1" in answer.text
    assert taken_of_hand_one(cup) == 16


def test_another_tables_code_is_wrong_here(client, cup):
    if code_of(cup, 1) == code_of(cup, 2):
        pytest.skip("the two tables drew one code")
    answer = client.get(f"/tables/1?code={code_of(cup, 2)}", follow_redirects=False)
    assert answer.status_code == 403


def _wrong(cup: str) -> str:
    return "00000" if code_of(cup, 1) != "00000" else "11111"


def test_wrong_codes_are_slowed_down_after_three(client, cup, clock):
    wrong = _wrong(cup)
    for _try in range(3):
        assert client.get(f"/tables/1?code={wrong}").status_code == 403
    assert client.get(f"/tables/1?code={wrong}").status_code == 403  # the fourth is heard...
    answer = client.get(f"/tables/1?code={code_of(cup, 1)}", follow_redirects=False)
    assert answer.status_code == 429  # ...then even the right one waits
    assert answer.headers["retry-after"] == "2"
    assert "too many wrong codes for this table: try again in 2 s" in answer.text
    clock.now += 2
    assert (
        client.get(f"/tables/1?code={code_of(cup, 1)}", follow_redirects=False).status_code == 303
    )


def test_each_wrong_code_after_three_waits_twice_as_long(client, cup, clock):
    wrong = _wrong(cup)
    waits = []
    for _try in range(8):
        clock.now += 120
        client.get(f"/tables/1?code={wrong}")
        answer = client.get(f"/tables/1?code={wrong}")
        waits.append(answer.headers.get("retry-after"))
    for _try in range(3):
        clock.now += 61
        assert client.get(f"/tables/1?code={wrong}").status_code == 403
    answer = client.get(f"/tables/1?code={wrong}")
    assert answer.status_code == 429 and answer.headers["retry-after"] == "60"  # at most


def test_the_slowing_down_is_per_client_and_per_table(app, client, cup):
    wrong = _wrong(cup)
    for _try in range(4):
        client.get(f"/tables/1?code={wrong}")
    assert client.get(f"/tables/1?code={wrong}").status_code == 429
    assert (
        client.get(f"/tables/2?code={code_of(cup, 2)}", follow_redirects=False).status_code == 303
    )  # another table
    with TestClient(app, client=("10.0.0.8", 50000)) as other:  # another phone
        assert (
            other.get(f"/tables/1?code={code_of(cup, 1)}", follow_redirects=False).status_code
            == 303
        )


def test_a_right_code_clears_the_count(client, cup):
    wrong = _wrong(cup)
    for _try in range(3):
        client.get(f"/tables/1?code={wrong}")
    assert (
        client.get(f"/tables/1?code={code_of(cup, 1)}", follow_redirects=False).status_code == 303
    )
    for _try in range(3):
        assert client.get(f"/tables/1?code={wrong}").status_code == 403


def test_an_ended_tables_code_writes_nothing(client, cup):
    code = code_of(cup, 1)
    mighty("round", "end", "-l", "cup", db=cup)
    answer = client.post("/tables/1/correct", data={**CORRECTION, "code": code})
    assert answer.status_code == 403 and "is no longer playing" in answer.text
    assert taken_of_hand_one(cup) == 16


def test_the_directors_page_needs_the_key(app, cup):
    with TestClient(app) as nobody:
        answer = nobody.get("/director")
        assert answer.status_code == 403
        assert "the address mighty serve printed" in answer.text
        assert nobody.get("/director?key=guess").status_code == 403
        assert nobody.post("/director/end", data={"force": "1"}).status_code == 403
        assert round_json(cup)["ended"] is False
        answer = nobody.get(f"/director?key={KEY}", follow_redirects=False)
        assert answer.status_code == 303 and answer.headers["location"] == "/director"
        assert "mighty_director=" in answer.headers["set-cookie"]
        assert nobody.get("/director").status_code == 200


def test_wrong_keys_are_slowed_down(app, clock):
    with TestClient(app) as nobody:
        for _try in range(4):
            assert nobody.get("/director?key=guess").status_code == 403
        answer = nobody.get(f"/director?key={KEY}", follow_redirects=False)
        assert answer.status_code == 429
        clock.now += 2
        assert nobody.get(f"/director?key={KEY}", follow_redirects=False).status_code == 303


def test_the_directors_page_shows_every_tables_code(director, cup):
    page = director.get("/director").text
    for table in (1, 2):
        assert f"Entry code: {code_of(cup, table)}" in page
        assert f"/tables/{table}?code={code_of(cup, table)}" in page
    assert page.count("<svg") == 2  # a QR code each


def test_a_table_keeps_its_code_when_its_seating_changes(cup):
    before = code_of(cup, 1)
    leaving = round_json(cup)["tables"][0]["players"][-1]
    mighty(
        "round",
        "seat",
        "-l",
        "cup",
        "--table",
        "1",
        "--leave",
        leaving,
        "--join",
        "Mallory",
        db=cup,
    )
    table = round_json(cup)["tables"][0]
    assert "Mallory" in table["players"] and table["code"] == before


def test_round_show_prints_the_playing_tables_codes(cup):
    shown = mighty("round", "show", "-l", "cup", db=cup)
    assert (
        f"Entry codes for the phones (mighty serve): table 1: {code_of(cup, 1)}, "
        f"table 2: {code_of(cup, 2)}."
    ) in shown


def test_codes_are_five_digits_made_for_each_table(cup):
    codes = [code_of(cup, 1), code_of(cup, 2)]
    assert all(re.fullmatch(r"[0-9]{5}", code) for code in codes)


def test_a_lone_session_gets_a_code_and_a_page(tmp_path):
    from serving import make_app

    db = f"sqlite:///{tmp_path / 'solo.db'}"
    mighty("league", "create", "solo", "--ruleset", "standard", db=db)
    mighty("session", "start", "-l", "solo", "--players", "Ana,Bo,Cy,Di,Ed", db=db)
    with TestClient(make_app(db, tmp_path / "served", league="solo")) as client:
        director = client.get(f"/director?key={KEY}").text
        code = re.search(r"Entry code: ([0-9]{5})", director).group(1)
        answer = client.get(f"/tables/s1?code={code}", follow_redirects=False)
        assert answer.status_code == 303
        assert "Ana" in client.get("/tables/s1").text


def test_the_slips_carry_each_tables_code_and_qr_code(director, cup, tmp_path):
    page = director.get("/director/slips").text
    for table in (1, 2):
        assert f"Entry code for the phones: {code_of(cup, table)}" in page
        assert f"http://testserver/tables/{table}?code={code_of(cup, table)}" in page
    written = tmp_path / "board.html"
    mighty(
        "round",
        "show",
        "-l",
        "cup",
        "--html",
        str(written),
        "--url",
        "http://192.168.0.10:8000",
        db=cup,
    )
    text = written.read_text(encoding="utf-8")
    assert f"http://192.168.0.10:8000/tables/1?code={code_of(cup, 1)}" in text
    assert text.count("<svg") >= 2
