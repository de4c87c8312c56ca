"""Every file in examples/ replays cleanly and shows the feature it is named for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mighty_cli.cli import cli
from mighty_cli.engine.cards import JOKER, SPADES, parse_card
from mighty_cli.engine.records import load_record, replay

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def only_hand(name: str):
    result = replay(load_record(EXAMPLES / f"{name}.toml"))
    assert len(result.hands) == 1
    return result.hands[0]


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_example_replays_and_sums_to_zero(path):
    result = replay(load_record(path))
    assert result.hands
    assert sum(result.totals.values()) + result.pot == 0


def test_run_example():
    hand = only_hand("run")
    assert hand.taken == 20 and "run" in hand.score.doublings


def test_back_run_example():
    assert "back_run" in only_hand("back-run").score.doublings


def test_no_trump_example():
    hand = only_hand("no-trump")
    assert hand.contract.trump is None and "no_trump" in hand.score.doublings


def test_no_friend_example():
    hand = only_hand("no-friend")
    assert hand.friend is None and "no_friend" in hand.score.doublings
    assert hand.score.success


def test_joker_call_example_is_answered_with_mighty():
    hand = only_hand("joker-call")
    mighty = parse_card(hand.state.rules.cards.mighty)
    assert hand.contract.trump != SPADES  # so Mighty is SA
    calls = [t for n, t in enumerate(hand.state.tricks, 1) if n > 1 and t.plays[0][1].joker_call]
    assert calls
    assert any(play.card == mighty for _, play in calls[0].plays[1:])


def test_first_trick_joker_example():
    first = only_hand("first-trick-joker").state.tricks[0]
    assert any(play.card == JOKER for _, play in first.plays)
    assert first.winner != next(p for p, play in first.plays if play.card == JOKER)


def test_trump_change_example_raised_by_two():
    hand = only_hand("trump-change")
    assert hand.state.bid.trump != hand.contract.trump
    assert hand.contract.number == hand.state.bid.number + 2


def test_first_trick_friend_example():
    hand = only_hand("first-trick-friend")
    assert hand.state.friend_call.kind == "first_trick"
    assert hand.friend == hand.state.tricks[0].winner


def test_deal_miss_example():
    assert only_hand("deal-miss").status == "deal_miss"


def test_club_ruleset_example_uses_the_no_trump_discount():
    hand = only_hand("seoul-science")
    assert hand.state.rules.name == "seoul-science"
    assert hand.contract.number == 13 and hand.contract.trump is None  # below the minimum of 14


def test_readme_tour_replays_an_example(runner):
    result = runner.invoke(cli, ["replay", str(EXAMPLES / "run.toml"), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["hands"][0]["doublings"] == ["run"]
