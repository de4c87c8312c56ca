"""The five-player schools of the seeds, read exactly (issue 7): one test per rule, named after it,
each from a position in card notation (tests/data/hand_deals.toml, or a deal written here) and
showing that the rule changes the outcome against the same position without it.

The basic deal (hand_positions.py): Ana SK SQ HA HK HQ HJ H10 D5 C4 C2; Bo SA JK D2 D3 D4 C5-C9;
Cy C10 S2 S3 S4 D6 D7 D8 H2 H3 H4; Di S5 S6 S7 D9 D10 DJ H5 H6 CK C3; Ed S8 S9 S10 DQ DK DA H7
H8 CQ CJ; kitty SJ H9 CA.
"""

from __future__ import annotations

import pytest

from hand_positions import PLAYERS, deal_named, legal, make_deal, play, position, variant
from mighty_cli.engine.cards import SPADES, Bid, format_cards, parse_bid, parse_card, parse_cards
from mighty_cli.engine.errors import IllegalBid, IllegalExchange, IllegalPlay, RecordError
from mighty_cli.engine.hand import (
    BidCall,
    CallFriend,
    ChangeContract,
    DeclareDealMiss,
    apply,
    hand_result,
    is_deal_miss_hand,
    legal_actions,
    legal_plays,
    mighty_card,
    new_hand,
    parse_friend_call,
)
from mighty_cli.engine.records import Record, replay, score_outcome, state_to_hand
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.engine.scoring import score_hand
from mighty_cli.engine.session import PreviousHand, propose, settle_pot

FIVE = list(PLAYERS)
ALL_PASS = ("Bo pass", "Cy pass", "Di pass", "Ed pass")


def score(rules, contract: str, taken: int, alone: bool = False):
    rules = load_ruleset(rules) if isinstance(rules, str) else rules
    return score_hand(rules, parse_bid(contract), taken, has_friend=not alone)


def elect(state, *calls: str):
    for call in calls:
        player, what = call.split()
        state = apply(state, BidCall(player, None if what == "pass" else parse_bid(what)))
    return state


def play_out(state):
    """Finish a hand with the first legal play at every turn."""
    while state.phase == "play":
        state = apply(state, legal_plays(state)[0])
    return state


# --- 1. standard: the deal-miss player deals the redeal and opens it (000 §3.2.1) -------------


def test_deal_miss_player_deals_and_opens_the_redeal():
    previous = PreviousHand("deal_miss", tuple(FIVE), "Ana", deal_miss="Cy")
    made = propose(load_ruleset("standard"), FIVE, previous, in_playing_order=True)
    assert (made.dealer, made.opener) == ("Cy", "Cy")
    same = propose(
        variant({"deal_miss.next_dealer": "same"}), FIVE, previous, in_playing_order=True
    )
    assert (same.dealer, same.opener) == ("Ana", "Ana")


def test_deal_miss_player_opens_the_recorded_redeal(tmp_path):
    cards = {who: format_cards(c) for who, c in deal_named("basic").items()}
    hands = [
        {"dealer": "Ana", "deal_miss": "Cy"},
        {"deal": cards, "election": ["Cy 13H", "Di pass", "Ed pass", "Ana pass", "Bo pass"]},
    ]
    result = replay(Record(ruleset="standard", players=FIVE, hands=hands))
    assert result.hands[1].dealer == "Cy" and result.hands[1].status == "in_progress"
    with pytest.raises(RecordError, match=r"hand 2: election: Cy opened with 13H but Ana opens"):
        replay(
            Record(
                ruleset=club_file(tmp_path, 'next_dealer = "same"'),
                players=FIVE,
                hands=hands,
                base_dir=tmp_path,
            )
        )


def club_file(folder, deal_miss_option: str, base: str = "standard") -> str:
    """A ruleset file extending ``base`` with one deal_miss option, beside the record that names it."""
    path = folder / "club.toml"
    path.write_text(f'extends = "{base}"\n[deal_miss]\n{deal_miss_option}\n', encoding="utf-8")
    return str(path)


def test_club_requirements_redeal_keeps_the_opener():
    """001 §3.2 fixes the opener by the last hand played: a redeal keeps it (redeal_opener)."""
    rules = load_ruleset("club-requirements")
    previous = PreviousHand("deal_miss", tuple(FIVE), "Ana", deal_miss="Cy", opener="Di")
    assert propose(rules, FIVE, previous, in_playing_order=True).opener == "Di"
    dealer_opens = variant({"deal_miss.redeal_opener": "dealer"}, base="club-requirements")
    assert propose(dealer_opens, FIVE, previous, in_playing_order=True).opener == "Ana"


