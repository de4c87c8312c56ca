"""The manual's examples, run: every ``$ mighty ...`` line of a ```` ```console ```` block in
``docs/*.md`` (both languages) and the README, with the output the page shows under it.

    python tools/doc_examples.py write [PAGE ...]   # after a change: outputs from the tool
    python tools/doc_examples.py check [PAGE ...]   # exit 1 naming every example that drifted

``tests/test_doc_examples.py`` runs the check, so a page cannot drift from the tool. The rules a
page follows are in docs/contributing.md ("The manual's examples"); in short:

- **A fresh folder per page.** Each page runs in a temporary folder laid out as a club's
  computer: ``HOME`` is ``/home/you``, the database ``/home/you/.config/mighty/mighty.db``
  (``MIGHTY_DB``; a page's ``export MIGHTY_DB=...`` line changes it), the compiled templates'
  cache ``/home/you/.cache``, and the commands start in ``/home/you/mighty_cli``, the checkout,
  which holds a copy of ``examples/``. ``MIGHTY_LANG`` is the page's language (``ko`` for
  ``*.ko.md``), ``MIGHTY_USER`` is ``minsu``, ``TZ`` is UTC. The temporary folder's own path is
  taken out of every output, so a page shows ``/home/you/...``.
- **Blocks run in order**, each line after the page's earlier ones. A line is ``$ `` and a
  command; the lines under it, up to the next ``$ `` line, are its output. A command shown
  without output must succeed, and its output is not compared; a command whose output shows
  ``Error:`` (``오류:``) or ``Usage:`` (``사용법:``) must fail (exit status 1 or 2), and its
  output is compared too.
- **In-process.** ``mighty ...`` runs through click's ``CliRunner`` (several joined by ``&&``
  too); ``cd DIR`` and ``export NAME=VALUE`` change the page's folder and environment; any other
  line, or one with a pipe, a redirection or a ``$``, runs in ``bash`` with ``mighty`` on its
  ``PATH``.
- **Placeholders** in an output: a line ``...`` stands for any lines (none too); ``...`` in a
  line for any text; ``<date>`` for a date (``2026-11-26``), ``<time>`` for a time of day
  (``10:14``, ``10:14:03``), ``<version>`` for a version (``0.1.0``); in a line with a
  placeholder each run of spaces stands for one space or more, so a table keeps its columns.
- **Markers** (HTML comments, unseen on the rendered page), on the lines before a block:
  ``<!-- doc-test: skip (why) -->`` does not run it (a session at a terminal, prompts, an
  install); ``<!-- doc-test: setup`` and then command lines up to ``-->`` run before it,
  unshown (a league the page speaks of as already there); their output is not compared, and
  they must succeed. ``<!-- doc-test: file NAME -->`` before a block of any kind (a ruleset
  in ```` ```toml ````) writes the block's text to the file NAME for the commands after it.

``write`` keeps every output that still matches (placeholders and elisions included) and
rewrites the others from the tool, keeping a ``...`` elision where the output has lines for it
and writing today's date and time as ``<date>`` and ``<time>``. It never writes an output that
shows a command failing where the page shows it succeeding: that is reported, for a person to
decide.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import datetime as _datetime
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: The pages whose examples are run.
PAGES = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
#: The user the commands run as (``hand log``'s "who").
USER = "minsu"
#: Where a page's commands run, inside its temporary folder.
HOME = Path("home/you")
CHECKOUT = HOME / "mighty_cli"

MARKER = re.compile(r"^<!--\s*doc-test:\s*(skip|setup|file)\b:?(.*)$")
PLACEHOLDER = re.compile(r"\.\.\.|<date>|<time>|<version>")
PLACEHOLDER_PATTERNS = {
    "...": r".*?",
    "<date>": r"\d{4}-\d{2}-\d{2}",
    "<time>": r"\d{1,2}:\d{2}(?::\d{2})?",
    "<version>": r"\d+(?:\.\w+)*",
}
#: An output showing one of these lines shows the command failing.
FAILURE = re.compile(r"^(Error|오류|Usage|사용법):")
#: A line that needs a shell: a pipe, a redirection, a variable, a glob, a list.
SHELL = re.compile(r"[|<>;$`*~(){}]|&(?!&)")


class PageError(Exception):
    """A page whose examples cannot be read (a marker or a block out of form)."""


@dataclass
class Command:
    """One ``$`` line of a page, and the output the page shows under it."""

    page: Path
    lineno: int  # the ``$`` line's number in the page, from 1
    line: str  # the command, without ``$ `` and without its comment
    output: list[str]  # the lines the page shows, as written
    setup: bool = False  # a hidden setup line: must succeed, output not shown

    @property
    def where(self) -> str:
        return f"{self.page.name}:{self.lineno}"


@dataclass
class Block:
    lineno: int
    commands: list[Command] = field(default_factory=list)
    skip: str | None = None
    file: tuple[str, str] | None = None  # a file the page shows: its name and text


def parse(page: Path, text: str | None = None) -> list[Block]:
    """The page's console blocks, each with its commands (setup lines first) or its reason to
    be skipped."""
    lines = (page.read_text(encoding="utf-8") if text is None else text).splitlines()
    blocks: list[Block] = []
    pending: tuple[str, str, list[tuple[int, str]]] | None = None  # kind, reason, setup
    number = 0
    while number < len(lines):
        stripped = lines[number].strip()
        marker = MARKER.match(stripped)
        if marker:
            kind, rest = marker.group(1), marker.group(2)
            setup: list[tuple[int, str]] = []
            if kind in ("skip", "file"):
                if not rest.rstrip().endswith("-->"):
                    raise PageError(f"{page.name}:{number + 1}: a {kind} marker is one line")
                pending = (kind, rest.rstrip()[:-3].strip() or "skipped", setup)
            else:
                if rest.strip():
                    raise PageError(
                        f"{page.name}:{number + 1}: the setup's commands go on "
                        "the lines after '<!-- doc-test: setup'"
                    )
                number += 1
                while number < len(lines) and lines[number].strip() != "-->":
                    command = lines[number].strip()
                    if command:
                        setup.append(
                            (number + 1, command[2:] if command.startswith("$ ") else command)
                        )
                    number += 1
                if number == len(lines):
                    raise PageError(f"{page.name}: a setup marker without its '-->'")
                pending = ("setup", "", setup)
            number += 1
            continue
        if pending and pending[0] == "file":
            if not stripped.startswith("```"):
                raise PageError(f"{page.name}:{number + 1}: a file marker not followed by a block")
            end = number + 1
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            blocks.append(
                Block(number + 1, file=(pending[1], "\n".join(lines[number + 1 : end]) + "\n"))
            )
            pending, number = None, end + 1
            continue
        if stripped.startswith("```console"):
            block = Block(number + 1)
            if pending and pending[0] == "skip":
                block.skip = pending[1]
            elif pending:
                block.commands = [
                    Command(page, n, without_comment(c), [], setup=True) for n, c in pending[2]
                ]
            pending = None
            number += 1
            while number < len(lines) and lines[number].strip() != "```":
                line = lines[number]
                if line.startswith("$ "):
                    block.commands.append(Command(page, number + 1, without_comment(line[2:]), []))
                elif block.skip is None:
                    shown = [c for c in block.commands if not c.setup]
                    if not shown:
                        raise PageError(
                            f"{page.name}:{number + 1}: output before any '$ ' "
                            "line (mark the block <!-- doc-test: skip (why) -->)"
                        )
                    shown[-1].output.append(line)
                number += 1
            if block.skip is None and not any(not c.setup for c in block.commands):
                raise PageError(
                    f"{page.name}:{block.lineno}: a console block with no '$ ' "
                    "line (mark it <!-- doc-test: skip (why) -->)"
                )
            blocks.append(block)
        elif stripped and pending is not None and not stripped.startswith("<!--"):
            raise PageError(
                f"{page.name}:{number + 1}: a doc-test marker not followed by a console block"
            )
        number += 1
    if pending is not None:
        raise PageError(f"{page.name}: a doc-test marker at the end of the page")
    return blocks


def without_comment(line: str) -> str:
    """A command line without its trailing ``# comment`` (one outside quotes)."""
    quote = None
    for index, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return line[:index].rstrip()
    return line.rstrip()


