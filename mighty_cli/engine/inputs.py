"""Reading a user's file within bounds: every reader of a ruleset, a record, an export, a
backup, a deal or a saved evening opens it here and reads it through these functions.

A named pipe (FIFO) would make the tool wait for a writer forever, so it is refused, unless it
is the tool's own standard input (``/dev/stdin``, which is streamed on purpose). A device or a
file that never ends (``/dev/zero``) is bounded by the line limit; a document read whole by the
total limit; text that is not UTF-8 is one error naming the line.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from .translation import _


def refuse_fifo(path: str | Path, label: str, error: type[Exception]) -> None:
    """Refuse a named pipe that is not standard input (opening it waits for a writer)."""
    try:
        mode = os.stat(path)
    except (OSError, ValueError):
        return  # opening it reports the problem
    if stat.S_ISFIFO(mode.st_mode) and not _is_standard_input(mode):
        raise error(
            _(
                "{label}: a named pipe (FIFO) has no end to wait for: give a file, or "
                "pipe the text into /dev/stdin"
            ).format(label=label)
        )


def refuse_irregular(path: str | Path, label: str, error: type[Exception]) -> None:
    """Refuse a path that is there but is not a regular file (a named pipe, a folder, a
    device), for a reader that needs a file it can read whole (a ruleset): said as what it is,
    not as a file that is not found."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return  # not there: the caller says so
    if stat.S_ISFIFO(mode):
        raise error(
            _("{label}: a named pipe (FIFO), not a regular file: give a file").format(label=label)
        )
    if not stat.S_ISREG(mode):
        raise error(_("{label}: not a regular file").format(label=label))


def _is_standard_input(mode: os.stat_result) -> bool:
    try:
        given = os.fstat(0)
    except OSError:
        return False
    return (given.st_dev, given.st_ino) == (mode.st_dev, mode.st_ino)


def open_text(
    path: str | Path,
    label: str,
    error: type[Exception],
    encoding: str = "utf-8-sig",
    newline: str | None = None,
) -> IO[str]:
    """A user's file opened for reading as text (a FIFO refused, an OS error one line)."""
    refuse_fifo(path, label, error)
    try:
        return open(path, encoding=encoding, newline=newline)
    except OSError as exc:
        raise error(
            _("{label}: cannot read: {error}").format(label=label, error=exc.strerror or exc)
        ) from None


def bounded_lines(
    stream: IO[str], label: str, error: type[Exception], line_max: int, first: int = 1
) -> Iterator[str]:
    """The stream's lines, a line longer than ``line_max`` characters refused before it is
    held, text that is not UTF-8 refused with its line number."""
    number = first - 1
    while True:
        number += 1
        try:
            line = stream.readline(line_max + 2)
        except UnicodeDecodeError:
            raise error(
                _("{label}: not UTF-8 text (at line {number} or just after)").format(
                    label=label, number=number
                )
            ) from None
        if not line:
            return
        if len(line.rstrip("\r\n")) > line_max:
            raise error(
                _("{label}: line {number} is longer than {size} MiB").format(
                    label=label, number=number, size=max(line_max >> 20, 1)
                )
            )
        yield line


def read_bounded(stream: IO[str], label: str, error: type[Exception], limit: int) -> str:
    """The rest of the stream as one text, refused beyond ``limit`` characters."""
    try:
        text = stream.read(limit + 1)
    except UnicodeDecodeError:
        raise error(_("{label}: not UTF-8 text").format(label=label)) from None
    if len(text) > limit:
        raise error(
            _("{label}: larger than {size} MiB").format(label=label, size=max(limit >> 20, 1))
        )
    return text
