"""The tablet referee in a real Chromium (Playwright driving Debian's chromium): a whole seeded
hand tapped through on a phone in Korean, reloaded mid-trick at the same card; on a tablet in
English, a greyed card says why without asking the server, the short forms typed in the box
are refused or taken as at the terminal, and undo goes back a trick."""

from __future__ import annotations

import re
import sqlite3

import pytest
from serving import make_app, mighty, round_json, running

pytestmark = pytest.mark.serial

FIVE = "Ana,Bo,Cy,Di,Ed"


@pytest.fixture
def table(tmp_path):
    """A league of one table of five; its database and the table's code."""
    from databases import fresh_url

    url = fresh_url("sqlite", tmp_path, "league.db")
    mighty("league", "create", "cup", "--ruleset", "standard", db=url)
    mighty("round", "start", "-l", "cup", "--players", FIVE, db=url)
    return url, round_json(url)["tables"][0]["code"]


def open_page(browser, width: int, height: int, locale: str):
    context = browser.new_context(
        viewport={"width": width, "height": height},
        locale=locale,
        is_mobile=width < 500,
        has_touch=True,
    )
    return context, context.new_page()


def tap(page, selector: str) -> None:
    with page.expect_navigation(wait_until="domcontentloaded"):
        page.locator(selector).first.click()


def start(page, address: str, code: str, seed: str = "42") -> None:
    page.goto(address + "/tables/1")
    with page.expect_navigation():
        page.get_by_role("link", name=re.compile("심판|Referee")).click()
    page.fill("#start input[name=code]", code)
    page.fill("#start input[name=who]", "Mina")
    page.fill("#start input[name=seed]", seed)
    tap(page, "#start button[type=submit]")


def live(db: str) -> str:
    with sqlite3.connect(db.removeprefix("sqlite:///")) as connection:
        row = connection.execute("SELECT record_toml FROM live_hand").fetchone()
    return row[0] if row else ""


def test_a_whole_hand_tapped_on_a_phone_in_korean_and_reloaded_mid_trick(browser, table, tmp_path):
    db, code = table
    mighty("league", "set", "cup", "--lang", "ko", db=db)
    with running(make_app(db, tmp_path / "served")) as address:
        context, page = open_page(browser, 390, 844, "ko-KR")
        start(page, address, code)
        assert page.locator("#prompt").inner_text().startswith("[선거]")
        tap(page, "form.election button.suit")  # the opener bids the lowest spades
        for _ in range(4):
            tap(page, "form.election button[value=pass]")
        boxes = page.locator("form.exchange input[type=checkbox]")
        for index in range(3):
            boxes.nth(index).check()
        tap(page, "form.exchange button[value=discard]")
        tap(page, "form.friend .calls button")
        reloaded = False
        for _ in range(50):
            if not page.locator("form.play").count():
                break
            if page.locator("#prompt").inner_text().startswith("[2턴, ") and not reloaded:
                prompt, kept = page.locator("#prompt").inner_text(), live(db)
                with page.expect_request(lambda sent: sent.url.endswith("/referee")) as sent:
                    page.reload()
                assert sent.value.method == "GET"  # the page asked again, the tap not resent
                assert page.locator("#prompt").inner_text() == prompt  # the same card
                assert live(db) == kept and page.url.endswith("/tables/1/referee")
                reloaded = True
            tap(page, "form.play button.card:not(.greyed)")
        said = page.locator("#said").inner_text()
        assert reloaded and "1번 테이블" in page.locator("h1").inner_text()
        assert "[선거]" in page.locator("#prompt").inner_text()  # the next hand
        assert round_json(db)["tables"][0]["hands"] == 1 and said
        context.close()


def test_a_tablet_in_english_greys_a_card_with_its_reason_and_takes_the_short_forms(
    browser, table, tmp_path
):
    db, code = table
    with running(make_app(db, tmp_path / "served")) as address:
        context, page = open_page(browser, 768, 1024, "en-US")
        start(page, address, code)
        for line in ("13s", "pass", "pass", "pass", "pass"):
            page.fill("form.typed input[name=text]", line)
            tap(page, "form.typed button")
        boxes = page.locator("form.exchange input[type=checkbox]")
        for index in range(3):
            boxes.nth(index).check()
        tap(page, "form.exchange button[value=discard]")
        tap(page, "form.friend .calls button")
        tap(page, "form.play button.card:not(.greyed)")  # the lead of trick 1
        greyed = page.locator("form.play button.card.greyed").first
        reason = greyed.get_attribute("data-reason")
        requests = []
        page.on("request", lambda request: requests.append(request.url))
        greyed.click(force=True)  # aria-disabled: a tap still reaches it
        assert page.locator("#reason").inner_text() == reason and not requests
        card = greyed.get_attribute("value")
        page.fill("form.typed input[name=text]", card)
        with page.expect_response(lambda answer: answer.request.method == "POST") as sent:
            page.locator("form.typed button").click()
        assert sent.value.status == 422
        assert page.locator("#said li.bad").inner_text() == "✗ " + reason
        for _ in range(5):
            tap(page, "form.play button.card:not(.greyed)")  # trick 1 ends, trick 2 led
        assert page.locator("#prompt").inner_text().startswith("[trick 2, ")
        tap(page, "button[value='undo trick']")
        assert page.locator("#prompt").inner_text().startswith("[trick 2] ")
        page.select_option("select[name=line]", "undo to 1")
        tap(page, "form.entry:has(select[name=line]) button")
        assert page.locator("#prompt").inner_text().startswith("[trick 1] ")
        context.close()