# --- 2. club-requirements (001) ---------------------------------------------------------------


def test_club_requirements_called_joker_must_be_played_without_mighty_defence():
    # Trick 2: Di leads C3! and Bo, holding the joker and Mighty, must play the joker.
    tricks = ["C2 C5 C10 CK CJ", "C3! CQ C4"]
    state = position("club-requirements", friend="DA", tricks=tricks)
    assert legal(state) == {"JK"}
    with pytest.raises(IllegalPlay, match="mighty_defends = false"):
        play(state, "SA")
    assert legal(position("standard", friend="DA", tricks=tricks)) == {"JK", "SA"}


def test_club_requirements_trump_named_in_the_election_stays():
    state = position("club-requirements", friend=None)
    with pytest.raises(IllegalExchange, match="trump_change_allowed = false"):
        apply(state, ChangeContract(parse_bid("15S")))
    with pytest.raises(IllegalExchange, match="voluntary_raise = false"):
        apply(state, ChangeContract(parse_bid("14H")))
    assert not any(isinstance(a, ChangeContract) for a in legal_actions(state))
    standard = position("standard", friend=None)
    assert apply(standard, ChangeContract(parse_bid("15S"))).contract == parse_bid("15S")


@pytest.mark.parametrize("call", ["none", "first-trick"])
def test_club_requirements_only_card_friends(call):
    state = position("club-requirements", friend=None)
    with pytest.raises(IllegalExchange, match=rf"Ana called {call} as friend"):
        apply(state, CallFriend(parse_friend_call(call, state)))
    assert (
        apply(position("standard", friend=None), CallFriend(parse_friend_call(call, state))).phase
        == "play"
    )


def test_club_requirements_joker_call_works_on_trick_1():
    # 001 §4.3-3 excepts only a call made mid-trick: Di declares 13D and leads C3! to trick 1.
    election = ("Ana 13H", "Bo pass", "Cy pass", "Di 14D", "Ed pass", "Ana pass")
    state = position("club-requirements", election=election, friend="DA", tricks=["C3! CQ C2"])
    assert legal(state) == {"JK"}
    standard = position("standard", election=election, friend="DA", tricks=["C3! CQ C2"])
    assert "C5" in legal(standard)


def test_club_requirements_mighty_and_joker_follow_suit_like_any_card():
    # 001 §5.1 names no exception: Bo, holding clubs, follows Ana's C2 with a club.
    state = position("club-requirements", friend="DA", tricks=["C2"])
    assert legal(state) == {"C5", "C6", "C7", "C8", "C9"}
    with pytest.raises(IllegalPlay, match="cards.mighty_plays_any_time = false"):
        play(state, "SA")
    with pytest.raises(IllegalPlay, match="cards.joker_plays_any_time = false"):
        play(state, "JK")
    assert legal(position("standard", friend="DA", tricks=["C2"])) >= {"SA", "JK"}
    # open cards: the joker played to a club lead shows Bo out of clubs
    shown = position(
        "club-requirements", friend="DA", open_cards=True, tricks=["C2 JK C10 CK CJ", "C3 CQ C4"]
    )
    with pytest.raises(IllegalPlay, match="showed out of ♣ on trick 1"):
        play(shown, "C5")
    open_standard = position(
        "standard", friend="DA", open_cards=True, tricks=["C2 JK C10 CK CJ", "C3 CQ C4"]
    )
    assert play(open_standard, "C5").current_trick[-1][0] == "Bo"


# --- 3. sejong: (공약-기본)*2+득점-공약 with 기본 = 13, also for no-trump -------------------------


def test_sejong_no_trump_bonus_counts_from_13():
    made = score("sejong", "12NT", 14)
    assert (made.success, made.base) == (True, 0)  # 2 × (12 - 13) + (14 - 12)
    counted_from_12 = score(
        variant({"scoring.no_trump_minimum": "no_trump_minimum"}, base="sejong"), "12NT", 14
    )
    assert counted_from_12.base == 2


# --- 4. gwangju: a full bid is 21 -------------------------------------------------------------


