"""The league store: players, leagues, sessions, hands and the change log, kept with SQLModel.

This package's ``__init__`` stays light (no SQLModel import) so the CLI can name the database
and report store errors without paying for SQLAlchemy at start-up. The tables are in
:mod:`.models`, the engine factory in :mod:`.db`, the operations in :mod:`.services`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..engine.errors import MightyError

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


_PASSWORD_PARAMETER = re.compile(r"(?i)([?&](?:password|passwd|pwd|pass)=)[^&#]*")


def masked_url(url: str) -> str:
    """A database URL as the tool shows it: every password written ``***``, in the user part
    (``user:***@host``, a password holding ``@`` or ``:`` too) and in the query
    (``?password=***``). A password must never reach a terminal or a log: the URL may be pasted
    from a club's shared notes."""
    scheme, separator, rest = url.partition("://")
    if not separator:
        return url
    query = rest.find("?")
    at = rest.rfind("@", 0, query if query >= 0 else len(rest))  # the user part's end
    if at > 0:
        user = rest[:at].split(":", 1)[0]
        rest = (user + (":***" if ":" in rest[:at] else "")) + rest[at:]
    return scheme + "://" + _PASSWORD_PARAMETER.sub(r"\1***", rest)
