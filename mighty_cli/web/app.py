"""The application: :func:`create_app` makes it from :class:`ServeSettings`, with its own
database engine (no module-level global holds one), its change watcher, its count of wrong
codes and its folder for the league's site pages; the lifespan closes them.

A server with several workers (PostgreSQL) starts each from :func:`app_from_environment`, which
reads the settings ``mighty serve`` put into the environment (:func:`settings_environment`), so
every worker serves the same league with the same director's key.

Every answer carries headers that keep a page to itself: scripts and styles from this server
only, no framing, no referrer (a table's address may hold its code), no caching of what changes.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.routing import Route

from ..engine.errors import MightyError
from ..engine.translation import _
from ..store.db import make_engine
from . import (
    board_views,
    director_views,
    entry_api,
    entry_views,
    referee_views,
    site_views,
    table_views,
)
from .forms import RequestError
from .pages import refusal
from .reads import NotFound
from .served import ENVIRONMENT, Served, ServeSettings

#: The headers every answer carries (unless it says otherwise).
HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        b"img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
        b"base-uri 'none'; form-action 'self'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


def app_from_environment() -> Starlette:
    """The application as a PostgreSQL server's worker makes it (uvicorn's factory)."""
    values = {key: os.environ.get(variable) for key, variable in ENVIRONMENT.items()}
    return create_app(ServeSettings(**values))  # type: ignore[arg-type]


def create_app(
    settings: ServeSettings, *, clock: Callable[[], float] = time.monotonic, engine=None
) -> Starlette:
    """The application serving ``settings.league``; ``clock`` counts the seconds wrong codes
    wait (a test's own), ``engine`` a database engine already made (else one is)."""
    if not settings.director_key:
        raise ValueError("a server needs a director's key")
    engine = engine or make_engine(settings.db_url, create=True, missing_ok=False)
    state = Served(settings, engine, clock)

    @asynccontextmanager
    async def lifespan(app):
        stop_on_signals(state)
        try:
            yield
        finally:
            state.stopping.set()
            await state.watcher.close()
            state.close()

    app = Starlette(
        routes=ROUTES,
        lifespan=lifespan,
        exception_handlers={
            HTTPException: http_refusal,
            RequestError: request_refusal,
            NotFound: not_found,
            MightyError: project_refusal,
        },
    )
    app.state.served = state
    app.add_middleware(SecurityHeaders)
    return app


def stop_on_signals(state: Served) -> None:
    """When uvicorn is told to stop (Ctrl-C, SIGTERM), the live pages' streams end at once, so
    the server stops without waiting for them: its handlers, which it installs before the
    application starts, are chained (in the main thread only, where signals are handled)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for number in (signal.SIGINT, signal.SIGTERM):
        before = signal.getsignal(number)
        if not callable(before):
            continue

        def handler(signum, frame, before=before):
            state.stopping.set()
            before(signum, frame)

        signal.signal(number, handler)


class SecurityHeaders:
    """Every answer's headers that keep a page to itself (pure ASGI: streams pass through)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _value in headers}
                headers += [(name, value) for name, value in HEADERS if name not in names]
                if b"cache-control" not in names:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)


async def http_refusal(request: Request, exc: Exception):
    status = getattr(exc, "status_code", 400)
    message = {404: _("no such page"), 405: _("this address does not take that method")}.get(
        status, getattr(exc, "detail", "") or _("not understood")
    )
    return refusal(request, status, message, getattr(exc, "headers", None))


async def request_refusal(request: Request, exc: Exception):
    assert isinstance(exc, RequestError)
    return refusal(request, exc.status, exc.message, exc.headers)


async def not_found(request: Request, exc: Exception):
    return refusal(request, 404, str(exc))


async def project_refusal(request: Request, exc: Exception):
    """A store's refusal that reached no view's own handling: one line, 400."""
    return refusal(request, 400, str(exc))


ROUTES = [
    Route("/", board_views.board, methods=["GET"]),
    Route("/projector", board_views.projector, methods=["GET"]),
    Route("/events", board_views.events, methods=["GET"]),
    Route("/api/round", board_views.api_round, methods=["GET"]),
    Route("/api/changes", board_views.api_changes, methods=["GET"]),
    Route("/api/tables/{table}/hands", entry_api.api_enter_hand, methods=["POST"]),
    Route("/api/tables/{table}/check", entry_api.api_check_field, methods=["POST"]),
    Route("/tables/{table}", table_views.table_page, methods=["GET"]),
    Route("/tables/{table}/hands", entry_views.table_enter, methods=["POST"]),
    Route("/tables/{table}/correct", table_views.table_correct, methods=["POST"]),
    Route("/tables/{table}/void", table_views.table_void, methods=["POST"]),
    Route("/tables/{table}/referee", referee_views.referee_page, methods=["GET"]),
    Route("/tables/{table}/referee", referee_views.referee_entry, methods=["POST"]),
    Route("/tables/{table}/referee/start", referee_views.referee_start, methods=["POST"]),
    Route("/director", director_views.director_page, methods=["GET"]),
    Route("/director/slips", director_views.director_slips, methods=["GET"]),
    Route("/director/{action}", director_views.director_action, methods=["POST"]),
    Route("/site", site_views.site_index, methods=["GET"]),
    Route("/site/{path:path}", site_views.site_page, methods=["GET"]),
    Route("/static/{name}", site_views.static_file, methods=["GET"]),
]
