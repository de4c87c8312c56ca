"""8마 Chicago (000 §3.5.3): two decks of 106 cards for six to eight players, one test per rule
from a position in card notation (chicago-6, chicago-7, chicago-8).

Positions are chicago-8 hands of twelve; a deal lists players in the order their copies are
assigned (the first naming of a card is copy 0, the second copy 1), so a test can make the
second copy the one played first and show that the first played wins, not the higher bit."""

from __future__ import annotations

import pytest

from hand_positions import variant
from mighty_cli.engine.cards import (
    COPY,
    DECK2,
    JOKER,
    Bid,
    format_cards,
    parse_bid,
    parse_card,
    parse_cards,
)
from mighty_cli.engine.cards.deck import deal_cards, hand_seed
from mighty_cli.engine.errors import IllegalAction
from mighty_cli.engine.hand import (
    BidCall,
    CallFriend,
    ChangeContract,
    Discard,
    Play,
    apply,
    legal_actions,
    legal_plays,
    new_hand,
    parse_friend_call,
    parse_play,
)
from mighty_cli.engine.hand.contract import holding_index
from mighty_cli.engine.hand.derived import deal_miss_value
from mighty_cli.engine.ruleset import load_ruleset

EIGHT = ("Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal")


def chicago_deal(hands: dict[str, str], rules) -> dict[str, list[int]]:
    """A deal of the ruleset's deck: the given hands (in the dict's order: copies by order of
    naming), the rest filled from the cards left, in deck order."""
    left = [card & 127 for card in rules.deck_cards]
    deal: dict[str, list[int]] = {}
    for who, text in hands.items():
        deal[who] = parse_cards(text, copies=True)
        for card in deal[who]:
            left.remove(card & 127)
    for who in EIGHT[: rules.table.players] + ("kitty",):
        cards = deal.setdefault(who, [])
        size = rules.table.kitty_size if who == "kitty" else rules.table.hand_size
        while len(cards) < size:
            cards.append(left.pop(0))
    return deal


def play_to(
    rules, hands: dict[str, str], bid: str = "25H", friend: str = "none", tricks: tuple = ()
):
    """Ana bids and everyone else passes; she discards the kitty, calls and the tricks follow."""
    players = EIGHT[: rules.table.players]
    deal = chicago_deal(hands, rules)
    state = new_hand(rules, players, "Hal", deal, opener="Ana")
    state = apply(state, BidCall("Ana", parse_bid(bid)))
    for player in players[1:]:
        state = apply(state, BidCall(player, None))
    state = apply(state, Discard(tuple(parse_cards(format_cards(deal["kitty"]), copies=True))))
    state = apply(state, CallFriend(parse_friend_call(friend, state)))
    for trick in tricks:
        for player, text in zip(_order(state), trick.split()):
            card, suit, call = parse_play(text)
            state = apply(state, Play(player, card, suit, call))
    return state


def _order(state):
    players = state.players
    start = players.index(state.to_move)
    return players[start:] + players[:start]


# --- the deck per player count ------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, players, size, cards",
    [("chicago-6", 6, 17, 106), ("chicago-7", 7, 14, 102), ("chicago-8", 8, 12, 100)],
)
def test_deck_per_player_count(name, players, size, cards):
    rules = load_ruleset(name)
    deck = rules.deck_cards
    assert (rules.table.players, rules.table.hand_size, rules.table.kitty_size) == (
        players,
        size,
        4,
    )
    assert len(deck) == cards == players * size + 4
    assert rules.point_card_total == 40 and rules.tricks == size
    assert sum(1 for card in deck if card & 127 == JOKER) == 2  # 조커 2개
    twos = {
        name: sum(1 for card in deck if card & 127 == parse_card(name))
        for name in ("S2", "D2", "H2", "C2")
    }
    # 6인: 106장 모두; 7인: 클로버 2와 하트 2를 모두 제거; 8인: 다이아몬드 2와 스페이드 2를 한 장씩 더
    assert (
        twos
        == {
            "chicago-6": {"S2": 2, "D2": 2, "H2": 2, "C2": 2},
            "chicago-7": {"S2": 2, "D2": 2, "H2": 0, "C2": 0},
            "chicago-8": {"S2": 1, "D2": 1, "H2": 0, "C2": 0},
        }[name]
    )
    # a seeded deal gives every card in play exactly once, 17 / 14 / 12 each and 4 buried
    deal = deal_cards(hand_seed(1, 1), EIGHT[:players], deck, size)
    assert sorted(card for cards in deal.values() for card in cards) == sorted(deck)
    assert {len(cards) for who, cards in deal.items() if who != "kitty"} == {size}


