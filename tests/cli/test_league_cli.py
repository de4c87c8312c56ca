"""League commands end to end through click, on SQLite and (when configured) PostgreSQL:
exact exit codes, one-line errors, and the database unchanged after a failure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mighty_cli.cli import cli
from mighty_cli.render.text import display_width

ROOT = Path(__file__).resolve().parents[2]
SEASON = str(ROOT / "examples" / "season.toml")


def mighty(db, *args, input=None):
    return CliRunner().invoke(cli, [*args, "--db", db], input=input)


def ok(db, *args, input=None):
    result = mighty(db, *args, input=input)
    assert result.exit_code == 0, result.output
    return result.output


def dump(db) -> str:
    """Everything the league holds, as export text plus the change log, to compare."""
    return ok(db, "export", "-l", "tue", "--format", "json") + ok(
        db, "hand", "log", "-l", "tue", "--json"
    )


@pytest.fixture
def league(db):
    ok(db, "league", "create", "tue", "--ruleset", "standard")
    ok(db, "session", "start", "--league", "tue", "--players", "Ana,Bo,Cy,Di,Ed,김철수")
    return db


def test_league_create_list_show(db):
    assert "created" in ok(db, "league", "create", "tue", "-r", "seoul-science", "--min-hands", "3")
    assert "seoul-science" in ok(db, "league", "list")
    data = json.loads(ok(db, "league", "show", "tue", "--json"))
    assert data["ruleset"] == "seoul-science" and data["min_hands"] == 3


def test_unknown_ruleset_exits_1_with_one_line(db):
    result = mighty(db, "league", "create", "tue", "-r", "no-such-rules")
    assert result.exit_code == 1
    assert result.output.startswith("Error: unknown ruleset") and result.output.count("\n") == 1


def test_missing_league_name_is_a_usage_error(db):
    assert mighty(db, "league", "create").exit_code == 2


def test_record_by_flags_scores_and_proposes_the_next_hand(league):
    out = ok(league, "record", "-l", "tue", "-d", "Bo", "-c", "15D", "-f", "Cy", "-t", "16")
    assert "Bo 15D with Cy, took 16: made" in out
    assert "Next hand: dealer Cy" in out and "sitting out Cy" in out


def test_record_by_prompts(league):
    out = ok(league, "record", "-l", "tue", input="Bo\n15D\nCy\n16\n")
    assert "Bo +10" in out


def test_record_deal_miss(league):
    assert "deal miss by Bo" in ok(league, "record", "-l", "tue", "--deal-miss", "Bo")


@pytest.mark.parametrize(
    "args",
    [
        ["-d", "Bo", "-c", "25D", "-f", "Cy", "-t", "16"],
        ["-d", "Ana", "-c", "15D", "-f", "Cy", "-t", "16"],  # Ana sits out the first hand
        ["-d", "Bo", "-c", "15D", "-f", "none", "-t", "-1"],
        ["--deal-miss", "Zed"],
    ],
)
def test_bad_record_exits_1_and_changes_nothing(league, args):
    ok(league, "record", "-l", "tue", "-d", "Bo", "-c", "15D", "-f", "Cy", "-t", "16")
    before = dump(league)
    result = mighty(league, "record", "-l", "tue", *args)
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: ") and "Traceback" not in result.output
    assert dump(league) == before


def test_record_with_taken_and_opposition_is_a_usage_error(league):
    result = mighty(
        league, "record", "-l", "tue", "-d", "Bo", "-c", "15D", "-f", "Cy", "-t", "16", "-o", "4"
    )
    assert result.exit_code == 2


def test_hand_amend_prints_the_standings_change_and_logs_it(league):
    ok(league, "record", "-l", "tue", "-d", "Bo", "-c", "15D", "-f", "Cy", "-t", "16")
    ok(league, "record", "-l", "tue", "-d", "Bo", "-c", "14H", "-f", "Di", "-t", "15")
    out = ok(
        league,
        "hand",
        "amend",
        "-l",
        "tue",
        "1",
        "-t",
        "20",
        "--reason",
        "miscounted",
        "--by",
        "김철수",
    )
    assert "Standings changed" in out and "Bo" in out
    log = json.loads(ok(league, "hand", "log", "-l", "tue", "--json"))["changes"][-1]
    assert (log["who"], log["action"], log["why"]) == ("김철수", "hand amend", "miscounted")
    assert log["before"]["taken"] == 16 and log["after"]["taken"] == 20


def test_hand_amend_of_a_missing_hand_exits_1(league):
    result = mighty(league, "hand", "amend", "-l", "tue", "9", "-t", "20", "--reason", "x")
    assert result.exit_code == 1 and "no hand 9" in result.output


def test_hand_void_list_show(league):
    ok(league, "record", "-l", "tue", "-d", "Bo", "-c", "15D", "-f", "Cy", "-t", "16")
    assert "Standings changed" in ok(league, "hand", "void", "-l", "tue", "1", "--reason", "twice")
    assert "VOID" in ok(league, "hand", "list", "-l", "tue")
    assert "VOID" in ok(league, "hand", "show", "-l", "tue", "1")


def test_player_add_rename_merge(db):
    ok(db, "player", "add", "Kim")
    ok(db, "player", "rename", "Kim", "Kim C.")
    ok(db, "player", "add", "김철수")
    ok(db, "player", "merge", "Kim C.", "김철수")
    players = json.loads(ok(db, "player", "list", "--json"))["players"]
    assert {"name": "Kim C.", "merged_into": "김철수"} in players
    assert mighty(db, "player", "add", "김철수").exit_code == 1


def test_session_show_and_end(league):
    data = json.loads(ok(league, "session", "show", "-l", "tue", "--json"))
    assert data["next"]["sitting_out"] == ["Ana"]
    ok(league, "session", "end", "-l", "tue")
    result = mighty(league, "record", "-l", "tue", "-d", "Bo", "-c", "15D", "-f", "Cy", "-t", "16")
    assert result.exit_code == 1 and "no open session" in result.output


def test_session_with_eight_players_exits_1(db):
    ok(db, "league", "create", "tue", "-r", "standard")
    result = mighty(db, "session", "start", "-l", "tue", "-p", "A,B,C,D,E,F,G,H")
    assert result.exit_code == 1 and "8 players" in result.output


def test_import_standings_json_and_export_round_trip(db, tmp_path):
    out = ok(db, "import", SEASON, "--league", "tue")
    assert "Imported 30 hands" in out
    standings = json.loads(ok(db, "standings", "--league", "tue", "--json"))
    assert all({"name", "hands", "score"} <= set(p) for p in standings["players"])
    exported = tmp_path / "export.toml"
    ok(db, "export", "--league", "tue", "-o", str(exported))
    other = f"sqlite:///{tmp_path / 'other.db'}"
    ok(other, "import", str(exported), "--league", "tue")
    again = json.loads(ok(other, "standings", "--league", "tue", "--json"))
    assert again == standings


def test_import_of_a_broken_file_exits_1_and_writes_nothing(db, tmp_path):
    ok(db, "league", "create", "tue", "-r", "standard")
    broken = tmp_path / "broken.toml"
    broken.write_text(
        Path(SEASON).read_text(encoding="utf-8").replace("taken = 15", "taken = 35", 1),
        encoding="utf-8",
    )
    result = mighty(db, "import", str(broken), "--league", "tue")
    assert result.exit_code == 1 and "taken = 35" in result.output
    assert json.loads(ok(db, "standings", "-l", "tue", "--json"))["players"] == []


def test_export_csv(db):
    ok(db, "import", SEASON, "--league", "tue")
    lines = ok(db, "export", "-l", "tue", "--format", "csv").splitlines()
    assert len(lines) == 31 and "김민준" in lines[0]


def test_standings_table_aligns_korean_names(db):
    ok(db, "import", SEASON, "--league", "tue")
    lines = ok(db, "standings", "-l", "tue").splitlines()
    assert any("김민준" in line for line in lines)
    # The score column (the 4th) ends at the same terminal column on every row.
    score_column = {
        display_width(line[: line.index(" " + line.split()[3] + " ") + len(line.split()[3]) + 1])
        for line in lines[2:]
    }
    assert len(score_column) == 1


def test_standings_html_is_written(db, tmp_path):
    ok(db, "import", SEASON, "--league", "tue")
    page = tmp_path / "page.html"
    assert "Wrote" in ok(db, "standings", "-l", "tue", "--html", str(page))
    assert "<svg" in page.read_text(encoding="utf-8")


def test_standings_of_missing_league_exits_1(db):
    result = mighty(db, "standings", "-l", "nope")
    assert result.exit_code == 1 and "no league named 'nope'" in result.output


def test_unreachable_database_exits_1_without_traceback(tmp_path):
    result = CliRunner().invoke(
        cli, ["league", "list", "--db", "postgresql+psycopg://nobody@127.0.0.1:1/none"]
    )
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_every_league_command_has_help_with_an_example():
    for args in (
        ["league", "create"],
        ["league", "list"],
        ["league", "show"],
        ["player", "add"],
        ["player", "rename"],
        ["player", "merge"],
        ["session", "start"],
        ["session", "end"],
        ["record"],
        ["hand", "list"],
        ["hand", "show"],
        ["hand", "amend"],
        ["hand", "void"],
        ["import"],
        ["export"],
        ["standings"],
    ):
        result = CliRunner().invoke(cli, [*args, "--help"])
        assert result.exit_code == 0 and "mighty " in result.output.split("Options:")[0], args


def test_help_does_not_import_sqlmodel_or_jinja2():
    probe = (
        "import sys\nfrom mighty_cli.cli import cli\n"
        "try:\n    cli.main(args=['--help'], prog_name='mighty')\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('sqlmodel', 'sqlalchemy', 'jinja2')), file=sys.stderr)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert result.stderr.strip().splitlines()[-1] == "[]"


def test_importing_the_same_season_twice_is_refused_and_changes_nothing(db):
    ok(db, "import", SEASON, "--league", "twice")
    before = ok(db, "export", "-l", "twice", "--format", "json")
    result = mighty(db, "import", SEASON, "--league", "twice")
    assert result.exit_code == 1
    assert "already in league twice as session 1" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert ok(db, "export", "-l", "twice", "--format", "json") == before
    ok(db, "import", SEASON, "--league", "twice", "--again")
    assert json.loads(ok(db, "export", "-l", "twice", "--format", "json"))["hands"][-1][
        "number"
    ] == 2 * len(json.loads(before)["hands"])
