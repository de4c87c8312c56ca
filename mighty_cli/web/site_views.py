"""The league's site under ``/site/`` (:mod:`.site_cache`) and the server's own static files
(``web/static/``, served by name from a fixed list: nothing else on the disk is reachable)."""

from __future__ import annotations

from importlib import resources

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ..engine.translation import _
from .pages import refusal
from .served import served

#: The static files, by name, with their types.
STATIC = {
    "serve.css": "text/css; charset=utf-8",
    "serve.js": "text/javascript; charset=utf-8",
    "referee.css": "text/css; charset=utf-8",
    "referee.js": "text/javascript; charset=utf-8",
    "entry.js": "text/javascript; charset=utf-8",
    "entry.css": "text/css; charset=utf-8",
}
_FILES: dict[str, bytes] = {}


async def site_index(request: Request) -> Response:
    return RedirectResponse("/site/", status_code=308)


async def site_page(request: Request) -> Response:
    state = served(request)
    league, _nothing = await state.read()
    path = request.path_params["path"]
    body = await run_in_threadpool(
        state.site.page,
        state.engine,
        league.name,
        league.marker,
        league.lang,
        league.timezone,
        path,
    )
    if body is None:
        return refusal(
            request, 404, _("the league's site has no page {path!r}").format(path=path[:80])
        )
    return Response(body, media_type="text/html; charset=utf-8")


async def static_file(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC:
        return refusal(request, 404, _("no such page"))
    if name not in _FILES:
        _FILES[name] = resources.files(__package__).joinpath("static", name).read_bytes()
    return Response(_FILES[name], media_type=STATIC[name], headers={"cache-control": "max-age=300"})
