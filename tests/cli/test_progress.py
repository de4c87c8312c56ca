"""Progress on long work (issue 25 item 4): a line on a terminal's standard error with the count,
the share and an estimate; nothing on a pipe or with --quiet, so what scripts read is unchanged."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys

import pytest

from mighty_cli.cli.progress import Progress, progress, silent


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_line_says_the_count_the_share_and_the_time_left():
    line = Progress("importing hands", Terminal())
    assert line.line(250, 1000, 2.0) == "importing hands: 250 of 1,000 (25%), about 6 s left"
    assert line.line(1000, 1000, 8.0) == "importing hands: 1,000 of 1,000 (100%)"
    assert line.line(12345, None, 75.0) == "importing hands: 12,345, 1 min 15 s"


def test_no_estimate_before_the_pace_settles():
    assert Progress.estimate(1, 3000, 0.01) is None
    assert Progress.estimate(300, 3000, 1.0) == 9.0


def test_the_line_is_wiped_when_the_work_ends():
    screen = Terminal()
    with progress("restoring rows", stream=screen) as shown:
        shown(5, 10)
        shown(10, 10)
    text = screen.getvalue()
    assert "restoring rows: 10 of 10 (100%)" in text and text.endswith("\r")


def test_nothing_is_shown_on_a_pipe_or_when_quiet():
    with progress("x", stream=io.StringIO()) as shown:
        assert shown is silent
    with progress("x", quiet=True, stream=Terminal()) as shown:
        assert shown is silent


def run_on_terminal(tmp_path, *args) -> tuple[str, str]:
    """Run ``mighty`` with its standard error on a pseudo-terminal: what the terminal showed,
    and what standard output (a pipe) got."""
    master, slave = pty.openpty()
    env = {**os.environ, "MIGHTY_LANG": "en", "MIGHTY_DB": f"sqlite:///{tmp_path / 'p.db'}"}
    child = subprocess.Popen(
        [sys.executable, "-m", "mighty_cli", *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=slave,
        env=env,
    )
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    out = child.stdout.read()
    assert child.wait(timeout=120) == 0
    os.close(master)
    return shown.decode(), out.decode()


@pytest.mark.serial
@pytest.mark.parametrize("quiet", [False, True])
def test_progress_on_a_pseudo_terminal(tmp_path, quiet):
    # The line is drawn at the end of the work however short it is: forty hands are enough.
    shown, out = run_on_terminal(
        tmp_path,
        "simulate",
        "-r",
        "standard",
        "--hands",
        "40",
        "--seed",
        "1",
        "-o",
        "s.toml",
        *(["--quiet"] if quiet else []),
    )
    assert "wrote 40 hands to s.toml" in out and "simulating" not in out
    if quiet:
        assert shown == ""
    else:
        assert "simulating hands: 40 of 40 (100%)" in shown
    shown, out = run_on_terminal(
        tmp_path, "import", "s.toml", "-l", "demo", *(["-q"] if quiet else [])
    )
    assert "Imported 40 hands into demo" in out
    assert ("importing hands: 40 of 40 (100%)" in shown) != quiet
    for args, label in (
        (["export", "-l", "demo", "-o", "e.json"], "exporting hands: 40 of 40"),
        (["site", "-l", "demo", "-o", "site"], "writing pages: "),
        (["backup", "-o", "b.jsonl"], "backing up rows"),
        (["restore", "b.jsonl", "--db", f"sqlite:///{tmp_path / 'r.db'}"], "restoring rows"),
    ):
        shown, out = run_on_terminal(tmp_path, *args, *(["--quiet"] if quiet else []))
        assert (label in shown) != quiet


def test_no_progress_on_a_pipe(tmp_path):
    env = {**os.environ, "MIGHTY_LANG": "en", "MIGHTY_DB": f"sqlite:///{tmp_path / 'p.db'}"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mighty_cli",
            "simulate",
            "-r",
            "standard",
            "--hands",
            "200",
            "--seed",
            "1",
            "-o",
            "s.toml",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0 and result.stderr == ""
    result = subprocess.run(
        [sys.executable, "-m", "mighty_cli", "import", "s.toml", "-l", "d"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0 and result.stderr == ""
