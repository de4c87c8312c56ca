"""Writing the files a user names, and nothing else: a file is written whole under a fresh
temporary name beside it (created exclusively, so never through a link planted at that name)
and moved over the name only when complete; a folder the tool fills (a site) is written only
inside itself, never through a link that leads out of it.

A name that is a device or a pipe (``/dev/stdout``) is written in place: moving a file over it
would replace the device itself.
"""

from __future__ import annotations

import functools
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from .errors import MightyError
from .translation import _


class OutputError(MightyError):
    """A file or folder the tool was told to write cannot be written where it was told."""


def _fail(path: str | Path, exc: OSError) -> OutputError:
    return OutputError(
        _("cannot write {path}: {error}").format(path=path, error=exc.strerror or exc)
    )


def _writer(file: Path | int, binary: bool, newline: str | None) -> IO[Any]:
    """The file, or the descriptor (closed with it), opened to write bytes or UTF-8 text."""
    if binary:
        return open(file, "wb")
    return open(file, "w", encoding="utf-8", newline=newline)


@contextmanager
def replaced_file(
    path: str | Path, binary: bool = False, newline: str | None = None, root: Path | None = None
) -> Iterator[IO]:
    """A file to write whose content replaces ``path`` only when the block ends without an
    error (a failure leaves the old file, or none). With ``root``, ``path`` must lie inside it
    with no link on the way (:func:`inside`)."""
    path = Path(path)
    if root is not None:
        inside(root, path.parent)
    if path.is_dir():
        raise OutputError(_("{path} is a folder: name a file").format(path=path))
    if os.path.lexists(path) and not stat.S_ISREG(os.lstat(path).st_mode) and not path.is_symlink():
        try:  # a device or a pipe: written in place
            with _writer(path, binary, newline) as out:
                yield out
        except OSError as exc:
            raise _fail(path, exc) from None
        return
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=".part", dir=path.parent or "."
        )
    except OSError as exc:
        raise _fail(path, exc) from None
    try:
        with _writer(handle, binary, newline) as out:
            yield out
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)  # a link at the name is replaced, not followed
    except OSError as exc:
        raise _fail(path, exc) from None
    finally:
        if os.path.lexists(temporary):
            os.remove(temporary)


def write_file(path: str | Path, data: bytes | str, root: Path | None = None) -> None:
    """Write ``data`` to ``path`` whole, as :func:`replaced_file` does."""
    with replaced_file(path, binary=isinstance(data, bytes), root=root) as out:
        out.write(data)


def replace_bytes(path: str, data: bytes) -> os.stat_result:
    """Write ``data`` to ``path`` whole, as :func:`write_file` does (a fresh temporary name
    beside it, created exclusively, then moved over the name; a link at the name replaced,
    never followed), in the fewest system calls: for a folder the caller has made and
    checked (a site's pages, thousands a build). The file's status as written (its inode and
    modification time, which the move keeps); the file is readable by all, as a page is."""
    folder, name = os.path.split(path)
    while True:
        temporary = os.path.join(folder, f".{name}.{os.urandom(4).hex()}.part")
        try:
            handle = os.open(temporary, _NEW_FILE, 0o644)
        except FileExistsError:
            continue
        except OSError as exc:
            raise _fail(path, exc) from None
        break
    try:
        try:
            if _umask() & 0o644:
                os.fchmod(handle, 0o644)
            view = memoryview(data)
            while view:
                view = view[os.write(handle, view) :]
            info = os.fstat(handle)
        finally:
            os.close(handle)
        os.replace(temporary, path)
    except OSError as exc:
        if os.path.lexists(temporary):
            os.remove(temporary)
        raise _fail(path, exc) from None
    return info


_NEW_FILE = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


@functools.cache
def _umask() -> int:
    """The process's file mode mask (read once: reading it means setting it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def inside(root: Path, folder: Path) -> Path:
    """``folder`` (``root`` or below it), every part of it from ``root`` down made if missing
    and checked to be a real folder, not a link: what is written there stays in ``root``."""
    root, folder = Path(root), Path(folder)
    try:
        parts = folder.relative_to(root).parts
    except ValueError:
        raise OutputError(_("{path} is not inside {root}").format(path=folder, root=root)) from None
    current = root
    for part in ("",) + parts:
        current = current / part if part else current
        if current.is_symlink() and current != root:
            raise OutputError(
                _(
                    "{path} is a link: the tool writes only inside {root}, never through a link"
                ).format(path=current, root=root)
            )
        try:
            current.mkdir(parents=current == root, exist_ok=True)
        except OSError as exc:
            raise _fail(current, exc) from None
    return folder
