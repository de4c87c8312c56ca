"""시흥 은마 (000 §7.21, table.dummy): five players and a dummy (은실) play 6마. One test per rule,
named after it, from a position in card notation."""

from __future__ import annotations

import random

import pytest

from hand_positions import variant
from mighty_cli.engine.cards import parse_bid, parse_card, parse_cards, sorted_cards
from mighty_cli.engine.cards.deck import deal_cards
from mighty_cli.engine.errors import (
    IllegalBid,
    IllegalDealMiss,
    IllegalExchange,
    MightyError,
    RecordError,
)
from mighty_cli.engine.hand import (
    DUMMY,
    BidCall,
    CallFriend,
    DeclareDealMiss,
    Discard,
    Eliminate,
    FriendCall,
    Redistribute,
    apply,
    hand_result,
    legal_actions,
    legal_plays,
    new_hand,
    random_legal_action,
    redistribution_sizes,
    seats,
)
from mighty_cli.engine.records import Record, replay, state_to_hand
from mighty_cli.engine.ruleset import RulesetError, load_ruleset

FIVE = ("Ana", "Bo", "Cy", "Di", "Ed")
# 6마's test position (tests/engine/test_elimination.py) with Fay's hand the dummy's.
DEAL = {
    "Ana": "DQ D9 D2 H6 CA CQ C10 C3",
    "Bo": "SK DA D8 HK H8 H5 C9 C8",
    "Cy": "SQ S10 S7 S6 S3 HA H9 C6",
    "Di": "SA S9 S4 D6 D5 D3 H4 C7",
    "Ed": "JK SJ S2 DK D10 D7 D4 CK",
    DUMMY: "S5 DJ HJ H7 H2 C5 C4 C2",
    "kitty": "S8 HQ H10 H3 CJ",
}


def cards(deal: dict) -> dict:
    return {who: parse_cards(text) for who, text in deal.items()}


def rules():
    return load_ruleset("siheung-6")


def declared(ruleset=None, bid="14C"):
    """Ana opens and bids; Bo to Ed pass (the dummy is passed over): Ana is declarer."""
    state = new_hand(ruleset or rules(), FIVE, "Ana", cards(DEAL), opener="Ana")
    state = apply(state, BidCall("Ana", parse_bid(bid)))
    for player in FIVE[1:]:
        state = apply(state, BidCall(player, None))
    return state


def eliminate(state, card: str):
    return apply(state, Eliminate(parse_card(card)))


def redistribute(state, **given: str):
    return apply(
        state, Redistribute(tuple((who, tuple(parse_cards(text))) for who, text in given.items()))
    )


def play_out(state):
    while state.phase == "play":
        state = apply(state, legal_plays(state)[0])
    return state


def test_siheung_the_dummy_is_dealt_eight_after_the_players_and_never_bids():
    ruleset = rules()
    assert seats(ruleset, FIVE) == FIVE + (DUMMY,)
    state = new_hand(ruleset, FIVE, "Ana", cards(DEAL), opener="Ana")
    assert state.players == FIVE + (DUMMY,)
    assert len(state.hands[DUMMY]) == 8 and len(state.kitty) == 5
    state = apply(state, BidCall("Ana", parse_bid("14C")))
    for player in ("Bo", "Cy", "Di"):
        state = apply(state, BidCall(player, None))
    state = apply(state, BidCall("Ed", parse_bid("15C")))
    assert state.to_move == "Ana"  # 비딩 시 더미는 자동 패스: Ed's turn passes to Ana
    assert not [a for a in legal_actions(state) if getattr(a, "player", None) == DUMMY]
    with pytest.raises(IllegalBid):
        apply(state, BidCall(DUMMY, parse_bid("16C")))
    with pytest.raises(MightyError, match="the dummy never deals nor opens"):
        new_hand(ruleset, FIVE, DUMMY, cards(DEAL), opener="Ana")


def test_siheung_the_dummy_never_declares_a_deal_miss():
    # the dummy's hand S5 S4 D3 H7 H2 C5 C4 C2 has no point card: in 6마 its holder may show it
    deal = dict(DEAL, Di="SA S9 DJ D6 D5 HJ H4 C7", dummy="S5 S4 D3 H7 H2 C5 C4 C2")
    six = dict(deal)
    six["Fay"] = six.pop(DUMMY)
    state = new_hand(load_ruleset("standard-6"), FIVE + ("Fay",), "Ana", cards(six), opener="Ana")
    assert apply(state, DeclareDealMiss("Fay")).phase == "deal_miss"
    state = new_hand(rules(), FIVE, "Ana", cards(deal), opener="Ana")
    with pytest.raises(IllegalDealMiss, match="the dummy never declares a deal miss"):
        apply(state, DeclareDealMiss(DUMMY))


