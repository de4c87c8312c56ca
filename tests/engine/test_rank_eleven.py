"""서울과고's 57-card 6마 (000 §3.3, table.rank_eleven): a rank 11 in every suit, between 10 and J,
written S11 (스페이드 11). One test per rule, named after it, from a position in card notation."""

from __future__ import annotations

import pytest

from hand_positions import variant
from mighty_cli.engine.cards import (
    DECK,
    ELEVENS,
    format_card,
    format_cards,
    parse_bid,
    parse_card,
    parse_cards,
    rank_order,
    sorted_cards,
)
from mighty_cli.engine.cards.deck import deal_cards
from mighty_cli.engine.cards.korean import korean_card
from mighty_cli.engine.errors import IllegalPlay, InvalidNotation, MightyError
from mighty_cli.engine.hand import (
    BidCall,
    CallFriend,
    Discard,
    FriendCall,
    Play,
    apply,
    hand_result,
    legal_plays,
    new_hand,
    trick_winner,
)
from mighty_cli.engine.hand.derived import is_deal_miss_hand
from mighty_cli.engine.ruleset import RulesetError, load_ruleset

SIX = ("Ana", "Bo", "Cy", "Di", "Ed", "Fay")


def rules():
    return load_ruleset("seoul-science-57")


def test_rank_eleven_is_written_with_digits_never_j():
    s11 = parse_card("S11")
    assert s11 in ELEVENS and s11 != parse_card("SJ")
    assert format_card(s11) == "S11" and format_card(parse_card("SJ")) == "SJ"
    assert parse_card("♥11") == parse_card("h11") == ELEVENS[2]
    assert korean_card("스페이드 11") == s11
    assert parse_cards("스페이드 11 스페이드 J") == [s11, parse_card("SJ")]
    # display order: high first, the 11 between J and 10
    assert format_cards(sorted_cards(parse_cards("S10 S11 SA SJ S9 JK"))) == "JK SA SJ S11 S10 S9"
    assert rank_order(parse_card("S10")) < rank_order(s11) < rank_order(parse_card("SJ"))
    with pytest.raises(InvalidNotation):
        parse_card("S12")


def test_rank_eleven_deck_is_57_cards_dealt_nine_each():
    ruleset = rules()
    assert len(ruleset.deck_cards) == 57 and set(DECK) < set(ruleset.deck_cards)
    assert format_cards(ruleset.deck_cards[8:12]) == "S10 S11 SJ SQ"  # canonical order
    deal = deal_cards(7, SIX, ruleset.deck_cards, ruleset.table.hand_size)
    assert {len(deal[p]) for p in SIX} == {9} and len(deal["kitty"]) == 3
    state = new_hand(ruleset, SIX, "Ana", deal)
    dealt = [c for cards in state.hands.values() for c in cards] + list(state.kitty)
    assert sorted(dealt) == sorted(ruleset.deck_cards) and len(state.players) == 6
    # nobody is eliminated: six play nine tricks
    assert ruleset.table.eliminated == 0 and ruleset.tricks == 9 and ruleset.playing == 6


def test_rank_eleven_is_not_in_a_53_card_deck():
    standard = load_ruleset("standard")
    deal = deal_cards(7, SIX[:5], standard.deck_cards)
    deal["Ana"][0] = parse_card("S11")
    with pytest.raises(
        MightyError,
        match=r"deal: S11 is not in this ruleset's deck "
        r"\(table.rank_eleven = false\)",
    ):
        new_hand(standard, SIX[:5], "Ana", deal)
    state = new_hand(standard, SIX[:5], "Ana", None, opener="Ana")
    state = apply(state, BidCall("Ana", parse_bid("13S")))
    for player in SIX[1:5]:
        state = apply(state, BidCall(player, None))
    state = apply(apply(state, Discard(())), CallFriend(FriendCall("card", parse_card("DA"))))
    with pytest.raises(
        IllegalPlay,
        match=r"trick 1: Ana played S11, which is not in this "
        r"ruleset's deck \(table.rank_eleven = false\)",
    ):
        play(state, "Ana", "S11")
    with pytest.raises(RulesetError, match="cards.point_ranks names 11, but the deck has no 11"):
        variant({"cards.point_ranks": ["A", "K", "Q", "J", "11", "10"]})
    with pytest.raises(RulesetError, match="cards.joker_call = 'C11' is not in the deck"):
        variant({"cards.joker_call": "C11"})


def test_rank_eleven_ranks_between_ten_and_jack_in_a_trick():
    s, h = 0, 2
    cards = parse_cards("H9 H11 H10")
    assert trick_winner(cards, h, s, parse_card("SA")) == 1  # the 11 beats the 10
    cards = parse_cards("H9 H11 HJ H10")
    assert trick_winner(cards, h, s, parse_card("SA")) == 2  # and loses to the J
    cards = parse_cards("H9 S11 S10 SJ")
    assert trick_winner(cards, h, s, parse_card("SA")) == 3  # as trump too
    cards = parse_cards("H9 S11 S10")
    assert trick_winner(cards, h, s, parse_card("SA")) == 1


