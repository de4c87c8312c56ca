"""The entry of hands from the tables' phones in a real Chromium (390×844, Korean): a hand entered
on a table's page shows on the board without a reload; two pages entering one hand, the second
told and shown the stored hand; a field checked as it is filled with ``record``'s line; what was
typed kept on the phone while the network is down and sent when it is back; and issue 37's
night: a 20-player round of four tables played from four table pages, the board open on a
projector, the director seating someone mid-round."""

from __future__ import annotations

import json
import re

import pytest
from serving import KEY, code_of, make_app, mighty, round_json, running

pytestmark = pytest.mark.serial

TWENTY = [
    "강민",
    "김하늘",
    "박서준",
    "이서연",
    "최지우",
    "정우성",
    "한지민",
    "윤아",
    "조인성",
    "송혜교",
    "Ana",
    "Bo",
    "Cy",
    "Di",
    "Ed",
    "Fay",
    "Gil",
    "Hu",
    "Ida",
    "Jo",
]


@pytest.fixture
def korean(cup, tmp_path):
    mighty("league", "set", "cup", "--lang", "ko", db=cup)
    with running(make_app(cup, tmp_path / "served")) as address:
        yield address


def phone_at(browser, address: str, table: int, db: str):
    """A phone of its own (a browser context: its own cookies and storage) holding the table's
    code, on the table's page."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="ko-KR", is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.goto(f"{address}/tables/{table}?code={code_of(db, table)}")
    assert "done=code" in page.url
    return page


def players_offered(page) -> list[str]:
    return page.eval_on_selector_all(
        "#entry-form select[name=declarer] option",
        "found => found.map(o => o.value).filter(Boolean)",
    )


def fill(page, declarer: str, contract: str, friend: str, taken: int) -> None:
    form = page.locator("#entry-form")
    form.locator("select[name=declarer]").select_option(declarer)
    form.locator("input[name=contract]").fill(contract)
    form.locator("select[name=friend]").select_option(friend)
    form.locator("input[name=taken]").fill(str(taken))


def send(page) -> None:
    page.locator("#entry-form button.send").click()


def stored_hand(page, number: int, taken: int = 16) -> None:
    """Enter the table's next hand (its first player declares 15D with the second) and see it
    stored."""
    players = players_offered(page)
    assert page.locator("#entry-form input[name=hand]").input_value() == str(number)
    fill(page, players[0], "15D", players[1], taken)
    send(page)
    page.wait_for_url(re.compile(r"done=entered"))
    page.locator(".notice", has_text="판을 저장했습니다").wait_for()


def board_says(page, table: int, text: str, timeout: int = 2000) -> None:
    """Wait (at most ``timeout`` ms) until the board's card of ``table`` holds ``text``
    (shown or not: a projector pages through its parts)."""
    page.wait_for_function(
        "([id, text]) => { const card = document.getElementById(id); "
        "return card && card.textContent.includes(text); }",
        arg=[f"table-{table}", text],
        timeout=timeout,
    )


def test_a_hand_entered_on_a_tables_page_shows_on_the_board_without_a_reload(
    korean, browser, phone, cup
):
    phone.goto(korean + "/")
    phone.evaluate("window.kept = 'this page'")
    phone.wait_for_timeout(300)  # the live events connected
    table = phone_at(browser, korean, 2, cup)
    assert table.locator("#entry h2").inner_text() == "1판 입력"
    stored_hand(table, 1)
    board_says(phone, 2, "1판")
    assert phone.evaluate("window.kept") == "this page"  # the same page: not reloaded
    assert [
        (h["table"], h["table_hand"])
        for h in json.loads(mighty("hand", "list", "-l", "cup", "--json", db=cup))["hands"]
    ] == [(1, 1), (2, 1)]


def test_two_pages_entering_one_hand_the_second_is_shown_the_stored_hand(korean, browser, cup):
    first, second = phone_at(browser, korean, 2, cup), phone_at(browser, korean, 2, cup)
    players = players_offered(second)
    fill(second, players[2], "14S", players[3], 14)  # typed, not sent yet
    stored_hand(first, 1)
    send(second)
    problem = second.locator(".problem")
    problem.wait_for()
    assert "2번 테이블" in problem.inner_text() or "table 2" in problem.inner_text()
    conflict = second.locator("#conflict")
    assert conflict.inner_text().startswith("저장된 1판:") and players[0] in conflict.inner_text()
    assert second.locator("#entry-form input[name=hand]").input_value() == "1"
    assert second.locator("#entry-form button[name=next]").inner_text() == "2판으로 저장 (다른 판)"
    assert second.locator("#entry-form input[name=contract]").input_value() == "14S"  # kept
    assert len(json.loads(mighty("hand", "list", "-l", "cup", "--json", db=cup))["hands"]) == 2


def test_a_field_is_checked_as_it_is_filled_with_records_line(korean, browser, cup):
    page = phone_at(browser, korean, 2, cup)
    page.locator("#entry-form input[name=contract]").fill("99Q")
    page.locator("#entry-form input[name=taken]").focus()  # the contract's change
    note = page.locator('[data-note-for="contract"].bad')
    note.wait_for()
    assert "99Q" in note.inner_text()
    page.locator("#entry-form input[name=contract]").fill("스페이드 14")
    page.locator("#entry-form input[name=taken]").focus()
    page.locator('[data-note-for="contract"]', has_text="14S").wait_for()


def test_what_was_typed_is_kept_while_the_network_is_down(korean, browser, cup):
    page = phone_at(browser, korean, 2, cup)
    players = players_offered(page)
    fill(page, players[0], "15D", players[1], 17)
    page.context.set_offline(True)
    send(page)
    page.locator(".entry-status.problem", has_text="네트워크").wait_for()
    assert len(json.loads(mighty("hand", "list", "-l", "cup", "--json", db=cup))["hands"]) == 1
    page.context.set_offline(False)
    page.goto(korean + "/tables/2")  # the phone opened the page again: what was typed is back
    assert page.locator("#entry-form input[name=taken]").input_value() == "17"
    assert page.locator("#entry-form select[name=declarer]").input_value() == players[0]
    send(page)
    page.wait_for_url(re.compile(r"done=entered"))
    hands = json.loads(mighty("hand", "list", "-l", "cup", "--json", db=cup))["hands"]
    assert (hands[-1]["table"], hands[-1]["taken"]) == (2, 17)


def test_a_round_of_twenty_at_four_tables_played_from_the_phones(browser, tmp_path):
    """Issue 37's night: 20 players at four tables, one phone per table entering every hand,
    the board open on a projector, the director seating a newcomer at table 2 mid-round; the
    board follows each hand without a reload and the store holds every hand once."""
    db = f"sqlite:///{tmp_path / 'night.db'}"
    mighty("league", "create", "cup", "--ruleset", "standard", db=db)
    mighty("league", "set", "cup", "--lang", "ko", db=db)
    mighty("round", "start", "-l", "cup", "--players", ",".join(TWENTY), db=db)
    with running(make_app(db, tmp_path / "served")) as address:
        wall = browser.new_context(viewport={"width": 1280, "height": 720}, locale="ko-KR")
        board = wall.new_page()
        board.goto(address + "/projector")
        board.evaluate("window.kept = 'the projector'")
        phones = {table: phone_at(browser, address, table, db) for table in (1, 2, 3, 4)}
        for hand in (1, 2, 3):
            for table, page in phones.items():
                stored_hand(page, hand, taken=13 + hand + table % 2)
                board_says(board, table, f"{hand}판")
            if hand == 1:  # the director seats a newcomer at table 2 from his own phone
                leaving = round_json(db)["tables"][1]["players"][2]
                director = browser.new_context(
                    viewport={"width": 390, "height": 844}, locale="ko-KR"
                ).new_page()
                director.goto(f"{address}/director?key={KEY}")
                form = director.locator("#seat-form")
                form.locator("select[name=table]").select_option("2")
                form.locator("input[name=leave]").fill(leaving)
                form.locator("input[name=join]").fill("Mallory")
                form.locator("button[type=submit]").click()
                director.wait_for_selector(".notice")
                director.context.close()
                board_says(board, 2, "Mallory")
                page = phones[2]  # the table's page follows: its next hand's players
                page.wait_for_function(
                    "() => [...document.querySelectorAll('#entry-form select[name=declarer] "
                    "option')].some(o => o.value === 'Mallory')",
                    timeout=5000,
                )
                assert leaving not in players_offered(page)
        assert board.evaluate("window.kept") == "the projector"
        shown = round_json(db)["tables"]
        assert [t["hands"] for t in shown] == [3, 3, 3, 3]
        assert "Mallory" in shown[1]["players"]
        hands = json.loads(mighty("hand", "list", "-l", "cup", "--json", db=db))["hands"]
        assert sorted((h["table"], h["table_hand"]) for h in hands) == [
            (table, hand) for table in (1, 2, 3, 4) for hand in (1, 2, 3)
        ]
        wall.close()
        for page in phones.values():
            page.context.close()