def test_gwangju_full_bid_is_21():
    state = position("gwangju", election=("Ana 20S",), friend=None)
    state = elect(state, "Bo 21H")
    assert state.standing_bid == ("Bo", parse_bid("21H"))
    with pytest.raises(IllegalBid, match="above the maximum 20"):
        elect(position("standard", election=("Ana 20S",)), "Bo 21H")
    run = score("gwangju", "21H", 21)
    assert (run.success, run.doublings) == (True, ("run",))


# --- 5. msol: every bid raises the number by at least 1 -----------------------------------------


@pytest.mark.parametrize("bid", ["13S", "13NT"])
def test_msol_every_bid_raises_the_number(bid):
    state = position("msol", election=("Ana 13H",))
    with pytest.raises(IllegalBid, match="an equal bid does not beat it"):
        elect(state, f"Bo {bid}")
    assert elect(state, "Bo 14C").standing_bid == ("Bo", parse_bid("14C"))
    ranked = variant(
        {"election.suit_order": ["S", "D", "H", "C"], "election.no_trump_beats_equal_suit": True},
        base="msol",
    )
    assert elect(position(ranked, election=("Ana 13H",)), f"Bo {bid}").standing_bid[0] == "Bo"


# --- 7. dongdaejeon: the scoring given is complete, no run / back-run doubling -----------------


def test_dongdaejeon_run_and_back_run_are_not_doubled():
    run = score("dongdaejeon", "17S", 20)
    assert (run.base, run.multiplier, run.declarer) == (3, 1, 6)
    back_run = score("dongdaejeon", "15S", 5)
    assert (back_run.base, back_run.multiplier, back_run.declarer) == (10, 1, -20)
    doubled = score(variant({"scoring.run.enabled": True}, base="dongdaejeon"), "17S", 20)
    assert doubled.declarer == 12


# --- 8. minsa / 000 §8: a full bid cancels a declared deal miss; a full bid ends the election ---


MINSA_DEAL = make_deal({"Bo": "S2 S3 S4 S5 S6 S7 S8 S9 D2 HK"})  # Bo: one point card


def test_minsa_full_bid_after_deal_miss_cancels_it():
    state = elect(new_hand(load_ruleset("minsa"), PLAYERS, "Ana", MINSA_DEAL), "Ana 14S")
    state = apply(state, DeclareDealMiss("Bo"))
    assert state.phase == "deal_miss"
    assert BidCall("Cy", parse_bid("20D")) in legal_actions(state)
    with pytest.raises(IllegalBid, match="only a full bid of 20 cancels a deal miss"):
        elect(state, "Cy 19D")
    with pytest.raises(IllegalBid, match="Bo declared the deal miss"):
        elect(state, "Bo 20D")
    cancelled = elect(state, "Cy 20D")
    assert (cancelled.phase, cancelled.declarer, cancelled.contract) == (
        "exchange",
        "Cy",
        parse_bid("20D"),
    )
    assert cancelled.deal_miss_player is None
    stands = variant({"deal_miss.full_bid_cancels": False}, base="minsa")
    state = apply(
        elect(new_hand(stands, PLAYERS, "Ana", MINSA_DEAL), "Ana 14S"), DeclareDealMiss("Bo")
    )
    assert legal_actions(state) == []
    with pytest.raises(IllegalBid, match="not possible during a deal miss"):
        elect(state, "Cy 20D")


def test_minsa_cancelled_deal_miss_is_recorded_in_the_election(tmp_path):
    cards = {who: format_cards(c) for who, c in MINSA_DEAL.items()}
    hand = {"dealer": "Ana", "deal": cards, "election": ["Ana 14S", "Bo deal-miss", "Cy 20D"]}
    (outcome,) = replay(Record(ruleset="minsa", players=FIVE, hands=[hand])).hands
    assert (outcome.status, outcome.declarer, outcome.contract) == (
        "in_progress",
        "Cy",
        parse_bid("20D"),
    )
    assert state_to_hand(outcome.state, MINSA_DEAL)["election"] == hand["election"]
    stands = dict(hand, election=["Ana 14S", "Bo deal-miss"])
    (missed,) = replay(Record(ruleset="minsa", players=FIVE, hands=[stands])).hands
    assert (missed.status, missed.deal_miss_player) == ("deal_miss", "Bo")
    club = club_file(tmp_path, "full_bid_cancels = false", base="minsa")
    with pytest.raises(RecordError, match="not possible during a deal miss"):
        replay(Record(ruleset=club, players=FIVE, hands=[hand], base_dir=tmp_path))


