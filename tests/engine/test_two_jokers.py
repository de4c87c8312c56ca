"""Two jokers in play (issue 11): 더블 조커 마이티 (000 §7.11, 002 ダブルジョーカーマイティ) and
경기 2018 (000 §7.10). One test per rule, named after it, from a position in card notation; each
shows the rule changes the outcome against the same position with the option off.

The 54-card deck: the colour joker JK (컬러 조커, ◆ ♥) and the black joker BJ (흑조커, ♠ ♣).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from hand_positions import PLAYERS, legal, play, variant
from mighty_cli.engine.cards import BLACK_JOKER, DECK, JOKER, format_cards, parse_bid, parse_cards
from mighty_cli.engine.errors import IllegalPlay, MightyError, RulesetError
from mighty_cli.engine.hand import (
    BidCall,
    CallFriend,
    Discard,
    HandState,
    apply,
    format_friend_call,
    is_deal_miss_hand,
    legal_actions,
    new_hand,
    parse_friend_call,
)
from mighty_cli.engine.ruleset import Ruleset, load_ruleset

DECK54 = DECK + (BLACK_JOKER,)


def deal54(hands: dict[str, str]) -> dict[str, list[int]]:
    """A 54-card deal: the hands given, the rest filled in deck order (ten each, kitty four)."""
    deal = {who: parse_cards(hands.get(who, "")) for who in PLAYERS + ("kitty",)}
    used = [card for cards in deal.values() for card in cards]
    assert len(set(used)) == len(used), "a card is dealt twice"
    spare = [card for card in DECK54 if card not in used]
    for who, cards in deal.items():
        while len(cards) < (4 if who == "kitty" else 10):
            cards.append(spare.pop(0))
    return deal


def plain(state: HandState) -> str:
    """The first legal plain card of the player to move, jokers last (to play a trick out)."""
    return sorted(
        (text for text in legal(state) if "/" not in text and "!" not in text),
        key=lambda text: (text in ("JK", "BJ"), text),
    )[0]


def hand(
    rules: Ruleset | str,
    hands: dict[str, str],
    *,
    bid: str = "13S",
    friend: str = "none",
    tricks: Sequence[str] = (),
) -> HandState:
    """Ana deals, opens and declares ``bid``; the others pass; she discards the kitty, calls
    ``friend`` and the ``tricks`` are played (the last may be partial; ``*`` plays the first
    legal plain card)."""
    if isinstance(rules, str):
        rules = load_ruleset(rules)
    deal = deal54(hands)
    state = new_hand(rules, PLAYERS, "Ana", deal, opener="Ana")
    state = apply(state, BidCall("Ana", parse_bid(bid)))
    for player in PLAYERS[1:]:
        state = apply(state, BidCall(player, None))
    state = apply(state, Discard(tuple(deal["kitty"])))
    state = apply(state, CallFriend(parse_friend_call(friend, state)))
    for trick in tricks:
        for token in trick.split():
            state = play(state, plain(state) if token == "*" else token)
    return state


def off(base: str, **options) -> Ruleset:
    """``base`` with some cards.* options changed."""
    return variant({f"cards.{key}": value for key, value in options.items()}, base)


# --- the deck ---------------------------------------------------------------------------------


def test_two_jokers_deal_54_cards_with_a_kitty_of_four():
    # 000 §7.11: 조커를 두 개 모두 사용한다 ... 바닥에 4장을 깐다 (2018: 조커 2장을 모두 사용한다).
    for name in ("double-joker", "gyeonggi-2018"):
        rules = load_ruleset(name)
        assert rules.deck_cards == DECK54
        assert rules.table.kitty_size == 4 and len(rules.deck_cards) == 5 * 10 + 4
    state = hand("double-joker", {"Ana": "BJ JK"})
    assert state.phase == "play" and state.to_move == "Ana"
    # a one-joker deck still refuses the black joker, in one line
    deal = deal54({"Ana": "BJ"})
    deal["kitty"] = deal["kitty"][:3]
    with pytest.raises(MightyError, match="deal: BJ is not in this ruleset's deck"):
        new_hand(load_ruleset("gyeonggi"), PLAYERS, "Ana", deal)


def test_two_jokers_colour_rules_need_two_jokers():
    with pytest.raises(RulesetError, match="need two jokers"):
        variant({"cards.joker_follows_colour": True}, "gyeonggi")


# --- colour following (000 §7.11: 선이 낸 문양의 색과 같은 색의 조커만 낼 수 있다; 002) -------------


FOLLOW = {"Ana": "H5 S4 S5 S6 S7 S8 S9 D2 D4 D5", "Bo": "BJ JK H9 H8 C4 C5 C6 C7 C8 C9"}


def test_joker_follows_colour_black_joker_not_on_a_heart_lead():
    # Ana leads ♥5: Bo holds hearts, so he plays a heart or the joker of the led colour (JK,
    # any time); the black joker may not be played to a red lead.
    state = hand("double-joker", FOLLOW, bid="13D", tricks=["H5"])
    assert legal(state) == {"H9", "H8", "JK"}
    with pytest.raises(
        IllegalPlay,
        match=r"BJ may be played only to a trick led in a suit of its "
        r"colour, and ♥ was led \(cards.joker_follows_colour\)",
    ):
        play(state, "BJ")
    # without the colour rule both jokers may be played at any time
    state = hand(off("double-joker", joker_follows_colour=False), FOLLOW, bid="13D", tricks=["H5"])
    assert legal(state) == {"H9", "H8", "JK", "BJ"}


def test_joker_follows_colour_out_of_the_led_suit_only_its_colour():
    # Ana leads ♠4: Bo has no spade; he may play anything but the colour joker (red).
    state = hand("double-joker", FOLLOW, bid="13D", tricks=["S4"])
    assert "JK" not in legal(state) and {"BJ", "H9", "C4"} <= legal(state)
    state = hand(off("double-joker", joker_follows_colour=False), FOLLOW, bid="13D", tricks=["S4"])
    assert "JK" in legal(state)


# Ana leads ten diamonds (trump); Bo keeps the black joker to the end: his last card is a joker
# of the other colour, which he must play, and it has no power there.
LAST = {
    "Ana": "D2 D3 D4 D5 D6 D7 D8 D9 D10 DJ",
    "kitty": "SA DQ DK DA",
    "Bo": "BJ H2 H3 H4 H5 H6 H7 H8 H9 H10",
    "Cy": "S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ",
    "Di": "SQ SK HJ HQ HK HA C2 C3 C4 C5",
    "Ed": "JK C6 C7 C8 C9 C10 CJ CQ CK CA",
}


def last_trick(rules: Ruleset, ed: str) -> HandState:
    """Tricks 1-9 of LAST, with Ed playing ``ed``'s first nine cards in order; trick 10 led."""
    bo, cy, di = (LAST[who].split() for who in ("Bo", "Cy", "Di"))
    eds = ed.split()
    tricks = [" ".join((f"D{k + 2}", bo[k + 1], cy[k], di[k], eds[k])) for k in range(9)]
    return play(hand(rules, LAST, bid="13D", tricks=tricks), "DJ")


