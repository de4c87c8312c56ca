"""Play rules, one test per rule (docs/rules.md §2, §7), on the deals of tests/data/hand_deals.toml.

The basic deal, 13H by Ana alone: Bo holds Mighty (SA, his only spade) and the joker; Di holds
CK and the joker-call card C3. Trick 1 "C2 C5 C10 CK CJ" is won by Di's CK, so Di leads trick 2.
"""

from __future__ import annotations

import pytest

from hand_positions import legal, play, position, variant
from mighty_cli.engine.cards import parse_card
from mighty_cli.engine.errors import IllegalPlay
from mighty_cli.engine.hand import Play, apply, hand_result, legal_plays

DI_LEADS = "C2 C5 C10 CK CJ"  # trick 1: Di wins with CK
JOKER_GONE = "C2 JK C10 CK CQ"  # trick 1: Bo's joker is powerless, Di wins with CK


def winner(state) -> str:
    return state.tricks[-1].winner


# --- following suit ---------------------------------------------------------------------------


def test_must_follow_suit():
    state = position(tricks=["C2"])
    with pytest.raises(
        IllegalPlay,
        match=r"trick 1: Bo played D2 but holds ♣ and ♣ was led "
        r"\(must follow suit\)",
    ):
        play(state, "D2")
    assert legal(state) == {"C5", "C6", "C7", "C8", "C9", "SA", "JK"}


def test_void_player_may_play_any_card():
    # After trick 1 Cy has no club left: on a club lead he may play anything.
    state = position(tricks=[DI_LEADS, "C3 CQ C4 C6"])
    assert legal(state) == {"S2", "S3", "S4", "D6", "D7", "D8", "H2", "H3", "H4"}


def test_mighty_may_be_played_any_time():
    state = position(tricks=["C2"])
    after = play(state, "SA")
    assert after.current_trick[-1][1].card == parse_card("SA")


def test_mighty_counts_as_its_suit():
    # Ana leads a spade; Bo's only spade is Mighty: he must play it (or the joker).
    state = position(tricks=["SK"])
    assert legal(state) == {"SA", "JK"}
    with pytest.raises(IllegalPlay, match="Mighty counts as its suit"):
        play(state, "C5")


def test_mighty_must_be_played_when_only_card_of_suit_and_no_joker():
    state = position(tricks=[JOKER_GONE, "S5 S8 SK"])
    assert state.to_move == "Bo"
    assert legal(state) == {"SA"}


def test_mighty_need_not_follow_when_option_off():
    rules = variant({"cards.mighty_must_follow_suit": False})
    state = position(rules, tricks=["SK"])
    assert len(legal(state)) == 10
    play(state, "C5")


def test_joker_may_be_played_any_time():
    state = position(tricks=["C2"])
    assert "JK" in legal(state)
    play(state, "JK")


def test_joker_lead_names_the_suit_to_follow():
    # Trick 1 won by Bo's Mighty; Bo leads the joker naming diamonds: Cy must follow diamonds.
    state = position(tricks=["C2 SA C10 CK CJ", "JK/D"])
    assert state.to_move == "Cy"
    assert legal(state) == {"D6", "D7", "D8"}
    with pytest.raises(IllegalPlay, match="◆ was led"):
        play(state, "S2")


def test_joker_lead_must_name_a_suit():
    state = position(tricks=["C2 SA C10 CK CJ"])
    with pytest.raises(IllegalPlay, match="without naming a suit"):
        apply(state, Play("Bo", parse_card("JK")))
    assert {"JK/S", "JK/D", "JK/H", "JK/C"} <= legal(state)


def test_only_a_joker_lead_names_a_suit():
    state = position(tricks=["C2"])
    with pytest.raises(IllegalPlay, match="only a joker lead names a suit"):
        apply(state, Play("Bo", parse_card("JK"), 2))
    with pytest.raises(IllegalPlay, match="only a joker lead names a suit"):
        apply(state, Play("Bo", parse_card("C5"), 2))


def test_card_not_in_hand_is_rejected():
    state = position(tricks=["C2"])
    with pytest.raises(IllegalPlay, match=r"Bo played CK but does not hold it \(Di holds it\)"):
        play(state, "CK")


def test_play_out_of_turn_is_rejected():
    state = position(tricks=["C2"])
    with pytest.raises(IllegalPlay, match="it is Bo's turn"):
        apply(state, Play("Cy", parse_card("C10")))


# --- trick winners ------------------------------------------------------------------------------


def test_trick_winner_highest_of_led_suit():
    state = position(tricks=[DI_LEADS])
    assert winner(state) == "Di" and state.tricks[0].points == 3


def test_trick_winner_trump_beats_led_suit():
    # Cy is void in clubs after trick 1 and trumps trick 2 with H2.
    state = position(tricks=[DI_LEADS, "C3 CQ C4 C6 H2"])
    assert winner(state) == "Cy"


def test_mighty_wins_the_trick():
    state = position(tricks=["C2 SA C10 CK CJ"])
    assert winner(state) == "Bo"


