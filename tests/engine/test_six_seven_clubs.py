"""The clubs' 6마 and 7마: 관악 6마 (000 §7.6) checked against the seed, 동대전 6마 and 7마
(§7.5.2, §7.5.3), 시흥 은마 (§7.21). One test per rule, named after it, from a position in
card notation."""

from __future__ import annotations

import pytest

from hand_positions import variant
from mighty_cli.engine.cards import parse_bid, parse_card, parse_cards
from mighty_cli.engine.errors import IllegalExchange
from mighty_cli.engine.hand import (
    BidCall,
    CallFriend,
    Discard,
    Eliminate,
    FriendCall,
    Play,
    Redistribute,
    apply,
    hand_result,
    is_deal_miss_hand,
    legal_actions,
    legal_plays,
    new_hand,
)
from mighty_cli.engine.records import Record, replay, state_to_hand
from mighty_cli.engine.ruleset import load_ruleset

# seeded deal 1 of the 6마 rulesets, written out, and the tables' names
from test_elimination import DEAL_6, SEVEN, SIX


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
    state = apply(
        state,
        Redistribute(
            tuple(
                (who, tuple(parse_cards(text)))
                for who, text in (
                    ("Ana", "JK SJ DK CK H3"),
                    ("Bo", "S2 D10"),
                    ("Cy", "D7 D4"),
                    ("Di", "S8 HQ"),
                    ("Fay", "H10 CJ"),
                )
            )
        ),
    )
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


# --- 동대전 6마 (000 §7.5.2) and 7마 (§7.5.3) ------------------------------------------------------

DEAL_DD6 = DEAL_6  # seeded deal 1 of dongdaejeon-6: the same six hands of eight and kitty
DEAL_DD7 = {
    "Ana": "DQ D9 D2 H6 CA CQ C10",
    "Bo": "D8 HK H8 H5 C9 C8 C3",
    "Cy": "SK SQ S7 S6 DA H9 C6",
    "Di": "S10 S4 S3 D5 D3 HA C7",
    "Ed": "SA S9 D10 D6 D4 H4 CK",
    "Fay": "JK SJ S5 S2 DK D7 HJ",
    "Gus": "DJ H7 H3 H2 C5 C4 C2",
    "kitty": "S8 HQ H10 CJ",
}


def called(rules, players, deal, bid, discard, call):
    """Ana declares, discards, calls ``call`` (record notation: SA, SA+DK)."""
    from mighty_cli.engine.hand.actions import parse_friend_call

    state = declared(rules, players, deal, bid)
    state = apply(state, Discard(tuple(parse_cards(discard))))
    return apply(state, CallFriend(parse_friend_call(call, state)))


def played_out(state):
    """Every player plays his first legal card (legal_plays' order) to the end."""
    while state.phase == "play":
        state = apply(state, legal_plays(state)[0])
    return state


def test_dongdaejeon_6_eight_cards_each_five_in_the_kitty_eight_tricks():
    # 000 §7.5.2: 딜러는 처음에 카드 5장을 제외하고 8장씩 각 플레이어에게 돌린다. Nobody leaves:
    # Ana takes the five, discards five, and six play eight tricks.
    rules = load_ruleset("dongdaejeon-6")
    state = declared(rules, SIX, DEAL_DD6, "13C")
    assert len(state.hands["Ana"]) == 13 and state.phase == "exchange"
    with pytest.raises(IllegalExchange, match="the discard is exactly 5"):
        apply(state, Discard(tuple(parse_cards("D9 D2 H6"))))
    final = played_out(called(rules, SIX, DEAL_DD6, "13C", "D9 D2 H6 H3 S8", "SA"))
    assert final.phase == "done" and len(final.tricks) == 8
    assert all(len(trick.plays) == 6 for trick in final.tricks)


def test_dongdaejeon_6_friend_cards_count_one_and_a_half_rounded_up():
    # 000 §7.5.2: 프렌즈가 얻은 점수카드는 곱하기 1.5장 ... 반올림한다 (footnote 75: 사실상 올림).
    # Ana takes 11 point cards, her friend Di (♠A) 3: 11 + 4.5 → 11 + 5 = 16 against 13, where
    # unweighted cards would give 14.
    final = played_out(
        called(load_ruleset("dongdaejeon-6"), SIX, DEAL_DD6, "13C", "D9 D2 H6 H3 S8", "SA")
    )
    assert final.points_taken == {"Ana": 11, "Bo": 4, "Cy": 0, "Di": 3, "Ed": 2, "Fay": 0}
    result = hand_result(final)
    assert (result.friend, result.taken, result.score.base) == ("Di", 16, 3)
    unweighted = played_out(
        called(
            variant({"scoring.friend_weight": 1.0}, base="dongdaejeon-6"),
            SIX,
            DEAL_DD6,
            "13C",
            "D9 D2 H6 H3 S8",
            "SA",
        )
    )
    assert (hand_result(unweighted).taken, hand_result(unweighted).score.base) == (14, 1)


def test_dongdaejeon_6_discarded_point_cards_count_once_for_the_declarer():
    # 000 §7.5.2: 버려진 덱에 있던 점수카드(처음에 주공이 제외한 점수카드)는 주공의 얻은 것으로 간주해
    # 곱하기 1장을 한다. Ana buries ♥Q and ♥10: they count one each, the friend's cards 1.5.
    final = played_out(
        called(load_ruleset("dongdaejeon-6"), SIX, DEAL_DD6, "13C", "D9 D2 H6 HQ H10", "DK")
    )
    result = hand_result(final)
    assert final.discarded_points == 2 and result.friend == "Ed"
    own, friend = final.points_taken["Ana"] + 2, final.points_taken["Ed"]
    assert result.taken == own + (3 * friend + 1) // 2  # friend × 1.5, rounded half up


