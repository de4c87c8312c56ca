"""Ghost 4마 (고마, 000 §3.5.2 and footnote 19) and 엠솔 4마 (§7.22.1): one test per rule of the
ghost (engine/hand/seats.py), named after it, from a position in card notation, showing the rule
changes the outcome."""

from __future__ import annotations

import pytest

from hand_positions import variant
from mighty_cli.engine.cards import SUITS, parse_bid, parse_card, parse_cards, sorted_cards
from mighty_cli.engine.errors import IllegalAction, IllegalBid, IllegalDealMiss, MightyError
from mighty_cli.engine.hand import (
    BidCall,
    CallFriend,
    DeclareDealMiss,
    Discard,
    FriendCall,
    Play,
    apply,
    deal_cards,
    hand_result,
    is_deal_miss_hand,
    legal_actions,
    legal_plays,
    new_hand,
    random_legal_action,
)
from mighty_cli.engine.hand.seats import GHOST, arranged_deal, seats
from mighty_cli.engine.records import Record, dump_record, read_record, replay, state_to_hand
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.engine.session import PreviousHand, propose

FOUR = ("Ana", "Bo", "Cy", "Di")

# Hearts will be trump (Ana 13H). The ghost's pile is written from the top.
DEAL_CALL = {
    "Ana": "S4 DA DK DQ DJ HQ HJ H10 H9 H8",
    "Bo": "JK S5 S8 S9 C5 C6 C7 D4 D5 D6",
    "Cy": "S6 S10 SJ C8 C9 C10 D7 D8 D9 D10",
    "Di": "S7 SQ SK SA CJ CQ CK CA H4 H5",
    "ghost": "HA C3 D2 S2 C2 H2 D3 S3 H3 C4",
    "kitty": "H6 H7 HK",
}
# The same with the joker second in the ghost's pile and ♣3 with Bo.
DEAL_JOKER = dict(
    DEAL_CALL, Bo="C3 S5 S8 S9 C5 C6 C7 D4 D5 D6", ghost="HA JK D2 S2 C2 H2 D3 S3 H3 C4"
)
# Ana holds ♣3, the ghost the joker third in its pile.
DEAL_NO_ANSWER = dict(
    DEAL_CALL,
    Ana="C3 DA DK DQ DJ HQ HJ H10 H9 H8",
    Bo="D2 S5 S8 S9 C5 C6 C7 D4 D5 D6",
    ghost="HA S4 JK S2 C2 H2 D3 S3 H3 C4",
)


def cards(deal: dict) -> dict:
    return {who: parse_cards(text) for who, text in deal.items()}


def declared(
    rules="ghost-4",
    deal=DEAL_CALL,
    friend="none",
    discard="DJ DQ DK",
    election=("Ana 13H", "Bo pass", "Cy pass", "Di pass"),
):
    """Ana declares 13H (the ghost never calls), discards, calls the friend."""
    rules = load_ruleset(rules) if isinstance(rules, str) else rules
    state = new_hand(rules, FOUR, "Ana", cards(deal), opener="Ana")
    for call in election:
        player, what = call.split()
        state = apply(state, BidCall(player, None if what == "pass" else parse_bid(what)))
    state = apply(state, Discard(tuple(parse_cards(discard))))
    if friend is None:
        return state
    from mighty_cli.engine.hand import parse_friend_call

    return apply(state, CallFriend(parse_friend_call(friend, state)))


def play(state, *tokens):
    from mighty_cli.engine.hand import parse_play

    for token in tokens:
        card, suit, call = parse_play(token)
        state = apply(state, Play(state.to_move, card, suit, call))
    return state


def test_ghost_4ma_deals_the_fifth_hand_to_the_ghost():
    rules = load_ruleset("ghost-4")
    assert rules.table.players == 4 and rules.playing == 4 and len(rules.deck_cards) == 53
    state = new_hand(rules, FOUR, "Ana", cards(DEAL_CALL), opener="Ana")
    assert state.players == FOUR + (GHOST,)  # the ghost sits after the last player
    assert len(state.hands[GHOST]) == 10
    # without a ghost the same four cannot take the 53 cards (4마 deals 43)
    with pytest.raises(MightyError):
        new_hand(load_ruleset("standard-4"), FOUR, "Ana", cards(DEAL_CALL))
    with pytest.raises(MightyError, match="ghost"):
        seats(rules, ("Ana", "ghost", "Cy", "Di"))
    # a seeded deal gives the ghost its pile in dealt order (its top card first)
    dealt = deal_cards(7, seats(rules, FOUR), rules.deck_cards, 10)
    assert arranged_deal(dealt)[GHOST] == dealt[GHOST]
    assert arranged_deal(dealt)["Ana"] == sorted_cards(dealt["Ana"])


