"""The views every phone keeps open are gathered once per league change: the board,
``/api/round`` and a table's page answer from what was gathered while the change marker stands,
and show a change made by any writer (another process's ``record``, the table's own entry) at
once."""

from __future__ import annotations

import json

import pytest
from serving import code_of, mighty, record_at

from mighty_cli.web.view_cache import ViewCache, change_scope, per_change


def test_a_view_is_gathered_once_per_marker():
    views, calls = ViewCache(), []

    def gather():
        calls.append(1)
        return len(calls)

    assert views.view(gather, ("1",), "en", "m1", gather) == 1
    assert views.view(gather, ("1",), "en", "m1", gather) == 1
    assert views.view(gather, ("1",), "en", "m2", gather) == 2
    assert (views.gathered, views.answered) == (2, 1)


def test_a_view_is_kept_by_its_arguments_and_language():
    views = ViewCache()
    assert views.view(len, ("1",), "en", "m", lambda: "table 1") == "table 1"
    assert views.view(len, ("2",), "en", "m", lambda: "table 2") == "table 2"
    assert views.view(len, ("1",), "ko", "m", lambda: "테이블 1") == "테이블 1"
    assert views.view(len, ("1",), "en", "m", lambda: "again") == "table 1"


def test_the_cache_starts_again_beyond_its_size():
    views = ViewCache(kept=2)
    for ref in ("1", "2", "3"):
        views.view(len, (ref,), "en", "m", lambda ref=ref: ref)
    assert views.view(len, ("1",), "en", "m", lambda: "gathered again") == "gathered again"


def test_askers_at_the_same_moment_wait_for_one_gathering():
    """Every phone of a table fetches its page as a change is announced: the first gathers it,
    the others wait for it."""
    import threading

    views, calls, release = ViewCache(), [], threading.Event()

    def gather():
        calls.append(1)
        release.wait(5)
        return "page"

    answers: list[str] = []
    askers = [
        threading.Thread(target=lambda: answers.append(views.view(len, ("1",), "en", "m", gather)))
        for _ in range(4)
    ]
    for asker in askers:
        asker.start()
    while not calls:
        threading.Event().wait(0.01)
    threading.Event().wait(0.2)  # the others come meanwhile
    release.set()
    for asker in askers:
        asker.join(5)
    assert answers == ["page"] * 4
    assert len(calls) == 1 and (views.gathered, views.answered) == (1, 3)


def test_a_gathering_that_fails_is_not_kept():
    views = ViewCache()

    def refused():
        raise LookupError("no table 9")

    with pytest.raises(LookupError):
        views.view(len, ("9",), "en", "m", refused)
    assert views.view(len, ("9",), "en", "m", lambda: "table 9 now") == "table 9 now"


def test_only_the_marked_views_are_kept():
    from mighty_cli.web import entry_api, entry_form, reads

    @per_change
    def shown(s, league):
        return None

    assert change_scope(shown) is not None and change_scope(None) is None
    assert all(
        change_scope(view) is not None
        for view in (
            reads.board_view,
            reads.api_round,
            reads.table_view,
            entry_form.table_and_entry,
        )
    )
    # an entry's judgment and the director's page are always read afresh
    assert not any(
        change_scope(view) is not None
        for view in (entry_api.entry_target, entry_api._judge_past, reads.director_view)
    )


def test_the_round_is_answered_from_the_cache_until_a_hand_is_recorded(app, client, cup):
    views = app.state.served.views
    first = client.get("/api/round").json()
    assert client.get("/api/round").json() == first
    assert views.answered >= 1
    gathered = views.gathered
    record_at(cup, 2)  # another process's keeper: the marker moves
    after = client.get("/api/round").json()
    assert [t["hands"] for t in after["tables"]] == [1, 1]
    assert views.gathered == gathered + 1


def test_a_tables_page_shows_its_own_entry_at_once(client, cup):
    players = client.get("/api/round").json()["tables"][1]["players"]
    before = client.get("/tables/2").text
    answer = client.post(
        "/api/tables/2/hands",
        json={
            "code": code_of(cup, 2),
            "hand": 1,
            "declarer": players[0],
            "contract": "14S",
            "friend": players[1],
            "taken": 15,
        },
    )
    assert answer.status_code == 201, answer.text
    after = client.get("/tables/2").text
    assert after != before
    assert 'data-hand="2"' in after and 'data-hand="2"' not in before
    listed = json.loads(mighty("hand", "list", "-l", "cup", "--json", db=cup))
    assert [(h["table"], h["contract"]) for h in listed["hands"] if h["table"] == 2] == [(2, "14S")]


def test_a_card_played_at_another_table_leaves_a_tables_page_kept(app, client, cup):
    """A referee's hand in progress at table 1 (rewritten after every card) moves the league's
    marker, so every page is told; table 2's page is answered as it was, table 1's is gathered
    again and shows its hand in progress."""
    from serving import round_json

    from mighty_cli.store.db import make_engine, transaction
    from mighty_cli.store.ledger.table_entry import keep_live_hand, new_token, take_live_hand

    views = app.state.served.views
    assert "a hand in progress" not in client.get("/tables/1").text
    client.get("/tables/2")
    gathered = views.gathered
    session = round_json(cup)["tables"][0]["session"]
    engine = make_engine(cup)
    try:
        with transaction(engine) as s:
            claim, _record = take_live_hand(s, "cup", session, new_token())
            keep_live_hand(s, "cup", session, 'players = ["x"]\n', claim)
    finally:
        engine.dispose()
    client.get("/tables/2")
    assert views.gathered == gathered  # table 2: kept
    assert "a hand in progress" in client.get("/tables/1").text
    assert views.gathered == gathered + 1  # table 1: gathered again
