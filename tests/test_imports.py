"""Import hygiene: fast commands never load the database or template layers; the package's
layers (and the engine's) import only the ones below them, with no cycle, no private name taken
across packages, one module per name, and a reason beside every import deferred into a
function (DEVELOPERS.md, "Files, terminals and layers")."""

from __future__ import annotations

import ast
import functools
import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

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
        "import mighty_cli.store.db, mighty_cli.standings, mighty_cli.site_data\n"
        "import mighty_cli.seating, mighty_cli.render.text\n"
        "import mighty_cli.render.html, mighty_cli.render.site_pages\n"
        "import mighty_cli.table.referee_session, mighty_cli.table.evening\n"
        "import mighty_cli.table.books, mighty_cli.table.score_entry\n"
        "import mighty_cli.table.keeper_questions, mighty_cli.table.evening_opening\n"
        "import mighty_cli.tournament.plan",
        "m.split('.')[0] == 'click' or m == 'mighty_cli.i18n'") == []


# --- the import graph, read from the source ------------------------------------------------------


class Import(NamedTuple):
    target: str          # the module imported, absolute ("mighty_cli.engine.cards")
    names: tuple         # the names taken from it (from ... import a, b), or ()
    deferred: bool       # inside a function
    line: int


def dotted_name(package: Path) -> str:
    """A package's import name: its folder's, after those of the packages holding it."""
    parts = [package.name]
    while (package.parent / "__init__.py").exists():
        package = package.parent
        parts.insert(0, package.name)
    return ".".join(parts)


@functools.cache
def modules_of(package: Path) -> dict[str, Path]:
    """Every module of a package and its sub-packages, found as Python finds them
    (``pkgutil.walk_packages``), by dotted name (the package itself included). Found once per
    session, like the trees and the graph below: the package does not change while the tests
    run (a planted package is a new folder each time)."""
    name = dotted_name(package)
    root = package.parents[name.count(".")]  # the folder holding the top package
    before = set(sys.modules)
    sys.path.insert(0, str(root))
    try:
        importlib.invalidate_caches()
        found = {name: package / "__init__.py"}
        for info in pkgutil.walk_packages([str(package)], prefix=name + "."):
            if info.name.endswith(".__main__"):
                continue
            path = root.joinpath(*info.name.split("."))
            found[info.name] = path / "__init__.py" if info.ispkg else path.with_suffix(".py")
        return found
    finally:
        sys.path.remove(str(root))
        for planted_name in set(sys.modules) - before:  # a test's planted package, not ours
            if not planted_name.startswith("mighty_cli"):
                del sys.modules[planted_name]