def test_mighty_powerless_on_first_trick_when_option_off():
    rules = variant({"cards.mighty_power_first_trick": False})
    state = position(rules, tricks=["C2 SA C10 CK CJ"])
    assert winner(state) == "Di"


def test_joker_powerless_on_first_trick():
    state = position(tricks=[JOKER_GONE])
    assert winner(state) == "Di"


def test_joker_has_power_on_first_trick_when_option_set():
    rules = variant({"cards.joker_power_first_trick": True})
    state = position(rules, tricks=[JOKER_GONE])
    assert winner(state) == "Bo"


def test_joker_wins_from_trick_two():
    state = position(tricks=[DI_LEADS, "C3 CQ C4 JK S2"])
    assert winner(state) == "Bo"


def test_joker_not_playable_on_first_trick_when_option_off():
    rules = variant({"cards.joker_playable_first_trick": False})
    state = position(rules, tricks=["C2"])
    assert "JK" not in legal(state)
    with pytest.raises(IllegalPlay, match="joker_playable_first_trick"):
        play(state, "JK")


# --- joker call -----------------------------------------------------------------------------------


def test_joker_call_forces_joker():
    state = position(tricks=[DI_LEADS, "C3! CQ C4"])
    assert state.to_move == "Bo"
    assert legal(state) == {"JK", "SA"}
    with pytest.raises(IllegalPlay, match="holds the joker and the joker was called"):
        play(state, "C6")


def test_called_joker_is_powerless():
    state = position(tricks=[DI_LEADS, "C3! CQ C4 JK S2"])
    assert winner(state) == "Ed"


def test_called_joker_keeps_power_when_option_set():
    rules = variant({"joker_call.called_joker_powerless": False})
    state = position(rules, tricks=[DI_LEADS, "C3! CQ C4 JK S2"])
    assert winner(state) == "Bo"


def test_mighty_defends_joker_call():
    state = position(tricks=[DI_LEADS, "C3! CQ C4 SA"])
    assert state.current_trick[-1][1].card == parse_card("SA")


def test_mighty_cannot_defend_joker_call_when_option_off():
    rules = variant({"joker_call.mighty_defends": False})
    state = position(rules, tricks=[DI_LEADS, "C3! CQ C4"])
    assert legal(state) == {"JK"}
    with pytest.raises(IllegalPlay, match="mighty_defends = false"):
        play(state, "SA")


def test_joker_call_not_declared_has_no_effect():
    state = position(tricks=[DI_LEADS, "C3 CQ C4"])
    assert "C6" in legal(state)


def test_joker_call_always_declared_when_option_always():
    rules = variant({"joker_call.declaration": "always"})
    state = position(rules, tricks=[DI_LEADS, "C3 CQ C4"])
    assert legal(state) == {"JK", "SA"}


def test_joker_call_never_when_option_never():
    rules = variant({"joker_call.declaration": "never"})
    state = position(rules, tricks=[DI_LEADS])
    assert "C3!" not in legal(state)
    with pytest.raises(IllegalPlay, match="declaration = never"):
        play(state, "C3!")


def test_joker_call_on_first_trick_has_no_effect():
    # Di declares 13D and leads C3! on trick 1: no effect by default.
    election = ("Ana pass", "Bo pass", "Cy pass", "Di 13D", "Ed pass")
    state = position(election=election, tricks=["C3! CQ C2"])
    assert state.to_move == "Bo" and "C5" in legal(state)


def test_joker_call_on_first_trick_when_option_set():
    rules = variant({"joker_call.first_trick_effect": True})
    election = ("Ana pass", "Bo pass", "Cy pass", "Di 13D", "Ed pass")
    state = position(rules, election=election, tricks=["C3! CQ C2"])
    assert legal(state) == {"JK", "SA"}


def test_joker_call_card_played_mid_trick_has_no_effect():
    # Ana leads C2 and Di plays C3! mid-trick: accepted, and the call has no effect.
    state = position(tricks=["C2 C5 C10 C3! CQ"])
    assert state.tricks[0].winner == "Ed"


def test_joker_call_card_is_the_alternate_when_clubs_are_trump():
    # With clubs trump the joker call is S3 (cards.joker_call_alternate): C3! is rejected.
    election = ("Ana pass", "Bo pass", "Cy pass", "Di 13C", "Ed pass")
    state = position(variant({"play.trump_lead": "any_time"}), election=election)
    with pytest.raises(IllegalPlay, match="joker-call card is S3"):
        play(state, "C3!")
    state = position(
        variant({"cards.joker_call_alternate": "H3", "play.trump_lead": "any_time"}),
        election=election,
    )
    with pytest.raises(IllegalPlay, match="joker-call card is H3"):
        play(state, "C3!")


def test_joker_call_after_joker_played_has_no_effect():
    state = position(tricks=[JOKER_GONE, "C3! CJ C4"])
    assert "C6" in legal(state)


# --- trump leads ----------------------------------------------------------------------------------