def test_siheung_the_holder_of_the_called_card_is_eliminated():
    state = declared()
    assert state.phase == "elimination" and state.to_move == "Ana"
    out = eliminate(state, "JK")
    assert out.eliminated == ("Ed",) and out.phase == "redistribution"
    with pytest.raises(IllegalExchange, match="Ana called CA, which he holds himself"):
        eliminate(state, "CA")


@pytest.mark.parametrize("card", ["HQ", "DJ"], ids=["in-the-kitty", "in-the-dummys-hand"])
def test_siheung_a_card_nobody_holds_eliminates_the_dummy_with_no_second_call(card):
    # 6마: a card in the kitty is called again
    six = dict(DEAL)
    six["Fay"] = six.pop(DUMMY)
    state = new_hand(load_ruleset("standard-6"), FIVE + ("Fay",), "Ana", cards(six), opener="Ana")
    state = apply(state, BidCall("Ana", parse_bid("14C")))
    for player in FIVE[1:] + ("Fay",):
        state = apply(state, BidCall(player, None))
    assert eliminate(state, "HQ").phase == "elimination"
    # 시흥 은마: 더미가 갖고 있다고 생각하고 더 이상 호명하지 않는다
    out = eliminate(declared(), card)
    assert out.eliminated == (DUMMY,) and out.phase == "redistribution"


def test_siheung_the_dummy_eliminated_is_dealt_out_as_in_6ma():
    state = eliminate(declared(), "HQ")
    # the dummy's eight and the kitty's five: S5 DJ HJ H7 H2 C5 C4 C2 S8 HQ H10 H3 CJ
    assert redistribution_sizes(state) == {"Ana": 5, "Bo": 2, "Cy": 2, "Di": 2, "Ed": 2}
    with pytest.raises(IllegalExchange, match="Ana receives 4 cards"):
        redistribute(state, Ana="HQ H10 CJ DJ", Bo="S5 HJ", Cy="H7 H2", Di="C5 C4", Ed="C2 S8 H3")
    dealt = redistribute(
        state, Ana="HQ H10 CJ DJ HJ", Bo="S5 H3", Cy="H7 H2", Di="C5 C4", Ed="C2 S8"
    )
    assert dealt.phase == "exchange" and dealt.players == FIVE
    assert len(dealt.hands["Ana"]) == 13
    assert {len(dealt.hands[p]) for p in FIVE[1:]} == {10}
    assert sorted_cards(dealt.hands["Ed"]) == sorted_cards(parse_cards(DEAL["Ed"] + " C2 S8"))


def test_siheung_an_eliminated_player_takes_up_the_dummys_hand():
    state = eliminate(declared(), "JK")
    # Ed's eight and the kitty's five: 2 to Bo, Cy, Di and the dummy, the other 3 to Ana (5)
    assert redistribution_sizes(state) == {"Ana": 5, "Bo": 2, "Cy": 2, "Di": 2, DUMMY: 2}
    with pytest.raises(
        IllegalExchange, match="the eliminated hands and the kitty go to Ana, Bo, Cy, Di, dummy"
    ):
        redistribute(state, Ana="JK SJ DK CK CJ", Bo="S2 D10", Cy="D7 D4", Di="S8 HQ", Ed="H10 H3")
    dealt = redistribute(
        state, Ana="JK SJ DK CK CJ", Bo="S2 D10", Cy="D7 D4", Di="S8 HQ", dummy="H10 H3"
    )
    # 더미의 카드를 받아: Ed plays the dummy's eight and its two, from his own seat
    assert dealt.players == FIVE and dealt.phase == "exchange"
    assert sorted_cards(dealt.hands["Ed"]) == sorted_cards(parse_cards(DEAL[DUMMY] + " H10 H3"))
    assert len(dealt.hands["Ana"]) == 13


def test_siheung_the_player_with_the_dummys_hand_scores_like_anyone():
    state = eliminate(declared(), "JK")
    state = redistribute(
        state, Ana="JK SJ DK CK CJ", Bo="S2 D10", Cy="D7 D4", Di="S8 HQ", dummy="H10 H3"
    )
    state = apply(state, Discard(tuple(parse_cards("D2 D9 H6"))))
    # DJ was the dummy's: Ed, holding the dummy's hand now, is the friend
    state = play_out(apply(state, CallFriend(FriendCall("card", parse_card("DJ")))))
    result = hand_result(state)
    assert result.friend == "Ed" and set(result.deltas) == set(FIVE)
    assert result.deltas["Ed"] == result.score.friend != 0
    assert sum(result.deltas.values()) == 0
    # 6마 on the same cards: the eliminated Ed scores nothing
    six = dict(DEAL)
    six["Fay"] = six.pop(DUMMY)
    other = new_hand(load_ruleset("standard-6"), FIVE + ("Fay",), "Ana", cards(six), opener="Ana")
    other = apply(other, BidCall("Ana", parse_bid("14C")))
    for player in FIVE[1:] + ("Fay",):
        other = apply(other, BidCall(player, None))
    other = redistribute(
        eliminate(other, "JK"),
        Ana="JK SJ DK CK CJ",
        Bo="S2 D10",
        Cy="D7 D4",
        Di="S8 HQ",
        Fay="H10 H3",
    )
    other = apply(other, Discard(tuple(parse_cards("D2 D9 H6"))))
    other = play_out(apply(other, CallFriend(FriendCall("card", parse_card("DJ")))))
    assert hand_result(other).deltas["Ed"] == 0 and hand_result(other).friend == "Fay"