def finish(state: HandState, *tokens: str) -> str:
    for token in tokens:
        state = play(state, token)
    return state.tricks[-1].winner


def test_joker_follows_colour_last_card_of_the_other_colour_is_played_without_power():
    rules = off("double-joker", joker_power_last_trick=True)  # so a joker could win trick 10
    keeps_joker = "C6 C7 C8 C9 C10 CJ CQ CK CA"  # Ed's last card: JK
    state = last_trick(rules, keeps_joker)
    assert state.trick_number == 10
    assert legal(state) == {"BJ"}  # Bo's only card: he plays it
    # Ed's colour joker on a ◆ lead has its power; the black joker has none
    assert finish(state, "BJ", "SJ", "C5", "JK") == "Ed"
    plays_joker = "JK C6 C7 C8 C9 C10 CJ CQ CK"  # Ed's last card: ♣A
    assert finish(last_trick(rules, plays_joker), "BJ", "SJ", "C5", "CA") == "Ana"
    # without the colour rule the black joker wins trick 10
    rules = off("double-joker", joker_power_last_trick=True, joker_follows_colour=False)
    assert finish(last_trick(rules, plays_joker), "BJ", "SJ", "C5", "CA") == "Bo"


# --- colour leads (000 §7.11: 조커와 같은 색의 문양만 러쉬할 수 있다. 단, 기루다는 두 조커 모두) ----


