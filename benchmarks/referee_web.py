"""The tablet referee against a real server: taps per hand, and the time from a tap to the
next prompt.

    python benchmarks/referee_web.py [--hands 4] [--db URL] [--ruleset standard] [--seed 42]

Makes a league of one table (a SQLite file in a temporary folder, or the PostgreSQL database
``--db`` names, emptied first: give one of its own), starts ``mighty serve --port 0`` in a
process of its own (uvicorn on 127.0.0.1), and referees ``--hands`` seeded hands on
``/tables/1/referee`` as a tablet does: one keep-alive connection, its cookies, each tap the
form a button of the page sends (the opener bids the lowest spades, the others pass; the
declarer discards the first cards offered and calls the first friend offered; each player
plays a card the page offers). A tap is timed from the request sent to the next prompt read
in full (the page the POST answers).

Prints, per hand and in all (and the server's CPU time per tap, which the load of a shared
machine does not inflate): the taps for the election, for the exchange and the friend call,
for the cards; and the taps' p50, p99 and slowest times. Goals (issue 39): one tap per card
plus at most a dozen for the election, the exchange and the call; p99 under 100 ms on the
2-core machine. On a shared machine the times grow with the load average (printed before and
after).
"""

from __future__ import annotations

import argparse
import html
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PLAYERS = "Ana,Bo,Cy,Di,Ed,Fay,Gil,Hu"


def mighty(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "mighty_cli", *args], check=True, capture_output=True, text=True
    )
    return done.stdout


class Tablet:
    """One tablet: a keep-alive connection and its cookies."""

    def __init__(self, host: str, port: int) -> None:
        self.connection = http.client.HTTPConnection(host, port, timeout=30)
        self.cookies: dict[str, str] = {}
        self.times: list[float] = []

    def request(self, method: str, path: str, fields: dict | None = None) -> tuple[int, str]:
        body = urlencode(fields) if fields is not None else None
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        started = time.perf_counter()
        self.connection.request(method, path, body=body, headers=headers)
        answer = self.connection.getresponse()
        text = answer.read().decode("utf-8")
        elapsed = time.perf_counter() - started
        for name, value in answer.getheaders():
            if name.lower() == "set-cookie":
                key, _eq, rest = value.partition("=")
                self.cookies[key] = rest.split(";")[0]
        if answer.status in (302, 303):
            return self.request("GET", answer.getheader("location"))
        if method == "POST" and not path.endswith("/start"):
            self.times.append(elapsed)
        return answer.status, text


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system; Linux's /proc), its children's too."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def form_of(page: str, kind: str) -> str | None:
    found = re.search(
        r'<form method="post" action="[^"]*" class="entry ' + kind + r'">(.*?)</form>', page, re.S
    )
    return found.group(1) if found else None


def at_of(page: str) -> str:
    return re.search(r'name="at" value="([^"]*)"', page).group(1)


def next_tap(page: str) -> tuple[str, dict]:
    """What the tablet taps next on this page: the phase, and the form's fields."""
    election = form_of(page, "election")
    if election is not None:
        suits = re.findall(r'name="suit" value="(\w+)"', election)
        if "1" not in next_tap.opened:  # the opener bids, everyone else passes
            next_tap.opened.add("1")
            number = re.search(r"<option selected>(\d+)</option>", election).group(1)
            return "election", {"number": number, "suit": suits[0]}
        return "election", {"line": "pass"}
    elimination = form_of(page, "elimination")
    if elimination is not None:  # 6마, 7마: the cards (or players) offered, in turn
        lines = re.findall(r'name="line" value="([^"]*)"', elimination)
        next_tap.calls += 1  # type: ignore[attr-defined]
        line = html.unescape(lines[next_tap.calls * 7 % len(lines)])  # type: ignore
        holders = re.findall(r"<option(?: value=\"[^\"]*\")?>([^<]*)</option>", elimination)
        return "elimination", {"line": line, **({"holder": holders[1]} if holders else {})}
    exchange = form_of(page, "exchange")
    if exchange is not None:
        count = int(re.search(r"(\d+)", exchange.split('<p class="sub">')[1]).group(1))
        boxes = re.findall(r'name="(d_[^"]+)"', exchange)[:count]
        return "exchange", {"line": "discard", **dict.fromkeys(boxes, "1")}
    friend = form_of(page, "friend")
    if friend is not None:
        boxes = re.findall(r'name="(c_[^"]+)"', friend)
        if boxes:
            return "call", {"line": "call2", **dict.fromkeys(boxes[:2], "1")}
        return "call", {
            "line": html.unescape(re.search(r'name="line" value="([^"]*)"', friend).group(1))
        }
    play = form_of(page, "play")
    if play is not None:
        cards = re.findall(r'name="line" value="([^"]*)" class="card (?!greyed)', play)
        return "card", {"line": html.unescape(cards[0])}
    if 'value="deal"' in page:
        return "exchange", {"line": "deal"}
    raise SystemExit("the page asks for nothing the tablet knows: " + page[-2000:])


