"""What makes each bundled club ruleset different from standard, checked against its source.

Scoring differences go through score_hand; other rules are checked as option values. Deal-miss
tables are checked through the hand engine's is_deal_miss_hand on every hand with up to three
point cards (with and without the joker) against the club's rule as its source words it.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from mighty_cli.engine.cards import (
    DECK,
    JACK,
    JOKER,
    POINT_CARDS,
    SPADES,
    TEN,
    parse_bid,
    parse_card,
    parse_cards,
    rank_of,
)
from mighty_cli.engine.errors import ScoringError
from mighty_cli.engine.hand import is_deal_miss_hand
from mighty_cli.engine.ruleset import diff_rulesets, load_ruleset
from mighty_cli.engine.scoring import score_hand

STANDARD = load_ruleset("standard")
MIGHTY_AT_DEAL = parse_card("SA")
LOW_CARDS = [card for card in DECK if card not in POINT_CARDS and card != JOKER]


def differs(name: str) -> set[str]:
    """The options in which a bundled ruleset differs from standard."""
    return {key for key, _, _ in diff_rulesets(STANDARD, load_ruleset(name))}


def score(name: str, contract: str, taken: int, alone: bool = False):
    return score_hand(load_ruleset(name), parse_bid(contract), taken, has_friend=not alone)


# --- deal miss: the weights as the hand engine reads them -------------------------------------


def few_point_card_hands():
    """Every choice of up to three point cards, with and without the joker, padded to ten."""
    for count in range(4):
        for points in combinations(sorted(POINT_CARDS), count):
            for joker in (False, True):
                hand = list(points) + ([JOKER] if joker else [])
                yield hand + LOW_CARDS[: 10 - len(hand)]


HANDS = list(few_point_card_hands())
ALL_POINT_CARDS = parse_cards("SA SK SQ SJ S10 DA DK DQ DJ D10")


def point_cards_in(hand) -> list[int]:
    return [card for card in hand if card in POINT_CARDS]


def written_rule(name: str):
    """Each club's deal-miss rule as its source words it (N = point cards, Mighty included)."""

    def seoul_science(hand):  # 000 §7.1
        points, joker = point_cards_in(hand), JOKER in hand
        return (
            not points
            or (len(points) == 1 and (rank_of(points[0]) == TEN or points[0] == MIGHTY_AT_DEAL))
            or (joker and len(points) == 1)
        )

    def minsa(hand):  # 000 §7.2: count, a joker cancels one
        return len(point_cards_in(hand)) - (JOKER in hand) <= 1

    def sinchon(hand):  # 000 §7.3: a lone J or a lone Mighty (or nothing)
        points = point_cards_in(hand)
        return not points or (
            len(points) == 1 and (rank_of(points[0]) == JACK or points[0] == MIGHTY_AT_DEAL)
        )

    def sejong(hand):  # 000 §7.16: joker + point cards <= 1
        return len(point_cards_in(hand)) + (JOKER in hand) <= 1

    def dongdaejeon(hand):  # 000 §7.5.1: no point card, Mighty and joker aside
        return not [card for card in point_cards_in(hand) if card != MIGHTY_AT_DEAL]

    def simple(hand):  # 002: no point card at all
        return not point_cards_in(hand)

    return {
        "seoul-science": seoul_science,
        "minsa": minsa,
        "sinchon": sinchon,
        "sejong": sejong,
        "dongdaejeon": dongdaejeon,
        "simple": simple,
    }[name]


@pytest.mark.parametrize(
    "name", ["seoul-science", "minsa", "sinchon", "sejong", "dongdaejeon", "simple"]
)
def test_deal_miss_weights_reproduce_the_written_rule(name):
    rules = load_ruleset(name)
    rule = written_rule(name)
    wrong = [hand for hand in HANDS if is_deal_miss_hand(rules, hand) != rule(hand)]
    assert not wrong, f"{name}: e.g. {wrong[:3]}"
    assert any(rule(hand) for hand in HANDS) and not all(rule(hand) for hand in HANDS)


@pytest.mark.parametrize("name", ["seoul-science", "sinchon", "sejong"])
def test_ten_point_cards_are_a_deal_miss(name):
    assert load_ruleset(name).deal_miss.all_point_cards
    assert is_deal_miss_hand(load_ruleset(name), ALL_POINT_CARDS)


@pytest.mark.parametrize("name", ["standard", "minsa", "simple", "dongdaejeon", "gwangju"])
def test_ten_point_cards_are_no_deal_miss_elsewhere(name):
    assert not is_deal_miss_hand(load_ruleset(name), ALL_POINT_CARDS)