LEADS = {"Ana": "BJ JK H5 S4 S5 S6 S7 S8 S9 D2"}
# trump may be led on trick 1 here (play.trump_lead), so the rush shows on Ana's first lead
ANY_TIME = {"play.trump_lead": "any_time"}


def joker_leads(state: HandState) -> set[str]:
    return {text for text in legal(state) if "/" in text}


def test_joker_leads_colour_names_its_colour_or_trump():
    # hearts trump: the black joker names ♠ ♣ or trump ♥ (the rush); the colour joker ◆ ♥.
    rules = variant(ANY_TIME, "double-joker")
    state = hand(rules, LEADS, bid="13H")
    assert joker_leads(state) == {"BJ/S", "BJ/C", "BJ/H", "JK/D", "JK/H"}
    with pytest.raises(
        IllegalPlay,
        match=r"Ana led BJ naming ◆, but a joker lead names a suit of "
        r"the joker's colour \(♠ ♣\) or trump",
    ):
        play(state, "BJ/D")
    # no-trump: only the joker's own colour
    state = hand(rules, LEADS, bid="13NT")
    assert joker_leads(state) == {"BJ/S", "BJ/C", "JK/D", "JK/H"}
    # without the rule a joker lead names any suit
    state = hand(
        variant(ANY_TIME | {"cards.joker_leads_colour": False}, "double-joker"), LEADS, bid="13H"
    )
    assert joker_leads(state) == {f"{joker}/{suit}" for joker in ("BJ", "JK") for suit in "SDHC"}


def test_joker_leads_colour_in_2018_black_joker_on_spades_clubs_or_the_trump_rush():
    # 2018: 흑조커는 스페이드 혹은 클로버 혹은 애니러쉬에서만 ... 컬러조커도 하트 다이아에 대해서 똑같이.
    state = hand(variant(ANY_TIME, "gyeonggi-2018"), LEADS, bid="13D")
    assert joker_leads(state) == {"BJ/S", "BJ/C", "BJ/D", "JK/D", "JK/H"}
    state = hand("gyeonggi-2018", FOLLOW, bid="13D", tricks=["H5"])
    assert "BJ" not in legal(state) and "JK" in legal(state)


# --- two joker calls (000 §7.11; 2018: 클로버 3, 하트 3이 각각 흑조커, 컬러조커 콜) -----------------


# Ana holds both Mighties and every 3; Bo the black joker, Cy the colour joker. Ana leads Mighty
# on trick 1 (♦A under spade trump, else ♠A) and wins it, then leads a call on trick 2.
CALLS = {
    "Ana": "SA DA C3 H3 S3 D3 S4 D4 H4 C4",
    "Bo": "BJ C5 C6 C7 C8 C9 C10 D5 D6 D7",
    "Cy": "JK H5 H6 H7 H8 H9 H10 D8 D9 D10",
    "Di": "S5 S6 S7 S8 S9 S10 SJ SQ SK D2",
    "Ed": "S2 H2 C2 HJ HQ HK HA CJ CQ CK",
    "kitty": "CA DJ DQ DK",
}


def second_lead(rules: Ruleset | str, bid: str) -> HandState:
    mighty = "DA" if bid.endswith("S") else "SA"
    state = hand(rules, CALLS, bid=bid, tricks=[f"{mighty} * * * *"])
    assert state.trick_number == 2 and state.to_move == "Ana"
    return state


