"""The database engine, made by a function (never a module global), and transactions.

SQLite is the default. Several processes may write one SQLite file at once (two score-keepers
at two tables): the file runs in WAL mode, every transaction starts with ``BEGIN IMMEDIATE`` so
writers queue on the busy timeout instead of failing half-way, and foreign keys are enforced.
On PostgreSQL a writer locks its league's row first (:func:`lock_league`), which serialises
writers of one league the same way, and the first commands on an empty database create its
tables one at a time (an advisory lock), since concurrent CREATE TABLEs collide.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError, DatabaseError, NoSuchModuleError
from sqlmodel import Session, SQLModel, create_engine

from ..engine.translation import _
from . import LeagueError, masked_url, resolve_db_url
from .models import League  # (and every table, registered on SQLModel.metadata)

BUSY_TIMEOUT_SECONDS = 60


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names (None: an in-memory database, or not SQLite)."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):  # not a URL (a bad port): make_engine says so
        return None
    if (
        parsed.get_backend_name() != "sqlite"
        or parsed.database in (None, "", ":memory:")
        or parsed.query.get("mode") == "memory"
    ):
        return None
    return Path(parsed.database)


def make_engine(url: str | None = None, *, create: bool = True, missing_ok: bool = True) -> Engine:
    """An engine for a SQLAlchemy URL (default: the user's SQLite file), with the tables made.
    With ``missing_ok=False`` a SQLite file that does not exist is an error, not a new empty
    database: only the commands that make a league (``league create``, ``import``,
    ``restore``, ``player add``) create one, so a mistyped ``--db`` is reported."""
    url = resolve_db_url(url)
    _refuse_bare_at(url)
    path = sqlite_file(url)
    if not missing_ok and path is not None and not path.exists():
        raise LeagueError(
            _(
                "{path}: no database there (a mistyped --db?); 'mighty league "
                "create', 'mighty import' or 'mighty restore' makes one"
            ).format(path=path)
        )
    try:
        if url.startswith("sqlite"):
            engine = _sqlite_engine(url)
        else:
            engine = create_engine(url, pool_pre_ping=True)
            # psycopg logs a second line ("error ignored terminating <psycopg.Pipeline>") when a
            # statement of a batch fails: the error itself is reported, as one line, by the CLI.
            logging.getLogger("psycopg").addHandler(logging.NullHandler())
    except NoSuchModuleError as exc:  # an unknown database or driver: the error names it
        raise LeagueError(
            _("--db {url!r}: not a database URL SQLAlchemy can use ({exc})").format(
                url=_safe(url), exc=exc
            )
        ) from None
    except (ArgumentError, ValueError):  # ValueError: a bad port, whose text may hold a piece
        # of a password (user:p@ss:word@host reads port 'word@host'): the error is not shown
        raise LeagueError(
            _("--db {url!r}: not a database URL SQLAlchemy can read").format(url=_safe(url))
        ) from None
    except ImportError as exc:  # a known database whose driver is not installed
        raise LeagueError(
            _(
                "--db {url}: its database driver is not installed ({exc}); "
                "PostgreSQL needs pip install 'mighty-cli[postgres]'"
            ).format(url=_safe(url), exc=exc)
        ) from None
    if create:
        try:
            _create_tables(engine)
        except DatabaseError as exc:  # not a database (a text file), unreachable, refused
            engine.dispose()
            reason = (str(exc.orig or exc).strip().splitlines() or [type(exc).__name__])[0]
            raise LeagueError(
                _("--db {url}: cannot open the database: {reason}").format(
                    url=_safe(url), reason=reason
                )
            ) from None
    return engine


#: The advisory lock PostgreSQL writers take while creating the tables (any fixed number).
_CREATE_LOCK = 0x6D69676874  # "might"


#: Columns added to a table after it was first released, as ``(table, column, SQL type)``: a
#: store made before gains each one, empty (NULL), when it is opened (:func:`_add_columns`).
#: Each must be nullable, and mean "nothing to say" when NULL, so old rows keep their meaning.
ADDED_COLUMNS = (
    ("hand", "eliminated_seat", "INTEGER"),  # 시흥 은마's eliminated hand
    ("league_session", "deal_seed", "VARCHAR(40)"),  # the referee's deal seed
    ("league_session", "round_id", "INTEGER"),  # a round's table (league_round)
    ("league_session", "table_number", "INTEGER"),
    ("league_round", "deal_seed", "VARCHAR(40)"),  # a duplicate round's deals
    ("league_round", "clock_started_at", "TIMESTAMP"),  # the round's clock
    ("league_round", "clock_minutes", "INTEGER"),
    ("live_hand", "owner", "VARCHAR(40)"),  # who holds the hand in progress
    ("planned_table", "plan_first", "INTEGER"),  # a plan's first round
    ("planned_table", "plan_rounds", "INTEGER"),  # and its length
    ("league_session", "entry_code", "VARCHAR(10)"),
)  # a phone's entry code


def _create_tables(engine: Engine) -> None:
    """Create the tables that do not exist yet and add the columns they lack
    (:data:`ADDED_COLUMNS`); on PostgreSQL one process at a time."""
    if engine.dialect.name != "postgresql":
        SQLModel.metadata.create_all(engine)
        if _missing_columns(engine):
            with engine.begin() as connection:  # BEGIN IMMEDIATE: one writer looks and adds
                _add_columns(connection)
        return
    from sqlalchemy import text

    with engine.begin() as connection:
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _CREATE_LOCK})
        SQLModel.metadata.create_all(connection)
        _add_columns(connection)


def create_tables_within(session: Session, url: str) -> None:
    """Create the tables the store lacks (and the :data:`ADDED_COLUMNS`) inside the session's
    transaction, so that a command that then fails leaves none behind (SQLite and PostgreSQL
    both undo a CREATE TABLE with the transaction). A store that has them all takes no lock;
    on PostgreSQL a new store's creator holds the tables' lock until it commits. A file that is
    no database, or a server that refuses, is one line."""
    from sqlalchemy import inspect, text

    try:
        connection = session.connection()
        have = set(inspect(connection).get_table_names())
        if set(SQLModel.metadata.tables) <= have and not _missing_columns(connection):
            return
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _CREATE_LOCK})
        SQLModel.metadata.create_all(connection)
        _add_columns(connection)
    except DatabaseError as exc:  # not a database (a text file), unreachable, refused
        reason = (str(exc.orig or exc).strip().splitlines() or [type(exc).__name__])[0]
        raise LeagueError(
            _("--db {url}: cannot open the database: {reason}").format(
                url=_safe(url), reason=reason
            )
        ) from None


def _missing_columns(bind) -> list[tuple[str, str, str]]:
    """The :data:`ADDED_COLUMNS` the store's tables lack."""
    from sqlalchemy import inspect

    inspector = inspect(bind)
    have: dict[str, set[str]] = {}
    missing = []
    for table, column, kind in ADDED_COLUMNS:
        if table not in have:
            have[table] = {c["name"] for c in inspector.get_columns(table)}
        if column not in have[table]:
            missing.append((table, column, kind))
    return missing


def _add_columns(connection) -> None:
    """Add the :data:`ADDED_COLUMNS` a table lacks, inside the caller's transaction (which
    holds the store's write lock, so two processes opening an old store add each once)."""
    for table, column, kind in _missing_columns(connection):
        connection.exec_driver_sql(f'ALTER TABLE "{table}" ADD COLUMN "{column}" {kind}')


def _sqlite_engine(url: str) -> Engine:
    from sqlalchemy.pool import StaticPool

    in_memory = url in ("sqlite://", "sqlite:///:memory:")
    kwargs: dict = {"connect_args": {"timeout": BUSY_TIMEOUT_SECONDS, "check_same_thread": False}}
    if in_memory:
        kwargs["poolclass"] = StaticPool  # one shared connection, or each one sees no tables
    engine = create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        # Take transaction control from the sqlite3 module so BEGIN IMMEDIATE can be issued.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        if not in_memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_SECONDS * 1000}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        # Take the write lock at the start: a read-then-write transaction that upgraded its
        # lock later could fail with "database is locked" instead of waiting its turn. A
        # transaction that only reads (:func:`reading`) takes none: in WAL mode it reads a
        # snapshot, and neither waits for a writer nor makes one wait.
        connection.exec_driver_sql(
            "BEGIN" if connection.get_execution_options().get(READING) else "BEGIN IMMEDIATE"
        )

    return engine


_safe = masked_url


def _refuse_bare_at(url: str) -> None:
    """A password holding a bare ``@`` is cut at it by SQLAlchemy, its rest read as the host
    (``user:p@ss@host`` connects to ``ss@host``), and the driver's error would show that piece
    of the password: refused, the URL shown masked."""
    from sqlalchemy.engine import make_url

    try:
        host = make_url(url).host
    except (ArgumentError, ValueError, TypeError):  # make_engine says so
        return
    if host and "@" in host:
        raise LeagueError(
            _("--db {url}: the user or password holds '@': write it as %40 (URL encoding)").format(
                url=masked_url(url)
            )
        )


#: A SQLite file that holds no store yet (an empty file, another program's database) is kept
#: byte for byte while a creating command runs, to be put back if it fails, up to this size.
KEPT_MAX_BYTES = 4 << 20
_JOURNALS = ("-wal", "-shm", "-journal")


@dataclass
class FileBefore:
    """A SQLite file as it was before a creating command: whether it was there, its bytes
    when it held no store (None: not kept), and which of its journal files were there."""

    path: Path
    existed: bool
    data: bytes | None = None
    journals: tuple[str, ...] = ()


def file_before(path: Path) -> FileBefore:
    """What :func:`put_back` needs to leave ``path`` as it is now."""
    journals = tuple(j for j in _JOURNALS if path.with_name(path.name + j).exists())
    try:
        size = path.stat().st_size
    except OSError:
        return FileBefore(path, path.exists() or path.is_symlink(), None, journals)
    if not path.is_file() or size > KEPT_MAX_BYTES or _holds_a_store(path, size):
        return FileBefore(path, True, None, journals)
    try:
        return FileBefore(path, True, path.read_bytes(), journals)
    except OSError:
        return FileBefore(path, True, None, journals)


def _holds_a_store(path: Path, size: int) -> bool:
    """Whether the file is already a store (its tables are there): a failed command's
    transaction then leaves it as it was, and nothing needs keeping."""
    import sqlite3
    from urllib.parse import quote

    if size == 0:
        return False
    try:  # immutable: read without a lock and without writing a journal beside it
        connection = sqlite3.connect(
            f"file:{quote(str(path.resolve()))}?mode=ro&immutable=1", uri=True
        )
        try:
            return (
                connection.execute(
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'league'"
                ).fetchone()
                is not None
            )
        finally:
            connection.close()
    except sqlite3.Error:  # not a database: opening it fails and changes nothing
        return False


def put_back(before: FileBefore) -> None:
    """Leave a SQLite file as it was before a command that failed (the engine disposed of):
    a file the command made is removed with its journals; a file that held no store gets its
    bytes back, and the journal files that were not there go; a store is left alone."""
    if not before.existed:
        remove_sqlite_file(before.path)
        return
    if before.data is None:  # a store: the rolled-back transaction left it as it was, and its
        return  # journal files may be another writer's by now
    for journal in _JOURNALS:
        if journal not in before.journals:
            before.path.with_name(before.path.name + journal).unlink(missing_ok=True)
    try:
        with open(before.path, "r+b") as kept:  # in place: its inode, owner and mode stay
            kept.write(before.data)
            kept.truncate()
    except OSError:
        pass  # the command's own error is the one reported


def remove_sqlite_file(path: Path) -> None:
    """Remove a SQLite database file this command created, with its journal files, so a
    command that failed leaves no file behind."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            path.with_name(path.name + suffix).unlink()
        except FileNotFoundError:
            pass


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """A session whose work is committed together at the end, or not at all."""
    with Session(engine, expire_on_commit=False) as session:
        with session.begin():
            yield session


#: The execution option that marks a transaction that only reads (:func:`reading`).
READING = "mighty_reading"


@contextmanager
def reading(engine: Engine) -> Iterator[Session]:
    """A session that only reads, in one transaction: on SQLite a snapshot taken without the
    write lock (a page served many times a second never holds up a keeper's entry); on
    PostgreSQL a transaction as any other. Nothing it changes is committed: closing it gives
    the connection back, its transaction rolled back, the rows read kept as they were read."""
    with Session(engine.execution_options(**{READING: True}), expire_on_commit=False) as session:
        yield session


def lock_league(session: Session, league_id: int) -> None:
    """Serialise writers of one league (PostgreSQL row lock; SQLite already holds the lock)."""
    from sqlmodel import select

    if session.get_bind().dialect.name != "sqlite":
        session.exec(select(League.id).where(League.id == league_id).with_for_update()).first()
