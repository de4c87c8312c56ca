"""``mighty where``: where the tool keeps things (the league database clubs back up, the
referee's line history), without opening the database."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..i18n import N_, _
from ..render.text import table

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).


def database_location(db_url: str | None = None) -> str:
    """The database in use, as a file path for SQLite, else the URL without its password."""
    from ..store import DB_ENV, masked_url, resolve_db_url

    url = resolve_db_url(db_url)
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
        return str(Path(path).resolve()) if path and path != ":memory:" else ":memory:"
    if url.startswith("sqlite://"):
        return ":memory:"
    return masked_url(url) + (
        _(" (from {variable})").format(variable=DB_ENV)
        if not db_url and os.environ.get(DB_ENV)
        else ""
    )


@click.command()
@click.option(
    "--db",
    "db_url",
    envvar="MIGHTY_DB",
    metavar="URL",
    default=None,
    help=N_("A database URL or SQLite file (default: the user's; env MIGHTY_DB)."),
)
def where(db_url: str | None) -> None:
    """Say where the league database is (back this file up), and the referee's history.

    \b
    Example:
      mighty where
    """
    from .line_input import history_path

    rows = [
        (_("database:"), database_location(db_url)),
        (_("folder:"), click.get_app_dir("mighty")),
    ]
    history = history_path()
    if history is not None:
        rows.append((_("history:"), history))
    # label and value, the values in one column whatever the language's label widths
    for line in table(["", ""], rows, align="<<").splitlines()[2:]:
        click.echo(line)
    click.echo(
        _("another database: --db URL or MIGHTY_DB (a SQLite file path or any SQLAlchemy URL)")
    )
