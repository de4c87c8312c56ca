"""Sessions: found, started with their seating checked (names, near misses, one open table per
player), and ended. What comes next in one is :mod:`.succession`'s, the rules that end one
:mod:`.session_end`'s, the evening at a glance :mod:`.evening_glance`'s.

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, select

from ...engine.names import same_but_for_case
from ...engine.session import (
    Proposal,
    has_session_end,
    propose,
    seats_range,
)
from ...engine.translation import _, ngettext
from .. import LeagueError
from ..db import lock_league
from ..models import (
    Hand,
    League,
    LeagueSession,
    Player,
    SessionSeat,
    utc_now,
)
from .entry_codes import new_entry_code
from .leagues import league_today
from .lookups import (
    check_name,
    ensure_players,
    find_player,
    get_league,
    league_rules,
    log_change,
    seating,
    seatings_by_session,
)
from .open_tables import refuse_seated_elsewhere, seat_checked
from .session_end import ended_by_rule, session_note, session_verdict


def find_session(
    s: Session, league: League, number: int | None, *, open_only: bool
) -> LeagueSession:
    """A league's session: number ``number``, or the open one (``open_only``: it must be open);
    one line when there is none, or several open and no number."""
    query = select(LeagueSession).where(LeagueSession.league_id == league.id)
    if number is not None:
        found = s.exec(query.where(LeagueSession.number == number)).first()
        if found is None:
            raise LeagueError(
                _("league {league} has no session {number}").format(
                    league=repr(league.name), number=number
                )
            )
        if open_only and found.ended_at is not None:
            rule = ended_by_rule(s, league.id, number)  # type: ignore[arg-type]
            message = (
                _(
                    "session {number} of league {league} has ended by its ruleset "
                    "({rule}); start a new one with 'mighty session start --league {name} "
                    "--players ...'"
                )
                if rule
                else _(
                    "session {number} of league {league} has ended; start a new one with "
                    "'mighty session start --league {name} --players ...'"
                )
            )
            raise LeagueError(
                message.format(number=number, league=repr(league.name), rule=rule, name=league.name)
            )
        return found
    open_sessions = s.exec(
        query.where(LeagueSession.ended_at == None).order_by(LeagueSession.number)  # noqa: E711
    ).all()
    if not open_sessions:
        last = s.exec(
            select(func.max(LeagueSession.number)).where(LeagueSession.league_id == league.id)
        ).one()
        rule = ended_by_rule(s, league.id, last) if last else None  # type: ignore[arg-type]
        message = (
            _(
                "league {league} has no open session (session {last} ended by its "
                "ruleset: {rule}); start one with 'mighty session start --league {name} "
                "--players ...'"
            )
            if rule
            else _(
                "league {league} has no open session; start one with 'mighty session start "
                "--league {name} --players ...'"
            )
        )
        raise LeagueError(
            message.format(league=repr(league.name), last=last, rule=rule, name=league.name)
        )
    if len(open_sessions) > 1:
        raise LeagueError(_several_open(s, league, open_sessions))
    return open_sessions[0]


def _several_open(s: Session, league: League, open_sessions: Sequence[LeagueSession]) -> str:
    """Why a command that needs one table refuses: the open tables and sessions, each with its
    players, and the option that says which (a keeper thinks in tables: ``--table``)."""
    parts = []
    for found in open_sessions:
        names = ", ".join(seating(s, found.id))  # type: ignore[arg-type]
        parts.append(
            _("table {table}: {players}").format(table=found.table_number, players=names)
            if found.table_number
            else _("session {number}: {players}").format(number=found.number, players=names)
        )
    listed = "; ".join(parts)
    tables = sum(1 for found in open_sessions if found.table_number)
    if tables == len(open_sessions):
        return _(
            "league {league} has {count} open tables ({tables}): say which with --table"
        ).format(league=repr(league.name), count=tables, tables=listed)
    return (
        _(
            "league {league} has {count} open sessions ({sessions}): say which with --table "
            "or --session"
        )
        if tables
        else _("league {league} has {count} open sessions ({sessions}): say which with --session")
    ).format(league=repr(league.name), count=len(open_sessions), sessions=listed)


def parse_day(value: Any, what: str = "date") -> date:
    if value is None:
        return date.today()
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise LeagueError(
            _("{what} {value}: expected YYYY-MM-DD").format(what=what, value=repr(value))
        ) from None


def start_session(
    s: Session,
    league_name: str,
    players: Sequence[str],
    *,
    day: Any = None,
    first_dealer: str | None = None,
    who: str = "",
) -> tuple[LeagueSession, Proposal]:
    league = get_league(s, league_name)
    lock_league(s, league.id)  # type: ignore[arg-type]
    names = checked_names(players)
    rules = league_rules(league)
    low, high = seats_range(rules)
    if not low <= len(names) <= high:
        raise LeagueError(
            ngettext(
                "--players: {count} player; {ruleset} seats {low} at the table (table.players), "
                "and one or two more may take turns to sit out: {low} to {high} present",
                "--players: {count} players; {ruleset} seats {low} at the table (table.players), "
                "and one or two more may take turns to sit out: {low} to {high} present",
                len(names),
            ).format(count=len(names), ruleset=rules.name, low=low, high=high)
        )
    if first_dealer is not None and first_dealer not in names:
        raise LeagueError(
            _("--dealer {name} is not one of the players present").format(name=repr(first_dealer))
        )
    refuse_seated_elsewhere(s, league, names)
    refuse_near_misses(s, names)
    session = open_session(s, league, names, day=day, first_dealer=first_dealer)
    log_change(
        s,
        "session start",
        who,
        league_id=league.id,
        after={"session": session.number, "players": names, "date": session.day.isoformat()},
    )
    s.flush()
    return session, propose(rules, names, None, first_dealer)


def checked_names(players: Sequence[str]) -> list[str]:
    """The players present as a league spells them, each once (one line naming a repeat, or two
    names one but for case: ``Anna`` and ``anna``)."""
    names = [check_name(p) for p in players]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise LeagueError(_("--players: {name} is listed twice").format(name=repr(twice)))
    alike = same_but_for_case(names)
    if alike:
        raise LeagueError(
            _(
                "--players: {first} and {second} are one name but for case (or a "
                "character's form): the table could not tell them apart; list each "
                "player once, and give two people names that differ in more"
            ).format(first=repr(alike[0]), second=repr(alike[1]))
        )
    return names


def open_session(
    s: Session,
    league: League,
    names: Sequence[str],
    *,
    day: Any = None,
    first_dealer: str | None = None,
    round_id: int | None = None,
    table_number: int | None = None,
    option: str = "--players",
) -> LeagueSession:
    """A new session of the league with these players in seat order (checked by the caller):
    the next session number, the players added to the league where new. Nobody seated at an
    open table is seated again (held first, so concurrent commands take turns)."""
    ids = ensure_players(s, names)
    seat_checked(s, league, ids, option)
    number = (
        s.exec(
            select(func.max(LeagueSession.number)).where(LeagueSession.league_id == league.id)
        ).one()
        or 0
    ) + 1
    day = parse_day(day) if day is not None else league_today(s, league)
    session = LeagueSession(
        league_id=league.id,
        number=number,
        day=day,
        first_dealer_id=ids[first_dealer] if first_dealer else None,
        round_id=round_id,
        table_number=table_number,
        entry_code=new_entry_code(),
    )
    s.add(session)
    s.flush()
    for seat, name in enumerate(names):
        s.add(SessionSeat(session_id=session.id, seat=seat, player_id=ids[name]))
    s.flush()
    return session


def refuse_near_misses(s: Session, names: Sequence[str], option: str = "--players") -> None:
    """A name that is no player yet but one letter (one syllable) from a player's name is a
    typo far more often than a newcomer (민슈 for 민수): refused with the likely name, and the
    way to add a newcomer of that name on purpose (``mighty player add``)."""
    new = [name for name in names if find_player(s, name) is None]
    if not new:
        return
    known = list(s.exec(select(Player.name).where(Player.merged_into_id.is_(None))).all())  # type: ignore[union-attr]
    for name in new:
        close = sorted(
            other
            for other in known
            if other not in names and _one_edit_apart(name.casefold(), other.casefold())
        )
        if close:
            raise LeagueError(
                _(
                    "{option}: {name!r} is not a player yet, and is one letter "
                    "from {close}: a typo? (a newcomer of that name: 'mighty "
                    "player add {name}' first)"
                ).format(option=option, name=name, close=", ".join(close))
            )


def _one_edit_apart(a: str, b: str) -> bool:
    """Whether one letter (a Hangul syllable is one) changed, added or dropped turns ``a``
    into ``b``; names of one letter are never near misses."""
    if a == b or min(len(a), len(b)) < 2 or abs(len(a) - len(b)) > 1:
        return a == b and len(a) >= 2
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def past_seatings(s: Session, league_name: str) -> list[list[str]]:
    """Every session's seating in the league that played a hand (a voided hand is not
    played), clockwise: what ``session start --shuffle`` reads to avoid repeating
    neighbours."""
    league = get_league(s, league_name)
    played = set(
        s.exec(
            select(Hand.session_id)
            .where(Hand.league_id == league.id, Hand.voided == False)  # noqa: E712
            .distinct()
        ).all()
    )
    return [
        seats
        for session_id, seats in seatings_by_session(s, league.id).items()
        if session_id in played
    ]  # type: ignore[arg-type]


def end_session(
    s: Session, league_name: str, number: int | None = None, who: str = ""
) -> LeagueSession:
    league = get_league(s, league_name)
    session = find_session(s, league, number, open_only=True)
    session.ended_at = utc_now()
    s.add(session)
    log_change(s, "session end", who, league_id=league.id, after={"session": session.number})
    return session


@dataclass
class SessionEndInfo:
    """For ``session show``: why the session ended, how far it is from its end, any note."""

    ended_by: str | None
    progress: str | None
    note: str | None


def session_end_info(s: Session, league_name: str, number: int | None = None) -> SessionEndInfo:
    league = get_league(s, league_name)
    session = find_session(s, league, number, open_only=False)
    rules = league_rules(league)
    if not has_session_end(rules):
        return SessionEndInfo(None, None, None)
    verdict = session_verdict(s, rules, session.id)  # type: ignore[arg-type]
    parts = []
    if rules.session.hands_per_session:
        parts.append(
            ngettext(
                "{played} of {count} hand played",
                "{played} of {count} hands played",
                rules.session.hands_per_session,
            ).format(played=verdict.hands_played, count=rules.session.hands_per_session)
        )
    if rules.session.starting_points:
        if verdict.lowest:
            parts.append(
                _("stacks of {stack}, lowest {player} at {points}").format(
                    stack=rules.session.starting_points,
                    player=verdict.lowest[0],
                    points=verdict.lowest[1],
                )
            )
        else:
            parts.append(
                _("stacks of {stack}, no hands yet").format(stack=rules.session.starting_points)
            )
    return SessionEndInfo(
        ended_by_rule(s, league.id, session.number),  # type: ignore[arg-type]
        "; ".join(parts),
        session_note(s, league, rules, session),
    )
