"""The director's page (``/director``): every table with its entry code and a QR code opening
its page, every table's hands as they come, the change log, and the director's actions: start,
reseat, seat (someone leaves or arrives at one table) and end a round, with substitutes; start
and stop the round's clock; amend, void or restore any hand, with a reason; print the slips.

The director's address carries the key once (``/director?key=...``, printed by ``mighty serve``
with its QR code): a right key is kept by the browser (a cookie) and the address loses it. Every
action calls the store function its command calls, logged as made by ``director``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ..engine.errors import MightyError
from ..engine.names import pair_splits
from ..engine.translation import _
from ..render.html import render_round_board
from ..render.qr import qr_svg, table_link
from ..store.ledger.corrections import amend_hand, unvoid_hand, void_hand
from ..store.ledger.hand_reads import show_hand
from ..store.ledger.lookups import get_league
from ..store.ledger.table_hands import table_hand_number
from ..store.rounds.round_board import round_board
from ..store.rounds.round_clock import start_clock, stop_clock
from ..store.rounds.round_seat import seat_table
from ..store.rounds.round_tables import end_round, reseat_round, start_round
from ..table.new_names import refuse_new_names
from . import reads
from .amendments import NO_FRIEND, amendment
from .forms import RequestError, names, number, read_form, text
from .guard import DIRECTOR_COOKIE, client_of, codes_match, cross_site
from .pages import DONE, page
from .served import Served, served

#: Who the change log says made the director's changes.
DIRECTOR = "director"
#: How long a browser keeps the director's key (seconds): the night.
KEY_KEPT_SECONDS = 12 * 3600
REASON_MAX = 300


def director_refusal(state: Served, request: Request, given: str | None) -> RequestError | None:
    """Why a request may not act as the director (None: it may): too many wrong keys from
    this client lately, no key, or a wrong one (counted)."""
    client = client_of(request)
    wait = state.wrong.wait(client, DIRECTOR)
    if wait > 0:
        seconds = math.ceil(wait)
        return RequestError(
            429,
            _("too many wrong keys: try again in {seconds} s").format(seconds=seconds),
            {"retry-after": str(seconds)},
        )
    if not given:
        return RequestError(
            403,
            _(
                "the director's page opens with the address mighty serve "
                "printed when it started (its key is in it)"
            ),
        )
    if not codes_match(given, state.settings.director_key):
        state.wrong.failed(client, DIRECTOR)
        return RequestError(403, _("wrong director's key"))
    state.wrong.passed(client, DIRECTOR)
    return None


def base_url(state: Served, request: Request) -> str:
    """Where phones reach this server: the address it printed, else the one the director's
    browser used."""
    return state.settings.public_url or str(request.base_url).rstrip("/")


async def director_page(request: Request) -> Response:
    state = served(request)
    key = request.query_params.get("key")
    if key is not None:
        refused = director_refusal(state, request, key)
        if refused is not None:
            raise refused
        answer = RedirectResponse("/director", status_code=303)
        answer.set_cookie(
            DIRECTOR_COOKIE, key.strip(), max_age=KEY_KEPT_SECONDS, httponly=True, samesite="strict"
        )
        return answer
    refused = director_refusal(state, request, request.cookies.get(DIRECTOR_COOKIE))
    if refused is not None:
        raise refused
    return await _director_page(state, request)


async def _director_page(
    state: Served,
    request: Request,
    problem: RequestError | None = None,
    form: dict[str, str] | None = None,
) -> Response:
    league, view = await state.read(reads.director_view)
    base = base_url(state, request)
    links = {}
    tables = view.board.board.round.tables if view.board.board is not None else []
    for table in tables:
        if table.playing and table.code:
            link = table_link(base, table.table, table.code)
            links[str(table.table)] = (link, qr_svg(link))
    for lone in view.board.lone:
        if lone.code:
            link = table_link(base, lone.ref, lone.code)
            links[lone.ref] = (link, qr_svg(link))
    done = request.query_params.get("done")
    text_ = state.pages.render(
        "serve_director.html",
        league.lang,
        league.timezone,
        league=league,
        view=view,
        links=links,
        problem=problem.message if problem else None,
        notice=_(DONE[done]) if done in DONE else None,
        form=form or {},
        no_friend=NO_FRIEND,
        director=True,
    )
    return page(text_, problem.status if problem else 200, problem.headers if problem else None)


async def director_slips(request: Request) -> Response:
    """The round's board and score slips for the printer, each slip with its table's code
    and the QR code opening its page."""
    state = served(request)
    refused = director_refusal(state, request, request.cookies.get(DIRECTOR_COOKIE))
    if refused is not None:
        raise refused
    base = base_url(state, request)

    def slips(s, league):
        return render_round_board(
            round_board(s, league.name),
            lang=league.lang,
            timezone_name=league.timezone,
            serve_url=base,
        )

    league, text_ = await state.read(slips)
    return page(text_)


async def director_action(request: Request) -> Response:
    state = served(request)
    action = request.path_params["action"]
    if action not in ACTIONS:
        raise RequestError(404, _("no such page"))
    if cross_site(request.headers, request.url.scheme):
        raise RequestError(403, _("refused: the form was sent from another site"))
    refused = director_refusal(state, request, request.cookies.get(DIRECTOR_COOKIE))
    if refused is not None:
        raise refused
    fields = await read_form(request)
    league = state.settings.league
    try:
        await state.write(ACTIONS[action], league, fields)
    except RequestError as exc:
        return await _director_page(state, request, exc, fields)
    except MightyError as exc:
        return await _director_page(state, request, RequestError(400, str(exc)), fields)
    return RedirectResponse(f"/director?done={action}", status_code=303)


def _pairs(fields: dict[str, str]) -> list[tuple[str, str]]:
    """The substitutes field: a line (or comma-separated part) ``S/X`` each."""
    pairs = []
    for given in names(fields, "substitutes", _("substitutes")):
        splits = pair_splits(given)
        if len(splits) != 1:
            raise RequestError(
                400, _("substitutes: {text}: expected two names as S/X").format(text=given[:60])
            )
        pairs.append(splits[0])
    return pairs


def _start(s, league: str, fields: dict[str, str]) -> None:
    players = names(fields, "players", _("players"))
    if not players:
        raise RequestError(400, _("{field}: required").format(field=_("players")))
    refuse_new_names(s, players)
    start_round(
        s,
        league,
        players,
        seed=number(fields, "seed", _("seed")) or 0,
        substitutes=_pairs(fields),
        credit=bool(fields.get("credit")),
        who=DIRECTOR,
    )


def _reseat(s, league: str, fields: dict[str, str]) -> None:
    players = names(fields, "players", _("players")) or None
    refuse_new_names(s, players or ())
    reseat_round(s, league, players, seed=number(fields, "seed", _("seed")) or 0, who=DIRECTOR)


def _seat(s, league: str, fields: dict[str, str]) -> None:
    table = number(fields, "table", _("table"), low=1, required=True)
    leave, join = names(fields, "leave", _("leaves")), names(fields, "join", _("joins"))
    if not leave and not join:
        raise RequestError(400, _("say who leaves or who joins"))
    refuse_new_names(s, join)
    seat_table(s, league, table, leave=leave, join=join, who=DIRECTOR)  # type: ignore[arg-type]


def _end(s, league: str, fields: dict[str, str]) -> None:
    end_round(s, league, force=bool(fields.get("force")), who=DIRECTOR)


def _clock(s, league: str, fields: dict[str, str]) -> None:
    start_clock(
        s,
        league,
        number(
            fields,
            "minutes",
            _("minutes"),
            low=1,
            high=600,  # type: ignore
            required=True,
        ),
        who=DIRECTOR,
    )


def _clock_stop(s, league: str, fields: dict[str, str]) -> None:
    stop_clock(s, league, who=DIRECTOR)


def _hand_number(s, league: str, fields: dict[str, str]) -> int:
    """The hand a correction names: the league's number, or with a table the table's own."""
    hand = number(fields, "hand", _("hand"), low=1, required=True)
    table = number(fields, "table", _("table"), low=1)
    if table is None:
        return hand  # type: ignore[return-value]
    return table_hand_number(s, get_league(s, league), table, hand)  # type: ignore[arg-type]


def _reason(fields: dict[str, str]) -> str:
    return text(fields, "reason", _("reason"), required=True, longest=REASON_MAX)  # type: ignore


def _amend(s, league: str, fields: dict[str, str]) -> None:
    number_ = _hand_number(s, league, fields)
    changes = amendment(fields, show_hand(s, league, number_))
    amend_hand(s, league, number_, who=DIRECTOR, why=_reason(fields), **changes)


def _void(s, league: str, fields: dict[str, str]) -> None:
    void_hand(s, league, _hand_number(s, league, fields), who=DIRECTOR, why=_reason(fields))


def _unvoid(s, league: str, fields: dict[str, str]) -> None:
    unvoid_hand(s, league, _hand_number(s, league, fields), who=DIRECTOR, why=_reason(fields))


#: The director's actions by their address (``POST /director/ACTION``).
ACTIONS: dict[str, Callable] = {
    "start": _start,
    "reseat": _reseat,
    "seat": _seat,
    "end": _end,
    "clock": _clock,
    "clock-stop": _clock_stop,
    "amend": _amend,
    "void": _void,
    "unvoid": _unvoid,
}
