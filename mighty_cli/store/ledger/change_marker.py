"""A league's change marker: a short text that changes whenever anything a page of the league
shows may have changed, read in one cheap query, so a live page (``mighty serve``'s board)
learns of a hand stored by any writer, in any process, within a moment.

Every command that changes a league writes the change log (a hand recorded, amended or voided,
a round started, reseated or ended, a seating changed, a session started or ended, a player
renamed, the round's clock), so the log's last id says "something changed"; the hands in
progress (a referee's, kept after each card) are the one thing written without it, so their
count and latest time are part of the marker too. Both are read by their indexes: the cost
does not grow with the league.
"""

from __future__ import annotations

import hashlib

from sqlalchemy import func
from sqlmodel import Session, select

from ..models import ChangeLog, LiveHand


def change_marker(s: Session, league_id: int) -> str:
    """The league's marker now: equal markers, nothing new to show."""
    last = s.exec(select(func.max(ChangeLog.id))).one()
    live = s.exec(
        select(func.count(LiveHand.session_id), func.max(LiveHand.updated_at)).where(
            LiveHand.league_id == league_id
        )
    ).one()
    text = f"{last or 0}|{live[0]}|{live[1]}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]
