"""The table page's form entering its next hand (``POST /tables/T/hands``), without script: the
table's hand it enters carried in the form, stored as the API stores it, refusals shown on the
page with what was typed kept, a conflict shown beside the stored hand, and only the fields
the league's ruleset asks."""

from __future__ import annotations

import html
import json
import re

import pytest
from serving import code_of, make_app, mighty, round_json
from starlette.testclient import TestClient


def hands_of(db: str) -> list[dict]:
    return json.loads(mighty("hand", "list", "-l", "cup", "--json", db=db))["hands"]


def form(db: str, table: int, hand: int, **fields) -> dict:
    players = round_json(db)["tables"][table - 1]["players"]
    sent = {
        "code": code_of(db, table),
        "hand": str(hand),
        "declarer": players[0],
        "contract": "15D",
        "friend": players[1],
        "taken": "16",
    }
    sent.update(fields)
    return {key: value for key, value in sent.items() if value is not None}


def entry_section(page: str) -> str:
    return page[
        page.index('<section id="entry">') : page.index(
            "</form>", page.index('<section id="entry">')
        )
    ]


def test_the_tables_page_offers_its_next_hand_carrying_its_number(client, cup):
    page = client.get("/tables/1").text
    entry = entry_section(page)
    assert "Enter hand 2" in entry
    assert '<input type="hidden" name="hand" value="2">' in entry
    players = round_json(cup)["tables"][0]["players"]
    declarer = re.search(r'<select name="declarer">(.*?)</select>', entry).group(1)
    assert re.findall(r'<option value="([^"]*)"', declarer) == ["", *players]
    assert 'action="/tables/1/hands"' in entry and 'src="/static/entry.js"' in page
    assert 'name="eliminated"' not in entry and 'name="friend2"' not in entry
    assert 'name="friend_call"' not in entry