# A position: Ana deals and opens (서울과고: the dealer opens), bids 16S, everyone passes; trick 1
# is a heart lead where Bo's J, Cy's 11 and Di's 10 meet.
HANDS = {
    "Ana": "SA SK SQ S11 S10 S9 S8 H9 C2",
    "Bo": "HJ D2 D3 D4 D5 D6 D7 D8 D9",
    "Cy": "H11 C3 C4 C5 C6 C7 C8 C9 C10",
    "Di": "H10 D10 D11 DJ DQ DK DA CJ CQ",
    "Ed": "H2 H3 H4 H5 H6 H7 H8 CK CA",
    "Fay": "JK SJ S7 S6 S5 S4 S3 S2 HQ",
}
KITTY = "HK HA C11"


def position(hands=HANDS, kitty=KITTY):
    deal = {who: parse_cards(text) for who, text in hands.items()}
    deal["kitty"] = parse_cards(kitty)
    state = new_hand(rules(), SIX, "Ana", deal, opener="Ana")
    state = apply(state, BidCall("Ana", parse_bid("16S")))
    for player in SIX[1:]:
        state = apply(state, BidCall(player, None))
    state = apply(state, Discard(tuple(parse_cards(kitty))))
    return apply(state, CallFriend(FriendCall("card", parse_card("JK"))))


def play(state, player, card):
    return apply(state, Play(player, parse_card(card)))


def first_trick(state, cards):
    for player, card in zip(SIX, cards.split()):
        state = play(state, player, card)
    return state.tricks[0]


def test_rank_eleven_loses_to_the_jack_and_beats_the_ten_in_play():
    trick = first_trick(position(), "H9 HJ H11 H10 H2 HQ")
    assert trick.winner == "Fay"  # the Q
    hands = dict(HANDS, Fay="JK SJ S7 S6 S5 S4 S3 S2 C11")
    trick = first_trick(position(hands, "HK HA HQ"), "H9 HJ H11 H10 H2 C11")
    assert trick.winner == "Bo"  # J over 11 (its code, 15, is above the ace's 14)
    hands = dict(
        HANDS,
        Bo="H8 D2 D3 D4 D5 D6 D7 D8 D9",
        Ed="HJ H3 H4 H5 H6 H7 H2 CK CA",
        Fay="JK SJ S7 S6 S5 S4 S3 S2 C11",
    )
    trick = first_trick(position(hands, "HK HA HQ"), "H9 H8 H11 H10 H3 C11")
    assert trick.winner == "Cy"  # 11 over 10


def test_rank_eleven_is_a_point_card():
    ruleset = rules()
    assert ruleset.point_card_total == 24 and ruleset.full_bid == 24
    trick = first_trick(position(), "H9 HJ H11 H10 H2 HQ")
    assert trick.points == 4  # J, 11, 10 and Q
    state = position()
    while state.phase == "play":
        state = apply(state, legal_plays(state)[0])
    result = hand_result(state)
    assert sum(t.points for t in state.tricks) + state.discarded_points == 24
    assert sum(result.deltas.values()) == 0 and len(state.tricks) == 9


def test_rank_eleven_deal_miss_weighs_the_eleven_as_the_ten():
    ruleset = rules()
    lone = parse_cards("S11 S9 S8 D7 D6 H5 H4 C3 C2")
    assert is_deal_miss_hand(ruleset, lone)  # a lone 11, as a lone 10
    assert not is_deal_miss_hand(ruleset, parse_cards("SJ S9 S8 D7 D6 H5 H4 C3 C2"))
    assert not is_deal_miss_hand(ruleset, parse_cards("S11 S10 S8 D7 D6 H5 H4 C3 C2"))
    # nine point cards, an 11 among them (deal_miss.all_point_cards)
    assert is_deal_miss_hand(ruleset, parse_cards("SA SK SQ SJ S11 S10 DA DK DQ"))


def test_rank_eleven_refused_where_not_held_in_play():
    state = position()
    with pytest.raises(IllegalPlay, match="Ana led C11 but does not hold it"):
        play(state, "Ana", "C11")  # discarded with the kitty


def test_rank_eleven_seeded_deal_is_golden():
    # mighty-deal/1 over the 57 cards in their canonical order (the 11 between 10 and J): if
    # this changes, every table that shared a seed of this ruleset plays other cards
    ruleset = rules()
    deal = deal_cards(42, SIX, ruleset.deck_cards, ruleset.table.hand_size)
    assert {who: format_cards(cards) for who, cards in deal.items()} == {
        "Ana": "JK D9 HJ CJ S7 C11 S11 H8 H6",
        "Bo": "D8 SJ CQ H2 HK CK D7 SK DJ",
        "Cy": "HQ CA C6 DA S8 D6 H3 S9 H7",
        "Di": "SA C4 C8 S6 DQ D2 C7 DK S10",
        "Ed": "SQ C5 D4 HA S4 C2 C3 D5 D3",
        "Fay": "H9 H10 S5 S2 D11 D10 H4 S3 C10",
        "kitty": "H5 H11 C9",
    }
