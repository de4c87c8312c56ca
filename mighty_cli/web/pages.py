"""Rendering ``mighty serve``'s pages and the shapes of its answers.

The pages are the bundled templates (``serve_*.html``) in the project's autoescaped environment
(:func:`mighty_cli.render.html.environment`: every name escaped, Korean and English through the
catalog), compiled once per language per process. An answer for a program (``/api/...``,
``/events``) is JSON; for a person, a page. A refusal is a 4xx with one line saying why, in the
league's language, as JSON ``{"error": ...}`` or as a page.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from starlette.responses import HTMLResponse, JSONResponse, Response

from ..engine.translation import N_, _, get_language
from ..render.html import environment, local_clock, local_time, render, time_zone

#: What a page says after a change it made (``?done=KEY`` on the page it returns to).
DONE = {
    "start": N_("Round started."),
    "reseat": N_("Round seated again."),
    "seat": N_("Seating changed from the table's next hand."),
    "end": N_("Round ended."),
    "clock": N_("Round clock started."),
    "clock-stop": N_("Round clock stopped."),
    "amend": N_("Hand corrected."),
    "void": N_("Hand voided."),
    "unvoid": N_("Hand restored."),
    "code": N_("Entry code accepted: this phone may write for the table tonight."),
    "entered": N_("Hand stored."),
    "entered-before": N_("This entry was stored already (sent twice): it is stored once."),
}


class Pages:
    """The bundled templates, an environment per language (made on first use)."""

    def __init__(self) -> None:
        self._environments: dict[str, Any] = {}

    def render(self, name: str, lang: str | None, zone_name: str | None, **context) -> str:
        language = lang or get_language()
        env = self._environments.get(language)
        if env is None:
            env = self._environments[language] = environment(None, language)
        zone = time_zone(zone_name)
        now = datetime.now(timezone.utc)
        return render(
            env,
            name,
            None,
            now=now,
            generated=local_time(now, zone),
            local=lambda moment: local_time(moment, zone),
            clock=lambda moment: local_clock(moment, zone),
            **context,
        )


def page(text: str, status: int = 200, headers: dict | None = None) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers=headers)


def for_a_program(request) -> bool:
    """Whether the request is a program's (the API, the live events): answered in JSON."""
    path = request.url.path
    return path.startswith("/api/") or path == "/events"


def refusal(request, status: int, message: str, headers: dict | None = None) -> Response:
    """A 4xx (or a 503) with one line saying why: JSON for a program, a page for a person."""
    if for_a_program(request):
        return JSONResponse({"error": message}, status_code=status, headers=headers)
    pages: Pages | None = getattr(getattr(request.app.state, "served", None), "pages", None)
    if pages is None:
        return Response(
            message + "\n",
            status_code=status,
            headers=headers,
            media_type="text/plain; charset=utf-8",
        )
    text = pages.render(
        "serve_message.html",
        None,
        None,
        status=status,
        message=message,
        title=_(TITLES.get(status, N_("Refused"))),
    )
    return page(text, status, headers)


#: A refusal page's title by its status.
TITLES = {
    400: N_("Not understood"),
    403: N_("Not allowed"),
    404: N_("Not found"),
    405: N_("Not allowed"),
    409: N_("Changed meanwhile"),
    413: N_("Too large"),
    415: N_("Not understood"),
    429: N_("Too many tries"),
    503: N_("Busy: try again"),
}
