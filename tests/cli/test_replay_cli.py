"""`mighty replay`: the acceptance interface (docs/record-format.md), and violations in files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mighty_cli.cli import cli
from mighty_cli.engine import hand as engine
from mighty_cli.engine.cards import JOKER, format_card
from mighty_cli.engine.records import dump_record, load_record, replay

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def write(tmp_path, record, name="bad.toml") -> Path:
    path = tmp_path / name
    path.write_text(dump_record(record), encoding="utf-8")
    return path


def revoke_record(example: str = "run"):
    """The example with two of one player's cards swapped so that he fails to follow suit;
    returns (record, trick number, player, card)."""
    record = load_record(EXAMPLES / f"{example}.toml")
    state = replay(record).hands[0].state
    tricks = [t.split() for t in record.hands[0]["tricks"]]
    for number, trick in enumerate(state.tricks, 1):
        led = trick.plays[0][1]
        led_suit = led.joker_suit if led.card == JOKER else led.card >> 4
        for position, (player, play) in enumerate(trick.plays[1:], 1):
            if play.card >> 4 != led_suit or play.card == JOKER:
                continue
            for later_number, later in enumerate(state.tricks[number:], number + 1):
                for later_position, (who, other) in enumerate(later.plays):
                    if (
                        who == player
                        and other.card >> 4 not in (led_suit, 4)
                        and later_position > 0
                        and other.card != engine.mighty_card(state.rules, state.contract.trump)
                    ):
                        tricks[number - 1][position], tricks[later_number - 1][later_position] = (
                            tricks[later_number - 1][later_position],
                            tricks[number - 1][position],
                        )
                        record.hands[0]["tricks"] = [" ".join(t) for t in tricks]
                        return record, number, player, format_card(other.card)
    raise AssertionError("no revoke could be built")


def test_replay_json_acceptance_keys(runner):
    result = runner.invoke(cli, ["replay", str(EXAMPLES / "no-trump.toml"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    (hand,) = data["hands"]
    assert hand["status"] == "scored"
    assert set(hand) >= {
        "status",
        "declarer",
        "contract",
        "friend",
        "taken",
        "base",
        "multiplier",
        "deltas",
    }
    assert hand["contract"].endswith("NT")
    assert data["totals"] == hand["deltas"] and sum(data["totals"].values()) == 0


@pytest.mark.parametrize("name, status", [("deal-miss", "deal_miss"), ("run", "scored")])
def test_replay_statuses(runner, name, status):
    result = runner.invoke(cli, ["replay", str(EXAMPLES / f"{name}.toml"), "--json"])
    assert json.loads(result.output)["hands"][0]["status"] == status


def test_replay_in_progress_hand(runner, tmp_path):
    record = load_record(EXAMPLES / "run.toml")
    record.hands[0]["tricks"] = record.hands[0]["tricks"][:3] + [
        " ".join(record.hands[0]["tricks"][3].split()[:2])
    ]
    result = runner.invoke(cli, ["replay", str(write(tmp_path, record)), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["hands"][0]["status"] == "in_progress"


def test_replay_redeal_when_everyone_passes(runner, tmp_path):
    record = load_record(EXAMPLES / "run.toml")
    hand = record.hands[0]
    opener = hand["election"][0].split()[0]
    order = (
        record.players[record.players.index(opener) :]
        + record.players[: record.players.index(opener)]
    )
    for key in ("discard", "contract", "friend", "tricks"):
        hand.pop(key, None)
    hand["election"] = [f"{p} pass" for p in order]
    result = runner.invoke(cli, ["replay", str(write(tmp_path, record)), "--json"])
    assert json.loads(result.output)["hands"][0]["status"] == "redeal", result.output


def test_replay_revoke_exits_1_naming_hand_trick_player_card_and_rule(runner, tmp_path):
    record, number, player, card = revoke_record()
    path = write(tmp_path, record)
    before = sorted(p.name for p in tmp_path.iterdir())
    result = runner.invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1
    message = result.output.strip()
    assert len(message.splitlines()) == 1 and "Traceback" not in message
    assert message.startswith(f"Error: hand 1, trick {number}: {player}")
    assert card in message and "follow suit" in message
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written


@pytest.mark.parametrize(
    "change, expected",
    [
        (
            lambda h: h["tricks"].__setitem__(
                0, " ".join(h["tricks"][0].split()[:4] + [h["tricks"][0].split()[0]])
            ),
            "hand 1, trick 1:",
        ),  # a card played twice
        (
            lambda h: (
                h.__setitem__("discard", "SA SK SQ")
                if "SA" not in h["discard"]
                else h.__setitem__("discard", "C2 C3 C4")
            ),
            "hand 1: ",
        ),  # discards not held
        (lambda h: h.__setitem__("taken", 3), "hand 1: taken = 3 is impossible"),
        (lambda h: h["election"].insert(1, h["election"][0]), "hand 1: election:"),
    ],
)
def test_replay_other_violations_are_one_line_errors(runner, tmp_path, change, expected):
    record = load_record(EXAMPLES / "run.toml")
    change(record.hands[0])
    result = runner.invoke(cli, ["replay", str(write(tmp_path, record))])
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: " + expected), result.output
    assert len(result.output.strip().splitlines()) == 1


def test_replay_wrong_raise_is_rejected(runner, tmp_path):
    record = load_record(EXAMPLES / "trump-change.toml")
    hand = record.hands[0]
    number = int(hand["contract"][:-1]) - 1  # one short of the +2 raise
    hand["contract"] = f"{number}{hand['contract'][-1]}"
    result = runner.invoke(cli, ["replay", str(write(tmp_path, record))])
    assert result.exit_code == 1
    assert result.output.startswith("Error: hand 1: ") and "raise" in result.output


def test_replay_missing_file_is_a_usage_or_rule_error(runner, tmp_path):
    result = runner.invoke(cli, ["replay", str(tmp_path / "nope.toml")])
    assert result.exit_code == 1
    assert "nope.toml" in result.output and "Traceback" not in result.output


def test_replay_text_output_has_totals(runner):
    result = runner.invoke(cli, ["replay", str(EXAMPLES / "joker-call.toml")])
    assert result.exit_code == 0
    assert "totals" in result.output
