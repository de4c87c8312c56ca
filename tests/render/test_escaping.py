"""Autoescaping's fast path (``render.escaping``): the same text as MarkupSafe's ``escape``
for every kind of value, used by the bundled templates' compiled code and not by a club's."""

from __future__ import annotations

import markupsafe
import pytest

from mighty_cli.render.escaping import escape
from mighty_cli.render.html import environment


class Shown:
    """A value that says how it shows in HTML."""

    def __html__(self) -> str:
        return "<i>shown</i>"

    def __repr__(self) -> str:  # the test's id: the same in every process (pytest-xdist)
        return "Shown()"


class Name(str):
    """A string of another type (not the fast path's)."""


VALUES = [
    "",
    "Ana",
    "김철수",
    "a & b",
    "<b>Ed</b>",
    "O'Neil",
    'say "hi"',
    "♠A ♥10",
    markupsafe.Markup("<span>♠A</span>"),
    0,
    7,
    -3,
    10**30,
    True,
    None,
    1.5,
    Shown(),
    Name("<x>"),
    Name("plain"),
    ["<a>"],
    ("t", 1),
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_escape_gives_markupsafe_s_text(value):
    ours, theirs = escape(value), markupsafe.escape(value)
    assert type(ours) is markupsafe.Markup
    assert str(ours) == str(theirs)


def test_escape_keeps_markup_as_it_is():
    safe = markupsafe.Markup("<b>kept</b>")
    assert escape(safe) is safe


def test_bundled_templates_escape_with_the_fast_path():
    template = environment(lang="en").from_string("{{ x }}|{{ y }}|{{ z }}")
    assert template.root_render_func.__globals__["escape"] is escape
    assert (
        template.render(x="<b>", y=markupsafe.Markup("<i>ok</i>"), z=5) == "&lt;b&gt;|<i>ok</i>|5"
    )


def test_club_templates_keep_jinja_s_escape(tmp_path):
    (tmp_path / "standings.html").write_text("{{ x }}", encoding="utf-8")
    env = environment(tmp_path, lang="en")
    template = env.get_template("standings.html")
    assert template.root_render_func.__globals__["escape"] is not escape
    assert template.render(x="<b>") == "&lt;b&gt;"
