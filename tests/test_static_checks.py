"""The static checks CI runs, held by the suite: mypy over the files ``pyproject.toml``'s
``[tool.mypy]`` names (the engine, and each folder beyond it that passes), ruff's checks and its
formatter over the folders already formatted, and a reason beside (or just above) every
``# type: ignore`` in the files mypy checks.

The checkers come with the ``test`` extra; without one its test is skipped. Each runs as its
own program (as CI runs it), its cache in the test's temporary folder.
"""

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mighty_cli.engine import safe_toml

ROOT = Path(__file__).resolve().parent.parent
#: The folders ruff formats and checks so far (the rest of the tree is formatted at once, after
#: the branches that edit it are merged).
RUFF_FOLDERS = ["mighty_cli/engine"]
#: ``# type: ignore[code]  # why``: the error silenced, and the reason it is not an error.
_IGNORE = re.compile(r"# type: ignore(?P<code>\[[a-z-]+(?:, *[a-z-]+)*\])?(?P<rest>.*)$")


def _checker(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (pip install -e '.[test]')")


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_mypy_finds_no_error_in_the_files_pyproject_names(tmp_path):
    _checker("mypy")
    result = _run("mypy", "--cache-dir", str(tmp_path / "mypy"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("Success: no issues found in "), result.stdout


def test_ruff_check_passes_over_the_formatted_folders(tmp_path):
    _checker("ruff")
    result = _run("ruff", "check", "--cache-dir", str(tmp_path / "ruff"), *RUFF_FOLDERS)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == "All checks passed!\n"


def test_ruff_format_leaves_the_formatted_folders_unchanged(tmp_path):
    _checker("ruff")
    result = _run("ruff", "format", "--check", "--cache-dir", str(tmp_path / "ruff"), *RUFF_FOLDERS)
    assert result.returncode == 0, result.stdout + result.stderr


def _checked_files() -> list[Path]:
    """The Python files mypy checks: ``[tool.mypy]``'s ``files``, less its ``exclude``."""
    settings = safe_toml.loads(ROOT.joinpath("pyproject.toml").read_text(encoding="utf-8"))
    mypy = settings["tool"]["mypy"]
    excluded = [re.compile(pattern) for pattern in mypy.get("exclude", [])]
    found = []
    for name in mypy["files"]:
        for path in sorted(ROOT.joinpath(name).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if not any(pattern.search(relative) for pattern in excluded):
                found.append(path)
    return found


def test_each_type_ignore_mypy_reads_names_its_error_and_its_reason():
    unexplained = []
    for path in _checked_files():
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            match = _IGNORE.search(line)
            if match is None:
                continue
            beside = match["rest"].strip().startswith("# ")
            above = number > 1 and lines[number - 2].lstrip().startswith("# ")
            if match["code"] is None or not (beside or above):
                unexplained.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert unexplained == []
