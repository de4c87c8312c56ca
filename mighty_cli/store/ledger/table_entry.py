"""What a table's writers are held to: the hand in progress and who holds it, the number of the
table's next hand, and one outcome entered twice.

Several writers may enter one table's hands at once: a referee window (``mighty referee``), a
score-keeper (``mighty record``), a second window at the same table, and front ends to come (a
phone entering hands at a table, a tablet refereeing). Every check runs under the league's lock
(:func:`..db.lock_league`) in the transaction that writes, so what a writer is told is what the
store holds. A table is a session (a round's table, or a session of its own); its hands are
counted in the session, voided ones included (the table's hand k, which other tables' hands do
not move).

* The hand in progress (``live_hand``, one per session) is held by a token, a
  :class:`LiveClaim`: :func:`take_live_hand` takes it up (a referee opening the table resumes
  it, wherever it was left), :func:`keep_live_hand` rewrites it after each entry,
  :func:`drop_live_hand` forgets it when every entry was taken back, and ``record_hand(claim=)``
  stores it finished. Each checks the claim first (:func:`check_claim`): a hand stored at the
  table since the writer last looked (a ``record`` that replaced it, another window that
  finished it), the hand taken up by another window, dropped elsewhere, or its session ended
  is refused with :class:`HandGone`, which says which; nothing is written.
* A writer may state which of the table's hands it enters (``record_hand(expect_hand=k)``): a
  writer behind the table is refused (:class:`HandAlreadyEntered`, naming the hand stored,
  who entered it and when), and the same entry sent again is recognised as the same
  (``same``), so a front end that sends one entry twice stores it once.
* An outcome equal to the table's previous hand (declarer, contract, friends, points taken,
  who was eliminated; or a deal miss by the same player) is refused (:class:`SameOutcome`)
  unless the writer says the table played it twice alike (``record_hand(again=True)``): a
  keeper pressing Enter on his last command again stores nothing.
* A score-keeper's hand left half typed (Ctrl-C in ``record``) is kept as the hand in progress,
  a one-hand record of the answers so far (:func:`keep_half_entered`), until his next
  ``record`` takes it up again (:func:`take_half_entered`).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import func
from sqlmodel import Session, select

from ...engine.safe_toml import loads
from ...engine.translation import _, ngettext
from .. import LeagueError
from ..db import lock_league
from ..models import ChangeLog, Hand, HandPlayer, League, LeagueSession, LiveHand, utc_now
from .leagues import league_setting
from .lookups import get_league, names_by_id
from .sessions import find_session
from .table_hands import table_hands_so_far, table_session_ids

#: What a hand in progress holds before anything is entered (a referee's hand just dealt).
NOTHING_ENTERED = frozenset(("players", "dealer", "opener", "deal", "session", "date"))


def new_token() -> str:
    """A writer's token: one per window, never shown."""
    return uuid.uuid4().hex


@dataclass
class LiveClaim:
    """A writer's hold on a table's hand in progress: its ``token``, how many hands the table
    had stored when the writer last looked (its hand is the table's ``hands + 1``), and
    whether the stored hand in progress is this writer's (``held``: it wrote it, or took it
    up). ``replaces``: the writer's hand replaces any hand in progress there (a score-keeper's
    half-typed hand: his entry of the hand is the table's latest word on it). The writer
    moves it on once a write is committed (held after keeping the hand, not after dropping
    it; ``hands`` is the table's count after storing it)."""

    token: str
    hands: int
    held: bool = False
    replaces: bool = False


class HandGone(LeagueError):
    """The hand a writer holds is no longer his to write: ``what`` is ``stored`` (a hand was
    stored at the table meanwhile), ``taken`` (another window took it up), ``dropped`` or
    ``ended`` (the session)."""

    def __init__(self, message: str, what: str):
        super().__init__(message)
        self.what = what


class HandAlreadyEntered(LeagueError):
    """The table is past the hand a writer says it enters: ``hand`` is the stored hand of that
    number, ``same`` whether it is this very entry, ``next`` the table's next hand;
    ``entered`` who entered the stored hand and when (:class:`Entered`)."""

    def __init__(
        self, message: str, hand: Hand, same: bool, next_hand: int, entered: Entered | None = None
    ):
        super().__init__(message)
        self.hand, self.same, self.next = hand, same, next_hand
        self.entered = entered


