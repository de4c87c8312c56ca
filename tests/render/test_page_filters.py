"""The hand page's row filters (``render.page_filters``): the scores, the deal and the tricks
as rows made in Python, each name escaped and linked as the template's own tags would, the
words in the page's language, the same row for the same values however often asked."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from mighty_cli.render.page_filters import (
    _PLAYED,
    deal_rows,
    election_calls,
    friend_called,
    seat_rows,
    trick_rows,
    trick_spans,
)
from mighty_cli.render.text import friend_call_text
from mighty_cli.site.hand_page import SeatScore, TrickView, _revealed

EVIL = "<b>Ed</b>"


class Pages:
    @staticmethod
    def player_url(player_id: int) -> str:
        return f"players/{player_id}.html"


def context(**ids) -> dict:
    return {"root": "../", "ids": {"Ana": 1, EVIL: 5, **ids}, "pages": Pages}


def outcome(*seats: SeatScore) -> SimpleNamespace:
    return SimpleNamespace(seats=seats, pot_moved=any(seat.pot for seat in seats))


def test_seat_rows_link_each_player_and_name_each_part():
    rows = seat_rows(
        context(),
        outcome(
            SeatScore("Ana", "declarer", 10, 0),
            SeatScore(EVIL, "opponent", -5, 0),
            SeatScore("Guest", "out", 0, 0),
        ),
    )
    assert rows.splitlines() == [
        '<tr class="declarer"><td><a href="../players/1.html">Ana</a></td><td>Declarer</td>'
        '<td class="num delta"><span class="pos">+10</span></td></tr>',
        '<tr class="opponent"><td><a href="../players/5.html">&lt;b&gt;Ed&lt;/b&gt;</a></td>'
        '<td>opposition (야당)</td><td class="num delta"><span class="neg">-5</span></td></tr>',
        '<tr class="out"><td>Guest</td><td>Sitting out</td>'
        '<td class="num delta"><span>0</span></td></tr>',
    ]


def test_seat_rows_show_the_pot_only_where_it_moved():
    rows = seat_rows(
        context(), outcome(SeatScore("Ana", "declarer", 10, 3), SeatScore(EVIL, "opponent", -5, 0))
    )
    assert rows.splitlines()[0] == (
        '<tr class="declarer"><td><a href="../players/1.html">Ana</a></td><td>Declarer</td>'
        '<td class="num"><span class="pos">+10</span></td>'
        '<td class="num"><span class="pos">+3</span></td>'
        '<td class="num delta"><span class="pos">+13</span></td></tr>'
    )


def test_seat_rows_speak_the_pages_language():
    korean = {"Declarer": "주공", "Friend": "프렌드"}
    rows = seat_rows(
        context(),
        outcome(
            SeatScore("Ana", "declarer", 10, 0),
            SeatScore("Bo", "friend", 5, 0),
            SeatScore("Cy", "nobody knows", 0, 0),
        ),
        lambda text: korean.get(text, text),
    )
    assert [row.split("<td>")[2].split("<")[0] for row in rows.splitlines()] == [
        "주공",
        "프렌드",
        "–",
    ]


def test_deal_rows_link_each_player_and_show_the_cards_as_faces():
    rows = deal_rows(context(), [("Ana", ["SA", "D10", "JK"]), (EVIL, [])])
    assert rows.splitlines() == [
        '<tr><th><a href="../players/1.html">Ana</a></th><td><span class="cards">'
        '<span class="black">♠A</span> <span class="red">◆10</span> '
        '<span class="joker">JK</span></span></td></tr>',
        '<tr><th><a href="../players/5.html">&lt;b&gt;Ed&lt;/b&gt;</a></th>'
        '<td><span class="cards"></span></td></tr>',
    ]


def test_trick_rows_mark_the_winner_and_the_point_cards():
    trick = TrickView(3, "Ana", [("Ana", "SA", True), (EVIL, "S2", False)], "Ana", 1)
    assert trick_rows([trick]) == (
        '<tr><td class="num">3</td><td class="led">Ana</td><td class="cards">'
        '<span class="winner point black" title="Ana">♠A</span> '
        '<span class="black" title="&lt;b&gt;Ed&lt;/b&gt;">♠2</span></td>'
        '<td class="won">Ana</td><td class="num">1</td></tr>\n'
    )
    assert trick_spans(trick) in trick_rows([trick])


def test_trick_rows_escape_a_clubs_odd_number():
    """A whole number is written as it is; anything else a template passes, escaped."""
    trick = TrickView("<1>", "Ana", [("Ana", "SA", True)], "Ana", "<b>")
    row = trick_rows([trick])
    assert row.startswith('<tr><td class="num">&lt;1&gt;</td>')
    assert row.endswith('<td class="num">&lt;b&gt;</td></tr>\n')


def test_election_calls_name_each_call_in_the_cards_notation():
    calls = [("Ana", "13S"), (EVIL, "pass"), ("Cy", "deal-miss"), ("Di", "14NT"), ("Ed", "bogus")]
    assert election_calls(calls) == (
        "Ana ♠13 · &lt;b&gt;Ed&lt;/b&gt; pass · Cy deal miss · Di no-trump 14 · Ed bogus"
    )
    korean = {"pass": "패스", "deal miss": "딜 미스", "no-trump %(number)s": "노기루다 %(number)s"}
    assert election_calls(calls[:4], lambda text: korean.get(text, text)) == (
        "Ana ♠13 · &lt;b&gt;Ed&lt;/b&gt; 패스 · Cy 딜 미스 · Di 노기루다 14"
    )
    assert election_calls([]) == ""


@pytest.mark.parametrize(
    "value, shown",
    [
        (7, "Hand <b>7</b>"),
        (-3, "Hand <b>-3</b>"),
        ("<i>7</i>", "Hand <b>&lt;i&gt;7&lt;/i&gt;</b>"),
        (True, "Hand <b>True</b>"),
        (2.5, "Hand <b>2.5</b>"),
    ],
)
def test_a_pages_message_escapes_its_variables_and_keeps_its_own_markup(value, shown):
    """A page's message is its language's markup; a variable in it is escaped (a whole
    number, having nothing to escape, is written as it is)."""
    from jinja2 import Environment

    from mighty_cli.render.html import _page_gettext

    environment = Environment(autoescape=True)
    environment.globals["_"] = _page_gettext(lambda text: text)
    template = environment.from_string('{{ _("Hand <b>%(number)s</b>", number=n) }}')
    assert template.render(n=value) == shown


@pytest.mark.parametrize("who", [["a", "list"], 7, None])
def test_a_clubs_odd_values_are_shown_not_remembered(who):
    """A club's template may pass what it likes as a play: shown as text, never a key."""
    before = dict(_PLAYED)
    trick = SimpleNamespace(winner=None, plays=[(who, "HK")])
    assert trick_spans(trick) == f'<span class="red" title="{who}">♥K</span>'.replace("'", "&#39;")
    assert _PLAYED == before


