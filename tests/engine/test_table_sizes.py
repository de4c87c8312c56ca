"""4마, 3마 (and 제주 3마), 2마: the table size and the deck as ruleset data (000 §3.5, §7.14).
One test per rule, named after it, from a position in card notation, showing the rule changes
the outcome against the five-player game or a variant without it."""

from __future__ import annotations

import pytest

from hand_positions import variant
from mighty_cli.engine.cards import format_cards, parse_bid, parse_card, parse_cards
from mighty_cli.engine.cards.deck import deal_cards, hand_seed
from mighty_cli.engine.errors import IllegalExchange, IllegalPlay, MightyError, RulesetError
from mighty_cli.engine.hand import (
    BidCall,
    CallFriend,
    Discard,
    FriendCall,
    Play,
    apply,
    hand_result,
    is_deal_miss_hand,
    legal_actions,
    legal_plays,
    new_hand,
)
from mighty_cli.engine.records import Record, replay, state_to_hand
from mighty_cli.engine.ruleset import load_ruleset, ruleset_from_toml
from mighty_cli.engine.scoring import score_hand
from mighty_cli.engine.session import PreviousHand, propose

FOUR = ("Ana", "Bo", "Cy", "Di")
THREE = FOUR[:3]
TWO = FOUR[:2]

# Positions (seeded deal 1 of each ruleset's deck, written out).
DEAL_4 = {
    "Ana": "SQ S8 S7 S6 DQ D8 HQ H10 H7 C7",
    "Bo": "JK SJ DA DJ D7 D6 D5 H9 H5 C6",
    "Cy": "SK S10 HA CA CK CQ CJ C10 C8 C5",
    "Di": "SA S9 S5 DK D10 D9 HJ H6 C9 C3",
    "kitty": "S3 HK H8",
}
DEAL_3 = {
    "Ana": "SA SJ DQ D9 D7 H10 CQ CJ C8 C7",
    "Bo": "JK SQ S9 S8 S7 HA HK H9 H7 C10",
    "Cy": "SK S10 DA DK DJ D10 HQ H8 CK C9",
    "kitty": "D8 HJ CA",
}
DEAL_2 = {
    "Ana": "JK SJ S10 DA DK DQ D10 HA HJ H10",
    "Bo": "SA SQ DJ HK HQ CK CQ CJ C10 C3",
    "kitty": "SK CA",
}


def cards(deal: dict) -> dict:
    return {who: parse_cards(text) for who, text in deal.items()}


def elect(state, *calls: str):
    for call in calls:
        player, what = call.split()
        state = apply(state, BidCall(player, None if what == "pass" else parse_bid(what)))
    return state


def declared(rules, players, deal, calls, discard):
    state = new_hand(rules, players, players[0], cards(deal), opener=players[0])
    state = elect(state, *calls)
    return apply(state, Discard(tuple(parse_cards(discard))))


# --- 4마 (000 §3.5) ----------------------------------------------------------------------------


def test_4ma_plays_without_the_2s_the_red_3s_and_the_4s():
    rules = load_ruleset("standard-4")
    deck = rules.deck_cards
    assert len(deck) == 43 and rules.point_card_total == 20
    assert parse_card("S3") in deck and parse_card("C3") in deck  # only the red 3s go
    for name in ("S2", "C2", "D3", "H3", "S4", "C4"):
        assert parse_card(name) not in deck
    # the same cards dealt to a five-player table are refused by the four-player one
    five = load_ruleset("standard")
    with pytest.raises(MightyError, match="a hand needs 4 players"):
        new_hand(rules, FOUR + ("Ed",), "Ana", deal_cards(1, FOUR + ("Ed",)))
    with_d3 = dict(DEAL_4, Di="SA S9 S5 DK D10 D9 HJ H6 C9 D3")
    with pytest.raises(MightyError, match="D3 is not in play"):
        new_hand(rules, FOUR, "Ana", cards(with_d3))
    assert len(five.deck_cards) == 53


