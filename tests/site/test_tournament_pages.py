"""The tournament on the pages (issue 35 item 8): ``standings --html`` and the site (its index,
its menu and its tournament page) show the tournament table under the ruleset's
``[tournament]`` and the duplicate rounds' matchpoints, overall and round by round, as
``mighty standings`` (and ``--round R``) count them: a credited substitute's round is the
player's he sat in for, one kept apart has his own line; the board (``round show``, text and
``--html``) says who sits in for whom, from which hand. Pages are parsed, in English and
Korean; the site's incremental build stays equal to a full one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from databases import database_params, fresh_url, run
from mighty_cli.cli import cli
from site_league import Page

TEN = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gil", "Hu", "Ida", "Jo"]
PLACE_RULES = (
    'extends = "standard"\n[meta]\nname = "placecup"\ntitle = "Place cup"\n'
    '[tournament]\nscore = "place"\n'
)


def ok(db, *args, lang="en") -> str:
    result = CliRunner().invoke(cli, ["--lang", lang, *args, "--db", db])
    assert result.exit_code == 0, result.output
    return result.output


def start(db, players, *extra) -> list[list[str]]:
    plan = json.loads(
        ok(db, "round", "start", "-l", "cup", "-p", ",".join(players), "--json", *extra)
    )
    return [table["players"] for table in plan["tables"]]


def play_round(db, players, *extra) -> list[list[str]]:
    """A round of two tables, one hand at each: seat 2 declares 14S with seat 3, takes 16."""
    tables = start(db, players, *extra)
    for number, seats in enumerate(tables, start=1):
        ok(
            db,
            "record",
            "-l",
            "cup",
            "--table",
            str(number),
            "-d",
            seats[1],
            "-c",
            "14S",
            "-f",
            seats[2],
            "-t",
            "16",
        )
    return tables


def build(folder: Path, db: str | None = None) -> str:
    """The tournament: round 1 duplicate (seed 7: the ace of spades dealt to the fifth seat on
    deal 1; 14S by the third seat calling it, made with 16 at table 1, failed with 12 at table
    2), round 2 with Zed sitting in for Jo (credited), round 3, open, with Yul sitting in for
    Ida (kept apart). On ``db`` (default: a SQLite file in ``folder``)."""
    db = db or f"sqlite:///{folder / 'cup.db'}"
    rules = folder / "place.toml"
    rules.write_text(PLACE_RULES, encoding="utf-8")
    ok(db, "league", "create", "cup", "--ruleset", str(rules))
    for number, (seats, taken) in enumerate(
        zip(start(db, TEN, "--duplicate", "--seed", "7"), (16, 12)), start=1
    ):
        ok(
            db,
            "record",
            "-l",
            "cup",
            "--table",
            str(number),
            "-d",
            seats[2],
            "-c",
            "14S",
            "-f",
            seats[4],
            "--friend-call",
            "SA",
            "-t",
            str(taken),
        )
    ok(db, "round", "end", "-l", "cup")
    play_round(
        db, [name for name in TEN if name != "Jo"] + ["Zed"], "--substitute", "Zed/Jo", "--credit"
    )
    ok(db, "round", "end", "-l", "cup")
    play_round(db, [name for name in TEN if name != "Ida"] + ["Yul"], "--substitute", "Yul/Ida")
    return db


@pytest.fixture(scope="module")
def cup(tmp_path_factory) -> str:
    return build(tmp_path_factory.mktemp("tournament"))


def section(html: str, opening: str) -> str:
    """The element that begins with ``opening`` (a section or a round's details), to its end."""
    start_at = html.index(opening)
    tag = opening[1:].split()[0]
    return html[start_at : html.index(f"</{tag}>", start_at)]


def table_rows(html: str, cls: str) -> list[list[str]]:
    """The body rows' cell texts of the first table of class ``cls`` in ``html``."""
    first = html.split(f'<table class="{cls}"')[1].split("</table>")[0]
    rows = Page(f"<table{first}</table>").rows
    return [[cell.strip() for cell in cells] for _attrs, cells in rows[1:]]


def tournament_cells(data: dict) -> list[list[str]]:
    """``standings --json``'s tournament as the page's cells: rank, name, tournament score,
    raw score, hands, per hand, place points, rounds."""
    return [
        [
            str(row["rank"]),
            row["name"],
            f"{row['score']:g}",
            f"{row['raw']:+d}" if row["raw"] else "0",
            str(row["hands"]),
            f"{row['per_hand']:+.2f}",
            f"{row['place']:g}",
            str(row["rounds"]),
        ]
        for row in data["tournament"]["players"]
    ]


def matchpoint_cells(rows: list[dict]) -> list[list[str]]:
    """Matchpoints as the page's cells (the place as the text output numbers it)."""
    from mighty_cli.tournament.matchpoints import MatchpointRow, places

    as_rows = [MatchpointRow(r["player"], r["matchpoints"], r["top"], r["deals"]) for r in rows]
    return [
        [
            str(place) if place is not None else "–",
            r.player,
            f"{r.matchpoints:g}",
            str(r.top),
            f"{r.percent:.1f}" if r.percent is not None else "–",
            str(r.deals),
        ]
        for place, r in zip(places(as_rows), as_rows)
    ]


@pytest.mark.parametrize("kind", database_params())
def test_the_tournament_view_is_what_standings_prints_on_every_database(request, tmp_path, kind):
    from mighty_cli.store.db import make_engine
    from mighty_cli.store.ledger.lookups import get_league
    from mighty_cli.store.rounds.tournament_view import tournament_view

    db = (
        request.getfixturevalue("cup")
        if kind == "sqlite"
        else build(tmp_path, fresh_url(kind, tmp_path))
    )
    engine = make_engine(db)
    view = run(engine, lambda s: tournament_view(s, get_league(s, "cup")))
    engine.dispose()
    data = json.loads(ok(db, "standings", "-l", "cup", "--json"))
    assert view.score == data["tournament"]["score"] == "place"
    assert [row.to_json() for row in view.rows] == data["tournament"]["players"]
    assert [row.to_json() for _place, row in view.matchpoints] == data["matchpoints"]
    assert [r.number for r in view.rounds] == [3, 2, 1]
    for shown in view.rounds:
        alone = json.loads(ok(db, "standings", "-l", "cup", "--round", str(shown.number), "--json"))
        assert [row.to_json() for row in shown.rows] == alone["tournament"]["players"]
        assert (
            [row.to_json() for _place, row in shown.matchpoints]
            if shown.matchpoints is not None
            else None
        ) == alone.get("matchpoints")
    assert [
        (number, x.player, x.absent, x.from_hand, x.credited) for number, x in view.substitutions
    ] == [(2, "Zed", "Jo", 1, True), (3, "Yul", "Ida", 1, False)]


@pytest.fixture(scope="module")
def standings_pages(cup, tmp_path_factory) -> dict[str, str]:
    """``standings --html`` in English and in Korean."""
    folder = tmp_path_factory.mktemp("standings")
    pages = {}
    for lang in ("en", "ko"):
        path = folder / f"standings-{lang}.html"
        ok(cup, "standings", "-l", "cup", "--html", str(path), lang=lang)
        pages[lang] = path.read_text(encoding="utf-8")
    return pages


@pytest.fixture(scope="module")
def sites(cup, tmp_path_factory) -> dict[str, Path]:
    """The league's site in English and in Korean."""
    folder = tmp_path_factory.mktemp("sites")
    for lang in ("en", "ko"):
        ok(cup, "site", "-l", "cup", "--output", str(folder / lang), "--page-lang", lang)
    return {lang: folder / lang for lang in ("en", "ko")}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_standings_page_shows_the_tournament_table_as_the_text_output_counts_it(
    cup, standings_pages, lang
):
    html = section(standings_pages[lang], '<section id="tournament">')
    expected = tournament_cells(json.loads(ok(cup, "standings", "-l", "cup", "--json")))
    assert table_rows(html, "tournament") == expected
    names = [cells[1] for cells in expected]
    assert "Zed" not in names and "Yul" in names  # credited: Jo's line; kept apart: his own
    rounds = {cells[1]: cells[7] for cells in expected}
    assert rounds["Jo"] == "3"  # round 2 through Zed
    assert (rounds["Ida"], rounds["Yul"]) == ("2", "1")  # round 3 is Yul's own
    heading = Page(html).text("h2").strip()
    assert heading == {"en": "Tournament", "ko": "대회"}[lang]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_standings_page_shows_the_matchpoints_overall_and_of_each_duplicate_round(
    cup, standings_pages, lang
):
    overall = json.loads(ok(cup, "standings", "-l", "cup", "--json"))["matchpoints"]
    html = section(standings_pages[lang], '<section id="tournament">')
    assert table_rows(html, "matchpoints") == matchpoint_cells(overall)
    first = json.loads(ok(cup, "standings", "-l", "cup", "--round", "1", "--json"))
    round_one = section(standings_pages[lang], '<details class="round" id="round-1"')
    assert table_rows(round_one, "matchpoints") == matchpoint_cells(first["matchpoints"])
    assert table_rows(round_one, "tournament") == tournament_cells(first)
    round_two = section(standings_pages[lang], '<details class="round" id="round-2"')
    assert "matchpoints" not in round_two  # not a duplicate round


def test_each_round_shows_its_own_tournament_table_latest_first_and_open(cup, standings_pages):
    html = standings_pages["en"]
    ids = [
        attrs["id"]
        for tag, attrs in Page(html).tags
        if tag == "details" and attrs.get("class") == "round"
    ]
    assert ids == ["round-3", "round-2", "round-1"]
    for number in (2, 3):
        shown = table_rows(
            section(html, f'<details class="round" id="round-{number}"'), "tournament"
        )
        data = json.loads(ok(cup, "standings", "-l", "cup", "--round", str(number), "--json"))
        assert shown == tournament_cells(data), number
    latest = section(html, '<details class="round" id="round-3"')
    assert "open" in latest.split(">")[0] and "in progress" in Page(latest).text("summary")


@pytest.mark.parametrize(
    "lang, credited, kept",
    [
        (
            "en",
            "Round 2: Zed sat in for Jo at table {table} from hand 1; the results count for Jo "
            "in the tournament table.",
            "Round 3: Yul sat in for Ida at table {table} from hand 1; the results are Yul's own, "
            "kept apart from Ida's.",
        ),
        ("ko", "2라운드: Zed", "3라운드: Yul"),
    ],
)
def test_the_pages_say_who_sat_in_for_whom_with_the_credit(
    cup, standings_pages, sites, lang, credited, kept
):
    tables = {
        number: json.loads(ok(cup, "round", "show", "-l", "cup", "--round", str(number), "--json"))[
            "tables"
        ]
        for number in (2, 3)
    }
    table = {name: t["table"] for number in (2, 3) for t in tables[number] for name in t["players"]}
    for html in (
        standings_pages[lang],
        (sites[lang] / "tournament.html").read_text(encoding="utf-8"),
    ):
        items = [
            text.strip()
            for text in Page(section(html, '<section id="tournament">')).texts_in.get("li", [])
            if text.strip()
        ]
        assert items[0].startswith(credited.format(table=table["Zed"])), items
        assert items[1].startswith(kept.format(table=table["Yul"])), items
        if lang == "ko":
            assert (
                "Jo" in items[0] and "대회 순위에서" in items[0] and "대신 앉았습니다" in items[0]
            )
            assert "Ida" in items[1] and "따로 둡니다" in items[1]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_site_has_a_tournament_page_linked_from_the_index_and_the_menu(cup, sites, lang):
    out = sites[lang]
    index = Page((out / "index.html").read_text(encoding="utf-8"))
    assert "tournament.html" in [a.get("href") for a in index.all("a")]
    data = json.loads(ok(cup, "standings", "-l", "cup", "--json"))
    index_html = index.html
    assert table_rows(
        section(index_html, '<section id="tournament">'), "tournament"
    ) == tournament_cells(data)
    player = Page((next((out / "players").iterdir())).read_text(encoding="utf-8"))
    menu = [a.get("href") for tag, a in player.tags if tag == "a"]
    assert "../tournament.html" in menu  # every page's menu leads to it
    page = (out / "tournament.html").read_text(encoding="utf-8")
    assert table_rows(page, "tournament") == tournament_cells(data)
    assert table_rows(
        section(page, '<section id="matchpoints">'), "matchpoints"
    ) == matchpoint_cells(data["matchpoints"])
    links = [a["href"] for a in Page(section(page, '<section id="tournament">')).all("a")]
    assert len([h for h in links if h.startswith("players/")]) == len(data["tournament"]["players"])
    headings = [text.strip() for text in Page(page).texts_in["h2"]]
    assert headings == {"en": ["Matchpoints", "Rounds"], "ko": ["매치포인트", "라운드"]}[lang]


def test_a_league_without_rounds_has_no_tournament_page(site):
    out, _, _ = site
    assert not (out / "tournament.html").exists()
    index = Page((out / "index.html").read_text(encoding="utf-8"))
    assert "tournament.html" not in [a.get("href") for a in index.all("a")]
    assert '<section id="tournament">' not in index.html


def test_the_rounds_are_paged_and_a_page_the_site_no_longer_has_is_removed(
    cup, tmp_path, monkeypatch
):
    from mighty_cli.site import page_files as site_pages

    out = tmp_path / "site"
    monkeypatch.setattr(site_pages, "ROUNDS_PER_PAGE", 1)
    ok(cup, "site", "-l", "cup", "--output", str(out))
    shown = {}
    for name in ("tournament.html", "tournament-2.html", "tournament-3.html"):
        page = Page((out / name).read_text(encoding="utf-8"))
        shown[name] = [
            attrs["id"]
            for tag, attrs in page.tags
            if tag == "details" and attrs.get("class") == "round"
        ]
        sections = [attrs.get("id") for tag, attrs in page.tags if tag == "section"]
        assert ("tournament" in sections) == (name == "tournament.html"), name
        assert "tournament.html" in [a.get("href") for a in page.all("a")]  # the menu, pager
    assert shown == {
        "tournament.html": ["round-3"],
        "tournament-2.html": ["round-2"],
        "tournament-3.html": ["round-1"],
    }
    monkeypatch.setattr(site_pages, "ROUNDS_PER_PAGE", 20)
    ok(cup, "site", "-l", "cup", "--output", str(out))
    assert not (out / "tournament-2.html").exists() and not (out / "tournament-3.html").exists()


def test_a_hand_in_a_round_rewrites_the_tournament_page_as_a_full_build_would(tmp_path):
    """The tournament page and the index are keyed by what they show: a hand recorded at a
    table of the round changes them, and the incremental build equals a full one."""
    from mighty_cli.site.build import build_site
    from mighty_cli.store.db import make_engine
    from test_incremental import WHEN, files

    db = build(tmp_path)
    engine = make_engine(db)
    out, full = tmp_path / "site", tmp_path / "full"

    def site(folder, **options):
        return run(
            engine, build_site, "cup", folder, timezone_name="Asia/Seoul", generated=WHEN, **options
        )

    site(out)
    before = (out / "tournament.html").read_bytes()
    seats = json.loads(ok(db, "round", "show", "-l", "cup", "--json"))["tables"][0]["players"]
    ok(
        db,
        "record",
        "-l",
        "cup",
        "--table",
        "1",
        "-d",
        seats[3],
        "-c",
        "14S",
        "-f",
        seats[4],
        "-t",
        "18",
    )
    report = site(out)
    assert 0 < report.written < report.pages
    assert (out / "tournament.html").read_bytes() != before
    site(full, full=True)
    ours, theirs = files(out), files(full)
    assert sorted(ours) == sorted(theirs)
    assert [name for name in theirs if ours[name] != theirs[name]] == []
    engine.dispose()


def test_the_first_round_of_a_league_gives_it_a_tournament_page(tmp_path):
    db = f"sqlite:///{tmp_path / 'club.db'}"
    ok(db, "league", "create", "cup", "--ruleset", "standard")
    ok(db, "session", "start", "-l", "cup", "-p", ",".join(TEN[:5]))
    out = tmp_path / "site"
    ok(db, "site", "-l", "cup", "--output", str(out))
    assert not (out / "tournament.html").exists()
    ok(db, "session", "end", "-l", "cup")
    play_round(db, TEN)
    ok(db, "site", "-l", "cup", "--output", str(out))
    assert (out / "tournament.html").is_file()
    for path in out.rglob("*.html"):  # every page's menu
        assert "tournament.html" in path.read_text(encoding="utf-8"), path


def test_the_board_says_who_sits_in_for_whom_from_which_hand(cup, tmp_path):
    shown = json.loads(ok(cup, "round", "show", "-l", "cup", "--json"))
    table = next(t["table"] for t in shown["tables"] if "Yul" in t["players"])
    text = ok(cup, "round", "show", "-l", "cup")
    assert (
        f"Yul sits in for Ida at table {table} from hand 1: the results are Yul's own, "
        f"kept apart from Ida's."
    ) in text.splitlines()
    for lang, said in (
        (
            "en",
            "Yul sits in for Ida from hand 1: the results are Yul's own, kept apart from Ida's.",
        ),
        ("ko", "1번째 판부터 Ida 대신 앉습니다"),
    ):
        path = tmp_path / f"board-{lang}.html"
        ok(cup, "round", "show", "-l", "cup", "--html", str(path), lang=lang)
        html = path.read_text(encoding="utf-8")
        card = section(html, f'<div class="table-card playing" id="table-{table}"')
        notes = [
            attrs
            for tag, attrs in Page(card).tags
            if tag == "p" and attrs.get("class") == "substitute"
        ]
        assert len(notes) == 1 and said in Page(card).text("p")
        other = section(html, f'<div class="table-card playing" id="table-{3 - table}"')
        assert 'class="substitute"' not in other


@pytest.mark.chromium
@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_tournament_pages_in_headless_chromium(
    chromium, sites, standings_pages, tmp_path, width, height
):
    """The Korean tournament page and standings page: no error, nothing wider than the
    window but inside a frame that scrolls, each wide table's name column pinned."""
    from test_site_chromium import check_page, load

    standings = tmp_path / "standings.html"
    standings.write_text(standings_pages["ko"], encoding="utf-8")
    for page in (sites["ko"] / "tournament.html", standings):
        probe, log = load(chromium, page, width, height)
        check_page(probe, log, f"{page.name} at {width}px")
