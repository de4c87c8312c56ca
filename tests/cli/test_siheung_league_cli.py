"""시흥 은마 (table.dummy) at the league's commands: ``mighty record --eliminated`` keeps whose
own hand left (a player, who played the dummy's hand, or the dummy: 은실), ``hand show`` and
``hand list`` show it, ``hand amend`` keeps it, and ``export`` → ``import`` (TOML, JSON, CSV)
and ``backup`` → ``restore`` bring it back; refereed hands (``simulate``) replay, import and
export the same way. Each on SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest

from mighty_cli.cli import cli

FIVE = ["Ana", "Bo", "Cy", "Di", "Ed"]


def _league(runner, db) -> None:
    assert (
        runner.invoke(cli, ["league", "create", "sh", "-r", "siheung-6", "--db", db]).exit_code == 0
    )
    result = runner.invoke(cli, ["session", "start", "-l", "sh", "-p", ",".join(FIVE), "--db", db])
    assert result.exit_code == 0, result.output
    for args in (
        ["-d", "Bo", "-c", "14S", "-f", "Ed", "-t", "16", "-e", "Ed"],
        ["-d", "Bo", "-c", "14S", "-f", "Cy", "-t", "16", "-e", "은실"],
        ["-d", "Cy", "-c", "15S", "-f", "none", "-t", "12", "-e", "Di"],
        ["-d", "Di", "-c", "14H", "-f", "Ana", "-t", "15"],
    ):
        result = runner.invoke(cli, ["record", "-l", "sh", *args, "--db", db])
        assert result.exit_code == 0, result.output


def _hands(runner, db) -> list:
    result = runner.invoke(cli, ["hand", "list", "-l", "sh", "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["hands"]


def _standings(runner, db) -> dict:
    return json.loads(runner.invoke(cli, ["standings", "-l", "sh", "--db", db, "--json"]).output)


EXPECTED = [["Ed"], ["dummy"], ["Di"], None]


def test_record_keeps_who_was_eliminated_and_hand_show_says_it(runner, db):
    _league(runner, db)
    assert [h.get("eliminated") for h in _hands(runner, db)] == EXPECTED
    lines = runner.invoke(cli, ["hand", "show", "-l", "sh", "1", "--db", db]).output.splitlines()
    assert "  eliminated (탈락): Ed" in lines
    lines = runner.invoke(cli, ["hand", "show", "-l", "sh", "2", "--db", db]).output.splitlines()
    assert "  eliminated (탈락): dummy (은실)" in lines
    korean = runner.invoke(cli, ["--lang", "ko", "hand", "show", "-l", "sh", "2", "--db", db])
    assert "  탈락: 더미(은실)" in korean.output.splitlines(), korean.output
    lines = runner.invoke(cli, ["hand", "show", "-l", "sh", "4", "--db", db]).output.splitlines()
    assert not any("탈락" in line for line in lines)  # left unsaid: nothing to show
    shown = json.loads(
        runner.invoke(cli, ["hand", "show", "-l", "sh", "2", "--db", db, "--json"]).output
    )
    assert shown["eliminated"] == ["dummy"]
    listed = runner.invoke(cli, ["hand", "list", "-l", "sh", "--db", db]).output
    assert "Bo 14S with Ed, took 16: made; eliminated (탈락): Ed" in listed
    assert "Bo 14S with Cy, took 16: made; eliminated (탈락): dummy (은실)" in listed
    assert "Di 14H with Ana, took 15: made " in listed  # nothing said: nothing shown
    korean = runner.invoke(cli, ["--lang", "ko", "hand", "list", "-l", "sh", "--db", db]).output
    assert "; 탈락: 더미(은실)" in korean


def test_amend_void_and_unvoid_keep_the_eliminated(runner, db):
    _league(runner, db)
    for args in (
        ["amend", "-l", "sh", "2", "--taken", "17"],
        ["void", "-l", "sh", "1"],
        ["unvoid", "-l", "sh", "1"],
        ["amend", "-l", "sh", "1", "--declarer", "Cy"],
    ):
        result = runner.invoke(cli, ["hand", *args, "--reason", "x", "--db", db])
        assert result.exit_code == 0, result.output
    hands = _hands(runner, db)
    assert [h.get("eliminated") for h in hands] == EXPECTED
    assert hands[1]["taken"] == 17 and hands[0]["declarer"] == "Cy"
    result = runner.invoke(
        cli, ["hand", "amend", "-l", "sh", "3", "--declarer", "Di", "--reason", "x", "--db", db]
    )
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        "Error: hand 3: eliminated: Di is the declarer and cannot be eliminated"
    )
    assert [h.get("eliminated") for h in _hands(runner, db)] == EXPECTED


@pytest.mark.parametrize("suffix", ["toml", "json", "csv"])
def test_export_then_import_keeps_the_eliminated(runner, db, tmp_path, suffix):
    _league(runner, db)
    path = tmp_path / f"sh.{suffix}"
    assert runner.invoke(cli, ["export", "-l", "sh", "-o", str(path), "--db", db]).exit_code == 0
    other = f"sqlite:///{tmp_path / 'other.db'}"
    if suffix == "csv":  # a CSV names no ruleset
        assert (
            runner.invoke(
                cli, ["league", "create", "sh", "-r", "siheung-6", "--db", other]
            ).exit_code
            == 0
        )
    result = runner.invoke(cli, ["import", "-l", "sh", str(path), "--db", other])
    assert result.exit_code == 0, result.output
    assert [h.get("eliminated") for h in _hands(runner, other)] == EXPECTED
    assert _hands(runner, other) == _hands(runner, db)
    assert _standings(runner, other) == _standings(runner, db)


def test_backup_then_restore_keeps_the_eliminated(runner, db, tmp_path):
    _league(runner, db)
    path = tmp_path / "all.jsonl"
    assert runner.invoke(cli, ["backup", "-o", str(path), "--db", db]).exit_code == 0
    other = f"sqlite:///{tmp_path / 'other.db'}"
    result = runner.invoke(cli, ["restore", str(path), "--db", other])
    assert result.exit_code == 0, result.output
    assert _hands(runner, other) == _hands(runner, db)
    lines = runner.invoke(cli, ["hand", "show", "-l", "sh", "2", "--db", other]).output.splitlines()
    assert "  eliminated (탈락): dummy (은실)" in lines


def test_refereed_hands_replay_import_and_export_with_the_eliminated(runner, db, tmp_path):
    record = tmp_path / "sim.toml"
    result = runner.invoke(
        cli,
        [
            "simulate",
            "-r",
            "siheung-6",
            "--hands",
            "40",
            "--seed",
            "3",
            "--players",
            ",".join(FIVE),
            "-o",
            str(record),
        ],
    )
    assert result.exit_code == 0, result.output
    replayed = json.loads(runner.invoke(cli, ["replay", str(record), "--json"]).output)
    assert runner.invoke(cli, ["import", "-l", "sh", str(record), "--db", db]).exit_code == 0
    hands = _hands(runner, db)
    assert [h["deltas"] for h in hands] == [h["deltas"] for h in replayed["hands"]]
    out = [h.get("eliminated") for h in hands]
    assert ["dummy"] in out and any(e and e != ["dummy"] for e in out)
    # Each refereed hand's eliminated is its record's: the holder of the called card.
    exported = tmp_path / "sh.json"
    assert (
        runner.invoke(cli, ["export", "-l", "sh", "-o", str(exported), "--db", db]).exit_code == 0
    )
    data = json.loads(exported.read_text(encoding="utf-8"))
    for hand in data["hands"]:
        calls = hand["record"].get("elimination")
        if calls:
            holder = calls[0].split()[-1]
            assert hand["eliminated"] == ["dummy" if holder in ("dummy", "kitty") else holder]
        else:
            assert "eliminated" not in hand  # a deal miss
    other = f"sqlite:///{tmp_path / 'other.db'}"
    assert runner.invoke(cli, ["import", "-l", "sh", str(exported), "--db", other]).exit_code == 0
    assert _hands(runner, other) == hands
    assert _standings(runner, other) == _standings(runner, db)
