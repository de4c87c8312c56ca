"""The tablet referee (``/tables/T/referee``): the league's referee on the table's page, every
call and card checked as it is tapped, on the terminal referee's own evening
(:mod:`.referee_desk`: each tap is the line ``mighty referee`` would read).

* ``GET /tables/T/referee``: the next prompt (the election, the exchange, the friend, the
  card picker), or who holds the table and the offer to take it over, or the start (the
  table's code, the referee's name, a seed when the session keeps none).
* ``POST /tables/T/referee/start``: start refereeing the table here (or take it over, after
  confirming): the table's code is checked, the tablet gets its token (a cookie for the
  table), the hand in progress is taken up at the same card.
* ``POST /tables/T/referee``: one entry (a button's line, the bid's number and suit, the
  discards, the text box's short forms); the page it answers is the next prompt. A refused
  entry is answered 422 with the terminal's reason, a page behind the table 409, a table
  held elsewhere 409 with who holds it.
"""

from __future__ import annotations

import threading
from urllib.parse import quote, unquote

from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ..engine.errors import MightyError
from ..engine.translation import _, ngettext, set_language
from ..render.html import local_clock, time_zone
from ..store.db import reading
from ..store.ledger.table_entry import new_token
from ..table import view
from ..table.table_errors import HandTakenAway
from . import referee_picker
from .forms import RequestError, number, read_form, text
from .guard import client_of, codes_match, cross_site
from .pages import page
from .referee_desk import Desk, Desks, TableFacts, league_and_table, open_desk
from .served import Served, served
from .table_views import CODE_KEPT_SECONDS, code_cookie, table_code_refusal, writer_name

#: How a tablet's token for a table is named (``mighty_referee_2``), and its referee's name.
TOKEN_COOKIE = "mighty_referee_{table}"
WHO_COOKIE = "mighty_referee_who"
#: The longest line the text box takes, and the longest name a referee gives.
LINE_MAX = 200
WHO_MAX = 40


def token_cookie(ref: str) -> str:
    return TOKEN_COOKIE.format(table=ref)


_DESKS_MADE = threading.Lock()


def desks(state: Served) -> Desks:
    """The server's tablets (made on first use: the application knows nothing of them)."""
    found = getattr(state, "referee_desks", None)
    if found is None:
        with _DESKS_MADE:
            found = getattr(state, "referee_desks", None)
            if found is None:
                found = state.referee_desks = Desks()  # type: ignore[attr-defined]
    return found


async def _facts(state: Served, ref: str):
    """The league and the table, read in one read-only transaction (in a thread)."""

    def work():
        with reading(state.engine) as s:
            league, facts = league_and_table(s, state.settings.league, ref)
        set_language(league.lang or state.settings.lang)
        return league, facts

    return await run_in_threadpool(work)


def _code_refusal(
    state: Served, request: Request, facts: TableFacts, given: str | None
) -> RequestError | None:
    return table_code_refusal(state, request, facts, given)  # type: ignore[arg-type]


def _has_code(request: Request, facts: TableFacts) -> bool:
    return codes_match(request.cookies.get(code_cookie(facts.ref)), facts.code)


def _holder(state: Served, facts: TableFacts, token: str | None) -> str | None:
    """Who else holds the table (None: nobody but this tablet): the name a tablet's referee
    gave, or "another window" (the terminal, another worker of the server)."""
    other = desks(state).holder(facts.ref)
    if facts.owner is not None and facts.owner != token:
        name = desks(state).named(facts.owner)
        return name or _("another window (the terminal referee, or another server)")
    if other is not None and other.token != token and other.matches(facts):
        return other.who
    return None


def _clock(league, moment) -> str:
    return local_clock(moment, time_zone(league.timezone))


def _render(
    state: Served,
    request: Request,
    league,
    facts: TableFacts,
    *,
    desk: Desk | None = None,
    holder: str | None = None,
    problem: str | None = None,
    status: int = 200,
    form: dict | None = None,
    poke: bool = False,
) -> Response:
    context = {
        "facts": facts,
        "holder": holder,
        "has_code": _has_code(request, facts),
        "director": state.is_director(request),
        "desk": None,
        "form": form or {},
        "who": kept_name(request) or "",
        "held_since": _clock(league, facts.held_since) if facts.held_since else "",
    }
    if desk is not None:
        context.update(_desk_context(desk))
    text_ = state.pages.render(
        "serve_referee.html",
        league.lang,
        league.timezone,
        league=league,
        problem=problem,
        **context,
    )
    answer = page(text_, status)
    if poke:  # a hand stored: the live pages are told once the tablet has its answer (the
        # watcher's own poll sees an entry within the half second anyway)
        answer.background = BackgroundTask(state.watcher.poke)
    return answer


