"""Hand records: reading, writing, and replaying recorded outcomes and deal misses."""

from __future__ import annotations

import pytest

from mighty_cli.engine.cards import DIAMONDS, Bid
from mighty_cli.engine.errors import RecordError
from mighty_cli.engine.records import Record, dump_record, read_record, replay
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.engine.session import PreviousHand, opener_for

HEAD = 'format = "mighty-hand-record/1"\nruleset = "{ruleset}"\nplayers = {players}\n'
FIVE = '["Ana", "Bo", "Cy", "Di", "Ed"]'


def record(hands: str, ruleset: str = "standard", players: str = FIVE) -> Record:
    return read_record(HEAD.format(ruleset=ruleset, players=players) + hands)


def test_recorded_hand_is_scored_with_the_ruleset():
    result = replay(
        record(
            '[[hands]]\ndealer = "Ana"\ndeclarer = "Di"\ncontract = "15D"\n'
            'friend = "Ana"\ntaken = 16\n'
        )
    )
    (hand,) = result.hands
    assert hand.status == "scored" and hand.contract == Bid(15, DIAMONDS)
    assert hand.deltas == {"Ana": 5, "Bo": -5, "Cy": -5, "Di": 10, "Ed": -5}
    assert result.totals == hand.deltas


def test_opposition_may_be_given_instead_of_taken():
    a = replay(record('[[hands]]\ndeclarer = "Di"\ncontract = "15D"\nfriend = "Ana"\ntaken = 16\n'))
    b = replay(
        record('[[hands]]\ndeclarer = "Di"\ncontract = "15D"\nfriend = "Ana"\nopposition = 4\n')
    )
    assert a.totals == b.totals


def test_totals_are_zero_sum_across_hands():
    result = replay(
        record(
            '[[hands]]\ndeclarer = "Di"\ncontract = "15D"\nfriend = "Ana"\ntaken = 16\n'
            '[[hands]]\ndeclarer = "Bo"\ncontract = "14NT"\nfriend = "none"\ntaken = 9\n'
        )
    )
    assert sum(result.totals.values()) == 0


@pytest.mark.parametrize(
    "hand, message",
    [
        (
            'declarer = "Zed"\ncontract = "15D"\nfriend = "none"\ntaken = 16',
            "hand 1: declarer = 'Zed' is not one of the players",
        ),
        ('declarer = "Di"\ncontract = "15X"\nfriend = "none"\ntaken = 16', "hand 1: contract:"),
        (
            'declarer = "Di"\ncontract = "15D"\nfriend = "Di"\ntaken = 16',
            "hand 1: Di cannot be his own friend",
        ),
        (
            'declarer = "Di"\ncontract = "15D"\nfriend = "none"\ntaken = 21',
            "hand 1: taken = 21 is impossible",
        ),
        (
            'declarer = "Di"\ncontract = "15D"\nfriend = "none"\ntaken = 16\nopposition = 4',
            "hand 1: give exactly one of taken and opposition",
        ),
        (
            'declarer = "Di"\ncontract = "12D"\nfriend = "none"\ntaken = 16',
            "hand 1: contract 12D is below the minimum bid of standard (13)",
        ),
        (
            'declarer = "Di"\ncontract = "15D"\nfriend = "none"\ntaken = 16\ntricks = ["SA"]',
            "hand 1: tricks needs the deal",
        ),
        ('colour = "red"', "unknown key 'colour'"),
    ],
)
def test_bad_recorded_hand_is_rejected_naming_hand_and_key(hand, message):
    with pytest.raises(RecordError) as info:
        replay(record("[[hands]]\n" + hand + "\n"))
    assert message in str(info.value)


def test_impossible_taken_under_a_21_point_ruleset_is_allowed_up_to_21():
    result = replay(
        record(
            '[[hands]]\ndeclarer = "Di"\ncontract = "15D"\nfriend = "none"\ntaken = 21\n',
            ruleset="gwangju",
        )
    )
    assert "run" in result.hands[0].score.doublings


def test_deal_miss_puts_fee_in_the_deposit_pot_and_the_next_made_contract_takes_it():
    rules = load_ruleset("club-requirements")
    fee = rules.deposit.per_deal_miss
    assert fee == 5
    result = replay(
        record(
            '[[hands]]\ndeal_miss = "Cy"\n'
            '[[hands]]\ndeclarer = "Di"\ncontract = "13D"\nfriend = "Ana"\n'
            "taken = 12\n"
            '[[hands]]\ndeclarer = "Bo"\ncontract = "13S"\nfriend = "Ana"\n'
            "taken = 14\n",
            ruleset="club-requirements",
        )
    )
    first, failed, made = result.hands
    assert first.deltas["Cy"] == -fee and first.pot_after == fee
    assert failed.pot_after == fee  # a failed contract leaves the pot
    assert made.pot_after == 0 and made.deltas["Bo"] == made.score.declarer + fee
    assert sum(result.totals.values()) + result.pot == 0


