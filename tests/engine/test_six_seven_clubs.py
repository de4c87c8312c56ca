"""The clubs' 6마 and 7마: 관악 6마 (000 §7.6) checked against the seed, 동대전 6마 and 7마
(§7.5.2, §7.5.3), 시흥 은마 (§7.21). One test per rule, named after it, from a position in
card notation."""

from __future__ import annotations

from mighty_cli.engine.cards import parse_bid, parse_card, parse_cards
from mighty_cli.engine.hand import (BidCall, CallFriend, Discard, Eliminate, FriendCall, Play,
                                    Redistribute, apply, is_deal_miss_hand, legal_plays, new_hand)
from mighty_cli.engine.ruleset import load_ruleset

SIX = ("Ana", "Bo", "Cy", "Di", "Ed", "Fay")
SEVEN = SIX + ("Gus",)

# Seeded deal 1 of the 6마 rulesets, written out (as tests/engine/test_elimination.py).
DEAL_6 = {"Ana": "DQ D9 D2 H6 CA CQ C10 C3", "Bo": "SK DA D8 HK H8 H5 C9 C8",
          "Cy": "SQ S10 S7 S6 S3 HA H9 C6", "Di": "SA S9 S4 D6 D5 D3 H4 C7",
          "Ed": "JK SJ S2 DK D10 D7 D4 CK", "Fay": "S5 DJ HJ H7 H2 C5 C4 C2",
          "kitty": "S8 HQ H10 H3 CJ"}


def cards(deal: dict) -> dict:
    return {who: parse_cards(text) for who, text in deal.items()}


def declared(rules, players, deal, bid):
    """Ana opens and bids; everyone else passes: Ana is declarer."""
    state = new_hand(rules, players, players[0], cards(deal), opener=players[0])
    state = apply(state, BidCall("Ana", parse_bid(bid)))
    for player in players[1:]:
        state = apply(state, BidCall(player, None))
    return state


# --- 관악 6마 (000 §7.6), checked against the seed --------------------------------------------


def gwanak_lead(name: str) -> list[Play]:
    """Ana declares 14C under a 6마 ruleset, eliminates Ed (♠... JK), keeps ♥3 from the kitty,
    calls ♠A and is to lead trick 1: her legal leads of ♥3."""
    state = declared(load_ruleset(name), SIX, DEAL_6, "14C")
    state = apply(state, Eliminate(parse_card("JK")))
    state = apply(state, Redistribute(tuple(
        (who, tuple(parse_cards(text))) for who, text in
        (("Ana", "JK SJ DK CK H3"), ("Bo", "S2 D10"), ("Cy", "D7 D4"), ("Di", "S8 HQ"),
         ("Fay", "H10 CJ")))))
    state = apply(state, Discard(tuple(parse_cards("D2 D9 H6"))))
    state = apply(state, CallFriend(FriendCall("card", parse_card("SA"))))
    return [play for play in legal_plays(state) if play.card == parse_card("H3")]


def test_gwanak_6_joker_call_is_heart_three_when_clubs_are_trump():
    # 000 footnotes 11, 35: 다만 관악, 경기에서는 ♥3이다. Under club trump ♥3 may be led as the
    # call in 관악 6마; in 대전 6마 (standard: ♠3) it is a plain card.
    assert any(play.joker_call for play in gwanak_lead("gwanak-6"))
    assert not any(play.joker_call for play in gwanak_lead("daejeon-6"))


def test_gwanak_6_deal_miss_with_all_point_cards():
    # 000 §7.6: 대전 6마와 큰 차이가 없다; 대전's deal miss is 신촌's, 모든 카드가 점수 카드여도 딜미스.
    all_points = parse_cards("SK SQ SJ S10 DA DK HA HK")
    assert is_deal_miss_hand(load_ruleset("gwanak-6"), all_points)
    assert is_deal_miss_hand(load_ruleset("daejeon-6"), all_points)
    assert not is_deal_miss_hand(load_ruleset("standard-6"), all_points)
