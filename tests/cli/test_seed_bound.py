"""Issue 35, item 17: every seed is bounded the same on every command and database (at most
39 digits, engine/limits.py), at the option: a longer one is a usage error (exit 2, one error
line) before anything is stored, and the longest one a league stores backs up and restores."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mighty_cli.cli import cli
from mighty_cli.engine.limits import SEED_LIMIT, SEED_MAX_DIGITS

FORTY = str(10**SEED_MAX_DIGITS)  # 40 digits
TEN = "Ana,Bo,Cy,Di,Ed,Fay,Gil,Hu,Ida,Jo"


def mighty(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize(
    "args",
    [
        ["round", "start", "-l", "cup", "-p", TEN, "--seed", FORTY],
        ["round", "start", "-l", "cup", "-p", TEN, "--duplicate", "--seed", "-" + FORTY],
        ["round", "reseat", "-l", "cup", "--seed", FORTY],
        ["referee", "--players", "Ana,Bo,Cy,Di,Ed", "--seed", FORTY],
        ["deal", "--seed", FORTY],
        ["simulate", "-r", "standard", "--hands", "1", "--seed", FORTY, "-o", "x.toml"],
        ["session", "start", "-l", "cup", "-p", "Ana,Bo,Cy,Di,Ed", "--shuffle", "--seed", FORTY],
    ],
)
def test_a_seed_of_forty_digits_is_a_usage_error(tmp_path, args):
    result = mighty(
        *args, *(["--db", str(tmp_path / "none.db")] if args[0] in ("round", "session") else [])
    )
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and errors[0].startswith("Error: Invalid value for '--seed': ")
    assert errors[0].endswith(f"...: a seed has at most {SEED_MAX_DIGITS} digits"), errors
    assert not (tmp_path / "none.db").exists()


def test_the_longest_seed_is_stored_backed_up_and_restored(db, tmp_path):
    seed = str(-SEED_LIMIT)  # 39 digits and a sign: 40 characters, what the column holds
    assert mighty("league", "create", "cup", "-r", "standard", "--db", db).exit_code == 0
    started = mighty(
        "round", "start", "-l", "cup", "-p", TEN, "--duplicate", "--seed", seed, "--db", db
    )
    assert started.exit_code == 0, started.output
    assert mighty("backup", "-o", str(tmp_path / "b.jsonl"), "--db", db).exit_code == 0
    restored = mighty("restore", str(tmp_path / "b.jsonl"), "--db", str(tmp_path / "r.db"))
    assert restored.exit_code == 0, restored.output
    shown = mighty("round", "show", "-l", "cup", "--json", "--db", str(tmp_path / "r.db"))
    assert shown.exit_code == 0 and json.loads(shown.output)["duplicate"]["seed"] == -SEED_LIMIT