# --- matching ---------------------------------------------------------------------------------


def line_pattern(template: str) -> str:
    """A template line as a regular expression: its text, its placeholders; in a line with a
    placeholder, each run of spaces stands for one space or more (a table's columns)."""
    if not PLACEHOLDER.search(template):
        return re.escape(template)
    parts = []
    for piece in re.split(r"( +)", template):
        if piece.startswith(" "):
            parts.append(" +")
            continue
        position = 0
        for found in PLACEHOLDER.finditer(piece):
            parts.append(re.escape(piece[position : found.start()]))
            parts.append(PLACEHOLDER_PATTERNS[found.group(0)])
            position = found.end()
        parts.append(re.escape(piece[position:]))
    return "".join(parts)


def is_elision(line: str) -> bool:
    return line.strip() in ("...", "…")


def clean(lines: list[str]) -> list[str]:
    """Lines as compared: without trailing spaces, nor blank lines at the end."""
    lines = [line.rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def matches(template: list[str], actual: list[str]) -> bool:
    """Whether an output matches what the page shows (placeholders and elisions)."""
    pattern = "".join(
        r"(?:.*\n)*?" if is_elision(line) else line_pattern(line) + r"\n"
        for line in clean(template)
    )
    return re.fullmatch(pattern, "".join(line + "\n" for line in clean(actual))) is not None


def line_matches(template: str, actual: str) -> bool:
    return re.fullmatch(line_pattern(template.rstrip()), actual.rstrip()) is not None


def merged(
    template: list[str], actual: list[str], now: _datetime.datetime | None = None
) -> list[str]:
    """What ``write`` shows for an output: the page's own lines where they still match, the
    tool's elsewhere, a ``...`` kept where the page elided lines and the output has some."""
    template, actual = clean(template), clean(actual)
    if matches(template, actual):
        return template
    # the longest chain of page lines (not elisions) that match output lines, in order
    rows, cols = len(template), len(actual)
    best = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(rows - 1, -1, -1):
        for j in range(cols - 1, -1, -1):
            if not is_elision(template[i]) and line_matches(template[i], actual[j]):
                best[i][j] = best[i + 1][j + 1] + 1
            else:
                best[i][j] = max(best[i + 1][j], best[i][j + 1])
    anchors, i, j = [], 0, 0
    while i < rows and j < cols:
        if (
            not is_elision(template[i])
            and line_matches(template[i], actual[j])
            and best[i][j] == best[i + 1][j + 1] + 1
        ):
            anchors.append((i, j))
            i, j = i + 1, j + 1
        elif best[i + 1][j] >= best[i][j + 1]:
            i += 1
        else:
            j += 1
    result: list[str] = []
    start_i = start_j = 0
    for i, j in anchors + [(rows, cols)]:
        result += gap(template[start_i:i], actual[start_j:j], now)
        if i < rows:
            result.append(template[i])
        start_i, start_j = i + 1, j + 1
    return result


def gap(template: list[str], actual: list[str], now: _datetime.datetime | None) -> list[str]:
    """The lines between two kept lines: the output's, elided as the page elided them."""
    marks = [n for n, line in enumerate(template) if is_elision(line)]
    fresh = [volatile(line, now) for line in actual]
    if not marks:
        return fresh
    head, tail = marks[0], len(template) - marks[-1] - 1
    if head + tail >= len(fresh):
        return fresh + ([template[marks[0]]] if head + tail == len(fresh) else [])
    return fresh[:head] + [template[marks[0]]] + (fresh[len(fresh) - tail :] if tail else [])


def volatile(line: str, now: _datetime.datetime | None = None) -> str:
    """An output line with today's date and time written as placeholders (the day before and
    after too: a league's time zone may be ahead or behind), a table's next column kept where
    it was."""
    now = now or _datetime.datetime.now().astimezone()
    days = {(now + _datetime.timedelta(days=shift)).date().isoformat() for shift in (-1, 0, 1)}
    pattern = re.compile(
        r"(?<![\w-])(?:" + "|".join(sorted(days)) + r")(?: (\d{1,2}:\d{2}(?::\d{2})?))?(?![\w-])"
    )
    while True:
        found = pattern.search(line)
        if not found:
            return line
        text = "<date>" + (" <time>" if found.group(1) else "")
        short = len(found.group(0)) - len(text)
        rest = line[found.end() :]
        gap = re.search(r"  +", rest)
        if gap:  # a table's cell: the next column stays where it was
            rest = rest[: gap.end()] + " " * short + rest[gap.end() :]
        line = line[: found.start()] + text + rest


# --- running ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    command: Command
    code: int
    output: list[str]

    @property
    def shows_failure(self) -> bool:
        return any(FAILURE.match(line) for line in self.command.output)

    def problem(self) -> str | None:
        """What is wrong, or None: an exit status the page does not show, or another output."""
        command = self.command
        failing = self.code != 0
        if command.setup or not command.output:
            if failing:
                return (
                    f"{command.where}: `{command.line}` failed (exit {self.code}):\n"
                    + "\n".join("    " + line for line in self.output)
                )
            return None
        if failing != self.shows_failure:
            state = f"failed (exit {self.code})" if failing else "succeeded"
            return (
                f"{command.where}: `{command.line}` {state}, but the page shows it "
                f"{'failing' if self.shows_failure else 'succeeding'}:\n"
                + "\n".join("    " + line for line in self.output)
            )
        if failing and self.code not in (1, 2):
            return f"{command.where}: `{command.line}` exited {self.code}"
        if not matches(command.output, self.output):
            return (
                f"{command.where}: `{command.line}` printed:\n"
                + "\n".join("    " + line for line in clean(self.output))
                + "\n  the page shows:\n"
                + "\n".join("    " + line for line in clean(command.output))
            )
        return None


class PageRun:
    """A page's fresh folder and environment, and its commands run there in order."""

    def __init__(self, page: Path, folder: Path):
        self.page = page
        self.folder = folder.resolve()
        home = self.folder / HOME
        (home / ".config" / "mighty").mkdir(parents=True)
        shutil.copytree(ROOT / "examples", self.folder / CHECKOUT / "examples")
        bin_folder = self.folder / "bin"
        bin_folder.mkdir()
        script = bin_folder / "mighty"
        script.write_text(
            f'#!/bin/sh\nexec "{sys.executable}" -m mighty_cli "$@"\n', encoding="utf-8"
        )
        script.chmod(0o755)
        self.cwd = self.folder / CHECKOUT
        self.environ = {
            "HOME": str(home),
            "MIGHTY_DB": f"sqlite:///{home / '.config/mighty/mighty.db'}",
            "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_CONFIG_HOME": None,
            "MIGHTY_LANG": language(page),
            "MIGHTY_USER": USER,
            "TZ": "UTC",
            "COLUMNS": "100",
            "PATH": f"{bin_folder}{os.pathsep}{os.environ.get('PATH', '')}",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        }

    @contextlib.contextmanager
    def entered(self) -> Iterator[None]:
        """The process in the page's folder and environment, restored after."""
        saved = dict(os.environ)
        before = os.getcwd()
        try:
            yield
        finally:
            os.environ.clear()
            os.environ.update(saved)
            os.chdir(before)
            time.tzset()

    def _apply(self) -> None:
        os.environ.update({name: value for name, value in self.environ.items() if value})
        for name in [name for name, value in self.environ.items() if value is None]:
            os.environ.pop(name, None)
        time.tzset()
        os.chdir(self.cwd)

    def write(self, name: str, text: str) -> None:
        """A file the page shows, written where the page's commands are."""
        path = (self.cwd / name).resolve()
        if not path.is_relative_to(self.folder):
            raise PageError(f"{self.page.name}: a file outside the page's folder: {name}")
        path.write_text(text, encoding="utf-8")

    def run(self, command: Command) -> Outcome:
        self._apply()
        line = command.line
        if SHELL.search(line.replace("&&", "")):
            code, output = self._shell(line)
        else:
            code, output = 0, ""
            for part in line.split("&&"):
                code, printed = self._one(part.strip())
                output += printed
                if code:
                    break
        text = output.replace(str(self.folder), "")
        return Outcome(command, code, text.splitlines())

    def _one(self, part: str) -> tuple[int, str]:
        words = shlex.split(part)
        if not words:
            return 0, ""
        if words[0] == "cd" and len(words) == 2:
            target = (self.cwd / os.path.expanduser(words[1])).resolve()
            if not target.is_dir():
                return 1, f"cd: {words[1]}: No such file or directory\n"
            self.cwd = target
            return 0, ""
        if words[0] == "export" and all("=" in word for word in words[1:]):
            for word in words[1:]:
                name, value = word.split("=", 1)
                self.environ[name] = value
            return 0, ""
        if words[0] == "mighty":
            return self._mighty(words[1:])
        return self._shell(part)

    def _mighty(self, args: list[str]) -> tuple[int, str]:
        from click.testing import CliRunner

        from mighty_cli.cli import cli

        result = CliRunner().invoke(cli, args, prog_name="mighty")
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            # a bug in the tool: exit 3 as `mighty` says it, with the traceback to read
            return 3, result.output + "".join(traceback.format_exception(*result.exc_info))
        return result.exit_code, result.output

    def _shell(self, line: str) -> tuple[int, str]:
        done = subprocess.run(
            ["bash", "-c", line],
            cwd=self.cwd,
            env=dict(os.environ),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=300,
        )
        return done.returncode, done.stdout


def run_here(page: Path, text: str | None = None) -> list[Outcome]:
    """Every command of a page, run in order in a fresh folder, in this process."""
    blocks = parse(page, text)
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="mighty-doc-") as scratch:
        run = PageRun(page, Path(scratch))
        with run.entered():
            for block in blocks:
                if block.file is not None:
                    run.write(*block.file)
                if block.skip is not None:
                    continue
                for command in block.commands:
                    outcomes.append(run.run(command))
    return outcomes