def test_4ma_deals_ten_each_and_three_to_the_kitty():
    rules = load_ruleset("standard-4")
    state = new_hand(rules, FOUR, "Ana", cards(DEAL_4), opener="Ana")
    assert {len(hand) for hand in state.hands.values()} == {10} and len(state.kitty) == 3
    with pytest.raises(MightyError, match="Ana has 9 cards; expected 10"):
        new_hand(
            rules,
            FOUR,
            "Ana",
            cards(dict(DEAL_4, Ana="SQ S8 S7 S6 DQ D8 HQ H10 H7", kitty="S3 HK H8 C7")),
        )


def test_4ma_no_mighty_friend():
    # Ana declares spades: Mighty is ◆A (빨마); 4마 forbids calling it, standard allows it
    calls = ("Ana 13S", "Bo pass", "Cy pass", "Di pass")
    state = declared(load_ruleset("standard-4"), FOUR, DEAL_4, calls, "S3 H7 C7")
    with pytest.raises(
        IllegalExchange,
        match=r"Mighty \(DA\) may not be called as friend "
        r"\(friend.mighty = false\)",
    ):
        apply(state, CallFriend(FriendCall("card", parse_card("DA"))))
    assert CallFriend(FriendCall("card", parse_card("DA"))) not in legal_actions(state)
    allowed = declared(
        variant({"friend.mighty": True}, base="standard-4"), FOUR, DEAL_4, calls, "S3 H7 C7"
    )
    assert apply(allowed, CallFriend(FriendCall("card", parse_card("DA")))).friend == "Bo"
    # ♠A is not Mighty under spade trump: it may be called
    assert apply(state, CallFriend(FriendCall("card", parse_card("SA")))).friend == "Di"


def test_4ma_no_joker_friend():
    calls = ("Ana 13H", "Bo pass", "Cy pass", "Di pass")
    state = declared(load_ruleset("standard-4"), FOUR, DEAL_4, calls, "S3 S6 C7")
    with pytest.raises(IllegalExchange, match=r"friend.joker = false"):
        apply(state, CallFriend(FriendCall("card", parse_card("JK"))))
    allowed = declared(
        variant({"friend.joker": True}, base="standard-4"), FOUR, DEAL_4, calls, "S3 S6 C7"
    )
    assert apply(allowed, CallFriend(FriendCall("card", parse_card("JK")))).friend == "Bo"


def test_4ma_two_against_two_scores_zero_sum():
    rules = load_ruleset("standard-4")
    score = score_hand(rules, parse_bid("13H"), 14, has_friend=True)
    # two opponents pay the unit each; the friend takes one unit, the declarer the balance
    assert (score.declarer, score.friend, score.opponent) == (score.unit, score.unit, -score.unit)
    five = score_hand(load_ruleset("standard"), parse_bid("13H"), 14, has_friend=True)
    assert five.declarer == 2 * five.unit  # three opponents at a five-player table
    alone = score_hand(rules, parse_bid("13H"), 14, has_friend=False)
    assert alone.declarer == -3 * alone.opponent


def test_4ma_a_trick_is_four_cards_and_a_whole_hand_replays():
    rules = load_ruleset("standard-4")
    state = declared(rules, FOUR, DEAL_4, ("Ana 13H", "Bo pass", "Cy pass", "Di pass"), "S3 S6 C7")
    state = apply(state, CallFriend(FriendCall("card", parse_card("HA"))))
    for _ in range(4):
        state = apply(state, legal_plays(state)[0])
    (trick,) = state.tricks
    assert len(trick.plays) == 4 and state.trick_number == 2
    while state.phase == "play":
        state = apply(state, legal_plays(state)[0])
    assert state.friend == "Cy"  # who held ♥A
    result = hand_result(state)
    assert sum(result.deltas.values()) == 0 and set(result.deltas) == set(FOUR)
    hand = state_to_hand(state, cards(DEAL_4))
    assert all(len(trick.split()) == 4 for trick in hand["tricks"])
    (outcome,) = replay(Record(ruleset="standard-4", players=list(FOUR), hands=[hand])).hands
    assert outcome.deltas == result.deltas


