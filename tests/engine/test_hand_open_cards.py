"""Open-cards mode (deal=None): what the cards shown allow the engine to check, and the notation
of plays."""

from __future__ import annotations

import pytest

from hand_positions import play, position, variant
from mighty_cli.engine.cards import parse_card
from mighty_cli.engine.errors import IllegalPlay, InvalidNotation
from mighty_cli.engine.hand import format_play, hand_result, legal_plays, parse_play


def open_hand(rules="standard", tricks=(), **kwargs):
    return position(rules, open_cards=True, tricks=tricks, **kwargs)


def test_open_cards_no_card_twice():
    state = open_hand(tricks=["C2 C5 C10 CK CJ", "C3"])
    with pytest.raises(
        IllegalPlay,
        match=r"trick 2: \w+ played CK but it was already played "
        r"on trick 1 \(no card twice\)",
    ):
        play(state, "CK")


def test_open_cards_known_discard_cannot_be_played():
    state = open_hand(discard="SJ H9 CA", tricks=["C2"])
    with pytest.raises(IllegalPlay, match="the declarer discarded it"):
        play(state, "CA")


def test_open_cards_revoke_names_the_earlier_trick():
    # Cy shows out of clubs on trick 1 (plays S2 to a club lead), then plays a club on trick 3.
    state = open_hand(tricks=["C2 C5 S2 CK CJ", "D2 D3 D4 D5 D6"])
    assert state.to_move == "Cy"  # Cy's D6 won trick 2
    with pytest.raises(
        IllegalPlay,
        match=r"trick 3: Cy led C7 but showed out of ♣ on trick 1 "
        r"\(revoke: must follow suit\)",
    ):
        play(state, "C7")
    assert "C7" not in {format_play(p) for p in legal_plays(state)}


def test_open_cards_mighty_counts_in_inferred_void():
    # Cy shows out of spades on trick 1; later he plays Mighty (SA): a revoke, since Mighty counts
    # as its suit and he would have had to play it.
    state = open_hand(tricks=["S2 S3 C4 S5 S6", "D2 D3 D4 D5 D6"])
    state = play(play(play(play(state, "H2"), "H3"), "H4"), "H5")
    assert state.to_move == "Cy"
    with pytest.raises(IllegalPlay, match="showed out of ♠ on trick 1.*mighty_must_follow_suit"):
        play(state, "SA")


def test_open_cards_mighty_outside_void_when_option_off():
    rules = variant({"cards.mighty_must_follow_suit": False})
    state = open_hand(rules, tricks=["S2 S3 C4 S5 S6", "D2 D3 D4 D5 D6"])
    state = play(play(play(play(play(state, "H2"), "H3"), "H4"), "H5"), "SA")
    assert state.tricks[-1].plays[-1][0] == "Cy" and state.tricks[-1].winner == "Cy"


def test_open_cards_joker_not_played_to_a_call():
    # Ed leads C3! on trick 2; Ana and Bo follow without the joker, so neither holds it.
    state = open_hand(tricks=["C2 C4 C5 C6 C10", "C3! CJ C7 C8 C9"])
    assert state.to_move == "Ana"
    with pytest.raises(
        IllegalPlay,
        match=r"trick 3: Ana led JK but did not play the joker when "
        r"it was called on trick 2",
    ):
        play(state, "JK/S")


def test_open_cards_mid_trick_call_infers_nothing():
    # Cy plays C3! mid-trick: Di and Ed did not have to play the joker, so Ed may lead it next.
    state = open_hand(tricks=["C2 C4 C3! C6 C10"])
    assert state.to_move == "Ed"
    assert play(state, "JK/S").current_trick[0][0] == "Ed"


def test_open_cards_trump_lead_on_first_trick_means_only_trumps():
    # Ana leads trump on trick 1, so she held only trumps (and perhaps the joker).
    state = open_hand(tricks=["H2 H3 H4 H5 H6", "D2"])
    assert state.tricks[0].winner == "Ed" and state.to_move == "Ana"
    with pytest.raises(
        IllegalPlay,
        match=r"Ana played D3 but led trump, so held only trumps, on "
        r"trick 1 \(revoke: play.trump_lead = not_first_trick\)",
    ):
        play(state, "D3")


def test_open_cards_joker_effects_and_points():
    state = open_hand(tricks=["C2 JK C10 CK CQ"])
    assert state.tricks[0].winner == "Di" and state.tricks[0].points == 3


def test_open_cards_card_friend_found_when_played():
    state = open_hand(friend="SA", tricks=["C2"])
    assert state.friend is None and not state.friend_revealed
    state = play(state, "SA")
    assert state.friend == "Bo" and state.friend_revealed


def test_open_cards_declarer_playing_his_called_card_is_a_fake():
    state = open_hand(friend="SK")
    assert play(state, "SK").friend is None
    with pytest.raises(IllegalPlay, match="friend.fake = false"):
        play(open_hand(variant({"friend.fake": False}), friend="SK"), "SK")


def test_open_cards_unseen_discards_hold_the_missing_points():
    tricks = [
        "C2 C5 C6 C7 C8",
        "C9 C10 CJ CQ CK",
        "D2 D3 D4 D5 D6",
        "D7 D8 D9 D10 DJ",
        "H2 H3 H4 H5 H6",
        "H7 H8 H9 H10 HJ",
        "S2 S3 S4 S5 S6",
        "S7 S8 S9 S10 SJ",
        "DQ DK DA CA C4",
        "HQ SA C3 SQ SK",
    ]
    state = open_hand(tricks=tricks)
    assert state.phase == "done"
    # unplayed: HK HA JK -> two point cards were discarded
    assert state.discarded_points == 2
    assert sum(state.points_taken.values()) + state.discarded_points == 20
    assert sum(hand_result(state).deltas.values()) == 0


# --- notation -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("JK/H", (64, 2, False)),
        ("C3!", (parse_card("C3"), None, True)),
        ("sa", (parse_card("SA"), None, False)),
        ("♥10", (parse_card("H10"), None, False)),
    ],
)
def test_parse_play(text, expected):
    assert parse_play(text) == expected
    assert parse_play(format_play(*expected)) == expected


# SA/H parses (a suitless Mighty lead, cards.mighty_lead_names_suit): the engine decides who may
@pytest.mark.parametrize("text", ["SA/X", "JK!", "XX", "JK/X"])
def test_parse_play_rejects(text):
    with pytest.raises(InvalidNotation):
        parse_play(text)