def test_the_ghost_never_bids():
    rules = load_ruleset("ghost-4")
    state = new_hand(rules, FOUR, "Ana", cards(DEAL_CALL), opener="Di")
    state = apply(state, BidCall("Di", parse_bid("13S")))
    assert state.to_move == "Ana"  # the ghost's turn is passed over
    with pytest.raises(IllegalBid):
        apply(state, BidCall(GHOST, parse_bid("14S")))
    # three passes among four end the election (a five-player table needs four)
    for player in ("Ana", "Bo", "Cy"):
        state = apply(state, BidCall(player, None))
    assert state.phase == "exchange" and state.declarer == "Di"
    # the dealer's next seat is the ghost's: the player after it opens
    after = variant({"election.opener": "after_dealer"}, base="ghost-4")
    assert new_hand(after, FOUR, "Di", cards(DEAL_CALL)).to_move == "Ana"
    assert new_hand(after, FOUR, "Cy", cards(DEAL_CALL)).to_move == "Di"
    with pytest.raises(MightyError, match="ghost"):
        new_hand(rules, FOUR, "Ana", cards(DEAL_CALL), opener=GHOST)


def test_the_ghost_never_bids_when_passes_are_not_final():
    rules = variant({"election.pass_is_final": False}, base="ghost-4")
    state = new_hand(rules, FOUR, "Ana", cards(DEAL_CALL), opener="Ana")
    for call in ("Ana 13H", "Bo pass", "Cy pass", "Di pass"):
        player, what = call.split()
        state = apply(state, BidCall(player, None if what == "pass" else parse_bid(what)))
    assert state.phase == "exchange"  # three passes in a row, not four


def test_the_ghost_never_declares_a_deal_miss():
    rules = load_ruleset("ghost-4")
    # Bo's hand (the joker and no point card) may be shown for a deal miss ...
    assert is_deal_miss_hand(rules, parse_cards(DEAL_CALL["Bo"]))
    state = new_hand(rules, FOUR, "Ana", cards(DEAL_CALL), opener="Ana")
    assert apply(state, DeclareDealMiss("Bo")).phase == "deal_miss"
    # ... but not when it is the ghost's pile
    swapped = dict(DEAL_CALL, Bo=DEAL_CALL["ghost"], ghost=DEAL_CALL["Bo"])
    state = new_hand(rules, FOUR, "Ana", cards(swapped), opener="Ana")
    assert DeclareDealMiss(GHOST) not in legal_actions(state)
    with pytest.raises(IllegalDealMiss, match="ghost"):
        apply(state, DeclareDealMiss(GHOST))


def test_the_ghost_plays_the_top_card_of_its_pile():
    state = play(declared(), "S4", "S5", "S6", "S7")
    assert state.to_move == GHOST
    assert legal_plays(state) == [Play(GHOST, parse_card("HA"))]
    with pytest.raises(IllegalAction, match="top of its pile"):
        apply(state, Play(GHOST, parse_card("C3")))


def test_the_ghost_follows_no_suit():
    # ♠ led; the ghost holds ♠2 and ♠3 but its top card is ♥A, which it plays and wins with
    state = play(declared(), "S4", "S5", "S6", "S7", "HA")
    assert state.tricks[0].winner == GHOST and state.points_taken[GHOST] == 1
    # under the local reading "first_legal" it plays ♠2, the first follower from the top
    rules = variant({"table.ghost_plays": "first_legal"}, base="ghost-4")
    state = play(declared(rules), "S4", "S5", "S6", "S7")
    assert legal_plays(state) == [Play(GHOST, parse_card("S2"))]
    state = play(state, "S2")
    assert state.tricks[0].winner == "Di"


