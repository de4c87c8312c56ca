"""Sessions: seating, who deals, opens and sits out next, the deposit pot, and the rules that
end a session.

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Literal

from sqlalchemy import func
from sqlmodel import Session, select

from ...engine.names import same_but_for_case
from ...engine.ruleset import Ruleset
from ...engine.session import (
    PreviousHand,
    Proposal,
    SessionTally,
    duplicate_proposal,
    find_session_end,
    has_session_end,
    opener_for,
    playing_order,
    propose,
    seats_range,
)
from ...engine.translation import _, ngettext
from .. import LeagueError
from ..db import lock_league
from ..models import (
    ChangeLog,
    Hand,
    HandPlayer,
    League,
    LeagueRound,
    LeagueSession,
    LiveHand,
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
    names_by_id,
    seating,
    seatings_by_session,
)
from .open_tables import refuse_seated_elsewhere, seat_checked
from .table_hands import table_hands_so_far, table_session_ids


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


def ended_by_rule(s: Session, league_id: int, number: int) -> str | None:
    """Why the ruleset ended session ``number`` (None: it is open, or the table ended it). The
    reason is kept in the change log's "session end" entry, so the tables need no column."""
    rows = s.exec(
        select(ChangeLog.after)
        .where(ChangeLog.league_id == league_id, ChangeLog.action == "session end")
        .order_by(ChangeLog.id.desc())
    ).all()
    for after in rows:
        data = json.loads(after or "{}")
        if data.get("session") == number:
            return data.get("rule")
    return None


def session_hand_changes(s: Session, session_id: int) -> list[tuple[int, str, dict[str, int]]]:
    """The session's live hands in order: number, status and every player's change (deposit
    pot included); a round's table whose seating changed mid-round counts on from its earlier
    seatings (:func:`.table_hands.table_session_ids`)."""
    ids = table_session_ids(s, s.get(LeagueSession, session_id))  # type: ignore[arg-type]
    rows = s.exec(
        select(Hand.number, Hand.status, Player.name, HandPlayer.points + HandPlayer.pot)
        .join(HandPlayer, HandPlayer.hand_id == Hand.id)
        .join(Player, Player.id == HandPlayer.player_id)
        .where(Hand.session_id.in_(ids), Hand.voided == False)  # type: ignore # noqa
        .order_by(Hand.number)
    ).all()
    hands: list[tuple[int, str, dict[str, int]]] = []
    for number, status, name, delta in rows:
        if not hands or hands[-1][0] != number:
            hands.append((number, status, {}))
        hands[-1][2][name] = int(delta or 0)
    return hands


@dataclass
class SessionVerdict:
    """What the ruleset says of a session by its stored hands: the hand after which it is
    over and why (None while it goes on), the hands so far, and the lowest stack."""

    end_hand: int | None
    reason: str | None
    numbers: list[int]
    hands_played: int
    lowest: tuple[str, int] | None = None


def session_verdict(s: Session, rules: Ruleset, session_id: int) -> SessionVerdict:
    """Walk the session's live hands through ``session.hands_per_session`` and
    ``session.starting_points`` (engine.session.find_session_end)."""
    hands = session_hand_changes(s, session_id)
    end = find_session_end(rules, [(status, deltas) for _, status, deltas in hands])
    tally = SessionTally()
    for _number, status, deltas in hands:
        tally.add(rules, status, deltas)
    lowest = None
    if rules.session.starting_points and tally.totals:
        name = min(sorted(tally.totals), key=tally.totals.__getitem__)
        lowest = (name, rules.session.starting_points + tally.totals[name])
    return SessionVerdict(
        hands[end.position][0] if end else None,
        end.reason if end else None,
        [number for number, _, _ in hands],
        tally.hands_played,
        lowest,
    )


