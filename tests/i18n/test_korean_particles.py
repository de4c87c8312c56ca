"""Korean particles chosen by the word they follow (``engine/particles.py``): each rule's table of
cases in ``tests/data/particle_cases.toml``, and the pair notation resolved wherever a Korean
message is filled in (``format``, ``%``, plurals, the pages' ``_()`` and ``{% trans %}``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mighty_cli.engine import safe_toml
from mighty_cli.engine.particles import attach, resolve
from mighty_cli.engine.translation import KoreanMessage, set_language

CASES = safe_toml.loads(
    (Path(__file__).resolve().parents[1] / "data" / "particle_cases.toml").read_text(
        encoding="utf-8"
    )
)


@pytest.mark.parametrize("rule", sorted(CASES))
def test_particle_rule(rule):
    cases = CASES[rule]["cases"]
    assert [attach(word, pair) for word, pair, _read in cases] == [read for *_, read in cases]


def test_every_pair_in_a_text_is_resolved_by_its_own_word():
    assert (
        resolve("김민수이(가) 박서준을(를) 프렌드(으)로 불렀고 Bo은(는) 14S와(과) 함께")
        == "김민수가 박서준을 프렌드로 불렀고 Bo는 14S와 함께"
    )


def test_a_korean_message_chooses_its_particles_when_formatted():
    message = KoreanMessage("{player}이(가) {card}을(를) 냈습니다")
    assert message.format(player="김민수", card="SA") == "김민수가 SA를 냈습니다"
    assert message.format_map({"player": "박서준", "card": "DK"}) == "박서준이 DK을 냈습니다"
    assert KoreanMessage("%(player)s은(는) 주공") % {"player": "Bo"} == "Bo는 주공"


def test_the_korean_catalog_gives_messages_with_pairs_as_korean_messages():
    from mighty_cli.engine.translation import gettext, ngettext

    set_language("ko")
    said = gettext("{player} is the declarer and cannot be eliminated")
    assert type(said) is KoreanMessage
    assert said.format(player="김민수").startswith("김민수는 ")
    assert said.format(player="박서준").startswith("박서준은 ")
    plural = ngettext("{declarer} discarded {count} card", "{declarer} discarded {count} cards", 3)
    assert plural.format(declarer="김민수", count=3).startswith("김민수가 ")
    assert type(gettext("Usage:")) is str  # no pair: the catalog's own text


def test_pages_choose_particles_in_underscore_and_trans():
    """A page's ``_()`` and ``{% trans %}`` (singular and plural) fill a Korean message in
    with its values escaped, then choose its particles, markup around the word looked
    through."""
    import jinja2
    from markupsafe import Markup

    from mighty_cli.render.html import _page_gettext, _page_ngettext

    said = KoreanMessage("%(player)s이(가) %(card)s을(를) 냈습니다")
    env = jinja2.Environment(autoescape=True, extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(lambda s: said, lambda s, p, n: said, newstyle=True)
    env.globals["gettext"] = env.globals["_"] = _page_gettext(lambda s: said)
    env.globals["ngettext"] = _page_ngettext(lambda s, p, n: said)
    page = env.from_string(
        "{{ _('%(player)s plays %(card)s', player=name, card=card) }}|"
        "{% trans player=name, card=card %}{{ player }} plays {{ card }}{% endtrans %}|"
        "{% trans count=2, player=name, card=card %}{{ player }} plays {{ card }}"
        "{% pluralize %}{{ player }} play {{ card }}{% endtrans %}"
    )
    assert page.render(name="김민수", card="SA") == "|".join(["김민수가 SA를 냈습니다"] * 3)
    assert page.render(name=Markup('<a href="p.html">박서준</a>'), card="<DK>") == "|".join(
        ['<a href="p.html">박서준</a>이 &lt;DK&gt;을 냈습니다'] * 3
    )
