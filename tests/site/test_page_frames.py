"""A page's frame rendered once per build (``site.page_frames``): the hand pages of a site
built framed are, byte for byte, those rendered whole, in English and Korean; a frame that
needs a page's own value, or does not show each of the page's blocks once, is not used (the
template is rendered whole); a page whose own block fails is told as a whole rendering tells
it."""

from __future__ import annotations

from datetime import datetime, timezone

import jinja2
import pytest

from databases import run
from site_league import LEAGUE

WHEN = datetime(2024, 4, 2, 12, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_framed_hand_pages_are_the_pages_rendered_whole(engine, tmp_path, monkeypatch, lang):
    from mighty_cli.site import page_files as site_pages
    from mighty_cli.site import page_frames
    from mighty_cli.site.build import build_site

    used = []
    real_render = page_frames.PageFrames.render

    def render(self, name, root, context):
        page = real_render(self, name, root, context)
        used.append(page is not None)
        return page

    monkeypatch.setattr(page_frames.PageFrames, "render", render)
    run(
        engine,
        build_site,
        LEAGUE,
        tmp_path / "framed",
        timezone_name="Asia/Seoul",
        generated=WHEN,
        lang=lang,
        jobs=1,
    )
    assert used.count(True) == len(list((tmp_path / "framed" / "hands").glob("*.html"))) > 0
    monkeypatch.setattr(site_pages, "PageFrames", lambda env, common: None)
    run(
        engine,
        build_site,
        LEAGUE,
        tmp_path / "whole",
        timezone_name="Asia/Seoul",
        generated=WHEN,
        lang=lang,
        jobs=1,
    )
    framed = {
        p.relative_to(tmp_path / "framed"): p.read_bytes()
        for p in (tmp_path / "framed").rglob("*.html")
    }
    whole = {
        p.relative_to(tmp_path / "whole"): p.read_bytes()
        for p in (tmp_path / "whole").rglob("*.html")
    }
    assert framed == whole


BASE = (
    "<title>{% block title %}{% endblock %} - {{ league }}</title>"
    "<h1>{% block heading %}{% endblock %}</h1><a href='{{ root }}index.html'>{{ league }}</a>"
    "<main>{% block content %}{% endblock %}</main>"
)
PAGE = (
    "{% extends 'base.html' %}{% block title %}Hand {{ n }}{% endblock %}"
    "{% block heading %}Hand {{ n }}{% endblock %}"
    "{% block content %}<p>{{ text }}</p>{% endblock %}"
)
BLOCKS = {"page.html": ("title", "heading", "content")}


def frames(base: str = BASE, page: str = PAGE):
    from mighty_cli.site.page_frames import PageFrames

    env = jinja2.Environment(
        loader=jinja2.DictLoader({"base.html": base, "page.html": page}),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    return env, PageFrames(env, {"league": "<League>"}, BLOCKS)


def test_a_frame_gives_the_whole_template_s_text():
    env, made = frames()
    context = {"league": "<League>", "root": "../", "url": "hands/1.html", "n": 1, "text": "<b>&"}
    assert made.render("page.html", "../", context) == env.get_template("page.html").render(
        **context
    )
    assert made.frames["page.html", "../"] is not None


def test_a_frame_that_needs_a_page_s_own_value_is_not_used():
    _, made = frames(base=BASE.replace("index.html", "{{ url }}"))
    assert (
        made.render(
            "page.html", "../", {"league": "L", "root": "../", "url": "u", "n": 1, "text": ""}
        )
        is None
    )
    assert made.frames["page.html", "../"] is None


def test_a_frame_that_shows_a_block_twice_is_not_used():
    _, made = frames(base=BASE + "<footer>{{ self.heading() }}</footer>")
    assert (
        made.render(
            "page.html", "../", {"league": "L", "root": "../", "url": "u", "n": 1, "text": ""}
        )
        is None
    )


def test_templates_not_named_are_rendered_whole():
    _, made = frames()
    assert made.render("base.html", "", {"league": "L", "root": ""}) is None


def test_a_failing_hand_page_is_told_as_a_whole_rendering_tells_it(tmp_path):
    from mighty_cli.render.html import TemplateError
    from mighty_cli.site.page_files import URLS, SiteWriter

    writer = SiteWriter(
        tmp_path / "site",
        common={
            "league": "L",
            "ruleset": "standard",
            "ruleset_title": "Standard",
            "generated": "now",
            "pages": URLS,
        },
    )
    with pytest.raises(TemplateError, match="template error: 'hand' is undefined"):
        writer.write("hands/1.html", "site_hand.html")
    assert writer.frames.frames["site_hand.html", "../"] is not None  # framed, then failed
    assert not (tmp_path / "site" / "hands" / "1.html").exists()
