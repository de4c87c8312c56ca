"""`mighty replay` names who the declarer eliminated (6마, 7마, 시흥 은마's player or dummy): a
key of each hand's JSON object, as a record writes it (``eliminated = ["Ed"]``), and a column
of the table where the ruleset eliminates; nothing changes for a five-player ruleset."""

from __future__ import annotations

import json

import pytest

from mighty_cli.cli import cli
from mighty_cli.engine.records import load_record


def simulated(runner, tmp_path, ruleset: str, hands: int = 6, seed: int = 5):
    path = tmp_path / f"{ruleset}.toml"
    result = runner.invoke(
        cli,
        [
            "simulate",
            "--ruleset",
            ruleset,
            "--hands",
            str(hands),
            "--seed",
            str(seed),
            "-o",
            str(path),
        ],
    )
    assert result.exit_code == 0, result.output
    return path


@pytest.mark.parametrize("ruleset", ["standard-6", "standard-7", "siheung-6"])
def test_replay_json_names_the_eliminated(runner, tmp_path, ruleset):
    path = simulated(runner, tmp_path, ruleset)
    result = runner.invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    hands = json.loads(result.output)["hands"]
    record = load_record(path)
    rules_out = {"standard-6": 1, "standard-7": 2, "siheung-6": 1}[ruleset]
    scored = [hand for hand in hands if hand["status"] == "scored"]
    assert scored
    for hand in scored:
        out = hand["eliminated"]
        assert len(out) == rules_out
        for name in out:
            assert name in record.players or name == "dummy" and ruleset == "siheung-6"
            if ruleset != "siheung-6":  # 6마, 7마: the eliminated score nothing
                assert hand["deltas"][name] == 0
        assert hand["declarer"] not in out


def test_replay_table_has_the_eliminated_column_where_the_ruleset_eliminates(runner, tmp_path):
    path = simulated(runner, tmp_path, "siheung-6")
    hands = json.loads(runner.invoke(cli, ["replay", str(path), "--json"]).output)["hands"]
    english = runner.invoke(cli, ["replay", str(path)]).output
    korean = runner.invoke(cli, ["--lang", "ko", "replay", str(path)]).output
    assert "eliminated" in english.splitlines()[1].split()
    assert "탈락" in korean.splitlines()[1].split()
    for hand, line in zip(hands, english.splitlines()[3:]):
        cell = hand.get("eliminated", [""])[0]
        shown = "dummy (은실)" if cell == "dummy" else cell
        assert f"  {shown}  " in line


def test_replay_of_five_players_has_no_eliminated(runner, tmp_path):
    path = simulated(runner, tmp_path, "standard", hands=3)
    result = runner.invoke(cli, ["replay", str(path), "--json"])
    assert all("eliminated" not in hand for hand in json.loads(result.output)["hands"])
    assert "eliminated" not in runner.invoke(cli, ["replay", str(path)]).output
