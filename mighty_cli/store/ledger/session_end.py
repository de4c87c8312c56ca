"""The rules that end a session (the ruleset's ``[session]`` end): each hand's changes of a
session read in order, the verdict they give, the session ended when it is over, and the note
that says why or how near it is."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlmodel import Session, select

from ...engine.ruleset import Ruleset
from ...engine.session import (
    SessionTally,
    find_session_end,
    has_session_end,
)
from ...engine.translation import _
from ..models import (
    ChangeLog,
    Hand,
    HandPlayer,
    League,
    LeagueSession,
    Player,
    utc_now,
)
from .lookups import (
    log_change,
)
from .table_hands import table_session_ids


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
