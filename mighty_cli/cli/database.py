"""What every league command shares on its way to the store: the ``--db``, ``--league`` and
``--by`` options, who makes a change, one transaction per command (:func:`database`: only a
creating command makes a SQLite file, and database failures are one line), and name lists.
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Iterator
from contextlib import contextmanager

import click

from ..engine.errors import MightyError
from ..i18n import N_, _
from . import completion

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).

db_option = click.option(
    "--db",
    "db_url",
    envvar="MIGHTY_DB",
    metavar="URL",
    help=N_(
        "Database: any SQLAlchemy URL or a SQLite file path (default: mighty.db in the "
        "user's app directory; env MIGHTY_DB)."
    ),
)
league_option = click.option(
    "--league",
    "-l",
    "league_name",
    required=True,
    metavar="NAME",
    shell_complete=completion.leagues,
    help=N_("The league."),
)
by_option = click.option(
    "--by",
    "who",
    metavar="NAME",
    default=None,
    help=N_("Who makes the change, for the change log (default: $MIGHTY_USER or your login name)."),
)


def who_default(who: str | None) -> str:
    """Who is making a change: --by, $MIGHTY_USER, or the login name (a name: no invisible
    characters, at most 100 characters, as the change log stores it)."""
    from ..engine import names

    if not who:
        try:
            who = os.environ.get("MIGHTY_USER") or getpass.getuser()
        except Exception:  # no login name in some containers
            who = "unknown"
    wrong = names.refused_character(who)
    if wrong:
        raise click.BadParameter(f"{names.visible(who)} {wrong}", param_hint="--by")
    who = names.normalize(who)
    if len(who) > 100:
        raise click.BadParameter(
            _("{start!r}...: longer than 100 characters").format(start=who[:20]), param_hint="--by"
        )
    return who or "unknown"


@contextmanager
def database(db_url: str | None, creates: bool = False) -> Iterator:
    """One transaction on the chosen database; database failures become one-line errors.

    Only a command that ``creates`` (a league, an import, a restore, players) may make a new
    SQLite file; any other command refuses a file that is not there, so a mistyped ``--db``
    makes nothing. A creating command makes the tables inside its transaction, and when it
    fails it leaves the target as it was: a new file removed, an existing file that held no
    store (an empty file) given its bytes back, no table left on PostgreSQL."""
    from ..store import resolve_db_url
    from ..store.db import create_tables_within, make_engine, sqlite_file, transaction

    url = resolve_db_url(db_url)
    path = sqlite_file(url) if creates else None
    with _put_back_on_failure(path):
        engine = make_engine(url, missing_ok=creates, create=not creates)
        try:
            with _one_line_errors(), transaction(engine) as session:
                if creates:
                    create_tables_within(session, url)
                yield session
        finally:
            engine.dispose()


@contextmanager
def _put_back_on_failure(path) -> Iterator:
    """Leave ``path`` (the SQLite file a creating command writes) as it was if the command
    fails."""
    from ..store.db import file_before, put_back

    before = file_before(path) if path is not None else None
    try:
        yield
    except BaseException:
        if before is not None:
            put_back(before)
        raise


@contextmanager
def _one_line_errors() -> Iterator:
    """Database failures as one-line errors (a retryable one as :class:`RetryTransaction`)."""
    from sqlalchemy.exc import DBAPIError, SQLAlchemyError

    try:
        yield
    except DBAPIError as exc:
        first = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
        if _retryable(exc):
            raise RetryTransaction(_("database error: {error}").format(error=first)) from None
        raise click.ClickException(_("database error: {error}").format(error=first)) from None
    except SQLAlchemyError as exc:
        orig = getattr(exc, "orig", None)
        if isinstance(orig, MightyError):  # a value a column refused (models.StoredPoints)
            raise click.ClickException(str(orig)) from None
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise click.ClickException(_("database error: {error}").format(error=first)) from None


class RetryTransaction(click.ClickException):
    """A transaction the database rolled back to keep concurrent writers consistent
    (PostgreSQL's serialization failure or deadlock): the command runs again (cli.LazyGroup)."""


def _retryable(exc) -> bool:
    code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
    return code in ("40001", "40P01")


def pair_readings(given: tuple[str, ...], option: str = "--apart") -> list[list[tuple[str, str]]]:
    """Each ``A/B`` given to a pair option (``--apart``, ``--substitute``) as its readings as
    two names: one, or one per ``/`` where a name of an older store holds one
    (:func:`chosen_pairs` chooses); a usage error where there is none."""
    from ..engine.names import pair_splits

    readings = []
    for text in given:
        splits = pair_splits(text)
        if not splits:
            raise click.UsageError(
                _("{option} {text}: expected two names as A/B").format(option=option, text=text)
            )
        readings.append(splits)
    return readings


def chosen_pairs(
    given: tuple[str, ...], readings: list[list[tuple[str, str]]], option: str, known=None
) -> list[tuple[str, str]]:
    """The pairs given: each one's reading (where it has several, the one whose two names are
    ``known``: players present or of the store), the two names different players."""
    from ..engine.names import folded

    pairs = []
    for text, splits in zip(given, readings):
        if len(splits) > 1 and known is not None:
            named = [(a, b) for a, b in splits if known(a) and known(b)]
            splits = named if len(named) == 1 else splits
        if len(splits) > 1:
            raise click.UsageError(
                _(
                    "{option} {text}: the '/' between the two names is not "
                    "clear ({readings}); name players the store knows"
                ).format(
                    option=option, text=text, readings="; ".join(f"{a} + {b}" for a, b in splits)
                )
            )
        first, second = splits[0]
        if folded(first) == folded(second):
            raise click.UsageError(
                _("{option} {text}: a pair is two different players").format(
                    option=option, text=text
                )
            )
        pairs.append((first, second))
    return pairs
