"""Kitty exchange, contract change and friend calls (docs/rules.md §4, §6), on the basic deal:
Ana declares 13H and takes the kitty SJ H9 CA; Bo holds Mighty (SA) and the joker."""

from __future__ import annotations

import pytest

from hand_positions import PLAYERS, deal_named, legal, play, position, variant
from mighty_cli.engine.cards import HEARTS, SPADES, Bid, parse_bid, parse_card, parse_cards
from mighty_cli.engine.errors import IllegalExchange, IllegalPlay
from mighty_cli.engine.hand import (
    BidCall,
    CallFriend,
    ChangeContract,
    Discard,
    FriendCall,
    apply,
    format_friend_call,
    hand_result,
    legal_actions,
    legal_plays,
    new_hand,
    parse_friend_call,
)

DI_LEADS = "C2 C5 C10 CK CJ"


def exchange(rules="standard", **kwargs):
    return position(rules, friend=None, **kwargs)


# --- discard ----------------------------------------------------------------------------------


def test_discard_exactly_three():
    state = position(
        friend=None,
        election=("Ana 13H", "Bo pass", "Cy pass", "Di pass", "Ed pass"),
        discard="SJ H9 CA",
    )
    assert state.phase == "friend" and state.discards == tuple(parse_cards("SJ H9 CA"))
    assert len(state.hands["Ana"]) == 10


def _exchange_phase():
    state = new_hand(variant(), PLAYERS, "Ana", deal_named("basic"))
    state = apply(state, BidCall("Ana", parse_bid("13H")))
    for player in ("Bo", "Cy", "Di", "Ed"):
        state = apply(state, BidCall(player, None))
    return state


def test_discard_must_be_three_cards():
    with pytest.raises(IllegalExchange, match="the discard is exactly 3"):
        apply(_exchange_phase(), Discard(tuple(parse_cards("SJ H9"))))


def test_discard_must_be_held():
    with pytest.raises(IllegalExchange, match="discarded SA but does not hold it"):
        apply(_exchange_phase(), Discard(tuple(parse_cards("SJ H9 SA"))))


def test_exchange_lists_every_discard():
    assert len(legal_actions(_exchange_phase())) == 286


def test_friend_call_before_discard_is_rejected():
    with pytest.raises(IllegalExchange, match="discard first"):
        apply(_exchange_phase(), CallFriend(FriendCall("none")))


def test_discarded_points_count_for_ruling_party():
    state = position()
    while state.phase == "play":
        state = apply(state, legal_plays(state)[0])
    counted = hand_result(state)
    assert state.discarded_points == 2
    rules = variant({"exchange.discards_count_for_ruling_party": False})
    state = position(rules)
    while state.phase == "play":
        state = apply(state, legal_plays(state)[0])
    assert hand_result(state).taken == counted.taken - 2


# --- contract change --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, new, error",
    [
        ({}, "15S", None),
        ({}, "14S", "raises the contract by 2 to at least 15 (exchange.raise_suit_change)"),
        ({}, "14H", None),
        ({}, "12H", "a contract never goes down"),
        ({"exchange.raise_suit_change": 1}, "14S", None),
        ({"exchange.raise_suit_change": 0}, "13S", None),
        ({}, "15NT", None),
        ({}, "14NT", "exchange.raise_to_no_trump"),
        ({"exchange.raise_to_no_trump": 1}, "14NT", None),
        ({"exchange.trump_change_allowed": False}, "15S", "trump_change_allowed = false"),
        ({"exchange.voluntary_raise": False}, "16S", "exchange.voluntary_raise = false"),
        ({"exchange.voluntary_raise": False}, "14H", "exchange.voluntary_raise = false"),
        ({"exchange.free_change_order": ["S", "D", "H", "C"]}, "13S", None),
        ({"exchange.free_change_order": ["S", "D", "H", "C"]}, "13C", "raise_suit_change"),
        ({}, "21S", "election.max_bid"),
        ({"election.no_trump_allowed": False}, "15NT", "no-trump is not allowed"),
    ],
)
def test_trump_change_raise(options, new, error):
    state = exchange(variant(options))
    action = ChangeContract(parse_bid(new))
    if error:
        with pytest.raises(IllegalExchange, match=error.replace("(", r"\(").replace(")", r"\)")):
            apply(state, action)
        assert action not in legal_actions(state)
    else:
        assert apply(state, action).contract == parse_bid(new)
        assert action in legal_actions(state)


def test_raise_from_no_trump():
    election = ("Ana 13NT", "Bo pass", "Cy pass", "Di pass", "Ed pass")
    state = exchange(election=election)
    with pytest.raises(IllegalExchange, match="raise_from_no_trump"):
        apply(state, ChangeContract(parse_bid("14S")))
    apply(state, ChangeContract(parse_bid("15S")))
    state = exchange(
        variant(
            {"exchange.raise_from_no_trump": 3, "exchange.free_change_order": ["S", "D", "H", "C"]}
        ),
        election=election,
    )
    with pytest.raises(IllegalExchange, match="raise_from_no_trump"):
        apply(state, ChangeContract(parse_bid("15S")))


def test_contract_changes_once():
    state = apply(exchange(), ChangeContract(parse_bid("15S")))
    with pytest.raises(IllegalExchange, match="already changed"):
        apply(state, ChangeContract(parse_bid("16S")))
    assert state.bid == Bid(13, HEARTS) and state.contract == Bid(15, SPADES)


