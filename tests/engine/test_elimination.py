"""6마 and 7마: the declarer eliminates after the election (000 §3.3, §3.4; footnote 15).
One test per rule, named after it, from a position in card notation."""

from __future__ import annotations

import random

import pytest

from hand_positions import variant
from mighty_cli.engine.cards import format_cards, parse_bid, parse_card, parse_cards, sorted_cards
from mighty_cli.engine.cards.deck import deal_cards
from mighty_cli.engine.errors import IllegalExchange, MightyError
from mighty_cli.engine.hand import (
    BidCall,
    CallFriend,
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
)
from mighty_cli.engine.records import Record, replay, state_to_hand
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.engine.session import propose

SIX = ("Ana", "Bo", "Cy", "Di", "Ed", "Fay")
SEVEN = SIX + ("Gus",)

# Positions (seeded deal 1 of each ruleset, written out).
DEAL_6 = {
    "Ana": "DQ D9 D2 H6 CA CQ C10 C3",
    "Bo": "SK DA D8 HK H8 H5 C9 C8",
    "Cy": "SQ S10 S7 S6 S3 HA H9 C6",
    "Di": "SA S9 S4 D6 D5 D3 H4 C7",
    "Ed": "JK SJ S2 DK D10 D7 D4 CK",
    "Fay": "S5 DJ HJ H7 H2 C5 C4 C2",
    "kitty": "S8 HQ H10 H3 CJ",
}
DEAL_7 = {
    "Ana": "DQ D9 D2 H6 CA CQ C10",
    "Bo": "D8 HK H8 H5 C9 C8 C3",
    "Cy": "SK SQ S7 S6 DA H9 C6",
    "Di": "S10 S4 S3 D5 D3 HA C7",
    "Ed": "SA S9 D10 D6 D4 H4 CK",
    "Fay": "JK SJ S5 S2 DK D7 HJ",
    "Gus": "DJ H7 H3 H2 C5 C4 C2",
    "kitty": "S8 HQ H10 CJ",
}


def cards(deal: dict) -> dict:
    return {who: parse_cards(text) for who, text in deal.items()}


def declared(rules, players, deal, bid="14C"):
    """Ana opens and bids; everyone else passes: Ana is declarer."""
    state = new_hand(rules, players, players[0], cards(deal), opener=players[0])
    state = apply(state, BidCall("Ana", parse_bid(bid)))
    for player in players[1:]:
        state = apply(state, BidCall(player, None))
    return state


def eliminate(state, card: str):
    return apply(state, Eliminate(parse_card(card)))


def redistribute(state, **given: str):
    return apply(
        state, Redistribute(tuple((who, tuple(parse_cards(text))) for who, text in given.items()))
    )


# --- 6마 (000 §3.3) ----------------------------------------------------------------------------


def test_6ma_deals_eight_each_and_five_to_the_kitty_minimum_14():
    rules = load_ruleset("standard-6")
    state = new_hand(rules, SIX, "Ana", cards(DEAL_6), opener="Ana")
    assert {len(hand) for hand in state.hands.values()} == {8} and len(state.kitty) == 5
    assert BidCall("Ana", parse_bid("13C")) not in legal_actions(state)
    assert BidCall("Ana", parse_bid("14C")) in legal_actions(state)


def test_6ma_declarer_calls_a_card_and_its_holder_is_eliminated():
    state = declared(load_ruleset("standard-6"), SIX, DEAL_6)
    assert state.phase == "elimination" and state.to_move == "Ana"
    assert len(state.hands["Ana"]) == 8  # the kitty is not his yet
    out = eliminate(state, "JK")
    assert out.eliminated == ("Ed",) and out.phase == "redistribution"
    # a five-player ruleset has no elimination: the declarer takes the kitty at once
    five = declared(
        variant(
            {"table.players": 6, "table.hand_size": 8, "table.kitty_size": 5, "table.eliminated": 1}
        ),
        SIX,
        DEAL_6,
    )
    assert five.phase == "elimination"


def test_6ma_a_card_in_the_kitty_is_called_again():
    state = declared(load_ruleset("standard-6"), SIX, DEAL_6)
    again = eliminate(state, "HQ")  # in the kitty: no one leaves
    assert again.phase == "elimination" and again.eliminated == ()
    assert again.eliminations == ((parse_card("HQ"), None),)
    assert eliminate(again, "SA").eliminated == ("Di",)


def test_6ma_declarer_may_not_call_his_own_card():
    state = declared(load_ruleset("standard-6"), SIX, DEAL_6)
    with pytest.raises(IllegalExchange, match="Ana called CA, which he holds himself"):
        eliminate(state, "CA")
    assert Eliminate(parse_card("CA"), "Ana") not in legal_actions(state)


