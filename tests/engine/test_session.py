"""Session succession, the deposit pot (docs/rules.md §9, 001 §2): pure functions, one rule each."""

from __future__ import annotations

import dataclasses

from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.engine.session import (
    PreviousHand,
    find_session_end,
    playing_order,
    propose,
    session_over,
    settle_pot,
)

STANDARD = load_ruleset("standard")
FIVE = ["Ana", "Bo", "Cy", "Di", "Ed"]
SIX = FIVE + ["김철수"]
SEVEN = SIX + ["Gil"]


def with_table(rules, table: str, **values):
    """A ruleset with some options of one table changed."""
    return dataclasses.replace(
        rules, **{table: dataclasses.replace(getattr(rules, table), **values)}
    )


def with_session(rules, **values):
    return with_table(rules, "session", **values)


def made(players, dealer, declarer, friend, success=True):
    return PreviousHand("scored", tuple(players), dealer, declarer, friend, success)


def test_five_present_nobody_sits_out_and_first_seat_deals():
    proposal = propose(STANDARD, FIVE, None)
    assert proposal.dealer == "Ana"
    assert proposal.sitting_out == ()
    assert proposal.players == tuple(FIVE)


def test_chosen_first_dealer_deals_the_first_hand():
    assert propose(STANDARD, FIVE, None, first_dealer="Cy").dealer == "Cy"


def test_previous_friend_deals_next():
    proposal = propose(STANDARD, FIVE, made(FIVE, "Ana", "Bo", "Di"))
    assert proposal.dealer == "Di"


def test_declarer_alone_deals_next():
    assert propose(STANDARD, FIVE, made(FIVE, "Ana", "Bo", None)).dealer == "Bo"


def test_six_present_dealer_sits_out():
    proposal = propose(STANDARD, SIX, made(SIX[1:], "Ana", "Bo", "김철수"))
    assert proposal.dealer == "김철수"
    assert proposal.sitting_out == ("김철수",)
    assert proposal.players == ("Ana", "Bo", "Cy", "Di", "Ed")


def test_six_present_first_dealer_sits_out_the_first_hand():
    proposal = propose(STANDARD, SIX, None)
    assert proposal.sitting_out == ("Ana",)
    assert "Ana" not in proposal.players


def test_six_present_beaten_declarer_deals_and_sits_out_when_the_variant_is_on():
    rules = with_session(STANDARD, sit_out="declarer_if_opposition_won")
    proposal = propose(rules, SIX, made(SIX[1:], "Ana", "Bo", "Cy", success=False))
    assert proposal.dealer == "Bo"
    assert proposal.sitting_out == ("Bo",)


def test_six_present_winning_declarer_keeps_playing_under_the_variant():
    rules = with_session(STANDARD, sit_out="declarer_if_opposition_won")
    proposal = propose(rules, SIX, made(SIX[1:], "Ana", "Bo", "Cy", success=True))
    assert proposal.sitting_out == ("Cy",)


def test_seven_present_declarer_and_friend_sit_out():
    proposal = propose(STANDARD, SEVEN, made(SEVEN[2:], "Ana", "Cy", "Di"))
    assert set(proposal.sitting_out) == {"Cy", "Di"}
    assert len(proposal.players) == 5


def test_seven_present_first_hand_dealer_and_next_sit_out():
    assert propose(STANDARD, SEVEN, None).sitting_out == ("Ana", "Bo")


def test_deal_miss_is_redealt_among_the_same_five():
    previous = PreviousHand("deal_miss", tuple(SIX[1:]), "Ana", deal_miss="Cy")
    proposal = propose(STANDARD, SIX, previous)
    assert proposal.players == tuple(SIX[1:])
    # 000 §3.2.1: the player who declared the deal miss deals the redeal (issue 7 item 1: the
    # standard used to keep the dealer)
    assert proposal.dealer == "Cy" and proposal.opener == "Cy"


def test_opener_is_previous_declarer_by_default():
    assert propose(STANDARD, FIVE, made(FIVE, "Ana", "Bo", "Di")).opener == "Bo"


def test_opener_is_never_a_player_sitting_out():
    proposal = propose(STANDARD, SIX, None)
    assert proposal.opener in proposal.players


def test_deal_miss_pays_into_the_pot():
    rules = load_ruleset("club-requirements")
    move = settle_pot(rules, 0, "deal_miss", dealer="Ana", deal_miss="Cy")
    assert move.deltas == {"Cy": -rules.deposit.per_deal_miss}
    assert move.pot_after == rules.deposit.per_deal_miss


