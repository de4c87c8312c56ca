"""The manual (docs/ and the README) checked as CI can: every page has its twin in the other
language, every relative link leads to a file, and every `mighty ...` command line it shows
names a real command and real options of that command (issue 25 item 1)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest

from mighty_cli.cli import cli

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
LINK = re.compile(r"\]\(([^)#\s]+)(#[^)]*)?\)")


def test_every_page_has_its_twin_in_the_other_language():
    for page in (ROOT / "docs").glob("*.md"):
        twin = (
            page.with_name(page.name.replace(".ko.md", ".md"))
            if page.name.endswith(".ko.md")
            else page.with_name(page.name[:-3] + ".ko.md")
        )
        assert twin.exists(), f"{page.name} has no {twin.name}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_relative_links_lead_to_files(page):
    text = page.read_text(encoding="utf-8")
    for target, _anchor in LINK.findall(text):
        if "://" in target or target.startswith("mailto:"):
            continue
        assert (page.parent / target).exists(), f"{page.name}: {target}"


def command_lines(text: str) -> list[str]:
    """The `$ mighty ...` lines of a page's console blocks (comments dropped)."""
    lines = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("$ mighty "):
            lines.append(line[2:].split("   #")[0].split("  # ")[0].strip())
    return lines


def resolve(words: list[str]) -> tuple[click.Command, list[str]]:
    """The command a line names, and the words after it."""
    command: click.Command = cli
    ctx = click.Context(cli, info_name="mighty")
    rest = list(words)
    while isinstance(command, click.Group) and rest and not rest[0].startswith("-"):
        found = command.get_command(ctx, rest[0])
        assert found is not None, f"no command {rest[0]!r} in: mighty {' '.join(words)}"
        command, rest = found, rest[1:]
    return command, rest


def parsed_lines(text: str):
    """Each `$ mighty ...` line of a page with the command it names, the words after it, and
    the options that command takes; the command is None (and the words hold the reason) when
    the line names no command."""
    for line in command_lines(text):
        words = shlex.split(line.replace("\\", ""))[1:]
        words = words[: words.index("&&")] if "&&" in words else words
        try:
            command, rest = resolve(words)
        except AssertionError as exc:
            yield line, None, [str(exc).splitlines()[0]], set()
            continue
        own = {opt for param in command.params for opt in param.opts + param.secondary_opts}
        yield line, command, rest, own


def problems(text: str) -> list[str]:
    """What is wrong with a page's command lines: an unknown command or option."""
    found = []
    for line, command, rest, own in parsed_lines(text):
        if command is None:
            found.extend(rest)
            continue
        known = own | {"--help", "-h", "--lang"}
        for word in rest:
            if (word.startswith("--") or re.fullmatch(r"-[a-zA-Z]", word)) and word.split("=")[
                0
            ] not in known:
                found.append(f"{line}: no option {word}")
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_command_lines_name_real_commands_and_options(page):
    text = page.read_text(encoding="utf-8")
    assert problems(text) == []


def test_the_pages_show_command_lines():
    assert len(command_lines((ROOT / "docs" / "tournaments.ko.md").read_text("utf-8"))) >= 3
    assert len(command_lines((ROOT / "README.md").read_text("utf-8"))) >= 8


def test_the_readme_is_short_and_starts_with_the_two_commands():
    """The README is what it is, the two commands, a tour and links (issue 25 item 1); the
    long text lives in docs/. CI and the project's brief read its first lines byte for byte."""
    lines = (ROOT / "README.md").read_text("utf-8").splitlines()
    assert len(lines) < 120
    assert lines[0] == "# mighty_cli"
    assert lines[2].startswith("Run the main job (")
    assert lines[4].startswith("Run the tests: `")


def test_the_readme_links_the_manual_in_both_languages():
    text = (ROOT / "README.md").read_text("utf-8")
    targets = {target for target, _anchor in LINK.findall(text)}
    assert {
        "docs/index.md",
        "docs/index.ko.md",
        "docs/reference.md",
        "docs/reference.ko.md",
    } <= targets


def test_the_manual_lists_every_page():
    """Every page of docs/ is reachable from the index of its language."""
    for index, suffix in (("index.md", ".md"), ("index.ko.md", ".ko.md")):
        listed = {
            target for target, _anchor in LINK.findall((ROOT / "docs" / index).read_text("utf-8"))
        }
        pages = {
            page.name
            for page in (ROOT / "docs").glob("*" + suffix)
            if page.name != index and (suffix == ".ko.md") == page.name.endswith(".ko.md")
        }
        assert pages - listed == set(), index


def test_a_made_up_command_or_option_is_caught():
    text = "```console\n$ mighty round start --league x --tables 3\n$ mighty rounds show\n```"
    assert problems(text) == [
        "mighty round start --league x --tables 3: no option --tables",
        "no command 'rounds' in: mighty rounds show",
    ]


def lang_misplaced(text: str) -> list[str]:
    """The command lines giving `--lang` to a command that has none of its own: it belongs to
    `mighty` itself (`mighty --lang ko where`), and `mighty where --lang ko` is a usage error.
    Lines naming no command are reported by test_command_lines_name_real_commands_and_options."""
    return [
        line
        for line, command, rest, own in parsed_lines(text)
        if command is not None and "--lang" in rest and "--lang" not in own
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_lang_is_given_where_it_is_taken(page):
    assert lang_misplaced(page.read_text(encoding="utf-8")) == []


def test_a_misplaced_lang_is_caught():
    text = (
        "```console\n$ mighty where --lang ko\n$ mighty --lang ko where\n"
        "$ mighty league create x --ruleset standard --lang ko\n```"
    )
    assert lang_misplaced(text) == ["mighty where --lang ko"]