@pytest.mark.parametrize(
    "call, shown",
    [
        ("SA", "♠A"),
        ("HK+DK", "♥K+◆K"),
        ("HK+joker", "♥K+the joker"),
        ("SA lead:H", "♠A lead:H"),
        ("joker", "the joker"),
        ("player:Bo", "Bo"),
    ],
)
def test_a_friend_call_shows_each_card_called(call, shown):
    assert friend_call_text(call) == shown


def test_a_two_card_call_shows_both_cards_and_both_tricks_that_showed_the_friends():
    """동대전 7마: ``HK+DK`` called, ♦K played in trick 2 and ♥K in trick 5."""
    outcome = SimpleNamespace(
        call_kind="card", friend_call="HK+DK", friend="Bo, Cy", declarer="Ana"
    )
    assert friend_called(outcome) == "card friend ♥K+◆K"

    def tricks(holders: dict[int, str]) -> list[TrickView]:
        return [
            TrickView(
                n,
                "Ana",
                [
                    ("Ana" if n != 7 else "Di", "S2", False),
                    (holders.get(n, "Cy"), {2: "DK", 5: "HK"}.get(n, "S3"), n in (2, 5)),
                ],
                "Ana",
                0,
            )
            for n in range(1, 8)
        ]

    assert _revealed(outcome, tricks({2: "Cy", 5: "Bo"})) == (2, 5)
    one = SimpleNamespace(call_kind="card", friend_call="HK", friend="Bo", declarer="Ana")
    assert _revealed(one, tricks({2: "Cy", 5: "Bo"})) == (5,)
    # one friend holding both cards is shown by the first he played
    assert _revealed(
        SimpleNamespace(**{**vars(outcome), "friend": "Bo"}), tricks({2: "Bo", 5: "Bo"})
    ) == (2,)
    # a called card the declarer held himself shows nobody
    assert _revealed(
        SimpleNamespace(**{**vars(outcome), "friend": "Bo"}), tricks({2: "Ana", 5: "Bo"})
    ) == (5,)
    assert _revealed(
        SimpleNamespace(
            call_kind="first-trick", friend_call="first-trick", friend="Bo", declarer="Ana"
        ),
        tricks({2: "Cy", 5: "Bo"}),
    ) == (1,)


@pytest.mark.parametrize(
    "lang, said", [("en", "revealed in tricks 2, 5"), ("ko", "2, 5턴에 드러남")]
)
def test_a_hand_page_says_both_tricks_that_showed_two_friends(lang, said):
    from datetime import datetime, timezone

    from mighty_cli.render.html import environment, render
    from mighty_cli.site.hand_page import HandDetail, Outcome
    from mighty_cli.site.page_files import URLS

    seats = tuple(
        SeatScore(name, role, 0, 0)
        for name, role in (
            ("Ana", "declarer"),
            ("Bo", "friend"),
            ("Cy", "friend"),
            ("Di", "opponent"),
        )
    )
    outcome = Outcome(
        "scored",
        False,
        False,
        "15C",
        "Ana",
        "Bo, Cy",
        "HK+DK",
        "card",
        15,
        5,
        20,
        False,
        True,
        0,
        1,
        (),
        None,
        seats,
    )
    hand = HandDetail(
        4,
        1,
        ["Ana", "Bo", "Cy", "Di"],
        "Ana",
        [],
        [],
        [],
        [],
        "15C",
        "HK+DK",
        [],
        outcome=outcome,
        revealed=(2, 5),
    )
    page = render(
        environment(None, lang),
        "site_hand.html",
        None,
        root="../",
        url="hands/4.html",
        league="L",
        ruleset="dongdaejeon-7",
        ruleset_title="T",
        generated=datetime(2024, 1, 1, tzinfo=timezone.utc),
        pages=URLS,
        ids={},
        hand=hand,
    )
    assert said in page and "♥K+◆K" in page