def test_minsa_full_bid_ends_the_election():
    state = elect(new_hand(load_ruleset("minsa"), PLAYERS, "Ana", MINSA_DEAL), "Ana 20S")
    assert (state.phase, state.declarer) == ("exchange", "Ana")
    standard = elect(new_hand(load_ruleset("standard"), PLAYERS, "Ana", MINSA_DEAL), "Ana 20S")
    assert standard.phase == "election"
    assert elect(standard, "Bo 20NT").standing_bid == ("Bo", parse_bid("20NT"))


# --- 9. ambiguities decided as options ----------------------------------------------------------


def test_baekseok_joker_call_works_on_trick_1():
    # Ana declares 13H and leads C2, the joker call, to trick 1: Bo must answer with the joker.
    state = position("baekseok", tricks=["C2"])
    assert legal(state) == {"JK", "SA"}
    not_on_trick_1 = variant({"joker_call.first_trick_effect": False}, base="baekseok")
    assert "C5" in legal(position(not_on_trick_1, tricks=["C2"]))


def first_trick_won_by_declarer(rules):
    # Ana leads SK; Bo's joker is powerless on trick 1: Ana wins it and plays alone.
    state = position(rules, friend="first-trick", tricks=["SK JK S2 S5 S8"])
    assert state.tricks[0].winner == "Ana" and state.friend is None
    return hand_result(play_out(state))


def test_first_trick_friend_won_by_the_declarer_is_doubled_as_no_friend():
    assert "no_friend" in first_trick_won_by_declarer(load_ruleset("standard")).score.doublings
    chance = variant({"scoring.no_friend_by_trick_call": False})
    result = first_trick_won_by_declarer(chance)
    assert "no_friend" not in result.score.doublings and result.friend is None
    assert sum(result.deltas.values()) == 0
    recorded = score_outcome(
        chance, FIVE, "Ana", parse_bid("13H"), None, 15, friend_call="first-trick"
    )
    assert recorded.score.doublings == ()
    assert score_outcome(
        chance, FIVE, "Ana", parse_bid("13H"), None, 15, friend_call="none"
    ).score.doublings == ("no_friend",)


# --- 10. error messages name the call ------------------------------------------------------------


def test_refused_player_friend_call_names_the_call():
    state = position(friend=None)
    with pytest.raises(
        IllegalExchange,
        match=r"exchange: Ana called player:Bo as friend: a "
        r"player friend is not allowed \(friend.player",
    ):
        apply(state, CallFriend(parse_friend_call("player:Bo")))


def test_wrong_opener_names_the_bid():
    cards = {who: format_cards(c) for who, c in deal_named("basic").items()}
    hand = {"dealer": "Ana", "deal": cards, "election": ["Bo 14S", "Cy pass"]}
    with pytest.raises(RecordError, match=r"hand 1: election: Bo opened with 14S but Ana opens"):
        replay(Record(ruleset="standard", players=FIVE, hands=[hand]))


# --- 관악 5마 (000 §7.7) ------------------------------------------------------------------------


def test_gwanak_bid_counts_the_oppositions_cards():
    """Footnote 79: 3점을 부르고 기루다를 쳐서 이겼다면 주공은 4점, 프렌드는 2점, 야당 셋은 -2점씩."""
    made = score("gwanak-5", "3S", 16)  # opposition 4 < 8 - 3
    assert (made.success, made.base) == (True, 2)
    assert (made.declarer, made.friend, made.opponent) == (4, 2, -2)
    assert score("gwanak-5", "3S", 15).success is False  # opposition 5 = 8 - 3
    assert score("gwanak-5", "2NT", 15).base == 2  # no trump adjustment, no x2
    assert score("gwanak-5", "7H", 20).multiplier == 1  # no run doubling
    # election.opposition_base: with 9, the opposition needs 6 against a 3, so 15 makes it
    assert score(variant({"election.opposition_base": 9}, base="gwanak-5"), "3S", 15).success
    # scoring.trump_adjustment: without it the made 3S scores its bid, 3
    assert score(variant({"scoring.trump_adjustment": 0}, base="gwanak-5"), "3S", 16).base == 3