def test_6ma_five_to_the_declarer_and_two_to_each_other():
    state = eliminate(declared(load_ruleset("standard-6"), SIX, DEAL_6), "JK")
    # Ed's eight and the kitty's five: JK SJ S2 DK D10 D7 D4 CK S8 HQ H10 H3 CJ
    with pytest.raises(IllegalExchange, match="Ana receives 4 cards"):
        redistribute(state, Ana="JK SJ DK CK", Bo="S2 D10", Cy="D7 D4", Di="S8 HQ", Fay="H10 H3 CJ")
    with pytest.raises(IllegalExchange, match="C2 is not in the eliminated hands"):
        redistribute(state, Ana="JK SJ DK CK C2", Bo="S2 D10", Cy="D7 D4", Di="S8 HQ", Fay="H10 H3")
    dealt = redistribute(
        state, Ana="JK SJ DK CK CJ", Bo="S2 D10", Cy="D7 D4", Di="S8 HQ", Fay="H10 H3"
    )
    assert dealt.phase == "exchange" and dealt.players == ("Ana", "Bo", "Cy", "Di", "Fay")
    assert len(dealt.hands["Ana"]) == 13
    assert {len(dealt.hands[p]) for p in ("Bo", "Cy", "Di", "Fay")} == {10}


def test_6ma_then_played_as_five_and_the_eliminated_scores_nothing():
    state = eliminate(declared(load_ruleset("standard-6"), SIX, DEAL_6), "JK")
    state = redistribute(
        state, Ana="JK SJ DK CK CJ", Bo="S2 D10", Cy="D7 D4", Di="S8 HQ", Fay="H10 H3"
    )
    with pytest.raises(IllegalExchange, match="the discard is exactly 3"):
        apply(state, Discard(tuple(parse_cards("D2 D9"))))
    state = apply(state, Discard(tuple(parse_cards("D2 D9 H6"))))
    state = apply(state, CallFriend(FriendCall("card", parse_card("SA"))))
    while state.phase == "play":
        state = apply(state, legal_plays(state)[0])
    assert all(len(trick.plays) == 5 for trick in state.tricks) and len(state.tricks) == 10
    result = hand_result(state)
    assert result.deltas["Ed"] == 0 and sum(result.deltas.values()) == 0
    assert result.friend == "Di"
    hand = state_to_hand(state, cards(DEAL_6))
    assert hand["elimination"] == ["JK Ed"]
    (outcome,) = replay(Record(ruleset="standard-6", players=list(SIX), hands=[hand])).hands
    assert outcome.deltas == result.deltas


# --- 7마 (000 §3.4) ----------------------------------------------------------------------------


def test_7ma_two_calls_then_six_to_the_declarer_and_three_to_each_other():
    state = declared(load_ruleset("standard-7"), SEVEN, DEAL_7)
    state = eliminate(state, "JK")
    assert state.phase == "elimination" and state.eliminated == ("Fay",)
    state = eliminate(state, "SA")
    assert state.eliminated == ("Fay", "Ed") and state.phase == "redistribution"
    # Fay's and Ed's fourteen and the kitty's four: 18 cards
    state = redistribute(
        state,
        Ana="JK SJ SA DK CK CJ",
        Bo="S5 S2 S9",
        Cy="D7 HJ D10",
        Di="D6 D4 H4",
        Gus="S8 HQ H10",
    )
    assert len(state.hands["Ana"]) == 13 and len(state.players) == 5


def test_7ma_a_card_of_the_already_eliminated_is_called_again():
    state = eliminate(declared(load_ruleset("standard-7"), SEVEN, DEAL_7), "JK")
    again = eliminate(state, "SJ")  # Fay's, and Fay is out already
    assert again.eliminated == ("Fay",) and again.phase == "elimination"


def test_elimination_by_naming_the_player_local_rule():
    # footnote 15: 로컬 룰로 사람을 지명해 죽일 수도 있다 (table.eliminate_by = "player")
    rules = variant({"table.eliminate_by": "player"}, base="standard-6")
    state = declared(rules, SIX, DEAL_6)
    with pytest.raises(IllegalExchange, match="names a player, not a card"):
        eliminate(state, "JK")
    assert apply(state, Eliminate(None, "Cy")).eliminated == ("Cy",)
    with pytest.raises(IllegalExchange, match="name the player"):
        apply(state, Eliminate(None, None))
    # under the seed's rule a card is called, not a player
    with pytest.raises(IllegalExchange, match="not a card"):
        apply(declared(load_ruleset("standard-6"), SIX, DEAL_6), Eliminate(None, "Cy"))


