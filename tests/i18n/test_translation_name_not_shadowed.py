"""No function of mighty_cli binds ``_`` (``_, x = ...``, ``for _ in ...``) where the module
translates with ``_``: Python then treats ``_`` as local in the whole function, so the first
translated message raises UnboundLocalError instead of printing (``mighty replay missing.toml``
once crashed this way)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "mighty_cli"


def _binds_underscore(function: ast.AST) -> list[int]:
    """Lines where ``function`` itself (not a nested function or comprehension) binds ``_``."""
    lines = []
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(
            node,
            (
                ast.FunctionDef,
                ast.AsyncFunctionDef,
                ast.Lambda,
                ast.ClassDef,
                ast.ListComp,
                ast.SetComp,
                ast.DictComp,
                ast.GeneratorExp,
            ),
        ):
            continue
        if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store):
            lines.append(node.lineno)
        stack.extend(ast.iter_child_nodes(node))
    return lines


def _calls_underscore(function: ast.AST) -> bool:
    return any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_"
        for node in ast.walk(function)
    )


def _translating_modules() -> list[Path]:
    return sorted(
        path for path in PACKAGE.rglob("*.py") if "_(" in path.read_text(encoding="utf-8")
    )


@pytest.mark.parametrize("path", _translating_modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_function_shadows_the_translation_function(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _calls_underscore(node):
            problems += [
                f"{path.name}:{line} binds _ in {node.name}()" for line in _binds_underscore(node)
            ]
    assert not problems, problems