def run_pages(pages: list[Path]) -> dict[Path, list[Outcome] | PageError]:
    """Every command of the pages, each page in a fresh folder, in a process per language (two
    side by side): a command's module keeps the language it was first imported in (click's own
    words), as a real ``mighty`` does, so Korean and English pages never share a process."""
    by_language: dict[str, list[Path]] = {}
    for page in pages:
        by_language.setdefault(language(page), []).append(page)

    def one(group: list[Path]) -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "run", *map(str, group)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=1800,
        )
        if done.returncode != 0:
            message = f"{', '.join(p.name for p in group)}: {done.stderr.strip()}"
            return {str(page): message for page in group}
        return json.loads(done.stdout)

    results: dict[str, object] = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for found in pool.map(one, by_language.values()):
            results.update(found)
    outcomes: dict[Path, list[Outcome] | PageError] = {}
    for page in pages:
        result = results[str(page)]
        if isinstance(result, str):
            outcomes[page] = PageError(result)
            continue
        commands = [
            command for block in parse(page) if block.skip is None for command in block.commands
        ]
        outcomes[page] = [
            Outcome(command, code, output) for command, (code, output) in zip(commands, result)
        ]
    return outcomes


def language(page: Path) -> str:
    return "ko" if page.name.endswith(".ko.md") else "en"


