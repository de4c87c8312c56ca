"""The table page's form entering its next hand (``POST /tables/T/hands``): a plain HTML form
that works without script, stored as ``POST /api/tables/T/hands`` stores it
(:func:`.entry_api.enter`: the same rules, the same answers).

The form carries the table's hand it enters (``hand``); the fields are ``record``'s (declarer,
contract, friend and ``friend2``, taken, ``friend_call``, ``eliminated`` and
``eliminated2``..., ``deal_miss``, ``again``). Stored (or found stored already: a phone that
sent it twice), the page comes back saying so; refused, the table's page is shown again with
the line saying why and the form as it was typed; when that hand holds another entry, the
stored hand is shown beside it, what was typed kept: sent again as it is, it is refused
again; its own button stores it as the table's next hand, when it was another hand. The page's script (``web/static/entry.js``) checks each field as it is filled and keeps
what was typed on the phone when the network drops.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ..engine.translation import _
from . import entry_body
from .entry_api import enter, entry_target
from .entry_form import table_and_entry
from .forms import RequestError, number, read_form
from .guard import cross_site
from .served import served
from .table_views import given_code, rendered_table, table_code_refusal

#: The form's fields besides the entry's: the code, the table's hand, ``again``.
FORM_ONLY = ("code", "hand", "next", "again", "friend2")


def form_fields(fields: dict[str, str]) -> dict:
    """The entry the form gives, as :func:`.entry_body.entry_fields` reads a JSON body: the
    friends and the eliminated gathered from their fields."""
    body: dict = {}
    friends = [fields.get("friend", ""), fields.get("friend2", "")]
    eliminated = []
    for name, value in fields.items():
        if name in FORM_ONLY or name == "friend":
            continue
        if name.startswith("eliminated"):
            eliminated.append(value)
        elif name in entry_body.ENTRY_KEYS:
            body[name] = value
        else:
            raise RequestError(
                400,
                _("the form gives {field}, which is no field of an entry").format(field=name[:40]),
            )
    body["friend"] = [friend for friend in friends if friend.strip()]
    body["eliminated"] = [name for name in eliminated if name.strip()]
    if body.get("deal_miss", "").strip():  # a deal miss is the entry whole
        body = {"deal_miss": body["deal_miss"]}
    return entry_body.entry_fields(body)


async def table_enter(request: Request) -> Response:
    """``POST /tables/T/hands``: the form's entry of the table's next hand."""
    state = served(request)
    if cross_site(request.headers, request.url.scheme):
        raise RequestError(403, _("refused: the form was sent from another site"))
    fields = await read_form(request)
    ref = request.path_params["table"]
    league, target = await state.read(entry_target, ref)
    refused = table_code_refusal(
        state,
        request,
        target,  # type: ignore[arg-type]
        given_code(request, fields, ref),
    )
    again_asked = False
    conflict = None
    if refused is None:
        try:
            expect = number(fields, "next", _("hand"), low=1, high=entry_body.HAND_MAX) or number(
                fields, "hand", _("hand"), low=1, high=entry_body.HAND_MAX, required=True
            )
            entry = form_fields(fields)
            answer = await enter(
                state,
                league,
                target,
                expect,
                entry,  # type: ignore[arg-type]
                fields.get("again") == "yes",
            )
        except RequestError as exc:
            refused = exc
        else:
            if answer.status in (200, 201):
                done = "entered" if answer.status == 201 else "entered-before"
                return RedirectResponse(f"/tables/{ref}?done={done}#hands", status_code=303)
            refused = RequestError(answer.status, answer.body["error"])
            again_asked = bool(answer.body.get("again"))
            conflict = (answer.body.get("hand") or {}).get("table_hand")
    league, (view, form) = await state.read(table_and_entry, ref)
    kept = {key: value for key, value in fields.items() if key not in ("code", "again", "next")}
    return rendered_table(
        state,
        request,
        league,
        view,
        refused,
        None,
        entry=form,
        entry_values=kept,
        again_asked=again_asked,
        conflict=conflict,
    )
