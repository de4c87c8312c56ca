"""Forms sent from another site are refused (the browser's Sec-Fetch-Site, else its Origin);
every name on every page is escaped."""

from __future__ import annotations

import pytest
from serving import KEY, code_of, make_app, mighty
from starlette.testclient import TestClient

CORRECTION = {"hand": "1", "taken": "17", "reason": "miscounted"}


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example"},
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site", "origin": "http://testserver"},
    ],
    ids=["other-origin", "null-origin", "cross-site", "same-site"],
)
def test_a_form_from_another_site_is_refused(client, director, cup, headers):
    code = code_of(cup, 1)
    answer = client.post("/tables/1/correct", data={**CORRECTION, "code": code}, headers=headers)
    assert answer.status_code == 403
    assert "refused: the form was sent from another site" in answer.text
    answer = director.post("/director/end", data={"force": "1"}, headers=headers)
    assert answer.status_code == 403
    assert "(open)" in mighty("round", "show", "-l", "cup", db=cup)


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://testserver"},
        {"sec-fetch-site": "same-origin", "origin": "http://testserver"},
        {"sec-fetch-site": "none"},
        {},
    ],
    ids=["same-origin", "fetch-same-origin", "typed", "no-browser"],
)
def test_a_form_from_this_site_is_taken(client, cup, headers):
    answer = client.post(
        "/tables/1/correct",
        data={**CORRECTION, "code": code_of(cup, 1)},
        headers=headers,
        follow_redirects=False,
    )
    assert answer.status_code == 303


HOSTILE = ['<script>alert("x")<\\script>', '"><img src=x onerror=alert(1)>']


def test_every_name_is_escaped(tmp_path):
    db = f"sqlite:///{tmp_path / 'hostile.db'}"
    mighty("league", "create", "cup", "--ruleset", "standard", db=db)
    mighty("player", "add", *HOSTILE, db=db)
    players = HOSTILE + ["Cy", "Di", "Ed", "Fay", "Gil", "Hu", "Ida", "Jo"]
    mighty("round", "start", "-l", "cup", "--players", ",".join(players), db=db)
    with TestClient(make_app(db, tmp_path / "served")) as client:
        client.get(f"/director?key={KEY}")
        pages = {
            path: client.get(path).text
            for path in ("/", "/projector", "/director", "/director/slips")
        }
        pages["/tables/1 and 2"] = client.get("/tables/1").text + client.get("/tables/2").text
        for path, text in pages.items():
            assert "<script>alert" not in text and "<img src=x" not in text, path
            assert "&lt;script&gt;alert" in text and "&#34;&gt;&lt;img" in text, path
        data = client.get("/api/round").json()
        assert set(HOSTILE) <= {name for table in data["tables"] for name in table["players"]}