next_tap.opened = set()  # type: ignore[attr-defined]
next_tap.calls = 0  # type: ignore[attr-defined]


def referee_hand(tablet: Tablet, page: str) -> tuple[dict, str]:
    """Tap through one hand; the taps by kind, and the page of the next hand."""
    taps = {"election": 0, "elimination": 0, "exchange": 0, "call": 0, "card": 0}
    next_tap.opened.clear()  # type: ignore[attr-defined]
    while True:
        kind, fields = next_tap(page)
        status, page = tablet.request("POST", "/tables/1/referee", {"at": at_of(page), **fields})
        if status != 200:
            raise SystemExit(f"a tap was refused ({status}): {fields}\n{page[-1500:]}")
        taps[kind] += 1
        if "saved to league" in page:
            return taps, page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--db", default=None, help="a PostgreSQL URL of the benchmark's own")
    parser.add_argument("--ruleset", default="standard")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    from mighty_cli.engine.ruleset import load_ruleset

    seats = load_ruleset(args.ruleset).table.players
    folder = Path(tempfile.mkdtemp(prefix="mighty-referee-bench-"))
    db = args.db or f"sqlite:///{folder / 'league.db'}"
    if args.db:
        from sqlalchemy import create_engine, text

        with create_engine(args.db).begin() as connection:
            connection.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    mighty("league", "create", "bench", "--ruleset", args.ruleset, "--db", db)
    mighty(
        "round",
        "start",
        "-l",
        "bench",
        "--players",
        ",".join(PLAYERS.split(",")[:seats]),
        "--db",
        db,
    )
    code = json.loads(mighty("round", "show", "-l", "bench", "--json", "--db", db))["tables"][0][
        "code"
    ]
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mighty_cli",
            "serve",
            "--league",
            "bench",
            "--port",
            "0",
            "--db",
            db,
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=folder,
        env={**os.environ, "MIGHTY_LANG": "en"},
    )
    try:
        first = server.stdout.readline()  # type: ignore[union-attr]
        address = re.search(r"http://127\.0\.0\.1:(\d+)", first)
        if address is None:
            raise SystemExit(f"the server said: {first!r}")
        print(
            f"load average before: {os.getloadavg()[0]:.2f} "
            f"({os.cpu_count()} cores); {args.ruleset}, "
            f"{'PostgreSQL' if args.db else 'SQLite'}"
        )
        tablet = Tablet("127.0.0.1", int(address.group(1)))
        status, page = tablet.request(
            "POST",
            "/tables/1/referee/start",
            {"code": code, "who": "bench", "seed": str(args.seed)},
        )
        assert status == 200, page[-500:]
        totals = {"election": 0, "elimination": 0, "exchange": 0, "call": 0, "card": 0}
        cpu_before = cpu_seconds(server.pid)
        for number in range(1, args.hands + 1):
            taps, page = referee_hand(tablet, page)
            other = sum(taps.values()) - taps["card"]
            print(
                f"hand {number}: {taps['card']} taps for the cards, {other} for the rest "
                f"(election {taps['election']}, elimination {taps['elimination']}, "
                f"exchange {taps['exchange']}, call {taps['call']})"
            )
            for key in totals:
                totals[key] += taps[key]
        cpu = cpu_seconds(server.pid) - cpu_before
        times = sorted(tablet.times)
        p99 = times[min(len(times) - 1, int(round(0.99 * (len(times) - 1))))]
        other = sum(totals.values()) - totals["card"]
        print(
            f"taps per hand: {totals['card'] / args.hands:.1f} for the cards + "
            f"{other / args.hands:.1f} for the election, elimination, exchange and call "
            f"(goal: one per card + at most 12)"
        )
        print(
            f"tap to next prompt over {len(times)} taps: p50 "
            f"{statistics.median(times) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, slowest "
            f"{times[-1] * 1000:.1f} ms (goal: p99 under 100 ms)"
        )
        print(
            f"the server's CPU time per tap: {cpu / len(times) * 1000:.1f} ms (what a tap "
            f"costs a machine to itself)"
        )
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    main()
