"""Korean input: suits, bids, cards and table calls as clubs say them, read by the same parsers
as the canonical notation (English input keeps working whatever the language)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mighty_cli.engine.cards import (
    CLUBS,
    DECK,
    DIAMONDS,
    HEARTS,
    JOKER,
    SPADES,
    Bid,
    format_bid,
    format_card,
    format_cards,
    parse_bid,
    parse_card,
    parse_cards,
    parse_suit,
    parse_trump,
)
from mighty_cli.engine.cards.korean import format_bid_ko, format_card_ko, format_trump_ko
from mighty_cli.engine.errors import InvalidNotation
from mighty_cli.i18n import set_language
from mighty_cli.table.words import normalize_entry

SUIT_ALIASES = {
    SPADES: ["스페이드", "스페", "♠"],
    DIAMONDS: ["다이아", "다이아몬드", "◆"],
    HEARTS: ["하트", "♥"],
    CLUBS: ["클로버", "클럽", "크로바", "♣"],
}
NO_TRUMP_ALIASES = ["노기루다", "노기"]
RANK_ALIASES = {
    14: ["A", "a", "에이스"],
    13: ["K", "킹"],
    12: ["Q", "퀸"],
    11: ["J", "잭"],
    10: ["10", "T"],
} | {r: [str(r)] for r in range(2, 10)}

cards = st.sampled_from(DECK)
trumps = st.sampled_from([SPADES, DIAMONDS, HEARTS, CLUBS, None])
bids = st.builds(Bid, st.integers(1, 99), trumps)
gaps = st.sampled_from(["", " ", "  "])


@pytest.mark.parametrize(
    "text, card",
    [
        ("스페이드 A", 0 << 4 | 14),
        ("다이아 10", 1 << 4 | 10),
        ("하트 K", 2 << 4 | 13),
        ("클로버 2", 3 << 4 | 2),
        ("조커", JOKER),
        ("스페A", 0 << 4 | 14),
        ("하트 퀸", 2 << 4 | 12),
    ],
)
def test_korean_cards(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize(
    "text, bid",
    [
        ("스페이드 14", Bid(14, SPADES)),
        ("14 노기", Bid(14, None)),
        ("14스페", Bid(14, SPADES)),
        ("노기루다 15", Bid(15, None)),
        ("다이아몬드 13", Bid(13, DIAMONDS)),
        ("16 하트", Bid(16, HEARTS)),
        ("클럽17", Bid(17, CLUBS)),
        ("14 ♠", Bid(14, SPADES)),
    ],
)
def test_korean_bids(text, bid):
    assert parse_bid(text) == bid


@pytest.mark.parametrize(
    "text, trump",
    [
        ("스페이드", SPADES),
        ("스페", SPADES),
        ("♠", SPADES),
        ("다이아", DIAMONDS),
        ("다이아몬드", DIAMONDS),
        ("하트", HEARTS),
        ("클로버", CLUBS),
        ("클럽", CLUBS),
        ("노기루다", None),
        ("노기", None),
    ],
)
def test_korean_trumps(text, trump):
    assert parse_trump(text) == trump
    if trump is not None:
        assert parse_suit(text) == trump


def test_korean_card_list_pairs_suit_and_rank():
    assert format_cards(parse_cards("클로버 2 다이아 3 하트 4")) == "C2 D3 H4"
    assert format_cards(parse_cards("스페이드 A, 다이아10 조커 SK")) == "SA D10 JK SK"


@pytest.mark.parametrize("text", ["스페이드 Z", "스페이드", "하트 1", "오리 A"])
def test_bad_korean_card_is_invalid_notation(text):
    with pytest.raises(InvalidNotation, match="is not a card"):
        parse_card(text)


def test_bad_card_message_is_korean_in_korean():
    set_language("ko")
    with pytest.raises(InvalidNotation) as caught:
        parse_card("스페이드 Z")
    assert str(caught.value).startswith("'스페이드 Z'는 카드가 아닙니다: 카드는 무늬")
    with pytest.raises(InvalidNotation, match="공약이 아닙니다"):
        parse_bid("스페이드")


@given(cards)
def test_korean_card_round_trip(card):
    assert parse_card(format_card_ko(card)) == card


@given(cards, st.data(), gaps)
def test_every_korean_spelling_of_a_card_parses(card, data, gap):
    if card == JOKER:
        text = data.draw(st.sampled_from(["조커", " 조커 "]))
    else:
        suit = data.draw(st.sampled_from(SUIT_ALIASES[card >> 4]))
        text = suit + gap + data.draw(st.sampled_from(RANK_ALIASES[card & 15]))
    assert parse_card(text) == card


@given(bids)
def test_korean_bid_round_trip(bid):
    assert parse_bid(format_bid_ko(bid)) == bid


@given(bids, st.data(), gaps, st.booleans())
def test_every_korean_spelling_of_a_bid_parses(bid, data, gap, number_first):
    word = data.draw(
        st.sampled_from(NO_TRUMP_ALIASES if bid.trump is None else SUIT_ALIASES[bid.trump])
    )
    text = f"{bid.number}{gap}{word}" if number_first else f"{word}{gap}{bid.number}"
    assert parse_bid(text) == bid


@given(st.lists(cards, unique=True, max_size=10), st.sampled_from([" ", ", "]))
def test_korean_card_list_round_trip(hand, separator):
    assert parse_cards(separator.join(format_card_ko(c) for c in hand)) == hand


@given(st.lists(cards, unique=True, min_size=1, max_size=10))
def test_korean_card_list_normalizes_to_the_canonical_list(hand):
    entry = normalize_entry(" ".join(format_card_ko(c) for c in hand))
    # the joker alone is the word "joker", which both a card and a friend call read
    assert entry == ("joker" if hand == [JOKER] else format_cards(hand))
    assert parse_cards(entry) == hand


@given(st.builds(Bid, st.integers(11, 99), trumps))
def test_korean_bid_normalizes_to_the_canonical_bid(bid):
    assert normalize_entry(format_bid_ko(bid)) == format_bid(bid)
    assert normalize_entry(f"{bid.number} {format_trump_ko(bid.trump)}") == format_bid(bid)


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=20))
def test_english_entries_come_back_unchanged(text):
    assert normalize_entry(text) == text


@given(cards)
def test_english_card_input_keeps_working_in_korean(card):
    set_language("ko")
    assert parse_card(format_card(card)) == card
    assert parse_card(format_card(card).lower()) == card


@pytest.mark.parametrize(
    "text, entry",
    [
        ("패스", "pass"),
        ("마이티", "mighty"),
        ("조커", "joker"),
        ("노프렌드", "none"),
        ("노프", "none"),
        ("초구", "first-trick"),
        ("초구 프렌드", "first-trick"),
        ("막구", "last-trick"),
        ("스페이드 14", "14S"),
        ("14 노기", "14NT"),
        ("14스페", "14S"),
        ("스페이드 A", "SA"),
        ("다이아 10", "D10"),
        ("조커 하트", "JK/H"),
        ("조커/하트", "JK/H"),
        ("클로버 3!", "C3!"),
        ("공약 스페이드 17", "contract 17S"),
        ("공약 18 노기", "contract 18NT"),
        ("마이티 프렌드", "mighty"),
        ("조커 프렌드", "joker"),
        ("너 프렌드 김민수", "player:김민수"),
        ("조콜", "joker-call"),
        ("클로버 3 조콜", "C3!"),
        ("C3 조커 콜", "C3!"),
        ("없음", "none"),
        ("무르기 2", "undo 2"),
        ("딜 미스 Bo", "miss Bo"),
        ("패 김철수", "hand 김철수"),
        ("보기", "table"),
        ("sa", "sa"),
        ("13h", "13h"),
        ("pass", "pass"),
        ("아무말", "아무말"),
    ],
)
def test_prompt_entries_in_korean(text, entry):
    assert normalize_entry(text) == entry


def test_a_suit_and_ten_is_a_card_unless_a_bid_is_expected():
    assert normalize_entry("다이아 10") == "D10"
    assert normalize_entry("다이아 10", expect="card") == "D10"
    assert normalize_entry("다이아 10", expect="bid") == "10D"