def _desk_context(desk: Desk) -> dict:
    evening = desk.evening
    hand = evening.hand
    context = {
        "desk": desk,
        "at": desk.at(),
        "said": desk.said,
        "prompt": evening.prompt(),
        "pending_store": evening.pending_store,
        "done": evening.done,
        "state": None,
        "status": [],
        "contract": None,
        "glance": [],
        "picker": None,
        "tricks": [],
        "on_table": [],
        "started": False,
        "number": evening.hands_before + len(evening.finished) + 1,
        "trick_number": None,
        "undo_tricks": [],
    }
    if hand is None or evening.pending_store:
        return context
    state = hand.state
    context.update(
        {
            "state": state,
            "status": hand.status()[1:],
            "contract": view.pretty_bid(state.contract) if state.contract is not None else None,
            "glance": evening.glance(),
            "picker": referee_picker.picker(state) if not hand.over else None,
            "tricks": [
                (
                    ngettext(
                        "trick {number} to {winner} ({points} point card)",
                        "trick {number} to {winner} ({points} point cards)",
                        trick.points,
                    ).format(number=number, winner=trick.winner, points=trick.points),
                    ", ".join(f"{p} {view.pretty_play(play)}" for p, play in trick.plays),
                )
                for number, trick in enumerate(state.tricks, 1)
            ],
            "on_table": [(p, view.pretty_play(play)) for p, play in state.current_trick]
            if state.phase == "play"
            else [],
            "started": hand.started,
            "number": evening.hands_before + len(evening.finished) + 1,
            "trick_number": state.trick_number if state.phase == "play" else None,
            "undo_tricks": list(range(1, state.trick_number + 1))
            if state.phase == "play" and state.trick_number > 1
            else [],
        }
    )
    return context


# --- the views ---------------------------------------------------------------------------------


async def referee_page(request: Request) -> Response:
    state = served(request)
    ref = request.path_params["table"]
    league, facts = await _facts(state, ref)
    if not facts.playing:
        return _render(
            state,
            request,
            league,
            facts,
            status=409,
            problem=_("{table} is no longer playing").format(table=facts.title),
        )
    token = request.cookies.get(token_cookie(ref))
    desk = desks(state).get(token)
    if desk is not None and desk.ref == ref and desk.matches(facts):
        return _render(state, request, league, facts, desk=desk)
    holder = _holder(state, facts, token)
    if holder is not None or token is None or not _has_code(request, facts):
        return _render(state, request, league, facts, holder=holder)
    gone = await _gone(state, desk if desk is not None and desk.ref == ref else None, facts)
    desk, _lines = await _open(state, league, facts, token, _who(request))
    return _render(state, request, league, facts, desk=desk, problem=gone)


async def referee_start(request: Request) -> Response:
    """Start refereeing the table on this tablet (or take it over, confirmed)."""
    state, league, facts, fields = await _checked(request)
    given = (fields.get("code") or "").strip() or request.cookies.get(code_cookie(facts.ref))
    refused = _code_refusal(state, request, facts, given)
    if refused is not None:
        return _render(
            state,
            request,
            league,
            facts,
            problem=refused.message,
            status=refused.status,
            form=fields,
        )
    try:
        who = text(fields, "who", _("your name"), longest=WHO_MAX)
        seed = number(fields, "seed", _("seed"), low=0, high=2**63 - 1)
    except RequestError as exc:
        return _render(
            state, request, league, facts, problem=exc.message, status=exc.status, form=fields
        )
    token = request.cookies.get(token_cookie(facts.ref)) or new_token()
    holder = _holder(state, facts, token)
    if holder is not None and fields.get("take") != "1":
        return _render(
            state,
            request,
            league,
            facts,
            holder=holder,
            status=409,
            problem=_("{who} holds this table's hand: confirm to take it over").format(who=holder),
            form=fields,
        )
    try:
        await _open(state, league, facts, token, who, seed)
    except RequestError as exc:
        return _render(
            state, request, league, facts, problem=exc.message, status=exc.status, form=fields
        )
    answer = RedirectResponse(f"/tables/{facts.ref}/referee", status_code=303)
    answer.set_cookie(
        token_cookie(facts.ref), token, max_age=CODE_KEPT_SECONDS, httponly=True, samesite="strict"
    )
    answer.set_cookie(
        code_cookie(facts.ref),
        given.strip(),
        max_age=CODE_KEPT_SECONDS,
        httponly=True,
        samesite="strict",
    )
    if who:
        answer.set_cookie(
            WHO_COOKIE, quote(who), max_age=CODE_KEPT_SECONDS, httponly=True, samesite="strict"
        )
    answer.background = BackgroundTask(state.watcher.poke)
    return answer


