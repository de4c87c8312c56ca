"""Every command's help, and every option's, speaks Korean: the referee, the score-keeper, the
league, rulesets, import and export (with LANG=ko_KR.UTF-8), and fits an 80-column terminal."""

from __future__ import annotations

import importlib
import re

import click
import pytest

from mighty_cli.cli import COMMANDS, cli
from mighty_cli.engine.translation import set_language
from mighty_cli.i18n import localize, translate_help
from mighty_cli.render.text import display_width

KOREAN_DESKTOP = {"MIGHTY_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "ko_KR.UTF-8"}


def all_commands():
    """(path, command) for every command and subcommand the group loads."""
    found = []

    def walk(path, command):
        found.append((path, command))
        for name, sub in getattr(command, "commands", {}).items():
            walk(path + [name], sub)

    for name, target in sorted(COMMANDS.items()):
        module, attribute = target.split(":")
        walk([name], getattr(importlib.import_module(module), attribute))
    return found


COMMAND_PATHS = [path for path, _ in all_commands()]


def _original(owner, attribute):
    return owner.__dict__.get("_mighty_msgid", {}).get(attribute, getattr(owner, attribute))


@pytest.mark.parametrize("path", COMMAND_PATHS, ids=" ".join)
def test_every_help_text_has_a_korean_translation(path):
    command = {tuple(p): c for p, c in all_commands()}[tuple(path)]
    set_language("ko")
    texts = [("help", _original(command, "help"))]
    texts += [
        (f"--{param.name}", _original(param, "help"))
        for param in command.params
        if isinstance(param, click.Option) and _original(param, "help")
    ]
    untranslated = [where for where, text in texts if text and translate_help(text) == text]
    assert not untranslated, f"mighty {' '.join(path)}: no Korean for {untranslated}"


@pytest.mark.parametrize("path", COMMAND_PATHS, ids=" ".join)
def test_korean_help_of_every_command(runner, path):
    result = runner.invoke(
        cli,
        path + ["--help"],
        env=KOREAN_DESKTOP | {"COLUMNS": "80"},
        prog_name="mighty",
        terminal_width=80,
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"사용법: mighty {' '.join(path)}")
    assert not lines[2].isascii(), lines[2]  # the description, in Korean
    assert "옵션:" in lines
    # wrapped help fits the terminal (an example line is shown as written, in any language)
    wrapped = [line for line in lines if not line.startswith("    mighty ")]
    assert max(display_width(line) for line in wrapped) <= 80
    english = [entry for entry in help_entries(lines) if not HANGUL.search(entry)]
    assert not english, f"mighty {' '.join(path)} --help: not Korean: {english}"


HANGUL = re.compile("[\uac00-\ud7a3]")


def help_entries(lines: list[str]) -> list[str]:
    """The descriptive entries of a help page, each with its wrapped continuation lines joined:
    paragraphs, options and commands with their text. Left out: the usage line, examples
    (``    mighty ...``, shown as written) and an option listed without help (its syntax only,
    such as ``-d, --declarer NAME``), none of which is prose to translate."""
    entries: list[str] = []
    for line in lines[1:]:
        if not line.strip() or line.startswith("    mighty "):
            continue
        indent = len(line) - len(line.lstrip())
        if indent > 4 and entries:  # the wrapped rest of the option or command above
            entries[-1] += " " + line.strip()
        else:
            entries.append(line.strip())
    return [entry for entry in entries if not (entry.startswith("-") and "  " not in entry)]


def test_referee_help_in_korean(runner):
    lines = runner.invoke(
        cli, ["referee", "--help"], env=KOREAN_DESKTOP, prog_name="mighty"
    ).output.splitlines()
    assert lines[2] == "  실제 테이블을 심판합니다: 공약과 카드를 입력하는 즉시 검사하며, 판을 이어"


def test_record_help_in_korean(runner):
    output = runner.invoke(
        cli, ["record", "--help"], env=KOREAN_DESKTOP, prog_name="mighty", terminal_width=100
    ).output
    assert "리그의 열린 회차에 한 판의 결과를 기록합니다" in output
    assert "최종 공약, 예: 15D, 14S, 16NT (또는 스페이드 14, 16 노기)." in output


def test_ruleset_show_docs_in_korean(runner):
    result = runner.invoke(cli, ["ruleset", "show", "standard", "--docs"], env=KOREAN_DESKTOP)
    lines = result.output.splitlines()
    assert lines[2] == "출처: 003; 000 §3.2, §4" and lines[3] == "바탕: standard.toml"
    at = lines.index(next(line for line in lines if line.startswith("election.min_bid = 13")))
    assert lines[at + 1 : at + 3] == [
        "    공약할 수 있는 가장 작은 숫자.",
        "    출처: 003; 001 §3.3; 000 §3.2.1",
    ]
    assert "    조커가 21번째 점수카드인지." in lines
    assert max(display_width(line) for line in lines) <= 100


def test_every_ruleset_option_doc_is_translated():
    from mighty_cli.engine.ruleset import option_docs
    from mighty_cli.engine.translation import gettext

    set_language("ko")
    missing = [
        key
        for key, entry in option_docs().items()
        if entry["doc"] and gettext(entry["doc"]) == entry["doc"]
    ]
    assert not missing


def test_localize_keeps_the_english_help(runner):
    """Korean help once, then English again in the same process: the message ids are kept."""
    runner.invoke(cli, ["league", "--help"], env=KOREAN_DESKTOP)
    output = runner.invoke(cli, ["league", "--help"]).output
    assert "Leagues: a ruleset (kept with the league) and its ranking rules." in output
    set_language("en")
    command = {tuple(p): c for p, c in all_commands()}[("league",)]
    localize(command)
    assert command.help.startswith("Leagues:")