def test_golden_deal_chicago_8():
    # hand 1 of `mighty deal --seed 7 -r chicago-8`: mighty-deal/1 over the first deck's 53
    # (less nothing) then the second deck's (less ♣2 ♥2 ◆2 ♠2), copies written alike
    rules = load_ruleset("chicago-8")
    deal = deal_cards(hand_seed(7, 1), EIGHT, rules.deck_cards, 12)
    assert format_cards(deal["Ana"]) == "D9 D8 S3 C10 HK H5 HQ DJ CA C7 CJ C9"
    assert format_cards(deal["Ed"]) == "C3 DK CA SA D3 H10 H3 SQ JK CK HA DK"  # both ◆K
    assert format_cards(deal["Hal"]) == "C3 S6 D7 H6 S7 H4 H5 SJ SQ S3 S10 S9"
    assert format_cards(deal["kitty"]) == "D10 HJ D6 D7"
    assert deal["Ed"][1] == parse_card("DK") | COPY and deal["Ed"][11] == parse_card("DK")


def test_a_card_named_twice_is_both_copies_and_written_alike():
    cards = parse_cards("SA DK SA", copies=True)
    assert cards == [parse_card("SA"), parse_card("DK"), parse_card("SA") | COPY]
    assert format_cards(cards) == "SA DK SA"
    with pytest.raises(Exception, match="SA appears twice"):
        parse_cards("SA SA SA", copies=True)
    assert len(DECK2) == 106


# --- the bid range and the changes after the kitty ------------------------------------------------


def test_bid_range_is_25_to_40():
    rules = load_ruleset("chicago-8")
    state = new_hand(rules, EIGHT, "Hal", chicago_deal({}, rules), opener="Ana")
    bids = [
        action.bid
        for action in legal_actions(state)
        if isinstance(action, BidCall) and action.bid is not None
    ]
    assert min(bid.number for bid in bids) == 25 and max(bid.number for bid in bids) == 40
    with pytest.raises(IllegalAction):
        apply(state, BidCall("Ana", Bid(24, 2)))
    with pytest.raises(IllegalAction):
        apply(state, BidCall("Ana", Bid(41, 2)))
    apply(state, BidCall("Ana", Bid(40, None)))


def test_trump_change_after_the_kitty_raises_3_and_to_no_trump_2():
    rules = load_ruleset("chicago-6")
    players = EIGHT[:6]
    deal = chicago_deal({}, rules)
    state = new_hand(rules, players, "Fay", deal, opener="Ana")
    state = apply(state, BidCall("Ana", Bid(26, 2)))
    for player in players[1:]:
        state = apply(state, BidCall(player, None))
    state = apply(state, Discard(tuple(deal["kitty"])))
    with pytest.raises(IllegalAction, match="raises the contract by 3 to at least 29"):
        apply(state, ChangeContract(Bid(28, 0)))
    apply(state, ChangeContract(Bid(29, 0)))  # 조합을 바꿀 경우 공약 3
    with pytest.raises(IllegalAction, match="by 2 to at least 28"):
        apply(state, ChangeContract(Bid(27, None)))
    apply(state, ChangeContract(Bid(28, None)))  # 노 기루다로 바꿀 경우 공약 2


# --- of two identical cards the first played wins -----------------------------------------------


def test_first_identical_card_wins():
    # Ana's ♣K (led first) is copy 0 and Bo's copy 1, the higher bit: the first played wins
    rules = load_ruleset("chicago-8")
    hands = {
        "Ana": "CK C8",
        "Bo": "CK C9",
        "Cy": "C7",
        "Di": "C6",
        "Ed": "C5",
        "Fay": "C4",
        "Gus": "C3",
        "Hal": "C3",
        "kitty": "CA CA CQ CQ",
    }
    state = play_to(rules, hands, tricks=("CK CK C7 C6 C5 C4 C3 C3",))
    assert state.tricks[0].winner == "Ana"
    assert state.tricks[0].points == 2
    # two equal trumps (♥5, trump ♥): Bo's, copy 0, played before Cy's copy 1, wins
    hands = {
        "Ana": "CK",
        "Bo": "H5",
        "Cy": "H5",
        "Di": "C6",
        "Ed": "C5",
        "Fay": "C4",
        "Gus": "C3",
        "Hal": "C3",
        "kitty": "CA CA CQ CQ",
    }
    state = play_to(rules, hands, tricks=("CK H5 H5 C6 C5 C4 C3 C3",))
    assert state.tricks[0].winner == "Bo"


