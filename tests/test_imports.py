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


def loaded_in_a_fresh_process(imports: str, wanted: str) -> list:
    """The modules (``sys.modules`` names filtered by the expression ``wanted`` of ``m``) that
    a fresh interpreter has loaded after running ``imports``."""
    code = f"import sys\n{imports}\nprint(sorted(m for m in sys.modules if {wanted}))"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    import ast

    return ast.literal_eval(result.stdout.strip())


def test_engine_imports_nothing_above_it():
    assert loaded_in_a_fresh_process(
        "import pkgutil, importlib, mighty_cli.engine as e\n"
        "for m in pkgutil.iter_modules(e.__path__):\n"
        "    importlib.import_module('mighty_cli.engine.' + m.name)",
        "m.split('.')[0] in ('click', 'sqlmodel', 'sqlalchemy', 'jinja2') or m.startswith(("
        "'mighty_cli.cli', 'mighty_cli.store', 'mighty_cli.render', 'mighty_cli.standings', "
        "'mighty_cli.table'))") == []


def test_the_store_and_the_pages_import_no_click():
    """The store, the standings, the site, the renderers and the table are libraries: click
    (and the click-patching mighty_cli.i18n) belong to the command line."""
    assert loaded_in_a_fresh_process(
        "import mighty_cli.store.services, mighty_cli.store.backup, mighty_cli.store.formats\n"
        "import mighty_cli.store.db, mighty_cli.standings, mighty_cli.site_data, mighty_cli.seating\n"
        "import mighty_cli.render.html, mighty_cli.render.site_pages, mighty_cli.render.text\n"
        "import mighty_cli.table.referee_session, mighty_cli.table.evening, mighty_cli.table.books\n"
        "import mighty_cli.tournament.plan",
        "m.split('.')[0] == 'click' or m == 'mighty_cli.i18n'") == []


def import_cycles(package: Path) -> list[frozenset]:
    """The cycles among a package's modules, counting every import (a deferred one inside a
    function too: a cycle hidden there is still a cycle), as strongly connected components."""
    import ast

    def name_of(path: Path) -> str:
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    modules = {name_of(path): path for path in package.rglob("*.py")}

    def targets(module: str, node) -> list[str]:
        if isinstance(node, ast.Import):
            return [alias.name for alias in node.names]
        home = module if modules[module].name == "__init__.py" else module.rpartition(".")[0]
        base = home.split(".")[:len(home.split(".")) - node.level + 1] if node.level else []
        target = ".".join(base + ([node.module] if node.module else []))
        return [f"{target}.{alias.name}" if f"{target}.{alias.name}" in modules else target
                for alias in node.names]

    def imports(tree) -> list:
        """Every import of a module but those only a type checker reads (``if TYPE_CHECKING``),
        which never run."""
        typing_only = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If)
                       and getattr(node.test, "id", getattr(node.test, "attr", "")) ==
                       "TYPE_CHECKING" for inner in ast.walk(node)}
        return [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                and id(node) not in typing_only]

    graph = {module: {target for node in imports(ast.parse(path.read_text(encoding="utf-8")))
                      for target in targets(module, node) if target in modules and
                      target != module}
             for module, path in modules.items()}
    order, low, stack, found, counter = {}, {}, [], [], [0]

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        order[module] = low[module] = counter[0]
        counter[0] += 1
        stack.append(module)
        for target in graph[module]:
            if target not in order:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], order[target])
        if low[module] == order[module]:
            component = []
            while component[-1:] != [module]:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(frozenset(component))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return found


def test_no_import_cycle():
    """No module of the package imports one that imports it back, however far round and
    whether the import is at the top or deferred inside a function."""
    assert import_cycles(ROOT / "mighty_cli") == []


def test_the_cycle_check_finds_a_planted_cycle(tmp_path):
    package = tmp_path / "planted"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "a.py").write_text("from .b import x\n", encoding="utf-8")
    (package / "b.py").write_text("def x():\n    from .c import y\n", encoding="utf-8")
    (package / "c.py").write_text("import planted.a\ny = 1\n", encoding="utf-8")
    (package / "d.py").write_text("from . import a\n", encoding="utf-8")
    # a typing-only import back (``if TYPE_CHECKING``) never runs: no cycle
    (package / "e.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    from .f import w\nz = 1\n", encoding="utf-8")
    (package / "f.py").write_text("from .e import z\nw = z\n", encoding="utf-8")
    assert import_cycles(package) == [frozenset({"planted.a", "planted.b", "planted.c"})]