def test_club_requirements_below_one_declares_the_same_hands_as_standard():
    """001 §2.4 (< 1) and 003 (<= 1/2) agree, since every sum is a multiple of 1/2."""
    club = load_ruleset("club-requirements")
    assert (club.deal_miss.comparison, club.deal_miss.threshold) == ("below", 1.0)
    assert all(is_deal_miss_hand(club, hand) == is_deal_miss_hand(STANDARD, hand) for hand in HANDS)


@pytest.mark.parametrize(
    "hand, expected",
    [
        ("S2 S3 S4 S5 S6 S7 S8 S9 D2 D3", True),  # nothing
        ("S10 S3 S4 S5 S6 S7 S8 S9 D2 D3", True),  # a 10 is worth 1/2
        ("SA SK S4 S5 S6 S7 S8 S9 D2 D3", False),  # Mighty 0 + K 1
        ("SA S10 S4 S5 S6 S7 S8 S9 D2 D3", True),  # Mighty 0 + 10 1/2
        ("JK HA HK S5 S6 S7 S8 S9 D2 D3", False),  # -1 + 2 = 1
        ("JK HA H10 S5 S6 S7 S8 S9 D2 D3", True),  # -1 + 1.5
    ],
)
def test_standard_redeal_table(hand, expected):
    """003's redeal table: A K Q J 1, 10 1/2, Mighty 0, joker -1, at most 1/2."""
    assert is_deal_miss_hand(STANDARD, parse_cards(hand)) is expected


# --- each ruleset: what differs from standard ---------------------------------------------


def test_standard_is_the_schema_default():
    assert differs("standard") == set()


def test_club_requirements():
    assert differs("club-requirements") == {
        "election.opener_may_pass",
        "election.opener",
        "deal_miss.threshold",
        "deal_miss.comparison",
        "deal_miss.next_dealer",
        "deal_miss.redeal_opener",
        "deposit.per_deal_miss",
        "exchange.trump_change_allowed",
        "exchange.voluntary_raise",
        "friend.no_friend",
        "friend.first_trick",
        "friend.lead_request",
        "cards.mighty_plays_any_time",
        "cards.joker_plays_any_time",
        "joker_call.mighty_defends",
        "joker_call.first_trick_effect",
        "scoring.run.enabled",
        "scoring.back_run.enabled",
        "scoring.no_trump.enabled",
        "scoring.no_friend.enabled",
    }
    rules = load_ruleset("club-requirements")
    assert rules.election.opener == "previous_declarer_if_made_else_friend"
    assert not rules.election.opener_may_pass
    assert (rules.deposit.per_deal_miss, rules.deposit.paid_by, rules.deposit.won_by) == (
        5,
        "declaring_player",
        "declarer",
    )


def test_club_requirements_has_no_doublings():
    """001 §6 gives the whole payment and names no doubling."""
    run = score("club-requirements", "20NT", 20, alone=True)
    assert (run.base, run.multiplier, run.doublings, run.declarer) == (14, 1, (), 56)
    back_run = score("club-requirements", "15S", 5)
    assert (back_run.base, back_run.multiplier, back_run.declarer) == (10, 1, -20)


def test_seoul_science():
    assert differs("seoul-science") == {
        "election.min_bid",
        "election.no_trump_discount",
        "election.opener",
        "deal_miss.rank_weights",
        "deal_miss.mighty_weight",
        "deal_miss.joker_weight",
        "deal_miss.threshold",
        "deal_miss.all_point_cards",
        "exchange.raise_to_no_trump",
        "exchange.raise_from_no_trump",
        "scoring.no_friend.enabled",
    }
    rules = load_ruleset("seoul-science")
    assert (rules.election.min_bid, rules.no_trump_minimum) == (14, 13)
    assert rules.election.opener == "dealer" and rules.election.opener_may_pass
    assert (
        rules.exchange.raise_suit_change,
        rules.exchange.raise_to_no_trump,
        rules.exchange.raise_from_no_trump,
    ) == (2, 1, 3)
    assert rules.friend.joker and not rules.friend.player
    assert not rules.joker_call.first_trick_effect and rules.joker_call.mighty_defends


def test_seoul_science_minimum_14_and_13_no_trump():
    with pytest.raises(ScoringError, match="below the minimum bid of seoul-science"):
        score("seoul-science", "13S", 15)
    made = score("seoul-science", "13NT", 15)
    assert (made.base, made.doublings, made.unit) == (2, ("no_trump",), 4)
    assert score("seoul-science", "14S", 16).base == 2