def test_deal_miss_without_pot_changes_nothing():
    result = replay(record('[[hands]]\ndeal_miss = "Cy"\n'))
    assert result.hands[0].status == "deal_miss"
    assert set(result.totals.values()) == {0}


def test_next_dealer_is_the_previous_friend_or_declarer_alone():
    result = replay(
        record(
            '[[hands]]\ndealer = "Ana"\ndeclarer = "Di"\ncontract = "15D"\n'
            'friend = "Bo"\ntaken = 16\n'
            '[[hands]]\ndeclarer = "Di"\ncontract = "15D"\nfriend = "none"\n'
            "taken = 16\n"
            '[[hands]]\ndeclarer = "Ed"\ncontract = "15D"\nfriend = "Ana"\n'
            "taken = 16\n"
        )
    )
    assert [h.dealer for h in result.hands] == ["Ana", "Bo", "Di"]


def test_a_new_session_restarts_dealer_succession():
    result = replay(
        record(
            '[[hands]]\nsession = 1\ndealer = "Cy"\ndeclarer = "Di"\n'
            'contract = "15D"\nfriend = "Bo"\ntaken = 16\n'
            '[[hands]]\nsession = 2\ndeclarer = "Di"\ncontract = "15D"\n'
            'friend = "none"\ntaken = 16\n'
        )
    )
    assert result.hands[1].dealer == "Ana"  # a session's first hand: the first seat deals


def test_dealer_is_derived_when_a_hand_omits_it():
    result = replay(
        record(
            '[[hands]]\ndealer = "Ed"\ndeclarer = "Di"\ncontract = "15D"\n'
            'friend = "Bo"\ntaken = 16\n'
            '[[hands]]\ndeclarer = "Ana"\ncontract = "15D"\nfriend = "Cy"\n'
            "taken = 16\n"
        )
    )
    assert result.hands[1].dealer == "Bo"


def test_opener_follows_the_ruleset():
    players = ["Ana", "Bo", "Cy", "Di", "Ed"]
    made = PreviousHand("scored", tuple(players), "Ana", "Di", "Bo", True)
    failed = PreviousHand("scored", tuple(players), "Ana", "Di", "Bo", False)
    standard = load_ruleset("standard")
    assert opener_for(standard, players, players, "Bo", made) == "Di"  # 003: previous declarer
    assert opener_for(standard, players, players, "Bo", None) == "Bo"  # first hand: the dealer
    requirements = load_ruleset("club-requirements")  # 001 §3.2
    assert requirements.election.opener == "previous_declarer_if_made_else_friend"
    assert opener_for(requirements, players, players, "Bo", made) == "Di"
    assert opener_for(requirements, players, players, "Ana", failed) == "Bo"


def test_dealer_may_sit_out_with_six_present():
    six = '["Ana", "Bo", "Cy", "Di", "Ed", "민수"]'
    result = replay(
        record(
            '[[hands]]\ndealer = "Ana"\nplayers = ["Bo", "Cy", "Di", "Ed", "민수"]\n'
            'declarer = "Di"\ncontract = "15D"\nfriend = "Bo"\ntaken = 16\n',
            players=six,
        )
    )
    assert result.hands[0].dealer == "Ana" and result.totals["Ana"] == 0


def test_more_than_seven_players_when_every_hand_names_its_five():
    eight = '["A", "B", "C", "D", "E", "F", "G", "H"]'
    result = replay(
        record(
            '[[hands]]\nplayers = ["A", "B", "C", "D", "E"]\ndeclarer = "A"\n'
            'contract = "15D"\nfriend = "B"\ntaken = 16\n'
            '[[hands]]\nplayers = ["D", "E", "F", "G", "H"]\ndeclarer = "H"\n'
            'contract = "15D"\nfriend = "none"\ntaken = 16\n',
            players=eight,
        )
    )
    assert sum(result.totals.values()) == 0 and result.totals["H"] > 0
    with pytest.raises(RecordError, match="got 8"):
        record(
            '[[hands]]\ndeclarer = "A"\ncontract = "15D"\nfriend = "B"\ntaken = 16\n', players=eight
        )


def test_six_players_need_the_five_who_played():
    six = '["Ana", "Bo", "Cy", "Di", "Ed", "민수"]'
    with pytest.raises(RecordError, match="say which five played"):
        replay(
            record(
                '[[hands]]\ndeclarer = "Di"\ncontract = "15D"\nfriend = "none"\ntaken = 16\n',
                players=six,
            )
        )
    result = replay(
        record(
            '[[hands]]\nplayers = ["Bo", "Cy", "Di", "Ed", "민수"]\n'
            'declarer = "Di"\ncontract = "15D"\nfriend = "민수"\ntaken = 16\n',
            players=six,
        )
    )
    assert result.totals["Ana"] == 0 and result.totals["민수"] == 5


@pytest.mark.parametrize(
    "text, message",
    [
        ('format = "mighty-hand-record/9"\nplayers = ["A","B","C","D","E"]\n', "format"),
        ('players = ["A"]\n', "got 1"),
        ('players = ["A","B","C","D","A"]\n', "appears twice"),
        ('players = "A B C D E"\n', "expected a list"),
        ('players = ["A","B","C","D","E"]\nwhatever = 1\n', "unknown key 'whatever'"),
        ("players = [\n", "not valid TOML"),
    ],
)
def test_bad_record_files_are_one_line_errors(text, message):
    with pytest.raises(RecordError, match=message):
        read_record(text)