def test_trump_change_changes_mighty():
    # Spades trump: Mighty becomes DA (cards.mighty_alternate).
    state = position(contract="15S", friend="mighty")
    assert state.friend_call.card == parse_card("DA") and state.friend == "Ed"


# --- friend calls -----------------------------------------------------------------------------


def test_card_friend_revealed_when_card_played():
    state = position(friend="SA")
    assert state.friend == "Bo" and not state.friend_revealed
    state = play(play(state, "C2"), "SA")
    assert state.friend_revealed


def test_friend_reveal_on_points():
    state = position(friend="D2", tricks=["C2 SA C10 CK CJ"])
    assert state.friend == "Bo" and not state.friend_revealed
    state = position(
        variant({"friend.reveal_on_points": True}), friend="D2", tricks=["C2 SA C10 CK CJ"]
    )
    assert state.friend_revealed


def test_fake_friend_is_no_friend():
    state = position(friend="SK")  # Ana holds SK herself
    assert state.friend is None
    state = position(friend="SJ")  # discarded
    assert state.friend is None


def test_fake_friend_not_allowed():
    for card in ("SK", "SJ"):
        with pytest.raises(IllegalExchange, match=r"friend.fake = false"):
            position(variant({"friend.fake": False}), friend=card)


def test_joker_friend_allowed_per_option():
    assert position(friend="joker").friend == "Bo"
    with pytest.raises(IllegalExchange, match="friend.joker = false"):
        position(variant({"friend.joker": False}), friend="joker")


def test_card_friend_not_allowed():
    with pytest.raises(IllegalExchange, match="friend.card = false"):
        position(variant({"friend.card": False}), friend="SA")


def test_no_friend_not_allowed():
    with pytest.raises(IllegalExchange, match="friend.no_friend = false"):
        position(variant({"friend.no_friend": False}), friend="none")


def test_first_trick_friend():
    state = position(friend="first-trick", tricks=[DI_LEADS])
    assert state.friend == "Di" and state.friend_revealed


def test_first_trick_friend_not_allowed():
    with pytest.raises(IllegalExchange, match="friend.first_trick = false"):
        position(variant({"friend.first_trick": False}), friend="first-trick")


def test_first_trick_friend_declarer_wins_plays_alone():
    # Ana may lead trump (play.trump_lead = any_time) and wins trick 1 with HA.
    rules = variant({"play.trump_lead": "any_time"})
    state = position(rules, friend="first-trick", tricks=["HA C5 H2 H5 H7"])
    assert state.tricks[0].winner == "Ana" and state.friend is None
    done = state
    while done.phase == "play":
        done = apply(done, legal_plays(done)[0])
    assert hand_result(done).friend is None


def test_first_trick_friend_next_trick_when_declarer_wins():
    rules = variant(
        {"play.trump_lead": "any_time", "friend.first_trick_declarer_wins": "next_trick"}
    )
    state = position(rules, friend="first-trick", tricks=["HA C5 H2 H5 H7"])
    assert state.tricks[0].winner == "Ana" and state.friend is None
    for token in "C2 C6 C10 CK CJ".split():
        state = play(state, token)
    assert state.tricks[1].winner == "Di" and state.friend == "Di"


def test_last_trick_friend():
    with pytest.raises(IllegalExchange, match="friend.last_trick = false"):
        position(friend="last-trick")
    state = position(variant({"friend.last_trick": True}), friend="last-trick")
    assert state.friend is None
    while state.phase == "play":
        state = apply(state, legal_plays(state)[0])
    last = state.tricks[-1].winner
    assert hand_result(state).friend == (None if last == "Ana" else last)


def test_player_friend():
    with pytest.raises(IllegalExchange, match="friend.player = false"):
        position(friend="player:Cy")
    state = position(variant({"friend.player": True}), friend="player:Cy")
    assert state.friend == "Cy" and state.friend_revealed
    with pytest.raises(IllegalExchange, match="cannot be his own friend"):
        position(variant({"friend.player": True}), friend="player:Ana")


def test_lead_request_for_twenty_no_trump():
    election = ("Ana 20NT", "Bo pass", "Cy pass", "Di pass", "Ed pass")
    state = position(election=election, friend="SA lead:D", tricks=["C2 SA C10 CK CJ"])
    assert state.to_move == "Bo"
    assert legal(state) == {"D2", "D3", "D4", "JK/D"}
    with pytest.raises(IllegalPlay, match="friend.lead_request"):
        play(state, "C5")
    with pytest.raises(IllegalPlay, match="friend.lead_request"):
        play(state, "JK/S")


def test_lead_request_only_for_twenty_no_trump():
    with pytest.raises(IllegalExchange, match="20 no-trump"):
        position(friend="SA lead:D")
    election = ("Ana 20NT", "Bo pass", "Cy pass", "Di pass", "Ed pass")
    with pytest.raises(IllegalExchange, match="friend.lead_request = false"):
        position(variant({"friend.lead_request": False}), election=election, friend="SA lead:D")


def test_friend_call_text_round_trip():
    state = exchange()
    for text in ("SA", "joker", "none", "first-trick", "last-trick", "player:Cy", "SA lead:D"):
        assert format_friend_call(parse_friend_call(text, state)) == text
    assert parse_friend_call("mighty", state) == FriendCall("card", parse_card("SA"))