def end_if_over(
    s: Session, league: League, rules: Ruleset, session: LeagueSession, who: str
) -> str | None:
    """End an open session its ruleset says is over (after a hand was stored); the reason."""
    if not has_session_end(rules) or session.ended_at is not None:
        return None
    verdict = session_verdict(s, rules, session.id)  # type: ignore[arg-type]
    if verdict.reason is None:
        return None
    session.ended_at = utc_now()
    s.add(session)
    log_change(
        s,
        "session end",
        who,
        verdict.reason,
        league_id=league.id,
        after={
            "session": session.number,
            "after_hand": verdict.numbers[-1],
            "rule": verdict.reason,
        },
    )
    return verdict.reason


def session_note(s: Session, league: League, rules: Ruleset, session: LeagueSession) -> str | None:
    """What to tell the table when the session's stored state and its rules disagree, which
    only a correction can cause: corrections (amend, void, unvoid) recompute standings but
    never end or reopen a session. An open session found complete ends when its next hand is
    stored; an ended one stays ended."""
    if not has_session_end(rules):
        return None
    verdict = session_verdict(s, rules, session.id)  # type: ignore[arg-type]
    number = session.number
    if session.ended_at is None:
        if verdict.reason:
            return _(
                "by its hands as corrected, session {number} was complete after hand "
                "{end_hand} ({reason}); corrections never end a session: it ends when its "
                "next hand is stored, or with 'mighty session end'"
            ).format(number=number, end_hand=verdict.end_hand, reason=verdict.reason)
        return None
    if verdict.reason is None:
        if ended_by_rule(s, league.id, number):  # type: ignore[arg-type]
            return _(
                "by its hands as corrected, session {number} would not have ended yet; "
                "corrections never reopen a session: play on in a new session"
            ).format(number=number)
        return None
    if verdict.end_hand != verdict.numbers[-1]:
        later = verdict.numbers[verdict.numbers.index(verdict.end_hand) + 1 :]  # type: ignore
        if len(later) == 1:
            return _(
                "by its hands as corrected, session {number} ended after hand {end_hand} "
                "({reason}); hand {hand} stays: corrections never end or reopen a "
                "session"
            ).format(number=number, end_hand=verdict.end_hand, reason=verdict.reason, hand=later[0])
        return _(
            "by its hands as corrected, session {number} ended after hand {end_hand} "
            "({reason}); hands {first}-{last} stay: corrections never end or reopen a "
            "session"
        ).format(
            number=number,
            end_hand=verdict.end_hand,
            reason=verdict.reason,
            first=later[0],
            last=later[-1],
        )
    return None


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


def previous_in_session(
    s: Session, session_id: int, before_number: int | None = None
) -> PreviousHand | None:
    """The session's last live hand (before ``before_number``), as succession needs it; a deal
    miss with who opened it (:func:`_deal_miss_opener`)."""
    query = select(Hand).where(Hand.session_id == session_id, Hand.voided == False)  # noqa: E712
    if before_number is not None:
        query = query.where(Hand.number < before_number)
    hand = s.exec(query.order_by(Hand.number.desc()).limit(1)).first()
    if hand is None:
        return None
    names = names_by_id(s, [hand.dealer_id, hand.declarer_id, hand.friend_id, hand.deal_miss_id])
    five = s.exec(
        select(Player.name)
        .join(HandPlayer, HandPlayer.player_id == Player.id)
        .where(HandPlayer.hand_id == hand.id, HandPlayer.seat != None)  # noqa: E711
        .order_by(HandPlayer.seat)
    ).all()
    dealer = names.get(hand.dealer_id)
    opener = _deal_miss_opener(s, hand, tuple(five), dealer) if hand.status == "deal_miss" else None
    return PreviousHand(
        hand.status,
        tuple(five),
        dealer,
        names.get(hand.declarer_id),
        names.get(hand.friend_id),
        hand.success,
        names.get(hand.deal_miss_id),
        opener,
    )