def test_two_joker_calls_club_three_calls_the_black_heart_three_the_colour_joker():
    state = second_lead("double-joker", "13S")
    assert {"C3!", "H3!"} <= legal(state) and "S3!" not in legal(state)
    assert legal(play(state, "C3!")) == {"BJ"}  # Bo must play the black joker
    called = play(play(state, "H3!"), "C5")  # Bo: no heart, and BJ may not follow ♥
    assert legal(called) == {"JK"}  # Cy must play the colour joker
    # the called joker is powerless (joker_call.called_joker_powerless): Di's trump wins
    assert finish(called, "JK", "S5", "H2") == "Di"
    rules = variant({"joker_call.called_joker_powerless": False}, "double-joker")
    assert finish(play(play(second_lead(rules, "13S"), "H3!"), "C5"), "JK", "S5", "H2") == "Cy"


def test_two_joker_calls_substitutes_spade_three_and_diamond_three():
    # clubs trump: ♠3 calls the black joker (♣3 is trump, a plain card)
    state = second_lead("double-joker", "13C")
    assert {"S3!", "H3!"} <= legal(state) and "C3!" not in legal(state)
    assert legal(play(state, "S3!")) == {"BJ"}
    # hearts trump: ◆3 calls the colour joker
    state = second_lead("double-joker", "13H")
    assert {"C3!", "D3!"} <= legal(state) and "H3!" not in legal(state)
    called = play(play(state, "D3!"), "D5")
    assert legal(called) == {"JK"}
    # 경기 5마 (one joker): ♥3 is the call under clubs trump; with one joker ♣3 calls it
    assert load_ruleset("gyeonggi").cards.joker_call_alternate == "H3"


DEFENDS = {
    "Ana": "SA HA C3 H3 S3 D3 S4 D4 H4 C4",
    "Bo": "S5 C5 C6 C7 C8 C9 C10 D5 D6 D7",
    "Cy": "JK H5 H6 H7 H8 H9 H10 D8 D9 D10",
    "Di": "BJ DA S6 S7 S8 S9 S10 SJ SQ D2",
    "Ed": "S2 H2 C2 HJ HQ HK SK CJ CQ CK",
    "kitty": "CA DJ DQ DK",
}


def test_two_joker_calls_mighty_defends_in_2018():
    # 2018: 마이티로 조커콜을 방어할 수 있다. Di holds the black joker and ♦A, Mighty under spades.
    state = hand("gyeonggi-2018", DEFENDS, bid="13S", tricks=["HA C5 H5 D2 H2", "C3! C6 H6"])
    assert legal(state) == {"BJ", "DA"}  # Mighty defends
    rules = variant({"joker_call.mighty_defends": False}, "gyeonggi-2018")
    state = hand(rules, DEFENDS, bid="13S", tricks=["HA C5 H5 D2 H2", "C3! C6 H6"])
    assert legal(state) == {"BJ"}
    # hearts trump: ♦A is no Mighty (♠A is), so the black joker must come
    state = hand("gyeonggi-2018", DEFENDS, bid="13H", tricks=["SA S5 H5 S6 S2", "C3! C6 H6"])
    assert legal(state) == {"BJ"}


# --- the first joker played wins (000 §7.11: 먼저 낸 조커가 승리한다; 002) ------------------------


# Ana holds the colour joker, Bo the black joker beside two spades.
BOTH = {
    "Ana": "DA SA JK S3 S4 H3 H4 C3 C4 D3",
    "Bo": "BJ S5 S6 C5 C6 C7 D5 D6 D7 D8",
    "Cy": "S7 S8 H5 H6 H7 H8 D9 D10 C8 C9",
    "Di": "S9 S10 SJ H9 H10 HJ C10 CJ CQ D2",
    "Ed": "SQ SK S2 HQ HK HA CK CA D4 DJ",
    "kitty": "H2 C2 DQ DK",
}


def test_first_joker_played_wins_the_trick():
    # spades trump: Ana rushes trump with the colour joker (JK/S), Bo answers with the black
    # joker (♠ led: its colour); both have power, and the first played wins.
    state = hand("double-joker", BOTH, bid="13S", tricks=["DA D5 D9 D2 D4", "JK/S BJ S7 S9 SQ"])
    trick = state.tricks[-1]
    assert trick.winner == "Ana"
    # the same cards the other way round: Bo's black joker first would have won for Bo
    state = hand(
        "double-joker",
        BOTH | {"Ana": "DA SA BJ S3 S4 H3 H4 C3 C4 D3", "Bo": "JK S5 S6 C5 C6 C7 D5 D6 D7 D8"},
        bid="13H",
        tricks=["SA S5 S7 S9 S2", "BJ/H JK H6 H9 HQ"],
    )
    assert state.tricks[-1].winner == "Ana"  # BJ led (the trump rush), JK second: BJ wins


