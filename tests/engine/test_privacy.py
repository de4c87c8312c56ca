"""A leading underscore in the engine means private to its module (DEVELOPERS.md, "Files,
terminals and layers"): a name another module of the engine uses has none, and no module outside
the hand package reads a hand state's own attributes (``HandState``'s properties are its API)."""

from __future__ import annotations

import ast
from pathlib import Path

from test_imports import ROOT, import_graph, modules_of, parsed, planted

from mighty_cli.engine.hand.state import HandState


def private_names_between_modules(package: Path) -> list[str]:
    """Private names (``_x``; ``_``, gettext's, is the convention's) a module takes from another
    module of the package, its siblings included, by import or as an imported module's
    attribute."""
    modules = modules_of(package)
    found = []
    for module, imported in import_graph(package).items():
        for i in imported:
            found += [f"{module} imports {i.target}.{name}" for name in i.names
                      if name.startswith("_") and name != "_" and not name.startswith("__")]
        aliases = {}
        tree = parsed(modules[module])
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    for i in imported:
                        if i.line == node.lineno and i.target.endswith("." + alias.name):
                            aliases[alias.asname or alias.name] = i.target
        found += [f"{module} uses {aliases[node.value.id]}.{node.attr}" for node in ast.walk(tree)
                  if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                  and node.value.id in aliases and node.attr.startswith("_")
                  and not node.attr.startswith("__")]
    return sorted(set(found))


def private_attributes_read(package: Path, names: frozenset[str], inside: str) -> list[str]:
    """Reads of the attributes ``names`` (of another object than ``self``) by modules of the
    package outside the sub-package ``inside``."""
    found = []
    for module, path in modules_of(package).items():
        if module == inside or module.startswith(inside + "."):
            continue
        found += [f"{module}:{node.lineno}: .{node.attr}" for node in ast.walk(parsed(path))
                  if isinstance(node, ast.Attribute) and node.attr in names
                  and not (isinstance(node.value, ast.Name) and node.value.id == "self")]
    return sorted(set(found))


def test_no_engine_module_takes_another_modules_private_name():
    assert private_names_between_modules(ROOT / "mighty_cli" / "engine") == []


def test_only_the_hand_package_reads_a_hand_states_own_attributes():
    own = frozenset(name for name in HandState.__slots__ if name.startswith("_"))
    assert private_attributes_read(ROOT / "mighty_cli", own, "mighty_cli.engine.hand") == []


def test_the_private_checks_find_what_they_look_for(tmp_path):
    package = planted(tmp_path, {
        "inner/__init__.py": "", "inner/a.py": "_x = 1\ny = 2\n",
        "inner/b.py": "from .a import _x\nfrom . import a\nz = a._y\n",
        "inner/c.py": "class S:\n    def f(self):\n        return self._hidden\n",
        "outer.py": "from .inner.a import y\ndef f(state):\n    return state._hidden\n",
        "words.py": "from .inner.a import y as _\n"})
    assert private_names_between_modules(package) == ["planted.inner.b imports planted.inner.a._x",
                                                      "planted.inner.b uses planted.inner.a._y"]
    assert private_attributes_read(package, frozenset({"_hidden"}), "planted.inner") == [
        "planted.outer:3: ._hidden"]
