"""Issue 9, items 6 and 7: shared files stay in their lane. A hand record names a bundled
ruleset or a file in its own folder (or below it), nothing else, unless the user gives the path
with --ruleset; a ruleset's ``extends`` likewise. User templates run in Jinja2's sandbox, a
broken template is one line, and CSV cells a spreadsheet would run as formulas are neutralised."""

from __future__ import annotations

import csv
import io
import os

import pytest

from mighty_cli.engine.errors import RulesetError
from mighty_cli.engine.records import read_record, record_ruleset
from promises import FIVE, ROOT, error_line, invoke, record_file, ruleset_file

REFUSED = (
    "a shared file may name a bundled ruleset or a .toml file in its own folder or below "
    "it, nothing else"
)
HINT = " (give another ruleset on the command line: --ruleset FILE)"
CLUB = '[meta]\ntitle = "Our club"\n[scoring]\ncap = 7\n'


# --- a record's ruleset path --------------------------------------------------------------------


@pytest.mark.parametrize(
    "target",
    [
        "/etc/shadow",
        "/etc/passwd",
        "/nonexistent/rules.toml",
        "../club.toml",
        "sub/../../club.toml",
    ],
)
def test_a_record_cannot_name_a_file_outside_its_folder(tmp_path, target):
    (tmp_path / "club.toml").write_text(CLUB, encoding="utf-8")
    folder = tmp_path / "records"
    (folder / "sub").mkdir(parents=True)
    path = record_file(folder, ruleset=target)
    # The same line whether the file exists, is readable or is a ruleset: nothing is revealed.
    assert error_line(invoke("replay", path)) == f"ruleset {target!r}: {REFUSED}{HINT}"


def test_a_record_may_name_a_file_next_to_it_or_below_it(tmp_path):
    (tmp_path / "club.toml").write_text(CLUB, encoding="utf-8")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "deep.toml").write_text(CLUB, encoding="utf-8")
    for name in ("club.toml", "rules/deep.toml", "./rules/../club.toml"):
        result = invoke("replay", record_file(tmp_path, ruleset=name))
        assert result.exit_code == 0, result.output
        assert "under Our club" in result.output


def test_a_symbolic_link_out_of_the_folder_is_refused(tmp_path):
    outside = tmp_path / "outside.toml"
    outside.write_text(CLUB, encoding="utf-8")
    folder = tmp_path / "records"
    folder.mkdir()
    os.symlink(outside, folder / "club.toml")
    assert error_line(invoke("replay", record_file(folder, ruleset="club.toml"))) == (
        f"ruleset 'club.toml': {REFUSED}{HINT}"
    )


def test_the_command_line_may_name_any_ruleset_file(tmp_path):
    outside = ruleset_file(tmp_path, CLUB)
    folder = tmp_path / "records"
    folder.mkdir()
    path = record_file(folder, ruleset="/etc/shadow")
    result = invoke("replay", path, "--ruleset", outside)
    assert result.exit_code == 0, result.output
    assert "under Our club" in result.output


def test_import_takes_the_ruleset_from_the_command_line_for_a_new_league(tmp_path, db):
    outside = ruleset_file(tmp_path, CLUB)
    folder = tmp_path / "records"
    folder.mkdir()
    path = record_file(folder, ruleset="../club.toml")
    assert error_line(invoke("import", path, "-l", "tue", "--db", db)) == (
        f"ruleset '../club.toml': {REFUSED}{HINT}"
    )
    result = invoke("import", path, "-l", "tue", "--ruleset", outside, "--db", db)
    assert result.exit_code == 0, result.output
    assert '"ruleset": "club"' in invoke("league", "show", "tue", "--json", "--db", db).output


def test_extends_cannot_leave_the_folder_either(tmp_path):
    folder = tmp_path / "club"
    folder.mkdir()
    (tmp_path / "secret.toml").write_text(CLUB, encoding="utf-8")
    path = ruleset_file(folder, 'extends = "../secret.toml"\n')
    assert error_line(invoke("ruleset", "check", path)) == (
        f"club.toml: extends = '../secret.toml': ruleset '../secret.toml': {REFUSED}"
    )
    assert error_line(
        invoke("ruleset", "check", ruleset_file(folder, 'extends = "/etc/shadow"\n', "b.toml"))
    ) == (f"b.toml: extends = '/etc/shadow': ruleset '/etc/shadow': {REFUSED}")


def test_an_embedded_ruleset_cannot_reach_outside_the_record_folder(tmp_path):
    record = read_record(
        f'format = "mighty-hand-record/1"\nruleset = "x"\nplayers = {FIVE!r}\n'.replace("'", '"')
        + 'ruleset_toml = """extends = "/etc/shadow"\n"""\n',
        base_dir=tmp_path,
    )
    with pytest.raises(RulesetError, match="a shared file may name a bundled ruleset"):
        record_ruleset(record)


