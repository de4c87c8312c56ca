"""A site's pages rendered on every core: when a build has many pages to render (a first
build, ``--full``, a changed template), worker processes forked from the build render and
write them while the build goes on reading the league; the build records what they wrote.

A worker is a fork of the build taken when the workers start: it has the build's writer (its
environment, templates and common context) as it was then, and is sent pages as pickled jobs,
:data:`BATCH` in one message: each page's URL, template, key and a picklable function making
its context from what the pages share (a ``functools.partial``; a page whose job does not
pickle is rendered by the build itself). It renders each page, writes the file (whole, under a
temporary name first, as every page) and answers with the pages' manifest entries. At most
:data:`IN_FLIGHT` batches per worker wait at once, so a build's memory does not grow with the
site.

Workers run only for the bundled templates (a club's templates render in the sandbox, held
until the whole site has rendered, in the build's own process), only where processes fork
(Linux and the BSDs: not Windows, and not macOS, whose system libraries do not survive a
fork), and only once a build has rendered :data:`START_AFTER` pages itself (an evening's
build, a few dozen pages, never pays for starting them), or with the first page when the
build says it renders that many (a first build, ``--full``). A worker ignores Ctrl-C: the build,
stopped, lets its workers finish the pages they have (a few) and go, so a stopped build leaves
no half-written file; a worker killed outright (out of memory) breaks the pool, and the build
stops with one line instead of waiting for its answer (the pool then terminates the other
workers: a page being written is left as its temporary file, which the next build removes,
:func:`.manifest.remove_leftovers`).
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..engine.errors import MightyError
from ..engine.translation import _

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    from .page_files import SiteWriter

#: What a batch of pages gives back: each page's URL and manifest entry, and the error of the
#: page that failed.
Answer = tuple[list, Exception | None]

#: Pages a build renders itself before it starts workers.
START_AFTER = 64
#: Pages sent to a worker at once: one message, one answer (a page each would cost the
#: build as much CPU in messages as the workers spend rendering).
BATCH = 16
#: Batches waiting per worker at most: enough for the workers to go on rendering while the
#: build reads the league's standings and statistics (0.3-0.5 s at 3,000 hands; with 4, two
#: workers sat idle a third of a second of a three-second build).
IN_FLIGHT = 24

#: The build's writer, as a worker inherits it when forked (None in the build itself).
_WRITER: SiteWriter | None = None


def available_jobs() -> int:
    """Worker processes worth starting here: the cores this process may run on (1 where
    processes do not fork)."""
    import multiprocessing

    if sys.platform == "darwin" or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


class WorkerError(MightyError):
    """A worker process stopped without answering (killed: out of memory, by hand)."""


class Workers:
    """``jobs`` worker processes rendering and writing pages for ``writer`` (a
    :class:`.pages.SiteWriter`), each page given to :meth:`submit` as ``(url, template,
    key, make)``; ``record(url, entry)`` is told of each page written, in the build's
    process. ``templates`` are compiled before the workers fork. A worker that dies stops the
    build with :class:`WorkerError` (the pool is then broken: nothing waits forever)."""

    def __init__(
        self, writer: SiteWriter, jobs: int, record: Callable, templates: tuple = ()
    ) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        global _WRITER
        for name in templates:  # compiled once, before the fork, not in every worker
            writer.env.get_template(name)
        # The workers fork as pages come, each with the writer as it is then (until finish).
        _WRITER = writer
        self.pool = ProcessPoolExecutor(
            jobs, mp_context=multiprocessing.get_context("fork"), initializer=_worker_start
        )
        self.flight: deque = deque()
        self.limit = jobs * IN_FLIGHT
        self.record = record
        self.batch: list[bytes] = []

    def submit(self, url: str, template: str, key: str, make: Callable[[dict], dict]) -> bool:
        """Give the page to a worker (False, and nothing sent, when its job does not pickle:
        the caller renders it); the answers already in are recorded, and the build waits
        while too many pages are in flight."""
        try:
            job = pickle.dumps((url, template, key, make), protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
            return False
        self.batch.append(job)
        if len(self.batch) >= BATCH:
            self._send()
            while self.flight and (len(self.flight) > self.limit or self.flight[0].done()):
                self._recorded(self.flight.popleft())
        return True

    @property
    def busy(self) -> bool:
        """Whether as many batches are in flight as may be."""
        return len(self.flight) >= self.limit

    def _send(self) -> None:
        """Send the pages gathered, in one message."""
        if self.batch:
            self.flight.append(_submitted(self.pool, self.batch))
            self.batch = []

    def _recorded(self, future: Future[Answer]) -> None:
        """Record a batch's pages written; the error of the page that failed, raised."""
        written, failure = _answer(future)
        for url, entry in written:
            self.record(url, entry)
        if failure is not None:
            raise failure

    def finish(self) -> None:
        """Wait for every page in flight and record it; the workers then exit (also when the
        build is stopped while waiting: each finishes the pages it has, and nothing is left
        half-written). A page that failed raises its error here, once the others in flight
        are written and recorded."""
        global _WRITER
        failure: BaseException | None = None
        try:
            self._send()
            while self.flight:
                try:
                    self._recorded(self.flight.popleft())
                except Exception as exc:  # the first failure is the one told
                    failure = failure or exc
        finally:
            self.pool.shutdown(wait=True, cancel_futures=True)
            _WRITER = None
        if failure is not None:
            raise failure


def _submitted(pool: ProcessPoolExecutor, jobs: list[bytes]) -> Future[Answer]:
    from concurrent.futures.process import BrokenProcessPool

    try:
        return pool.submit(_render_pages, jobs)
    except BrokenProcessPool:
        raise _died() from None


def _answer(future: Future[Answer]) -> Answer:
    from concurrent.futures.process import BrokenProcessPool

    try:
        return future.result()
    except BrokenProcessPool:
        raise _died() from None


def _died() -> WorkerError:
    return WorkerError(
        _(
            "a process rendering pages stopped without finishing (out of "
            "memory?); the pages written so far are kept: build again, or with "
            "--jobs 1"
        )
    )


def _worker_start() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the build, which stops us


def _render_pages(jobs: list[bytes]) -> Answer:
    """Render and write a batch of pages: each page's URL and manifest entry, and the error
    of the page that failed (the batch's later pages left to the next build)."""
    writer = _WRITER
    assert writer is not None  # (the build's writer, inherited when the worker forked)
    written = []
    for job in jobs:
        url, template, key, make = pickle.loads(job)
        try:
            written.append((url, writer.render_page(url, template, key, make(writer.shared))))
        except Exception as exc:
            return written, exc
    return written, None
