"""The bundled templates compiled once per machine, not once per command: Jinja2's bytecode
cache in the user's cache folder (``$XDG_CACHE_HOME/mighty/templates``, else
``~/.cache/mighty/templates``; ``%LOCALAPPDATA%`` on Windows, ``~/Library/Caches`` on macOS).

Compiling the site's templates costs a third of a second, more than an evening's build
renders; a cached template is loaded in a millisecond. Jinja2 keys each entry by the
template's name and a digest of its source, and refuses an entry written by another Jinja2 or
Python version; the entry's name also carries a digest of the environment's options (what
else the compiled code depends on), so an edited template, an upgrade or other options are
compiled again. A cache entry is code the
tool runs: the folder is used only when it is a real folder (not a link) that this user owns
and nobody else may write, and is made so (``0700``) when missing. A cache that cannot be read
or written is no cache: the template is compiled, nothing fails.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from jinja2.bccache import Bucket, BytecodeCache


def cache_folder() -> Path:
    """Where the compiled templates go."""
    if sys.platform.startswith("win"):
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home())
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "mighty" / "templates"


def _private(folder: Path) -> bool:
    """Whether ``folder`` is (now) a real folder of this user's that nobody else may write."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    return not hasattr(os, "getuid") or info.st_uid == os.getuid()


def bytecode_cache(options: str = "") -> Optional[BytecodeCache]:
    """A Jinja2 bytecode cache in :func:`cache_folder` for an environment made with
    ``options`` (their text: the same template compiles differently under other options, so
    each set has its own entries), or None where there can be none."""
    import hashlib

    from jinja2 import FileSystemBytecodeCache

    class QuietCache(FileSystemBytecodeCache):
        def load_bytecode(self, bucket: Bucket) -> None:
            try:
                super().load_bytecode(bucket)
            except Exception:  # noqa: BLE001 - unreadable or torn: compiled again
                bucket.reset()

        def dump_bytecode(self, bucket: Bucket) -> None:
            try:
                super().dump_bytecode(bucket)
            except OSError:  # a full disk, a read-only home: compiled next time too
                pass

    folder = cache_folder()
    if not _private(folder):
        return None
    tag = hashlib.sha256(options.encode("utf-8")).hexdigest()[:16]
    return QuietCache(str(folder), pattern=f"__jinja2_%s_{tag}.cache")