def test_both_mightys_the_first_played_wins():
    # trump ♥: Mighty is ♠A; Cy holds copy 0, Bo copy 1 and plays it first
    rules = load_ruleset("chicago-8")
    hands = {
        "Cy": "SA",
        "Bo": "SA C9",
        "Ana": "CK",
        "Di": "C6",
        "Ed": "C5",
        "Fay": "C4",
        "Gus": "C3",
        "Hal": "C3",
        "kitty": "CA CA CQ CQ",
    }
    state = play_to(rules, hands, tricks=("CK SA SA C6 C5 C4 C3 C3",))
    assert state.tricks[0].winner == "Bo"


def test_both_jokers_the_first_played_wins():
    # trick 2 (the joker has no power on trick 1): Cy holds the first joker, Bo the second
    rules = load_ruleset("chicago-8")
    hands = {
        "Cy": "JK C7",
        "Bo": "JK C9",
        "Ana": "CK DK",
        "Di": "C6 D6",
        "Ed": "C5 D5",
        "Fay": "C4 D4",
        "Gus": "C3 D3",
        "Hal": "C3 D7",
        "kitty": "CA CA CQ CQ",
    }
    state = play_to(rules, hands, tricks=("CK C9 C7 C6 C5 C4 C3 C3", "DK JK JK D6 D5 D4 D3 D7"))
    assert state.tricks[0].winner == "Ana"
    assert state.tricks[1].winner == "Bo"


def test_joker_call_calls_both_jokers():
    # trump ♥: the call card is ♣3. Bo and Cy each hold a joker; both must answer (or Mighty)
    rules = load_ruleset("chicago-8")
    hands = {
        "Cy": "JK C7 D2",
        "Bo": "JK C9 D8",
        "Ana": "CK C3",
        "Di": "C6",
        "Ed": "C5",
        "Fay": "C4",
        "Gus": "C8",
        "Hal": "CJ",
        "kitty": "CA CA CQ CQ",
    }
    # trick 1 (a call has no effect there): Ana wins it and leads the call on trick 2
    state = play_to(rules, hands, tricks=("CK C9 C7 C6 C5 C4 C8 CJ", "C3!"))
    bo = {format_cards([play.card]) for play in legal_plays(state)}
    assert "JK" in bo and bo <= {"JK", "SA"}  # the joker, or Mighty (mighty_defends)
    with pytest.raises(IllegalAction, match="the joker was called"):
        apply(state, Play("Bo", parse_card("D8")))
    state = apply(state, Play("Bo", JOKER))
    cy = {format_cards([play.card]) for play in legal_plays(state)}  # Cy holds copy 1
    assert "JK" in cy and cy <= {"JK", "SA"}  # the joker, or Mighty (joker_call.mighty_defends)
    with pytest.raises(IllegalAction, match="the joker was called"):
        apply(state, Play("Cy", parse_card("D2")))


# --- two partners ------------------------------------------------------------------------------


def test_two_partners_called_cards():
    # Ana calls ♠K and ♥Q. She holds a ♠K herself, so the other ♠K's holder (Di) is a partner at
    # once; Fay and Gus each hold a ♥Q: the first of them to play it (Fay) is the other partner
    rules = load_ruleset("chicago-8")
    hands = {
        "Ana": "SK H5",
        "Di": "SK H8",
        "Bo": "H6",
        "Cy": "H7",
        "Ed": "H9",
        "Fay": "HQ",
        "Gus": "HQ",
        "Hal": "H4",
        "kitty": "HA HA HK HK",
    }
    state = play_to(rules, hands, bid="25S", friend="SK+HQ")
    assert state.friends == ("Di",)
    state = play_to(rules, hands, bid="25S", friend="SK+HQ", tricks=("H5 H6 H7 H8 H9 HQ HQ H4",))
    assert state.friends == ("Di", "Fay")
    assert state.tricks[0].winner == "Fay"  # the first ♥Q played


def test_two_partners_one_player_holding_both_copies_is_one_partner():
    # Di holds both ♠K: one partner by it; Ana holds both ◆9 herself: none by it (a fake call)
    rules = load_ruleset("chicago-8")
    hands = {"Di": "SK SK", "Ana": "D9 D9 H5", "kitty": "HA HA HK HK"}
    state = play_to(rules, hands, bid="25S", friend="SK+D9")
    assert state.friends == ("Di",)
    # and a player named by both cards is one partner
    hands = {"Di": "SK D9", "Ana": "SK D9 H5", "kitty": "HA HA HK HK"}
    state = play_to(rules, hands, bid="25S", friend="SK+D9")
    assert state.friends == ("Di",)