@dataclass(frozen=True)
class Entered:
    """A stored hand's entry: its declarer (or the deal miss's player; None when everyone
    passed), who entered it (empty when unknown) and when (UTC)."""

    declarer: str | None
    who: str
    at: datetime


class SameOutcome(LeagueError):
    """The outcome equals the table's previous hand (``hand``): entered twice?"""

    def __init__(self, message: str, hand: Hand):
        super().__init__(message)
        self.hand = hand


# --- the table's hands -------------------------------------------------------------------------


def session_hands(s: Session, session_id: int) -> int:
    """How many hands the session's table has stored, voided ones included: a round's table
    counts on across the seatings ``round seat`` gave it (:mod:`.table_hands`)."""
    return table_hands_so_far(s, s.get(LeagueSession, session_id))  # type: ignore[arg-type]


def _hand_at(s: Session, session_id: int, position: int) -> Hand | None:
    """The table's hand ``position`` (1 for its first), over every seating it has had."""
    sessions = table_session_ids(s, s.get(LeagueSession, session_id))  # type: ignore[arg-type]
    return s.exec(
        select(Hand)
        .where(Hand.session_id.in_(sessions))  # type: ignore[union-attr]
        .order_by(Hand.number)
        .offset(position - 1)
        .limit(1)
    ).first()


def hand_name(session: LeagueSession, position: int, number: int | None) -> str:
    """A hand as the table names it: a round's table by its own count (``table 2's hand 3``),
    a session of its own by the league's number (``hand 33``)."""
    if session.table_number is not None or number is None:
        if session.table_number is None:
            return _("session {session}'s hand {local}").format(
                session=session.number, local=position
            )
        return _("table {table}'s hand {local}").format(table=session.table_number, local=position)
    return _("hand {number}").format(number=number)


def _next_number(s: Session, league_id: int) -> int:
    return (
        int(s.exec(select(func.max(Hand.number)).where(Hand.league_id == league_id)).one() or 0) + 1
    )


