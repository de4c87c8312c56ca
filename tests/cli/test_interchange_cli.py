"""import, export, backup and restore through click: formats by extension or --format, the
CSV's byte-order mark, one-line errors, and nothing changed after a failure."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from mighty_cli.cli import cli

ROOT = Path(__file__).resolve().parents[2]
SEASON = str(ROOT / "examples" / "season.toml")


def mighty(db, *args):
    return CliRunner().invoke(cli, [*args, "--db", db])


def ok(db, *args):
    result = mighty(db, *args)
    assert result.exit_code == 0, result.output
    return result.output


def test_every_export_format_imports_again_by_its_extension(db, tmp_path):
    ok(db, "import", SEASON, "-l", "tue")
    ok(db, "hand", "void", "-l", "tue", "3", "--reason", "twice")
    standings = json.loads(ok(db, "standings", "-l", "tue", "--json"))
    for fmt in ("toml", "json", "csv"):
        path = tmp_path / f"tue.{fmt}"
        ok(db, "export", "-l", "tue", "-o", str(path))
        other = f"sqlite:///{tmp_path / f'{fmt}.db'}"
        if fmt == "csv":
            ok(other, "league", "create", "tue", "-r", "standard")
        out = ok(other, "import", str(path), "-l", "tue")
        assert out.startswith("Imported 29 hands into tue (hands 1-30, sessions 1-3).")
        assert json.loads(ok(other, "standings", "-l", "tue", "--json")) == standings


def test_format_option_overrides_the_extension(db, tmp_path):
    ok(db, "import", SEASON, "-l", "tue")
    path = tmp_path / "tue.txt"
    ok(db, "export", "-l", "tue", "--format", "json", "-o", str(path))
    assert json.loads(path.read_text(encoding="utf-8"))["hands"][0]["number"] == 1
    other = f"sqlite:///{tmp_path / 'other.db'}"
    assert "Imported 30 hands" in ok(other, "import", str(path), "-l", "tue", "--format", "json")


def test_csv_export_starts_with_a_byte_order_mark_unless_told_not_to(db, tmp_path):
    ok(db, "import", SEASON, "-l", "tue")
    path = tmp_path / "tue.csv"
    ok(db, "export", "-l", "tue", "-o", str(path))
    assert path.read_bytes().startswith(b"\xef\xbb\xbfhand,session,date,status,")
    ok(db, "export", "-l", "tue", "-o", str(path), "--no-bom")
    assert path.read_bytes().startswith(b"hand,session,date,status,")


def test_a_csv_into_a_missing_league_asks_for_its_ruleset_in_one_line(db, tmp_path):
    ok(db, "import", SEASON, "-l", "tue")
    path = tmp_path / "tue.csv"
    ok(db, "export", "-l", "tue", "-o", str(path))
    result = mighty(f"sqlite:///{tmp_path / 'other.db'}", "import", str(path), "-l", "new")
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert "a CSV export does not say its ruleset" in result.output


def test_a_csv_with_a_foreign_header_is_refused(db, tmp_path):
    ok(db, "league", "create", "tue", "-r", "standard")
    path = tmp_path / "sheet.csv"
    path.write_text("Hand,Winner\n1,Ana\n", encoding="utf-8")
    result = mighty(db, "import", str(path), "-l", "tue")
    assert (
        result.exit_code == 1
        and "line 1: expected the header of a league export" in result.output
        and result.output.count("\n") == 1
    )


def test_backup_and_restore_keep_the_open_session_and_the_voided_hand(db, tmp_path):
    ok(db, "import", SEASON, "-l", "tue")
    ok(db, "hand", "void", "-l", "tue", "3", "--reason", "twice")
    ok(db, "session", "start", "-l", "tue", "-p", "Ana,Bo,Cy,Di,Ed")
    path = tmp_path / "club.jsonl"
    assert ok(db, "backup", "-o", str(path)).startswith(f"Wrote {path} (")
    other = f"sqlite:///{tmp_path / 'restored.db'}"
    assert "30 hands, 1 league)" in ok(other, "restore", str(path))  # not "1 leagues" (issue 10)
    for args in (
        ["standings", "-l", "tue", "--json"],
        ["hand", "list", "-l", "tue"],
        ["session", "show", "-l", "tue", "--json"],
        ["hand", "log", "-l", "tue"],
    ):
        assert ok(other, *args) == ok(db, *args)
    again = mighty(other, "restore", str(path))
    assert again.exit_code == 1 and "not empty" in again.output


def test_a_failed_export_leaves_no_file(db, tmp_path):
    path = tmp_path / "nope.toml"
    result = mighty(db, "export", "-l", "nope", "-o", str(path))
    assert result.exit_code == 1 and "no league named 'nope'" in result.output
    assert not path.exists() and not Path(f"{path}.part").exists()


def test_new_commands_have_help_with_an_example():
    for args in (["backup"], ["restore"], ["import"], ["export"]):
        result = CliRunner().invoke(cli, [*args, "--help"])
        assert result.exit_code == 0 and "mighty " in result.output.split("Options:")[0]