# --- every size: seats, sessions, random hands ---------------------------------------------------


def test_six_present_all_play_6ma_seven_present_one_sits_out():
    rules = load_ruleset("standard-6")
    assert propose(rules, list(SIX), None, in_playing_order=True).sitting_out == ()
    assert propose(rules, list(SEVEN), None, in_playing_order=True).sitting_out == ("Ana",)
    with pytest.raises(MightyError, match="a hand needs 6 players"):
        new_hand(rules, SIX[:5], "Ana", None, opener="Ana")


@pytest.mark.parametrize("name", ["standard-6", "standard-7"])
def test_random_eliminations_agree_with_open_cards_and_the_record(name):
    rules = load_ruleset(name)
    players = SEVEN[: rules.table.players]
    for seed in range(40):
        rng = random.Random(seed)
        deal = deal_cards(seed, players, rules.deck_cards, rules.table.hand_size)
        full = new_hand(rules, players, players[0], deal)
        opened = new_hand(rules, players, players[0], None, opener=full.to_move)
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
        result = hand_result(full)
        assert hand_result(opened) == result and sum(result.deltas.values()) == 0
        assert sum(trick.points for trick in full.tricks) + full.discarded_points == 20
        hand = state_to_hand(full, {who: sorted_cards(c) for who, c in deal.items()})
        (outcome,) = replay(Record(ruleset=name, players=list(players), hands=[hand])).hands
        assert {p: outcome.deltas[p] for p in result.deltas} == result.deltas
        assert all(outcome.deltas[p] == 0 for p in full.eliminated)


def test_golden_seeded_deal_of_6ma():
    rules = load_ruleset("standard-6")
    deal = deal_cards(1, SIX, rules.deck_cards, rules.table.hand_size)
    assert format_cards(sorted_cards(deal["Ed"])) == "JK SJ S2 DK D10 D7 D4 CK"
    assert format_cards(sorted_cards(deal["kitty"])) == "S8 HQ H10 H3 CJ"


# --- 대전 6마 (000 §7.4) and 관악 6마 (§7.6) ------------------------------------------------------


def test_daejeon_6_election_as_sinchon_but_not_above_20():
    rules, sinchon = load_ruleset("daejeon-6"), load_ruleset("sinchon")
    state = new_hand(rules, SIX, "Ana", cards(DEAL_6))
    assert state.to_move == "Ana"  # the dealer opens (신촌)
    actions = legal_actions(state)
    assert BidCall("Ana", None) not in actions  # and may not pass
    assert BidCall("Ana", parse_bid("13NT")) in actions  # no-trump one less
    assert BidCall("Ana", parse_bid("13S")) not in actions
    assert BidCall("Ana", parse_bid("20S")) in actions
    assert BidCall("Ana", parse_bid("21S")) not in actions  # 20보다 높은 공약을 할 수는 없다
    assert sinchon.election.max_bid == 0  # 신촌 bids above 20


def test_daejeon_6_deal_miss_with_a_lone_jack_or_a_lone_mighty():
    from mighty_cli.engine.hand import is_deal_miss_hand

    rules, six = load_ruleset("daejeon-6"), load_ruleset("standard-6")
    lone_jack = parse_cards("HJ S9 S8 S7 D9 D8 D7 C9")
    lone_king = parse_cards("HK S9 S8 S7 D9 D8 D7 C9")
    assert is_deal_miss_hand(rules, lone_jack) and not is_deal_miss_hand(rules, lone_king)
    assert not is_deal_miss_hand(six, lone_jack)


def test_gwanak_6_change_to_no_trump_one_less():
    def change_to_no_trump(name):
        state = declared(load_ruleset(name), SIX, DEAL_6, bid="14S")
        state = eliminate(state, "JK")
        state = redistribute(
            state, Ana="JK SJ DK CK CJ", Bo="S2 D10", Cy="D7 D4", Di="S8 HQ", Fay="H10 H3"
        )
        state = apply(state, Discard(tuple(parse_cards("D2 D9 H6"))))
        return min(
            action.contract.number
            for action in legal_actions(state)
            if type(action).__name__ == "ChangeContract" and action.contract.trump is None
        )

    assert change_to_no_trump("gwanak-6") == 15
    assert change_to_no_trump("daejeon-6") == 16  # standard: +2


def test_gwanak_6_deal_miss_with_a_lone_ten():
    from mighty_cli.engine.hand import is_deal_miss_hand

    lone_ten = parse_cards("H10 S9 S8 S7 D9 D8 D7 C9")
    assert is_deal_miss_hand(load_ruleset("gwanak-6"), lone_ten)
    assert not is_deal_miss_hand(load_ruleset("daejeon-6"), lone_ten)