def _clock(s: Session, league: League, moment: datetime) -> str:
    """``21:03``: a stored moment (UTC; naive means UTC) on the league's clock (its
    ``timezone`` setting), else the machine's."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    name = league_setting(s, league, "timezone")
    if name:
        from zoneinfo import ZoneInfo  # only a league with a time zone reads the zone database

        return f"{moment.astimezone(ZoneInfo(name)):%H:%M}"
    return f"{moment.astimezone():%H:%M}"


def entered_words(s: Session, league: League, hand: Hand) -> str:
    """A stored hand in a few words, with who entered it and when: ``declarer Ana 15D, by
    kim at 21:03``."""
    names = names_by_id(s, [hand.declarer_id, hand.deal_miss_id])
    entered = entry_of(s, hand)
    if hand.status == "deal_miss":
        what = _("deal miss ({player})").format(player=names.get(hand.deal_miss_id))
    elif hand.status == "redeal":
        what = _("everyone passed")
    else:
        what = _("declarer {declarer} {contract}").format(
            declarer=names.get(hand.declarer_id), contract=hand.contract
        )
    who, time = entered.who, _clock(s, league, entered.at)
    if who:
        return _("{what}, by {who} at {time}").format(what=what, who=who, time=time)
    return _("{what}, at {time}").format(what=what, time=time)


def entry_of(s: Session, hand: Hand) -> Entered:
    """Who entered a stored hand and when (its first change-log line; else its creation)."""
    entry = s.exec(
        select(ChangeLog.who, ChangeLog.at)
        .where(ChangeLog.hand_id == hand.id)
        .order_by(ChangeLog.id)
        .limit(1)
    ).first()
    who, at = entry if entry is not None else ("", hand.created_at)
    if at.tzinfo is None:
        at = at.replace(tzinfo=timezone.utc)
    player = hand.deal_miss_id if hand.status == "deal_miss" else hand.declarer_id
    declarer = names_by_id(s, [player]).get(player) if player is not None else None
    return Entered(declarer, who or "", at)


# --- the hand in progress, and who holds it ---------------------------------------------------


def _table(
    s: Session, league_name: str, session_number: int | None
) -> tuple[League, LeagueSession]:
    """The league (locked: one writer at a time) and the table's session, open or ended (None:
    the open one)."""
    league = get_league(s, league_name)
    lock_league(s, league.id)  # type: ignore[arg-type]
    return league, find_session(s, league, session_number, open_only=False)


def check_claim(s: Session, league: League, session: LeagueSession, claim: LiveClaim) -> None:
    """Refuse a writer whose hand in progress is no longer his (:class:`HandGone`). The caller
    holds the league's lock."""
    count = session_hands(s, session.id)  # type: ignore[arg-type]
    if count > claim.hands:
        hand = _hand_at(s, session.id, claim.hands + 1)  # type: ignore[arg-type]
        raise HandGone(
            _(
                "{hand} was entered meanwhile elsewhere ({entered}): the entries made "
                "here are not kept"
            ).format(
                hand=hand_name(session, claim.hands + 1, hand.number),  # type: ignore
                entered=entered_words(s, league, hand),
            ),
            "stored",
        )  # type: ignore
    if session.ended_at is not None:
        where = (
            _("table {table} (session {number})").format(
                table=session.table_number, number=session.number
            )
            if session.table_number is not None
            else _("session {number}").format(number=session.number)
        )
        raise HandGone(
            _("{where} has ended: the entries made here are not kept").format(where=where), "ended"
        )

    def name() -> str:  # the writer's hand, named only when it is refused
        return hand_name(session, claim.hands + 1, _next_number(s, league.id))  # type: ignore

    if count < claim.hands:  # hands taken out of the table (a backup restored meanwhile)
        raise HandGone(
            _(
                "{hand}: the table's hands changed elsewhere; the entries made here are not kept"
            ).format(hand=name()),
            "dropped",
        )
    if claim.replaces:
        return
    row = s.get(LiveHand, session.id)
    if row is not None and row.owner != claim.token:
        raise HandGone(
            _(
                "{hand} was taken up in another window at {time}: the entries made "
                "here are not kept"
            ).format(hand=name(), time=_clock(s, league, row.updated_at)),
            "taken",
        )
    if row is None and claim.held:
        raise HandGone(
            _(
                "{hand}, in progress here, was dropped elsewhere: the entries made "
                "here are not kept"
            ).format(hand=name()),
            "dropped",
        )


def take_live_hand(
    s: Session, league_name: str, session_number: int | None, token: str
) -> tuple[LiveClaim, str | None]:
    """Take up a table's hand in progress (a referee opening the table): from now on it is this
    writer's, and any other window's next entry is refused. The claim and the hand's record
    (hand-record TOML, None when there is none). A hand a score-keeper left half typed is not
    a referee's to take up (:class:`HalfEntered`)."""
    league, session = _table(s, league_name, session_number)
    if session.ended_at is not None:
        find_session(s, league, session_number, open_only=True)  # the session's own refusal
    row = s.get(LiveHand, session.id)
    if row is not None:
        half = half_entered(row.record_toml)
        if half is not None:
            raise HalfEntered(
                _("{hand} was left half entered by a score-keeper ({answers})").format(
                    hand=hand_name(
                        session,
                        session_hands(s, session.id) + 1,  # type: ignore
                        _next_number(s, league.id),
                    ),  # type: ignore[arg-type]
                    answers=answers_words(half),
                )
            )
        row.owner, row.updated_at = token, utc_now()
        s.add(row)
    claim = LiveClaim(token, session_hands(s, session.id), held=row is not None)  # type: ignore
    return claim, row.record_toml if row is not None else None


def keep_live_hand(
    s: Session,
    league_name: str,
    session_number: int | None,
    record_toml: str,
    claim: LiveClaim,
) -> None:
    """Keep the hand in progress (hand-record TOML) as the writer holding ``claim`` has it now,
    replacing the stored copy; refused (:class:`HandGone`) when it is no longer his."""
    league, session = _table(s, league_name, session_number)
    check_claim(s, league, session, claim)
    row = s.get(LiveHand, session.id)
    if row is None:
        row = LiveHand(
            session_id=session.id,
            league_id=league.id,  # type: ignore[arg-type]
            record_toml=record_toml,
            owner=claim.token,
        )
    else:
        row.record_toml, row.updated_at, row.owner = record_toml, utc_now(), claim.token
    s.add(row)


