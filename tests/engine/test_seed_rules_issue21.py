"""Rules the seeds state that no option expressed before (issue 21, item 12), one test per
option, each showing it change what happens."""

from __future__ import annotations

import pytest

from mighty_cli.engine.errors import MightyError
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.engine.session import PreviousHand, check_sitting_out, propose
from mighty_cli.table.referee_session import RefereeSession

SIX = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay"]


def _declared(ruleset: str, players: list[str], bid: str) -> RefereeSession:
    session = RefereeSession(
        load_ruleset(ruleset), ruleset, players, players[0], None, opener=players[0]
    )
    for line in [bid] + ["pass"] * (len(players) - 1):
        assert session.handle(line)[0].startswith("✓"), line
    return session


def test_friend_called_cards_up_to_lets_the_8ma_declarer_call_one_partner():
    chicago = _declared("chicago-6", SIX, "25s")
    assert chicago.handle("sa") == ["✓ friend call: ♠A"]
    assert _declared("chicago-6", SIX, "25s").handle("sa+dk")[0].startswith("✓")


def test_friend_called_cards_exact_keeps_two_cards_without_the_option():
    seven = _declared("dongdaejeon-7", SIX + ["Gil"], "14s")
    said = seven.handle("sa")[0]
    assert said.startswith("✗") and "friend.called_cards = 2" in said


def test_friend_called_cards_up_to_scores_a_lone_partner_as_one_friend():
    from mighty_cli.engine.records import read_record, replay

    rules = load_ruleset("chicago-6")
    record = read_record(
        f'format = "mighty-hand-record/1"\nruleset = "chicago-6"\nplayers = {SIX!r}\n'.replace(
            "'", '"'
        )
        + '[[hands]]\ndeclarer = "Ana"\ncontract = "25S"\nfriend = "Bo"\n'
        'friend_call = "SA"\ntaken = 30\n'
    )
    outcome = replay(record, rules).hands[0]
    assert outcome.status == "scored" and outcome.deltas["Bo"] > 0
    assert sum(outcome.deltas.values()) == 0


def _previous(success: bool) -> PreviousHand:
    # Ana declared with Bo; Fay sat out
    return PreviousHand("scored", ("Ana", "Bo", "Cy", "Di", "Ed"), "Ana", "Ana", "Bo", success)


def test_session_sit_out_losing_team_takes_the_sitter_from_the_losing_side():
    rules = load_ruleset("sejong")
    failed = propose(rules, SIX, _previous(False))
    assert len(failed.sitting_out) == 1 and failed.sitting_out[0] in ("Ana", "Bo")
    made = propose(rules, SIX, _previous(True))
    assert made.sitting_out[0] in ("Cy", "Di", "Ed")
    assert "Fay" in made.players  # who sat out comes back in


def test_session_sit_out_losing_team_refuses_a_winner_sitting_out():
    rules = load_ruleset("sejong")
    with pytest.raises(MightyError, match="not of the losing team"):
        check_sitting_out(rules, SIX, _previous(True), ["Ana"])
    check_sitting_out(rules, SIX, _previous(True), ["Di"])  # the table's 가위바위보 choice
    check_sitting_out(load_ruleset("standard"), SIX, _previous(True), ["Ana"])  # other rules


def test_gwanak_4_plays_diamond_4_and_club_3_in_44_cards():
    from mighty_cli.engine.cards import parse_card

    rules = load_ruleset("gwanak-4")
    deck = rules.deck_cards
    assert len(deck) == 44 and rules.table.kitty_size == 4
    assert parse_card("D4") in deck and parse_card("C3") in deck
    assert parse_card("S4") not in deck and parse_card("H3") not in deck
    assert len(load_ruleset("standard-4").deck_cards) == 43


def test_busan_4_is_4ma_with_gwanak_6s_rules():
    busan, gwanak6, four = (load_ruleset(n) for n in ("busan-4", "gwanak-6", "standard-4"))
    assert busan.table == four.table and busan.friend == four.friend
    assert (busan.election.min_bid, busan.election.no_trump_discount, busan.election.opener) == (
        gwanak6.election.min_bid,
        gwanak6.election.no_trump_discount,
        gwanak6.election.opener,
    )
    assert busan.deal_miss.rank_weights == gwanak6.deal_miss.rank_weights
    assert busan.exchange.raise_to_no_trump == gwanak6.exchange.raise_to_no_trump == 1