def test_dump_then_read_round_trips():
    original = record(
        '[[hands]]\ndealer = "Ana"\ndeclarer = "Di"\ncontract = "15D"\n'
        'friend = "Ana"\nfriend_call = "SA"\ntaken = 16\n'
        '[[hands]]\ndeal_miss = "Cy"\n'
    )
    again = read_record(dump_record(original))
    assert again.players == original.players and again.hands == original.hands
    assert replay(again).totals == replay(original).totals


def test_refereed_hand_with_the_dealer_sitting_out():
    import random

    from mighty_cli.engine import hand as engine
    from mighty_cli.engine.records import state_to_hand

    five = ["Bo", "Cy", "Di", "Ed", "민수"]
    rules = load_ruleset("standard")
    deal = engine.deal_cards(5, five)
    state = engine.new_hand(rules, five, "Ana", deal, opener="Bo")
    rng = random.Random(5)
    while state.phase not in ("done", "deal_miss", "redeal"):
        state = engine.apply(state, engine.random_legal_action(state, rng))
    hand = state_to_hand(state, deal) | {"players": five}
    result = replay(read_record(dump_record(Record("standard", ["Ana", *five], [hand]))))
    assert result.hands[0].dealer == "Ana" and result.totals["Ana"] == 0
    with pytest.raises(Exception, match="needs the opener named"):
        engine.new_hand(rules, five, "Ana", deal)


def test_full_bid_cancelling_a_deal_miss_may_come_from_a_player_who_is_not_the_opener():
    # deal_miss.full_bid_cancels (민사, 000 §8): Ana shows her hand before anyone calls; Fay's
    # full bid cancels it although Bo, the dealer, opens the election (found by mighty simulate)
    text = HEAD.format(ruleset="minsa", players='["Ana", "Bo", "Cy", "Di", "Fay"]') + (
        '[[hands]]\ndealer = "Bo"\nopener = "Bo"\n'
        'deal = { Ana = "S7 S6 S3 S2 D4 H8 CQ C7 C6 C5", Bo = "SA SK D6 D3 HA H10 H9 H7 C3 C2", '
        'Cy = "JK SJ S10 S9 S5 DK DJ HQ H6 H2", Di = "SQ DA D9 D5 HJ H5 CK C10 C9 C4", '
        'Fay = "S4 DQ D10 D8 D2 HK H4 CA CJ C8", kitty = "S8 D7 H3" }\n'
        'election = ["Ana deal-miss", "Fay 20D"]\ndiscard = "CJ DQ HK"\nfriend = "S10"\n'
    )
    (hand,) = replay(read_record(text)).hands
    assert hand.status == "in_progress" and hand.declarer == "Fay"
    assert hand.state.contract == Bid(20, DIAMONDS)


def test_four_players_under_a_five_player_ruleset_say_which_five_played():
    # four names are a 4마 record (table.players = 4); under standard they cannot all play
    with pytest.raises(RecordError, match="the record lists 4 players; say which five played"):
        replay(
            record(
                '[[hands]]\ndeclarer = "Di"\ncontract = "15D"\nfriend = "none"\ntaken = 16\n',
                players='["Ana", "Bo", "Cy", "Di"]',
            )
        )


@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"league": "Thursday", "title": "Night 3"},
        {"ruleset_toml": 'extends = "standard"\n[scoring]\n'},
    ],
    ids=["plain", "named", "embedded ruleset"],
)
def test_a_record_written_hand_by_hand_reads_back_as_the_record(extra):
    from mighty_cli.engine.records import dump_record_hand, dump_record_head

    whole = record(
        '[[hands]]\ndealer = "Ana"\ndeclarer = "Di"\ncontract = "15D"\n'
        'friend = "Ana"\ntaken = 16\n\n[[hands]]\ndeclarer = "Bo"\n'
        'contract = "14S"\nfriend = "none"\ntaken = 10\n'
    )
    whole.extra.update(extra)
    streamed = dump_record_head(whole) + "".join(dump_record_hand(h) for h in whole.hands)
    again = read_record(streamed)
    assert again.hands == whole.hands and again.extra == whole.extra
    assert replay(again).totals == replay(whole).totals


def test_refereed_hands_written_hand_by_hand_are_the_text_written_whole():
    from mighty_cli.engine.records import dump_record_hand, dump_record_head
    from mighty_cli.engine.simulation import simulate

    played = simulate(
        load_ruleset("standard"), "standard", ["Ana", "Bo", "Cy", "Di", "Ed", "Fu"], hands=3, seed=7
    ).record
    played.extra["title"] = "KAIST, spring"
    streamed = dump_record_head(played) + "".join(dump_record_hand(h) for h in played.hands)
    assert streamed == dump_record(played)
    assert read_record(streamed).hands == played.hands