def drop_live_hand(
    s: Session, league_name: str, session_number: int | None, claim: LiveClaim
) -> None:
    """Forget the hand in progress (its every entry taken back: a hand with nothing in it is no
    hand in progress); refused (:class:`HandGone`) when it is no longer the writer's."""
    league, session = _table(s, league_name, session_number)
    check_claim(s, league, session, claim)
    row = s.get(LiveHand, session.id)
    if row is not None:
        s.delete(row)
        s.flush()


def clear_live_hand(s: Session, session_id: int) -> dict | None:
    """Forget a session's hand in progress (it was stored, or the table abandoned it); the hand
    forgotten as a hand-record table (``{}`` when its record cannot be read), or None if there
    was none."""
    row = s.get(LiveHand, session_id)
    if row is None:
        return None
    try:
        hand = next(
            (
                dict(hand)
                for hand in loads(row.record_toml).get("hands", [])
                if isinstance(hand, dict)
            ),
            {},
        )
    except (ValueError, TypeError):
        hand = {}
    s.delete(row)
    s.flush()
    return hand


def live_hand(s: Session, league_name: str, session_number: int) -> str | None:
    """The hand in progress of a session (hand-record TOML), if one was left there."""
    league = get_league(s, league_name)
    session = find_session(s, league, session_number, open_only=False)
    row = s.get(LiveHand, session.id)
    return row.record_toml if row is not None else None


def entered(hand: dict) -> bool:
    """Whether anything was entered for a hand in progress (a call, a deal miss, an answer)."""
    return any(key not in NOTHING_ENTERED for key in hand)


def hand_in_progress(s: Session, session_id: int) -> bool:
    """Whether a table has a hand in progress: one with something entered (a referee who took
    back every call leaves none)."""
    row = s.get(LiveHand, session_id)
    if row is None:
        return False
    try:
        hands = loads(row.record_toml).get("hands", [])
    except (ValueError, TypeError):
        return True  # unreadable: say it is there, rather than drop it unseen
    return any(isinstance(hand, dict) and entered(hand) for hand in hands)


# --- a score-keeper's half-typed hand -----------------------------------------------------------


class HalfEntered(LeagueError):
    """The table's hand in progress is a score-keeper's, half typed (not a referee's)."""


#: The answers a score-keeper's half-typed hand keeps, in the order they are asked.
ANSWERS = ("declarer", "contract", "eliminated", "friend", "friend2")


def half_entered(record_toml: str) -> dict | None:
    """The hand of a score-keeper's half-typed record (the answers so far: a declarer, no
    calls), else None (a referee's hand)."""
    try:
        hands = loads(record_toml).get("hands", [])
    except (ValueError, TypeError):
        return None
    return half_entered_hand(hands[-1]) if hands and isinstance(hands[-1], dict) else None


def half_entered_hand(hand: dict) -> dict | None:
    """``hand`` when it is a score-keeper's half-typed hand (answers, no calls), else None."""
    return hand if "declarer" in hand and "election" not in hand else None


def answers_words(hand: dict) -> str:
    """A half-typed hand's answers in a few words: ``declarer Ana, contract 15D``."""
    words = {
        "declarer": _("declarer {value}"),
        "contract": _("contract {value}"),
        "eliminated": _("eliminated {value}"),
        "friend": _("friend {value}"),
        "friend2": _("friend {value}"),
    }
    shown = []
    for key in ANSWERS:
        if key in hand:
            value = hand[key]
            value = ", ".join(map(str, value)) if isinstance(value, list) else value
            shown.append(words[key].format(value=value))
    return ", ".join(shown)


def keep_half_entered(
    s: Session, league_name: str, session_number: int, record_toml: str, hands: int
) -> None:
    """Keep a score-keeper's half-typed hand (a one-hand record of his answers so far) as the
    table's hand in progress, replacing any other; refused (:class:`HandGone`) when the table
    stored a hand since his began (``hands``: its count then)."""
    keep_live_hand(
        s, league_name, session_number, record_toml, LiveClaim(new_token(), hands, replaces=True)
    )


