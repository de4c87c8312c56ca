"""Issue 9, item 1: each input that used to end in ``internal error`` (exit 3) is one clear line
with exit 1 (or 2 for usage), and a failed command changes nothing in the database."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from promises import FIVE, RECORDED, ROOT, error_line, invoke, record_file, ruleset_file, snapshot

CUSTOM = '[scoring]\nformula = "custom"\nfailure = "bid - taken"\nsuccess = "{}"\n'


# --- deeply nested TOML ---------------------------------------------------------------------------


def deep(levels: int = 5000) -> str:
    return "x = " + "[" * levels + "]" * levels + "\n"


def test_deeply_nested_toml_in_a_ruleset_is_one_line(tmp_path):
    message = error_line(invoke("ruleset", "check", ruleset_file(tmp_path, deep())))
    assert message == "club.toml: tables or arrays nested more than 12 deep"


def test_deeply_nested_toml_in_a_record_is_one_line(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text(deep(), encoding="utf-8")
    assert error_line(invoke("replay", str(path))).endswith("nested more than 12 deep")


def test_nesting_too_shallow_for_the_parser_to_fail_is_still_refused(tmp_path):
    body = RECORDED.replace("taken = 16", "taken = 16\nnote = " + "[" * 40 + "]" * 40)
    assert error_line(invoke("replay", record_file(tmp_path, body))).endswith(
        "nested more than 12 deep"
    )


# --- the formula language -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "formula, complaint",
    [
        ("(" * 1000 + "taken" + ")" * 1000, "characters long"),
        ("(" * 60 + "taken" + ")" * 60, "nests more than 32 levels"),
        ("+".join(["taken"] * 2000), "characters long"),
        ("+".join(["1"] * 300), "at most 200 are allowed"),
        ("- " * 40 + "taken", "nests more than 32 levels"),
        ("*".join(["99999999"] * 60), "reached a number of"),  # 480 digits unbounded
        ("*".join(["9999999999"] * 31), "reached a number of"),  # over 1e308
        ("1152921504606846976", "too large or too fine"),
        ("0." + "0" * 30 + "1", "too large or too fine"),
    ],
)
def test_a_formula_beyond_its_bounds_fails_check_in_one_line(tmp_path, formula, complaint):
    message = error_line(invoke("ruleset", "check", ruleset_file(tmp_path, CUSTOM.format(formula))))
    assert message.startswith("club.toml: scoring.success") and complaint in message


# --- integers above 2**63 as arguments ------------------------------------------------------------

HUGE = "99999999999999999999"


@pytest.mark.parametrize(
    "args",
    [
        ("hand", "show", "-l", "tue", HUGE),
        ("hand", "list", "-l", "tue", "--session", HUGE),
        ("hand", "list", "-l", "tue", "--last", HUGE),
        ("hand", "log", "-l", "tue", "--limit", HUGE),
        ("hand", "void", "-l", "tue", HUGE, "--reason", "x"),
        ("hand", "unvoid", "-l", "tue", HUGE, "--reason", "x"),
        ("hand", "amend", "-l", "tue", HUGE, "--taken", "14", "--reason", "x"),
        ("session", "end", "-l", "tue", "--session", HUGE),
        ("session", "show", "-l", "tue", "--session", HUGE),
        (
            "record",
            "-l",
            "tue",
            "--session",
            HUGE,
            "--declarer",
            "Ana",
            "--contract",
            "15D",
            "--friend",
            "Bo",
            "--taken",
            "16",
        ),
        ("league", "set", "tue", "--min-hands", HUGE),
    ],
)
def test_an_integer_argument_above_2_63_is_a_usage_error(db, args):
    assert invoke("league", "create", "tue", "-r", "standard", "--db", db).exit_code == 0
    assert invoke("session", "start", "-l", "tue", "-p", ",".join(FIVE), "--db", db).exit_code == 0
    before = snapshot(db)
    message = error_line(invoke(*args, "--db", db), codes=(2,))
    assert "2147483647" in message
    assert snapshot(db) == before


# --- unwritable output paths ------------------------------------------------------------------------


@pytest.fixture
def season_db(tmp_path):
    db = f"sqlite:///{tmp_path / 'season.db'}"
    assert (
        invoke("import", str(ROOT / "examples" / "season.toml"), "-l", "demo", "--db", db).exit_code
        == 0
    )
    return db


def test_standings_page_into_a_missing_folder_is_one_line(season_db, tmp_path):
    target = tmp_path / "nonexistent" / "x.html"
    message = error_line(
        invoke("standings", "-l", "demo", "--html", str(target), "--db", season_db)
    )
    assert message == f"cannot write {target}: No such file or directory"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("fmt", ["toml", "csv", "json"])
def test_export_to_a_full_disk_is_one_line(season_db, fmt):
    message = error_line(
        invoke("export", "-l", "demo", "--format", fmt, "-o", "/dev/full", "--db", season_db)
    )
    assert message == "cannot write /dev/full: No space left on device"


def test_deal_into_a_missing_folder_is_one_line(tmp_path):
    target = tmp_path / "no" / "deal.toml"
    assert error_line(invoke("deal", "--seed", "1", "-o", str(target))).startswith(
        f"cannot write {target}"
    )
    assert not target.parent.exists()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_standard_output_on_a_full_disk_is_one_line():
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "mighty_cli", "ruleset", "show", "standard"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert done.stderr.splitlines() == ["Error: No space left on device"]


# --- nan and inf in a ruleset ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, key",
    [
        ("[scoring]\nscale = nan\n", "scoring.scale = nan"),
        ("[scoring]\nscale = inf\n", "scoring.scale = inf"),
        ("[deal_miss]\nthreshold = inf\n", "deal_miss.threshold = inf"),
        ("[deal_miss]\nthreshold = -inf\n", "deal_miss.threshold = -inf"),
        ("[deal_miss]\njoker_weight = nan\n", "deal_miss.joker_weight = nan"),
        ("[deal_miss]\nrank_weights = { A = nan }\n", "deal_miss.rank_weights"),
        ("[deal_miss]\ncard_weights = { SJ = inf }\n", "deal_miss.card_weights"),
    ],
)
def test_nan_and_inf_fail_ruleset_check(tmp_path, text, key):
    message = error_line(invoke("ruleset", "check", ruleset_file(tmp_path, text)))
    assert message.startswith(f"club.toml: {key}")


# --- wrong types inside a hand --------------------------------------------------------------------


@pytest.mark.parametrize(
    "change, expected",
    [
        (('friend = "Bo"', "friend = 1"), "hand 1: friend = 1: expected a player's name"),
        (
            ('declarer = "Ana"', 'declarer = "Ana"\nplayers = [{x = 1}, "Bo", "Cy", "Di", "Ed"]'),
            "hand 1: players: expected a list of the five players' names",
        ),
        (
            ("taken = 16", "taken = 16\nnote = {a = 1}"),
            "hand 1: note = {'a': 1}: expected a string",
        ),
        (('contract = "15D"', "contract = 15"), "hand 1: contract = 15: expected a bid"),
        (
            ("taken = 16", "taken = 16\ndealer = [1]"),
            "hand 1: dealer = [1]: expected a player's name",
        ),
        (("taken = 16", "taken = 16\nsession = {a = 1}"), "hand 1: session = {'a': 1}: expected"),
        (("taken = 16", "taken = 16\ndate = 3.5"), "hand 1: date = 3.5: expected a date"),
        (("taken = 16", "taken = 16\ndeal = { Ana = 1 }"), "hand 1: deal: expected a table"),
        (
            ("taken = 16", "taken = 16\nelection = [1]"),
            "hand 1: election: expected a list of calls",
        ),
    ],
)
def test_wrong_types_inside_a_hand_are_one_line(tmp_path, change, expected):
    path = record_file(tmp_path, RECORDED.replace(*change))
    message = error_line(invoke("replay", path))
    assert message.startswith(f"{path}: {expected}")


def test_wrong_types_inside_a_hand_leave_the_league_unchanged(db, tmp_path):
    assert (
        invoke("import", str(ROOT / "examples" / "season.toml"), "-l", "demo", "--db", db).exit_code
        == 0
    )
    before = snapshot(db)
    path = record_file(tmp_path, RECORDED.replace("taken = 16", "taken = 16\nnote = {a = 1}"))
    error_line(invoke("import", path, "-l", "demo", "--again", "--db", db))
    assert snapshot(db) == before


# --- endless files ------------------------------------------------------------------------------


@pytest.mark.serial  # timed: alone on the machine
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("command", [("replay",), ("import", "-l", "x")])
def test_an_endless_file_is_refused_quickly(device, command, tmp_path):
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    db = f"sqlite:///{tmp_path / 'x.db'}"
    extra = ("--db", db) if command[0] == "import" else ()
    start = time.monotonic()
    message = error_line(invoke(command[0], device, *command[1:], *extra))
    assert time.monotonic() - start < 10
    # streamed like a file: /dev/zero is one endless line, /dev/urandom is not text
    if device == "/dev/zero":
        assert message == "/dev/zero: a line longer than 1 MiB: not a file this tool reads"
    else:
        assert message.startswith("/dev/urandom: cannot read: not UTF-8 text (")


def test_a_huge_ruleset_is_refused_before_parsing(tmp_path):
    path = ruleset_file(tmp_path, "# padding\n" * 200_000)  # 2 MB of comments
    assert error_line(invoke("ruleset", "check", path)) == (
        "club.toml: larger than 1 MiB: not a file this tool reads"
    )
    assert error_line(invoke("ruleset", "check", "/dev/zero")) == (
        "ruleset file '/dev/zero': not a regular file"
    )  # a device: never opened


# --- a database whose driver is missing ----------------------------------------------------------


def test_a_database_url_whose_driver_is_missing_is_one_line():
    message = error_line(invoke("league", "list", "--db", "oracle://scott:tiger@host/db"))
    assert message.startswith(
        "--db oracle://scott:***@host/db: its database driver is not installed"
    )
    assert "tiger" not in message
