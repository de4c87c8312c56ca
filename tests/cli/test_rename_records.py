"""A player renamed or merged is renamed in the stored records of his refereed hands too
(issue 21, item 2): exports import back in every format, and hand pages show the new name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mighty_cli.cli import cli
from mighty_cli.engine.records.file import renamed_hand

RUN = Path(__file__).resolve().parents[2] / "examples" / "run.toml"


def _standings(runner, db, league) -> dict:
    out = runner.invoke(cli, ["standings", "-l", league, "--db", db, "--json"])
    assert out.exit_code == 0, out.output
    return {p["name"]: p["score"] for p in json.loads(out.output)["players"]}


def _ok(runner, *args):
    result = runner.invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.parametrize("form", ["toml", "json", "csv"])
def test_an_export_after_renames_imports_back(runner, db, tmp_path, form):
    _ok(runner, "import", str(RUN), "--league", "R", "--db", db)
    _ok(runner, "player", "rename", "Ed", "Ed Kim", "--db", db)  # a name with a space
    _ok(runner, "player", "rename", "Di", "Ed", "--db", db)  # the old name, now someone else
    _ok(runner, "player", "rename", "민수", "김민수", "--db", db)
    path = tmp_path / f"r.{form}"
    _ok(runner, "export", "-l", "R", "--format", form, "-o", str(path), "--db", db)
    if form == "csv":
        _ok(runner, "league", "create", "Back", "-r", "standard", "--db", db)
    _ok(runner, "import", str(path), "--league", "Back", "--db", db)
    assert _standings(runner, db, "Back") == _standings(runner, db, "R")
    assert set(_standings(runner, db, "R")) == {"김민수", "Bo", "Cy", "Ed", "Ed Kim"}


def test_a_merged_players_records_name_the_kept_player(runner, db, tmp_path):
    _ok(runner, "import", str(RUN), "--league", "R", "--db", db)
    _ok(runner, "player", "add", "Eddie", "--db", db)
    _ok(runner, "player", "merge", "Ed", "Eddie", "--db", db)
    shown = _ok(runner, "hand", "show", "-l", "R", "1", "--db", db).output
    assert '"Eddie 14D"' in shown and "Ed =" not in shown
    path = tmp_path / "r.toml"
    _ok(runner, "export", "-l", "R", "-o", str(path), "--db", db)
    _ok(runner, "import", str(path), "--league", "Back", "--db", db)
    assert _standings(runner, db, "Back") == _standings(runner, db, "R")


def test_renamed_hand_matches_whole_names_only():
    hand = {
        "players": ["Ed", "Ed Kim", "Bo", "Cy", "Di"],
        "dealer": "Ed Kim",
        "election": ["Ed Kim 13S", "Ed pass", "Bo 14S"],
        "friend": "player:Ed",
        "deal": {"Ed": "SA", "Ed Kim": "SK", "kitty": "C2"},
        "elimination": ["D6 Ed", "D7 Ed Kim", "HK kitty"],
        "eliminated": ["Ed"],
    }
    renamed = renamed_hand(hand, "Ed", "Eddie")
    assert renamed == {
        "players": ["Eddie", "Ed Kim", "Bo", "Cy", "Di"],
        "dealer": "Ed Kim",
        "election": ["Ed Kim 13S", "Eddie pass", "Bo 14S"],
        "friend": "player:Eddie",
        "deal": {"Eddie": "SA", "Ed Kim": "SK", "kitty": "C2"},
        "elimination": ["D6 Eddie", "D7 Ed Kim", "HK kitty"],
        "eliminated": ["Eddie"],
    }