def test_two_jokers_must_both_be_out_before_the_last_trick():
    # cards.joker_playable_last_trick = false with two decks: Bo holds both jokers and keeps
    # them; on trick 10 of 12 (two jokers, two tricks before the last) he must play one
    import tomli_w

    from mighty_cli.engine.ruleset import ruleset_from_toml

    rules = ruleset_from_toml(
        tomli_w.dumps({"extends": "chicago-8", "cards": {"joker_playable_last_trick": False}}),
        label="test variant",
    ).ruleset
    hands = {"Bo": "JK JK", "kitty": "CA CA CQ CQ"}
    state = play_to(rules, hands)
    while state.trick_number < 10 or state.to_move != "Bo":
        plays = legal_plays(state)
        bo_keeps = [play for play in plays if play.card != JOKER]
        state = apply(state, (bo_keeps or plays)[0])
    held = state.hands["Bo"]
    assert sum(1 for card in held if card & 127 == JOKER) == 2 and len(held) == 3
    assert {play.card for play in legal_plays(state)} == {JOKER}
    with pytest.raises(IllegalAction, match="joker_playable_last_trick"):
        apply(state, Play("Bo", next(card for card in held if card & 127 != JOKER)))


# Over the trick rules of one deck (two jokers, the 11, 경기 2018's trick 1): a copy's bit
# (card | 128) sits above every original, so a copy must rank as its original; the in-progress
# view (holding_index, the referee's "winning so far") agrees with the finished trick.


def test_a_copy_of_a_lower_card_does_not_beat_a_higher_original():
    # ♣Q led (copy 0), Bo's ♣Q is copy 1 (bit 128 above), Cy's ♣K copy 0: the ♣K wins
    rules = load_ruleset("chicago-8")
    hands = {
        "Ana": "CQ",
        "Bo": "CQ",
        "Cy": "CK",
        "Di": "C6",
        "Ed": "C5",
        "Fay": "C4",
        "Gus": "C3",
        "Hal": "C3",
        "kitty": "CA CA CJ CJ",
    }
    state = play_to(rules, hands, tricks=("CQ CQ CK C6 C5 C4 C3 C3",))
    assert state.tricks[0].winner == "Cy"


def test_a_copy_of_a_lower_trump_does_not_beat_a_higher_original_trump():
    # trump ♥, ♣K led: Ana holds ♥5 copy 0, so Bo's ♥5 is copy 1 (the top bit of the trick);
    # Cy's ♥7 (copy 0) wins, and while the trick is open the referee's view shows it holding
    rules = load_ruleset("chicago-8")
    hands = {
        "Ana": "CK H5",
        "Bo": "H5",
        "Cy": "H7",
        "Di": "C6",
        "Ed": "C5",
        "Fay": "C4",
        "Gus": "C3",
        "Hal": "C3",
        "kitty": "CA CA CQ CQ",
    }
    state = play_to(rules, hands)
    plays = "CK H5 H7 C6 C5 C4 C3 C3".split()
    for number, (player, text) in enumerate(zip(_order(state), plays)):
        card, suit, call = parse_play(text)
        state = apply(state, Play(player, card, suit, call))
        if number == 2:
            assert holding_index(state) == 2  # Cy's ♥7 over Bo's ♥5 (copy 1)
    assert state.tricks[0].winner == "Cy"


def test_chicago_mighties_cancel_pairs_either_copy():
    """deal_miss.mighties_cancel (000 §8) with two decks: a Mighty held with an alternate
    Mighty cancels whichever copies they are, and two of each are two pairs."""
    weighted = {"deal_miss.mighty_weight": -1.0, "deal_miss.card_weights": {"DA": -1.0}}
    plain, cancelling = (
        variant(weighted, base="chicago-8"),
        variant({**weighted, "deal_miss.mighties_cancel": True}, base="chicago-8"),
    )
    sa, da = parse_card("SA"), parse_card("DA")
    rest = list(parse_cards("S2 S3 S4 S5 S6 S7 S8 C3 C4"))
    second_mighty = [sa | COPY, da] + rest  # the second deck's Mighty, the first's ◆A
    assert deal_miss_value(plain, second_mighty) == -2
    assert deal_miss_value(cancelling, second_mighty) == 0
    both = [sa, sa | COPY, da, da | COPY] + rest[:8]
    assert deal_miss_value(plain, both) == -4
    assert deal_miss_value(cancelling, both) == 0
    lone = [sa, sa | COPY, da] + rest  # two Mightys, one ◆A: one pair, one Mighty left
    assert deal_miss_value(cancelling, lone) == -1