def take_half_entered(
    s: Session, league_name: str, session_number: int
) -> tuple[list[str], dict] | None:
    """A score-keeper's half-typed hand, taken out of the table to be finished: the players of
    the hand and its answers so far; None when the table has none."""
    _league, session = _table(s, league_name, session_number)
    row = s.get(LiveHand, session.id)
    hand = half_entered(row.record_toml) if row is not None else None
    if hand is None:
        return None
    players = [str(p) for p in loads(row.record_toml).get("players", [])]  # type: ignore
    s.delete(row)
    s.flush()
    return players, hand


# --- the entry: the table's next hand, and the same outcome twice -----------------------------


def outcome_key(hand: Hand, roles: list[tuple[int, str]]) -> tuple:
    """What makes two outcomes the same hand entered twice: the declarer, contract, friends,
    points taken, who was eliminated, or the deal miss's player (a refereed hand: its record,
    card by card). ``roles``: the hand's ``(player_id, role)`` rows."""
    return (
        hand.status,
        hand.declarer_id,
        hand.friend_id,
        hand.deal_miss_id,
        hand.contract,
        hand.taken,
        hand.eliminated_seat,
        frozenset((player, role) for player, role in roles if role in ("friend", "eliminated")),
        hand.record_toml if hand.full else None,
    )


def stored_key(s: Session, hand: Hand) -> tuple:
    """:func:`outcome_key` of a stored hand."""
    roles = s.exec(
        select(HandPlayer.player_id, HandPlayer.role).where(HandPlayer.hand_id == hand.id)
    ).all()
    return outcome_key(hand, [(player, role) for player, role in roles])


def check_next_hand(
    s: Session, league: League, session: LeagueSession, expect: int, key: tuple
) -> None:
    """Refuse an entry of the table's hand ``expect`` when the table is elsewhere: past it
    (:class:`HandAlreadyEntered`: ``same`` when the stored hand is this entry, ``key``), or
    not yet there. The caller holds the league's lock."""
    count = session_hands(s, session.id)  # type: ignore[arg-type]
    if expect == count + 1:
        return
    if expect < 1 or expect > count + 1:
        raise LeagueError(
            ngettext(
                "the table has {count} hand stored: its next is hand {next}, not {expect}",
                "the table has {count} hands stored: its next is hand {next}, not {expect}",
                count,
            ).format(count=count, next=count + 1, expect=expect)
        )
    hand: Hand = _hand_at(s, session.id, expect)  # type: ignore[arg-type,assignment]
    same = stored_key(s, hand) == key
    said = (
        _("{hand} is already entered as given here ({entered}): it is stored once")
        if same
        else _("{hand} is already entered ({entered})")
    )
    raise HandAlreadyEntered(
        said.format(
            hand=hand_name(session, expect, hand.number), entered=entered_words(s, league, hand)
        ),
        hand,
        same,
        count + 1,
        entry_of(s, hand),
    )


def check_not_repeated(s: Session, league: League, session: LeagueSession, key: tuple) -> None:
    """Refuse an outcome equal to the table's previous hand (:class:`SameOutcome`). The caller
    holds the league's lock."""
    previous = s.exec(
        select(Hand)
        .where(Hand.session_id == session.id, Hand.voided == False)  # noqa: E712
        .order_by(Hand.number.desc())
        .limit(1)
    ).first()
    if previous is None or stored_key(s, previous) != key:
        return
    count = session_hands(s, session.id)  # type: ignore[arg-type]
    position = count - _later_hands(s, session.id, previous.number)  # type: ignore[arg-type]
    raise SameOutcome(
        _("the same outcome as {hand} ({entered}): entered twice?").format(
            hand=hand_name(session, position, previous.number),
            entered=entered_words(s, league, previous),
        ),
        previous,
    )


def _later_hands(s: Session, session_id: int, number: int) -> int:
    """The table's hands stored after hand ``number`` (voided ones)."""
    return int(
        s.exec(
            select(func.count(Hand.id)).where(Hand.session_id == session_id, Hand.number > number)
        ).one()
        or 0
    )
