"""Any malformed request gets a 4xx with a message: never a 5xx, a traceback or a hang. The
cases each kind of mistake makes, then a fuzz over paths, methods, bodies and headers."""

from __future__ import annotations

import html
import json
import random

import pytest
from serving import code_of

JSON = {"content-type": "application/json"}
REFUSED = [
    ("GET", "/tables/abc", None, {}, 404, "no table 'abc'"),
    ("GET", "/tables/0", None, {}, 404, "no table '0'"),
    ("GET", "/tables/99", None, {}, 404, "no table 99 in round 1"),
    ("GET", "/tables/s99", None, {}, 404, "no table s99"),
    ("GET", "/tables/1x", None, {}, 404, "no table '1x'"),
    ("GET", "/nothing/here", None, {}, 404, "no such page"),
    ("PUT", "/", None, {}, 405, "does not take that method"),
    ("DELETE", "/api/round", None, {}, 405, "does not take that method"),
    ("POST", "/director/nothing", b"a=1", {}, 404, "no such page"),
    ("GET", "/site/..%2F..%2Fetc%2Fpasswd", None, {}, 404, "has no page"),
    ("GET", "/site/players/x.py", None, {}, 404, "has no page"),
    ("GET", "/static/app.py", None, {}, 404, "no such page"),
    ("GET", "/static/..%2Fapp.py", None, {}, 404, "no such page"),
    (
        "POST",
        "/tables/1/correct",
        b'{"taken": 17}',
        {"content-type": "application/json"},
        415,
        "application/x-www-form-urlencoded",
    ),
    ("POST", "/tables/1/correct", b"taken=" + b"1" * 40000, {}, 413, "larger than 32 KiB"),
    ("POST", "/tables/1/correct", b"reason=\xff\xfe", {}, 400, "not UTF-8"),
    ("POST", "/tables/1/correct", b"hand=1&hand=2", {}, 400, "gives hand twice"),
    (
        "POST",
        "/tables/1/correct",
        b"&".join(b"f%d=1" % n for n in range(50)),
        {},
        400,
        "cannot be read",
    ),
    ("GET", "/api/tables/1/hands", None, {}, 405, "does not take that method"),
    ("POST", "/api/tables/1/hands", b"hand=2", {}, 415, "application/json"),
    ("POST", "/api/tables/9/hands", b"{}", JSON, 404, "no table 9 in round 1"),
    ("POST", "/api/tables/1/hands", b"{" + b" " * 20000 + b"}", JSON, 413, "16 KiB"),
    ("POST", "/api/tables/1/hands", b'{"hand": 2', JSON, 400, "not JSON"),
    ("POST", "/api/tables/1/hands", b"[1, 2]", JSON, 400, "not a JSON object"),
    ("POST", "/api/tables/1/hands", b"\xff{}", JSON, 400, "not UTF-8"),
    ("POST", "/api/tables/1/hands", b'{"hand": NaN}', JSON, 400, "not JSON"),
    ("POST", "/api/tables/1/hands", b"[" * 5000 + b"]" * 5000, JSON, 400, "not JSON"),
    ("POST", "/api/tables/1/hands", b'{"hand": 2, "hand": 3}', JSON, 400, "gives 'hand' twice"),
    ("POST", "/api/tables/1/hands", b'{"hand": 2}', JSON, 403, "entry code is needed"),
    ("POST", "/api/tables/1/check", b'{"field": "bid"}', JSON, 400, "field: one of"),
    (
        "POST",
        "/api/tables/1/check",
        b'{"field": "taken", "fields": 3}',
        JSON,
        400,
        "fields: expected an object",
    ),
    (
        "POST",
        "/api/tables/1/check",
        b'{"field": "taken", "x": 3}',
        JSON,
        400,
        "not a key of a field's check",
    ),
]


@pytest.mark.parametrize(
    "method,path,body,headers,status,message",
    REFUSED,
    ids=[f"{case[0]} {case[1][:30]} {case[4]}" for case in REFUSED],
)
def test_a_malformed_request_is_refused_with_a_message(
    client, method, path, body, headers, status, message
):
    if body is not None:
        headers = {"content-type": "application/x-www-form-urlencoded", **headers}
    answer = client.request(method, path, content=body, headers=headers)
    assert answer.status_code == status
    assert message in html.unescape(answer.text)


