"""`mighty simulate`: random legal hands written as a record that `mighty replay` scores to the
same totals, for every bundled ruleset and table size."""

from __future__ import annotations

import json

import pytest

from mighty_cli.cli import cli
from mighty_cli.engine.ruleset import bundled_names


def simulate(runner, tmp_path, *args, name="sim.toml"):
    path = tmp_path / name
    result = runner.invoke(cli, ["simulate", *args, "-o", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return path, json.loads(result.output)


def replay_json(runner, path):
    result = runner.invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize("ruleset", bundled_names())
def test_simulate_then_replay_gives_the_same_totals(runner, tmp_path, ruleset):
    path, sim = simulate(runner, tmp_path, "--ruleset", ruleset, "--hands", "40", "--seed", "5")
    replayed = replay_json(runner, path)
    assert sim["hands"] == len(replayed["hands"]) == 40
    assert replayed["totals"] == sim["totals"]
    assert replayed["pot"] == sim["pot"]
    statuses = [hand["status"] for hand in replayed["hands"]]
    assert {status: statuses.count(status) for status in set(statuses)} == sim["statuses"]
    assert sum(sim["contracts"].values()) == sim["statuses"].get("scored", 0)
    assert sum(sim["friend_kinds"].values()) == sim["statuses"].get("scored", 0)


@pytest.mark.parametrize("ruleset", ["standard", "seoul-science", "sungkyunkwan", "minsa"])
@pytest.mark.parametrize("present", [6, 7])
def test_six_or_seven_present_sit_out_in_turn(runner, tmp_path, ruleset, present):
    names = ",".join(["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus"][:present])
    path, sim = simulate(
        runner, tmp_path, "--ruleset", ruleset, "--hands", "30", "--seed", "2", "--players", names
    )
    replayed = replay_json(runner, path)
    assert replayed["totals"] == sim["totals"]
    assert len(sim["totals"]) == present
    # everyone sat out at least once in thirty hands
    from mighty_cli.engine.records import load_record

    record = load_record(path)
    for name in names.split(","):
        assert any(name not in hand["players"] for hand in record.hands), name


def test_same_seed_same_record(runner, tmp_path):
    first, _ = simulate(
        runner, tmp_path, "-r", "standard", "--hands", "20", "--seed", "9", name="a.toml"
    )
    second, _ = simulate(
        runner, tmp_path, "-r", "standard", "--hands", "20", "--seed", "9", name="b.toml"
    )
    other, _ = simulate(
        runner, tmp_path, "-r", "standard", "--hands", "20", "--seed", "10", name="c.toml"
    )
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8")
    assert first.read_text(encoding="utf-8") != other.read_text(encoding="utf-8")


def test_simulated_deals_are_those_of_mighty_deal(runner, tmp_path):
    from mighty_cli.engine.records import load_record, read_record

    path, _ = simulate(runner, tmp_path, "-r", "standard", "--hands", "3", "--seed", "42")
    dealt = runner.invoke(cli, ["deal", "--seed", "42", "--hands", "3"])
    assert dealt.exit_code == 0, dealt.output
    assert [hand["deal"] for hand in load_record(path).hands] == [
        hand["deal"] for hand in read_record(dealt.output).hands
    ]


def test_text_output_counts_contracts_friend_calls_runs_and_back_runs(runner, tmp_path):
    path = tmp_path / "sim.toml"
    result = runner.invoke(
        cli, ["simulate", "-r", "standard", "--hands", "50", "--seed", "1", "-o", str(path)]
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"wrote 50 hands to {path}")
    for heading in ("contract", "friend call", "doubling", "run", "back_run", "totals"):
        assert heading in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "A,B,C,D"], "expected 5 to 7 distinct names"),
        (["--players", "A,B,C,D,A"], "expected 5 to 7 distinct names"),
        (["--hands", "0"], "--hands"),
    ],
)
def test_bad_arguments_are_usage_errors(runner, tmp_path, args, message):
    base = {"--players": "A,B,C,D,E", "--hands": "5"}
    base.update(dict(zip(args[::2], args[1::2])))
    argv = ["simulate", "-r", "standard", "--seed", "1", "-o", str(tmp_path / "x.toml")]
    for key, value in base.items():
        argv += [key, value]
    result = runner.invoke(cli, argv)
    assert result.exit_code == 2
    assert message in result.output
    assert not (tmp_path / "x.toml").exists()