def test_4ma_five_present_the_dealer_sits_out():
    rules = load_ruleset("standard-4")
    five = ["Ana", "Bo", "Cy", "Di", "Ed"]
    first = propose(rules, five, None, in_playing_order=True)
    assert first.sitting_out == ("Ana",) and first.players == ("Bo", "Cy", "Di", "Ed")
    later = propose(
        rules,
        five,
        PreviousHand("scored", ("Bo", "Cy", "Di", "Ed"), "Ana", "Bo", "Cy", True),
        in_playing_order=True,
    )
    assert later.sitting_out == ("Cy",)  # the previous friend deals and sits out
    assert propose(load_ruleset("standard"), five, None, in_playing_order=True).sitting_out == ()


# --- 3마 (000 §3.5) and 제주 3마 (§7.14) ---------------------------------------------------------


def test_3ma_plays_without_the_2s_to_6s():
    rules = load_ruleset("standard-3")
    assert len(rules.deck_cards) == 33 and rules.point_card_total == 20
    assert not [card for card in rules.deck_cards if card != parse_card("JK") and card & 15 < 7]
    state = new_hand(rules, THREE, "Ana", cards(DEAL_3), opener="Ana")
    assert {len(hand) for hand in state.hands.values()} == {10}


def test_3ma_declarer_always_alone():
    state = declared(
        load_ruleset("standard-3"), THREE, DEAL_3, ("Ana 13C", "Bo pass", "Cy pass"), "D7 D9 C8"
    )
    calls = [action for action in legal_actions(state) if isinstance(action, CallFriend)]
    assert calls == [CallFriend(FriendCall("none"))]
    with pytest.raises(IllegalExchange, match=r"friend.card = false"):
        apply(state, CallFriend(FriendCall("card", parse_card("SK"))))
    standard = declared(
        variant(
            {
                "table.players": 3,
                "table.removed_ranks": ["2", "3", "4", "5", "6"],
                "cards.joker_call": "C7",
                "cards.joker_call_alternate": "S7",
            }
        ),
        THREE,
        DEAL_3,
        ("Ana 13C", "Bo pass", "Cy pass"),
        "D7 D9 C8",
    )
    assert apply(standard, CallFriend(FriendCall("card", parse_card("SK")))).friend == "Cy"


def test_3ma_joker_call_is_the_club_7():
    rules = load_ruleset("standard-3")
    state = declared(rules, THREE, DEAL_3, ("Ana 13H", "Bo pass", "Cy pass"), "D7 D9 C8")
    state = apply(state, CallFriend(FriendCall("none")))
    for token in ("SA", "S7", "SK"):  # Ana wins trick 1 and leads trick 2
        state = apply(state, Play(state.to_move, parse_card(token)))
    called = apply(state, Play("Ana", parse_card("C7"), None, True))
    assert {p.card for p in legal_plays(called)} == {parse_card("JK")}  # Bo must give the joker
    with pytest.raises(
        IllegalPlay,
        match=r"Ana played C3, which is not in play "
        r"\(table.removed_cards\)",
    ):
        apply(state, Play("Ana", parse_card("C3"), None, True))


def test_3ma_declarer_alone_takes_from_two_opponents_and_is_not_doubled():
    rules = load_ruleset("standard-3")
    score = score_hand(rules, parse_bid("13H"), 14, has_friend=False)
    assert score.declarer == -2 * score.opponent and "no_friend" not in score.doublings
    five = score_hand(load_ruleset("standard"), parse_bid("13H"), 14, has_friend=False)
    assert "no_friend" in five.doublings and five.declarer == -4 * five.opponent


