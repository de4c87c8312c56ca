"""A table's page (``/tables/T``): its players, the next hand's dealer, its hands with each
player's running total, and the table's correction of its last hand (or its void), which needs
the table's entry code; the change log says ``table T`` made it.

The slip's QR code opens ``/tables/T?code=...``: a right code is kept by the phone (a cookie
for that table) and the address loses it; a wrong one is refused, and wrong ones are slowed
down (:mod:`.guard`). How a writer proves the table's code is :func:`table_code_refusal`, for
every form a table sends (phase two's entry of a hand too).
"""

from __future__ import annotations

import math

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ..engine.errors import MightyError
from ..engine.translation import _
from ..store.ledger.corrections import amend_hand, void_hand
from ..store.ledger.table_entry import HandAlreadyEntered, HandGone
from . import reads
from .amendments import NO_FRIEND, amendment
from .entry_form import table_and_entry
from .forms import RequestError, number, read_form, text
from .guard import CODE_COOKIE, client_of, codes_match, cross_site
from .pages import DONE, page
from .served import Served, served

#: How long a phone keeps a table's code (seconds): the night.
CODE_KEPT_SECONDS = 12 * 3600
#: The longest reason a correction may give (characters).
REASON_MAX = 300


def writer_name(table: int | None, session: int) -> str:
    """Who the change log says made a table's change (an entry, a correction, a hand refereed
    on its tablet): ``table 2``, or ``session 5`` for a session of its own. A name kept as data,
    like a keeper's login, in every language."""
    return f"table {table}" if table is not None else f"session {session}"


def code_cookie(ref: str) -> str:
    return CODE_COOKIE.format(table=ref)


def table_code_refusal(
    state: Served, request: Request, view: reads.TableView, given: str | None
) -> RequestError | None:
    """Why a writer may not write for the table (None: he may): the table no longer playing,
    too many wrong codes from this client lately (429, and how long to wait), no code given,
    or a wrong one (counted)."""
    client, target = client_of(request), f"table {view.ref}"
    wait = state.wrong.wait(client, target)
    if wait > 0:
        seconds = math.ceil(wait)
        return RequestError(
            429,
            _("too many wrong codes for this table: try again in {seconds} s").format(
                seconds=seconds
            ),
            {"retry-after": str(seconds)},
        )
    if not view.playing:
        return RequestError(
            403,
            _("{table} is no longer playing: the director corrects its hands").format(
                table=view.title
            ),
        )
    if not view.code:
        return RequestError(
            403, _("{table} has no entry code: the director writes for it").format(table=view.title)
        )
    if not given:
        return RequestError(
            403,
            _("{table}: its entry code is needed (on its slip, or from the director)").format(
                table=view.title
            ),
        )
    if not codes_match(given, view.code):
        state.wrong.failed(client, target)
        return RequestError(403, _("wrong entry code for {table}").format(table=view.title))
    state.wrong.passed(client, target)
    return None


def given_code(request: Request, fields: dict[str, str], ref: str) -> str | None:
    """The code a writer gives: the form's field, else the one the phone keeps."""
    return (fields.get("code") or "").strip() or request.cookies.get(code_cookie(ref))


async def table_page(request: Request) -> Response:
    state = served(request)
    ref = request.path_params["table"]
    league, (view, entry) = await state.read(table_and_entry, ref)
    given = request.query_params.get("code")
    if given is not None:
        refused = table_code_refusal(state, request, view, given.strip())
        if refused is None:
            answer = RedirectResponse(f"/tables/{ref}?done=code", status_code=303)
            answer.set_cookie(
                code_cookie(ref),
                given.strip(),
                max_age=CODE_KEPT_SECONDS,
                httponly=True,
                samesite="strict",
            )
            return answer
        return _table_page(state, request, league, view, refused, entry=entry)
    return _table_page(state, request, league, view, entry=entry)