def test_the_ghost_answers_no_joker_call():
    rules = variant({"joker_call.first_trick_effect": True}, base="ghost-4")
    state = play(declared(rules, DEAL_NO_ANSWER), "C3!", "C5", "C8", "CJ")
    assert state.current_trick  # the call is in effect; the ghost holds the joker
    assert parse_card("JK") in state.hands[GHOST]
    assert legal_plays(state) == [Play(GHOST, parse_card("HA"))]


def test_the_ghost_leading_the_joker_call_card_calls_the_joker():
    state = play(declared(), "S4", "S5", "S6", "S7", "HA")
    assert legal_plays(state) == [Play(GHOST, parse_card("C3"), None, True)]
    state = play(state, "C3!", "H8")
    assert state.to_move == "Bo" and legal_plays(state) == [Play("Bo", parse_card("JK"))]
    # without the call Bo could follow with a club
    plain = variant({"joker_call.declaration": "never"}, base="ghost-4")
    state = play(declared(plain), "S4", "S5", "S6", "S7", "HA", "C3", "H8")
    assert {p.card for p in legal_plays(state)} == set(parse_cards("C5 C6 C7 JK"))


def test_a_joker_the_ghost_leads_names_the_suit_of_its_next_card():
    state = play(declared(deal=DEAL_JOKER), "S4", "S5", "S6", "S7", "HA")
    (lead,) = legal_plays(state)
    assert lead == Play(GHOST, parse_card("JK"), SUITS[1])  # its next card is ♦2
    state = play(state, "JK/D", "DA")
    assert {p.card for p in legal_plays(state)} == set(parse_cards("D4 D5 D6"))  # Bo follows ♦


def test_the_ghost_may_be_the_friend_by_its_card():
    state = declared(friend="HA")  # Ana calls ♥A: the ghost holds it
    state = play(state, "S4", "S5", "S6", "S7", "HA")
    assert state.friend == GHOST and state.friend_revealed


def test_the_ghost_may_be_named_friend():
    rules = load_ruleset("ghost-4")
    assert not rules.friend.player  # no player friend (너 프렌드) ...
    state = declared(friend=None)
    assert CallFriend(FriendCall("player", player=GHOST)) in legal_actions(state)
    assert CallFriend(FriendCall("player", player="Bo")) not in legal_actions(state)
    named = apply(state, CallFriend(FriendCall("player", player=GHOST)))
    assert named.friend == GHOST  # ... but the ghost may be named (고스트 프렌드)
    with pytest.raises(IllegalAction):
        apply(state, CallFriend(FriendCall("player", player="Bo")))
    # 엠솔 4마 keeps 엠솔's "너 프렌드는 사용할 수 없다" and the ghost friend of 고마
    state = declared("msol-4", friend=None)
    assert CallFriend(FriendCall("player", player=GHOST)) in legal_actions(state)
    assert CallFriend(FriendCall("player", player="Bo")) not in legal_actions(state)


def finished(friend: str):
    """The Call deal played out with the ghost always taking its top card and the players
    choosing their first legal card."""
    state = declared(friend=friend)
    while state.phase == "play":
        state = apply(state, legal_plays(state)[0])
    return state


def test_the_ghost_scores_nothing_and_the_declarer_takes_the_balance():
    with_ghost = hand_result(finished("player:ghost"))
    alone = hand_result(finished("none"))
    assert with_ghost.friend == GHOST and GHOST not in with_ghost.deltas
    assert set(with_ghost.deltas) == set(FOUR) and sum(with_ghost.deltas.values()) == 0
    unit = with_ghost.score.unit
    sign = 1 if with_ghost.score.success else -1
    # the three players pay (or are paid by) the declarer alone: the ghost friend takes no share
    assert with_ghost.deltas["Ana"] == 3 * sign * unit
    assert all(with_ghost.deltas[p] == -sign * unit for p in ("Bo", "Cy", "Di"))
    assert sum(alone.deltas.values()) == 0
    # a recorded hand says the same: a ghost friend pays nothing, the declarer takes the balance
    record = read_record(
        'format = "mighty-hand-record/1"\nruleset = "ghost-4"\n'
        'players = ["Ana", "Bo", "Cy", "Di"]\n'
        '[[hands]]\ndealer = "Ana"\ndeclarer = "Bo"\ncontract = "15S"\n'
        'friend = "ghost"\ntaken = 16\n'
        '[[hands]]\ndeclarer = "Bo"\ncontract = "15S"\nfriend = "Cy"\n'
        "taken = 16\n"
    )
    first, second = replay(record).hands
    assert first.deltas == {"Ana": -5, "Bo": 15, "Cy": -5, "Di": -5}
    assert second.deltas == {"Ana": -5, "Bo": 5, "Cy": 5, "Di": -5}


