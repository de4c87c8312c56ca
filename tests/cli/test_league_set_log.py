"""Issue 35, item 19: `league set --lang/--timezone --reason` logs why and the value before
(null when the league had none), and ranking keys given twice are kept once, so what a league
keeps always fits its column (and restores)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mighty_cli.cli import cli


def ok(db: str, *args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--db", db])
    assert result.exit_code == 0, result.output
    return result.output


def settings_logged(db: str) -> list[tuple]:
    log = json.loads(ok(db, "hand", "log", "-l", "cup", "--json"))
    return [
        (e["why"], e["before"], e["after"]) for e in log["changes"] if e["action"] == "league set"
    ]


def test_league_set_logs_its_reason_and_the_value_before(db):
    ok(db, "league", "create", "cup", "-r", "standard")
    ok(db, "league", "set", "cup", "--timezone", "Asia/Seoul", "--reason", "we meet in Seoul")
    ok(
        db,
        "league",
        "set",
        "cup",
        "--timezone",
        "Europe/Berlin",
        "--lang",
        "ko",
        "--reason",
        "moved",
    )
    assert settings_logged(db) == [
        ("we meet in Seoul", {"timezone": None}, {"timezone": "Asia/Seoul"}),
        ("moved", {"lang": None}, {"lang": "ko"}),
        ("moved", {"timezone": "Asia/Seoul"}, {"timezone": "Europe/Berlin"}),
    ]


def test_a_ranking_key_given_twice_is_kept_once(db):
    ok(db, "league", "create", "cup", "-r", "standard")
    said = ok(
        db,
        "league",
        "set",
        "cup",
        "--rank-by",
        ",".join(["score_per_hand"] * 30 + ["name", "score_per_hand"]),
    )
    assert said == "League 'cup': min hands 0, rank by score_per_hand,name\n"