async def referee_entry(request: Request) -> Response:
    """One entry: the line it makes is the terminal referee's; the answer the next prompt.

    The usual tap (this server's tablet, its page up to date, the table's code kept) is read
    and entered in one trip to a thread: on a busy machine every trip waits its turn."""
    state = served(request)
    if cross_site(request.headers, request.url.scheme):
        raise RequestError(403, _("refused: the form was sent from another site"))
    fields = await read_form(request)
    ref = request.path_params["table"]
    token = request.cookies.get(token_cookie(ref))
    given = request.cookies.get(code_cookie(ref))
    desk = desks(state).get(token)
    client, target = client_of(request), f"table {ref}"
    line = None
    if desk is not None and desk.ref == ref and given and not state.wrong.wait(client, target):
        try:
            line = entry_line(fields, desk)
        except RequestError:
            line = None  # refused on the way that says why

    def work():
        with reading(state.engine) as s:
            league, facts = league_and_table(s, state.settings.league, ref)
        set_language(league.lang or state.settings.lang)
        if (
            line is None
            or not facts.playing
            or not codes_match(given, facts.code)
            or not desk.matches(facts)
        ):  # type: ignore[union-attr]
            return league, facts, None
        with desk.lock:  # type: ignore[union-attr]
            return league, facts, desk.enter(line, fields.get("at", ""))  # type: ignore

    league, facts, result = await run_in_threadpool(work)
    if result is not None:
        state.wrong.passed(client, target)
        return await _answer(
            state,
            request,
            league,
            facts,
            desk,
            token,  # type: ignore
            *result,
        )
    if not facts.playing:
        raise RequestError(409, _("{table} is no longer playing").format(table=facts.title))
    return await _tap(state, request, league, facts, fields, desk, token)


async def _tap(
    state: Served,
    request: Request,
    league,
    facts: TableFacts,
    fields: dict,
    desk: Desk | None,
    token: str | None,
) -> Response:
    """A tap off the usual way: the code checked (and counted), the tablet's desk opened
    again or refused, then the entry."""
    refused = _code_refusal(state, request, facts, request.cookies.get(code_cookie(facts.ref)))
    if refused is not None:
        return _render(
            state, request, league, facts, problem=refused.message, status=refused.status
        )
    if token is None:
        return _render(
            state,
            request,
            league,
            facts,
            status=409,
            problem=_("this tablet does not referee the table yet: start here first"),
        )
    if desk is None or desk.ref != facts.ref or not desk.matches(facts):
        holder = _holder(state, facts, token)
        if holder is not None:
            if desk is not None:
                desks(state).drop(desk)
            return _render(
                state,
                request,
                league,
                facts,
                holder=holder,
                status=409,
                problem=_("{who} took this table's hand over: nothing was entered here").format(
                    who=holder
                ),
            )
        gone = await _gone(state, desk, facts)
        desk, _lines = await _open(state, league, facts, token, _who(request))
        if gone:
            return _render(state, request, league, facts, desk=desk, status=409, problem=gone)
    try:
        line = entry_line(fields, desk)
    except RequestError as exc:
        return _render(
            state, request, league, facts, desk=desk, problem=exc.message, status=exc.status
        )
    entered, said = await _enter(state, league, desk, line, fields.get("at", ""))
    return await _answer(state, request, league, facts, desk, token, entered, said)


async def _answer(
    state: Served,
    request: Request,
    league,
    facts: TableFacts,
    desk: Desk,
    token: str | None,
    entered: bool,
    said: list[str],
) -> Response:
    """The page an entry answers: the next prompt, or why nothing was entered."""
    if desk.evening.taken_away:  # the store refused the entry: another window holds it
        desks(state).drop(desk)
        league, facts = await _facts(state, facts.ref)
        return _render(
            state,
            request,
            league,
            facts,
            holder=_holder(state, facts, token),
            status=409,
            problem=" ".join(said),
        )
    if not entered and said and said[0].startswith("✗"):  # refused before the referee
        return _render(state, request, league, facts, desk=desk, status=422, problem=said[0])
    if not entered:
        return _render(
            state, request, league, facts, desk=desk, status=409, problem=said[0] if said else None
        )
    stored = desk.book.claim is not None and desk.book.claim.hands != facts.hands
    return _render(
        state,
        request,
        league,
        facts,
        desk=desk,
        poke=stored,
        status=422 if said and said[0].startswith("✗") else 200,
    )


# --- the work ---------------------------------------------------------------------------------


