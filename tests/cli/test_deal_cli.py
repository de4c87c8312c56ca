"""`mighty deal --seed N`: reproducible deals as a hand record."""

from __future__ import annotations

from mighty_cli.cli import cli
from mighty_cli.engine.records import read_record, replay


def deal(runner, *args):
    result = runner.invoke(cli, ["deal", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_same_seed_same_deals(runner):
    assert deal(runner, "--seed", "42", "--hands", "3") == deal(
        runner, "--seed", "42", "--hands", "3"
    )


def test_different_seeds_differ_and_hands_differ(runner):
    record = read_record(deal(runner, "--seed", "1", "--hands", "2"))
    other = read_record(deal(runner, "--seed", "2", "--hands", "2"))
    assert record.hands[0]["deal"] != other.hands[0]["deal"]
    assert record.hands[0]["deal"] != record.hands[1]["deal"]


def test_dealt_record_replays_as_hands_in_progress(runner):
    text = deal(
        runner,
        "--seed",
        "7",
        "--players",
        "민수,Bo,Cy,Di,Ed",
        "--hands",
        "2",
        "--ruleset",
        "sejong",
    )
    record = read_record(text)
    assert record.ruleset == "sejong" and record.players[0] == "민수"
    assert [h.status for h in replay(record).hands] == ["in_progress", "in_progress"]
    cards = [c for who, text in record.hands[0]["deal"].items() for c in text.split()]
    assert len(cards) == len(set(cards)) == 53


def test_deal_writes_a_file(runner, tmp_path):
    path = tmp_path / "tonight.toml"
    assert "wrote 1 hand to" in deal(runner, "--seed", "3", "-o", str(path))
    assert path.read_text(encoding="utf-8").startswith("# dealt by: mighty deal --seed 3")


def test_deal_needs_five_distinct_players(runner):
    result = runner.invoke(cli, ["deal", "--seed", "1", "--players", "A,B,C,D,A"])
    assert result.exit_code == 2