def test_jeju_3_minimum_bid_is_12():
    rules = load_ruleset("jeju-3")
    state = new_hand(rules, THREE, "Ana", cards(DEAL_3), opener="Ana")
    assert BidCall("Ana", parse_bid("12S")) in legal_actions(state)
    assert BidCall("Ana", parse_bid("12S")) not in legal_actions(
        new_hand(load_ruleset("standard-3"), THREE, "Ana", cards(DEAL_3), opener="Ana")
    )


def test_jeju_3_deal_miss_with_a_lone_jack_or_a_lone_mighty():
    rules, three = load_ruleset("jeju-3"), load_ruleset("standard-3")
    lone_jack = parse_cards("SJ S9 S8 S7 D9 D8 D7 H9 H8 C9")
    lone_mighty = parse_cards("SA S9 S8 S7 D9 D8 D7 H9 H8 C9")
    lone_king = parse_cards("SK S9 S8 S7 D9 D8 D7 H9 H8 C9")
    assert is_deal_miss_hand(rules, lone_jack) and is_deal_miss_hand(rules, lone_mighty)
    assert not is_deal_miss_hand(rules, lone_king)
    assert not is_deal_miss_hand(three, lone_jack)  # standard weights: a J counts 1


# --- 2마 (000 §3.5) ----------------------------------------------------------------------------


def test_2ma_deck_is_the_point_cards_the_joker_and_the_club_3():
    rules = load_ruleset("standard-2")
    assert format_cards(rules.deck_cards) == (
        "S10 SJ SQ SK SA D10 DJ DQ DK DA H10 HJ HQ HK HA C3 C10 CJ CQ CK CA JK"
    )


def test_2ma_discard_is_as_large_as_the_kitty_of_two():
    rules = load_ruleset("standard-2")
    state = new_hand(rules, TWO, "Ana", cards(DEAL_2), opener="Ana")
    state = elect(state, "Ana 13H", "Bo pass")
    assert len(state.hands["Ana"]) == 12
    with pytest.raises(IllegalExchange, match="the discard is exactly 2"):
        apply(state, Discard(tuple(parse_cards("SJ S10 DQ"))))
    state = apply(state, Discard(tuple(parse_cards("SJ S10"))))
    assert state.discarded_points == 2


# --- the schema ---------------------------------------------------------------------------------


def test_table_must_add_up_to_the_cards_in_play():
    with pytest.raises(RulesetError, match=r"need 43 cards, but 53 are in play"):
        ruleset_from_toml('extends = "standard"\n[table]\nplayers = 4\n')
    with pytest.raises(RulesetError, match=r"cards.joker_call = 'C3' is one of the cards removed"):
        ruleset_from_toml(
            'extends = "standard"\n[table]\nplayers = 3\n'
            'removed_ranks = ["2", "3", "4", "5", "6"]\n'
        )


# --- seeded deals of every size (mighty-deal/1 over the ruleset's deck) ------------------------

GOLDEN = {
    "standard-4": ("Ana", "SQ S8 S7 S6 DQ D8 HQ H10 H7 C7", "S3 HK H8"),
    "standard-3": ("Ana", "SA SJ DQ D9 D7 H10 CQ CJ C8 C7", "D8 HJ CA"),
    "standard-2": ("Ana", "JK SJ S10 DA DK DQ D10 HA HJ H10", "SK CA"),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_seeded_deal_of_every_table_size(name):
    rules = load_ruleset(name)
    players = FOUR[: rules.table.players]
    from mighty_cli.engine.cards import sorted_cards

    deal = deal_cards(1, players, rules.deck_cards)
    who, hand, kitty = GOLDEN[name]
    assert format_cards(sorted_cards(deal[who])) == hand
    assert format_cards(sorted_cards(deal["kitty"])) == kitty
    assert hand_seed(1, 1) != 1  # `mighty deal` hands use hand_seed; deal_cards takes any seed