# --- 2018: a joker not of trump's colour is weaker than trump -----------------------------------


def test_off_colour_joker_below_trump_loses_to_any_trump_in_the_trick():
    # spades trump: Ana leads the colour joker naming ♥ (its colour); Bo, out of hearts, trumps
    # with ♠5. Under 2018 the red joker is weaker than trump: Bo's ♠5 wins.
    tricks = ["DA D5 D9 D2 D4", "JK/H S5 H5 H9 HQ"]
    assert hand("gyeonggi-2018", BOTH, bid="13S", tricks=tricks).tricks[-1].winner == "Bo"
    # 더블 조커 has no such rule: the joker wins
    assert hand("double-joker", BOTH, bid="13S", tricks=tricks).tricks[-1].winner == "Ana"
    # without trump in the trick the off-colour joker still wins
    tricks = ["DA D5 D9 D2 D4", "JK/H D6 H5 H9 HQ"]
    assert hand("gyeonggi-2018", BOTH, bid="13S", tricks=tricks).tricks[-1].winner == "Ana"


def test_off_colour_joker_below_trump_not_under_no_trump():
    # no-trump: ♠A is Mighty (trick 1); nothing is trump, so both jokers are full jokers
    tricks = ["SA S5 S7 S9 S2", "JK/H D6 H5 H9 HQ"]
    assert hand("gyeonggi-2018", BOTH, bid="13NT", tricks=tricks).tricks[-1].winner == "Ana"


def test_off_colour_joker_below_trump_the_joker_of_trump_colour_beats_it():
    # spades trump: JK/S (rush) then BJ: under 2018 the red joker is below trump, and the black
    # joker (trump's colour) wins; under 더블 조커 the first joker played wins.
    tricks = ["DA D5 D9 D2 D4", "JK/S BJ S7 S9 SQ"]
    assert hand("gyeonggi-2018", BOTH, bid="13S", tricks=tricks).tricks[-1].winner == "Bo"
    assert hand("double-joker", BOTH, bid="13S", tricks=tricks).tricks[-1].winner == "Ana"


# --- deal miss ---------------------------------------------------------------------------------


def test_deal_miss_each_joker_weighs_minus_half():
    # 000 §7.11: 조커를 한 장에 -0.5점으로 취급하고 ... 0.5이하가 되면 딜미스. ♠K 1 + ◆10 ½ − ½ − ½.
    rules = load_ruleset("double-joker")
    assert is_deal_miss_hand(rules, parse_cards("SK D10 JK BJ S2 S3 S4 S5 S6 S7"))
    # with one joker the same hand is 1: no deal miss
    assert not is_deal_miss_hand(rules, parse_cards("SK D10 JK S8 S2 S3 S4 S5 S6 S7"))
    assert not is_deal_miss_hand(
        variant({"deal_miss.joker_weight": 0.0}, "double-joker"),
        parse_cards("SK D10 JK BJ S2 S3 S4 S5 S6 S7"),
    )


def test_deal_miss_2018_mighty_minus_one_jokers_zero_at_most_one():
    # 2018: 딜미스는 점수가 1이하 일때 선언가능하며, 이때 마이티는 -1점 이지만 조커는 0점.
    rules = load_ruleset("gyeonggi-2018")
    assert is_deal_miss_hand(rules, parse_cards("SA SK HK S2 S3 S4 S5 S6 S7 S8"))  # -1 + 2
    assert not is_deal_miss_hand(
        variant({"deal_miss.mighty_weight": 0.0}, "gyeonggi-2018"),
        parse_cards("SA SK HK S2 S3 S4 S5 S6 S7 S8"),
    )
    assert is_deal_miss_hand(rules, parse_cards("JK BJ D10 S2 S3 S4 S5 S6 S7 S8"))  # 0 + 0 + 1
    assert not is_deal_miss_hand(rules, parse_cards("JK BJ D10 HK S3 S4 S5 S6 S7 S8"))  # 2
    # 더블 조커's weights on the same hand: ◆10 ½ − 1 for the jokers
    assert is_deal_miss_hand(
        load_ruleset("double-joker"), parse_cards("JK BJ D10 HK S3 S4 S5 S6 S7 S8")
    )


