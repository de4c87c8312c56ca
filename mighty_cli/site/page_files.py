"""The league site's pages: where each one goes, how long lists are paged, and writing them.

A site is a folder of static pages that link to each other by relative paths, so it works
from ``file://`` and from any web server: ``index.html``, ``statistics.html``,
``sessions.html`` (and ``sessions-2.html``... when long), ``sessions/<n>.html`` (a session's
hands, ``sessions/<n>-2.html``... when long), ``players/<id>.html``, ``hands/<n>.html`` (a
hand played card by card) and, for a league of rounds, ``tournament.html`` (the tournament
table, the matchpoints and the latest rounds; ``tournament-2.html``... the earlier rounds). Every page carries its own CSS (``base.html``), no
script, nothing from the network. Long lists are paged so that no page grows with the league:
a page holds at most a fixed number of sessions, hands or lines.

Pages render through the same autoescaped environment as the standings page
(:func:`mighty_cli.render.html.environment`), so a club's template folder overrides any of
``site_*.html`` or the ``base.html`` they extend (and then every page renders in the sandbox).

Builds are incremental: each page has a key, a digest of what it shows plus the build's
``version`` (the templates, the language, the code); a page whose key is the one the folder's
manifest recorded, and whose file is still what was written, is neither rendered nor written
(:mod:`mighty_cli.site.manifest`). A page the site no longer has is removed, if the tool
wrote it and nobody changed it since. ``full`` renders and writes every page. A build with
many pages to render renders them on every core (:mod:`mighty_cli.site.workers`); a hand
page's frame (head, menu, footer) is rendered once per build (:mod:`.page_frames`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from ..engine.limits import PAGE_MAX_CHARACTERS
from ..engine.outputs import inside, replace_bytes, write_file
from ..render.html import environment, load_template, render
from . import workers
from .manifest import (
    MANIFEST,
    Entry,
    Unkeyed,
    data_digest,
    fingerprint,
    manifest_bytes,
    read_manifest,
    remove_leftovers,
    unchanged,
    verified,
)
from .page_frames import PageFrames

#: The site's templates (each may be overridden by a club's folder).
TEMPLATES = (
    "site_index.html",
    "site_sessions.html",
    "site_session.html",
    "site_player.html",
    "site_statistics.html",
    "site_hand.html",
    "site_tournament.html",
)

#: With a club's templates, pages are written only once this much is rendered, or the site is:
#: a template the sandbox refuses stops such a build before anything is written.
HELD_BYTES = 64 << 20

#: Page sizes: sessions on a list page, hands on a session page, lines on a player page,
#: rounds on a tournament page.
SESSIONS_PER_PAGE = 200
HANDS_PER_PAGE = 100
LINES_PER_PAGE = 200
ROUNDS_PER_PAGE = 20


def index_url() -> str:
    return "index.html"


def sessions_url(page: int = 1) -> str:
    return "sessions.html" if page == 1 else f"sessions-{page}.html"


def session_url(number: int, page: int = 1) -> str:
    return f"sessions/{number}.html" if page == 1 else f"sessions/{number}-{page}.html"


def player_url(player_id: int, page: int = 1) -> str:
    return f"players/{player_id}.html" if page == 1 else f"players/{player_id}-{page}.html"


def hand_url(number: int) -> str:
    return f"hands/{number}.html"


def statistics_url() -> str:
    return "statistics.html"


def tournament_url(page: int = 1) -> str:
    return "tournament.html" if page == 1 else f"tournament-{page}.html"


class Urls:
    """What templates see as ``pages``: the URL functions and nothing else (a template must
    not reach this module's imports, such as ``os``, through it)."""

    index_url = staticmethod(index_url)
    sessions_url = staticmethod(sessions_url)
    session_url = staticmethod(session_url)
    player_url = staticmethod(player_url)
    hand_url = staticmethod(hand_url)
    statistics_url = staticmethod(statistics_url)
    tournament_url = staticmethod(tournament_url)


URLS = Urls()


@dataclass
class Pager:
    """Where a page stands in a paged list, and the links to the others (a window around it,
    the first and the last)."""

    number: int
    count: int
    urls: list[str]

    @property
    def previous(self) -> str | None:
        return self.urls[self.number - 2] if self.number > 1 else None

    @property
    def next(self) -> str | None:
        return self.urls[self.number] if self.number < self.count else None

    @property
    def links(self) -> list[tuple[int, str | None]]:
        """(page number, url) for the window; (0, None) marks a gap."""
        shown = sorted(
            {1, self.count}
            | set(range(max(1, self.number - 3), min(self.count, self.number + 3) + 1))
        )
        result: list[tuple[int, str | None]] = []
        for page in shown:
            if result and page != result[-1][0] + 1:
                result.append((0, None))
            result.append((page, self.urls[page - 1]))
        return result


def chunks(items: Sequence, size: int) -> list[Sequence]:
    """``items`` in pages of ``size`` (one empty page when there is nothing)."""
    return [items[i : i + size] for i in range(0, len(items), size)] or [items[:0]]


def _given(context: dict, shared: dict) -> dict:
    return context


@dataclass
class SiteWriter:
    """Renders pages into a folder, only those whose key changed (all with ``full``), and
    keeps count of what it wrote; :meth:`finish` removes the pages the site no longer has and
    records the manifest."""

    output: Path
    template_dir: str | Path | None = None
    lang: str | None = None
    common: dict = field(default_factory=dict)
    #: what the pages' context makers share (a league's ruleset): given to each, here or in
    #: a worker, never sent with a page
    shared: dict = field(default_factory=dict)
    version: str = ""
    full: bool = False
    written: int = 0
    removed: int = 0
    #: pages the site no longer has that were left alone: changed since the tool wrote them
    left: int = 0
    #: Pages rendered but not yet written (a club's templates: see :meth:`page`).
    pending: list = field(default_factory=list)
    pending_bytes: int = 0
    #: told ``(pages so far, pages expected)`` after each page: the last build's count is the
    #: expectation (None for a first build, or once this one has gone past it)
    progress: Callable[[int, int | None], None] | None = None
    seen: int = 0
    #: processes rendering pages at most (1: all in this one; see :mod:`.workers`)
    jobs: int = 1

    def __post_init__(self) -> None:
        self.output = Path(self.output)
        self.env = environment(self.template_dir, self.lang)
        self.frames = None if self.template_dir else PageFrames(self.env, self.common)
        # A club's templates compiled first: a broken one stops before any page is written.
        # The bundled ones (tested) compile when a page first needs them: a build that
        # renders few pages compiles few.
        self.templates = (
            {name: load_template(self.env, name, self.template_dir) for name in TEMPLATES}
            if self.template_dir
            else {}
        )
        self.previous = read_manifest(self.output)
        self.started = time.time()
        self.pages: dict[str, Entry] = {}
        self.folders: set[str] = set()
        self.workers: workers.Workers | None = None
        self.rendered_here = 0
        self.eager = False  # workers started with the first page rendered (see expect)

    @property
    def renders_everything(self) -> bool:
        """Whether this build renders every page (``full``, or nothing written before)."""
        return self.full or not self.previous

    def expect(self, renders: int) -> None:
        """Told that this build will render about ``renders`` pages: when that is many, the
        workers start with the first page, not after :data:`.workers.START_AFTER`
        rendered here (a first build, ``--full``)."""
        self.eager = renders >= workers.START_AFTER

    @property
    def busy(self) -> bool:
        """Whether worker processes have as many pages in hand as they may take: what the
        build does now costs it no time (it would wait for them)."""
        return self.workers is not None and self.workers.busy

    def write(self, url: str, template: str, depends: object = (), **context: object) -> None:
        """Render ``template`` to ``url`` (relative to the site's folder) unless the page, as
        keyed by its context and ``depends`` (what else it shows: a common value), is there
        as last written."""
        self.page(url, template, (depends, context), partial(_given, context))

    def page(self, url: str, template: str, shows: object, make: Callable[[dict], dict]) -> None:
        """The page at ``url``: kept when what it ``shows`` (values, digested with the
        build's version and the template) is what the recorded page showed and the file is
        as written, else rendered from ``make(shared)``'s context and written (by a worker
        process, once a build renders many pages: ``make`` is then pickled, so a
        ``functools.partial`` of a module's function)."""
        try:
            key = fingerprint(self.version, template, shows)
        except Unkeyed:  # content that cannot be compared: rendered every time
            key = ""
        self.seen += 1
        if self.progress is not None:
            expected = len(self.previous)
            self.progress(self.seen, expected if expected >= self.seen else None)
        before = self.previous.get(url)
        if not self.full and key and before is not None and before.key == key:
            kept = verified(os.path.join(self.output, url), before)
            if kept is not None:
                self.pages[url] = kept
                return
        if self._to_workers(url, template, key, make):
            return
        data = self._render(url, template, make(self.shared))
        if self.template_dir:
            # A club's template may fail on a late page (the sandbox refusing it): its pages
            # are held, up to HELD_BYTES, so that such a build writes nothing at all.
            self.pending.append((url, key, data))
            self.pending_bytes += len(data)
            if self.pending_bytes > HELD_BYTES:
                self.flush()
            return
        self._store(url, key, data)

    def _render(self, url: str, template: str, context: dict) -> bytes:
        root = "../" * url.count("/")
        if self.frames is not None:  # the bundled templates: a hand page's frame made once
            try:
                page = self.frames.render(
                    template, root, {**self.common, "root": root, "url": url, **context}
                )
            except Exception:  # noqa: BLE001 - told as a whole rendering tells it, below
                page = None
            if page is not None and len(page) <= PAGE_MAX_CHARACTERS:
                return page.encode("utf-8")
        return render(
            self.env,
            self.templates.get(template, template),
            self.template_dir,
            root=root,
            url=url,
            **self.common,
            **context,
        ).encode("utf-8")

    def render_page(self, url: str, template: str, key: str, context: dict) -> Entry:
        """Render and write one page (in a worker process): its manifest entry."""
        self._store(url, key, self._render(url, template, context))
        return self.pages[url]

    def _to_workers(self, url: str, template: str, key: str, make: Callable[[dict], dict]) -> bool:
        """Whether the page went to the workers (started once this build has rendered
        enough pages itself to be worth them)."""
        if self.workers is None:
            if (
                self.jobs <= 1
                or self.template_dir
                or (not self.eager and self.rendered_here < workers.START_AFTER)
            ):
                self.rendered_here += 1
                return False
            self.workers = workers.Workers(self, self.jobs, self._written, TEMPLATES)
        self._folder(url)  # made here, not by two workers at once
        return self.workers.submit(url, template, key, make)

    def _written(self, url: str, entry: Entry) -> None:
        self.pages[url] = entry
        self.written += 1

    def close(self) -> None:
        """Wait for the pages the workers have in hand (recording them) and let the workers
        go; a page that failed there raises its error here."""
        running, self.workers = self.workers, None
        if running is not None:
            running.finish()

    def flush(self) -> None:
        """Write the pages held so far."""
        for url, key, data in self.pending:
            self._store(url, key, data)
        self.pending, self.pending_bytes = [], 0

    def _folder(self, url: str) -> None:
        folder = url.rpartition("/")[0]
        if folder not in self.folders:  # made and checked once: never through a link out
            inside(self.output, self.output / folder)
            self.folders.add(folder)

    def _store(self, url: str, key: str, data: bytes) -> None:
        self._folder(url)
        written = replace_bytes(os.path.join(self.output, url), data)  # never seen half-written
        self.pages[url] = Entry(
            key, data_digest(data), len(data), [written.st_mtime_ns, written.st_ino]
        )
        self.written += 1

    def finish(self) -> None:
        """Remove the pages of the last build the site no longer has (those the tool wrote
        and nobody changed since) and the temporary files of pages a killed process left,
        and record what the folder now holds."""
        self.close()
        self.flush()
        remove_leftovers(self.output, self.started)
        for url, entry in sorted(self.previous.items()):
            if url in self.pages:
                continue
            path = self.output / url
            if os.path.islink(path.parent):  # a folder made a link since: nothing through it
                self.left += 1
            elif unchanged(path, entry):
                path.unlink()
                self.removed += 1
            elif os.path.lexists(path):
                self.left += 1
        self.save(complete=True)

    def save(self, complete: bool = False) -> None:
        """The manifest of what the folder holds (also after a build that stopped half way,
        so the next one knows what this one wrote; then nothing is written unless a page
        was)."""
        if (self.pages == self.previous) if complete else not self.written:
            return
        kept = {
            url: entry
            for url, entry in self.previous.items()
            if url not in self.pages and unchanged(self.output / url, entry)
        }
        write_file(self.output / MANIFEST, manifest_bytes({**kept, **self.pages}))

    @property
    def bytes(self) -> int:
        return sum(entry.size for entry in self.pages.values())

    @property
    def largest(self) -> tuple[int, str]:
        return max(((entry.size, url) for url, entry in self.pages.items()), default=(0, ""))