def _deal_miss_opener(
    s: Session, hand: Hand, five: tuple[str, ...], dealer: str | None
) -> str | None:
    """Who opened a stored deal miss, so its redeal keeps him (``deal_miss.redeal_opener =
    "same"``, club-requirements, 001 §3.2). A league stores no opener column: the store has no
    migration step (``create_all`` adds tables, never columns), so the opener is read where it
    is kept, as ``mighty replay`` reads a record: a refereed hand's record says who opened; a
    recorded deal miss (``record --deal-miss``, which takes no opener) was opened by whom the
    tool proposed, which follows from the hands before it (a run of deal misses back to the
    last played hand)."""
    if hand.record_toml:
        import tomllib

        opener = tomllib.loads(hand.record_toml).get("opener")
        if isinstance(opener, str) and opener in five:
            return opener
    if dealer is None:
        return None
    session = s.get(LeagueSession, hand.session_id)
    rules = league_rules(s.get(League, session.league_id))  # type: ignore[union-attr]
    if rules.deal_miss.redeal_opener != "same":
        return None  # succession does not ask who opened it

    before = previous_in_session(s, hand.session_id, hand.number)
    order = playing_order(seating(s, hand.session_id), rules)
    return opener_for(rules, order, five, dealer, before)


def session_proposal(
    s: Session, league_name: str, number: int | None = None
) -> tuple[LeagueSession, Proposal, int]:
    """The open session, who should deal, open and sit out next, and the deposit pot."""
    league = get_league(s, league_name)
    session = find_session(s, league, number, open_only=False)
    proposal = next_proposal(s, league_rules(league), session)
    return session, proposal, pot_before(s, league.id, None)


@dataclass(frozen=True)
class DuplicateDeal:
    """Where a duplicate round's table stands (``round start --duplicate``): the round's deal
    seed and number, and the deal its next hand must be (1 for the session's first)."""

    seed: int
    round: int
    deal: int


def duplicate_deal(s: Session, session: LeagueSession) -> DuplicateDeal | None:
    """The next deal of a duplicate round's table, else None (one read of the round, one count
    of the session's hands)."""
    if session.round_id is None:
        return None
    row = s.get(LeagueRound, session.round_id)
    if row is None or row.deal_seed is None:
        return None
    return DuplicateDeal(int(row.deal_seed), row.number, table_hands_so_far(s, session) + 1)


def duplicate_seed(s: Session, session: LeagueSession) -> int | None:
    """The deal seed of a duplicate round's table, else None."""
    if session.round_id is None:
        return None
    row = s.get(LeagueRound, session.round_id)
    return int(row.deal_seed) if row is not None and row.deal_seed is not None else None


def next_proposal(
    s: Session,
    rules: Ruleset,
    session: LeagueSession,
    present: Sequence[str] | None = None,
    duplicate: DuplicateDeal | None | Literal["look"] = "look",
) -> Proposal:
    """Who should deal, open and sit out the session's next hand: the ruleset's succession, or
    at a duplicate round's table the next deal's fixed seats (:func:`duplicate_proposal`).
    ``duplicate`` is the table's :func:`duplicate_deal` when the caller has it already."""
    present = list(present) if present is not None else seating(s, session.id)  # type: ignore
    if duplicate == "look":
        duplicate = duplicate_deal(s, session)
    if duplicate is not None:
        return duplicate_proposal(rules, present, duplicate.deal)  # type: ignore[union-attr]
    first = names_by_id(s, [session.first_dealer_id]).get(session.first_dealer_id)
    return propose(
        rules,
        present,
        previous_in_session(s, session.id),  # type: ignore
        first,
    )


def pot_before(s: Session, league_id: int, number: int | None) -> int:
    """The deposit pot before hand ``number`` (after the last hand when None)."""
    query = select(Hand.pot_after).where(Hand.league_id == league_id, Hand.voided == False)  # noqa: E712
    if number is not None:
        query = query.where(Hand.number < number)
    value = s.exec(query.order_by(Hand.number.desc()).limit(1)).first()
    return value or 0


# --- the evening at a glance (the hand in progress and who holds it: table_entry) --------------


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