def _table_page(
    state: Served,
    request: Request,
    league,
    view: reads.TableView,
    refused: RequestError | None = None,
    form: dict[str, str] | None = None,
    **extra,
) -> Response:
    """The table's page (``extra``: what the entry of its next hand shows, :mod:`.entry_views`;
    without it, no entry form)."""
    done = request.query_params.get("done")
    has_code = codes_match(request.cookies.get(code_cookie(view.ref)), view.code)
    text_ = state.pages.render(
        "serve_table.html",
        league.lang,
        league.timezone,
        league=league,
        view=view,
        problem=refused.message if refused else None,
        notice=_(DONE[done]) if done in DONE else None,
        has_code=has_code,
        form=form or {},
        no_friend=NO_FRIEND,
        director=state.is_director(request),
        **extra,
    )
    return page(text_, refused.status if refused else 200, refused.headers if refused else None)


#: The table's page, for the entry's views (:mod:`.entry_views`).
rendered_table = _table_page


async def _checked(request: Request):
    """A table's form, read and checked: the state, the league, the table, the fields (a
    refusal raised as :class:`RequestError`, or rendered on the table's page)."""
    state = served(request)
    if cross_site(request.headers, request.url.scheme):
        raise RequestError(403, _("refused: the form was sent from another site"))
    fields = await read_form(request)
    league, view = await state.read(reads.table_view, request.path_params["table"])
    return state, league, view, fields


async def table_correct(request: Request) -> Response:
    """The table corrects its last hand: the form names the table's hand it shows as the last
    (another hand stored meanwhile is refused), what changes, and why."""
    state, league, view, fields = await _checked(request)
    refused = table_code_refusal(state, request, view, given_code(request, fields, view.ref))
    if refused is not None:
        return _table_page(state, request, league, view, refused, fields)
    try:
        last = _last_hand(view, fields)
        changes = amendment(fields, last)
        why = text(fields, "reason", _("reason"), required=True, longest=REASON_MAX)
        await state.write(
            amend_hand,
            league.name,
            last.number,
            who=writer_name(view.table, view.session),
            why=why,
            **changes,
        )
    except RequestError as exc:
        return _table_page(state, request, league, view, exc, fields)
    except (HandGone, HandAlreadyEntered) as exc:
        return _table_page(state, request, league, view, RequestError(409, str(exc)), fields)
    except MightyError as exc:
        return _table_page(state, request, league, view, RequestError(400, str(exc)), fields)
    return RedirectResponse(f"/tables/{view.ref}?done=amend", status_code=303)


async def table_void(request: Request) -> Response:
    """The table voids its last hand (entered twice, never played), saying why."""
    state, league, view, fields = await _checked(request)
    refused = table_code_refusal(state, request, view, given_code(request, fields, view.ref))
    if refused is not None:
        return _table_page(state, request, league, view, refused, fields)
    try:
        last = _last_hand(view, fields)
        why = text(fields, "reason", _("reason"), required=True, longest=REASON_MAX)
        await state.write(
            void_hand, league.name, last.number, who=writer_name(view.table, view.session), why=why
        )
    except RequestError as exc:
        return _table_page(state, request, league, view, exc, fields)
    except MightyError as exc:
        return _table_page(state, request, league, view, RequestError(400, str(exc)), fields)
    return RedirectResponse(f"/tables/{view.ref}?done=void", status_code=303)


def _last_hand(view: reads.TableView, fields: dict[str, str]):
    """The table's last hand, which the form names by the table's number for it: a form
    showing an earlier hand as the last (one stored since) is refused."""
    said = number(fields, "hand", _("hand"), low=1, high=10**6, required=True)
    last = view.last
    if last is None:
        raise RequestError(409, _("{table} has no hand to correct").format(table=view.title))
    local = view.hands[-1].local
    if said != local:
        raise RequestError(
            409,
            _(
                "{table}'s last hand is now its hand {local}, not {said}: "
                "look again before correcting it"
            ).format(table=view.title, local=local, said=said),
        )
    return last