# --- the friend call by joker says which -------------------------------------------------------


def test_friend_call_by_joker_names_which_joker():
    assert parse_friend_call("BJ").card == BLACK_JOKER
    assert parse_friend_call("흑조커").card == BLACK_JOKER
    assert parse_friend_call("joker").card == JOKER  # the colour joker in a two-joker deck
    assert format_friend_call(parse_friend_call("BJ")) == "BJ"
    assert format_friend_call(parse_friend_call("JK")) == "joker"
    # Ana calls the black joker: Bo becomes the friend when he plays it
    state = hand("double-joker", BOTH, bid="13S", friend="BJ", tricks=["DA D5 D9 D2 D4", "JK/S BJ"])
    assert state.friend == "Bo" and state.friend_revealed
    # friend.joker = false forbids either joker
    assert {BLACK_JOKER, JOKER} <= card_calls(hand_before_call(load_ruleset("double-joker")))
    rules = variant({"friend.joker": False}, "double-joker")
    assert not {BLACK_JOKER, JOKER} & card_calls(hand_before_call(rules))


def card_calls(state: HandState) -> set[int]:
    return {
        action.call.card
        for action in legal_actions(state)
        if isinstance(action, CallFriend) and action.call.kind == "card"
    }


def hand_before_call(rules: Ruleset) -> HandState:
    deal = deal54(BOTH)
    state = new_hand(rules, PLAYERS, "Ana", deal, opener="Ana")
    state = apply(state, BidCall("Ana", parse_bid("13S")))
    for player in PLAYERS[1:]:
        state = apply(state, BidCall(player, None))
    return apply(state, Discard(tuple(deal["kitty"])))


# --- the seeded deal and the joker timing ---------------------------------------------------


def test_two_jokers_golden_seeded_deal():
    # mighty-deal/1 over the 54-card deck in canonical order (the black joker last): hand 1 of
    # `mighty deal --seed 42 -r double-joker`, the same on every machine, for years
    from mighty_cli.engine.cards import format_cards
    from mighty_cli.engine.cards.deck import deal_cards, hand_seed
    from test_seeded_deals import reference_shuffle

    rules = load_ruleset("double-joker")
    deal = deal_cards(hand_seed(42, 1), PLAYERS, rules.deck_cards, rules.table.hand_size)
    assert format_cards(deal["Bo"]) == "DK D8 JK S7 C6 HA D5 DA C10 SQ"
    assert format_cards(deal["Di"]) == "S5 S9 D2 S3 S6 H2 C8 BJ SA SK"
    assert format_cards(deal["kitty"]) == "H7 C7 C4 H3"
    shuffled = reference_shuffle(hand_seed(42, 1), list(DECK54))
    assert [card for who in PLAYERS + ("kitty",) for card in deal[who]] == shuffled


def test_two_jokers_cannot_both_wait_for_the_last_trick():
    # cards.joker_playable_last_trick = false with two jokers: a player holding both must play
    # one by trick 8 (and the other by trick 9), or one would be left for trick 10.
    hands = dict(LAST) | {
        "Bo": "BJ JK H2 H3 H4 H5 H6 H7 H8 H9",
        "Ed": "H10 C6 C7 C8 C9 C10 CJ CQ CK CA",
    }
    rules = off("double-joker", joker_playable_last_trick=False)
    bo, cy, di, ed = (hands[who].split() for who in ("Bo", "Cy", "Di", "Ed"))
    tricks = [" ".join((f"D{k + 2}", bo[k + 2], cy[k], di[k], ed[k])) for k in range(6)]
    state = play(hand(rules, hands, bid="13D", tricks=tricks), "D8")
    assert state.trick_number == 7 and legal(state) == {"H8", "H9", "JK"}
    state = play(hand(rules, hands, bid="13D", tricks=tricks + ["D8 H8 S8 C2 CJ"]), "D9")
    assert state.trick_number == 8 and legal(state) == {"JK", "BJ"}  # the jokers now
    # with the jokers playable on trick 10, Bo may keep following with hearts
    state = play(hand("double-joker", hands, bid="13D", tricks=tricks + ["D8 H8 S8 C2 CJ"]), "D9")
    assert legal(state) == {"H9", "JK"}


