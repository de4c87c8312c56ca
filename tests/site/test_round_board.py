"""The projector board of a round (``mighty round show --html``, issue 23 item 6): parsed, in
both languages, and seen in headless Chromium at a projector's 1280 px and a phone's width, the
score slips in print emulation (one printed page per table)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from databases import made_once
from mighty_cli.cli import cli
from site_league import Page
from test_site_chromium import CHROMIUM, load

ELEVEN = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gil", "Hu", "Ida", "Jo", "민수"]


def ok(db, *args) -> str:
    result = CliRunner().invoke(cli, [*args, "--db", db])
    assert result.exit_code == 0, result.output
    return result.output


def _make_board(db: str, folder: Path) -> dict:
    import json

    ok(db, "league", "create", "cup", "--ruleset", "standard")
    plan = json.loads(ok(db, "round", "start", "-l", "cup", "-p", ",".join(ELEVEN), "--json"))
    for table in plan["tables"]:
        players = json.loads(
            ok(db, "session", "show", "-l", "cup", "--session", str(table["session"]), "--json")
        )["next"]["players"]
        ok(
            db,
            "record",
            "-l",
            "cup",
            "--table",
            str(table["table"]),
            "-d",
            players[1],
            "-c",
            "14S",
            "-f",
            players[2],
            "-t",
            "16",
        )
    ok(db, "round", "show", "-l", "cup", "--html", str(folder / "board.html"))
    return plan


@pytest.fixture
def board(tmp_path):
    """An eleven-player round at two tables with a hand at each, and its board (made once per
    session, then copied)."""
    db, plan = made_once(
        "sqlite", tmp_path, "round-board", lambda url: _make_board(url, tmp_path), "board.db"
    )
    return db, plan, tmp_path / "board.html"


def test_the_board_shows_tables_seats_and_the_round_standings(board):
    db, plan, path = board
    page = Page(path.read_text(encoding="utf-8"))
    refresh = [
        attrs for tag, attrs in page.tags if tag == "meta" and attrs.get("http-equiv") == "refresh"
    ]
    assert refresh and refresh[0]["content"] == "60"  # reloaded while the round runs
    cards = [
        attrs["id"]
        for tag, attrs in page.tags
        if tag == "div" and "table-card" in attrs.get("class", "")
    ]
    assert cards == ["table-1", "table-2"]
    items = [text.strip() for text in page.texts_in["li"] if text.strip()]
    for table in plan["tables"]:
        assert f"{table['players'][0]} · deals first" in " ".join(items)
    where = [text.strip() for text in page.texts_in["b"] if text.strip()]
    assert where == sorted(ELEVEN, key=str.casefold)  # "where do I sit", by name
    for table in plan["tables"]:
        for seat, name in enumerate(table["players"], start=1):
            assert f"table {table['table']}, seat {seat}" in page.html.split(f"<b>{name}</b>")[1]
    standings = [cells for attrs, cells in page.rows if len(cells) == 5 and cells[0] != "#"]
    assert sorted(cells[1] for cells in standings) == sorted(ELEVEN)
    assert {cells[3] for cells in standings if cells[1] in plan["tables"][1]["players"]} <= {
        "0",
        "1",
    }
    slips = [
        attrs["id"]
        for tag, attrs in page.tags
        if tag == "section" and "slip" in attrs.get("class", "").split()
    ]
    assert slips == ["slip-1", "slip-2"]
    headers = [cells for attrs, cells in page.rows if cells[:2] == ["Hand", "Dealer"]]
    assert [h[6:] for h in headers] == [t["players"] for t in plan["tables"]]


def test_an_ended_round_stops_reloading(board):
    db, plan, path = board
    ok(db, "round", "end", "-l", "cup")
    ok(db, "round", "show", "-l", "cup", "--html", str(path))
    page = Page(path.read_text(encoding="utf-8"))
    assert not [attrs for tag, attrs in page.tags if attrs.get("http-equiv") == "refresh"]


def test_the_board_speaks_the_leagues_language(board):
    db, plan, path = board
    ok(db, "league", "set", "cup", "--lang", "ko")
    ok(db, "round", "show", "-l", "cup", "--html", str(path))
    page = Page(path.read_text(encoding="utf-8"))
    headings = [text.strip() for text in page.texts_in["h2"]]
    assert "어디에 앉나요?" in headings and "테이블" in headings
    assert any(tag == "html" and attrs.get("lang") == "ko" for tag, attrs in page.tags)


def test_round_show_refuses_json_with_html(board):
    db, plan, path = board
    result = CliRunner().invoke(
        cli, ["round", "show", "-l", "cup", "--json", "--html", str(path), "--db", db]
    )
    assert result.exit_code == 2 and "give --json or --html, not both" in result.output


@pytest.mark.chromium
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium is not installed")
@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)], ids=["projector", "phone"])
def test_the_board_in_headless_chromium(chromium, board, width, height):
    """Nothing wider than the window, no console error, at a projector's and a phone's width
    (the page's own reload is taken out for the measurement)."""
    db, plan, path = board
    still = path.with_name("still.html")
    still.write_text(
        re.sub(r'<meta http-equiv="refresh"[^>]*>', "", path.read_text(encoding="utf-8")),
        encoding="utf-8",
    )
    probe, log = load(chromium, still, width, height)
    assert probe["errors"] == []
    assert probe["wide"] == [] and probe["scrollWidth"] <= probe["width"]


@pytest.mark.chromium
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium is not installed")
def test_the_score_slips_print_one_page_per_table(chromium, board):
    """Printed (print emulation: Chromium's print to PDF, without header and footer), the
    board is left out and each table's slip takes a page of its own."""
    db, plan, path = board
    with chromium.open(path.as_uri()) as tab:
        pdf = tab.pdf()
    pages = re.findall(rb"/Type\s*/Page[^s]", pdf)
    assert len(pages) == len(plan["tables"])


@pytest.mark.serial  # the browser, when there is one
def test_the_site_index_shows_the_latest_rounds_tables(board, tmp_path, request):
    """A league of rounds: the site's index lists the latest round's tables (each linked to its
    session's page), not one session of the round; seen in Chromium at a phone's width."""
    db, plan, path = board
    out = tmp_path / "site"
    ok(db, "site", "-l", "cup", "--output", str(out))
    page = Page((out / "index.html").read_text(encoding="utf-8"))
    sections = [attrs.get("id") for tag, attrs in page.tags if tag == "section"]
    assert "latest-round" in sections and "latest-session" not in sections
    rows = [cells for attrs, cells in page.rows if len(cells) == 5 and cells[0] != "Table"]
    assert [(int(r[0]), r[1], r[2]) for r in rows] == [
        (t["table"], f"Session {t['session']}", ", ".join(t["players"])) for t in plan["tables"]
    ]
    links = [attrs["href"] for tag, attrs in page.tags if tag == "a"]
    assert all(f"sessions/{t['session']}.html" in links for t in plan["tables"])
    if Path(CHROMIUM).exists():
        probe, _log = load(request.getfixturevalue("chromium"), out / "index.html", 390, 844)
        assert probe["errors"] == [] and probe["wide"] == []


def test_a_players_page_lists_the_rounds_and_opponents_met(board, tmp_path):
    db, plan, path = board
    out = tmp_path / "site"
    ok(db, "site", "-l", "cup", "--output", str(out))
    table = plan["tables"][1]
    name = table["players"][0]
    page = next(
        Page(f.read_text(encoding="utf-8"))
        for f in (out / "players").glob("*.html")
        if f"<h1>{name}" in f.read_text(encoding="utf-8")
    )
    assert "rounds" in [attrs.get("id") for tag, attrs in page.tags if tag == "section"]
    rows = [cells for attrs, cells in page.rows if len(cells) == 5 and cells[0] == "1"]
    assert rows and rows[0][1] == str(table["table"])
    assert rows[0][2] == ", ".join(p for p in table["players"] if p != name)


def test_a_duplicate_rounds_board_shows_matchpoints_and_each_deals_dealer(tmp_path):
    """Two tables of five on the same cards: the board ranks the matchpoints (the better
    result on each seat takes the point) and each slip names every deal's dealer, who is the
    round's: deal k from seat k."""
    import json

    db = f"sqlite:///{tmp_path / 'duplicate.db'}"
    ok(db, "league", "create", "cup", "--ruleset", "standard")
    plan = json.loads(
        ok(
            db,
            "round",
            "start",
            "-l",
            "cup",
            "-p",
            ",".join(ELEVEN[:10]),
            "--duplicate",
            "--seed",
            "5",
            "--json",
        )
    )
    for table, taken in zip(plan["tables"], (16, 11)):
        seats = table["players"]
        ok(
            db,
            "record",
            "-l",
            "cup",
            "--table",
            str(table["table"]),
            "-d",
            seats[2],
            "-c",
            "14S",
            "-f",
            "none",
            "-t",
            str(taken),
        )
    path = tmp_path / "board.html"
    ok(db, "round", "show", "-l", "cup", "--html", str(path))
    page = Page(path.read_text(encoding="utf-8"))
    rows = [
        cells
        for attrs, cells in page.rows
        if len(cells) == 6 and cells[0] != "#" and cells[0] not in ("Hand",)
    ]
    assert len(rows) == 10
    made, failed = plan["tables"][0]["players"], plan["tables"][1]["players"]
    by_player = {cells[1]: cells[2:] for cells in rows}
    for seat in range(5):  # one comparison per seat: the made contract's side wins it
        ruling = seat == 2  # the declarer, alone (no friend called)
        winner, loser = (made, failed) if ruling else (failed, made)
        assert by_player[winner[seat]] == ["1", "1", "100.0", "1"]
        assert by_player[loser[seat]] == ["0", "1", "0.0", "1"]
    for table in plan["tables"]:
        slip = page.html.split(f'id="slip-{table["table"]}"')[1].split("</table>")[0]
        dealers = re.findall(r'<tr><td class="num">\d+</td><td>([^<]*)</td>', slip)
        assert dealers[:6] == [table["players"][k % 5] for k in range(6)]
