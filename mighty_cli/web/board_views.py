"""The board (``/``; ``/projector`` pages through it on a wall), ``GET /api/round`` and the live
events every page listens to (``/events``: server-sent events; ``/api/changes`` for a page
that polls instead).

The board shows the round's tables (seats, first dealer, hands so far, still playing), where
each player sits, the round's standings, the tournament table over the league's rounds, a
duplicate round's matchpoints and the round's clock. It never shows an entry code.
"""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from . import reads
from .pages import page
from .served import served

#: Seconds between the live events' keep-alive comments (a phone's network forgets a quiet
#: connection), and how long a page waits before it connects again after losing the stream.
KEEP_ALIVE_SECONDS = 15
RETRY_MILLISECONDS = 1000


async def board(request: Request) -> Response:
    return await _board(request, projector=False)


async def projector(request: Request) -> Response:
    return await _board(request, projector=True)


async def _board(request: Request, projector: bool) -> Response:
    state = served(request)
    league, view = await state.read(reads.board_view)
    text = state.pages.render(
        "serve_board.html",
        league.lang,
        league.timezone,
        league=league,
        view=view,
        projector=projector,
        director=state.is_director(request),
    )
    return page(text)


async def api_round(request: Request) -> Response:
    """``{"league", "round", "tables": [{"table", "session", "players", "hands",
    "playing"}]}``: the round open, else the latest (``round`` null, no tables: none)."""
    league, data = await served(request).read(reads.api_round)
    return JSONResponse(data)


async def api_changes(request: Request) -> Response:
    """``{"marker": ...}``: the league's change marker now (a page that polls compares it)."""
    league, _nothing = await served(request).read()
    return JSONResponse({"marker": league.marker})


async def events(request: Request) -> Response:
    """Server-sent events: ``marker`` with the marker now, then ``change`` with the new one
    each time the league changes; a comment now and then keeps the connection."""
    state = served(request)
    watcher = state.watcher

    async def stream():
        async with watcher.listening():
            marker = await watcher.current()
            yield f"retry: {RETRY_MILLISECONDS}\nevent: marker\ndata: {marker}\n\n"
            quiet_since = time.monotonic()
            while not state.stopping.is_set():
                moved = await watcher.moved(marker, timeout=0.5)
                if moved is not None:
                    marker = moved
                    quiet_since = time.monotonic()
                    yield f"event: change\ndata: {marker}\n\n"
                elif time.monotonic() - quiet_since > KEEP_ALIVE_SECONDS:
                    quiet_since = time.monotonic()
                    yield ": still here\n\n"

    await state.read()  # a league that is gone is refused here, before the stream starts
    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"cache-control": "no-store", "x-accel-buffering": "no"},
    )