def test_seoul_science_doubles_run_back_run_and_no_trump_but_not_no_friend():
    assert score("seoul-science", "18S", 20).doublings == ("run",)
    assert score("seoul-science", "14S", 9).doublings == ("back_run",)
    alone = score("seoul-science", "14S", 15, alone=True)
    assert (alone.multiplier, alone.declarer) == (1, 4)


def test_sungkyunkwan():
    assert differs("sungkyunkwan") == {
        "election.min_bid",
        "exchange.raise_suit_change",
        "exchange.raise_to_no_trump",
        "exchange.raise_from_no_trump",
        "friend.reveal_on_points",
        "cards.joker_power_first_trick",
        "cards.joker_power_last_trick",
        "joker_call.called_joker_powerless",
        "play.trump_lead",
    }
    rules = load_ruleset("sungkyunkwan")
    assert rules.election.min_bid == 12
    assert rules.exchange.voluntary_raise and rules.exchange.trump_change_allowed
    assert rules.friend.reveal_on_points


def test_sungkyunkwan_changes_trump_for_free():
    e = load_ruleset("sungkyunkwan").exchange
    assert (e.raise_suit_change, e.raise_to_no_trump, e.raise_from_no_trump) == (0, 0, 0)


def test_sungkyunkwan_joker_keeps_its_power():
    rules = load_ruleset("sungkyunkwan")
    assert rules.cards.joker_playable_first_trick and rules.cards.joker_power_first_trick
    assert rules.cards.joker_playable_last_trick and rules.cards.joker_power_last_trick
    assert not rules.joker_call.called_joker_powerless
    assert rules.play.trump_lead == "any_time"


def test_sungkyunkwan_scores_from_12_and_doubles_no_friend():
    made = score("sungkyunkwan", "12S", 13)
    assert (made.base, made.declarer) == (1, 2)
    assert score("sungkyunkwan", "13S", 14, alone=True).doublings == ("no_friend",)


def test_minsa():
    assert differs("minsa") == {
        "election.opener",
        "deal_miss.rank_weights",
        "deal_miss.mighty_weight",
        "deal_miss.threshold",
        "deal_miss.full_bid_overrides",
        "deal_miss.full_bid_cancels",
        "election.full_bid_ends",
        "joker_call.mighty_defends",
        "scoring.back_run.threshold",
    }
    rules = load_ruleset("minsa")
    assert rules.deal_miss.full_bid_overrides
    assert not rules.joker_call.mighty_defends


def test_minsa_back_run_at_ten():
    assert score("minsa", "14S", 10).doublings == ("back_run",)
    assert score("standard", "14S", 10).doublings == ()


def test_minsa_two_point_cards_and_the_joker_is_a_deal_miss():
    rules = load_ruleset("minsa")
    assert is_deal_miss_hand(rules, parse_cards("JK SK HA S5 S6 S7 S8 S9 D2 D3"))
    assert not is_deal_miss_hand(rules, parse_cards("SK HA S4 S5 S6 S7 S8 S9 D2 D3"))


def test_sinchon():
    assert differs("sinchon") == {
        "election.min_bid",
        "election.no_trump_discount",
        "election.max_bid",
        "election.opener",
        "election.opener_may_pass",
        "deal_miss.rank_weights",
        "deal_miss.mighty_weight",
        "deal_miss.joker_weight",
        "deal_miss.all_point_cards",
        "exchange.raise_to_no_trump",
    }
    rules = load_ruleset("sinchon")
    assert (rules.election.min_bid, rules.no_trump_minimum, rules.election.max_bid) == (14, 13, 0)
    assert rules.election.opener == "dealer" and not rules.election.opener_may_pass
    assert (rules.exchange.raise_to_no_trump, rules.exchange.raise_from_no_trump) == (1, 2)


def test_sinchon_bids_above_20():
    failed = score("sinchon", "25NT", 20)
    assert (failed.success, failed.base, failed.doublings) == (False, 5, ("no_trump",))


def test_sinchon_doubles_back_run_no_trump_no_friend_and_inherits_run():
    rules = load_ruleset("sinchon")
    assert all(
        rules.get(f"scoring.{name}.enabled")
        for name in ("run", "back_run", "no_trump", "no_friend")
    )
    assert score("sinchon", "20NT", 20, alone=True).multiplier == 8


