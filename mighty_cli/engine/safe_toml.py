"""Reading shared TOML files (rulesets, hand records) within bounds, with one-line errors.

A file is read only up to its size limit (``/dev/zero`` and ``/dev/urandom`` are files too),
parsed, and its nesting checked, so no file can exhaust memory or the stack. Every failure is
the caller's project error (``RulesetError``, ``RecordError``) naming the file.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Any

from .inputs import refuse_fifo
from .limits import TOML_MAX_DEPTH
from .translation import _

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib


def read_text(path: Path, limit: int, label: str, error: type[Exception]) -> str:
    """The file's UTF-8 text, refusing anything larger than ``limit`` bytes before reading it
    all (a named pipe, which would wait for a writer, is refused)."""
    refuse_fifo(path, str(label), error)
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise error(
            _("{label}: cannot read: {error}").format(label=label, error=exc.strerror or exc)
        ) from None
    if len(data) > limit:
        raise _too_large(label, limit, error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(
            _("{label}: cannot read: not UTF-8 text (byte {byte})").format(
                label=label, byte=exc.start
            )
        ) from None


def loads(text: str) -> dict:
    """``tomllib.loads`` with the cyclic garbage collector paused. A deeply nested file makes
    the parser recurse to the interpreter's limit (the RecursionError callers turn into a
    one-line error); a collection started down there would run other objects' finalizers with
    no stack left, and their failures would reach standard error beside that one line."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return tomllib.loads(text)
    finally:
        if enabled:
            gc.enable()


def parse(text: str, label: str, error: type[Exception], limit: int | None = None) -> dict:
    """Parse TOML text, refusing text over ``limit`` characters and tables or arrays nested
    more than :data:`~.limits.TOML_MAX_DEPTH` deep."""
    if limit is not None and len(text) > limit:
        raise _too_large(label, limit, error)
    try:
        data = loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(_("{label}: not valid TOML: {error}").format(label=label, error=exc)) from None
    except RecursionError:
        raise _too_deep(label, TOML_MAX_DEPTH, error) from None
    check_depth(data, label, error)
    return data


def check_depth(data: Any, label: str, error: type[Exception], limit: int = TOML_MAX_DEPTH) -> None:
    """Refuse tables or arrays nested more than ``limit`` deep (walked without recursion)."""
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            raise _too_deep(label, limit, error)
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


def short(value: Any, width: int = 60) -> str:
    """A value's repr for an error message, cut to ``width`` characters."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _too_large(label: str, limit: int, error: type[Exception]) -> Exception:
    return error(
        _("{label}: larger than {size}: not a file this tool reads").format(
            label=label, size=_size(limit)
        )
    )


def _too_deep(label: str, limit: int, error: type[Exception]) -> Exception:
    return error(
        _("{label}: tables or arrays nested more than {limit} deep").format(
            label=label, limit=limit
        )
    )


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit >> 10} kB"