def test_joker_mask_is_per_contract_and_fits_a_copy_of_a_joker():
    # every joker test is against the contract's mask (and the suit bits): a copy of a joker
    # (8마 Chicago's copy bit 128 above the suit) is a joker as well
    from mighty_cli.engine.cards import is_joker
    from mighty_cli.engine.cards import parse_card as card

    assert is_joker(JOKER) and is_joker(BLACK_JOKER) and is_joker(JOKER | 128)
    assert not is_joker(card("SA")) and not is_joker(card("CA") | 128)
    assert hand("double-joker", {})._contract.joker_mask == 1 << JOKER | 1 << BLACK_JOKER
    from hand_positions import position

    assert position()._contract.joker_mask == 1 << JOKER  # one joker: its bit alone


def test_black_joker_friend_call_refused_in_a_one_joker_deck():
    from hand_positions import position
    from mighty_cli.engine.errors import MightyError as Refused
    from mighty_cli.engine.hand import FriendCall

    state = position(friend=None)
    with pytest.raises(Refused, match="names BJ, which is not in this ruleset's deck"):
        apply(state, CallFriend(FriendCall("card", BLACK_JOKER)))


def _open_hand(rules: Ruleset, tricks: int) -> HandState:
    """Open cards (no deal): Ana declares 13S alone, and ``tricks`` tricks are played, each
    player following the led suit from the cards not yet played while he can (no joker-call
    card: a call would make voids), the last trick's lead a heart."""
    state = new_hand(rules, PLAYERS, "Ana", None, opener="Ana")
    state = apply(state, BidCall("Ana", parse_bid("13S")))
    for player in PLAYERS[1:]:
        state = apply(state, BidCall(player, None))
    state = apply(state, Discard(()))
    state = apply(state, CallFriend(parse_friend_call("none", state)))
    pools = {suit: [card for card in DECK if card >> 4 == suit] for suit in range(4)}
    for calling in parse_cards("C3 H3 S3 D3"):
        pools[calling >> 4].remove(calling)
    pools[2].remove(parse_cards("H2")[0])  # the last trick's lead
    order = [3, 1, 0, 2]  # clubs, diamonds, spades (trump, not led on trick 1), hearts
    for _number in range(tricks):
        suit = next(
            (suit for suit in order if len(pools[suit]) >= 5),
            max(order, key=lambda suit: len(pools[suit])),
        )
        for _seat in range(5):
            led = pools[suit] or next(pools[other] for other in order if pools[other])
            state = play(state, format_cards([led.pop()]))
    return state


def test_joker_follows_colour_open_cards_refuses_the_other_colour_before_the_last_card():
    # open cards cannot see the hand, but a player with more than one card left cannot hold
    # only the black joker: on a heart lead it is refused at once, as with the cards known
    state = _open_hand(load_ruleset("double-joker"), 1)
    state = play(state, "H2")
    with pytest.raises(
        IllegalPlay,
        match=r"BJ may be played only to a trick led in a suit of its "
        r"colour, and ♥ was led \(cards.joker_follows_colour\)",
    ):
        play(state, "BJ")
    loose = _open_hand(off("double-joker", joker_follows_colour=False), 1)
    assert play(play(loose, "H2"), "BJ").trick_number == 2
    # his last card: he may hold nothing else, so it is accepted (and played without power)
    last = _open_hand(load_ruleset("double-joker"), 9)
    assert last.trick_number == 10
    last = play(last, "H2")
    assert play(last, "BJ").trick_number == 10
    # the table's list of what may be played agrees
    assert "BJ" not in legal(play(_open_hand(load_ruleset("double-joker"), 1), "H2"))
    assert "BJ" in legal(last)