def test_a_hand_entered_by_the_form_is_stored_and_the_page_says_so(client, cup):
    answer = client.post("/tables/2/hands", data=form(cup, 2, 1), follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == "/tables/2?done=entered#hands"
    assert (hands_of(cup)[-1]["table"], hands_of(cup)[-1]["table_hand"]) == (2, 1)
    page = client.get(answer.headers["location"]).text
    assert "Hand stored." in page and "Enter hand 2" in page


def test_the_form_sent_twice_is_stored_once(client, cup):
    client.post("/tables/2/hands", data=form(cup, 2, 1))
    answer = client.post("/tables/2/hands", data=form(cup, 2, 1), follow_redirects=False)
    assert answer.headers["location"] == "/tables/2?done=entered-before#hands"
    assert len(hands_of(cup)) == 2
    assert (
        "This entry was stored already (sent twice): it is stored once."
        in client.get(answer.headers["location"]).text
    )


def test_a_form_without_the_code_is_refused_and_keeps_what_was_typed(client, cup):
    answer = client.post("/tables/2/hands", data=form(cup, 2, 1, code=None, contract="14NT"))
    assert answer.status_code == 403
    assert "Table 2: its entry code is needed" in html.unescape(answer.text)
    assert (
        'name="contract" maxlength="40" autocapitalize="characters" autocomplete="off" '
        in answer.text
        and 'value="14NT"' in entry_section(answer.text)
    )
    assert len(hands_of(cup)) == 1


def test_an_outcome_record_refuses_is_shown_with_records_line(client, cup):
    answer = client.post("/tables/2/hands", data=form(cup, 2, 1, contract="99Q"))
    assert answer.status_code == 422
    assert "'99Q' is not a bid" in html.unescape(answer.text)
    assert 'value="99Q"' in entry_section(answer.text)
    assert len(hands_of(cup)) == 1


def test_a_conflict_shows_the_stored_hand_and_stores_it_as_the_next_only_when_asked(client, cup):
    client.post("/tables/2/hands", data=form(cup, 2, 1))
    answer = client.post("/tables/2/hands", data=form(cup, 2, 1, taken="12"))
    assert answer.status_code == 409
    text = html.unescape(answer.text)
    assert "table 2's hand 1 is already entered (declarer" in text
    stored = re.search(r'<p class="conflict" id="conflict">(.*?)</p>', text, re.S).group(1)
    assert stored.startswith("Hand 1 as stored: ◆15 · ") and "took 16" in stored
    entry = entry_section(answer.text)
    assert '<input type="hidden" name="hand" value="1">' in entry  # sent again: refused again
    assert 'value="12"' in entry  # what was typed, kept
    assert '<button type="submit" class="send" name="next" value="2">' in entry
    assert len(hands_of(cup)) == 2
    again = client.post("/tables/2/hands", data=form(cup, 2, 1, taken="12"))
    assert again.status_code == 409 and len(hands_of(cup)) == 2
    other = client.post(
        "/tables/2/hands", data=form(cup, 2, 1, taken="12", next="2"), follow_redirects=False
    )
    assert other.status_code == 303
    assert [(h["table_hand"], h["taken"]) for h in hands_of(cup) if h["table"] == 2] == [
        (1, 16),
        (2, 12),
    ]


def test_the_same_outcome_twice_asks_whether_the_table_played_it_twice(client, cup):
    client.post("/tables/2/hands", data=form(cup, 2, 1))
    answer = client.post("/tables/2/hands", data=form(cup, 2, 2))
    assert answer.status_code == 422
    assert 'name="again" value="yes"' in answer.text
    stored = client.post(
        "/tables/2/hands", data=form(cup, 2, 2, again="yes"), follow_redirects=False
    )
    assert stored.status_code == 303 and len(hands_of(cup)) == 3


def test_a_deal_miss_is_entered_alone(client, cup):
    players = round_json(cup)["tables"][1]["players"]
    answer = client.post(
        "/tables/2/hands", data=form(cup, 2, 1, deal_miss=players[2]), follow_redirects=False
    )
    assert answer.status_code == 303
    assert hands_of(cup)[-1]["deal_miss"] == players[2]


def test_an_unknown_form_field_is_refused(client, cup):
    answer = client.post("/tables/2/hands", data=form(cup, 2, 1, bid="15D"))
    assert answer.status_code == 400
    assert "the form gives bid, which is no field of an entry" in html.unescape(answer.text)


def test_an_ended_table_offers_no_entry(director, client):
    director.post("/director/end", data={})
    assert '<section id="entry">' not in client.get("/tables/1").text


def test_the_form_speaks_korean(client, cup):
    mighty("league", "set", "cup", "--lang", "ko", db=cup)
    entry = entry_section(client.get("/tables/2").text)
    assert "1판 입력" in entry and "주공" in entry and "1판 저장" in entry


@pytest.mark.parametrize(
    "ruleset,players,more,present,absent",
    [
        ("standard-6", 6, (), ['name="eliminated"'], ['name="friend2"', 'name="friend_call"']),
        ("standard-7", 7, (), ['name="eliminated"', 'name="eliminated2"'], ['name="friend2"']),
        ("dongdaejeon-7", 7, (), ['name="friend2"', 'placeholder="10+8+2"'], ['name="eliminated"']),
        ("honeymoon", 2, (), ["own friend hand"], ['name="friend"', 'name="friend2"']),
        (
            "standard",
            10,
            ("--duplicate", "--seed", "7"),
            ['name="friend_call"'],
            ['name="eliminated"'],
        ),
    ],
    ids=["6ma", "7ma", "dongdaejeon-7", "honeymoon", "duplicate"],
)
def test_the_form_asks_only_what_the_ruleset_needs(
    tmp_path, ruleset, players, more, present, absent
):
    db = f"sqlite:///{tmp_path / 'variant.db'}"
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy", "Jon"][:players]
    mighty("league", "create", "cup", "--ruleset", ruleset, db=db)
    mighty("round", "start", "-l", "cup", "--players", ",".join(names), *more, db=db)
    with TestClient(make_app(db, tmp_path / "served")) as client:
        entry = entry_section(client.get("/tables/1").text)
    for piece in present:
        assert piece in entry, piece
    for piece in absent:
        assert piece not in entry, piece
