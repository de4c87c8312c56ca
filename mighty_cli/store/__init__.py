"""The league store: players, leagues, sessions, hands and the change log, kept with SQLModel.

The tables are in :mod:`.models`, the engine factory and the schema's upgrades in :mod:`.db`;
the operations, one module per concern, in three sub-packages, lowest first:
:mod:`.ledger` (the league's records: players, sessions, hands, corrections, totals),
:mod:`.rounds` (club nights of several tables, built on the ledger) and :mod:`.interchange`
(import, export, backup and restore). Each operation works inside the caller's transaction and
raises a :class:`LeagueError` (or another project error) for bad input, so the caller's
rollback leaves the database exactly as it was; a command imports it from the module that
defines it, and so loads only the store it uses.

This package's ``__init__`` stays light (no SQLModel import) so the CLI can name the database
and report store errors without paying for SQLAlchemy at start-up.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..engine.errors import MightyError

__all__ = ["DB_ENV", "LeagueError", "app_folder", "default_db_url", "masked_url", "resolve_db_url"]

DB_ENV = "MIGHTY_DB"


class LeagueError(MightyError):
    """A league operation that names something missing or breaks a league rule."""


def app_folder() -> Path:
    """The user's folder for the tool (the database, the referee's history), where click's
    ``get_app_dir("mighty")`` puts it: ``$XDG_CONFIG_HOME/mighty`` or ``~/.config/mighty``;
    ``~/Library/Application Support/mighty`` on macOS; ``%APPDATA%\\mighty`` on Windows."""
    import sys

    if sys.platform.startswith("win"):
        return Path(os.environ.get("APPDATA") or Path.home()) / "mighty"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "mighty"
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "mighty"


def default_db_url() -> str:
    """The database URL when neither ``--db`` nor ``MIGHTY_DB`` names one: a SQLite file in the
    user's application folder (:func:`app_folder`)."""
    folder = app_folder()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'mighty.db'}"


def resolve_db_url(url: str | None) -> str:
    """``--db`` if given, else ``MIGHTY_DB``, else the default SQLite file. A bare path is a
    SQLite file."""
    url = url or os.environ.get(DB_ENV) or default_db_url()
    if "://" not in url:
        url = f"sqlite:///{Path(url).expanduser().resolve()}"
    return url


#: A query parameter whose value is a secret (``password``, ``sslpassword``, ``passwd``, ``pwd``,
#: a ``token`` or a ``secret``), by its name as SQLAlchemy reads it (percent-decoded).
_SECRET_PARAMETER = re.compile(r"(?i)pass|pwd|secret|token")


def masked_url(url: str) -> str:
    """A database URL as the tool shows it, read as SQLAlchemy reads it (``make_url``): its
    password written ``***`` (``user:***@host``, whatever characters the password holds), and
    so is every password-like parameter of its query (``?password=***``, percent-encoded names
    too). A URL SQLAlchemy cannot read is shown without anything after its scheme
    (``postgresql://…``): where its password ends cannot be told. A password must never reach a
    terminal or a log: the URL may be pasted from a club's shared notes."""
    from urllib.parse import quote_plus

    # Deferred: SQLAlchemy loads only when a URL other than a SQLite path is shown.
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    scheme = url.partition("://")[0]
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError, TypeError):
        return (scheme if re.fullmatch(r"[\w+.-]*", scheme) else "") + "://…"
    if parsed.host and "@" in parsed.host:  # a bare '@' in the password: its rest is read as
        parsed = parsed.set(host=parsed.host.rpartition("@")[2])  # the host's beginning
        if parsed.password is None:
            parsed = parsed.set(password="***")
    shown = parsed.set(query={}).render_as_string(hide_password=True)
    query = [
        f"{quote_plus(key)}={'***' if _SECRET_PARAMETER.search(key) else quote_plus(value)}"
        for key, values in parsed.query.items()
        for value in ((values,) if isinstance(values, str) else values)
    ]
    return shown + ("?" + "&".join(query) if query else "")
