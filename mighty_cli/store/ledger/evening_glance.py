"""The evening at a glance (the table's front ends show it): the session's players, its hands and
their changes, who deals next and the pot, the hand in progress and who holds it
(:mod:`.table_entry`)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func
from sqlmodel import Session, select

from ...engine.session import (
    Proposal,
)
from ..models import (
    Hand,
    LiveHand,
)
from .lookups import (
    get_league,
    league_rules,
    seating,
)
from .session_end import session_hand_changes
from .sessions import find_session
from .succession import duplicate_seed, next_proposal, pot_before
from .table_hands import table_hands_so_far


@dataclass
class Evening:
    """What a referee or score-keeper needs to run a session's next hand: where everyone sits,
    the proposal, the deposit pot, the session's running totals and hands so far (a round's
    table: over every seating it had, so its hands are numbered on across a seat change)."""

    league: str
    session: int
    seating: list[str]
    proposal: Proposal
    pot: int
    totals: dict[str, int]
    hands: int
    ruleset_toml: str
    live: str | None = None
    #: the league's number for the next hand recorded (hands are numbered across the league:
    #: session 2's third hand may be hand 33), as ``record`` and ``hand amend`` name it
    next_number: int = 1
    #: the session's table in its round (``round start``), or None: a table's hands are shown
    #: by the table's own count, which other tables' hands do not move
    table: int | None = None
    #: a duplicate round's table: each deal's dealer, opener and sitters-out are fixed
    duplicate: bool = False


def evening(s: Session, league_name: str, session_number: int | None = None) -> Evening:
    """The open session of a league (or session ``session_number``, open or ended) as the
    evening loop sees it."""
    league = get_league(s, league_name)
    session = find_session(s, league, session_number, open_only=session_number is None)
    present = seating(s, session.id)  # type: ignore[arg-type]
    proposal = next_proposal(s, league_rules(league), session, present)
    totals = dict.fromkeys(present, 0)
    played = session_hand_changes(s, session.id)  # type: ignore[arg-type]
    for _number, _status, deltas in played:
        for name, delta in deltas.items():
            totals[name] = totals.get(name, 0) + delta
    count = table_hands_so_far(s, session)  # a round's table counts on across its seatings
    row = s.get(LiveHand, session.id)
    last = s.exec(select(func.max(Hand.number)).where(Hand.league_id == league.id)).one()
    return Evening(
        league.name,
        session.number,
        present,
        proposal,
        pot_before(s, league.id, None),
        totals,
        count,  # type: ignore
        league.ruleset_toml,
        row.record_toml if row is not None else None,
        int(last or 0) + 1,
        session.table_number,
        duplicate_seed(s, session) is not None,
    )
