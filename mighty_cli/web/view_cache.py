"""What the pages every phone in the room keeps open show, gathered once per league change.

Every live page fetches itself again when the league's change marker moves
(:mod:`.watch`): a hand entered at one table, a card a tablet referee plays. Twenty tables'
phones and the board asking at once would each read the same round from the database. A view
marked :func:`per_change` depends on nothing but the league's stored state, the language its
words are in and its own arguments (a table's address), so what it gathered for a marker is
what it would gather again while the marker stands (a table's page and entry go by the table's
own marker: a card played at another table leaves them kept): :class:`ViewCache` keeps the last of each
and gathers again once the marker has moved. The marker is read in the same read-only
transaction the view would have read (:meth:`.served.Served.read`), so a page never shows less
than a page gathered afresh would have. What a request adds (its code cookie, the director's
key) is added when the page is rendered, never kept here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

Gather = TypeVar("Gather", bound=Callable[..., Any])

#: How many views are kept (each table's page and entry, the board, ``/api/round``, in each
#: language): beyond it the cache starts again, so addresses made up by a visitor cannot grow it.
KEPT_VIEWS = 512


#: What a view's marker is read by: ``marker(s, league, *args)``, in the view's transaction.
Scope = Callable[..., str]


def league_scope(s: Any, league: Any, *args: Any) -> str:
    """The league's marker, read with the league's facts (:class:`.reads.ServedLeague`)."""
    return league.marker


def per_change(gather: Gather) -> Gather:
    """Mark ``gather(s, league, *args)`` as a view of the league's stored state alone,
    gathered again when the league's marker moves."""
    return changes_with(league_scope)(gather)


def changes_with(scope: Scope) -> Callable[[Gather], Gather]:
    """Mark a view of the stored state gathered again when ``scope(s, league, *args)`` (a
    table's marker) moves."""

    def mark(gather: Gather) -> Gather:
        gather.change_scope = scope  # type: ignore[attr-defined]
        return gather

    return mark


def change_scope(gather: Callable[..., Any] | None) -> Scope | None:
    """How a view's marker is read (None: the view is gathered afresh each time)."""
    return getattr(gather, "change_scope", None)


class _Gathering:
    """A view being gathered: the askers who come meanwhile wait for it."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: Any = None
        self.failed = False


class ViewCache:
    """The last value of each view (by its function, arguments and language), with the
    marker it was gathered at. A view is gathered once per marker even when its askers come at
    the same moment (every phone of a table fetches its page as the change is announced): the
    first gathers it, the others wait for what it gathers."""

    def __init__(self, kept: int = KEPT_VIEWS) -> None:
        self._kept = kept
        self._views: dict[tuple[Hashable, ...], tuple[str, Any]] = {}
        self._gathering: dict[tuple[Hashable, ...], _Gathering] = {}
        self._lock = threading.Lock()
        #: views gathered, and views answered from the cache (``benchmarks/serve.py`` shows them)
        self.gathered = 0
        self.answered = 0

    def view(
        self,
        gather: Callable[..., Any],
        args: tuple[Hashable, ...],
        language: str,
        marker: str,
        compute: Callable[[], Any],
    ) -> Any:
        """The view for ``marker``: kept, being gathered (waited for), or ``compute()`` (kept
        for the next asker)."""
        key = (gather, args, language)
        with self._lock:
            kept = self._views.get(key)
            if kept is not None and kept[0] == marker:
                self.answered += 1
                return kept[1]
            gathering = self._gathering.get((*key, marker))
            first = gathering is None
            if first:
                gathering = self._gathering[(*key, marker)] = _Gathering()
        assert gathering is not None
        if not first:
            gathering.done.wait()
            if not gathering.failed:
                with self._lock:
                    self.answered += 1
                return gathering.value
            return compute()  # the first asker failed: this one says why for itself
        try:
            gathering.value = compute()
        except BaseException:
            gathering.failed = True
            raise
        finally:
            with self._lock:
                del self._gathering[(*key, marker)]
                if not gathering.failed:
                    if len(self._views) >= self._kept:
                        self._views.clear()
                    self._views[key] = (marker, gathering.value)
                    self.gathered += 1
            gathering.done.set()
        return gathering.value