def test_sinchon_lone_jack_or_mighty_is_a_deal_miss():
    rules = load_ruleset("sinchon")
    assert is_deal_miss_hand(rules, parse_cards("HJ S2 S3 S4 S5 S6 S7 S8 S9 D2"))
    assert is_deal_miss_hand(rules, parse_cards("SA JK S3 S4 S5 S6 S7 S8 S9 D2"))
    assert not is_deal_miss_hand(rules, parse_cards("H10 S2 S3 S4 S5 S6 S7 S8 S9 D2"))
    assert not is_deal_miss_hand(rules, parse_cards("HJ SA S3 S4 S5 S6 S7 S8 S9 D2"))


def test_gyeonggi():
    assert differs("gyeonggi") == {
        "election.no_trump_discount",
        "election.opener",
        "exchange.raise_to_no_trump",
        "friend.last_trick",
        "cards.joker_call_alternate",
    }  # deal_miss.next_dealer: standard now
    rules = load_ruleset("gyeonggi")
    assert rules.friend.first_trick and rules.friend.last_trick
    assert (rules.cards.joker_call, rules.cards.joker_call_alternate) == ("C3", "H3")
    assert rules.deal_miss.next_dealer == "declaring_player"
    assert not rules.election.equal_bid_allowed  # the 2018 two-joker rules are not applied


def test_gwangju():
    assert differs("gwangju") == {
        "election.min_bid",
        "election.no_trump_discount",
        "election.max_bid",
        "exchange.free_change_order",
        "exchange.raise_suit_change",
        "exchange.raise_from_no_trump",
        "cards.joker_is_point_card",
        "cards.joker_power_first_trick",
        "cards.joker_power_last_trick",
        "cards.mighty_power_first_trick",
        "joker_call.mighty_defends",
    }
    rules = load_ruleset("gwangju")
    assert rules.point_card_total == 21
    assert not rules.cards.mighty_power_first_trick and rules.cards.mighty_power_last_trick
    assert rules.cards.joker_power_first_trick and rules.cards.joker_power_last_trick
    assert rules.exchange.free_change_order == [SPADES, 1, 2, 3]
    assert rules.deal_miss.joker_weight == -1.0


def test_gwangju_run_needs_21_point_cards():
    assert score("gwangju", "17H", 21).doublings == ("run",)
    assert score("gwangju", "17H", 20).doublings == ()
    with pytest.raises(ScoringError, match="from 0 to 21"):
        score("gwangju", "17H", 22)


def test_daegu():
    assert differs("daegu") == {
        "election.min_bid",
        "election.opener",
        "election.opener_may_pass",
        "election.max_bid",
        "exchange.free_change_order",
        "exchange.raise_suit_change",
        "exchange.raise_from_no_trump",
        "cards.mighty_power_first_trick",
        "joker_call.mighty_defends",
    }
    rules = load_ruleset("daegu")
    assert rules.point_card_total == 20
    assert score("daegu", "22S", 20).success is False
    assert score("daegu", "12D", 12).base == 0


def test_sejong():
    assert differs("sejong") == {
        "election.no_trump_discount",
        "election.opener",
        "election.pass_is_final",
        "deal_miss.rank_weights",
        "deal_miss.mighty_weight",
        "deal_miss.joker_weight",
        "deal_miss.threshold",
        "deal_miss.all_point_cards",
        "joker_call.first_trick_effect",
        "play.trump_lead",
        "scoring.no_trump_minimum",
        "scoring.back_run.threshold",
        "scoring.no_trump.applies",
        "scoring.no_friend.applies",
        "session.sit_out",
    }
    rules = load_ruleset("sejong")
    assert not rules.election.pass_is_final
    assert rules.joker_call.first_trick_effect
    assert rules.play.trump_lead == "any_time"
    assert rules.cards.mighty_power_first_trick and not rules.cards.joker_power_first_trick


def test_sejong_back_run_is_the_bid():
    assert score("sejong", "15S", 5).doublings == ("back_run",)  # opposition 15 >= 15
    assert score("sejong", "15S", 6).doublings == ()  # opposition 14


def test_sejong_no_trump_and_no_friend_double_only_a_success():
    assert score("sejong", "14NT", 15, alone=True).doublings == ("no_trump", "no_friend")
    failed = score("sejong", "14NT", 13, alone=True)
    assert (failed.doublings, failed.declarer) == ((), -4)


