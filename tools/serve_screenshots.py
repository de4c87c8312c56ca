"""The screenshots of the manual's chapter "A night from the phones" (docs/phones.md and
docs/phones.ko.md), taken from a real ``mighty serve`` in Chromium at a phone's size.

    python tools/serve_screenshots.py [--out docs/images]

A league of twenty at four tables is made in a temporary folder, a few hands entered; the
application is served by uvicorn on 127.0.0.1 (a free port) and Debian's Chromium, driven by
Playwright (``executable_path``: no browser downloaded), takes each picture at 390×844: the
table's page with its entry form (a field checked as it was filled), a conflict (a second
phone entering a hand stored meanwhile), and the board; once in Korean (``phones-*.ko.png``)
and once in English (``phones-*.png``). Nothing is written but the pictures.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PLAYERS = [
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
KEY = "screenshots-director-key"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def mighty(*args: str, db: str) -> str:
    from click.testing import CliRunner

    from mighty_cli.cli import cli

    result = CliRunner().invoke(cli, [*args, "--db", db], catch_exceptions=False)
    if result.exit_code:
        raise SystemExit(f"mighty {' '.join(args)}: {result.output}")
    return result.output


def build(db: str, lang: str) -> dict:
    """The league ``cup`` (in ``lang``), round 1 at four tables, two hands at each but table 1;
    the round as ``round show --json`` gives it."""
    mighty("league", "create", "cup", "--ruleset", "standard", db=db)
    mighty("league", "set", "cup", "--lang", lang, db=db)
    mighty("round", "start", "-l", "cup", "--players", ",".join(PLAYERS), db=db)
    shown = json.loads(mighty("round", "show", "-l", "cup", "--json", db=db))
    for table in shown["tables"][1:]:
        seats = table["players"]
        for hand, (contract, taken) in enumerate((("14S", 15), ("15D", 12)), 1):
            mighty(
                "record",
                "-l",
                "cup",
                "--table",
                str(table["table"]),
                "-d",
                seats[hand],
                "-c",
                contract,
                "-f",
                seats[hand + 2],
                "-t",
                str(taken),
                db=db,
            )
    return json.loads(mighty("round", "show", "-l", "cup", "--json", db=db))


@contextmanager
def serving(db: str, folder: Path):
    import uvicorn

    from mighty_cli.web.app import create_app
    from mighty_cli.web.served import ServeSettings

    app = create_app(ServeSettings("cup", db, KEY, folder=str(folder)))
    listening = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{listening.getsockname()[1]}"
    finally:
        app.state.served.stopping.set()
        server.should_exit = True
        thread.join(30)
        listening.close()


def phone(browser, locale: str):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        locale=locale,
        is_mobile=True,
        has_touch=True,
        device_scale_factor=1,
    )
    return context.new_page()


def pictures(browser, address: str, shown: dict, out: Path, suffix: str, locale: str) -> None:
    table = shown["tables"][0]
    seats, code = table["players"], table["code"]
    page = phone(browser, locale)
    page.goto(f"{address}/tables/1?code={code}")
    form = page.locator("#entry-form")
    form.locator("select[name=declarer]").select_option(seats[1])
    form.locator("input[name=contract]").fill("스페이드 14")
    form.locator("input[name=contract]").blur()
    form.locator("select[name=friend]").select_option(seats[3])
    page.wait_for_selector('[data-note-for="contract"]:has-text("14S")')
    form.locator("input[name=taken]").fill("16")
    form.locator("input[name=taken]").blur()
    page.wait_for_selector('[data-note-for="taken"]:has-text("✓")')
    page.locator("#entry").scroll_into_view_if_needed()
    page.evaluate("document.getElementById('entry').scrollIntoView({block: 'start'})")
    page.screenshot(path=str(out / f"phones-entry{suffix}.png"))
    other = phone(browser, locale)  # a second phone at the table, hand 1 typed otherwise
    other.goto(f"{address}/tables/1?code={code}")
    form2 = other.locator("#entry-form")
    form2.locator("select[name=declarer]").select_option(seats[1])
    form2.locator("input[name=contract]").fill("14S")
    form2.locator("select[name=friend]").select_option(seats[4])
    form2.locator("input[name=taken]").fill("15")
    page.locator("#entry-form button.send").click()  # the first phone stores hand 1
    page.wait_for_url("**done=entered**")
    other.locator("#entry-form button.send").click()
    other.wait_for_selector("#conflict")
    other.evaluate("document.querySelector('#page .problem').scrollIntoView({block: 'start'})")
    other.screenshot(path=str(out / f"phones-conflict{suffix}.png"))
    board = phone(browser, locale)
    board.goto(address + "/")
    board.screenshot(path=str(out / f"phones-board{suffix}.png"))
    for opened in (page, other, board):
        opened.context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory(prefix="mighty-screenshots-") as name,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        for lang, suffix, locale in (("ko", ".ko", "ko-KR"), ("en", "", "en-GB")):
            folder = Path(name) / lang
            folder.mkdir()
            db = f"sqlite:///{folder / 'night.db'}"
            shown = build(db, lang)
            with serving(db, folder / "served") as address:
                pictures(browser, address, shown, out, suffix, locale)
            print(f"{lang}: pictures in {out}")
        browser.close()


if __name__ == "__main__":
    main()
