"""The change marker every live page listens to: one poll of the database per process, shared
by every board, table page and director's page open on it.

A keeper's terminal, a referee window or another worker writes the league in another process:
the only thing they share with this one is the database. So the server reads the league's
change marker (:func:`mighty_cli.store.ledger.change_marker.change_marker`, one cheap query) every
:data:`POLL_SECONDS` while anyone listens, and wakes every listener when it moves; a page then
fetches itself again. A change made here (the director's, a table's correction) wakes them at
once (:meth:`ChangeWatcher.poke`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

#: How often the marker is read while a page listens (seconds): a hand shows within about this
#: much plus a page's fetch, well inside the two seconds promised.
POLL_SECONDS = 0.5

log = logging.getLogger("mighty.serve")


class ChangeWatcher:
    """The league's marker as last read, and the listeners waiting for it to move. ``read``
    reads the marker (in a thread: it is a database query)."""

    def __init__(self, read: Callable[[], Awaitable[str]], interval: float = POLL_SECONDS):
        self.read = read
        self.interval = interval
        self.marker: str | None = None
        self._moved: asyncio.Event | None = None
        self._listeners = 0
        self._task: asyncio.Task | None = None

    async def current(self) -> str:
        """The marker now (read, when nobody has read it yet)."""
        if self.marker is None:
            await self._look()
        return self.marker  # type: ignore[return-value]

    @asynccontextmanager
    async def listening(self) -> AsyncIterator[ChangeWatcher]:
        """While a page listens, the marker is polled."""
        self._listeners += 1
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._poll())
        try:
            yield self
        finally:
            self._listeners -= 1

    async def moved(self, since: str, timeout: float) -> str | None:
        """The marker once it differs from ``since`` (None: not within ``timeout`` seconds)."""
        if self.marker is not None and self.marker != since:
            return self.marker
        event = self._event()
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except asyncio.TimeoutError:
            return None
        return self.marker if self.marker != since else None

    async def poke(self) -> None:
        """Something was written here: read the marker now, without waiting for the poll."""
        await self._look()

    def _event(self) -> asyncio.Event:
        if self._moved is None:
            self._moved = asyncio.Event()
        return self._moved

    async def _look(self) -> None:
        try:
            marker = await self.read()
        except Exception as exc:  # a database gone for a moment: the next poll tries again
            log.warning("reading the change marker: %s", exc)
            return
        if marker != self.marker:
            self.marker = marker
            event, self._moved = self._event(), asyncio.Event()
            event.set()

    async def _poll(self) -> None:
        while self._listeners > 0:
            await self._look()
            await asyncio.sleep(self.interval)

    async def close(self) -> None:
        """Stop polling (the server stops)."""
        self._listeners = 0
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):  # noqa: S110 - stopping anyway
                pass
            self._task = None
