"""Shell completion (issue 25 item 3), through click's completion entry point as a shell calls
it (``_MIGHTY_COMPLETE=bash_complete``): ruleset names, league names, the players of the league
given, session and table numbers, and cards; a missing database completes nothing and is not
made. The completions are asked of the command in this process (the same entry point, the
environment a shell sets); one test asks a real ``mighty`` process, as a shell does."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from mighty_cli.cli import cli

TEN = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gil", "Hu", "Ida", "Jo"]


def complete(line: str, db: str, shell: str = "bash_complete") -> list[str]:
    """What the shell is offered for the last word of ``line`` (empty after a space)."""
    words = line.split()
    cword = len(words) if line.endswith(" ") else len(words) - 1
    env = {
        "_MIGHTY_COMPLETE": shell,
        "COMP_WORDS": line,
        "COMP_CWORD": str(cword),
        "MIGHTY_DB": db,
        "MIGHTY_LANG": "en",
    }
    result = CliRunner().invoke(cli, [], prog_name="mighty", env=env)
    assert result.exit_code == 0 and result.exception is None, result.output
    return [
        line.split(",", 1)[1] for line in result.stdout.splitlines() if line.startswith("plain,")
    ]


def ok(db, *args) -> str:
    result = CliRunner().invoke(cli, [*args, "--db", db])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def club(tmp_path_factory) -> str:
    """A league with a round of two tables open, and a second league."""
    db = f"sqlite:///{tmp_path_factory.mktemp('completion') / 'club.db'}"
    ok(db, "league", "create", "cup", "--ruleset", "standard")
    ok(db, "league", "create", "tuesday", "--ruleset", "standard")
    ok(db, "round", "start", "-l", "cup", "-p", ",".join(TEN))
    return db


def test_ruleset_names_complete(club):
    offered = complete("mighty ruleset show s", club)
    assert "standard" in offered and all(name.startswith("s") for name in offered)
    assert "standard" in complete("mighty score --ruleset st", club)


def test_league_names_complete(club):
    assert complete("mighty standings --league ", club) == ["cup", "tuesday"]
    assert complete("mighty record -l t", club) == ["tuesday"]
    assert complete("mighty league show c", club) == ["cup"]


def test_player_names_of_the_league_given_complete(club):
    assert sorted(complete("mighty record -l cup -d ", club)) == sorted(TEN)
    assert complete("mighty record -l cup --dealer G", club) == ["Gil"]
    assert complete("mighty record -l tuesday -d ", club) == []  # nobody played there yet
    assert "none" in complete("mighty record -l cup -f ", club)


def test_a_list_of_players_completes_its_next_name(club):
    offered = complete("mighty round reseat -l cup -p Ana,Bo,", club)
    assert "Ana,Bo,Cy" in offered and not any(o.endswith(",Ana") for o in offered)


def test_session_and_table_numbers_complete(club):
    assert complete("mighty record -l cup --table ", club) == ["1", "2"]
    assert sorted(complete("mighty session show -l cup --session ", club)) == ["1", "2"]


def test_cards_complete_in_the_tools_notation(club):
    offered = complete("mighty record -l cup --friend-call s", club)
    assert "SA" in offered and "S10" in offered and len(offered) == 13
    assert complete("mighty record -l cup --friend-call j", club) == ["JK", "joker"]


def test_a_missing_database_completes_nothing_and_is_not_made(tmp_path):
    missing = tmp_path / "nowhere.db"
    assert complete("mighty standings --league ", f"sqlite:///{missing}") == []
    assert not missing.exists()


@pytest.mark.parametrize("shell", ["zsh_complete", "fish_complete"])
def test_zsh_and_fish_are_offered_the_same_values(club, shell):
    words = "mighty standings --league "
    # zsh says which word is completed by its index, fish by the text typed so far
    env = {
        "_MIGHTY_COMPLETE": shell,
        "COMP_WORDS": words,
        "COMP_CWORD": "3" if shell == "zsh_complete" else "",
        "MIGHTY_DB": club,
    }
    result = CliRunner().invoke(cli, [], prog_name="mighty", env=env)
    assert "cup" in result.stdout and "tuesday" in result.stdout


def offered(line: str, db: str) -> list[tuple[str, str]]:
    """What bash is given for the last word of ``line``, as (type, value), in process."""
    words = line.split()
    cword = len(words) if line.endswith(" ") else len(words) - 1
    result = CliRunner().invoke(
        cli,
        [],
        prog_name="mighty",
        complete_var="_MIGHTY_COMPLETE",
        env={
            "_MIGHTY_COMPLETE": "bash_complete",
            "COMP_WORDS": line,
            "COMP_CWORD": str(cword),
            "MIGHTY_DB": db,
        },
    )
    assert result.exit_code == 0, result.output
    return [
        tuple(item.split(",", 1))
        for item in result.output.splitlines()  # type: ignore
        if item
    ]


def test_a_file_is_offered_only_where_what_is_typed_looks_like_a_path(club):
    """In bash a file item makes the shell drop every name offered with it: names alone,
    files where a path is typed (or no ruleset is named so)."""
    names = offered("mighty score --ruleset s", club)
    assert ("plain", "standard") in names and all(kind == "plain" for kind, _value in names)
    for typed in ("./my", "clubs/my", "~/my", "my.toml", "nothing-is-named-so"):
        assert offered(f"mighty score --ruleset {typed}", club) == [("file", typed)], typed


def test_league_create_completes_ruleset_names(club):
    assert offered("mighty league create x --ruleset sej", club) == [("plain", "sejong")]


def test_a_pair_completes_its_second_name_after_the_slash(club):
    assert offered("mighty round start -l cup -p Ana --substitute Zed/Gi", club) == [
        ("plain", "Zed/Gil")
    ]
    assert offered("mighty session start -l cup -p Ana --apart Ana/Ana", club) == []
    assert offered("mighty round start -l cup -p Ana --apart H", club) == [("plain", "Hu")]


def test_bash_is_given_a_name_quoted_as_one_word_of_its_command_line():
    from mighty_cli.cli.completion import bash_word

    assert bash_word("화요 <리그>") == "화요\\ \\<리그\\>"
    assert bash_word("Ana,Bo,O'Neil") == "Ana,Bo,O\\'Neil"
    assert bash_word("Zed/Jo") == "Zed/Jo"


def test_the_bash_script_reads_names_whole_and_unglobbed():
    result = CliRunner().invoke(
        cli,
        [],
        prog_name="mighty",
        complete_var="_MIGHTY_COMPLETE",
        env={"_MIGHTY_COMPLETE": "bash_source"},
    )
    assert "IFS=',' read -r type value" in result.output
    assert 'COMPREPLY+=("$value")' in result.output
    assert "complete -o nosort -F _mighty_completion mighty" in result.output


def test_a_shell_asking_the_mighty_process_is_offered_the_values(club):
    """The shell runs ``mighty`` itself with the completion variables set."""
    env = {
        **os.environ,
        "_MIGHTY_COMPLETE": "bash_complete",
        "COMP_WORDS": "mighty record -l c",
        "COMP_CWORD": "3",
        "MIGHTY_DB": club,
        "MIGHTY_LANG": "en",
    }
    result = subprocess.run(
        [sys.executable, "-m", "mighty_cli"], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.splitlines() == ["plain,cup"]