def test_dongdaejeon_6_opponents_and_friend_one_share_declarer_the_balance():
    # 000 §7.5.1 (kept by §7.5.2): 프렌즈는 기본점수, 야당은 기본점수; with four opponents the
    # declarer takes the balance, three shares, and the hand sums to zero.
    result = hand_result(
        played_out(
            called(load_ruleset("dongdaejeon-6"), SIX, DEAL_DD6, "13C", "D9 D2 H6 H3 S8", "SA")
        )
    )
    assert result.deltas == {"Ana": 9, "Bo": -3, "Cy": -3, "Di": 3, "Ed": -3, "Fay": -3}


def test_dongdaejeon_7_seven_cards_each_four_in_the_kitty_seven_tricks():
    # 000 §7.5.3: 딜러는 처음에 카드 4장을 제외하고 7장씩 각 플레이어에게 돌린다; 아무도 제외하지
    # 않고 다같이 플레이한다.
    final = played_out(
        called(load_ruleset("dongdaejeon-7"), SEVEN, DEAL_DD7, "13C", "D9 D2 H6 S8", "SA+JK")
    )
    assert len(final.tricks) == 7 and all(len(t.plays) == 7 for t in final.tricks)


def test_dongdaejeon_7_two_called_cards_two_friends_count_one_and_a_half():
    # 000 §7.5.3: 프렌즈 2명(두 사람이 두 카드를 각각 한 장씩) ... 프렌즈들이 얻은 점수 카드는 곱하기
    # 1.5장. Ed (♠A) took 8, Fay (joker) 2: Ana's 10 + 15 = 25; 주공 두배, 프렌즈 기본점수 each.
    result = hand_result(
        played_out(
            called(load_ruleset("dongdaejeon-7"), SEVEN, DEAL_DD7, "13C", "D9 D2 H6 S8", "SA+JK")
        )
    )
    assert (result.friend, result.friend2, result.taken) == ("Ed", "Fay", 25)
    assert result.deltas == {
        "Ana": 24,
        "Bo": -12,
        "Cy": -12,
        "Di": -12,
        "Ed": 12,
        "Fay": 12,
        "Gus": -12,
    }


def test_dongdaejeon_7_one_friend_holding_both_counts_double():
    # 000 §7.5.3: 프렌즈 1명(한 사람이 두 장의 카드를 모두 갖고 있는경우) ... 곱하기 2장. Fay holds
    # the joker and ♠J: her 2 count 4, Ana's 10 + 4 = 14.
    result = hand_result(
        played_out(
            called(load_ruleset("dongdaejeon-7"), SEVEN, DEAL_DD7, "13C", "D9 D2 H6 S8", "JK+SJ")
        )
    )
    assert (result.friend, result.friend2, result.taken) == ("Fay", None, 14)
    # one card held by the declarer (♣Q): Ed alone is friend, his 8 count 16
    result = hand_result(
        played_out(
            called(load_ruleset("dongdaejeon-7"), SEVEN, DEAL_DD7, "13C", "D9 D2 H6 S8", "SA+CQ")
        )
    )
    assert (result.friend, result.friend2, result.taken) == ("Ed", None, 26)
    assert result.deltas["Ana"] == 4 * 13 and result.deltas["Ed"] == 13


def test_dongdaejeon_7_no_friend_when_the_declarer_holds_or_buried_both():
    # 000 §7.5.3: 노프렌즈(두 장 모두 자기가 갖고있거나 4장 묻은 패에 포함되어 있는경우): ♣Q in
    # Ana's hand, ♠8 among her discards.
    result = hand_result(
        played_out(
            called(load_ruleset("dongdaejeon-7"), SEVEN, DEAL_DD7, "13C", "D9 D2 H6 S8", "CQ+S8")
        )
    )
    assert (result.friend, result.friend2, result.taken) == (None, None, 10)
    assert result.deltas["Ana"] == -6 * 3  # six opponents' shares, no doubling


def test_dongdaejeon_7_two_different_cards_are_called():
    # 000 §7.5.3: 주공은 서로 다른 임의의 카드 두 장을 불러 프렌즈를 선택한다.
    rules = load_ruleset("dongdaejeon-7")
    state = declared(rules, SEVEN, DEAL_DD7, "13C")
    state = apply(state, Discard(tuple(parse_cards("D9 D2 H6 S8"))))
    with pytest.raises(IllegalExchange, match=r"names 2 different cards here"):
        apply(state, CallFriend(FriendCall("card", parse_card("SA"))))
    with pytest.raises(IllegalExchange, match="must differ"):
        apply(state, CallFriend(FriendCall("card", parse_card("SA"), card2=parse_card("SA"))))
    calls = [action.call for action in legal_actions(state) if isinstance(action, CallFriend)]
    assert FriendCall("card", parse_card("SA"), card2=parse_card("JK")) in calls
    assert all(call.card2 is not None for call in calls if call.kind == "card")
    # 5마 (one card): a second card is refused
    five = load_ruleset("dongdaejeon")
    assert five.friend.called_cards == 1


def test_dongdaejeon_7_two_card_call_round_trips_through_the_record():
    # The record writes the call as "SA+joker" (a new value of friend; no key changes).
    final = played_out(
        called(load_ruleset("dongdaejeon-7"), SEVEN, DEAL_DD7, "13C", "D9 D2 H6 S8", "SA+JK")
    )
    hand = state_to_hand(final, cards(DEAL_DD7))
    assert hand["friend"] == "SA+joker"
    (outcome,) = replay(Record(ruleset="dongdaejeon-7", players=list(SEVEN), hands=[hand])).hands
    assert outcome.deltas == hand_result(final).deltas and outcome.taken == 25