def test_made_contract_wins_the_pot():
    rules = load_ruleset("club-requirements")
    move = settle_pot(rules, 10, "scored", declarer="Bo", friend="Di", success=True)
    assert sum(move.deltas.values()) == 10
    assert move.pot_after == 0


def test_failed_contract_leaves_the_pot():
    rules = load_ruleset("club-requirements")
    move = settle_pot(rules, 10, "scored", declarer="Bo", friend="Di", success=False)
    assert move.deltas == {}
    assert move.pot_after == 10


def test_deposit_paid_by_the_dealer_instead_of_the_deal_miss_player():
    rules = with_table(load_ruleset("club-requirements"), "deposit", paid_by="dealer")
    move = settle_pot(rules, 0, "deal_miss", dealer="Ana", deal_miss="Cy")
    assert move.deltas == {"Ana": -rules.deposit.per_deal_miss}


def test_pot_won_by_the_ruling_party_is_shared_with_the_friend():
    declarer_only = load_ruleset("club-requirements")
    assert declarer_only.deposit.won_by == "declarer"
    assert settle_pot(
        declarer_only, 10, "scored", declarer="Bo", friend="Di", success=True
    ).deltas == {"Bo": 10}
    shared = with_table(declarer_only, "deposit", won_by="ruling_party")
    move = settle_pot(shared, 10, "scored", declarer="Bo", friend="Di", success=True)
    assert move.deltas == {"Bo": 7, "Di": 3}  # friend 1 share in 3, the rest to the declarer


def test_counterclockwise_play_reverses_the_clockwise_seating():
    assert playing_order(FIVE, STANDARD) == FIVE
    simple = load_ruleset("simple")
    assert simple.election.direction == "counterclockwise"
    assert playing_order(FIVE, simple) == ["Ana", "Ed", "Di", "Cy", "Bo"]
    # counterclockwise, the player after Ana is Ed
    assert (
        propose(
            with_session(simple, next_dealer="next_player"), FIVE, made(FIVE, "Ana", "Di", "Bo")
        ).dealer
        == "Ed"
    )


def test_all_pass_dealer_next_player_or_same():
    everyone_passed = PreviousHand("redeal", tuple(FIVE), "Cy")
    assert STANDARD.session.all_pass_dealer == "next_player"
    assert propose(STANDARD, FIVE, everyone_passed).dealer == "Di"
    same = with_session(STANDARD, all_pass_dealer="same")
    assert propose(same, FIVE, everyone_passed).dealer == "Cy"


# --- the end of a session (001 §1.9, 002) ------------------------------------------------------

CLUB = load_ruleset("club-requirements")  # leaves both session-end rules open (0)
MADE = ("scored", {"Ana": 8, "Bo": 4, "Cy": -4, "Di": -4, "Ed": -4})
DEAL_MISS = ("deal_miss", {"Cy": -5})


def test_hands_per_session_ends_the_session_after_that_many_hands():
    rules = with_session(CLUB, hands_per_session=3)
    assert session_over(rules, 2, {}) is None
    assert session_over(rules, 3, {}) == "session.hands_per_session = 3: 3 hands played"
    assert session_over(CLUB, 3, {}) is None  # 0: as many as the table plays


def test_hands_per_session_counts_scored_hands_not_deal_misses():
    rules = with_session(CLUB, hands_per_session=2)
    assert find_session_end(rules, [MADE, DEAL_MISS, DEAL_MISS]) is None
    end = find_session_end(rules, [MADE, DEAL_MISS, MADE, MADE])
    assert end is not None and end.position == 2


def test_starting_points_ends_the_session_when_a_stack_is_lost():
    rules = with_session(CLUB, starting_points=10)
    assert session_over(rules, 1, {"Cy": -9, "Ana": 8}) is None
    assert session_over(rules, 1, {"Cy": -10, "Ana": 8}) == (
        "session.starting_points = 10: Cy is at 0 (-10 this session)"
    )
    assert session_over(CLUB, 1, {"Cy": -1000}) is None  # 0: no stack


def test_starting_points_counts_the_deposit_a_deal_miss_pays():
    rules = with_session(CLUB, starting_points=9)
    end = find_session_end(rules, [MADE, DEAL_MISS, MADE])
    assert end is not None and end.position == 1
    assert end.reason == "session.starting_points = 9: Cy is at 0 (-9 this session)"


def test_both_session_end_rules_are_named_when_both_hold():
    rules = with_session(CLUB, hands_per_session=1, starting_points=4)
    reason = session_over(rules, 1, {"Cy": -4, "Di": -5})
    assert reason == (
        "session.hands_per_session = 1: 1 hand played; session.starting_points "
        "= 4: Di is at -1 (-5 this session), Cy is at 0 (-4 this session)"
    )