@functools.cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> list[Import]:
    """A module's imports of modules of its own package, absolute, but those only a type checker
    reads (``if TYPE_CHECKING``), which never run."""
    tree = parsed(path)
    typing_only = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and getattr(node.test, "id", getattr(node.test, "attr", "")) ==
                   "TYPE_CHECKING" for inner in ast.walk(node)}
    in_function = {id(inner) for node in ast.walk(tree)
                   if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                   for inner in ast.walk(node)}
    home = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        deferred = id(node) in in_function
        if isinstance(node, ast.Import):
            found += [Import(alias.name, (), deferred, node.lineno) for alias in node.names
                      if alias.name in modules]
        elif isinstance(node, ast.ImportFrom):
            parts = home.split(".")
            base = parts[:len(parts) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:  # "from package import module" imports the module
                if f"{target}.{alias.name}" in modules:
                    found.append(Import(f"{target}.{alias.name}", (), deferred, node.lineno))
            names = tuple(alias.name for alias in node.names
                          if f"{target}.{alias.name}" not in modules)
            if target in modules and (names or not node.names):
                found.append(Import(target, names, deferred, node.lineno))
    return found


@functools.cache
def import_graph(package: Path) -> dict[str, list[Import]]:
    modules = modules_of(package)
    return {module: imports_of(module, path, modules) for module, path in modules.items()}


def import_cycles(package: Path) -> list[frozenset]:
    """The cycles among a package's modules, counting every import (a deferred one inside a
    function too: a cycle hidden there is still a cycle), as strongly connected components."""
    graph = {module: {i.target for i in found if i.target != module}
             for module, found in import_graph(package).items()}
    order, low, stack, cycles, counter = {}, {}, [], [], [0]

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
                cycles.append(frozenset(component))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return cycles


def layer_violations(package: Path, layers: list[tuple[str, ...]]) -> list[str]:
    """Imports pointing up: a module importing one of a later layer. ``layers`` names, lowest
    first, the package's members (a module or a sub-package, with all it holds); a member in no
    layer is not checked; the package's own ``__init__`` may import any layer."""
    rank = {member: index for index, names in enumerate(layers) for member in names}
    prefix = dotted_name(package) + "."

    def layer(module: str):
        inside = module[len(prefix):] if module.startswith(prefix) else ""
        return rank.get(inside.split(".")[0]) if inside else None

    return [f"{module} imports {i.target} (line {i.line})"
            for module, found in import_graph(package).items() for i in found
            if layer(module) is not None and layer(i.target) is not None
            and layer(i.target) > layer(module)]


def _package_of(module: str, modules: dict[str, Path]) -> str:
    return module if modules[module].name == "__init__.py" else module.rpartition(".")[0]


def private_names_across(package: Path) -> list[str]:
    """Private names (``_x``; ``_``, gettext's, is the convention's) a module takes from a
    module of another package, by import or as an attribute of an imported module."""
    modules = modules_of(package)
    graph = import_graph(package)
    found = []
    for module, path in modules.items():
        own = _package_of(module, modules)
        imported = graph[module]
        for i in imported:
            if _package_of(i.target, modules) == own:
                continue
            leaf = i.target.rpartition(".")[2]
            if not i.names and leaf.startswith("_") and not leaf.startswith("__"):
                found.append(f"{module} imports the private module {i.target}")
            found += [f"{module} imports {i.target}.{name}" for name in i.names
                      if name.startswith("_") and name != "_" and not name.startswith("__")]
        aliases = {}
        tree = parsed(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    for i in imported:
                        if i.line == node.lineno and i.target.endswith("." + alias.name):
                            aliases[alias.asname or alias.name] = i.target
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in aliases and node.attr.startswith("_") \
                    and not node.attr.startswith("__") \
                    and _package_of(aliases[node.value.id], modules) != own:
                found.append(f"{module} uses {aliases[node.value.id]}.{node.attr}")
    return sorted(set(found))


def repeated_module_names(package: Path) -> list[str]:
    """Module and sub-package names used twice anywhere in the package."""
    seen: dict[str, list[str]] = {}
    for module, path in modules_of(package).items():
        leaf = module.rpartition(".")[2]
        if "." in module:
            seen.setdefault(leaf, []).append(module)
    return sorted(f"{leaf}: {', '.join(sorted(where))}" for leaf, where in seen.items()
                  if len(where) > 1)


def unexplained_deferred_imports(package: Path) -> list[str]:
    """Imports of the package's own modules made inside a function with no reason given: a
    comment on the import's line or the line above, or a module-level comment beginning
    ``# Deferred imports:`` that gives the module's reason (start-up time, in the command line)."""
    found = []
    graph = import_graph(package)
    for module, path in modules_of(package).items():
        lines = path.read_text(encoding="utf-8").splitlines()
        if any(line.startswith("# Deferred imports:") for line in lines):
            continue
        for i in graph[module]:
            if i.deferred and "#" not in lines[i.line - 1] \
                    and not lines[i.line - 2].strip().startswith("#"):
                found.append(f"{module}:{i.line}: {lines[i.line - 1].strip()}")
    return sorted(set(found))


# --- the package's shape ---------------------------------------------------------------------

#: mighty_cli's layers, lowest first: each imports only from the layers before it.
PACKAGE_LAYERS = [
    ("engine",),
    ("render", "standings", "seating", "rating", "skill_season", "skill_play", "tournament",
     "garbage"),
    ("store",),
    ("table", "site_data", "site_hand", "i18n"),
    ("cli", "web"),
]

#: The engine's layers (mighty_cli/engine/__init__.py describes them).
ENGINE_LAYERS = [
    ("errors", "translation", "particles", "limits", "inputs", "outputs", "safe_toml", "names"),
    ("cards",),
    ("ruleset",),
    ("scoring", "session"),
    ("hand",),
    ("records",),
    ("simulation", "policies"),
]


def test_every_member_has_a_layer():
    """A new module or sub-package is placed in a layer, so the direction is checked for it."""
    for package, layers in ((ROOT / "mighty_cli", PACKAGE_LAYERS),
                            (ROOT / "mighty_cli" / "engine", ENGINE_LAYERS)):
        members = {info.name for info in pkgutil.iter_modules([str(package)])} - {"__main__"}
        assert members == {member for names in layers for member in names}, package


def test_the_package_layers_point_down():
    assert layer_violations(ROOT / "mighty_cli", PACKAGE_LAYERS) == []


def test_the_engine_layers_point_down():
    """cards -> ruleset -> scoring -> hand -> records: no module imports one above it."""
    assert layer_violations(ROOT / "mighty_cli" / "engine", ENGINE_LAYERS) == []


def test_no_import_cycle():
    """No module of the package imports one that imports it back, however far round and
    whether the import is at the top or deferred inside a function."""
    assert import_cycles(ROOT / "mighty_cli") == []


def test_no_private_name_crosses_a_package():
    assert private_names_across(ROOT / "mighty_cli") == []


def test_one_module_per_name():
    assert repeated_module_names(ROOT / "mighty_cli") == []


def test_every_deferred_import_says_why():
    assert unexplained_deferred_imports(ROOT / "mighty_cli") == []


def test_the_engine_names_its_api():
    """``mighty_cli.engine`` gives the public names (on first use, so importing the engine's
    errors alone stays cheap), and every sub-package declares its own ``__all__``."""
    from mighty_cli import engine

    assert {name for name in engine.__all__ if getattr(engine, name) is None} == set()
    assert loaded_in_a_fresh_process("import mighty_cli.engine.errors",
                                     "m.startswith('mighty_cli.engine.hand')") == []
    for sub in ("cards", "ruleset", "hand", "records"):
        module = importlib.import_module(f"mighty_cli.engine.{sub}")
        assert module.__all__ and all(hasattr(module, name) for name in module.__all__), sub


# --- the checks find what they look for ---------------------------------------------------------


def planted(tmp_path: Path, files: dict[str, str]) -> Path:
    package = tmp_path / "planted"
    for name, text in {"__init__.py": "", **files}.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return package


def test_the_cycle_check_finds_a_planted_cycle(tmp_path):
    package = planted(tmp_path, {
        "a.py": "from .b import x\n",
        "b.py": "def x():\n    from .c import y\n",
        "c.py": "import planted.a\ny = 1\n",
        "d.py": "from . import a\n",
        # a typing-only import back (``if TYPE_CHECKING``) never runs: no cycle
        "e.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .f import w\n"
                 "z = 1\n"),
        "f.py": "from .e import z\nw = z\n"})
    assert import_cycles(package) == [frozenset({"planted.a", "planted.b", "planted.c"})]


def test_the_layer_check_finds_a_planted_upward_import(tmp_path):
    package = planted(tmp_path, {
        "low/__init__.py": "", "low/base.py": "def f():\n    from ..high.top import t  # up\n",
        "high/__init__.py": "", "high/top.py": "from ..low.base import f\nt = f\n",
        "leaf.py": "from .low import base\n"})
    assert layer_violations(package, [("leaf",), ("low",), ("high",)]) == [
        "planted.leaf imports planted.low.base (line 1)",
        "planted.low.base imports planted.high.top (line 2)"]


def test_the_private_check_finds_a_planted_private_import(tmp_path):
    package = planted(tmp_path, {
        "inner/__init__.py": "", "inner/a.py": "_x = 1\ny = 2\n",
        "inner/b.py": "from .a import _x\n",
        "outer.py": "from .inner.a import _x, y\nfrom .inner import a\nz = a._x\n",
        "words.py": "from .inner.a import y as _\n"})
    assert private_names_across(package) == ["planted.outer imports planted.inner.a._x",
                                             "planted.outer uses planted.inner.a._x"]


def test_the_name_check_finds_a_planted_repeated_name(tmp_path):
    package = planted(tmp_path, {"one/__init__.py": "", "one/site.py": "",
                                 "two/__init__.py": "", "two/site.py": "", "site/__init__.py": ""})
    assert repeated_module_names(package) == ["site: planted.one.site, planted.site, "
                                              "planted.two.site"]


def test_the_deferred_check_finds_a_planted_silent_import(tmp_path):
    package = planted(tmp_path, {
        "a.py": "x = 1\n",
        "b.py": "def f():\n    from .a import x\n    return x\n",
        "c.py": "def f():\n    from .a import x  # start-up: only f needs it\n    return x\n",
        "d.py": "# Deferred imports: for start-up time\ndef f():\n    from .a import x\n"})
    assert unexplained_deferred_imports(package) == ["planted.b:2: from .a import x"]
