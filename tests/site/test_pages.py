"""The league site's pages, parsed (every page type: index, sessions list, session, player,
statistics, refereed hand), its links, paging, escaping, templates, language and time zone."""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest

from databases import run
from site_league import EVIL, LEAGUE, Page, read


def hrefs(page: Page) -> list[str]:
    return [a["href"] for a in page.all("a") if "href" in a]


def test_every_page_type_is_written(site):
    out, report, _ = site
    for url in ("index.html", "sessions.html", "statistics.html"):
        assert (out / url).is_file()
    assert sorted(p.name for p in (out / "hands").iterdir()) == [
        "31.html",
        "32.html",
        "33.html",
        "34.html",
        "35.html",
    ]
    assert len(list((out / "sessions").iterdir())) == report.sessions
    assert len(list((out / "players").iterdir())) == report.players
    assert report.pages == 3 + 5 + report.sessions + report.players


def test_pages_are_self_contained(site):
    out, _, _ = site
    for path in out.rglob("*.html"):
        page = Page(path.read_text(encoding="utf-8"))
        assert not page.all("script"), path
        assert not page.all("link"), path
        assert all("src" not in a for _, a in page.tags), path
        assert page.all("style"), path
        for href in hrefs(page):
            assert not urlparse(href).scheme and not href.startswith("/"), (path, href)


def test_every_link_leads_to_a_page(site):
    out, _, _ = site
    for path in out.rglob("*.html"):
        for href in hrefs(Page(path.read_text(encoding="utf-8"))):
            target = href.split("#")[0]
            if target:
                assert (path.parent / target).resolve().is_file(), (path, href)


def test_index_has_the_league_table_with_ratings(site):
    out, report, _ = site
    page = read(out, "index.html")
    rows = [cells for attrs, cells in page.rows_of("standings")[1:]]
    assert len(rows) == report.players
    assert all(
        re.fullmatch(r"\d{3,4} ±\d+( \(provisional\))?", cells[5].strip()) for cells in rows
    ), [c[5] for c in rows]
    player_links = [h for h in hrefs(page) if h.startswith("players/")]
    assert len(set(player_links)) == report.players


def test_index_chart_has_axis_titles_end_labels_and_a_legend(site):
    out, report, _ = site
    page = read(out, "index.html")
    assert len(page.all("polyline")) == report.players
    titles = page.texts_in["text"]
    assert "Hand" in titles and "Cumulative score" in titles
    # each name beside the plot (HTML, given the room it needs), in the lines' order, apart
    ends = [a for a in page.all("li") if re.fullmatch(r"s\d+", a.get("class", ""))]
    assert len(ends) == report.players
    tops = sorted(float(re.search(r"top: ([\d.]+)%", a["style"]).group(1)) for a in ends)
    assert all(b - a >= 18 / 320 * 100 - 0.1 for a, b in zip(tops, tops[1:]))
    # ... and in the legend, each entry focusable (it picks its line out), with the rule
    # that does it in the page's style
    legend = [a for a in page.all("li") if re.fullmatch(r"k\d+", a.get("class", ""))]
    assert len(legend) == report.players and all(a["tabindex"] == "0" for a in legend)
    style = page.text("style")
    assert all(
        f".chart:has(.k{i}:is(:hover, :focus)) .s{i}" in style for i in range(report.players)
    )


def test_index_shows_the_latest_session(site):
    out, _, _ = site
    page = read(out, "index.html")
    assert "Session 9" in page.text("h2")
    hand_rows = [attrs for attrs, _ in page.rows_of("hands") if attrs.get("id")]
    assert [r["id"] for r in hand_rows] == ["hand-38", "hand-37", "hand-36"]


def test_session_page_lists_every_hand(site):
    out, _, engine = site
    from mighty_cli.render.html import bid_face
    from mighty_cli.store.ledger.hand_reads import list_hands

    views = run(engine, list_hands, LEAGUE, session_number=1)
    page = read(out, "sessions/1.html")
    rows = [(attrs, cells) for attrs, cells in page.rows_of("hands") if attrs.get("id")]
    assert [a["id"] for a, _ in rows] == [f"hand-{v.number}" for v in views]
    header = page.rows_of("hands")[0][1]
    seats = header[8:]
    for (_attrs, cells), view in zip(rows, views):
        assert cells[1] == (view.dealer or "–")
        assert cells[2] == ", ".join(view.sitting_out)
        if view.status == "scored":
            assert cells[3].startswith(bid_face(view.contract))  # ♠14, as the hand pages
            assert cells[4] == view.declarer
            assert cells[6] == str(view.taken)
        for name, cell in zip(seats, cells[8:]):
            value = view.deltas.get(name)
            assert cell == ("–" if value is None else f"{value:+d}" if value else "0")


