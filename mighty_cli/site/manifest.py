"""What a site folder holds, as the tool wrote it: the manifest behind incremental builds.

``mighty site`` keeps ``.mighty-site.json`` in the folder it writes: for each page it wrote,
the page's key (a digest of everything the page shows, :func:`fingerprint`) and the digest
and size of the bytes written. The next build renders a page only when its key changed or
its file is no longer what the tool wrote; it removes a page the site no longer has only when
the manifest lists it and the file is still, byte for byte, what the tool wrote there. A file
the tool did not write is never in the manifest, so never removed; a manifest that cannot be
read, or names anything but a site page, counts as empty (everything is rendered, nothing
removed).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import os
import pickle
import re
import stat
from dataclasses import dataclass
from datetime import date, datetime, time, tzinfo
from pathlib import Path
from typing import Any

#: The manifest's name inside the site's folder.
MANIFEST = ".mighty-site.json"
#: Changed when the manifest's layout or the keys' meaning changes: every page is then rendered.
FORMAT = 1
#: The pages a site has (site_pages' URLs): nothing else is ever removed.
PAGE_NAME = re.compile(
    r"(index|statistics|(sessions|tournament)(-[1-9][0-9]*)?)\.html"
    r"|(sessions|players|hands)/[0-9]+(-[1-9][0-9]*)?\.html"
)
#: A page's temporary file (``engine.outputs.replace_bytes``: ``.<name>.<8 random>.part``),
#: left behind only by a process killed while writing it.
TEMPORARY_NAME = re.compile(r"\.(?P<name>[^/]+)\.[a-z0-9_]{8}\.part")
#: A manifest larger than this is not read (a site of a million hands lists some 30,000 pages).
MANIFEST_MAX_BYTES = 64 << 20


@dataclass(frozen=True)
class Entry:
    """A page as the tool wrote it: its key, its bytes' digest and size, and the file's
    modification time and inode just after it was written (a page found with both unchanged is
    not read again to be trusted; None in a manifest that did not keep them)."""

    key: str
    digest: str
    size: int
    stamp: list[int] | None = None


class Unkeyed(Exception):
    """A value whose content cannot be told from outside (it is rendered every time)."""


_PLAIN = (str, int, float, bool, type(None))


def fingerprint(*values: object) -> str:
    """A digest of ``values`` as data: different content, different digest. Pickled (at C
    speed: a session page's hundred hands, thousands of times), else written out by
    :func:`_canonical`. A pickle may differ for equal content (a set's order varies between
    processes): that page is then only rendered again, never kept when it changed."""
    try:
        data = b"p" + pickle.dumps(values, protocol=5)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        parts: list[str] = []
        for value in values:
            _canonical(value, parts, 0)
        data = b"c" + "\x1f".join(parts).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=20).hexdigest()


_DATACLASSES: dict[type, bool] = {}


def _canonical(value: Any, out: list[str], depth: int) -> None:
    if depth > 40:
        raise Unkeyed("nested too deep")
    kind = type(value)
    if kind in _PLAIN:
        out.append(repr(value))
    elif kind is list or kind is tuple:
        if all(type(v) in _PLAIN for v in value):  # the common case, at C speed
            out.append(repr(value))
            return
        out.append("[")
        for item in value:
            if type(item) in _PLAIN:
                out.append(repr(item))
            else:
                _canonical(item, out, depth + 1)
        out.append("]")
    elif kind is dict:
        items = []
        for key, item in value.items():
            part: list[str] = []
            _canonical(key, part, depth + 1)
            _canonical(item, part, depth + 1)
            items.append("\x1e".join(part))
        out.append("{" + "\x1d".join(sorted(items)) + "}")
    elif kind is set or kind is frozenset:
        members = []
        for item in value:
            part = []
            _canonical(item, part, depth + 1)
            members.append("\x1e".join(part))
        out.append("<" + "\x1d".join(sorted(members)) + ">")
    elif _is_dataclass(kind):
        fields = getattr(value, "__dict__", None)
        if fields is None:  # slots: the declared fields
            fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        out.append(kind.__qualname__ + "(")
        for name, item in fields.items():  # every attribute: what a template may show
            out.append(name)
            if type(item) in _PLAIN:
                out.append(repr(item))
            else:
                _canonical(item, out, depth + 1)
        out.append(")")
    elif isinstance(value, (datetime, date, time)):
        out.append(f"{kind.__name__}:{value.isoformat()}:{getattr(value, 'tzinfo', None)!r}")
    elif isinstance(value, (tzinfo, enum.Enum)):
        out.append(repr(value))
    elif isinstance(value, str):  # Markup and other str subclasses
        out.append(kind.__name__ + ":" + repr(str(value)))
    elif hasattr(value, "__dict__") and not callable(value):
        out.append(kind.__qualname__ + "(")
        _canonical(dict(vars(value)), out, depth + 1)
        out.append(")")
    else:
        raise Unkeyed(kind.__qualname__)


def _is_dataclass(kind: type) -> bool:
    known = _DATACLASSES.get(kind)
    if known is None:
        known = _DATACLASSES[kind] = dataclasses.is_dataclass(kind)
    return known


def unchanged(path: Path, entry: Entry) -> bool:
    """Whether the page at ``path`` is still what the tool wrote (``entry``)."""
    return verified(path, entry) is not None


def verified(path: str | Path, entry: Entry) -> Entry | None:
    """``entry`` if the page at ``path`` is still what the tool wrote, with the file's stamp
    of now when its bytes had to be read to know it (a folder copied or restored, whose
    files have new inodes, is read once, not at every build); None if it changed or is gone."""
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size != entry.size:
            return None
        stamp = [info.st_mtime_ns, info.st_ino]
        if stamp == entry.stamp:
            return entry
        with open(path, "rb") as handle:
            digest = hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None
    return dataclasses.replace(entry, stamp=stamp) if digest == entry.digest else None


def data_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_manifest(folder: Path) -> dict[str, Entry]:
    """The pages the tool wrote in ``folder`` last time (empty when there is no manifest, or
    one that is not the tool's)."""
    path = folder / MANIFEST
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MANIFEST_MAX_BYTES:
            return {}
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    if (
        not isinstance(data, dict)
        or data.get("format") != FORMAT
        or not isinstance(data.get("pages"), dict)
    ):
        return {}
    pages: dict[str, Entry] = {}
    for url, entry in data["pages"].items():
        if not (
            isinstance(url, str)
            and PAGE_NAME.fullmatch(url)
            and isinstance(entry, list)
            and len(entry) in (3, 4)
            and all(isinstance(x, str) for x in entry[:2])
            and isinstance(entry[2], int)
            and (
                len(entry) == 3
                or isinstance(entry[3], list)
                and len(entry[3]) == 2
                and all(type(x) is int for x in entry[3])
            )
        ):
            return {}  # not what the tool writes: trusted for nothing
        pages[url] = Entry(*entry)
    return pages


def manifest_bytes(pages: dict[str, Entry]) -> bytes:
    """The manifest of ``pages`` as written, a line a page in page order (a folder under
    version control sees only the lines that changed; each line made by the JSON module's
    compiled encoder, which an indented whole would not use)."""
    encode = json.JSONEncoder(ensure_ascii=False).encode
    lines = [
        encode(url)
        + ": "
        + encode([entry.key, entry.digest, entry.size] + ([entry.stamp] if entry.stamp else []))
        for url, entry in sorted(pages.items())
    ]
    return (f'{{"format": {FORMAT}, "pages": {{\n' + ",\n".join(lines) + "\n}}\n").encode("utf-8")


def remove_leftovers(folder: Path, before: float) -> int:
    """Remove the temporary files of site pages in ``folder`` and its page folders that a
    killed process left (older than ``before``, a time: a build writing there now is left
    alone); how many. Only a regular file named as a page's temporary file goes."""
    removed = 0
    for sub in ("", "sessions", "players", "hands"):
        if sub and os.path.islink(folder / sub):
            continue  # never through a link
        try:
            with os.scandir(folder / sub) as entries:
                for entry in entries:
                    match = TEMPORARY_NAME.fullmatch(entry.name)
                    if match is None or not PAGE_NAME.fullmatch(
                        f"{sub}/{match['name']}" if sub else match["name"]
                    ):
                        continue
                    info = entry.stat(follow_symlinks=False)
                    if stat.S_ISREG(info.st_mode) and info.st_mtime < before:
                        os.remove(entry.path)
                        removed += 1
        except OSError:
            continue  # a folder not there (yet), or not ours to tidy: nothing to do
    return removed
