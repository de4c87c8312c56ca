"""허니문 마이티 (000 §3.5.1, engine/hand/honeymoon.py): one test per rule, named after it, from a
position in card notation, showing the rule changes the outcome against 4마 or a variant."""

from __future__ import annotations

import pytest

from mighty_cli.engine.cards import parse_bid, parse_cards
from mighty_cli.engine.errors import IllegalAction, IllegalBid, IllegalDealMiss, MightyError
from mighty_cli.engine.hand import (
    BidCall,
    CallFriend,
    DeclareDealMiss,
    Discard,
    FriendCall,
    Play,
    apply,
    hand_result,
    is_deal_miss_hand,
    legal_actions,
    legal_plays,
    new_hand,
    parse_friend_call,
    parse_play,
)
from mighty_cli.engine.records import Record, read_record, replay, state_to_hand
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.engine.scoring import seat_deltas
from mighty_cli.engine.session import PreviousHand, propose

TWO = ("Ana", "Bo")
SEATS = ("Ana", "Ana's friend", "Bo", "Bo's friend")
DEAL = {
    "Ana": "S9 S7 D9 D5 HA H9 H8 H5 CJ C8",
    "Ana's friend": "JK SQ S5 DK D10 D6 HK HQ H7 CQ",
    "Bo": "SK SJ S10 DA DJ D7 H6 CA CK C3",
    "Bo's friend": "SA S6 S3 D8 H10 C10 C9 C7 C6 C5",
    "kitty": "S8 DQ HJ",
}


def cards(deal: dict) -> dict:
    return {who: parse_cards(text) for who, text in deal.items()}


def declared(call: str | None = "player:Ana's friend"):
    state = new_hand(load_ruleset("honeymoon"), TWO, "Ana", cards(DEAL), opener="Ana")
    state = apply(state, BidCall("Ana", parse_bid("13H")))
    state = apply(state, BidCall("Bo", None))
    state = apply(state, Discard(tuple(parse_cards("S8 DQ C8"))))
    if call is None:
        return state
    return apply(state, CallFriend(parse_friend_call(call, state)))


def play(state, *tokens):
    for token in tokens:
        card, suit, call = parse_play(token)
        state = apply(state, Play(state.to_move, card, suit, call))
    return state


def test_honeymoon_seats_each_player_then_his_friend_hand_with_4mas_deck():
    rules = load_ruleset("honeymoon")
    assert rules.deck_cards == load_ruleset("standard-4").deck_cards  # 4마와 같되: 43 cards
    state = new_hand(rules, TWO, "Ana", cards(DEAL), opener="Ana")
    assert state.players == SEATS  # 선-선프렌드-후-후프렌드
    assert all(len(hand) == 10 for hand in state.hands.values())
    with pytest.raises(MightyError, match="friend hand"):
        new_hand(rules, ("Ana", "Bo's friend"), "Ana", None, opener="Ana")


def test_friend_hands_never_bid():
    rules = load_ruleset("honeymoon")
    state = new_hand(rules, TWO, "Ana", cards(DEAL), opener="Ana")
    state = apply(state, BidCall("Ana", parse_bid("13H")))
    assert state.to_move == "Bo"  # Ana's friend hand is passed over
    with pytest.raises(IllegalBid):
        apply(state, BidCall("Ana's friend", parse_bid("14H")))
    state = apply(state, BidCall("Bo", None))
    assert state.phase == "exchange" and state.declarer == "Ana"  # one pass ends it
    # in 4마 the same four hands all bid: three passes are needed
    four = new_hand(load_ruleset("standard-4"), SEATS, "Ana", cards(DEAL), opener="Ana")
    four = apply(apply(four, BidCall("Ana", parse_bid("13H"))), BidCall("Ana's friend", None))
    assert four.phase == "election" and four.to_move == "Bo"


