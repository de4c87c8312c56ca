"""Shell completion in a real bash and a real zsh, through a pseudo-terminal, as a user turns it
on (``source <(_MIGHTY_COMPLETE=bash_source mighty)``) and presses Tab (issue 35 item 11):
ruleset names (``ruleset show``, ``score --ruleset``, ``league create --ruleset``), a league
whose name has a space and markup in it, the league's players, a pair ``S/X``, and a file
where what is typed looks like a path. One shell session per shell, every completion in it.

Each completed line is then run as ``printf '<%s>' ...`` (the line's start replaced), so the
test reads the words the shell would give ``mighty``: a name inserted unquoted would come out
as several words.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mighty_cli.cli import cli

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.serial

BIN = Path(sys.executable).parent
LEAGUE = "화요 <리그>"
PLAYERS = ["민수", "Alexander Kim", "Bo", "Cy", "Di"]

#: (what is typed, the words the shell gives mighty once Tab has completed it)
COMPLETIONS = [
    ("mighty ruleset show sinc", ["mighty", "ruleset", "show", "sinchon"]),
    ("mighty score --ruleset sej", ["mighty", "score", "--ruleset", "sejong"]),
    (
        "mighty league create x --ruleset gyeonggi-n",
        ["mighty", "league", "create", "x", "--ruleset", "gyeonggi-north"],
    ),
    ("mighty standings --league 화", ["mighty", "standings", "--league", LEAGUE]),
    ("mighty record -l tuesday -d 민", ["mighty", "record", "-l", "tuesday", "-d", "민수"]),
    (
        "mighty record -l tuesday -f Al",
        ["mighty", "record", "-l", "tuesday", "-f", "Alexander Kim"],
    ),
    (
        "mighty round start -l tuesday -p Bo --substitute Cy/Al",
        [
            "mighty",
            "round",
            "start",
            "-l",
            "tuesday",
            "-p",
            "Bo",
            "--substitute",
            "Cy/Alexander Kim",
        ],
    ),
    ("mighty score --ruleset ./my", ["mighty", "score", "--ruleset", "./myclub.toml"]),
]


@pytest.fixture(scope="module")
def club(tmp_path_factory) -> Path:
    """A folder with a league database (two leagues, one named with a space and markup, its
    players seated) and a ruleset file of the club's."""
    folder = tmp_path_factory.mktemp("completion-pty")
    db = f"sqlite:///{folder / 'club.db'}"
    for args in (
        ["league", "create", LEAGUE, "--ruleset", "standard"],
        ["league", "create", "tuesday", "--ruleset", "standard"],
        ["session", "start", "-l", "tuesday", "-p", ",".join(PLAYERS)],
    ):
        result = CliRunner().invoke(cli, [*args, "--db", db])
        assert result.exit_code == 0, result.output
    (folder / "myclub.toml").write_text('extends = "standard"\n', encoding="utf-8")
    return folder


def shell(name: str, folder: Path):
    """A shell at a bare prompt with mighty's completion turned on as the manual says."""
    if shutil.which(name) is None:
        pytest.skip(f"no {name} on this machine")
    if not (BIN / "mighty").exists():
        pytest.skip("the mighty script is not installed beside this Python")
    env = {
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
        "HOME": str(folder),
        "TERM": "dumb",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "MIGHTY_DB": f"sqlite:///{folder / 'club.db'}",
        "MIGHTY_LANG": "en",
        "INPUTRC": "/dev/null",
        "ZDOTDIR": str(folder),
    }
    if name == "bash":
        child = pexpect.spawn(
            "bash",
            ["--norc", "--noprofile"],
            env=env,
            cwd=str(folder),
            encoding="utf-8",
            timeout=30,
            dimensions=(40, 300),
        )
        setup = "PS1='$ '; set -o emacs; source <(_MIGHTY_COMPLETE=bash_source mighty)"
    else:
        child = pexpect.spawn(
            "zsh",
            ["-f"],
            env=env,
            cwd=str(folder),
            encoding="utf-8",
            timeout=30,
            dimensions=(40, 300),
        )
        setup = (
            "PS1='$ '; bindkey -e; autoload -Uz compinit && compinit -u -D; "
            "source <(_MIGHTY_COMPLETE=zsh_source mighty)"
        )
    child.sendline(setup + "; echo READY-$((6*7))")
    child.expect("READY-42")
    return child


def completed_words(child, typed: str) -> list[str]:
    """The words of ``typed`` once Tab has completed it: the line is run as printf of its
    words (Ctrl-A, the start replaced by printf)."""
    child.send(typed + "\t")
    # The keys below are read once the completion has run: the shell reads them in order.
    child.send("\x01printf '<%s>' \x05; echo ' DONE'\r")
    child.expect(r"\r\n<mighty>(.*) DONE\r\n")
    return ["mighty"] + re.findall(r"<(.*?)>(?=<|$)", child.match.group(1))


@pytest.mark.parametrize("name", ["bash", "zsh"])
def test_names_and_paths_complete_in_a_real_shell(club, name):
    child = shell(name, club)
    try:
        for typed, words in COMPLETIONS:
            assert completed_words(child, typed) == words, typed
    finally:
        child.close(force=True)
