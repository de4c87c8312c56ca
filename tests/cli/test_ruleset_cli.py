"""`mighty ruleset list | show | check | diff`."""

from __future__ import annotations

import json

import pytest

from mighty_cli.cli import cli
from mighty_cli.engine.ruleset import BUNDLED_NAMES, iter_options


def test_list_names_every_bundled_ruleset(runner):
    result = runner.invoke(cli, ["ruleset", "list", "--json"])
    assert result.exit_code == 0, result.output
    names = [r["name"] for r in json.loads(result.output)["rulesets"]]
    assert names == list(BUNDLED_NAMES)


def test_show_prints_every_option_with_value_and_origin(runner):
    result = runner.invoke(cli, ["ruleset", "show", "seoul-science", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data["options"]) == {key for key, _ in iter_options()}
    assert data["options"]["election.min_bid"] == {"value": 14, "from": "seoul-science.toml"}
    assert data["options"]["scoring.formula"]["from"] == "standard.toml"
    assert data["chain"] == ["seoul-science.toml", "standard.toml"]


def test_show_text_has_docs(runner):
    result = runner.invoke(cli, ["ruleset", "show", "standard", "--docs"])
    assert result.exit_code == 0
    assert "election.min_bid" in result.output and "Lowest number a bid may name." in result.output


def test_check_reports_what_a_club_file_sets(runner, tmp_path):
    club = tmp_path / "club.toml"
    club.write_text('extends = "sinchon"\n[election]\nmin_bid = 13\n', encoding="utf-8")
    result = runner.invoke(cli, ["ruleset", "check", str(club)])
    assert result.exit_code == 0, result.output
    assert "extends sinchon.toml → standard.toml; sets 1 option\n" in result.output  # ngettext
    assert result.output.endswith("\n  election.min_bid = 13\n")  # and what it sets


def test_check_bad_file_is_one_line_error(runner, tmp_path):
    club = tmp_path / "club.toml"
    club.write_text("[election]\nmin_bidd = 13\n", encoding="utf-8")
    result = runner.invoke(cli, ["ruleset", "check", str(club)])
    assert result.exit_code == 1
    assert result.output.startswith("Error: club.toml: unknown key 'election.min_bidd'")
    assert len(result.output.strip().splitlines()) == 1


def test_diff_lists_differences(runner):
    result = runner.invoke(cli, ["ruleset", "diff", "standard", "seoul-science", "--json"])
    assert result.exit_code == 0
    differences = {d["option"]: (d["a"], d["b"]) for d in json.loads(result.output)["differences"]}
    assert differences["election.min_bid"] == (13, 14)


def test_diff_same_ruleset(runner):
    result = runner.invoke(cli, ["ruleset", "diff", "standard", "default"])
    assert "same rules" in result.output


def _columns(line: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


@pytest.mark.parametrize("name", BUNDLED_NAMES)
@pytest.mark.parametrize("docs", [False, True])
def test_show_prints_each_option_on_one_line_within_100_columns(runner, name, docs):
    result = runner.invoke(cli, ["ruleset", "show", name] + (["--docs"] if docs else []))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(_columns(line) for line in lines) <= 100
    keys = [key for key, _ in iter_options() if not key.startswith("meta.")]
    starts = [line for line in lines if line and not line.startswith(" ") and " = " in line]
    assert [line.split(" = ")[0] for line in starts] == keys
    assert all(line.rstrip().endswith(".toml]") for line in starts)
    if docs:  # the doc and the source sit beneath their option, indented
        at = lines.index(next(line for line in starts if line.startswith("election.min_bid ")))
        assert lines[at + 1] == "    Lowest number a bid may name."
        assert lines[at + 2].startswith("    Source: 003")
