"""The election and deal misses (docs/rules.md §3, §5): tables of cases in tests/data, and one test
per deal-miss rule."""

from __future__ import annotations

import pytest

from hand_positions import DATA, PLAYERS, make_deal, tomllib, variant
from mighty_cli.engine.cards import HEARTS, Bid, parse_bid, parse_cards
from mighty_cli.engine.errors import IllegalBid, IllegalDealMiss
from mighty_cli.engine.hand import (
    BidCall,
    DeclareDealMiss,
    apply,
    is_deal_miss_hand,
    legal_actions,
    new_hand,
)

ELECTION = tomllib.loads((DATA / "election_cases.toml").read_text(encoding="utf-8"))["cases"]
DEAL_MISS = tomllib.loads((DATA / "deal_miss_cases.toml").read_text(encoding="utf-8"))["cases"]


def call(text: str) -> BidCall:
    player, what = text.split()
    return BidCall(player, None if what == "pass" else parse_bid(what))


@pytest.mark.parametrize("case", ELECTION, ids=[c["name"] for c in ELECTION])
def test_election(case):
    rules = variant(case.get("options"))
    state = new_hand(rules, PLAYERS, "Ana", make_deal({}))
    calls = [call(text) for text in case["calls"]]
    for action in calls[:-1]:
        state = apply(state, action)
    if "error" in case:
        with pytest.raises(IllegalBid) as raised:
            apply(state, calls[-1])
        assert case["error"] in str(raised.value)
        assert calls[-1] not in legal_actions(state)
        return
    assert (calls[-1] in legal_actions(state)) is case.get("listed", True)
    state = apply(state, calls[-1])
    if "phase" in case:
        assert state.phase == case["phase"]
    if "to_move" in case:
        assert state.to_move == case["to_move"]
    if "declarer" in case:
        assert state.declarer == case["declarer"] and state.contract == state.bid
    if "standing" in case:
        player, bid = case["standing"].split()
        assert state.standing_bid == (player, parse_bid(bid))


def test_declarer_takes_the_kitty():
    deal = make_deal({})
    state = new_hand(variant(), PLAYERS, "Ana", deal)
    for text in ("Ana 13H", "Bo pass", "Cy pass", "Di pass", "Ed pass"):
        state = apply(state, call(text))
    assert state.phase == "exchange" and state.to_move == "Ana"
    assert set(state.hands["Ana"]) == set(deal["Ana"]) | set(deal["kitty"])
    assert state.contract == Bid(13, HEARTS)


def test_opener_after_dealer_option():
    rules = variant({"election.opener": "after_dealer"})
    assert new_hand(rules, PLAYERS, "Ana", None).to_move == "Bo"
    assert new_hand(variant(), PLAYERS, "Ana", None, opener="Cy").to_move == "Cy"


# --- deal miss ------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", DEAL_MISS, ids=[c["name"] for c in DEAL_MISS])
def test_deal_miss_weights(case):
    rules = variant(case.get("options"))
    assert is_deal_miss_hand(rules, parse_cards(case["hand"])) is case["eligible"]
    state = new_hand(rules, PLAYERS, "Ana", make_deal({"Cy": case["hand"]}))
    if case["eligible"]:
        assert apply(state, DeclareDealMiss("Cy")).phase == "deal_miss"
    else:
        with pytest.raises(IllegalDealMiss, match="Cy declared a deal miss but his hand"):
            apply(state, DeclareDealMiss("Cy"))


POOR = "SA S2 S3 S4 S5 D2 D3 D4 H2 H10"  # Mighty 0 + ten ½: a deal miss in standard


def poor_hand(rules, **kwargs):
    return new_hand(rules, PLAYERS, "Ana", make_deal({"Cy": POOR}), **kwargs)


def test_deal_miss_ends_the_hand():
    state = apply(poor_hand(variant()), DeclareDealMiss("Cy"))
    assert state.phase == "deal_miss" and state.deal_miss_player == "Cy"
    assert state.to_move is None and legal_actions(state) == []


def test_deal_miss_is_listed_among_legal_actions():
    assert DeclareDealMiss("Cy") in legal_actions(poor_hand(variant()))
    assert DeclareDealMiss("Bo") not in legal_actions(poor_hand(variant()))


def test_deal_miss_not_allowed():
    with pytest.raises(IllegalDealMiss, match="deal_miss.allowed"):
        apply(poor_hand(variant({"deal_miss.allowed": False})), DeclareDealMiss("Cy"))


def test_deal_miss_during_election():
    state = apply(poor_hand(variant()), call("Ana 13H"))
    assert apply(state, DeclareDealMiss("Cy")).phase == "deal_miss"
    state = apply(poor_hand(variant({"deal_miss.during_election": False})), call("Ana 13H"))
    with pytest.raises(IllegalDealMiss, match="during_election = false"):
        apply(state, DeclareDealMiss("Cy"))


def test_deal_miss_after_pass():
    state = poor_hand(variant())
    for text in ("Ana 13H", "Bo pass", "Cy pass"):
        state = apply(state, call(text))
    with pytest.raises(IllegalDealMiss, match="after passing"):
        apply(state, DeclareDealMiss("Cy"))
    state = poor_hand(variant({"deal_miss.after_pass": True}))
    for text in ("Ana 13H", "Bo pass", "Cy pass"):
        state = apply(state, call(text))
    assert apply(state, DeclareDealMiss("Cy")).phase == "deal_miss"


def test_deal_miss_full_bid_overrides():
    state = apply(poor_hand(variant()), call("Ana 20H"))
    assert apply(state, DeclareDealMiss("Cy")).phase == "deal_miss"
    state = apply(poor_hand(variant({"deal_miss.full_bid_overrides": True})), call("Ana 20H"))
    with pytest.raises(IllegalDealMiss, match="full_bid_overrides"):
        apply(state, DeclareDealMiss("Cy"))


def test_deal_miss_only_during_election():
    state = poor_hand(variant())
    for text in ("Ana 13H", "Bo pass", "Cy pass", "Di pass", "Ed pass"):
        state = apply(state, call(text))
    with pytest.raises(IllegalDealMiss, match="not possible during the exchange"):
        apply(state, DeclareDealMiss("Cy"))


def test_deal_miss_open_cards_is_taken_on_trust():
    state = new_hand(variant(), PLAYERS, "Ana", None)
    assert apply(state, DeclareDealMiss("Di")).phase == "deal_miss"
