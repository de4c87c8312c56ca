"""8마 Chicago (000 §3.5.3) over main's trick rules (two jokers, 서울과고's 11, 경기 2018's
trick-1 trump): main settles the usual trick from its mask's top bit, where a copy's bit
(``card | 128``) sits above every original. A copy must rank as its original, so a copy of a
lower card never beats the original of a higher one; the in-progress view (holding_index,
the referee's "winning so far") agrees with the finished trick."""

from __future__ import annotations

from mighty_cli.engine.contract import holding_index
from mighty_cli.engine.hand import Play, apply, parse_play
from mighty_cli.engine.ruleset import load_ruleset

from tests.engine.test_chicago import _order, play_to


def test_a_copy_of_a_lower_card_does_not_beat_a_higher_original():
    # ♣Q led (copy 0), Bo's ♣Q is copy 1 (bit 128 above), Cy's ♣K copy 0: the ♣K wins
    rules = load_ruleset("chicago-8")
    hands = {"Ana": "CQ", "Bo": "CQ", "Cy": "CK", "Di": "C6", "Ed": "C5", "Fay": "C4",
             "Gus": "C3", "Hal": "C3", "kitty": "CA CA CJ CJ"}
    state = play_to(rules, hands, tricks=("CQ CQ CK C6 C5 C4 C3 C3",))
    assert state.tricks[0].winner == "Cy"


def test_a_copy_of_a_lower_trump_does_not_beat_a_higher_original_trump():
    # trump ♥, ♣K led: Ana holds ♥5 copy 0, so Bo's ♥5 is copy 1 (the top bit of the trick);
    # Cy's ♥7 (copy 0) wins, and while the trick is open the referee's view shows it holding
    rules = load_ruleset("chicago-8")
    hands = {"Ana": "CK H5", "Bo": "H5", "Cy": "H7", "Di": "C6", "Ed": "C5", "Fay": "C4",
             "Gus": "C3", "Hal": "C3", "kitty": "CA CA CQ CQ"}
    state = play_to(rules, hands)
    plays = "CK H5 H7 C6 C5 C4 C3 C3".split()
    for number, (player, text) in enumerate(zip(_order(state), plays)):
        card, suit, call = parse_play(text)
        state = apply(state, Play(player, card, suit, call))
        if number == 2:
            assert holding_index(state) == 2  # Cy's ♥7 over Bo's ♥5 (copy 1)
    assert state.tricks[0].winner == "Cy"