def test_a_player_sitting_out_a_hand_shows_a_dash_not_a_score(tmp_path):
    """Seven at the table, two sitting out each hand: their column says ``–`` (not in the
    hand), not ``0`` (a hand played for nothing); the five who played show their scores."""
    from mighty_cli.site.build import build_site
    from mighty_cli.store.db import make_engine
    from mighty_cli.store.ledger.hand_reads import list_hands
    from mighty_cli.store.ledger.league_page import league_page
    from site_league import make_wide_league

    engine = make_engine(f"sqlite:///{tmp_path / 'league.db'}")
    make_wide_league(engine)
    run(engine, build_site, LEAGUE, tmp_path / "site", timezone_name="UTC")
    session = run(engine, league_page, LEAGUE).sessions[-1].number
    views = run(engine, list_hands, LEAGUE, session_number=session)
    engine.dispose()
    page = read(tmp_path / "site", f"sessions/{session}.html")
    seats = page.rows_of("hands")[0][1][8:]
    rows = {a["id"]: cells for a, cells in page.rows_of("hands") if a.get("id")}
    assert len(views) == 14 and len(seats) == 7
    for view in views:
        cells = dict(zip(seats, rows[f"hand-{view.number}"][8:]))
        assert len(view.sitting_out) == 2
        assert [cells[name] for name in view.sitting_out] == ["–", "–"]
        played = [name for name in seats if name not in view.sitting_out]
        assert {name: int(cells[name].replace("+", "")) for name in played} == {
            name: view.deltas[name] for name in played
        }


def test_session_page_marks_corrections_and_voided_hands(site):
    out, _, _ = site
    page = read(out, "sessions/9.html")
    rows = {a["id"]: a for a, _ in page.rows_of("hands") if a.get("id")}
    assert rows["hand-36"]["class"] == "scored corrected"
    assert rows["hand-37"]["class"] == "scored"
    assert rows["hand-38"]["class"] == "voided corrected"
    marks = list(page.all("span", **{"class": "mark"}))
    assert len(marks) == 2


def test_refereed_hand_page_shows_deal_kitty_discards_and_tricks(site):
    out, _, _ = site
    page = read(out, "hands/31.html")
    deal = page.rows_of("deal")
    assert len(deal) == 7  # five players, the kitty, the discards
    assert all(len(cells[1].split()) == 10 for _, cells in deal[:5])
    assert len(deal[5][1][1].split()) == 3 and len(deal[6][1][1].split()) == 3
    tricks = page.rows_of("tricks")[1:]
    assert len(tricks) == 10
    players = {cells[0] for _, cells in deal[:5]}
    assert all(cells[1] in players and cells[3] in players for _, cells in tricks)
    assert sum(int(cells[4]) for _, cells in tricks) <= 20
    assert all(len(cells[2].split()) == 5 for _, cells in tricks)


def test_player_page_roles_add_up_to_hands_played(site):
    out, _, engine = site
    from mighty_cli.store.ledger.queries import standings

    table = run(engine, standings, LEAGUE).by_name()
    for path in (out / "players").glob("*.html"):
        page = Page(path.read_text(encoding="utf-8"))
        name = page.text("h1").strip()
        roles = {attrs["class"]: int(cells[1]) for attrs, cells in page.rows_of("roles")[1:]}
        assert sum(roles.values()) == table[name].stats.hands, name
        assert roles["declarer"] == table[name].stats.declarer


def test_statistics_page_calibration_and_matrix(site):
    out, _, _ = site
    page = read(out, "statistics.html")
    levels = [cells for _, cells in page.rows_of("calibration")[1:]]
    assert levels and all(int(c[2]) <= int(c[1]) for c in levels)
    matrix = page.rows_of("matrix")
    assert len(matrix) == len(matrix[0][1])  # a header row and a row per player, square


def test_markup_in_names_is_text(site):
    out, _, _ = site
    for url in ("index.html", "sessions/9.html", "statistics.html"):
        page = read(out, url)
        assert not page.all("script")
        assert (
            EVIL in page.html.replace("&lt;", "<").replace("&gt;", ">")
            and "<script>" not in page.html
        )
    assert "화요 <리그>" in read(out, "index.html").text("h1")


