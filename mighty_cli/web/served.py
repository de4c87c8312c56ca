"""What a running ``mighty serve`` holds (:class:`Served`: its settings, database engine, pages,
count of wrong codes, change watcher and site folder), and how its views reach the database:
reads in one read-only transaction, changes in one transaction each, both in a thread.
"""

from __future__ import annotations

import random
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from ..engine.errors import MightyError
from ..engine.translation import set_language
from ..store.db import reading, transaction
from .guard import DIRECTOR_COOKIE, WrongCodes, codes_match
from .pages import Pages
from .reads import ServedLeague, league_facts
from .site_cache import SiteCache
from .view_cache import ViewCache, change_scope
from .watch import ChangeWatcher

#: The environment variables that carry the settings to a PostgreSQL server's workers.
ENVIRONMENT = {
    "league": "MIGHTY_SERVE_LEAGUE",
    "db_url": "MIGHTY_SERVE_DB",
    "director_key": "MIGHTY_SERVE_KEY",
    "lang": "MIGHTY_SERVE_LANG",
    "public_url": "MIGHTY_SERVE_URL",
}
#: Times a change the database rolled back to keep writers consistent is made again.
RETRIES = 6


@dataclass(frozen=True)
class ServeSettings:
    """What a server serves: the league, the database, the director's key, the language of
    its messages when the league sets none, its address for a phone (None: as each request
    names it) and the folder it may write (None: a temporary one of its own)."""

    league: str
    db_url: str
    director_key: str
    lang: str | None = None
    public_url: str | None = None
    folder: str | None = None


def settings_environment(settings: ServeSettings) -> dict[str, str]:
    """The environment a worker reads its settings from (:func:`app_from_environment`)."""
    return {
        variable: getattr(settings, key)
        for key, variable in ENVIRONMENT.items()
        if getattr(settings, key) is not None
    }


class Served:
    """What a running application holds, and how its views reach the database."""

    def __init__(self, settings: ServeSettings, engine, clock: Callable[[], float]) -> None:
        self.settings = settings
        self.engine = engine
        self.pages = Pages()
        self.wrong = WrongCodes(clock)
        self.watcher = ChangeWatcher(self.marker)
        self.stopping = threading.Event()
        self._own_folder = settings.folder is None
        self.folder = Path(settings.folder or tempfile.mkdtemp(prefix="mighty-serve-"))
        self.site = SiteCache(self.folder / "site")
        self.views = ViewCache()

    async def read(self, gather: Callable | None = None, *args) -> tuple[ServedLeague, Any]:
        """The league's facts and what ``gather(s, league, *args)`` reads, in one read-only
        transaction (in a thread: the database waits there, not the server); a view marked
        :func:`~.view_cache.per_change` is gathered once per change of the league."""
        return await run_in_threadpool(self._read, gather, args)

    def _read(self, gather, args) -> tuple[ServedLeague, Any]:
        with reading(self.engine) as s:
            league = league_facts(s, self.settings.league)
            language = set_language(league.lang or self.settings.lang)
            if gather is None:
                return league, None
            scope = change_scope(gather)
            if scope is None:
                return league, gather(s, league, *args)
            marker = scope(s, league, *args)
            return league, self.views.view(
                gather, args, language, marker, lambda: gather(s, league, *args)
            )

    async def marker(self) -> str:
        league, _nothing = await self.read()
        return league.marker

    async def write(self, change: Callable, *args, **kwargs) -> Any:
        """``change(s, *args, **kwargs)`` in one transaction (made again where the database
        rolled it back to keep concurrent writers consistent); the live pages are told."""
        try:
            return await run_in_threadpool(self._write, change, args, kwargs)
        finally:
            await self.watcher.poke()

    def _write(self, change, args, kwargs) -> Any:
        from sqlalchemy.exc import DBAPIError, SQLAlchemyError  # the store's own dependency

        for attempt in range(RETRIES + 1):
            try:
                with transaction(self.engine) as s:
                    return change(s, *args, **kwargs)
            except DBAPIError as exc:
                code = getattr(exc.orig, "sqlstate", None)
                if code in ("40001", "40P01") and attempt < RETRIES:
                    time.sleep(random.uniform(0.01, 0.05) * 2**attempt)
                    continue
                raise
            except SQLAlchemyError as exc:
                if isinstance(getattr(exc, "orig", None), MightyError):
                    raise exc.orig from None  # type: ignore[misc]  (a value a column refused)
                raise
        raise AssertionError("unreachable")

    def is_director(self, request: Request) -> bool:
        return codes_match(request.cookies.get(DIRECTOR_COOKIE), self.settings.director_key)

    def close(self) -> None:
        self.engine.dispose()
        if self._own_folder:
            import shutil

            shutil.rmtree(self.folder, ignore_errors=True)


def served(request: Request) -> Served:
    return request.app.state.served
