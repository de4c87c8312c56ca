"""The referee, replay and simulate with two jokers (더블 조커 마이티, 경기 2018): a random legal hand
typed through the CLI with known cards (--seed) and with open cards, scored as the engine scores
it; the table names the black joker and says which joker a call calls."""

from __future__ import annotations

import json

import pytest

from mighty_cli.cli import cli
from mighty_cli.engine import hand as engine
from mighty_cli.engine.cards import BLACK_JOKER, JOKER, parse_bid, parse_card
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.table.view import action_words, pretty_card, pretty_play
from test_referee_sizes import referee_one_hand

TWO_JOKERS = ["double-joker", "gyeonggi-2018"]


@pytest.mark.parametrize("open_cards", [False, True], ids=["full-cards", "open-cards"])
@pytest.mark.parametrize("ruleset", TWO_JOKERS)
def test_referee_plays_a_two_joker_hand(runner, tmp_path, ruleset, open_cards):
    rules, state, saved, output = referee_one_hand(runner, tmp_path, ruleset, open_cards)
    expected = engine.hand_result(state).deltas
    replayed = json.loads(runner.invoke(cli, ["replay", str(saved), "--json"]).output)
    assert replayed["hands"][0]["deltas"] == expected
    assert sum(expected.values()) == 0
    played = {play.card for trick in state.tricks for _player, play in trick.plays}
    if BLACK_JOKER in played:
        assert "black joker" in output
    if not open_cards:  # the declarer took a kitty of four and discarded four
        discard = next(a for a in state.history if isinstance(a, engine.Discard))
        assert len(discard.cards) == rules.table.kitty_size == 4


def test_table_names_both_jokers_and_the_joker_a_call_calls():
    assert pretty_card(BLACK_JOKER) == "black joker"
    assert pretty_card(JOKER) == "joker"
    rules = load_ruleset("double-joker")
    players = ("Ana", "Bo", "Cy", "Di", "Ed")
    deal = engine.deal_cards(7, players, rules.deck_cards)
    state = engine.new_hand(rules, players, "Ana", deal, opener="Ana")
    state = engine.apply(state, engine.BidCall("Ana", parse_bid("13S")))
    for player in players[1:]:
        state = engine.apply(state, engine.BidCall(player, None))
    state = engine.apply(state, engine.Discard(tuple(deal["kitty"])))
    state = engine.apply(state, engine.CallFriend(engine.FriendCall("card", BLACK_JOKER)))
    assert action_words(None, state.history[-1]) == "the friend call (the black joker)"
    c3, h3 = parse_card("C3"), parse_card("H3")
    assert pretty_play(engine.Play("Ana", c3, None, True), state) == "♣3 (calls the black joker)"
    assert pretty_play(engine.Play("Ana", h3, None, True), state) == "♥3 (calls the colour joker)"
    # one joker: the call is just the joker call
    one = engine.new_hand(load_ruleset("standard"), players, "Ana", engine.deal_cards(7, players))
    assert pretty_play(engine.Play("Ana", c3, None, True), one) == "♣3 (joker call)"


@pytest.mark.parametrize("ruleset", TWO_JOKERS)
def test_simulate_then_replay_two_jokers(runner, tmp_path, ruleset):
    out = tmp_path / "sim.toml"
    result = runner.invoke(
        cli,
        ["simulate", "--ruleset", ruleset, "--hands", "30", "--seed", "3", "--output", str(out)],
    )
    assert result.exit_code == 0, result.output
    replayed = runner.invoke(cli, ["replay", str(out), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert "BJ" in out.read_text(encoding="utf-8")  # the black joker was dealt and recorded
    assert (
        json.loads(replayed.output)["totals"]
        == json.loads(
            runner.invoke(
                cli,
                [
                    "simulate",
                    "--ruleset",
                    ruleset,
                    "--hands",
                    "30",
                    "--seed",
                    "3",
                    "--output",
                    str(tmp_path / "again.toml"),
                    "--json",
                ],
            ).output
        )["totals"]
    )
