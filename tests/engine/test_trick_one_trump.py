"""경기 2018's trick-1 trump rule (000 §7.10, the unified rule of 25 May 2018): "첫턴에 기루다가
나오지 못하지만 대통령 손패가 기루다, 조커, 마이티로만 이루어져있으면 러쉬를 할 수 있지만 이 외
경우에 나오는 기루다는 효력이 없다".

Read as: on trick 1 nobody may lead trump (``play.trump_lead = "not_first_trick"``, the
standard), except the declarer, who leads it, when his hand is only trump, joker(s) and Mighty
(``play.only_trumps_includes_mighty``: the joker has no suit and always counted); any other trump
played on trick 1, a follower's out of the led suit, has no power
(``play.trump_power_first_trick = false``). Each option is shown changing the outcome, and the
fast replay path (engine/hand/replay_tricks.py) is held to the engine's apply under them."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hand_positions import PLAYERS, legal, play, position, variant
from mighty_cli.engine.cards import parse_card
from mighty_cli.engine.errors import IllegalPlay
from mighty_cli.engine.hand import apply, format_play, hand_result, new_hand, random_legal_action
from mighty_cli.engine.hand.actions import Play
from mighty_cli.engine.hand.draft import seeded_deal
from mighty_cli.engine.hand.replay_tricks import replay_tricks
from mighty_cli.engine.records import Record, replay, state_to_hand
from test_replay_tricks import slots

#: 경기 2018's two trick-1 options on top of the standard game (whose trump_lead is
#: not_first_trick and whose Mighty counts as its suit for following).
GYEONGGI_2018 = {"play.only_trumps_includes_mighty": True, "play.trump_power_first_trick": False}

#: Hearts are trump (Ana 13H). Cy holds no club, so he trumps a club lead with H2; Di holds CK.
CY_VOID_IN_CLUBS = {
    "Ana": "SK SQ HA HK HQ HJ H10 D5 C4 C2",
    "Bo": "SA JK D2 D3 D4 C5 C6 C7 C8 C9",
    "Cy": "S2 S3 S4 S5 D6 D7 D8 H2 H3 H4",
    "Di": "S6 S7 S8 D9 D10 DJ H5 H6 CK C3",
    "Ed": "S9 S10 DQ DK DA H7 H8 CQ CJ C10",
    "kitty": "SJ H9 CA",
}
TRICK_1 = "C4 C5 H2 CK CQ"  # Cy trumps Ana's club lead
TRICK_2 = "C3 C10 C2 C6 H3"  # Di leads again (he won trick 1 under the 2018 rule)


def _winner(state, number: int) -> str:
    return state.tricks[number - 1].winner


def test_trump_on_trick_one_has_power_in_the_standard_game():
    state = position(deal=CY_VOID_IN_CLUBS, tricks=[TRICK_1])
    assert _winner(state, 1) == "Cy"
    assert state.points_taken["Cy"] == 2  # CK CQ


def test_gyeonggi_2018_trump_not_led_on_trick_one_has_no_power():
    # 이 외 경우에 나오는 기루다는 효력이 없다: Cy's H2 wins nothing; the highest club does.
    rules = variant({"play.trump_power_first_trick": False})
    state = position(rules, deal=CY_VOID_IN_CLUBS, tricks=[TRICK_1])
    assert _winner(state, 1) == "Di"
    assert state.points_taken["Di"] == 2 and state.points_taken["Cy"] == 0  # CK CQ
    # from trick 2 trump has its power again: Cy trumps Di's club lead and wins
    state = position(rules, deal=CY_VOID_IN_CLUBS, tricks=[TRICK_1, TRICK_2])
    assert _winner(state, 2) == "Cy"


def test_gyeonggi_2018_trump_powerless_on_trick_one_also_with_open_cards():
    rules = variant({"play.trump_power_first_trick": False})
    state = position(rules, deal=CY_VOID_IN_CLUBS, tricks=[TRICK_1], open_cards=True)
    assert _winner(state, 1) == "Di"


def test_gyeonggi_2018_the_declarers_trump_rush_on_trick_one_wins_with_the_highest_trump():
    # the rush (a trump lead by a declarer holding only trump): trump is the led suit, so the
    # highest trump wins even though trump has no power on trick 1
    rules = variant({"play.trump_power_first_trick": False})
    deal = {
        "Ana": "HA HK HQ HJ H10 H9 H8 H7 H6 H5",
        "Bo": "H4 S2 S3 S4 S5 S6 S7 S8 S9 S10",
        "Cy": "H2 D2 D3 D4 D5 D6 D7 D8 D9 D10",
        "Di": "H3 C4 C5 C6 C7 C8 C9 C10 CJ CQ",
        "kitty": "C2 C3 CK",
    }
    state = position(rules, deal=deal, tricks=["H5 H4 H2 H3"])
    # Ed holds no heart: any card but Mighty and the joker, which keep their own trick-1 power
    state = play(
        state, min(token for token in legal(state) if token != "SA" and not token.startswith("JK"))
    )
    assert _winner(state, 1) == "Ana"


def test_gyeonggi_2018_mighty_counts_as_trump_for_the_declarers_rush():
    # 대통령 손패가 기루다, 조커, 마이티로만 이루어져있으면 러쉬를 할 수 있지만: nine hearts and
    # Mighty may lead a heart on trick 1; in the standard game Mighty is a spade, so must be led
    standard = position(deal="nine_trumps_and_mighty")
    assert legal(standard) == {"SA"}
    with pytest.raises(IllegalPlay, match="holds cards of other suits and hearts are trump"):
        play(standard, "H6")
    rules = variant({"play.only_trumps_includes_mighty": True})
    state = position(rules, deal="nine_trumps_and_mighty")
    assert {"SA", "H6", "HA"} <= legal(state)
    state = play(state, "H6")
    assert state.current_trick[0][1].card == parse_card("H6")


def test_gyeonggi_2018_trump_joker_and_mighty_may_rush_and_the_joker_may_name_trump():
    deal = {"Ana": "JK SA HA HK HQ HJ H10 H9 H8 H7", "kitty": "C2 C3 C4"}
    standard = position(deal=deal)
    assert "H7" not in legal(standard) and "JK/H" not in legal(standard)
    state = position(variant(GYEONGGI_2018), deal=deal)
    assert {"H7", "JK/H", "SA"} <= legal(state)
    play(state, "JK/H")


def test_gyeonggi_2018_any_other_card_still_bars_the_rush():
    # eight hearts, Mighty and a club: not only trump, joker and Mighty, so no trump lead
    deal = {"Ana": "C5 SA HA HK HQ HJ H10 H9 H8 H7", "kitty": "C2 C3 C4"}
    state = position(variant(GYEONGGI_2018), deal=deal)
    assert not {"H7", "HA"} & legal(state)
    with pytest.raises(IllegalPlay, match=r"play.trump_lead = not_first_trick"):
        play(state, "HA")


def test_gyeonggi_2018_mighty_as_trump_also_under_mighty_not_following_suit():
    # where Mighty never counts as its suit (cards.mighty_must_follow_suit = false) the option
    # changes nothing: nine trumps and Mighty may already lead trump
    rules = variant({"cards.mighty_must_follow_suit": False})
    assert "H6" in legal(position(rules, deal="nine_trumps_and_mighty"))


def test_gyeonggi_2018_open_cards_infer_the_rushers_voids_with_mighty_as_trump():
    # open cards: a trump lead on trick 1 proves the leader held only trump, joker and Mighty,
    # so nobody may later see him play a club; Mighty is still his to play
    rules = variant(GYEONGGI_2018)
    state = position(rules, deal="nine_trumps_and_mighty", open_cards=True, tricks=["H6"])
    voids = state._voids[0]
    assert voids and not voids[0][0] >> 0x0E & 1  # SA (spade ace, code 14) not excluded
    assert voids[0][0] >> 0x35 & 1  # C5 (club 5, code 0x35) excluded
    # without the option the same lead would have proved Mighty gone too
    rules = variant({"play.trump_lead": "not_first_trick"})
    state = position(rules, deal="nine_trumps_and_mighty", open_cards=True, tricks=["H6"])
    assert state._voids[0][0][0] >> 0x0E & 1


def test_gyeonggi_2018_table_view_shows_the_trick_one_winner_without_trump_power():
    from mighty_cli.table.view import winning_so_far

    rules = variant({"play.trump_power_first_trick": False})
    state = position(rules, deal=CY_VOID_IN_CLUBS, tricks=["C4 C5 H2 CK"])
    assert winning_so_far(state)[0] == "Di"
    state = position(deal=CY_VOID_IN_CLUBS, tricks=["C4 C5 H2 CK"])
    assert winning_so_far(state)[0] == "Cy"


def test_gyeonggi_2018_a_record_of_trick_one_replays_fast_as_card_by_card():
    rules = variant(GYEONGGI_2018)
    start = position(rules, deal=CY_VOID_IN_CLUBS)
    tricks = [TRICK_1, TRICK_2]
    fast = slots(replay_tricks(start, tricks, 1, fast=True))
    assert fast == slots(replay_tricks(start, tricks, 1, fast=False))
    assert fast["tricks"][0].winner == "Di"


# --- the fast replay path against apply, random hands under the 2018 options ---------------


def _random_hand(rules, seed: int):
    rng = random.Random(seed)
    deal = seeded_deal(rules, seed, PLAYERS, None)
    state = new_hand(rules, PLAYERS, PLAYERS[seed % 5], deal)
    states = [state]
    while state.phase not in ("done", "deal_miss", "redeal"):
        state = apply(state, random_legal_action(state, rng))
        states.append(state)
    return deal, states


@pytest.mark.parametrize(
    "options",
    [
        GYEONGGI_2018,
        {"play.trump_power_first_trick": False},
        {"play.only_trumps_includes_mighty": True, "play.trump_lead": "only_trumps_left"},
    ],
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_gyeonggi_2018_fast_replay_is_apply_card_by_card(options, seed):
    rules = variant(options)
    deal, states = _random_hand(rules, seed)
    first = next((i for i, s in enumerate(states) if s.phase == "play"), None)
    if first is None:
        return
    final = states[-1]
    plays = [format_play(a) for a in final.history if isinstance(a, Play)]
    tricks = [" ".join(plays[i : i + 5]) for i in range(0, len(plays), 5)]
    assert slots(replay_tricks(states[first], tricks, 1, fast=True)) == slots(final)
    # and the hand record replays (fast path included) to the same totals
    if final.phase == "done":
        hand = state_to_hand(final, deal)
        hand.setdefault("opener", final.election[0][0] if final.election else final.dealer)
        record = Record(ruleset="standard", players=list(PLAYERS), hands=[hand])
        assert replay(record, rules).totals == hand_result(final).deltas


def test_gyeonggi_2018_bundled_ruleset_plays_the_trick_one_trump_rule():
    # the bundled 경기 2018 file switches both options on (000 §7.10)
    from mighty_cli.engine.ruleset import load_ruleset

    play_options = load_ruleset("gyeonggi-2018").play
    assert play_options.trump_power_first_trick is False
    assert play_options.only_trumps_includes_mighty is True
    assert load_ruleset("gyeonggi").play.trump_power_first_trick is True
