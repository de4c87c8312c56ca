"""Import hygiene: fast commands never load the database or template layers, and the engine
imports nothing above it (STYLE.md: cli -> store, render, standings -> engine)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, sys
from mighty_cli.cli import cli
try:
    cli.main(args={args!r}, prog_name="mighty", standalone_mode=False)
except SystemExit:
    pass
heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('sqlmodel', 'sqlalchemy', 'jinja2'))
print(json.dumps(heavy), file=sys.stderr)
"""


@pytest.mark.parametrize("args", [
    ["--help"],
    ["ruleset", "list"],
    ["score", "--ruleset", "standard", "--bid", "15", "--trump", "D", "--taken", "16"],
])
def test_fast_commands_do_not_import_sqlmodel_or_jinja2(args):
    result = subprocess.run([sys.executable, "-c", PROBE.format(args=args)], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    heavy = json.loads(result.stderr.strip().splitlines()[-1])
    assert heavy == []


def test_engine_imports_nothing_above_it():
    code = ("import sys, pkgutil, importlib, mighty_cli.engine as e\n"
            "for m in pkgutil.iter_modules(e.__path__):\n"
            "    importlib.import_module('mighty_cli.engine.' + m.name)\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
            "('click', 'sqlmodel', 'sqlalchemy', 'jinja2') or m.startswith(('mighty_cli.cli', "
            "'mighty_cli.store', 'mighty_cli.render', 'mighty_cli.standings')))\n"
            "print(bad)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