def test_bundled_names_and_examples_still_work():
    for example in sorted((ROOT / "examples").glob("*.toml")):
        assert invoke("replay", str(example)).exit_code == 0, example


# --- templates ----------------------------------------------------------------------------------


@pytest.fixture
def season_db(tmp_path):
    db = f"sqlite:///{tmp_path / 'season.db'}"
    assert (
        invoke("import", str(ROOT / "examples" / "season.toml"), "-l", "demo", "--db", db).exit_code
        == 0
    )
    return db


def page(season_db, tmp_path, template: str):
    folder = tmp_path / "club-templates"
    folder.mkdir(exist_ok=True)
    (folder / "standings.html").write_text(template, encoding="utf-8")
    out = tmp_path / "page.html"
    return invoke(
        "standings", "-l", "demo", "--html", str(out), "--templates", str(folder), "--db", season_db
    ), out


def test_the_sandbox_stops_a_template_reaching_the_operating_system(season_db, tmp_path):
    result, out = page(
        season_db, tmp_path, '{{ cycler.__init__.__globals__.os.popen("id").read() }}'
    )
    assert error_line(result).startswith("template error: ")
    assert "uid=" not in result.output and not out.exists()


@pytest.mark.parametrize(
    "template, expected",
    [
        (
            "{% for x in %}",
            "club-templates/standings.html, line 1: Expected an expression, got "
            "'end of statement block'",
        ),
        (
            "{{ page.no_such_thing }}",
            "template error: 'mighty_cli.store.ledger.league_page."
            "LeaguePage object' has no attribute 'no_such_thing'",
        ),
        ("{{ 1 / 0 }}", "template error: ZeroDivisionError: division by zero"),
        ('{% include "../../../etc/passwd" %}', "template '../../../etc/passwd' not found"),
    ],
)
def test_a_broken_template_is_one_line(season_db, tmp_path, template, expected):
    result, out = page(season_db, tmp_path, template)
    message = error_line(result)
    assert message.startswith("template ") and expected in message
    assert not out.exists()


def test_a_macro_calling_itself_is_one_line_however_deep_the_caller(season_db, tmp_path):
    """The call-depth guard stops it long before Python's recursion limit, so nothing else is
    printed, even from a caller already deep in its stack (as the fuzz test runs it)."""

    def deep(frames):
        return (
            deep(frames - 1)
            if frames
            else page(season_db, tmp_path, "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}")
        )

    result, out = deep(400)
    assert error_line(result) == (
        "template error: calls nested more than 40 deep (a macro calling itself without end?)"
    )
    assert result.stderr.count("\n") == 1 and not out.exists()


def test_a_club_template_still_renders_in_the_sandbox(season_db, tmp_path):
    result, out = page(
        season_db,
        tmp_path,
        '{% extends "base.html" %}{% block content %}'
        '<p id="club">{{ page.league }}: {{ page.hands }} hands</p>'
        "{% endblock %}",
    )
    assert result.exit_code == 0, result.output
    assert '<p id="club">demo:' in out.read_text(encoding="utf-8")


# --- CSV ----------------------------------------------------------------------------------------


def test_csv_cells_that_start_a_formula_are_neutralised(tmp_path):
    db = f"sqlite:///{tmp_path / 'csv.db'}"
    names = ['=HYPERLINK("http://x")', "+1+2", "-3+4", "@SUM(A1)", "Ed"]
    path = tmp_path / "r.toml"
    path.write_text(
        'format = "mighty-hand-record/1"\nruleset = "standard"\nplayers = ['
        + ", ".join('"' + n.replace('"', '\\"') + '"' for n in names)
        + "]\n"
        '[[hands]]\ndeclarer = "=HYPERLINK(\\"http://x\\")"\ncontract = "15D"\n'
        'friend = "@SUM(A1)"\ntaken = 16\nnote = "=1+1"\n',
        encoding="utf-8",
    )
    assert invoke("import", str(path), "-l", "csv", "--db", db).exit_code == 0
    result = invoke("export", "-l", "csv", "--format", "csv", "--db", db)
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    header, row = rows[0], rows[1]
    for cell in header + row:
        assert not cell.startswith(("=", "+", "-", "@")) or cell.lstrip("-").isdigit(), cell
    assert '\'=HYPERLINK("http://x")' in header and "'@SUM(A1)" in header
    assert row[header.index("declarer")] == '\'=HYPERLINK("http://x")'
    assert row[header.index("friend")] == "'@SUM(A1)"
    # Numbers stay numbers: each opponent's -5 is a score, not a formula.
    assert row[header.index("'-3+4")] == "-5"