def test_a_ghost_friend_deals_nothing():
    rules = load_ruleset("ghost-4")
    ghost_friend = PreviousHand("scored", FOUR, "Ana", "Bo", GHOST, True, None, "Bo")
    player_friend = PreviousHand("scored", FOUR, "Ana", "Bo", "Cy", True, None, "Bo")
    assert propose(rules, FOUR, ghost_friend, in_playing_order=True).dealer == "Bo"
    assert propose(rules, FOUR, player_friend, in_playing_order=True).dealer == "Cy"


def test_ghost_hands_round_trip_through_records():
    state = finished("HA")
    deal = cards(DEAL_CALL)
    hand = state_to_hand(state, deal)
    assert hand["deal"][GHOST] == DEAL_CALL["ghost"]  # the pile in its order
    assert all(len(trick.split()) == 5 for trick in hand["tricks"])  # the ghost's card too
    record = Record(ruleset="ghost-4", players=list(FOUR), hands=[hand | {"opener": "Ana"}])
    (outcome,) = replay(read_record(dump_record(record))).hands
    assert outcome.status == "scored" and outcome.deltas == hand_result(state).deltas
    # a record whose ghost card is not the top of its pile is refused
    bad = dict(hand, tricks=["S4 S5 S6 S7 C3"])
    with pytest.raises(MightyError, match="top of its pile"):
        replay(Record(ruleset="ghost-4", players=list(FOUR), hands=[bad | {"opener": "Ana"}]))


def test_in_open_cards_the_ghost_plays_whatever_is_turned_up():
    rules = load_ruleset("ghost-4")
    state = new_hand(rules, FOUR, "Ana", None, opener="Ana")
    for call in ("Ana 13H", "Bo pass", "Cy pass", "Di pass"):
        player, what = call.split()
        state = apply(state, BidCall(player, None if what == "pass" else parse_bid(what)))
    state = apply(state, Discard(()))
    from mighty_cli.engine.hand import parse_friend_call

    state = apply(state, CallFriend(parse_friend_call("none", state)))
    state = play(state, "S4", "S5", "S6", "S7", "HA")  # the ghost shows out of ♠ ...
    state = play(state, "C3!", "H8", "JK", "C8", "CJ")
    state = play(state, "DA", "D4", "D7", "H4", "S2")  # ... and may still show a ♠ later
    assert state.tricks[-1].plays[-1] == (GHOST, Play(GHOST, parse_card("S2")))
    # a player who showed out (Di, of ♦ on trick 3) could not
    assert state.tricks[-1].winner == "Di"
    with pytest.raises(IllegalAction, match="showed out"):
        play(state, "D5")


def test_msol_4ma_is_ghost_4ma_under_msol_rules():
    rules = load_ruleset("msol-4")
    assert rules.table.ghost and rules.table.players == 4
    assert rules.election.min_bid == 12 and load_ruleset("ghost-4").election.min_bid == 13
    state = new_hand(rules, FOUR, "Ana", cards(DEAL_CALL), opener="Ana")
    assert apply(state, BidCall("Ana", parse_bid("12H"))).standing_bid[0] == "Ana"
    with pytest.raises(IllegalBid):
        apply(
            new_hand(load_ruleset("ghost-4"), FOUR, "Ana", cards(DEAL_CALL), opener="Ana"),
            BidCall("Ana", parse_bid("12H")),
        )


def test_random_ghost_hands_are_zero_sum():
    import random

    for name in ("ghost-4", "msol-4"):
        rules = load_ruleset(name)
        rng = random.Random(3)
        for seed in range(40):
            deal = deal_cards(seed, seats(rules, FOUR), rules.deck_cards, 10)
            state = new_hand(rules, FOUR, FOUR[seed % 4], deal)
            while state.phase not in ("done", "deal_miss", "redeal"):
                state = apply(state, random_legal_action(state, rng))
            if state.phase == "done":
                assert sum(hand_result(state).deltas.values()) == 0
