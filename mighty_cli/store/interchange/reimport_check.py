"""The re-import check: a session whose date and hands are already in the league is not imported
again by accident (the keeper ran the same import twice). A played hand and a stored one are
compared by their signatures (status, players, dealer, declarer, contract, friend, taken, deal
miss)."""

from __future__ import annotations

from sqlmodel import Session, select

from ...engine.cards import format_bid
from ...engine.records import HandOutcome
from ...engine.translation import _
from .. import LeagueError
from ..ledger.hand_reads import HandView, list_hands
from ..models import League, LeagueSession


def outcome_signature(outcome: HandOutcome) -> tuple:
    """What identifies a played hand, to recognise a session imported twice."""
    return (
        outcome.status,
        tuple(outcome.players),
        outcome.dealer,
        outcome.declarer,
        format_bid(outcome.contract) if outcome.contract else None,
        outcome.friend,
        outcome.taken,
        outcome.deal_miss_player,
    )


def _view_signature(view: HandView) -> tuple:
    return (
        view.status,
        tuple(view.players),
        view.dealer,
        view.declarer,
        view.contract,
        view.friend,
        view.taken,
        view.deal_miss,
    )


def refuse_reimport(
    s: Session, league: League, day, signature: tuple, first: int, last: int, last_session: int
) -> None:
    """A session whose date and hands are already in the league is not imported again by
    accident (the keeper ran the same import twice); ``again`` imports it anyway. Only the
    sessions stored before this import (up to ``last_session``) are compared."""
    if not last_session:
        return
    same_day = s.exec(
        select(LeagueSession.number).where(
            LeagueSession.league_id == league.id,
            LeagueSession.day == day,
            LeagueSession.number <= last_session,
        )
    ).all()
    for number in same_day:  # only sessions of the same date can be the same session
        views = list_hands(s, league.name, session_number=number, include_voided=False)
        if views and tuple(_view_signature(v) for v in views) == signature:
            raise LeagueError(
                _(
                    "hands {first}-{last} of the record are already in league "
                    "{name} as session {number} ({day}, same hands): not imported "
                    "twice (use --again to import them anyway)"
                ).format(first=first, last=last, name=league.name, number=number, day=day)
            )
