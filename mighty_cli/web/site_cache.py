"""The league's site pages as ``mighty serve`` shows them under ``/site/``: the pages ``mighty
site`` writes (the league table, sessions, players, hands played card by card), rendered from
the database into the server's own folder when one is asked for and the league has changed
since the last build (the build is incremental: only the pages whose content changed are
rendered again), and served only from there, by names the site gives its pages.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path

from ..site.build import build_site
from ..store.db import reading

#: A part of a site page's address: the names ``mighty site`` gives (``players/3.html``).
_PART = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,80}(\.html)?")


class SiteCache:
    """The site's pages in ``folder``, as built for the league's change marker ``built``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.built: str | None = None
        self._lock = threading.Lock()

    def page(
        self,
        engine,
        league: str,
        marker: str,
        lang: str | None,
        zone: str | None,
        path: str,
        build: Callable = build_site,
    ) -> bytes | None:
        """The page at ``path`` (``""``: the index), built first where the league changed;
        None when the site has no such page."""
        parts = path.split("/") if path else ["index.html"]
        if not all(_PART.fullmatch(part) for part in parts) or not parts[-1].endswith(".html"):
            return None
        with self._lock:  # one build at a time; a page asked meanwhile waits for it
            if self.built != marker:
                with reading(engine) as s:
                    build(s, league, self.folder, lang=lang, timezone_name=zone, jobs=1)
                self.built = marker
            target = self.folder.joinpath(*parts)
            try:
                if target.is_symlink() or not target.is_file():
                    return None
                return target.read_bytes()
            except OSError:
                return None