def test_siheung_full_record_replays_to_the_same_score():
    state = eliminate(declared(), "JK")
    state = redistribute(
        state, Ana="JK SJ DK CK CJ", Bo="S2 D10", Cy="D7 D4", Di="S8 HQ", dummy="H10 H3"
    )
    state = apply(state, Discard(tuple(parse_cards("D2 D9 H6"))))
    state = play_out(apply(state, CallFriend(FriendCall("card", parse_card("DJ")))))
    hand = state_to_hand(state, cards(DEAL))
    assert hand["elimination"] == ["JK Ed"]
    assert hand["redistribution"]["dummy"] == "H10 H3"
    (outcome,) = replay(Record(ruleset="siheung-6", players=list(FIVE), hands=[hand])).hands
    assert outcome.deltas == hand_result(state).deltas
    assert outcome.eliminated == [] and outcome.eliminated_hand == "Ed"


def test_siheung_recorded_outcome_names_who_was_eliminated_and_scores_all_five():
    def outcome(**hand):
        hand = {"dealer": "Ana", "declarer": "Bo", "contract": "14S", "taken": 16, **hand}
        (scored,) = replay(Record(ruleset="siheung-6", players=list(FIVE), hands=[hand])).hands
        return scored

    # Ed held the dummy's hand and the called card: he is the friend and scores
    by_ed = outcome(friend="Ed", eliminated=["Ed"])
    assert by_ed.deltas == {"Ana": -2, "Bo": 4, "Cy": -2, "Di": -2, "Ed": 2}
    assert by_ed.eliminated == [] and by_ed.eliminated_hand == "Ed"
    assert outcome(friend="Cy", eliminated=["dummy"]).eliminated_hand == DUMMY
    assert outcome(friend="Cy").deltas == outcome(friend="Cy", eliminated=["Di"]).deltas
    with pytest.raises(RecordError, match="Bo is the declarer and cannot be eliminated"):
        outcome(friend="Cy", eliminated=["Bo"])
    with pytest.raises(RecordError, match='expected one player or "dummy"'):
        outcome(friend="Cy", eliminated=["Di", "Ed"])


def test_siheung_ruleset_needs_one_elimination_by_a_card():
    with pytest.raises(RulesetError, match="table.dummy = true needs table.eliminated = 1"):
        variant({"table.eliminate_by": "player"}, base="siheung-6")
    with pytest.raises(RulesetError, match="and the dummy's, table.dummy"):
        variant({"table.kitty_size": 3}, base="siheung-6")
    assert rules().playing == 5 and rules().elimination_discard == 3


def test_siheung_random_hands_agree_with_open_cards_and_the_record():
    ruleset = rules()
    seen = set()
    for seed in range(40):
        rng = random.Random(seed)
        deal = deal_cards(seed, seats(ruleset, FIVE), ruleset.deck_cards, ruleset.table.hand_size)
        full = new_hand(ruleset, FIVE, "Ana", deal)
        opened = new_hand(ruleset, FIVE, "Ana", None, opener=full.to_move)
        while full.phase not in ("done", "deal_miss", "redeal"):
            action = random_legal_action(full, rng)
            full = apply(full, action)
            opened = apply(
                opened,
                Discard(())
                if isinstance(action, Discard) and seed % 2
                else Redistribute(())
                if isinstance(action, Redistribute)
                else action,
            )
        if full.phase != "done":
            continue
        seen.add(full.eliminated[0] == DUMMY)
        result = hand_result(full)
        assert hand_result(opened) == result and sum(result.deltas.values()) == 0
        assert set(result.deltas) == set(FIVE)
        assert sum(trick.points for trick in full.tricks) + full.discarded_points == 20
        hand = state_to_hand(full, {who: sorted_cards(c) for who, c in deal.items()})
        (outcome,) = replay(Record(ruleset="siheung-6", players=list(FIVE), hands=[hand])).hands
        assert outcome.deltas == result.deltas
    assert seen == {True, False}  # both the dummy and a player were eliminated
