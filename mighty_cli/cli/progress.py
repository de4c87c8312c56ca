"""Progress on long work (``import``, ``export``, ``backup``, ``restore``, ``simulate``): one
line on the terminal's standard error, redrawn at most five times a second, with the count,
the share done and an estimate of the time left; nothing at all on a pipe, in a file or with
``--quiet``, so what a command prints stays what scripts read.

The work reports ``progress(done, total)`` (``total`` None while unknown); the line is wiped
when the work ends, and the command prints its usual summary.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

import click

from ..i18n import N_, _

quiet_option = click.option(
    "--quiet", "-q", is_flag=True, help=N_("Show no progress on the terminal.")
)


#: Seconds of work before the pace is trusted for an estimate of the time left.
SETTLED = 1.0


class Progress:
    """A progress line; calling it reports how far the work is."""

    def __init__(self, label: str, stream: IO[str], interval: float = 0.2):
        self.label, self.stream, self.interval = label, stream, interval
        self.started = time.monotonic()
        self.drawn_at = 0.0
        self.width = 0

    def __call__(self, done: int, total: int | None = None) -> None:
        now = time.monotonic()
        if now - self.drawn_at < self.interval and (total is None or done < total):
            return
        self.drawn_at = now
        self._draw(self.line(done, total, now - self.started))

    @staticmethod
    def estimate(done: int, total: int | None, elapsed: float) -> float | None:
        """Seconds left at the pace so far (None until there is a pace and a total)."""
        if not total or done <= 0 or elapsed < SETTLED:
            return None
        return max(0.0, elapsed * (total - done) / done)

    def line(self, done: int, total: int | None, elapsed: float) -> str:
        if total:
            left = self.estimate(done, total, elapsed)
            text = _("{label}: {done:,} of {total:,} ({percent:.0f}%)").format(
                label=self.label, done=done, total=total, percent=100.0 * done / total
            )
            if left is not None and done < total:
                text += _(", about {time} left").format(time=_duration(left))
            return text
        return _("{label}: {done:,}, {time}").format(
            label=self.label, done=done, time=_duration(elapsed)
        )

    def _draw(self, text: str) -> None:
        pad = max(0, self.width - len(text))
        self.stream.write("\r" + text + " " * pad)
        self.stream.flush()
        self.width = len(text)

    def close(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return _("{seconds} s").format(seconds=seconds)
    return _("{minutes} min {seconds} s").format(minutes=seconds // 60, seconds=seconds % 60)


def silent(done: int, total: int | None = None) -> None:
    """Progress where none is shown."""


@contextmanager
def progress(label: str, quiet: bool = False, stream: IO[str] | None = None) -> Iterator:
    """A progress reporter for the work inside: a line on a terminal's standard error, or a
    reporter that shows nothing (a pipe, a file, ``--quiet``)."""
    stream = stream or sys.stderr
    try:
        shown = not quiet and stream.isatty()
    except (AttributeError, ValueError):
        shown = False
    if not shown:
        yield silent
        return
    line = Progress(label, stream)
    try:
        yield line
    finally:
        line.close()
