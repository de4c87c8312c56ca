"""mighty serve in a real Chromium at a phone's size (390×844), in Korean: the board shows a
hand stored at a keeper's terminal without being reloaded, the director seats someone
mid-round from his page and the board shows it, and a wrong entry code is refused on the
table's page."""

from __future__ import annotations

import re

import pytest
from serving import KEY, code_of, make_app, mighty, record_at, round_json, running

pytestmark = pytest.mark.serial


@pytest.fixture
def korean(cup, tmp_path):
    mighty("league", "set", "cup", "--lang", "ko", db=cup)
    with running(make_app(cup, tmp_path / "served")) as address:
        yield address


def test_the_board_shows_a_hand_without_a_reload(korean, phone, cup):
    phone.goto(korean + "/")
    assert phone.locator("html").get_attribute("lang") == "ko"
    card = phone.locator("#table-2 .state")
    assert card.inner_text().startswith("0판")
    phone.evaluate("window.kept = 'this page'")
    phone.wait_for_timeout(300)  # the live events connected
    record_at(cup, 2)
    phone.locator("#table-2 .state", has_text=re.compile("^1판")).wait_for(timeout=2000)
    assert phone.evaluate("window.kept") == "this page"  # the same page: not reloaded


def test_the_director_seats_someone_mid_round_and_the_board_shows_it(korean, browser, phone, cup):
    phone.goto(korean + "/")
    leaving = round_json(cup)["tables"][0]["players"][1]
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ko-KR")
    director = context.new_page()
    director.goto(f"{korean}/director?key={KEY}")
    assert director.url == korean + "/director"  # the key left the address
    form = director.locator("#seat-form")
    form.locator("select[name=table]").select_option("1")
    form.locator("input[name=leave]").fill(leaving)
    form.locator("input[name=join]").fill("Mallory")
    form.locator("button[type=submit]").click()
    director.wait_for_selector(".notice")
    context.close()
    assert "Mallory" in round_json(cup)["tables"][0]["players"]
    phone.locator("#table-1", has_text="Mallory").wait_for(timeout=2000)
    assert leaving not in phone.locator("#table-1 .seats-list").inner_text()


def test_a_wrong_code_is_refused_on_the_tables_page(korean, phone, cup):
    wrong = "00000" if code_of(cup, 1) != "00000" else "11111"
    phone.goto(korean + "/tables/1")
    form = phone.locator("#code form")
    form.locator("input[name=code]").fill(wrong)
    with phone.expect_response(lambda answer: "/tables/1?code=" in answer.url) as sent:
        form.locator("button[type=submit]").click()
    assert sent.value.status == 403
    problem = phone.locator(".problem")
    assert problem.is_visible() and "1번 테이블" in problem.inner_text()
    assert phone.locator("#code input[name=code]").is_visible()  # asked again
