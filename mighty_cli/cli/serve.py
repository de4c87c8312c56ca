"""``mighty serve``: the league served to the players' phones for the night (``mighty_cli/web``).

The command checks the league, listens, and says where: its first line on standard output is
the server's address (``--port 0`` takes a free port and says which), then the director's
address with its key and a QR code of it, printed once. It then serves until Ctrl-C or SIGTERM,
which stop it cleanly (the requests under way finish; exit status 0).
"""

from __future__ import annotations

import os
import signal
import sys

import click

from ..engine.translation import get_language
from ..i18n import N_, _
from .database import db_option, league_option

# Deferred imports: the web stack (Starlette, uvicorn, segno) and the store load inside the
# command, so no other command's start-up pays for them (benchmarks/startup.py).

#: The addresses that listen on every network of the machine.
EVERY_ADDRESS = ("0.0.0.0", "::")


@click.command()
@league_option
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    metavar="ADDRESS",
    help=N_(
        "Where to listen: 127.0.0.1 is this computer only; 0.0.0.0 is every "
        "network it is on (the club's Wi-Fi), and the address a phone uses is "
        "printed with a QR code."
    ),
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help=N_("The port (0: a free one, printed)."),
)
@click.option(
    "--workers",
    type=click.IntRange(1, 32),
    default=1,
    show_default=True,
    help=N_("Server processes, for a big event on PostgreSQL (SQLite: one)."),
)
@db_option
def serve(league_name: str, host: str, port: int, workers: int, db_url: str | None) -> None:
    """Serve the league to the players' phones on the club's network, for the night: the
    board (tables, seats, standings, updated by itself within two seconds of any entry, a
    projector mode and the round's clock), a page per table (its hands and running totals;
    with the table's entry code, the entry of its next hand and the correction of its last),
    the director's page (start, reseat, seat and end a round, correct any hand, every table's
    entry code) and the league's site pages. Nothing to install on the phones, no internet.

    The first line printed is the server's address; then the director's address, with its key
    (keep it to yourself) and a QR code, printed once. Reading is open to anyone on the
    network; writing needs a table's entry code (round show prints them, the slips carry them)
    or the director's key. Ctrl-C stops the server.

    \b
    Examples:
      mighty serve --league cup
      mighty serve --league cup --host 0.0.0.0 --port 8000
      mighty serve --league cup --db postgresql+psycopg://club@localhost/mighty --workers 4
    """
    import secrets

    from ..store import resolve_db_url
    from ..store.db import make_engine, reading
    from ..store.ledger.lookups import get_league

    url = resolve_db_url(db_url)
    if workers > 1 and url.startswith("sqlite"):
        raise click.UsageError(
            _(
                "--workers: SQLite is served by one process; several need "
                "PostgreSQL (--db postgresql+psycopg://...)"
            )
        )
    engine = make_engine(url, missing_ok=False)
    try:
        with reading(engine) as s:
            league_name = get_league(s, league_name).name  # an unknown league stops here
    finally:
        engine.dispose()
    listening = _listen(host, port)
    port = listening.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    public = None
    if host in EVERY_ADDRESS:
        phone = phone_address()
        public = f"http://{phone}:{port}" if phone else None
    from ..web.served import ServeSettings

    settings = ServeSettings(
        league_name, url, secrets.token_urlsafe(18), lang=get_language(), public_url=public
    )
    _announce(settings, f"http://{shown}:{port}", public)
    _run(settings, listening, workers)
    click.echo(_("Server stopped."))


def _listen(host: str, port: int):
    """A socket listening on ``host``:``port``; one line when the system refuses."""
    import socket

    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listening = socket.create_server((host, port), family=family, backlog=128)
    except (OSError, OverflowError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise click.ClickException(
            _("cannot listen on {host} port {port}: {reason}").format(
                host=host, port=port, reason=reason
            )
        ) from None
    # Every answer at once: without TCP_NODELAY (which the connections take from this socket)
    # an answer's body waits for the phone's delayed acknowledgement of its headers, 40 ms or
    # more on every request after a connection's first (asyncio sets it only on sockets it
    # knows as TCP, and this one was made as a plain stream)
    listening.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    listening.set_inheritable(True)  # a PostgreSQL server's workers take it over
    return listening


def phone_address() -> str | None:
    """The address a phone on the same network reaches this computer at: the machine's own
    address on its network (found from its name, else from the route the system would take;
    nothing is sent), None where it has none but its loopback."""
    import socket

    try:
        for *_rest, address in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            if not address[0].startswith("127."):
                return address[0]
    except OSError:
        pass
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # a documentation address: a route is chosen, no packet
        found = probe.getsockname()[0]
        return None if found.startswith(("127.", "0.")) else found
    except OSError:
        return None
    finally:
        probe.close()


def _announce(settings, address: str, public: str | None) -> None:
    """The address (the first line), where phones reach it, and the director's address with
    its key and a QR code, once."""
    from ..render.qr import qr_text

    click.echo(
        _("Serving league {league} at {address}").format(league=settings.league, address=address)
    )
    reached = public or address
    if public:
        click.echo(_("Phones on this network: {address}").format(address=public))
        click.echo(qr_text(public), nl=False)
    director = f"{reached}/director?key={settings.director_key}"
    click.echo(
        _("The director's page (its key is in it; keep it to yourself): {address}").format(
            address=director
        )
    )
    click.echo(qr_text(director), nl=False)
    click.echo(_("Ctrl-C stops the server."))
    sys.stdout.flush()


def _run(settings, listening, workers: int) -> None:
    """Serve until Ctrl-C or SIGTERM: the requests under way finish, then the command
    returns (uvicorn sends the signal on once it has stopped: it lands on a handler that
    lets the command end as any other)."""
    import uvicorn

    from ..web.app import create_app
    from ..web.served import settings_environment

    options = dict(
        log_level="warning",
        access_log=False,
        proxy_headers=False,
        server_header=False,
        timeout_graceful_shutdown=5,
        lifespan="on",
    )
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda signum, frame: None)
    if workers == 1:
        config = uvicorn.Config(create_app(settings), **options)  # type: ignore[arg-type]
        uvicorn.Server(config).run(sockets=[listening])
        return
    from uvicorn.supervisors import Multiprocess

    os.environ.update(settings_environment(settings))
    config = uvicorn.Config(
        "mighty_cli.web.app:app_from_environment", factory=True, workers=workers, **options
    )  # type: ignore[arg-type]
    Multiprocess(config, sockets=[listening]).run()