def test_msol():
    assert differs("msol") == {"election.min_bid", "election.no_trump_beats_equal_suit"}
    rules = load_ruleset("msol")
    assert rules.election.suit_order == []
    assert rules.election.min_raise == 1
    assert rules.joker_call.mighty_defends and not rules.friend.player


def test_dongdaejeon():
    assert differs("dongdaejeon") == {
        "election.opener",
        "election.no_trump_allowed",
        "deal_miss.rank_weights",
        "deal_miss.joker_weight",
        "deal_miss.threshold",
        "deal_miss.next_dealer",
        "exchange.raise_suit_change",
        "friend.first_trick",
        "cards.joker_call_alternate",
        "scoring.formula",
        "scoring.run.enabled",
        "scoring.back_run.enabled",
        "scoring.no_friend.enabled",
        "session.next_dealer",
    }
    rules = load_ruleset("dongdaejeon")
    assert (rules.election.min_bid, rules.election.max_bid) == (13, 20)
    assert rules.cards.joker_call_alternate == "C3"
    assert rules.exchange.raise_suit_change == 1
    assert rules.session.next_dealer == "same"
    assert not rules.friend.first_trick and not rules.friend.player


def test_dongdaejeon_has_no_no_trump():
    with pytest.raises(ScoringError, match="no-trump is not allowed in dongdaejeon"):
        score("dongdaejeon", "15NT", 16)


def test_dongdaejeon_scores_the_distance_from_the_bid():
    made = score("dongdaejeon", "14S", 18)
    failed = score("dongdaejeon", "15S", 12)
    assert (made.base, made.declarer, made.friend, made.opponent) == (4, 8, 4, -4)
    assert (failed.base, failed.declarer, failed.friend, failed.opponent) == (3, -6, -3, 3)


def test_dongdaejeon_declarer_alone_takes_four_shares_without_doubling():
    alone = score("dongdaejeon", "15S", 17, alone=True)
    assert (alone.multiplier, alone.declarer, alone.opponent) == (1, 8, -2)


def test_baekseok():
    assert differs("baekseok") == {
        "cards.joker_call",
        "cards.joker_call_alternate",
        "joker_call.declaration",
        "joker_call.first_trick_effect",
    }
    rules = load_ruleset("baekseok")
    assert (rules.cards.joker_call, rules.cards.joker_call_alternate) == ("C2", "H2")
    assert rules.joker_call.declaration == "always"


def test_simple():
    assert differs("simple") == {
        "election.opener",
        "election.direction",
        "election.no_trump_beats_equal_suit",
        "deal_miss.rank_weights",
        "deal_miss.mighty_weight",
        "deal_miss.joker_weight",
        "deal_miss.threshold",
        "play.trump_lead",
        "scoring.formula",
        "scoring.back_run.threshold",
        "scoring.no_trump.enabled",
        "scoring.no_friend.enabled",
    }
    rules = load_ruleset("simple")
    assert rules.election.direction == "counterclockwise"
    assert rules.election.opener == "dealer"
    assert not rules.election.no_trump_beats_equal_suit
    assert rules.deal_miss.next_dealer == "declaring_player"


def test_simple_scores_over_ten():
    made = score("simple", "15S", 16)
    assert (made.base, made.declarer, made.friend, made.opponent) == (6, 12, 6, -6)
    failed = score("simple", "15S", 12)
    assert (failed.base, failed.declarer) == (3, -6)


def test_simple_doubles_run_on_success_and_back_run_at_ten():
    assert score("simple", "14S", 20).doublings == ("run",)
    assert score("simple", "14S", 12, alone=True).doublings == ()
    assert score("simple", "14S", 10).doublings == ("back_run",)


def test_simple_no_friend_doubles_the_declarers_share_not_the_score():
    """002: フレンドがいなかったときの得点が2倍 (the declarer's 2S becomes 4S) and 野党の失点:
    フレンドの得点と同じ点数 (each opponent pays S): issue 7 item 6, the earlier x2 on S was wrong."""
    alone = score("simple", "14S", 15, alone=True)
    assert (alone.base, alone.multiplier, alone.doublings) == (5, 1, ())
    assert (alone.declarer, alone.opponent) == (20, -5)
    assert alone.declarer + 4 * alone.opponent == 0
    with_friend = score("simple", "14S", 15)
    assert (with_friend.declarer, with_friend.friend, with_friend.opponent) == (10, 5, -5)


def test_simple_does_not_double_no_trump():
    made = score("simple", "16NT", 18)
    assert (made.base, made.multiplier) == (8, 1)