def test_long_lists_are_paged(tmp_path, monkeypatch, league_copy):
    from mighty_cli.site import page_files as pages
    from mighty_cli.site.build import build_site

    monkeypatch.setattr(pages, "HANDS_PER_PAGE", 4)
    monkeypatch.setattr(pages, "SESSIONS_PER_PAGE", 2)
    monkeypatch.setattr(pages, "LINES_PER_PAGE", 1)
    engine = league_copy(tmp_path / "l.db")
    out = tmp_path / "site"
    run(engine, build_site, LEAGUE, out)
    numbers = []
    for url in ("sessions/1.html", "sessions/1-2.html", "sessions/1-3.html"):
        page = read(out, url)
        ids = [a["id"] for a, _ in page.rows_of("hands") if a.get("id")]
        assert len(ids) <= 4
        numbers += ids
        assert page.all("span", **{"class": "current", "aria-current": "page"})
    assert numbers == [f"hand-{n}" for n in range(1, 11)]
    assert not (out / "sessions" / "1-4.html").exists()
    lists = sorted(p.name for p in out.glob("sessions*.html"))
    assert lists == [
        "sessions-2.html",
        "sessions-3.html",
        "sessions-4.html",
        "sessions-5.html",
        "sessions.html",
    ]
    first = read(out, "sessions.html")
    assert {a["href"] for a in first.all("a", rel="next")} == {"sessions-2.html"}  # top, bottom
    engine.dispose()


def test_club_templates_override_and_stay_sandboxed(tmp_path, league_copy):
    from mighty_cli.render.html import TemplateError
    from mighty_cli.site.build import build_site

    engine = league_copy(tmp_path / "l.db")
    club = tmp_path / "club"
    club.mkdir()
    (club / "site_session.html").write_text(
        "<p class='club'>{{ session.number }} {{ hands | length }} {{ league }}</p>",
        encoding="utf-8",
    )
    run(engine, build_site, LEAGUE, tmp_path / "site", template_dir=club)
    assert (
        read(tmp_path / "site", "sessions/1.html").html
        == "<p class='club'>1 10 화요 &lt;리그&gt;</p>"
    )
    for reach in (
        "{{ pages.os.system('true') }}",
        "{{ pages.session_url.__globals__['os'].system('true') }}",
        "{{ local.__globals__ }}",
    ):
        (club / "site_session.html").write_text(reach, encoding="utf-8")
        with pytest.raises(TemplateError, match="template error"):
            run(engine, build_site, LEAGUE, tmp_path / "site2", template_dir=club)
    engine.dispose()


def test_pages_speak_korean(site_ko):
    page = read(site_ko, "index.html")
    assert page.all("html")[0]["lang"] == "ko"
    assert "리그 순위표" in page.text("h2") or "순위" in page.text("h2")
    player = next((site_ko / "players").glob("*.html"))
    assert "주공" in Page(player.read_text(encoding="utf-8")).text("td")


def test_korean_pages_read_as_korean(site_ko):
    """Every page of the Korean site, text and attributes, holds no particle left in pair
    notation or standing apart from its word (tests/korean_text.py)."""
    from html import unescape

    from korean_text import leftovers

    found = {
        path.name: leftovers(unescape(path.read_text(encoding="utf-8")))
        for path in site_ko.rglob("*.html")
    }
    assert len(found) > 10 and {name: bad for name, bad in found.items() if bad} == {}


def test_times_are_shown_in_the_time_zone(site, tmp_path):
    from mighty_cli.site.build import build_site

    out, _, engine = site
    assert "KST" in read(out, "sessions/1.html").text("p")
    run(engine, build_site, LEAGUE, tmp_path / "utc", timezone_name="UTC")
    assert "UTC" in read(tmp_path / "utc", "sessions/1.html").text("p")


def test_a_session_shows_its_date_and_start_in_the_leagues_zone(tmp_path):
    """A session started tonight shows the league's date and its start on that date; one
    entered later for an earlier date (--date, an imported season) shows when it was entered,
    never a start in another month."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from mighty_cli.site.build import build_site
    from mighty_cli.store.db import make_engine
    from mighty_cli.store.ledger.hands import record_hand
    from mighty_cli.store.ledger.leagues import create_league, set_league_setting
    from mighty_cli.store.ledger.sessions import end_session, start_session

    engine = make_engine(f"sqlite:///{tmp_path / 'l.db'}")
    run(engine, create_league, "night", "standard")
    run(engine, set_league_setting, "night", "timezone", "Asia/Seoul")
    five = ["Ana", "Bo", "Cy", "Di", "Ed"]
    run(engine, start_session, "night", five, day="2026-03-01")
    run(
        engine, record_hand, "night", declarer="Ana", contract="14S", friend="Bo", taken=15, who="t"
    )
    run(engine, end_session, "night")
    run(engine, start_session, "night", five)
    today = datetime.now(ZoneInfo("Asia/Seoul")).date().isoformat()
    run(engine, build_site, "night", tmp_path / "site", timezone_name="Asia/Seoul")
    earlier = read(tmp_path / "site", "sessions/1.html").text("p")
    assert "2026-03-01" in earlier and "entered" in earlier and "started" not in earlier
    tonight = read(tmp_path / "site", "sessions/2.html").text("p")
    assert re.search(rf"{today} · started \d\d:\d\d KST", tonight), tonight
    listed = read(tmp_path / "site", "sessions.html").rows_of("sessions")
    assert [cells[2] for _, cells in listed[1:]] == [tonight.split("started ")[1][:9], "–"]
    engine.dispose()


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Pacific/Pago_Pago"])
def test_a_session_is_dated_where_the_league_plays(tmp_path, zone):
    """UTC+14 and UTC-11: at any hour one of them is on another date than the machine."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from mighty_cli.store.db import make_engine
    from mighty_cli.store.ledger.leagues import create_league, set_league_setting
    from mighty_cli.store.ledger.sessions import start_session

    engine = make_engine(f"sqlite:///{tmp_path / 'l.db'}")
    run(engine, create_league, "far", "standard")
    run(engine, set_league_setting, "far", "timezone", zone)
    started, _ = run(engine, start_session, "far", ["Ana", "Bo", "Cy", "Di", "Ed"])
    assert started.day == datetime.now(ZoneInfo(zone)).date()
    engine.dispose()


