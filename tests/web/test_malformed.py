"""Any malformed request gets a 4xx with a message: never a 5xx, a traceback or a hang. The
cases each kind of mistake makes, then a fuzz over paths, methods, bodies and headers."""

from __future__ import annotations

import html
import random

import pytest

from serving import code_of

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
    ("POST", "/tables/1/correct", b'{"taken": 17}', {"content-type": "application/json"}, 415,
     "application/x-www-form-urlencoded"),
    ("POST", "/tables/1/correct", b"taken=" + b"1" * 40000, {}, 413, "larger than 32 KiB"),
    ("POST", "/tables/1/correct", b"reason=\xff\xfe", {}, 400, "not UTF-8"),
    ("POST", "/tables/1/correct", b"hand=1&hand=2", {}, 400, "gives hand twice"),
    ("POST", "/tables/1/correct", b"&".join(b"f%d=1" % n for n in range(50)), {}, 400,
     "cannot be read"),
]


@pytest.mark.parametrize("method,path,body,headers,status,message", REFUSED,
                         ids=[f"{case[0]} {case[1][:30]} {case[4]}" for case in REFUSED])
def test_a_malformed_request_is_refused_with_a_message(client, method, path, body, headers,
                                                       status, message):
    if body is not None:
        headers = {"content-type": "application/x-www-form-urlencoded", **headers}
    answer = client.request(method, path, content=body, headers=headers)
    assert answer.status_code == status
    assert message in html.unescape(answer.text)


@pytest.mark.parametrize("fields,message", [
    ({"hand": "abc"}, "hand: 'abc' is not a whole number"),
    ({"hand": "1", "taken": "-3", "reason": "x"}, "taken: from 0 to 1000"),
    ({"hand": "1", "taken": "17"}, "reason: required"),
    ({"hand": "1", "taken": "16", "reason": "x"}, "nothing to change"),
    ({"hand": "1", "declarer": "Nobody", "reason": "x"}, "Nobody"),
    ({"hand": "1", "contract": "99Q", "reason": "x"}, "99Q"),
    ({"hand": "1", "taken": "17", "reason": "bad\u202etext"}, "U+202E"),
    ({"hand": "7", "taken": "17", "reason": "x"}, "last hand is now its hand 1, not 7"),
], ids=["hand", "taken", "reason", "unchanged", "declarer", "contract", "bidi", "stale"])
def test_a_wrong_correction_is_refused_with_a_message(client, cup, fields, message):
    answer = client.post("/tables/1/correct", data={**fields, "code": code_of(cup, 1)})
    assert 400 <= answer.status_code < 500
    assert message in html.unescape(answer.text)


@pytest.mark.parametrize("action,fields,message", [
    ("start", {"players": "Ana,Bo"}, "still open"),
    ("seat", {"table": "9", "join": "Mallory"}, "no open table 9"),
    ("seat", {"table": "1"}, "say who leaves or who joins"),
    ("clock", {"minutes": "0"}, "minutes: from 1 to 600"),
    ("clock-stop", {}, "has no clock running"),
    ("amend", {"hand": "99", "taken": "1", "reason": "x"}, "99"),
    ("void", {"hand": "1"}, "reason: required"),
    ("unvoid", {"hand": "1", "reason": "x"}, "not void"),
    ("reseat", {}, "has begun"),
], ids=lambda value: value if isinstance(value, str) else None)
def test_a_wrong_director_action_is_refused_with_a_message(director, action, fields,
                                                           message):
    answer = director.post(f"/director/{action}", data=fields)
    assert 400 <= answer.status_code < 500
    assert message in html.unescape(answer.text)


PATHS = ["/", "/projector", "/api/round", "/api/changes", "/tables/1", "/tables/2",
         "/tables/s1", "/tables/1/correct", "/tables/1/void", "/director", "/director/slips",
         "/director/start", "/director/amend", "/site/", "/site/index.html", "/static/serve.js",
         "/tables/%00", "/tables/%F0%9F%82%A1", "/tables/" + "9" * 50, "/site/a/b/c.html",
         "/director/..", "/api/", "/favicon.ico", "/%2e%2e/%2e%2e/", "/tables/1?code=%00",
         "/director?key=%ff", "/?projector=<b>"]
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
KINDS = ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
         "text/plain", "application/json", "", "application/x-www-form-urlencoded; charset=latin1"]


def _body(chance: random.Random) -> bytes:
    pieces = [b"hand=1", b"taken=17", b"reason=x", b"code=12345", b"declarer=%FF",
              b"contract=\xed\x95\x9c", b"a", b"=", b"&&", b"%", b"x" * chance.randrange(0, 300),
              bytes(chance.randrange(256) for _ in range(chance.randrange(0, 40)))]
    return b"&".join(chance.choice(pieces) for _ in range(chance.randrange(0, 6)))


def test_a_fuzz_of_requests_gets_no_server_error(client, director):
    chance = random.Random(37)
    for attempt in range(160):
        method, path = chance.choice(METHODS), chance.choice(PATHS)
        headers = {"content-type": chance.choice(KINDS)}
        if chance.random() < 0.3:
            headers["origin"] = chance.choice(["http://testserver", "http://evil.example",
                                               "null"])
        if chance.random() < 0.2:
            headers["cookie"] = chance.choice(["mighty_director=x", "mighty_code_1=%00",
                                               "mighty_code_1=" + "9" * 500, "a=b; ; =;"])
        body = _body(chance) if method not in ("GET", "HEAD") else None
        who = director if chance.random() < 0.5 else client
        answer = who.request(method, path, content=body, headers=headers)
        assert answer.status_code < 500, (method, path, body, headers, answer.text[:200])
        if answer.status_code >= 400 and method != "HEAD":
            assert answer.text.strip(), (method, path)
