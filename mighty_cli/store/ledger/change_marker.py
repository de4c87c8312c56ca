"""A league's change marker: a short text that changes whenever anything a page of the league
shows may have changed, read in one cheap query, so a live page (``mighty serve``'s board)
learns of a hand stored by any writer, in any process, within a moment.

Every command that changes a league writes the change log (a hand recorded, amended or voided,
a round started, reseated or ended, a seating changed, a session started or ended, a player
renamed, the round's clock), so the log's last id says "something changed"; the hands in
progress (a referee's, kept after each card) are the one thing written without it, so their
count and latest time are part of the marker too. Both are read by their indexes: the cost
does not grow with the league. The log's ids are taken when a change is written, not when it
is committed: on PostgreSQL two commands at once can commit in the other order (the later id
first), so the marker also counts the log's last :data:`RECENT` ids, and a change committed
after a later one still moves it. A table's marker (:func:`table_marker`) takes the change log and
that table's hand in progress alone: what the table's own page shows.
"""

from __future__ import annotations

import hashlib

from sqlalchemy import func
from sqlmodel import Session, select

from ..models import ChangeLog, LiveHand


def change_marker(s: Session, league_id: int) -> str:
    """The league's marker now: equal markers, nothing new to show."""
    live = s.exec(
        select(func.count(LiveHand.session_id), func.max(LiveHand.updated_at)).where(
            LiveHand.league_id == league_id
        )
    ).one()
    return _marker(f"{_last_change(s)}|{live[0]}|{live[1]}")


def table_marker(s: Session, session_id: int) -> str:
    """One table's marker now (its session ``session_id``): what the change log says and the
    table's own hand in progress, so a card played at another table leaves it as it was."""
    live = s.exec(select(LiveHand.updated_at).where(LiveHand.session_id == session_id)).first()
    return _marker(f"{_last_change(s)}|{session_id}|{live}")


#: How many of the change log's last ids the marker counts: a change committed after up to
#: that many later ones is still seen.
RECENT = 256


def _last_change(s: Session) -> str:
    last = s.exec(select(func.max(ChangeLog.id))).one() or 0
    recent = s.exec(select(func.count(ChangeLog.id)).where(ChangeLog.id > last - RECENT)).one()
    return f"{last}.{recent}"


def _marker(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]
