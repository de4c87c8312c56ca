"""Fewer garbage collections while a long command makes many objects that live on.

CPython's cycle collector runs every 700 net allocations and, now and then, walks every
object alive. A site build holds a league's lines, its statistics, the templates and the
database's mappers for its whole length while it makes millions of short-lived objects
(rows, contexts, rendered pages); collecting as usual cost it a fifth of its time (an evening's
build of a 3,000-hand league: 1.02 s -> 0.81 s, medians of five; ``benchmarks/site.py``).
Inside :func:`fewer_collections` what is alive when it starts (modules, classes, the
command's setup) is set aside from collection (``gc.freeze``) and the young generation is
collected every :data:`YOUNG` allocations; cycles are still collected, so memory stays flat.
Worker processes forked inside inherit both (and share the frozen objects' pages longer).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: Net allocations between two collections of the young generation (CPython's default: 700).
YOUNG = 50_000


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect rarely inside the block; as before after it."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(YOUNG, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
