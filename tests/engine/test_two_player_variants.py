"""변형 2마 and Mighty Network 4.0's 2마 (000 §3.5.1): one test per rule, named after it, from a
position in card notation, showing the rule changes the outcome (engine/hand/draft.py,
table.deal = "draft", table.undealt, election.bid_counts = "tricks", hands of 13)."""

from __future__ import annotations

import pytest

from hand_positions import variant
from mighty_cli.engine.cards import Bid, format_cards, parse_bid, parse_card, parse_cards
from mighty_cli.engine.cards.deck import shuffled_deck
from mighty_cli.engine.errors import IllegalAction, IllegalDealMiss, MightyError, RulesetError
from mighty_cli.engine.hand import (
    BidCall,
    CallFriend,
    DeclareDealMiss,
    Discard,
    Play,
    apply,
    hand_result,
    legal_actions,
    legal_plays,
    new_hand,
    parse_friend_call,
)
from mighty_cli.engine.hand.draft import drafted_deal, seeded_deal
from mighty_cli.engine.records import Record, replay, state_to_hand
from mighty_cli.engine.ruleset import load_ruleset, ruleset_from_toml
from mighty_cli.engine.scoring import score_hand

TWO = ("Ana", "Bo")

# 변형 2마 after a draft: 43 cards (no 2s, red 3s or 4s), ten each, 20 aside, 3 in the kitty.
DRAFTED = {
    "Ana": "SA SK SQ SJ S10 S9 S8 S7 S6 S5",
    "Bo": "D9 D8 D7 D6 D5 C9 C8 C7 C6 C5",
    "kitty": "JK C3 S3",
    "undealt": "HA HK HQ HJ H10 H9 H8 H7 H6 H5 DA DK DQ DJ D10 CA CK CQ CJ C10",
}


def cards(deal: dict) -> dict:
    return {who: parse_cards(text) for who, text in deal.items()}


def declared(rules="variant-2", deal=DRAFTED, bid="6S", discard="S5 S6 S7"):
    rules = load_ruleset(rules) if isinstance(rules, str) else rules
    state = new_hand(rules, TWO, "Ana", cards(deal), opener="Ana")
    state = apply(state, BidCall("Ana", parse_bid(bid)))
    state = apply(state, BidCall("Bo", None))
    state = apply(state, Discard(tuple(parse_cards(discard))))
    return apply(state, CallFriend(parse_friend_call("none", state)))


def play_out(state):
    while state.phase == "play":
        state = apply(state, legal_plays(state)[0])
    return state


def test_variant_2ma_plays_with_4mas_43_cards():
    rules = load_ruleset("variant-2")
    assert len(rules.deck_cards) == 43 and rules.deck_cards == load_ruleset("standard-4").deck_cards
    for name in ("S2", "D3", "H3", "C4"):
        assert parse_card(name) not in rules.deck_cards


def test_variant_2ma_drafts_two_cards_at_a_time_keeping_the_upper_or_the_lower():
    rules = load_ruleset("variant-2")
    stock = shuffled_deck(11, rules.deck_cards)
    upper = drafted_deal(11, TWO, rules.deck_cards, 10, 3, lambda player, card: True)
    lower = drafted_deal(11, TWO, rules.deck_cards, 10, 3, lambda player, card: False)
    # Ana draws stock[0:2], Bo stock[2:4], Ana stock[4:6] ...: the upper card is the first
    assert upper["Ana"][:2] == [stock[0], stock[4]] and upper["Bo"][0] == stock[2]
    assert lower["Ana"][:2] == [stock[1], stock[5]] and lower["undealt"][0] == stock[0]
    assert upper["kitty"] == lower["kitty"] == stock[40:]  # 남은 세 장은 내려놓는다
    assert len(upper["undealt"]) == 20
    # each player sees only the upper card when choosing
    seen = []
    drafted_deal(11, TWO, rules.deck_cards, 10, 3, lambda player, card: seen.append(card) or True)
    assert seen == stock[0:40:2]
    # a dealt game deals the stock in tens instead
    assert seeded_deal(load_ruleset("standard-2"), 11, TWO)["Ana"] != upper["Ana"]