def rewritten(
    page: Path, outcomes: list[Outcome], text: str | None = None
) -> tuple[str, list[str]]:
    """The page with each drifted output replaced by the tool's, and what could not be written
    (a command that fails where the page shows it succeeding, or the other way round)."""
    lines = (page.read_text(encoding="utf-8") if text is None else text).splitlines()
    refused = []
    edits = []
    for outcome in outcomes:
        command = outcome.command
        if command.setup or not command.output:
            problem = outcome.problem()
            if problem:
                refused.append(problem)
            continue
        if (outcome.code != 0) != outcome.shows_failure:
            refused.append(outcome.problem() or "")
            continue
        if matches(command.output, outcome.output):
            continue
        new = merged(command.output, outcome.output)
        start = command.lineno  # the output's first line's index (0-based) in the page
        edits.append((start, start + len(command.output), new))
    for start, end, new in sorted(edits, reverse=True):
        lines[start:end] = new
    ending = "\n" if (text if text is not None else page.read_text("utf-8")).endswith("\n") else ""
    return "\n".join(lines) + ending, refused


def chosen(names: list[str]) -> list[Path]:
    if not names:
        return PAGES
    pages = []
    for name in names:
        path = Path(name)
        path = path if path.exists() else ROOT / "docs" / name
        if not path.exists():
            raise SystemExit(f"no page {name}")
        pages.append(path.resolve())
    return pages


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    what, names = (argv[0], argv[1:]) if argv else ("check", [])
    if what == "run":  # pages of one language, in this process: what run_pages reads
        results: dict[str, object] = {}
        for name in names:
            try:
                results[name] = [(outcome.code, outcome.output) for outcome in run_here(Path(name))]
            except Exception as exc:  # a page out of form, or this tool's own bug: its page
                results[name] = str(exc) if isinstance(exc, PageError) else traceback.format_exc()
        json.dump(results, sys.stdout, ensure_ascii=False)
        return 0
    if what not in ("write", "check"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    status = 0
    started = time.perf_counter()
    pages = chosen(names)
    for page, outcomes in run_pages(pages).items():
        name = page.relative_to(ROOT)
        if isinstance(outcomes, PageError):
            print(outcomes, file=sys.stderr)
            status = 1
            continue
        if what == "write":
            text, refused = rewritten(page, outcomes)
            if text != page.read_text(encoding="utf-8"):
                page.write_text(text, encoding="utf-8")
                print(f"wrote {name}")
            for problem in refused:
                print(problem, file=sys.stderr)
                status = 1
        else:
            found = [p for p in (outcome.problem() for outcome in outcomes) if p]
            for problem in found:
                print(problem, file=sys.stderr)
            status = status or (1 if found else 0)
            if found:
                print(f"{name}: {len(found)} of {len(outcomes)} commands drifted")
    print(f"{len(pages)} pages in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
