"""A table's entry of its next hand, for any front end (the fixed interface) and for the table's
page: ``POST /api/tables/T/hands`` stores a hand, ``POST /api/tables/T/check`` checks one
field as it is filled.

``POST /api/tables/T/hands`` takes a JSON body (:mod:`.entry_body`): the table's entry code
(``code``; else the one the phone keeps), the table's hand the writer believes is next
(``hand``) and the outcome as ``record`` takes it. It answers

* ``201`` ``{"table_hand", "league_hand", "deltas": {player: points}}``: stored;
* ``200`` the same, when this very entry was stored before (a phone that lost its answer sends
  it again: stored once);
* ``409`` ``{"error", "hand", "next_hand"}`` when that table hand holds another entry (the
  error says which: ``table 1's hand 5 is already entered (declarer Ana 15D, by table 1 at
  21:03)``; ``hand`` is the stored hand), or the table is not yet at that hand;
* ``403`` for a missing or wrong code (nothing stored; wrong ones slowed down: ``429``);
* ``422`` ``{"error", "field"}`` with the one line ``record`` gives for an outcome it refuses;
* any other 4xx with ``{"error"}`` for a request it cannot read.

The outcome is checked and stored by the table's own entry
(:mod:`mighty_cli.table.score_entry`: :func:`~mighty_cli.table.score_entry.check_outcome`,
:func:`~mighty_cli.table.score_entry.store_outcome`) in one transaction under the league's
lock, as ``record`` stores it: a keeper's terminal and the phones at one table are held to the
same rule (DEVELOPERS.md, "A table's writers"). The change log says ``table T`` entered it.

A retried entry the table's next hand no longer fits (its declarer or friend sits out the next
hand at a table of six or seven) is weighed with the stored hand's own players, so it is still
answered ``200``; only one the table no longer seats (seated again since) cannot be, and is
answered ``409`` with the stored hand, which the phone shows. Nothing is stored twice.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from sqlmodel import Session, select
from starlette.requests import Request
from starlette.responses import JSONResponse

from ..engine.errors import MightyError
from ..engine.translation import _
from ..store.ledger.hand_reads import HandView, show_hand
from ..store.ledger.lookups import get_league
from ..store.ledger.table_entry import HandAlreadyEntered, check_next_hand
from ..store.ledger.table_hands import table_hands_so_far, table_session_ids
from ..store.models import Hand
from ..table.next_hand import read_next_hand
from ..table.score_entry import (
    AlreadyStored,
    EnteredElsewhere,
    EntryRefused,
    SameAsPrevious,
    check_field,
    check_outcome,
    sent_again,
    store_outcome,
)
from . import entry_body, reads
from .forms import RequestError
from .guard import cross_site
from .served import Served, served
from .table_views import code_cookie, table_code_refusal, writer_name


@dataclass(frozen=True)
class EntryTarget:
    """A table as its entry needs it: what :func:`.table_views.table_code_refusal` reads."""

    ref: str
    table: int | None
    session: int
    playing: bool
    code: str | None
    #: how many hands the table had stored when it was read
    hands: int = 0

    @property
    def title(self) -> str:
        return (
            _("Table {table}").format(table=self.table)
            if self.table is not None
            else _("Session {number}").format(number=self.session)
        )

    @property
    def writer(self) -> str:
        """Who the change log says entered a hand: ``table 2`` (``session 5``)."""
        return writer_name(self.table, self.session)


def entry_target(s: Session, league: reads.ServedLeague, ref: str) -> EntryTarget:
    current = reads.table_sessions(s, get_league(s, league.name), ref)[-1]
    return EntryTarget(
        ref,
        current.table_number,
        current.number,  # type: ignore[arg-type]
        current.ended_at is None,
        current.entry_code,
        table_hands_so_far(s, current),
    )


@dataclass(frozen=True)
class Answer:
    """What an entry came to: the status and the JSON answered."""

    status: int
    body: dict


def entered_json(table_hand: int, league_hand: int, deltas: dict) -> dict:
    return {"table_hand": table_hand, "league_hand": league_hand, "deltas": dict(deltas)}


def hand_json(view: HandView, table_hand: int) -> dict:
    """A stored hand as a conflict shows it."""
    return {
        "table_hand": table_hand,
        "league_hand": view.number,
        "status": view.status,
        "declarer": view.declarer,
        "contract": view.contract,
        "friend": view.friend,
        "friend2": view.friend2,
        "taken": view.taken,
        "deal_miss": view.deal_miss,
        "eliminated": list(view.eliminated),
        "voided": view.voided,
        "deltas": dict(view.deltas),
    }


# --- storing -----------------------------------------------------------------------------------


def _store(
    s: Session, league_name: str, ref: str, expect: int, fields: dict, again: bool, who: str
) -> dict:
    """Check the outcome at the table's hand now next and store it as the table's hand
    ``expect`` (the transaction: under the league's lock once the store takes it)."""
    league = get_league(s, league_name)
    session = reads.table_sessions(s, league, ref)[-1]
    hand = read_next_hand(s, league_name, session.number)
    outcome = check_outcome(hand, fields)
    stored = store_outcome(
        s, league_name, outcome, session=session.number, expect_hand=expect, again=again, who=who
    )
    return entered_json(stored.table_hand, stored.league_hand, stored.points)


def _judge_past(
    s: Session,
    league: reads.ServedLeague,
    ref: str,
    expect: int,
    fields: dict,
    again: bool,
    who: str,
) -> Answer | None:
    """An entry of a hand the table is past can only be refused: this very entry stored (200,
    as stored), another (409, the stored hand), or the outcome refused (raised). It is judged
    in a read-only transaction by the same store function (refused before it writes anything;
    nothing it did is kept), and what it came to is read in the same transaction. None: the
    table is at that hand, the entry goes on to be stored."""
    current = reads.table_sessions(s, get_league(s, league.name), ref)[-1]
    if table_hands_so_far(s, current) < expect:
        return None
    try:
        _store(s, league.name, ref, expect, fields, again, who)  # raises: the table is past it
    except AlreadyStored:
        return Answer(200, _stored_again(s, league, ref, expect))
    except EnteredElsewhere as exc:
        return _conflict_answer(_conflict(s, league, ref, expect, str(exc)), str(exc))
    except SameAsPrevious:
        raise
    except EntryRefused as exc:
        conflict = _conflict(s, league, ref, expect, None)
        if conflict is None:
            raise
        view = _stored_view(s, league, ref, expect)
        session = reads.table_sessions(s, get_league(s, league.name), ref)[-1].number
        if view is not None and sent_again(
            s, league.name, session, expect, fields, view.players, who
        ):
            return Answer(200, _stored_again(s, league, ref, expect))
        return _conflict_answer(conflict, str(exc))
    return None  # not refused (it cannot be): the writers' way decides


def _stored_view(s: Session, league: reads.ServedLeague, ref: str, expect: int) -> HandView | None:
    """The table's stored hand ``expect`` (None: the table is short of it)."""
    current = reads.table_sessions(s, get_league(s, league.name), ref)[-1]
    if expect > table_hands_so_far(s, current):
        return None
    found = s.exec(
        select(Hand.number)
        .where(Hand.session_id.in_(table_session_ids(s, current)))  # type: ignore[union-attr]
        .order_by(Hand.number)
        .offset(expect - 1)
        .limit(1)
    ).one()
    return show_hand(s, league.name, found)


def _conflict(
    s: Session, league: reads.ServedLeague, ref: str, expect: int, said: str | None
) -> tuple[str, dict | None, int] | None:
    """Where the table is, for an entry of its hand ``expect`` refused: None when the table
    is at that hand (the refusal stands); else the line saying so (``said``, the store's own,
    or made here), the stored hand of that number (None: the table is short of it) and the
    table's next hand."""
    row = get_league(s, league.name)
    current = reads.table_sessions(s, row, ref)[-1]
    count = table_hands_so_far(s, current)
    if expect == count + 1:
        return None
    if said is None:
        try:
            check_next_hand(s, row, current, expect, ())
        except (HandAlreadyEntered, MightyError) as exc:
            said = str(exc)
    view = _stored_view(s, league, ref, expect)
    stored = None if view is None else hand_json(view, view.table_hand or expect)
    return said or "", stored, count + 1


def _stored_again(s: Session, league: reads.ServedLeague, ref: str, expect: int) -> dict:
    """The table's hand ``expect`` as the 200 of an entry sent twice gives it."""
    found = _conflict(s, league, ref, expect, "")
    assert found is not None and found[1] is not None
    stored = found[1]
    return entered_json(stored["table_hand"], stored["league_hand"], stored["deltas"])


#: Each SQLite server's queue of entries (first come, first stored), by its state.
_QUEUES: WeakKeyDictionary[Served, asyncio.Lock] = WeakKeyDictionary()


def _queue(state: Served) -> asyncio.Lock:
    """Where an entry waits its turn to be stored, in the order they came, one at a time in
    this process. SQLite has one writer: left to its busy timeout, writers retry after growing
    sleeps and the unlucky wait seconds. PostgreSQL orders a league's writers by its row lock:
    left to it, every waiting entry holds a connection of the pool while it waits, and the
    pages' reads wait for one; queued here, each worker has one entry at the lock at most."""
    queue = _QUEUES.get(state)
    if queue is None:
        queue = _QUEUES[state] = asyncio.Lock()
    return queue


async def enter(
    state: Served,
    league: reads.ServedLeague,
    target: EntryTarget,
    expect: int,
    fields: dict,
    again: bool,
) -> Answer:
    """Store an entry of the table's hand ``expect``: what it came to (the status and JSON of
    ``POST /api/tables/T/hands``). Raises only :class:`~.forms.RequestError`."""
    past = target.hands >= expect
    sqlite = state.engine.dialect.name == "sqlite"

    async def judged() -> Answer | None:
        return (await state.read(_judge_past, target.ref, expect, fields, again, target.writer))[1]

    try:
        if past and sqlite:  # judged on a snapshot, off the queue (no lock is taken)
            answer = await judged()
            if answer is not None:
                return answer
        async with _queue(state):
            if past and not sqlite:  # the store takes the league's row lock even to refuse
                answer = await judged()
                if answer is not None:
                    return answer
            found = await state.write(
                _store, league.name, target.ref, expect, fields, again, target.writer
            )
        return Answer(201, found)
    except AlreadyStored:
        _league, body = await state.read(_stored_again, target.ref, expect)
        return Answer(200, body)
    except EnteredElsewhere as exc:
        conflict = await _read_conflict(state, target, expect, str(exc))
        return _conflict_answer(conflict, str(exc))
    except SameAsPrevious as exc:
        return Answer(
            422,
            {
                "error": _(
                    "{reason} If the table played it twice alike, send it again saying so (again)."
                ).format(reason=exc),
                "field": None,
                "again": True,
            },
        )
    except EntryRefused as exc:
        conflict = await _read_conflict(state, target, expect, None)
        if conflict is not None:
            return _conflict_answer(conflict, str(exc))
        return Answer(422, {"error": str(exc), "field": exc.field})
    except MightyError as exc:  # the table changed under the entry (ended, seated again)
        return Answer(409, {"error": str(exc), "hand": None, "next_hand": None})


async def _read_conflict(state: Served, target: EntryTarget, expect: int, said):
    _league, found = await state.read(_conflict, target.ref, expect, said)
    return found


def _conflict_answer(conflict, said: str) -> Answer:
    if conflict is None:  # the table is at that hand again (a hand voided meanwhile? no: kept)
        return Answer(409, {"error": said, "hand": None, "next_hand": None})
    message, stored, next_hand = conflict
    return Answer(409, {"error": message, "hand": stored, "next_hand": next_hand})


# --- the interface -----------------------------------------------------------------------------


def _refused(exc: RequestError) -> JSONResponse:
    return JSONResponse({"error": exc.message}, status_code=exc.status, headers=exc.headers)


async def api_enter_hand(request: Request) -> JSONResponse:
    """``POST /api/tables/T/hands``."""
    state = served(request)
    try:
        if cross_site(request.headers, request.url.scheme):
            raise RequestError(403, _("refused: the request was sent from another site"))
        body = await entry_body.read_json(request)
        given = entry_body.code(body.get("code")) or request.cookies.get(
            code_cookie(request.path_params["table"])
        )
        league, target = await state.read(entry_target, request.path_params["table"])
        refused = table_code_refusal(state, request, target, given)  # type: ignore[arg-type]
        if refused is not None:
            raise refused
        expect = entry_body.table_hand(body.get("hand"))
        fields = entry_body.entry_fields(body)
        again = entry_body.again(body.get("again"))
    except RequestError as exc:
        return _refused(exc)
    answer = await enter(state, league, target, expect, fields, again)
    return JSONResponse(answer.body, status_code=answer.status)


def _check(
    s: Session, league: reads.ServedLeague, ref: str, name: str, value: Any, so_far: dict
) -> Any:
    target = entry_target(s, league, ref)
    if not target.playing:
        raise RequestError(409, _("{table} is no longer playing").format(table=target.title))
    hand = read_next_hand(s, league.name, target.session)
    return check_field(hand, name, value, so_far)


async def api_check_field(request: Request) -> JSONResponse:
    """``POST /api/tables/T/check`` ``{"field", "value", "fields"}``: one field as it is filled,
    given the fields filled so far: ``200`` ``{"field", "value"}`` (the value as checked: a
    name as the league knows it, the contract in notation, the count weighed), or ``422``
    ``{"error", "field"}`` with the line ``record`` says at its question. Reading only: no code
    needed."""
    state = served(request)
    try:
        body = await entry_body.read_json(request)
        unknown = set(body) - {"field", "value", "fields"}
        if unknown:
            raise RequestError(
                400,
                _("{key!r} is not a key of a field's check (field, value, fields)").format(
                    key=sorted(unknown)[0][:40]
                ),
            )
        name = entry_body.entry_key(str(body.get("field") or ""))
        if name not in entry_body.ENTRY_KEYS:
            raise RequestError(
                400, _("field: one of {keys}").format(keys=", ".join(entry_body.ENTRY_KEYS))
            )
        so_far = body.get("fields") or {}
        if not isinstance(so_far, dict):
            raise RequestError(400, _("fields: expected an object"))
        so_far = entry_body.entry_fields(
            {k: v for k, v in so_far.items() if entry_body.entry_key(str(k)) != name}
        )
        value = entry_body.entry_fields({name: body.get("value")}).get(name, "")
        _league, checked = await state.read(
            _check, request.path_params["table"], name, value, so_far
        )
    except RequestError as exc:
        return _refused(exc)
    except EntryRefused as exc:
        return JSONResponse({"error": str(exc), "field": exc.field or name}, status_code=422)
    return JSONResponse({"field": name, "value": checked})