def test_site_command(runner, tmp_path, examples):
    from mighty_cli.cli import cli

    assert runner.invoke(cli, ["league", "create", "t", "-r", "standard"]).exit_code == 0
    assert (
        runner.invoke(cli, ["import", str(examples / "season.toml"), "--league", "t"]).exit_code
        == 0
    )
    result = runner.invoke(
        cli, ["site", "--league", "t", "--output", str(tmp_path / "s"), "--timezone", "Asia/Seoul"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Wrote ") and "30 hands" in result.output
    assert (tmp_path / "s" / "index.html").is_file()


def test_site_follows_the_league_language_and_time_zone(runner, tmp_path, examples):
    """league set --lang/--timezone: the site is written in the league's language and zone
    unless --page-lang/--timezone say otherwise."""
    from mighty_cli.cli import cli

    assert (
        runner.invoke(
            cli, ["league", "create", "t", "-r", "standard", "--lang", "ko", "--timezone", "UTC"]
        ).exit_code
        == 0
    )
    assert (
        runner.invoke(cli, ["import", str(examples / "season.toml"), "--league", "t"]).exit_code
        == 0
    )
    assert (
        runner.invoke(cli, ["site", "--league", "t", "--output", str(tmp_path / "ko")]).exit_code
        == 0
    )
    korean = read(tmp_path / "ko", "sessions/1.html")
    assert korean.all("html")[0].get("lang") == "ko" and "UTC" in korean.text("p")
    assert (
        runner.invoke(
            cli,
            [
                "site",
                "--league",
                "t",
                "--output",
                str(tmp_path / "en"),
                "--page-lang",
                "en",
                "--timezone",
                "Asia/Seoul",
            ],
        ).exit_code
        == 0
    )
    english = read(tmp_path / "en", "sessions/1.html")
    assert english.all("html")[0].get("lang") == "en" and "KST" in english.text("p")


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["--league", "nope"], 1, "no league named 'nope'"),
        (["--league", "t", "--timezone", "Mars/Olympus"], 1, "time zone 'Mars/Olympus': unknown"),
    ],
)
def test_site_command_refuses_bad_input_in_one_line(runner, tmp_path, args, code, message):
    from mighty_cli.cli import cli

    runner.invoke(cli, ["league", "create", "t", "-r", "standard"])
    result = runner.invoke(cli, ["site", "--output", str(tmp_path / "s"), *args])
    assert result.exit_code == code
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_site_on_every_database(league_engine, tmp_path):
    """The same pages from SQLite and PostgreSQL: the queries stream and group alike."""
    from mighty_cli.site.build import build_site

    report = run(league_engine, build_site, LEAGUE, tmp_path / "site", timezone_name="UTC")
    assert (report.players, report.sessions, report.hands) == (8, 9, 37)
    page = read(tmp_path / "site", "sessions/9.html")
    assert [a["id"] for a, _ in page.rows_of("hands") if a.get("id")] == [
        "hand-36",
        "hand-37",
        "hand-38",
    ]
    assert len(list((tmp_path / "site" / "hands").iterdir())) == 5


@pytest.mark.parametrize(
    "source, message",
    [
        ("{% if %}", "site_index.html, line 1: Expected an expression"),
        ("{% extends 'nope.html' %}", "template 'nope.html' not found"),
    ],
)
def test_broken_club_template_stops_before_any_page(runner, tmp_path, examples, source, message):
    from mighty_cli.cli import cli

    runner.invoke(cli, ["league", "create", "t", "-r", "standard"])
    runner.invoke(cli, ["import", str(examples / "season.toml"), "--league", "t"])
    club = tmp_path / "club"
    club.mkdir()
    (club / "site_index.html").write_text(source, encoding="utf-8")
    result = runner.invoke(
        cli, ["site", "--league", "t", "--output", str(tmp_path / "s"), "--templates", str(club)]
    )
    assert result.exit_code == 1
    assert message in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "s").exists()