def test_unknown_ruleset_is_one_line(runner, tmp_path):
    result = runner.invoke(
        cli,
        [
            "simulate",
            "-r",
            "nowhere",
            "--hands",
            "2",
            "--seed",
            "1",
            "-o",
            str(tmp_path / "x.toml"),
        ],
    )
    assert result.exit_code == 1
    assert len(result.output.strip().splitlines()) == 1


# --- mighty deal and replay for every table size ------------------------------------------------


@pytest.mark.parametrize(
    "ruleset, players, hand, kitty",
    [
        ("standard-2", 2, 10, 2),
        ("standard-3", 3, 10, 3),
        ("standard-4", 4, 10, 3),
        ("standard", 5, 10, 3),
        ("standard-6", 6, 8, 5),
        ("standard-7", 7, 7, 4),
    ],
)
def test_deal_gives_every_table_size_its_hands_and_kitty(runner, ruleset, players, hand, kitty):
    from mighty_cli.engine.records import read_record, replay

    result = runner.invoke(cli, ["deal", "--seed", "3", "--ruleset", ruleset, "--hands", "2"])
    assert result.exit_code == 0, result.output
    record = read_record(result.output)
    assert len(record.players) == players
    deal = record.hands[0]["deal"]
    assert [len(deal[p].split()) for p in record.players] == [hand] * players
    assert len(deal["kitty"].split()) == kitty
    assert {outcome.status for outcome in replay(record).hands} == {"in_progress"}


def test_deal_players_must_match_the_table(runner):
    result = runner.invoke(
        cli, ["deal", "--seed", "3", "--ruleset", "standard-4", "--players", "A,B,C,D,E"]
    )
    assert result.exit_code == 2
    assert "expected 4 distinct names (table.players of standard-4)" in result.output


@pytest.mark.parametrize("ruleset", ["standard-6", "standard-7", "standard-4", "standard-3"])
def test_simulate_with_players_sitting_out_of_every_size(runner, tmp_path, ruleset):
    from mighty_cli.engine.ruleset import load_ruleset

    n = load_ruleset(ruleset).table.players
    names = ",".join(["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy"][: n + 1])
    path, sim = simulate(
        runner, tmp_path, "--ruleset", ruleset, "--hands", "20", "--seed", "4", "--players", names
    )
    assert replay_json(runner, path)["totals"] == sim["totals"]


def test_a_simulation_written_hand_by_hand_is_the_whole_records_text(tmp_path):
    """simulate writes each hand as it is played (flat memory at any count): the file is
    exactly dump_record of the whole simulation, and replays."""
    from click.testing import CliRunner

    from mighty_cli.cli import cli
    from mighty_cli.engine.records import dump_record
    from mighty_cli.engine.ruleset import load_ruleset
    from mighty_cli.engine.simulation import simulate

    out = tmp_path / "six.toml"
    result = CliRunner().invoke(
        cli,
        [
            "simulate",
            "-r",
            "standard",
            "--hands",
            "40",
            "--seed",
            "3",
            "--players",
            "A,B,C,D,E,F",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    whole = simulate(load_ruleset("standard"), "standard", list("ABCDEF"), 40, 3)
    assert out.read_text(encoding="utf-8") == (
        "# simulated by: mighty simulate --ruleset standard --hands 40 --seed 3\n"
        + dump_record(whole.record)
    )
    assert CliRunner().invoke(cli, ["replay", str(out)]).exit_code == 0