def test_gwanak_dealer_bids_last_and_trump_bids_start_at_3():
    state = new_hand(load_ruleset("gwanak-5"), PLAYERS, "Ana", deal_named("basic"))
    assert state.to_move == "Bo"
    with pytest.raises(IllegalBid, match="below the minimum 3"):
        elect(state, "Bo 2S")
    state = elect(state, "Bo 2NT")
    with pytest.raises(IllegalBid, match="an equal bid does not beat it"):
        elect(state, "Cy 3S")
    assert elect(state, "Cy 4S").standing_bid == ("Cy", parse_bid("4S"))


def test_gwanak_trump_is_named_before_the_kitty():
    election = ("Bo 3H",) + ("Cy pass", "Di pass", "Ed pass", "Ana pass")
    state = position("gwanak-5", election=election, friend=None)
    with pytest.raises(IllegalExchange, match="trump_change_allowed = false"):
        apply(state, ChangeContract(parse_bid("5S")))


def gwanak_bo_leads(rules="gwanak-5", contract="3H"):
    election = (f"Bo {contract}", "Cy pass", "Di pass", "Ed pass", "Ana pass")
    rules = load_ruleset(rules) if isinstance(rules, str) else rules
    if rules.election.opener != "after_dealer":
        election = ("Ana pass",) + election[:-1]
    return position(rules, election=election, friend="none")


def test_gwanak_mighty_led_names_a_suit():
    state = gwanak_bo_leads()
    assert {"SA/S", "SA/D", "SA/H", "SA/C"} - {"SA/H"} <= legal(state)
    assert "SA/H" not in legal(state)  # naming trump is a trump lead, barred on trick 1
    with pytest.raises(IllegalPlay, match="without naming a suit"):
        play(state, "SA")
    state = play(state, "SA/D")
    assert legal(state) == {"D6", "D7", "D8"}  # Cy follows ♦, not ♠
    standard = gwanak_bo_leads("standard", "13H")
    with pytest.raises(IllegalPlay, match="only a joker lead names a suit"):
        play(standard, "SA/D")
    assert legal(play(standard, "SA")) == {"S2", "S3", "S4"}


def test_gwanak_mighty_is_the_spade_ace_with_spade_trump():
    assert mighty_card(load_ruleset("gwanak-5"), SPADES) == parse_card("SA")
    assert mighty_card(load_ruleset("standard"), SPADES) == parse_card("DA")


# --- 인천과고 (000 §7.19) ------------------------------------------------------------------------


def test_incheon_trump_lead_barred_while_other_suits_are_held():
    # Ana wins trick 1 with SK (Bo's joker is powerless) and leads trick 2 with ♠ ♦ ♣ in hand.
    state = position("incheon", tricks=["SK JK S2 S5 S8"])
    assert state.to_move == "Ana" and state.trick_number == 2
    assert not {"HA", "HK", "HQ", "HJ", "H10"} & legal(state)
    with pytest.raises(IllegalPlay, match="trump_lead = only_trumps_left"):
        play(state, "HA")
    assert "HA" in legal(position("standard", tricks=["SK JK S2 S5 S8"]))


# --- 이우 5마 (000 §7.20) ------------------------------------------------------------------------


IU_ELECTION = ("Ana 5H",) + ALL_PASS


def test_iu_aces_are_not_point_cards():
    state = position("iu", election=IU_ELECTION, tricks=["SK SA S2 S5 S8"])
    assert state.tricks[0].points == 1  # SK; the aces (and SA) are no point cards
    assert (
        position(election=("Ana 13H",) + ALL_PASS, tricks=["SK SA S2 S5 S8"]).tricks[0].points == 2
    )
    assert load_ruleset("iu").point_card_total == 16


def test_iu_bids_descend_from_6_to_1():
    state = new_hand(load_ruleset("iu"), PLAYERS, "Ana", deal_named("basic"))
    state = elect(state, "Ana 6S", "Bo 5H")
    with pytest.raises(IllegalBid, match="a lower number is a higher bid"):
        elect(state, "Cy 6D")
    with pytest.raises(IllegalBid, match="above the maximum 6"):
        elect(state, "Cy 7D")
    state = elect(state, "Cy 4D", "Di pass", "Ed pass", "Ana pass", "Bo pass")
    assert (state.declarer, state.contract) == ("Cy", parse_bid("4D"))