@pytest.mark.parametrize(
    "fields,status,message",
    [
        ({"hand": None}, 400, "hand: required"),
        ({"hand": "two"}, 400, "hand: a whole number from 1"),
        ({"hand": 0}, 400, "hand: a whole number from 1"),
        ({"hand": True}, 400, "hand: a whole number from 1"),
        ({"hand": 2.5}, 400, "hand: a whole number from 1"),
        ({"declarer": 7}, 400, "declarer: expected a text"),
        ({"declarer": ["Ana"]}, 400, "declarer: expected a text"),
        ({"taken": {"a": 1}}, 400, "taken: expected a text or a whole number"),
        ({"friend": ["A", "B", "C"]}, 400, "friend: at most 2 names"),
        ({"friend": [1]}, 400, "friend: expected a text"),
        ({"contract": "x" * 300}, 400, "contract: longer than 200 characters"),
        ({"note": "bad\u202etext"}, 400, "U+202E"),
        ({"bid": "15D"}, 400, "'bid' is not a key of an entry"),
        ({"deal_miss": "Ana", "deal-miss": "Bo"}, 400, "gives 'deal_miss' twice"),
        ({"again": "yes"}, 400, "again: true or false"),
        ({"code": ["1"]}, 400, "code: expected a text"),
        (
            {"declarer": None, "contract": None, "friend": None, "taken": None},
            422,
            "missing the declarer",
        ),
        ({"taken": 16, "opposition": 4}, 422, "give --taken or --opposition, not both"),
    ],
    ids=[
        "hand-missing",
        "hand-text",
        "hand-0",
        "hand-bool",
        "hand-float",
        "declarer-number",
        "declarer-list",
        "taken-object",
        "three-friends",
        "friend-number",
        "long",
        "bidi",
        "unknown",
        "twice",
        "again",
        "code-list",
        "empty",
        "taken-and-opposition",
    ],
)
def test_a_malformed_entry_is_refused_with_a_message(client, cup, fields, status, message):
    body = {
        "code": code_of(cup, 2),
        "hand": 1,
        "declarer": "Ana",
        "contract": "15D",
        "friend": "Bo",
        "taken": 16,
        **fields,
    }
    answer = client.post(
        "/api/tables/2/hands", json={k: v for k, v in body.items() if v is not None or k == "hand"}
    )
    assert answer.status_code == status
    assert message in answer.json()["error"]


@pytest.mark.parametrize(
    "fields,message",
    [
        ({"hand": "abc"}, "hand: 'abc' is not a whole number"),
        ({"hand": "1", "taken": "-3", "reason": "x"}, "taken: from 0 to 1000"),
        ({"hand": "1", "taken": "17"}, "reason: required"),
        ({"hand": "1", "taken": "16", "reason": "x"}, "nothing to change"),
        ({"hand": "1", "declarer": "Nobody", "reason": "x"}, "Nobody"),
        ({"hand": "1", "contract": "99Q", "reason": "x"}, "99Q"),
        ({"hand": "1", "taken": "17", "reason": "bad\u202etext"}, "U+202E"),
        ({"hand": "7", "taken": "17", "reason": "x"}, "last hand is now its hand 1, not 7"),
    ],
    ids=["hand", "taken", "reason", "unchanged", "declarer", "contract", "bidi", "stale"],
)
def test_a_wrong_correction_is_refused_with_a_message(client, cup, fields, message):
    answer = client.post("/tables/1/correct", data={**fields, "code": code_of(cup, 1)})
    assert 400 <= answer.status_code < 500
    assert message in html.unescape(answer.text)


