"""The standings page: parsed, never compared whole (datasette's habit)."""

from __future__ import annotations

from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import pytest

from headless import CHROMIUM
from mighty_cli.league.standings import PlayerStats, Series, rank
from mighty_cli.render.html import render_league_page
from mighty_cli.store.ledger.league_page import LeaguePage, SessionTable

EVIL = "<script>alert(1)</script>"


class Page(HTMLParser):
    """Collects tags, their attributes and the text inside each element."""

    def __init__(self, html: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.stack: list[str] = []
        self.texts_in: dict[str, list[str]] = {}
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass

    def handle_data(self, data):
        self.text.append(data)
        for tag in set(self.stack):
            self.texts_in.setdefault(tag, []).append(data)

    def all(self, tag):
        return [attrs for name, attrs in self.tags if name == tag]


def make_page(names=("Ana", "Bo", "김철수", EVIL, "Di")) -> LeaguePage:
    stats = [
        PlayerStats(name, hands=10, score=(2 - i) * 7, declarer=3, declarer_success=2, friend=2)
        for i, name in enumerate(names)
    ]
    table = rank(stats)
    sessions = [SessionTable(1, date(2024, 3, 5), True, list(names), 10, rank(stats))]
    xs = list(range(0, 11))
    series = [Series(s.name, [s.score * x // 10 for x in xs]) for s in stats]
    return LeaguePage(
        "화요 리그 <b>", "standard", "Standard Mighty", table, sessions, 10, xs, series, 0
    )


def test_page_is_one_self_contained_file():
    page = Page(render_league_page(make_page()))
    assert not page.all("script")
    assert not list(page.all("link"))
    assert all("src" not in a for _, a in page.tags)
    assert page.all("style")
    html = render_league_page(make_page())
    assert "http://" not in html and "https://" not in html.replace("http://www.w3.org", "")


def test_page_is_readable_on_a_phone():
    metas = Page(render_league_page(make_page())).all("meta")
    assert {"name": "viewport", "content": "width=device-width, initial-scale=1"} in metas
    assert {"charset": "utf-8"} in metas
    assert "@media (max-width" in render_league_page(make_page())


def test_script_name_is_shown_as_text():
    html = render_league_page(make_page())
    page = Page(html)
    assert not page.all("script")
    assert EVIL in "".join(page.texts_in["td"])
    assert "&lt;script&gt;" in html


def test_korean_names_appear_as_text():
    page = Page(render_league_page(make_page()))
    assert "김철수" in page.texts_in["td"]
    assert "화요 리그 <b>" in "".join(page.texts_in["h1"])


def test_league_table_rows_in_rank_order():
    page = Page(render_league_page(make_page()))
    rows = [a for a in page.all("tr") if a.get("class") == "ranked"]
    assert len(rows) == 5
    names = [t for t in page.texts_in["td"] if t in ("Ana", "Bo", "김철수", EVIL, "Di")]
    assert names[:5] == ["Ana", "Bo", "김철수", EVIL, "Di"]


def test_chart_has_a_line_per_player():
    page = Page(render_league_page(make_page()))
    assert len([a for a in page.all("svg") if a.get("class") == "plot"]) == 1
    assert len(page.all("polyline")) == 5
    # the legend's keys draw each line's colour and dash
    keys = [a for a in page.all("line") if a.get("stroke-width") == "2.5"]
    lines = page.all("polyline")
    assert [(k["stroke"], k.get("stroke-dasharray")) for k in keys] == [
        (p["stroke"], p.get("stroke-dasharray")) for p in lines
    ]


def test_each_session_has_its_table():
    page = Page(render_league_page(make_page()))
    assert [a["id"] for a in page.all("details")] == ["session-1"]
    assert len([a for a in page.all("table") if a.get("class") == "session-table"]) == 1


def test_club_templates_override_the_bundled_ones(tmp_path):
    (tmp_path / "base.html").write_text(
        "<!DOCTYPE html><html><head><title>Club</title></head><body class='club'>"
        "{% block content %}{% endblock %}</body></html>",
        encoding="utf-8",
    )
    page = Page(render_league_page(make_page(), tmp_path))
    assert {"class": "club"} in page.all("body")
    assert page.all("table")  # standings.html still comes from the bundled folder


def test_club_template_is_autoescaped_too(tmp_path):
    (tmp_path / "standings.html").write_text("<p>{{ page.league }}</p>", encoding="utf-8")
    assert render_league_page(make_page(), tmp_path) == "<p>화요 리그 &lt;b&gt;</p>"


@pytest.mark.chromium
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium is not installed")
def test_page_renders_in_headless_chromium(chromium, tmp_path):
    html_file = tmp_path / "page.html"
    html_file.write_text(render_league_page(make_page()), encoding="utf-8")
    with chromium.open(html_file.as_uri()) as tab:
        dom = Page(tab.dom())
    assert len(dom.all("polyline")) == 5
    assert EVIL in "".join(dom.texts_in["td"])
    assert not dom.all("script")


@pytest.mark.parametrize("sandboxed", [False, True], ids=["bundled", "club"])
def test_translated_messages_escape_their_variables_as_jinja_does(tmp_path, sandboxed):
    """The templates' own _() and gettext() (one call, not the i18n extension's three): the
    message translated, its variables escaped where the template autoescapes, as before."""
    from mighty_cli.render.html import bid_face, environment

    env = environment(tmp_path if sandboxed else None, "ko")
    page = env.from_string(
        '{{ _("made by %(count)s", count="<b>") }}|{{ _("Declarer") }}|'
        '{% trans number="<i>" %}Session {{ number }}{% endtrans %}|'
        '{% autoescape false %}{{ _("made by %(count)s", count="<b>") }}'
        "{% endautoescape %}|"
        '{{ "15NT" | bid_face }} {{ "13H" | bid_face }}'
    )
    assert page.render() == (
        "&lt;b&gt; 차이로 성공|주공|&lt;i&gt;회차|<b> 차이로 성공|노기루다 15 ♥13"
    )
    assert (bid_face("14S"), bid_face("no bid")) == ("♠14", "no bid")


def test_a_bundled_templates_messages_without_variables_are_translated_as_it_compiles():
    """``{{ _("Declarer") }}`` is the catalog's text in the compiled template: no call when a
    page renders; a message with variables, or one whose text does not format, still calls."""
    from mighty_cli.render.html import environment

    source = (
        '{{ _("Declarer") }}|{{ gettext("Kitty") }}|{{ _("made by %(count)s", count=2) }}'
        '|{{- _("Declarer") -}}|{{ "x" if _ else "" }}'
    )
    env = environment(None, "ko")
    code = env.compile(source, raw=True)
    assert "주공" in code and "'Declarer'" not in code and "Kitty" not in code
    assert "made by" in code  # translated when the page renders
    assert env.from_string(source).render() == "주공|바닥 카드|2 차이로 성공|주공|x"
    club = environment(Path(__file__).parent, "ko")  # a club's: every message called
    assert "'Declarer'" in club.compile(source, raw=True)
    assert club.from_string(source).render() == "주공|바닥 카드|2 차이로 성공|주공|x"


def test_compiled_templates_of_another_catalog_are_not_reused(monkeypatch, tmp_path):
    """The bundled templates hold their messages translated: a catalog changed (a new
    translation, another language) compiles them again."""
    from mighty_cli.render import constant_messages
    from mighty_cli.render.html import environment

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert constant_messages.catalog_tag("ko") != constant_messages.catalog_tag("en")
    environment(None, "ko").get_template("site_sessions.html")
    environment(None, "en").get_template("site_sessions.html")
    folder = tmp_path / "cache" / "mighty" / "templates"
    assert len(list(folder.iterdir())) == 2
    monkeypatch.setattr(constant_messages, "catalog_tag", lambda language: "ko:changed")
    environment(None, "ko").get_template("site_sessions.html")
    assert len(list(folder.iterdir())) == 3