def test_the_cards_put_aside_are_out_of_play():
    rules = load_ruleset("variant-2")
    without = {who: text for who, text in DRAFTED.items() if who != "undealt"}
    with pytest.raises(MightyError, match="undealt"):
        new_hand(rules, TWO, "Ana", cards(without))
    state = declared()
    with pytest.raises(IllegalAction, match="not hold"):
        apply(state, Play("Ana", parse_card("HA")))  # put aside in the draft: nobody holds it
    final = play_out(state)
    played = {play.card for trick in final.tricks for _, play in trick.plays}
    assert not played & set(parse_cards(DRAFTED["undealt"]))


def test_the_bid_counts_tricks():
    # Ana's spades (trump) win nearly every trick; only five point cards are in the hands
    final = play_out(declared())
    result = hand_result(final)
    won = sum(1 for trick in final.tricks if trick.winner == "Ana")
    assert result.taken == won == 8 and result.score.success  # 6S made by tricks
    # counting point cards instead, the same play gives her five and 6S fails
    points = variant(
        {"election.bid_counts": "taken", "election.min_bid": 6, "election.max_bid": 20},
        base="variant-2",
    )
    result = hand_result(play_out(declared(points)))
    assert result.taken == 5 and not result.score.success
    # a made and a failed contract by tricks
    rules = load_ruleset("variant-2")
    assert score_hand(rules, Bid(7, 0), 7, has_friend=False).success
    assert not score_hand(rules, Bid(7, 0), 6, has_friend=False).success
    with pytest.raises(Exception, match="0 to 10 tricks"):
        score_hand(rules, Bid(7, 0), 11, has_friend=False)


def test_variant_2ma_bids_run_from_6_to_10():
    rules = load_ruleset("variant-2")
    state = new_hand(rules, TWO, "Ana", cards(DRAFTED), opener="Ana")
    bids = {action.bid for action in legal_actions(state) if isinstance(action, BidCall)}
    assert Bid(6, 0) in bids and Bid(10, None) in bids
    assert not any(bid and bid.number > 10 for bid in bids)
    with pytest.raises(IllegalAction):
        apply(state, BidCall("Ana", parse_bid("5S")))
    with pytest.raises(IllegalAction):
        apply(state, BidCall("Ana", parse_bid("11S")))


def test_the_declarer_takes_the_kitty_discards_and_may_revise_the_contract():
    rules = load_ruleset("variant-2")
    state = new_hand(rules, TWO, "Ana", cards(DRAFTED), opener="Ana")
    state = apply(state, BidCall("Ana", parse_bid("6S")))
    state = apply(state, BidCall("Bo", None))
    assert len(state.hands["Ana"]) == 13  # the kitty's three
    state = apply(state, Discard(tuple(parse_cards("S5 S6 S7"))))
    from mighty_cli.engine.hand import ChangeContract

    changes = [a.contract for a in legal_actions(state) if isinstance(a, ChangeContract)]
    assert changes  # 공약을 수정한다
    revised = apply(state, ChangeContract(changes[0]))
    assert revised.contract == changes[0] != state.contract


def test_the_declarer_plays_alone():
    state = declared(bid="6S", discard="S5 S6 S7")
    assert state.friend is None
    rules = load_ruleset("variant-2")
    assert score_hand(rules, Bid(6, 0), 6, has_friend=False).multiplier == 1  # not doubled
    state = new_hand(rules, TWO, "Ana", cards(DRAFTED), opener="Ana")
    state = apply(apply(state, BidCall("Ana", parse_bid("6S"))), BidCall("Bo", None))
    state = apply(state, Discard(tuple(parse_cards("S5 S6 S7"))))
    calls = [a.call.kind for a in legal_actions(state) if isinstance(a, CallFriend)]
    assert calls == ["none"]


def test_drafted_hands_have_no_deal_miss():
    rules = load_ruleset("variant-2")
    dealt = load_ruleset("standard-2")
    assert dealt.deal_miss.allowed and not rules.deal_miss.allowed
    state = new_hand(rules, TWO, "Ana", cards(DRAFTED), opener="Ana")
    with pytest.raises(IllegalDealMiss):
        apply(state, DeclareDealMiss("Ana"))