def test_friend_hands_never_declare_a_deal_miss():
    rules = load_ruleset("honeymoon")
    poor = dict(
        DEAL,
        **{
            "Ana's friend": "S3 S5 S6 S7 D5 D6 D7 H5 H6 H7",
            "Ana": "S9 SQ D9 JK HA H9 H8 DK CJ C8",
            "Bo": "SK SJ S10 DA DJ D10 HK CA CK C3",
            "Bo's friend": "SA HQ S8 D8 H10 C10 C9 C7 C6 C5",
            "kitty": "CQ DQ HJ",
        },
    )
    assert is_deal_miss_hand(rules, parse_cards(poor["Ana's friend"]))
    state = new_hand(rules, TWO, "Ana", cards(poor), opener="Ana")
    assert DeclareDealMiss("Ana's friend") not in legal_actions(state)
    with pytest.raises(IllegalDealMiss, match="friend hand"):
        apply(state, DeclareDealMiss("Ana's friend"))
    # a player dealt it in 4마 could show it
    four = new_hand(load_ruleset("standard-4"), SEATS, "Ana", cards(poor), opener="Ana")
    assert apply(four, DeclareDealMiss("Ana's friend")).phase == "deal_miss"


def test_the_declarers_friend_is_his_own_friend_hand():
    state = declared(call=None)
    calls = [action.call for action in legal_actions(state) if isinstance(action, CallFriend)]
    assert calls == [FriendCall("player", player="Ana's friend")]
    for other in ("SA", "none", "first-trick"):
        with pytest.raises(IllegalAction, match="friend hand"):
            apply(state, CallFriend(parse_friend_call(other, state)))
    state = apply(state, CallFriend(calls[0]))
    assert state.friend == "Ana's friend" and state.friend_revealed


def test_the_player_plays_his_friend_hands_card_by_the_rules():
    state = play(declared(), "D5")  # Ana leads ♦: her friend hand holds ♦K ♦10 ♦6
    assert state.to_move == "Ana's friend"
    legal = {p.card for p in legal_plays(state)}
    assert legal == set(parse_cards("DK D10 D6 JK"))  # follow suit (or the joker)
    with pytest.raises(IllegalAction, match="must follow suit"):
        play(state, "CQ")


def test_each_player_takes_his_two_hands_scores():
    state = declared()
    while state.phase == "play":
        state = apply(state, legal_plays(state)[0])
    result = hand_result(state)
    assert set(result.deltas) == set(TWO) and sum(result.deltas.values()) == 0
    seats = seat_deltas(result.score, SEATS, "Ana", "Ana's friend")  # 4마's four shares
    assert result.deltas["Ana"] == seats["Ana"] + seats["Ana's friend"]
    assert result.deltas["Bo"] == seats["Bo"] + seats["Bo's friend"]
    # a recorded hand says the same, and only his friend hand may be the friend
    record = read_record(
        'format = "mighty-hand-record/1"\nruleset = "honeymoon"\n'
        'players = ["Ana", "Bo"]\n[[hands]]\ndealer = "Ana"\n'
        'declarer = "Bo"\ncontract = "15S"\nfriend = "Bo\'s friend"\n'
        "taken = 16\n"
    )
    assert replay(record).hands[0].deltas == {"Ana": -10, "Bo": 10}
    bad = read_record(
        'format = "mighty-hand-record/1"\nruleset = "honeymoon"\n'
        'players = ["Ana", "Bo"]\n[[hands]]\ndealer = "Ana"\ndeclarer = "Bo"\n'
        'contract = "15S"\nfriend = "none"\ntaken = 16\n'
    )
    with pytest.raises(MightyError, match="friend hand"):
        replay(bad)


def test_a_friend_hand_never_deals():
    rules = load_ruleset("honeymoon")
    previous = PreviousHand("scored", TWO, "Bo", "Ana", "Ana's friend", True, None, "Ana")
    proposal = propose(rules, TWO, previous, in_playing_order=True)
    assert proposal.dealer == "Ana" and proposal.opener in TWO


def test_honeymoon_hands_round_trip_through_records():
    state = declared()
    while state.phase == "play":
        state = apply(state, legal_plays(state)[0])
    hand = state_to_hand(state, cards(DEAL))
    assert hand["friend"] == "player:Ana's friend"
    assert all(len(trick.split()) == 4 for trick in hand["tricks"])
    (outcome,) = replay(
        Record(ruleset="honeymoon", players=list(TWO), hands=[hand | {"opener": "Ana"}])
    ).hands
    assert outcome.status == "scored" and outcome.deltas == hand_result(state).deltas