def test_no_trump_lead_on_first_trick():
    state = position()
    assert not {"HA", "HK", "HQ", "HJ", "H10"} & legal(state)
    with pytest.raises(
        IllegalPlay,
        match=r"trick 1: Ana led HA but holds cards of other suits "
        r"and hearts are trump \(the leader may not lead trump "
        r"on trick 1 unless he holds only trumps; "
        r"play.trump_lead = not_first_trick\)",
    ):
        play(state, "HA")


def test_trump_lead_any_time_when_option_any_time():
    state = position(variant({"play.trump_lead": "any_time"}))
    play(state, "HA")


def test_trump_lead_after_trump_played():
    rules = variant({"play.trump_lead": "after_trump_played"})
    # Trick 1 has no trump; Di leads trick 2 and may not lead hearts yet.
    state = position(rules, tricks=[DI_LEADS])
    assert not {"H5", "H6"} & legal(state)
    # Trick 2: Cy trumps a club, so from trick 3 trump may be led.
    state = position(rules, tricks=[DI_LEADS, "C3 CQ C4 C6 H2", "H3"])
    assert state.current_trick


def test_ten_trumps_may_lead_trump_on_first_trick():
    state = position(deal="ten_trumps")
    assert "H5" in legal(state)
    play(state, "H5")


def test_nine_trumps_and_mighty_must_lead_mighty():
    state = position(deal="nine_trumps_and_mighty")
    assert legal(state) == {"SA"}


def test_nine_trumps_and_joker_may_lead_trump():
    # Interpretation: the joker has no suit, so nine trumps + joker hold "only trumps".
    state = position(deal="nine_trumps_and_joker")
    assert "H6" in legal(state) and "JK/H" in legal(state)


def test_joker_lead_naming_trump_is_a_trump_lead():
    state = position(deal={"Ana": "JK HA HK HQ HJ H10 H9 H8 H7 C5", "kitty": "C2 C3 C4"})
    assert "JK/H" not in legal(state) and "JK/C" in legal(state)
    with pytest.raises(IllegalPlay, match="led the joker naming hearts"):
        play(state, "JK/H")


# --- last trick -------------------------------------------------------------------------------


def _open_to_trick_ten(rules, last: str):
    # Open cards: nine tricks where everybody follows suit, then the given trick 10.
    tricks = [
        "C2 C5 C6 C7 C8",
        "C9 C10 CJ CQ CK",
        "D2 D3 D4 D5 D6",
        "D7 D8 D9 D10 DJ",
        "H2 H3 H4 H5 H6",
        "H7 H8 H9 H10 HJ",
        "S2 S3 S4 S5 S6",
        "S7 S8 S9 S10 SJ",
        "DQ DK DA S3 S4".replace("S3 S4", "CA C4"),
    ]
    return position(
        rules,
        open_cards=True,
        election=("Ana 13H", "Bo pass", "Cy pass", "Di pass", "Ed pass"),
        tricks=tricks + [last],
    )


def test_mighty_power_on_last_trick():
    state = _open_to_trick_ten(variant(), "HQ SA C3 SQ SK")
    assert state.phase == "done" and state.tricks[-1].plays[1][1].card == parse_card("SA")
    assert winner(state) == state.tricks[-1].plays[1][0]


def test_mighty_powerless_on_last_trick_when_option_off():
    state = _open_to_trick_ten(variant({"cards.mighty_power_last_trick": False}), "HQ SA C3 SQ SK")
    assert winner(state) == state.tricks[-1].plays[0][0]  # HQ, the highest trump


def test_joker_powerless_on_last_trick():
    state = _open_to_trick_ten(variant(), "HQ JK C3 SQ SK")
    assert winner(state) == state.tricks[-1].plays[0][0]


def test_joker_power_on_last_trick_when_option_set():
    state = _open_to_trick_ten(variant({"cards.joker_power_last_trick": True}), "HQ JK C3 SQ SK")
    assert winner(state) == state.tricks[-1].plays[1][0]


def test_joker_not_playable_on_last_trick_must_go_by_trick_nine():
    # Everyone keeps the joker as long as he may: Bo is forced to play it on trick 9.
    rules = variant({"cards.joker_playable_last_trick": False})
    state = position(rules)
    forced_on = None
    while state.phase == "play":
        plays = legal_plays(state)
        if all(p.card == parse_card("JK") for p in plays):
            forced_on = state.trick_number
        keep = [p for p in plays if p.card != parse_card("JK")] or plays
        state = apply(state, keep[0])
    assert forced_on == 9
    assert all(p.card != parse_card("JK") for _, p in state.tricks[9].plays)


# --- scoring --------------------------------------------------------------------------------------


def test_points_per_trick_and_result():
    state = position(tricks=[DI_LEADS])
    assert state.points_taken == {"Ana": 0, "Bo": 0, "Cy": 0, "Di": 3, "Ed": 0}
    assert state.discarded_points == 2  # SJ and CA


def test_a_whole_hand_scores_zero_sum():
    state = position()
    while state.phase == "play":
        state = apply(state, legal_plays(state)[0])
    result = hand_result(state)
    assert sum(result.deltas.values()) == 0
    assert sum(state.points_taken.values()) + state.discarded_points == 20
