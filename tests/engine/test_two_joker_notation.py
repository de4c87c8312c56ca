"""The card notation for two-joker decks (issue 11, part A): the black joker ``BJ`` (흑백 조커).

The notation only adds: ``JK`` keeps reading as the 53-card deck's joker (and is the colour joker
of a two-joker deck), old names parse as before, and a deck without the black joker refuses it in
one line naming the trick, the player and the card.
"""

from __future__ import annotations

import pytest

from hand_positions import PLAYERS, deal_named, play, position
from mighty_cli.engine.cards import (
    BLACK_JOKER,
    DECK,
    JOKER,
    NO_SUIT,
    format_card,
    format_cards,
    is_point_card,
    parse_card,
    parse_cards,
    rank_of,
    sorted_cards,
    suit_of,
)
from mighty_cli.engine.cards.korean import format_card_ko, read_korean
from mighty_cli.engine.errors import IllegalPlay, InvalidNotation, MightyError
from mighty_cli.engine.hand import new_hand
from mighty_cli.engine.ruleset import load_ruleset


def test_black_joker_is_written_bj_and_reads_back():
    assert format_card(BLACK_JOKER) == "BJ"
    for text in ("BJ", "bj", "black-joker", "BLACKJOKER"):
        assert parse_card(text) == BLACK_JOKER
    assert parse_card(format_card(BLACK_JOKER)) == BLACK_JOKER


def test_black_joker_has_no_suit_and_is_no_point_card():
    assert suit_of(BLACK_JOKER) == NO_SUIT
    assert rank_of(BLACK_JOKER) == 1
    assert not is_point_card(BLACK_JOKER)
    assert BLACK_JOKER not in DECK


def test_old_names_read_unchanged():
    # Every card of the 53-card deck keeps its name, and JK is still the joker.
    assert all(parse_card(format_card(card)) == card for card in DECK)
    assert parse_card("JK") == JOKER
    assert parse_card("joker") == JOKER
    assert format_card(JOKER) == "JK"


def test_colour_joker_is_jk():
    assert parse_card("RJ") == JOKER
    assert parse_card("red-joker") == JOKER
    assert format_card(parse_card("RJ")) == "JK"


def test_two_jokers_in_one_list_and_display_order():
    cards = parse_cards("SA BJ JK C3")
    assert cards == [parse_card("SA"), BLACK_JOKER, JOKER, parse_card("C3")]
    assert format_cards(sorted_cards(cards)) == "JK BJ SA C3"
    with pytest.raises(InvalidNotation, match="BJ appears twice"):
        parse_cards("BJ SA BJ")


def test_black_joker_in_korean():
    for text in ("흑백 조커", "흑백조커", "블랙 조커", "흑조커", "검은 조커"):
        assert parse_card(text) == BLACK_JOKER, text
    for text in ("컬러 조커", "칼라조커", "조커"):
        assert parse_card(text) == JOKER, text
    assert format_card_ko(BLACK_JOKER) == "흑백 조커"
    assert parse_card(format_card_ko(BLACK_JOKER)) == BLACK_JOKER
    assert parse_cards("흑백 조커 스페이드 A 조커") == [BLACK_JOKER, parse_card("SA"), JOKER]


def test_black_joker_lead_naming_a_suit_in_korean():
    assert read_korean("흑백 조커 하트") == "BJ/H"
    assert read_korean("흑백조커/스페이드!") == "BJ/S!"
    assert read_korean("조커 하트") == "JK/H"
    assert read_korean("컬러 조커 다이아") == "JK/D"


def test_black_joker_refused_in_a_53_card_deck():
    # standard has one joker: playing BJ names the card and says it is not in the deck.
    state = position(tricks=[])
    with pytest.raises(
        IllegalPlay,
        match=r"trick 1: Ana played BJ, which is not in this "
        r"ruleset's deck",
    ):
        play(state, "BJ")


def test_black_joker_refused_in_a_deal_of_a_53_card_deck():
    cards = deal_named("basic")
    cards["Ana"] = [BLACK_JOKER] + list(cards["Ana"])[1:]
    with pytest.raises(MightyError, match=r"deal: BJ is not in this ruleset's deck"):
        new_hand(load_ruleset("standard"), PLAYERS, "Ana", cards)


def test_every_card_list_round_trips_in_both_notations():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from mighty_cli.engine.cards.korean import korean_card_names

    every = list(DECK) + [BLACK_JOKER]

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.sampled_from(every), unique=True, max_size=12))
    def round_trip(cards):
        assert parse_cards(format_cards(cards)) == cards
        korean = " ".join(format_card_ko(card) for card in cards)
        assert [parse_card(name) for name in korean_card_names(korean)] == cards

    round_trip()
