"""The manual's examples run (issue 35 item 12): every ``$ mighty ...`` line of a console block in
docs/ (both languages) and the README's tour runs in a fresh folder per page, in the page's
language, and prints what the page shows under it (placeholders and markers: the docstring of
``tools/doc_examples.py``, and docs/contributing.md). After a change that moves an output,
``python tools/doc_examples.py write`` brings the pages up to date."""

from __future__ import annotations

import datetime
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: At least this many commands run, and this many outputs are compared: a change to the parser
#: that skipped blocks would fall under them (the manual had 169 and 109 when they were set).
FLOOR_COMMANDS = 160
FLOOR_COMPARED = 100


def load():
    spec = importlib.util.spec_from_file_location(
        "doc_examples", ROOT / "tools" / "doc_examples.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


examples = load()


@pytest.fixture(scope="module")
def outcomes():
    """Every page run once, a process per language (the two side by side)."""
    return examples.run_pages(examples.PAGES)


@pytest.mark.parametrize("page", examples.PAGES, ids=lambda p: p.name)
def test_the_page_shows_what_the_tool_prints(outcomes, page):
    result = outcomes[page]
    assert not isinstance(result, examples.PageError), str(result)
    problems = [problem for problem in (outcome.problem() for outcome in result) if problem]
    assert problems == [], (
        "\n".join(problems) + "\n(run 'python tools/doc_examples.py write', then read the diff)"
    )


def test_enough_examples_run(outcomes):
    ran = [outcome for result in outcomes.values() for outcome in result]
    compared = [outcome for outcome in ran if outcome.command.output]
    assert len(ran) >= FLOOR_COMMANDS
    assert len(compared) >= FLOOR_COMPARED
    for name in (
        "README.md",
        "getting-started.md",
        "getting-started.ko.md",
        "tournaments.md",
        "tournaments.ko.md",
        "leagues.ko.md",
    ):
        page = ROOT / name if name == "README.md" else ROOT / "docs" / name
        assert len(outcomes[page]) >= 3, name


def test_the_korean_pages_run_in_korean(outcomes):
    korean = outcomes[ROOT / "docs" / "getting-started.ko.md"]
    assert any("데이터베이스:" in line for outcome in korean for line in outcome.output)


# --- the machinery, on small pages ---------------------------------------------------------------

PAGE = """# A page

<!-- doc-test: setup
mighty league create tuesday --ruleset standard
-->
```console
$ mighty league list   # the leagues
league   ruleset   players  sessions  hands  open
...
$ mighty score --ruleset nope --bid 15 --trump D --taken 16
Error: unknown ruleset 'nope': expected one of standard, ...
```

<!-- doc-test: skip (a prompt) -->
```console
Contract: 25S
```

<!-- doc-test: file club.toml -->
```toml
extends = "standard"
```

```console
$ mighty ruleset check club.toml
ok: club.toml (...) extends standard.toml; sets 0 options
```
"""


def page_at(tmp_path, text: str, name: str = "page.md") -> Path:
    page = tmp_path / name
    page.write_text(text, encoding="utf-8")
    return page


def test_a_page_is_read_into_commands_outputs_markers_and_files(tmp_path):
    blocks = examples.parse(page_at(tmp_path, PAGE))
    assert [block.skip for block in blocks] == [None, "(a prompt)", None, None]
    first = blocks[0].commands
    assert [(c.line, c.setup) for c in first] == [
        ("mighty league create tuesday --ruleset standard", True),
        ("mighty league list", False),
        ("mighty score --ruleset nope --bid 15 --trump D --taken 16", False),
    ]
    assert first[1].output == ["league   ruleset   players  sessions  hands  open", "..."]
    assert blocks[2].file == ("club.toml", 'extends = "standard"\n')


def test_a_page_runs_in_a_fresh_folder_and_matches(tmp_path):
    outcomes = examples.run_here(page_at(tmp_path, PAGE))
    assert [outcome.code for outcome in outcomes] == [0, 0, 1, 0]
    assert [outcome.problem() for outcome in outcomes] == [None] * 4
    assert outcomes[1].output[2].startswith("tuesday  standard")


def test_a_drifted_output_is_named_with_what_the_tool_printed(tmp_path):
    page = page_at(tmp_path, PAGE.replace("sets 0 options", "sets 9 options"))
    problems = [p for p in map(examples.Outcome.problem, examples.run_here(page)) if p]
    assert len(problems) == 1
    assert problems[0].startswith("page.md:25: `mighty ruleset check club.toml` printed:")
    assert "sets 0 options" in problems[0]


def test_a_failure_the_page_does_not_show_is_caught(tmp_path):
    page = page_at(tmp_path, "```console\n$ mighty league show nothere\nLeague nothere\n```\n")
    [outcome] = examples.run_here(page)
    assert outcome.code == 1
    assert "failed (exit 1), but the page shows it succeeding" in outcome.problem()


def test_a_failing_setup_line_is_caught(tmp_path):
    page = page_at(
        tmp_path,
        "<!-- doc-test: setup\nmighty league show nothere\n-->\n```console\n$ mighty where\n```\n",
    )
    setup, _where = examples.run_here(page)
    assert "`mighty league show nothere` failed (exit 1)" in setup.problem()


def test_a_block_without_a_command_needs_a_skip_marker(tmp_path):
    with pytest.raises(examples.PageError, match="output before any"):
        examples.parse(page_at(tmp_path, "```console\nContract: 25S\n```\n"))
    with pytest.raises(examples.PageError, match="not followed by a console block"):
        examples.parse(page_at(tmp_path, "<!-- doc-test: skip (x) -->\n\ntext\n"))


def test_a_korean_page_runs_in_korean(tmp_path):
    page = page_at(
        tmp_path, "```console\n$ mighty where\n데이터베이스:  ...\n...\n```\n", "page.ko.md"
    )
    [outcome] = examples.run_here(page)
    assert outcome.problem() is None
    assert outcome.output[0] == "데이터베이스:  /home/you/.config/mighty/mighty.db"


def test_shell_lines_cd_and_export_keep_the_page_folder_and_environment(tmp_path):
    page = page_at(
        tmp_path,
        "```console\n$ mkdir tour && cd tour\n"
        "$ export MIGHTY_DB=sqlite:///tour.db\n$ mighty where | head -1\n"
        "database:  /home/you/mighty_cli/tour/tour.db\n"
        "$ mighty replay ../examples/run.toml\n```\n",
    )
    outcomes = examples.run_here(page)
    assert [outcome.problem() for outcome in outcomes] == [None] * 4


@pytest.mark.parametrize(
    "template, actual, expected",
    [
        (["Session 1 started (<date>)."], ["Session 1 started (2026-11-26)."], True),
        (["Session 1 started (<date>)."], ["Session 1 started (today)."], False),
        (["<date> <time> UTC     minsu"], ["2026-11-26 10:14 UTC  minsu"], True),
        (["a", "...", "z"], ["a", "z"], True),
        (["a", "...", "z"], ["a", "b", "c", "z"], True),
        (["a", "...", "z"], ["a", "b", "c"], False),
        (["Database: ..."], ["Database: /home/you/x.db"], True),
        (["mighty, version <version>"], ["mighty, version 0.1.0"], True),
        (["x  y"], ["x   y"], False),  # without a placeholder, spaces are exact
    ],
)
def test_placeholders(template, actual, expected):
    assert examples.matches(template, actual) is expected


def test_the_writer_keeps_what_matches_and_the_elisions():
    template = ["Round 1 started.", "Table 1: Fay, Jo", "...", "0 pairs meet again."]
    actual = [
        "Round 1 started.",
        "Table 1: Cy, Ida",
        "Table 2: Di, Gil",
        "Table 3: Bo, Ed",
        "0 pairs meet again.",
    ]
    assert examples.merged(template, actual) == [
        "Round 1 started.",
        "Table 1: Cy, Ida",
        "...",
        "0 pairs meet again.",
    ]


def test_the_writer_writes_today_as_a_placeholder():
    now = datetime.datetime(2026, 11, 26, 10, 14, tzinfo=datetime.timezone.utc)
    assert examples.merged(
        ["Session 1 started (x)."], ["Session 1 started (2026-11-26)."], now
    ) == ["Session 1 started (<date>)."]
    assert (
        examples.volatile("2026-11-26 10:14 UTC  minsu  hand void 2", now)
        == "<date> <time> UTC     minsu  hand void 2"
    )
    assert examples.volatile("Wrote club-2026-11-26.jsonl.", now) == "Wrote club-2026-11-26.jsonl."


def test_the_writer_rewrites_a_drifted_output_and_refuses_a_new_failure(tmp_path):
    text = (
        "```console\n$ mighty score --ruleset standard --bid 15 --trump D --taken 16\n"
        "old line\n...\n$ mighty league show nothere\nLeague nothere\n```\n"
    )
    page = page_at(tmp_path, text)
    written, refused = examples.rewritten(page, examples.run_here(page))
    lines = written.splitlines()
    assert lines[2].endswith("(standard)") and lines[3] == "..."
    assert "League nothere" in written  # a failure the page does not show is not written
    assert len(refused) == 1 and "failed (exit 1)" in refused[0]
