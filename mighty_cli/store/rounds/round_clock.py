"""A round's clock: the director starts it with the minutes the round is given, and every page
that shows the round counts down to its end (``mighty serve``).

The clock is kept with the round (:attr:`..models.LeagueRound.clock_started_at` and
``clock_minutes``), so every worker of a server and every board reads the same one; starting
and stopping it are changes of the round, logged with who made them.

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from sqlmodel import Session, select

from ...engine.limits import CLOCK_MAX_MINUTES
from ...engine.translation import _
from .. import LeagueError
from ..db import lock_league
from ..ledger.lookups import get_league, log_change
from ..models import League, LeagueRound, utc_now


@dataclass(frozen=True)
class RoundClock:
    """A round's clock: the round, when the clock started (UTC) and its minutes."""

    round: int
    started_at: datetime
    minutes: int

    @property
    def ends_at(self) -> datetime:
        return self.started_at + timedelta(minutes=self.minutes)

    def seconds_left(self, now: datetime | None = None) -> int:
        """Whole seconds until the clock ends (0 once it has)."""
        left = (self.ends_at - (now or utc_now())).total_seconds()
        return max(0, int(left))


def _aware(moment: datetime) -> datetime:
    """A stored moment as UTC (a database may give it back without its zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def _open_round(s: Session, league: League) -> LeagueRound:
    found = s.exec(
        select(LeagueRound).where(LeagueRound.league_id == league.id, LeagueRound.ended_at == None)  # noqa: E711
    ).first()
    if found is None:
        raise LeagueError(_("league {league} has no open round").format(league=repr(league.name)))
    return found


def start_clock(s: Session, league_name: str, minutes: int, *, who: str = "") -> RoundClock:
    """Start (or start again) the open round's clock with ``minutes`` from now."""
    if not 1 <= minutes <= CLOCK_MAX_MINUTES:
        raise LeagueError(
            _("a round's clock runs from 1 to {most} minutes, not {minutes}").format(
                most=CLOCK_MAX_MINUTES, minutes=minutes
            )
        )
    league = get_league(s, league_name)
    lock_league(s, league.id)  # type: ignore[arg-type]
    found = _open_round(s, league)
    found.clock_started_at, found.clock_minutes = utc_now(), minutes
    s.add(found)
    log_change(
        s,
        "round clock",
        who,
        league_id=league.id,
        after={"round": found.number, "minutes": minutes},
    )
    s.flush()
    return RoundClock(found.number, _aware(found.clock_started_at), minutes)


def stop_clock(s: Session, league_name: str, *, who: str = "") -> None:
    """Take the open round's clock away (nothing to count down)."""
    league = get_league(s, league_name)
    lock_league(s, league.id)  # type: ignore[arg-type]
    found = _open_round(s, league)
    if found.clock_minutes is None:
        raise LeagueError(_("round {number} has no clock running").format(number=found.number))
    found.clock_started_at, found.clock_minutes = None, None
    s.add(found)
    log_change(
        s, "round clock", who, league_id=league.id, after={"round": found.number, "minutes": None}
    )
    s.flush()


def round_clock(s: Session, league: League, number: int) -> RoundClock | None:
    """Round ``number``'s clock, or None when it has none."""
    found = s.exec(
        select(LeagueRound).where(LeagueRound.league_id == league.id, LeagueRound.number == number)
    ).first()
    if found is None or found.clock_started_at is None or found.clock_minutes is None:
        return None
    return RoundClock(found.number, _aware(found.clock_started_at), found.clock_minutes)
