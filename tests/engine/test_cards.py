"""Card, card-list, suit and bid notation (docs/record-format.md): parse, format, round trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mighty_cli.engine.cards import (
    CLUBS,
    DECK,
    DIAMONDS,
    HEARTS,
    JOKER,
    POINT_CARDS,
    SPADES,
    Bid,
    format_bid,
    format_card,
    format_cards,
    format_trump,
    make_card,
    parse_bid,
    parse_card,
    parse_cards,
    parse_suit,
    parse_trump,
    rank_of,
    sorted_cards,
    suit_of,
)
from mighty_cli.engine.errors import InvalidNotation, MightyError

# --- single cards --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, suit, rank",
    [
        ("SA", SPADES, 14),
        ("DK", DIAMONDS, 13),
        ("HQ", HEARTS, 12),
        ("CJ", CLUBS, 11),
        ("D10", DIAMONDS, 10),
        ("S9", SPADES, 9),
        ("C2", CLUBS, 2),
        ("H3", HEARTS, 3),
    ],
)
def test_card_is_suit_then_rank(text, suit, rank):
    card = parse_card(text)
    assert (suit_of(card), rank_of(card)) == (suit, rank)
    assert card == make_card(suit, rank)


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("sa", "SA"),
        ("Sa", "SA"),
        ("d10", "D10"),
        ("DT", "D10"),
        ("dt", "D10"),
        ("  c3 ", "C3"),
        ("♠A", "SA"),
        ("♤a", "SA"),
        ("◆K", "DK"),
        ("♦K", "DK"),
        ("♢k", "DK"),
        ("♥Q", "HQ"),
        ("♡q", "HQ"),
        ("♣3", "C3"),
        ("♧3", "C3"),
    ],
)
def test_card_input_is_case_insensitive_and_accepts_symbols(text, canonical):
    assert format_card(parse_card(text)) == canonical


@pytest.mark.parametrize("text", ["JK", "jk", "Jk", "joker", "JOKER", "jo"])
def test_joker_spellings(text):
    assert parse_card(text) == JOKER
    assert format_card(JOKER) == "JK"


# C11 is 서울과고's rank 11 now (table.rank_eleven: tests/engine/test_rank_eleven.py); C12 is not a card
@pytest.mark.parametrize("text", ["S1", "C12", "X5", "SAA", "10S", "JK2", "", "S", "ZZ", "H0"])
def test_card_error_quotes_the_input(text):
    with pytest.raises(InvalidNotation) as caught:
        parse_card(text)
    assert repr(text.strip()) in str(caught.value)
    assert "is not a card" in str(caught.value)


def test_notation_errors_are_value_errors():
    assert issubclass(InvalidNotation, MightyError)
    assert issubclass(InvalidNotation, ValueError)


def test_unknown_card_code_cannot_be_formatted():
    with pytest.raises(InvalidNotation, match="99"):
        format_card(99)


def test_deck_has_53_cards_and_20_point_cards():
    assert len(DECK) == len(set(DECK)) == 53
    assert JOKER in DECK and JOKER not in POINT_CARDS
    assert len(POINT_CARDS) == 20
    assert {format_card(c) for c in POINT_CARDS if suit_of(c) == SPADES} == {
        "SA",
        "SK",
        "SQ",
        "SJ",
        "S10",
    }


# --- card lists ----------------------------------------------------------------------------


def test_card_list_separated_by_spaces_or_commas():
    assert parse_cards("SA, dk  jk,C3") == [
        parse_card("SA"),
        parse_card("DK"),
        JOKER,
        parse_card("C3"),
    ]


def test_card_list_from_an_iterable_of_names():
    assert parse_cards(["sa", "♥10"]) == [parse_card("SA"), parse_card("H10")]


def test_empty_card_list():
    assert parse_cards("") == []
    assert format_cards([]) == ""


def test_card_list_keeps_the_order_given():
    assert format_cards(parse_cards("C2 SA JK D10")) == "C2 SA JK D10"


def test_card_named_twice_is_an_error_naming_it():
    with pytest.raises(InvalidNotation, match=r"SA appears twice in 'SA DK sa'"):
        parse_cards("SA DK sa")


def test_bad_card_in_a_list_is_quoted():
    with pytest.raises(InvalidNotation, match=r"'Q9' is not a card"):
        parse_cards("SA Q9 DK")


def test_sorted_cards_puts_the_joker_first_then_suits_high_to_low():
    assert format_cards(sorted_cards(parse_cards("C2 HA S3 JK SA D10"))) == "JK SA S3 D10 HA C2"


# --- suits and trumps ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, suit",
    [
        ("S", SPADES),
        ("d", DIAMONDS),
        ("♥", HEARTS),
        ("clubs", CLUBS),
        ("Spade", SPADES),
    ],
)
def test_parse_suit(text, suit):
    assert parse_suit(text) == suit


@pytest.mark.parametrize("text", ["NT", "X", "", "joker"])
def test_suit_error_quotes_the_input(text):
    with pytest.raises(InvalidNotation, match="is not a suit"):
        parse_suit(text)


@pytest.mark.parametrize("text", ["NT", "nt", "N", "no-trump", "notrump", "노기", "노기루다"])
def test_no_trump_spellings(text):
    assert parse_trump(text) is None
    assert format_trump(None) == "NT"


def test_trump_error_quotes_the_input():
    with pytest.raises(InvalidNotation, match=r"'XX' is not a trump"):
        parse_trump("XX")


# --- bids ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, bid",
    [
        ("13H", Bid(13, HEARTS)),
        ("16NT", Bid(16, None)),
        ("16nt", Bid(16, None)),
        ("14 spades", Bid(14, SPADES)),
        ("15♦", Bid(15, DIAMONDS)),
        ("20 c", Bid(20, CLUBS)),
        (" 13 노기 ", Bid(13, None)),
        ("20 no-trump", Bid(20, None)),
        ("21S", Bid(21, SPADES)),
    ],
)
def test_parse_bid(text, bid):
    assert parse_bid(text) == bid


@pytest.mark.parametrize(
    "bid, text",
    [
        (Bid(13, HEARTS), "13H"),
        (Bid(16, None), "16NT"),
        (Bid(20, CLUBS), "20C"),
    ],
)
def test_format_bid_is_canonical(bid, text):
    assert format_bid(bid) == text
    assert str(bid) == text


def test_no_trump_property():
    assert Bid(14, None).no_trump and not Bid(14, SPADES).no_trump


@pytest.mark.parametrize("text", ["13", "H13", "13X", "", "NT", "thirteen hearts", "13 H H"])
def test_bid_error_quotes_the_input(text):
    with pytest.raises(InvalidNotation) as caught:
        parse_bid(text)
    assert f"{text.strip()!r} is not a bid" in str(caught.value)


# --- round trips ---------------------------------------------------------------------------

cards = st.sampled_from(DECK)
trumps = st.sampled_from([SPADES, DIAMONDS, HEARTS, CLUBS, None])
bids = st.builds(Bid, st.integers(min_value=0, max_value=99), trumps)


@given(cards)
def test_card_round_trip(card):
    assert parse_card(format_card(card)) == card


@given(cards, st.sampled_from([str.lower, str.upper, str.title]))
def test_card_round_trip_in_any_case(card, case):
    assert parse_card(case(format_card(card))) == card


@settings(max_examples=100)
@given(st.lists(cards, unique=True, max_size=13))
def test_card_list_round_trip(card_list):
    assert parse_cards(format_cards(card_list)) == card_list


@given(bids)
def test_bid_round_trip(bid):
    assert parse_bid(format_bid(bid)) == bid


@given(bids)
def test_bid_round_trip_lower_case(bid):
    assert parse_bid(format_bid(bid).lower()) == bid


def test_unknown_card_code_in_a_list_cannot_be_formatted():
    with pytest.raises(InvalidNotation, match="99"):
        format_cards([parse_card("SA"), 99])
