"""One import's running state (:func:`.imports.import_record`): each session begun with its
first hand, each hand's rows made as it comes and written in batches, each session closed with
its last hand (its seats, the rows of those who sat a hand out, the re-import check of
:mod:`.reimport_check`, its end); the rows' columns are :mod:`.import_columns`'.

It works inside the caller's transaction and raises a project error for bad input, so the
caller's rollback leaves the database exactly as it was.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func
from sqlalchemy.engine import Connection
from sqlmodel import Session, select

from ...engine.cards import format_bid
from ...engine.errors import RecordError
from ...engine.hand.honeymoon import PARTNER_SUFFIX
from ...engine.records import HandOutcome, Record
from ...engine.scoring import pot_shares
from ...engine.session import PotMove, SessionTally, has_session_end
from ...engine.translation import _
from .. import LeagueError
from ..ledger.hands import eliminated_seat, out_tuples, settle_hand_pot, stored_friend_id
from ..ledger.leagues import league_today
from ..ledger.lookups import ensure_players, log_change, seating
from ..ledger.session_end import session_hand_changes
from ..ledger.sessions import find_session, parse_day
from ..ledger.succession import pot_before
from ..ledger.totals import COUNTS
from ..models import Hand, HandPlayer, League, LeagueSession, utc_now, utc_time
from .bulk import Background, DeferredIndexes, IdBlock, bind_value, check_points, write_rows
from .import_columns import (
    HAND_COLUMNS,
    HAND_TABLE,
    MEMBER_COLUMNS,
    SEAT_COLUMNS,
    SEAT_TABLE,
    SESSION_COLUMNS,
    SESSION_TABLE,
)
from .reimport_check import outcome_signature, refuse_reimport

#: The largest hand or session number a league stores (PostgreSQL's INTEGER).
NUMBER_MAX = 2**31 - 1


def _whole_number(value: Any, index: int, key: str) -> int | None:
    """A hand's ``number`` or ``session`` as the league will store it: None when it gives
    none (the next number is used); a number beyond what the databases hold is refused."""
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    if not 1 <= value <= NUMBER_MAX:
        raise LeagueError(
            _("hand {index}: {key} = {value}: a league numbers from 1 to {top:,}").format(
                index=index, key=key, value=value, top=NUMBER_MAX
            )
        )
    return value


@dataclass
class _NewSession:
    """A session this import made (its id and number are all the import needs)."""

    id: int
    number: int


@dataclass
class SessionImport:
    """The session being imported, its hands stored as they come: the session (new, or the
    open one), who is present (for a new session: not known until its last hand, so the rows
    of those sitting a hand out wait in ``outs``), and what its end and the re-import check
    need (a few numbers a hand, never a hand's record)."""

    target: Any
    present: list[str] | None
    tally: SessionTally
    day: Any = None
    first_index: int = 0
    last_index: int = 0
    played: set = field(default_factory=set)
    signature: list | None = None
    end_hand: int | None = None
    end_reason: str | None = None
    late: list[int] = field(default_factory=list)


class ImportRun:
    """The running state of one import: numbers, the deposit pot, rows waiting to be
    written."""

    def __init__(
        self,
        s: Session,
        league: League,
        rules,
        ids: dict[str, int],
        session_number: int | None,
        again: bool,
        who: str,
    ) -> None:
        self.s, self.league, self.rules, self.ids = s, league, rules, ids
        self.session_number, self.again, self.who = session_number, again, who
        self.number = (
            s.exec(select(func.max(Hand.number)).where(Hand.league_id == league.id)).one() or 0
        )
        self.last_session = (
            s.exec(
                select(func.max(LeagueSession.number)).where(LeagueSession.league_id == league.id)
            ).one()
            or 0
        )
        self.next_session = self.last_session
        self.pot = pot_before(s, league.id, None)  # type: ignore[arg-type]
        self.replay_pot = 0
        self.first = 0
        self.inserted = 0
        self.sessions: list[int] = []
        self.ended: list[tuple[int, str]] = []
        self.notes: list[str] = []
        connection = s.connection()
        # PostgreSQL: a batch is written by a thread while the next one is built, so the
        # server's work and ours overlap (see :meth:`flush`); every other use of the
        # connection waits for that thread first (:meth:`wait`).
        self.background: Background | None = None
        if connection.dialect.name == "postgresql" and connection.dialect.driver == "psycopg":
            self.background = Background()
        self.hand_ids = IdBlock(connection, HAND_TABLE, before=self.wait)
        self.session_ids = IdBlock(connection, SESSION_TABLE, 100, before=self.wait)
        self.session_rows: list[tuple] = []
        self.seat_rows: list[tuple] = []
        self.hand_rows: list[tuple] = []
        self.member_rows: list[tuple] = []
        self.ends = has_session_end(rules)
        self.counts: dict[int, list[int]] = {}  # player id: the totals' COUNTS of new rows
        #: the new session's hands whose rows for those sitting out wait for its end (hand id,
        #: players, points, pot, deal-miss id: a few numbers a hand)
        self.pending: list[tuple] = []
        self._who: dict[str, tuple[int, list[int]]] = {}  # a name: (id, counts)
        self.league_id = league.id
        self.deferred = DeferredIndexes(s, (HAND_TABLE, HandPlayer.__table__))  # type: ignore
        self.total = rules.count_total  # point cards, or tricks (election.bid_counts)
        self._threshold = rules.scoring.back_run.threshold
        self._bids: dict = {}  # a contract's text, by contract
        self._scores: dict = {}  # a score's stored columns, by the Score
        self.stamp = self._stamp()

    def _stamp(self) -> Any:
        """The time written on the rows of the next batch, ready for the database."""
        return bind_value(self.s.connection(), HAND_TABLE, "created_at", utc_now())

    def begin(self, hand: dict, outcome: HandOutcome, record: Record) -> SessionImport:
        """A session's first hand: the open session the import goes into, or a new session's
        row (its date, times and first dealer are its first hand's)."""
        s, league, rules = self.s, self.league, self.rules
        tally = SessionTally()
        if self.session_number is not None:
            self.wait()
            target = find_session(s, league, self.session_number, open_only=True)
            if self.ends:  # count the hands already stored (a correction never ends a session)
                changes = session_hand_changes(s, target.id)  # type: ignore[arg-type]
                for _hand, status, deltas in changes:
                    tally.add(rules, status, deltas)
            group = SessionImport(target, seating(s, target.id), tally)
        else:
            given = hand.get("date", record.extra.get("date"))
            day = (
                parse_day(given, _("hand {index}: date").format(index=outcome.index))
                if given is not None
                else league_today(s, league)
            )
            wanted = _whole_number(hand.get("session"), outcome.index, "session")
            self.next_session = (
                wanted if wanted and wanted > self.next_session else self.next_session + 1
            )
            # Written with the hands, in batches (a long history has tens of thousands).
            session_id = self.session_ids.take()
            started = (
                self.stamp
                if "session_started" not in hand
                else self._moment(hand["session_started"], outcome.index, "session_started")
            )
            ended = (
                self.stamp
                if "session_ended" not in hand
                else self._moment(hand["session_ended"], outcome.index, "session_ended")
            )
            self.session_rows.append(
                (
                    session_id,
                    league.id,
                    self.next_session,
                    bind_value(s.connection(), SESSION_TABLE, "day", day),
                    self.ids.get(outcome.dealer or ""),
                    started,
                    ended,
                )
            )
            group = SessionImport(_NewSession(session_id, self.next_session), None, tally, day)
            if not self.again and self.last_session:
                group.signature = []
        group.first_index = outcome.index
        self.sessions.append(group.target.number)
        return group

    def _moment(self, value: Any, index: int, key: str) -> Any:
        """A session time from the record (a TOML time, or text from JSON or CSV), in UTC
        and ready for the database; a time without an offset is read as UTC."""
        moment = value
        if isinstance(value, str):
            try:
                moment = datetime.fromisoformat(value.strip())
            except ValueError:
                pass
        if not isinstance(moment, datetime):
            raise RecordError(
                _(
                    "hand {index}: {key} = {value!r}: expected a time such as "
                    "2024-03-05T19:30:00+00:00"
                ).format(index=index, key=key, value=str(value)[:40])
            )
        value = moment
        return bind_value(self.s.connection(), SESSION_TABLE, "started_at", utc_time(value))

    def add(self, group: SessionImport, hand: dict, outcome: HandOutcome) -> None:
        """One hand of the session, its rows added to the batch."""
        s, league, rules, ids = self.s, self.league, self.rules, self.ids
        target, present = group.target, group.present
        if present is not None:
            missing = [p for p in outcome.players if p not in present]
            if missing:
                raise LeagueError(
                    _(
                        "{missing!r} played in the record but is not at session {session_number}"
                    ).format(missing=missing[0], session_number=self.session_number)
                )
        else:
            group.played.update(outcome.players)
        if group.signature is not None:
            group.signature.append(outcome_signature(outcome))
        group.last_index = outcome.index
        wanted = _whole_number(hand.get("number"), outcome.index, "number")
        number = wanted if wanted and wanted > self.number else self.number + 1
        if group.end_reason is not None:
            if self.session_number is not None:
                raise LeagueError(
                    _(
                        "hand {index}: session {number} of league {name!r} "
                        "ended after hand {end_hand} ({end_reason}); store it "
                        "in a new session"
                    ).format(
                        index=outcome.index,
                        number=target.number,
                        name=league.name,
                        end_hand=group.end_hand,
                        end_reason=group.end_reason,
                    )
                )
            group.late.append(number)
        self.number = number
        self.first = self.first or number
        # The replay's deltas include its own pot (which started empty): take the pot part
        # out to get the hand's score, and settle the league's pot in its place.
        points = outcome.deltas  # read only, unless the replay's pot is taken out
        if outcome.status == "deal_miss":
            points = {}
        elif (
            outcome.status == "scored"
            and self.replay_pot
            and outcome.score
            and outcome.score.success
            and outcome.declarer
        ):
            points = dict(points)
            for name, amount in pot_shares(
                self.replay_pot, rules, outcome.declarer, outcome.friend, outcome.friend2
            ).items():
                points[name] -= amount
        self.replay_pot = outcome.pot_after
        if self.pot <= 0 and outcome.status != "deal_miss":
            move = _NO_MOVE  # what settle_pot gives: only a deal miss moves an empty pot
        else:
            move = settle_hand_pot(rules, self.pot, outcome)
            self.pot = move.pot_after
            for name in move.deltas:
                if name not in ids:
                    self.wait()
                    ids.update(ensure_players(s, [name]))
        record_toml = None
        if outcome.full:
            import tomli_w

            record_toml = tomli_w.dumps({k: v for k, v in hand.items() if k not in _NOT_RECORD})
        self._append(
            outcome, number, target.id, present, points, move.deltas, record_toml, hand.get("note")
        )
        if self.ends and group.end_reason is None:
            changes = dict(points)
            for name, amount in move.deltas.items():
                changes[name] = changes.get(name, 0) + amount
            group.end_reason = group.tally.add(rules, outcome.status, changes)
            group.end_hand = number if group.end_reason else None
        if len(self.hand_rows) >= BATCH:  # write as we go: the transaction keeps it atomic
            self.flush()

    def finish(self, group: SessionImport, record: Record) -> None:
        """The session's last hand is in: a new session's seats (those who played in it, in
        the record's order) and its hands' rows for those sitting out; the re-import check;
        the session's end."""
        s, league = self.s, self.league
        target = group.target
        if group.present is None:
            present = [p for p in record.players if p in group.played]
            self.seat_rows.extend(
                (target.id, seat, self.ids[name]) for seat, name in enumerate(present)
            )
            for hand_id, players, points, pot, miss in self.pending:
                self._add_outs(hand_id, players, present, points, pot, miss)
            self.pending = []
        if group.signature is not None:
            self.wait()
            refuse_reimport(
                s,
                league,
                group.day,
                tuple(group.signature),
                group.first_index,
                group.last_index,
                self.last_session,
            )
        end_reason, end_hand, late = group.end_reason, group.end_hand, group.late
        if end_reason is not None and self.session_number is not None:
            self.wait()
            target.ended_at = utc_now()
            s.add(target)
            log_change(
                s,
                "session end",
                self.who,
                end_reason,
                league_id=league.id,
                after={"session": target.number, "after_hand": end_hand, "rule": end_reason},
            )
            self.ended.append((target.number, end_reason))
        elif late:
            if len(late) == 1:
                note = _(
                    "session {number} ended by its ruleset after hand {end_hand} "
                    "({reason}); the record plays on: hand {hand} stored as played"
                ).format(number=target.number, end_hand=end_hand, reason=end_reason, hand=late[0])
            else:
                note = _(
                    "session {number} ended by its ruleset after hand {end_hand} "
                    "({reason}); the record plays on: hands {first}-{last} stored as "
                    "played"
                ).format(
                    number=target.number,
                    end_hand=end_hand,
                    reason=end_reason,
                    first=late[0],
                    last=late[-1],
                )
            self.notes.append(note)

    def _append(
        self,
        outcome: HandOutcome,
        number: int,
        session_id: int,
        present: list[str],
        points: dict[str, int],
        pot: dict[str, int],
        record_toml: str | None,
        note: str | None,
    ) -> None:
        """A hand's row and its players' rows, added to the batch, and the players' running
        totals counted (:data:`..ledger.totals.COUNTS`, in that order).

        What :func:`..ledger.hands.hand_columns` and :func:`..ledger.hands._member_tuples` make,
        built here in one pass with the values that repeat from hand to hand (a contract's text, a
        base's float) looked up instead of made again: at a million hands this is a good part of an
        import's own time. ``tests/store/test_import_rows.py`` holds it to those functions."""
        ids, league_id, counts = self.ids, self.league_id, self.counts
        hand_id = self.hand_ids.take()
        status, declarer, friend = outcome.status, outcome.declarer, outcome.friend
        score = outcome.score
        contract = outcome.contract
        scored = status == "scored"
        if score is not None:
            # what the row stores of a score, kept by the Score (scores repeat: scoring's memo)
            known = self._scores.get(id(score))
            if known is None or known[0] is not score:
                if len(self._scores) > 4096:
                    self._scores.clear()
                known = self._scores[id(score)] = (
                    score,
                    score.success,
                    float(score.base),
                    score.multiplier,
                    ",".join(score.doublings) if score.doublings else "",
                )
            _score, success, base, multiplier, doublings = known
        else:
            success = base = multiplier = None
            doublings = ""
        text = None
        if contract is not None:
            text = self._bids.get(contract)
            if text is None:
                text = self._bids[contract] = format_bid(contract)
        run = back_run = False
        taken = outcome.taken
        if scored and taken is not None and contract is not None:
            threshold = self._threshold
            threshold = contract.number if threshold == "bid" else threshold
            run, back_run = taken == self.total, self.total - taken >= threshold
        miss = ids.get(outcome.deal_miss_player) if outcome.deal_miss_player else None
        self.hand_rows.append(
            (
                hand_id,
                league_id,
                session_id,
                number,
                False,
                self.pot,
                record_toml,
                note,
                self.stamp,
                status,
                ids.get(outcome.dealer) if outcome.dealer else None,
                ids.get(declarer) if declarer else None,
                # 허니문: the declarer's own id for his friend hand (hands.stored_friend_id)
                (
                    None
                    if not friend
                    else ids.get(friend)
                    if not friend.endswith(PARTNER_SUFFIX)
                    else stored_friend_id(outcome, ids)
                ),
                miss,
                text,
                outcome.friend_call,
                taken,
                success,
                base,
                multiplier,
                doublings,
                run,
                back_run,
                outcome.full,
                None if outcome.eliminated_hand is None else eliminated_seat(outcome),
            )
        )
        rows = self.member_rows
        players = outcome.players
        eliminated = outcome.eliminated
        friend2 = outcome.friend2
        won = success is True
        who = self._who  # a name: its id and its counts, looked up once
        append = rows.append
        for seat, name in enumerate(players):
            known = who.get(name)
            if known is None:
                player_id = ids[name]
                line = counts.get(player_id)
                if line is None:
                    line = counts[player_id] = [0] * len(COUNTS)
                known = who[name] = (player_id, line)
            player_id, line = known
            gained = points.get(name, 0)
            paid = pot.get(name, 0) if pot else 0
            line[0] += 1
            line[2] += gained + paid
            if not scored:
                role = "player"
            elif eliminated and name in eliminated:
                role = "eliminated"  # 6마, 7마: at the table, out of the hand, scoring nothing
            elif name == declarer:
                role = "declarer"
                line[1] += 1
                line[3] += 1
                line[4] += won
                line[6] += run
            elif name == friend or name == friend2:  # friend2: 동대전 7마's second friend
                role = "friend"
                line[1] += 1
                line[5] += 1
                line[6] += run
            else:
                role = "opponent"
                line[1] += 1
                line[7] += back_run
            append((hand_id, player_id, league_id, seat, role, gained, paid))
            if player_id == miss:
                line[8] += 1
        if present is None:  # a new session's sitters-out are known at its end
            self.pending.append((hand_id, players, points, pot, miss))
        else:
            self._add_outs(hand_id, players, present, points, pot, miss)

    def _add_outs(
        self,
        hand_id: int,
        players: Sequence[str],
        present: Sequence[str],
        points: dict[str, int],
        pot: dict[str, int],
        miss: int | None,
    ) -> None:
        """A hand's rows for those present who sat it out and for a pot payer not present
        (:func:`..ledger.hands.out_tuples`), with their running totals."""
        if len(present) <= len(players) and not pot:
            return
        counts = self.counts
        for player_id, league_id, seat, role, gained, paid in out_tuples(
            players, present, points, pot, self.ids, self.league_id
        ):
            self.member_rows.append((hand_id, player_id, league_id, seat, role, gained, paid))
            line = counts.get(player_id)
            if line is None:
                line = counts[player_id] = [0] * len(COUNTS)
            line[0] += 1
            line[2] += gained + paid
            if player_id == miss:
                line[8] += 1

    def wait(self) -> None:
        """Let the batch being written finish (raising its error) before the connection is
        used for anything else."""
        if self.background is not None:
            self.background.wait()

    def abandon(self) -> None:
        """The import failed: let the writing thread finish, its own error dropped."""
        if self.background is not None:
            self.background.abandon()

    def flush(self, final: bool = False) -> None:
        """Write the rows waiting: sessions, seats, hands, then the hands' player rows (a long
        import sets the secondary indexes aside first: :class:`.bulk.DeferredIndexes`). On
        PostgreSQL the rows go to a thread that writes them while the import builds the next
        batch (psycopg lets other threads run while it waits on the server)."""
        self.wait()
        if not final:
            self.deferred.consider(self.inserted + len(self.hand_rows), HAND_TABLE)
        self.inserted += len(self.hand_rows)
        check_points(self.member_rows, 5, 6)
        connection = self.s.connection()
        batch = (
            (SESSION_TABLE, SESSION_COLUMNS, self.session_rows),
            (SEAT_TABLE, SEAT_COLUMNS, self.seat_rows),
            (HAND_TABLE, HAND_COLUMNS, self.hand_rows),
        )
        members = self.member_rows

        def write() -> None:
            for table, columns, rows in batch:
                write_rows(connection, table, columns, rows)
            _insert_members(connection, members)

        if self.background is not None:
            self.background.start(write)
        else:
            write()
        self.session_rows, self.seat_rows, self.hand_rows, self.member_rows = [], [], [], []
        self.stamp = self._stamp()
        gc.collect(1)  # automatic collection is off during the import: keep memory flat


BATCH = 5000
_NO_MOVE = PotMove()  # the pot untouched (read only)
#: A hand's keys that belong to the league, not to the refereed hand's own record.
_NOT_RECORD = frozenset(("session", "date", "note", "number", "session_started", "session_ended"))


def _insert_members(s: Session | Connection, rows: list[tuple]) -> None:
    """The hands' player rows (tuples in :data:`MEMBER_COLUMNS` order)."""
    write_rows(s, HandPlayer.__table__, MEMBER_COLUMNS, rows)  # type: ignore[attr-defined]