def test_variant_2ma_back_run_is_the_opposition_reaching_the_bid():
    rules = load_ruleset("variant-2")
    # declarer 6 of 10 tricks wins 4: the opposition took 6, the bid
    assert "back_run" in score_hand(rules, Bid(6, 0), 4, has_friend=False).doublings
    assert "back_run" not in score_hand(rules, Bid(6, 0), 5, has_friend=False).doublings
    eleven = variant({"scoring.back_run.threshold": 11}, base="variant-2")
    assert "back_run" not in score_hand(eleven, Bid(6, 0), 0, has_friend=False).doublings


# --- Mighty Network 4.0's 2마 -----------------------------------------------------------------

MN4 = {
    "Ana": "SA SK SQ SJ S10 S9 S8 S7 S6 S5 S4 S3 S2",
    "Bo": "DA DK DQ DJ D10 D9 D8 D7 D6 D5 D4 D3 JK",
    "kitty": "D2",
    "undealt": "HA HK HQ HJ H10 H9 H8 H7 H6 H5 H4 H3 H2 CA CK CQ CJ C10 C9 C8 C7 C6 C5 C4 C3 C2",
}


def test_mn4_2ma_drafts_13_cards_each_from_53_with_1_in_the_kitty():
    rules = load_ruleset("mn4-2")
    assert len(rules.deck_cards) == 53 and rules.tricks == 13
    deal = seeded_deal(rules, 5, TWO)
    assert [len(deal[who]) for who in ("Ana", "Bo", "kitty", "undealt")] == [13, 13, 1, 26]
    state = new_hand(rules, TWO, "Ana", cards(MN4), opener="Ana")
    assert len(state.hands["Ana"]) == 13
    with pytest.raises(RulesetError, match="draft"):
        ruleset_from_toml('extends = "mn4-2"\n[table]\nundealt = 25\nkitty_size = 2\n', label="x")


def test_mn4_2ma_plays_13_tricks():
    rules = load_ruleset("mn4-2")
    state = new_hand(rules, TWO, "Ana", cards(MN4), opener="Ana")
    state = apply(apply(state, BidCall("Ana", parse_bid("7S"))), BidCall("Bo", None))
    state = apply(state, Discard((parse_card("S2"),)))
    state = apply(state, CallFriend(parse_friend_call("none", state)))
    final = play_out(state)
    assert len(final.tricks) == 13 and final.phase == "done"
    assert hand_result(final).taken == sum(1 for t in final.tricks if t.winner == "Ana")


def test_mn4_2ma_last_trick_is_the_thirteenth():
    # Bo keeps the joker to the end: on trick 13 (the last) it has no power; on trick 10 it
    # would (cards.joker_power_last_trick = false, standard)
    rules = load_ruleset("mn4-2")
    state = new_hand(rules, TWO, "Ana", cards(MN4), opener="Ana")
    state = apply(apply(state, BidCall("Ana", parse_bid("7NT"))), BidCall("Bo", None))
    state = apply(state, Discard((parse_card("D2"),)))
    state = apply(state, CallFriend(parse_friend_call("none", state)))
    while state.trick_number < 13:
        joker_free = [p for p in legal_plays(state) if p.card != parse_card("JK")]
        state = apply(state, joker_free[0])
    state = apply(state, legal_plays(state)[0])  # Ana leads her last spade
    state = apply(state, Play("Bo", parse_card("JK")))
    assert state.tricks[-1].winner == "Ana"
    ten = variant(
        {
            "table.hand_size": 10,
            "table.undealt": 20,
            "table.kitty_size": 13,
            "election.max_bid": 10,
            "election.min_bid": 6,
        },
        base="mn4-2",
    )
    assert ten.tricks == 10


def test_drafted_hands_round_trip_through_records():
    final = play_out(declared())
    hand = state_to_hand(final, cards(DRAFTED))
    assert hand["deal"]["undealt"] == format_cards(parse_cards(DRAFTED["undealt"]))
    (outcome,) = replay(
        Record(ruleset="variant-2", players=list(TWO), hands=[hand | {"opener": "Ana"}])
    ).hands
    assert outcome.status == "scored" and outcome.deltas == hand_result(final).deltas