@pytest.mark.parametrize(
    "action,fields,message",
    [
        ("start", {"players": "Ana,Bo"}, "still open"),
        ("seat", {"table": "9", "join": "Mallory"}, "no open table 9"),
        ("seat", {"table": "1"}, "say who leaves or who joins"),
        ("clock", {"minutes": "0"}, "minutes: from 1 to 600"),
        ("clock-stop", {}, "has no clock running"),
        ("amend", {"hand": "99", "taken": "1", "reason": "x"}, "99"),
        ("void", {"hand": "1"}, "reason: required"),
        ("unvoid", {"hand": "1", "reason": "x"}, "not void"),
        ("reseat", {}, "has begun"),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_a_wrong_director_action_is_refused_with_a_message(director, action, fields, message):
    answer = director.post(f"/director/{action}", data=fields)
    assert 400 <= answer.status_code < 500
    assert message in html.unescape(answer.text)


PATHS = [
    "/",
    "/projector",
    "/api/round",
    "/api/changes",
    "/tables/1",
    "/tables/2",
    "/tables/s1",
    "/tables/1/correct",
    "/tables/1/void",
    "/director",
    "/director/slips",
    "/director/start",
    "/director/amend",
    "/site/",
    "/site/index.html",
    "/static/serve.js",
    "/tables/%00",
    "/tables/%F0%9F%82%A1",
    "/tables/" + "9" * 50,
    "/site/a/b/c.html",
    "/director/..",
    "/api/",
    "/favicon.ico",
    "/%2e%2e/%2e%2e/",
    "/tables/1?code=%00",
    "/director?key=%ff",
    "/?projector=<b>",
    "/api/tables/1/hands",
    "/api/tables/2/hands",
    "/tables/1/hands",
    "/tables/2/hands",
    "/api/tables/s1/hands",
    "/api/tables/1/check",
    "/api/tables/x/hands",
]
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
KINDS = [
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "text/plain",
    "application/json",
    "",
    "application/x-www-form-urlencoded; charset=latin1",
]


def _body(chance: random.Random) -> bytes:
    pieces = [
        b"hand=1",
        b"taken=17",
        b"reason=x",
        b"code=12345",
        b"declarer=%FF",
        b"contract=\xed\x95\x9c",
        b"a",
        b"=",
        b"&&",
        b"%",
        b"x" * chance.randrange(0, 300),
        bytes(chance.randrange(256) for _ in range(chance.randrange(0, 40))),
    ]
    return b"&".join(chance.choice(pieces) for _ in range(chance.randrange(0, 6)))


def _json_body(chance: random.Random, code: str) -> bytes:
    values = [
        None,
        True,
        0,
        -1,
        2,
        10**30,
        1.5,
        "",
        "Ana",
        "15D",
        "스페이드 14",
        "10+8+2",
        "none",
        "\u202e",
        "x" * 250,
        [],
        ["Ana"],
        ["Ana", "Bo", "Cy"],
        {},
        {"a": 1},
    ]
    keys = [
        "code",
        "hand",
        "declarer",
        "contract",
        "friend",
        "taken",
        "friend_call",
        "eliminated",
        "opposition",
        "deal_miss",
        "deal-miss",
        "dealer",
        "players",
        "note",
        "again",
        "field",
        "value",
        "fields",
        "x",
    ]
    body = {chance.choice(keys): chance.choice(values) for _ in range(chance.randrange(0, 8))}
    if chance.random() < 0.5:
        body["hand"] = chance.choice([1, 2, 3])
    if chance.random() < 0.7:
        body["code"] = code
    text = json.dumps(body).encode()
    if chance.random() < 0.1:
        text = text[: chance.randrange(len(text) + 1)]
    return text


def test_a_fuzz_of_requests_gets_no_server_error(client, director, cup):
    chance = random.Random(37)
    for _attempt in range(240):
        method, path = chance.choice(METHODS), chance.choice(PATHS)
        headers = {"content-type": chance.choice(KINDS)}
        if chance.random() < 0.3:
            headers["origin"] = chance.choice(["http://testserver", "http://evil.example", "null"])
        if chance.random() < 0.2:
            headers["cookie"] = chance.choice(
                [
                    "mighty_director=x",
                    "mighty_code_1=%00",
                    "mighty_code_1=" + "9" * 500,
                    "a=b; ; =;",
                ]
            )
        body = _body(chance) if method not in ("GET", "HEAD") else None
        if body is not None and path.startswith("/api/tables/") and chance.random() < 0.7:
            body = _json_body(chance, code_of(cup, 2 if "/2/" in path else 1))
            headers["content-type"] = "application/json"
            if chance.random() < 0.5:
                headers["cookie"] = "mighty_code_1=" + chance.choice(["1", "12345"])
        who = director if chance.random() < 0.5 else client
        answer = who.request(method, path, content=body, headers=headers)
        assert answer.status_code < 500, (method, path, body, headers, answer.text[:200])
        if answer.status_code >= 400 and method != "HEAD":
            assert answer.text.strip(), (method, path)