def test_iu_six_with_six_to_the_opposition_is_a_draw():
    draw = score("iu", "6S", 10)  # the opposition takes 6 of 16
    assert (draw.success, draw.base, draw.declarer) == (True, 0, 0)
    lost = score("iu", "6S", 9)  # 7 to the opposition: more than the bid
    assert (lost.success, lost.base) == (False, 1)
    assert score("iu", "1S", 15).base == 10  # 2 × (6 - 1) + (1 - 1)


def test_iu_follower_may_trump_while_holding_the_led_suit():
    state = position("iu", election=IU_ELECTION, tricks=["SK SA"])
    assert legal(state) == {"S2", "S3", "S4", "H2", "H3", "H4"}
    state = play(state, "H2")
    assert state.current_trick[-1][1].card == parse_card("H2")
    strict = variant({"play.trump_instead_of_following": False}, base="iu")
    assert legal(position(strict, election=IU_ELECTION, tricks=["SK SA"])) == {"S2", "S3", "S4"}


def test_iu_joker_must_answer_a_trump_lead_when_void_in_trump():
    # Ana leads HA to trick 1 (the declarer may lead trump); Bo holds no heart but the joker.
    state = position("iu", election=IU_ELECTION, tricks=["HA"])
    assert legal(state) == {"JK"}
    with pytest.raises(IllegalPlay, match="play.joker_on_trump_lead"):
        play(state, "D2")
    free = variant({"play.joker_on_trump_lead": False}, base="iu")
    assert "D2" in legal(position(free, election=IU_ELECTION, tricks=["HA"]))


def test_iu_mighty_is_the_heart_ace_with_spade_trump():
    assert mighty_card(load_ruleset("iu"), SPADES) == parse_card("HA")


# --- 경기북 (000 §7.15) and 서울시립대 (000 §7.18) -------------------------------------------------


def test_gyeonggi_north_bids_above_20_and_calls_the_joker_on_trick_1():
    state = elect(position("gyeonggi-north", election=("Ana 20S",)), "Bo 22H")
    assert state.standing_bid == ("Bo", Bid(22, 2))
    election = ("Ana 13H", "Bo pass", "Cy pass", "Di 14D", "Ed pass", "Ana pass")
    state = position("gyeonggi-north", election=election, tricks=["C3! CQ C2"])
    assert legal(state) == {"JK", "SA"}


def test_uos_minimum_bid_is_12():
    state = new_hand(load_ruleset("uos"), PLAYERS, "Ana", deal_named("basic"))
    assert elect(state, "Ana 12S").standing_bid == ("Ana", parse_bid("12S"))
    with pytest.raises(IllegalBid, match="below the minimum 13"):
        elect(new_hand(load_ruleset("standard"), PLAYERS, "Ana", deal_named("basic")), "Ana 12S")


# --- 000 §8: deal-miss local rules ----------------------------------------------------------------


def test_mighty_and_red_mighty_together_count_zero():
    hand = parse_cards("SA DA HK HQ S2 S3 S4 S5 S6 C2")
    weighted = {"deal_miss.mighty_weight": -1.0, "deal_miss.card_weights": {"DA": -1.0}}
    assert is_deal_miss_hand(variant(weighted), hand)  # -1 - 1 + 1 + 1 = 0
    cancelling = variant({**weighted, "deal_miss.mighties_cancel": True})
    assert not is_deal_miss_hand(cancelling, hand)  # 0 + 1 + 1 = 2
    alone = parse_cards("SA HK S2 S3 S4 S5 S6 S7 S8 C2")
    assert is_deal_miss_hand(cancelling, alone)  # -1 + 1 = 0


def test_deposit_pot_goes_to_the_winning_team():
    winners = variant({"deposit.per_deal_miss": 5, "deposit.won_by": "winning_team"})
    move = settle_pot(
        winners, 10, "scored", declarer="Ana", friend="Bo", success=False, players=FIVE
    )
    assert (move.deltas, move.pot_after) == ({"Cy": 3, "Di": 3, "Ed": 3}, 1)
    kept = settle_pot(
        variant({"deposit.per_deal_miss": 5}),
        10,
        "scored",
        declarer="Ana",
        friend="Bo",
        success=False,
        players=FIVE,
    )
    assert (kept.deltas, kept.pot_after) == ({}, 10)
    made = settle_pot(
        winners, 10, "scored", declarer="Ana", friend="Bo", success=True, players=FIVE
    )
    assert made.pot_after == 0 and sum(made.deltas.values()) == 10