async def _checked(request: Request):
    state = served(request)
    if cross_site(request.headers, request.url.scheme):
        raise RequestError(403, _("refused: the form was sent from another site"))
    fields = await read_form(request)
    league, facts = await _facts(state, request.path_params["table"])
    if not facts.playing:
        raise RequestError(409, _("{table} is no longer playing").format(table=facts.title))
    return state, league, facts, fields


def _writer(facts: TableFacts, name: str | None) -> str:
    """Who the change log says stored a hand refereed on a tablet: ``table 2 (Mina)``, the
    table as its page's corrections say it, with the name its referee gave."""
    table = writer_name(facts.table, facts.session)
    return f"{table} ({name})" if name else table


def _who(request: Request) -> str | None:
    return kept_name(request)


def kept_name(request: Request) -> str | None:
    """The referee's name the tablet keeps (a cookie holds it percent-encoded: 민지 too)."""
    kept = request.cookies.get(WHO_COOKIE)
    if not kept:
        return None
    try:
        return text({"who": unquote(kept, errors="strict")}, "who", "who", longest=WHO_MAX)
    except (UnicodeDecodeError, RequestError):
        return None


async def _open(
    state: Served, league, facts: TableFacts, token: str, who: str | None, seed: int | None = None
):
    """Open the tablet's desk on the table: ``who`` is the name its referee gave (None:
    the table's, ``table 2``)."""

    def work():
        set_language(league.lang or state.settings.lang)
        try:
            return open_desk(
                state.engine,
                league.name,
                facts,
                token,
                who or _writer(facts, None),
                seed,
                writer=_writer(facts, who),
            )
        except MightyError as exc:
            raise RequestError(409, str(exc)) from None

    desk, lines = await run_in_threadpool(work)
    desks(state).put(desk)
    return desk, lines


async def _gone(state: Served, desk: Desk | None, facts: TableFacts) -> str | None:
    """Why a tablet's desk no longer holds the table's hand (a hand stored elsewhere), in the
    terminal's words; None when it is only out of date (reopened at the same card)."""
    if desk is None or desk.book.claim is None or facts.hands == desk.book.claim.hands:
        return None

    def work():
        try:
            desk.book.check()
        except HandTakenAway as exc:
            return str(exc)
        return None

    desks(state).drop(desk)
    return await run_in_threadpool(work)


async def _enter(state: Served, league, desk: Desk, line: str, at: str):
    def work():
        set_language(league.lang or state.settings.lang)
        with desk.lock:
            return desk.enter(line, at)

    return await run_in_threadpool(work)


def entry_line(fields: dict[str, str], desk: Desk) -> str:
    """The line an entry's form makes, as the terminal referee reads it: the text box's, a
    button's, a bid's number and suit (naming the bidder when it is not the player to move),
    a deal miss's player, the discards chosen, a card called with who held it."""
    typed = text(fields, "text", _("entry"), longest=LINE_MAX)
    if typed:
        return typed
    line = text(fields, "line", _("entry"), longest=LINE_MAX) or ""
    suit = (fields.get("suit") or "").strip().lower()
    if suit:
        bid = number(fields, "number", _("bid"), low=1, high=99, required=True)
        said = f"{bid}{suit}"
        bidder = (fields.get("bidder") or "").strip()
        hand = desk.evening.hand
        if bidder and hand is not None and bidder != hand.state.to_move:
            said = f"{bidder} {said}"
        return said
    if line == "miss":
        who = text(fields, "player", _("player"), required=True, longest=WHO_MAX)
        return f"miss {who}"
    if line == "player":
        who = text(fields, "player", _("player"), required=True, longest=WHO_MAX)
        return f"player:{who}"
    if line == "discard":
        cards = [
            name[2:].split("~")[0]
            for name, value in fields.items()
            if name.startswith("d_") and value
        ]
        if not cards:
            raise RequestError(400, _("choose the cards discarded"))
        return " ".join(cards)
    if line == "call2":  # two cards called at once (friend.called_cards = 2)
        cards = [name[2:] for name, value in fields.items() if name.startswith("c_") and value]
        if not cards:
            raise RequestError(400, _("choose the cards called"))
        return "+".join(cards)
    if line.startswith("card:"):  # a card called in 6마/7마 with open cards: who held it
        holder = text(fields, "holder", _("player"), required=True, longest=WHO_MAX)
        return f"{line[5:]} {holder}"
    if not line:
        raise RequestError(400, _("nothing entered: tap a choice, or type in the box"))
    return line


__all__ = ["referee_page", "referee_start", "referee_entry", "entry_line", "TOKEN_COOKIE"]
