"""The tablet referee's screenshots in the manual (docs/images/tablet-referee-*.png), taken from
a real server in Debian's Chromium (Playwright, executable_path: no browser downloaded).

    python tools/referee_screenshots.py [--chromium /usr/bin/chromium]

A league of one table of five is made in a temporary folder, ``mighty serve``'s application
served on 127.0.0.1 in a thread, and a seeded hand tapped on a phone (390x844) in English and in
Korean, the election, the exchange, the friend call and a trick with a greyed card shown; the
tablet size (768x1024) for the play. Nothing is written outside the temporary folder but the
pictures.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
IMAGES = ROOT / "docs" / "images"


def mighty(*args: str) -> str:
    from click.testing import CliRunner

    from mighty_cli.cli import cli

    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    if result.exit_code:
        raise SystemExit(result.output)
    return result.output


def serve(app):
    import uvicorn

    listening = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return server, thread, f"http://127.0.0.1:{listening.getsockname()[1]}"


def shoot(
    browser, address: str, code: str, lang: str, width: int, height: int, names: dict[str, str]
) -> None:
    """Tap a hand on a page of that size, taking the pictures ``names`` asks for."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        locale="ko-KR" if lang == "ko" else "en-US",
        device_scale_factor=1,
    )
    page = context.new_page()

    def tap(selector: str) -> None:
        with page.expect_navigation():
            page.locator(selector).first.click()

    def picture(key: str) -> None:
        if key in names:
            page.screenshot(path=str(IMAGES / names[key]), full_page=False)

    page.goto(address + "/tables/1/referee")
    page.fill("#start input[name=code]", code)
    page.fill("#start input[name=who]", "민지" if lang == "ko" else "Mina")
    page.fill("#start input[name=seed]", "42")  # the tool deals: the cards are known
    tap("#start button[type=submit]")
    if not page.locator("#prompt").count():
        raise SystemExit(f"{lang}: the start was refused: {page.content()[-3000:]}")
    page.locator("#prompt").scroll_into_view_if_needed()
    picture("election")
    tap("form.election button.suit")
    for _ in range(4):
        tap("form.election button[value=pass]")
    boxes = page.locator("form.exchange input[type=checkbox]")
    for index in range(3):
        boxes.nth(index).check()
    page.locator("#prompt").scroll_into_view_if_needed()
    picture("exchange")
    tap("form.exchange button[value=discard]")
    page.locator("#prompt").scroll_into_view_if_needed()
    picture("friend")
    tap("form.friend .calls button")
    for _ in range(6):
        tap("form.play button.card:not(.greyed)")
    greyed = page.locator("form.play button.card.greyed").first
    if greyed.count():
        greyed.click(force=True)  # its reason, shown by the page's script
    page.locator("#prompt").scroll_into_view_if_needed()
    picture("play")
    context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from mighty_cli.web.app import create_app
    from mighty_cli.web.served import ServeSettings

    IMAGES.mkdir(exist_ok=True)
    shots = [(390, 844, ("election", "exchange", "friend")), (768, 1024, ("play",))]
    with (
        tempfile.TemporaryDirectory(prefix="mighty-shots-") as folder,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(
            executable_path=args.chromium, args=["--no-sandbox", "--disable-gpu"]
        )
        for lang in ("en", "ko"):
            for width, height, keys in shots:
                where = Path(folder) / f"{lang}-{width}"
                where.mkdir()
                db = f"sqlite:///{where / 'league.db'}"
                mighty("league", "create", "cup", "--ruleset", "standard", "--db", db)
                mighty("league", "set", "cup", "--lang", lang, "--db", db)
                mighty("round", "start", "-l", "cup", "--players", "민수,Bo,Cy,Di,Ed", "--db", db)
                code = json.loads(mighty("round", "show", "-l", "cup", "--json", "--db", db))[
                    "tables"
                ][0]["code"]
                app = create_app(
                    ServeSettings("cup", db, "shots-key", lang=lang, folder=str(where / "served"))
                )
                server, thread, address = serve(app)
                try:
                    shoot(
                        browser,
                        address,
                        code,
                        lang,
                        width,
                        height,
                        {
                            key: f"tablet-referee-{key}{'.ko' if lang == 'ko' else ''}.png"
                            for key in keys
                        },
                    )
                finally:
                    app.state.served.stopping.set()
                    server.should_exit = True
                    thread.join(30)
        browser.close()
    print(f"wrote {len(list(IMAGES.glob('tablet-referee-*.png')))} pictures in {IMAGES}")


if __name__ == "__main__":
    main()
