"""Import: hand records (streamed) into a league, and a refereed hand stored.

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, select

from ...engine.errors import RecordError
from ...engine.records import Record, iter_replay, read_record, record_ruleset
from ...engine.translation import _
from .. import LeagueError
from ..db import lock_league
from ..ledger.leagues import create_league
from ..ledger.lookups import (
    check_name,
    ensure_players,
    find_player,
    get_league,
    league_rules,
    log_change,
)
from ..ledger.totals import add_appended, fold
from ..models import League, LeagueSession
from .import_batch import ImportRun, SessionImport


@dataclass
class Imported:
    hands: int
    sessions: list[int]
    players_created: list[str]
    first: int
    last: int
    ended: list[tuple[int, str]] = field(default_factory=list)  # open sessions it completed
    notes: list[str] = field(default_factory=list)  # hands played after an end


def import_record(
    s: Session,
    league_name: str,
    record: Record,
    *,
    who: str = "",
    session_number: int | None = None,
    create: bool = False,
    again: bool = False,
) -> Imported:
    """Replay a record hand by hand with the league's ruleset and store its hands as new
    sessions (grouped by the hands' ``session`` key) or, with ``session_number``, into that
    open session; any violation stops everything (the caller's transaction is rolled back).
    The record's hands may be an iterator (a streamed file): nothing but the current session's
    hands is held. With ``create``, a missing league is made with the record's ruleset (an
    exported league embeds its own).

    Numbers: a hand keeps its ``number`` and a new session its ``session`` number when they
    come after the league's last ones (an export imported into an empty league keeps them);
    otherwise they are numbered on from the last.

    Session ends (``session.hands_per_session``, ``session.starting_points``): an open session
    the hands complete is ended, and a hand after that end is refused (live recording). New
    sessions are history: they are stored ended, and hands the record played after its
    session's end are kept as played and reported in ``notes``, as ``mighty replay`` does (so
    an export of a corrected league always imports again).

    Session times: a new session starts and ends when the record's ``session_started`` and
    ``session_ended`` say (an export writes them on each session's first hand), so an imported
    league keeps when its evenings were played; a record without them (a hand-written season)
    gets the import's time, and a session the export shows open (no end) is stored ended at the
    import's time, like every imported session."""
    if create and s.exec(select(League.id).where(League.name == league_name)).first() is None:
        if record.extra.get("ruleset_unknown"):
            raise LeagueError(
                _(
                    "no league named {league_name!r}, and a CSV export does not say "
                    "its ruleset: create it first with 'mighty league create "
                    "{league_name} --ruleset NAME'"
                ).format(league_name=league_name)
            )
        create_league(s, league_name, record_ruleset(record), who=who, exist_ok=True)
    league = get_league(s, league_name)
    lock_league(s, league.id)  # type: ignore[arg-type]
    rules = league_rules(league)
    created = [p for p in record.players if find_player(s, check_name(p)) is None]
    ids = ensure_players(s, record.players)
    if s.get_bind().dialect.name == "sqlite":
        # A long import touches every page of four indexes: let them stay in memory (64 MB,
        # this connection only) instead of the default 2 MB.
        s.connection().exec_driver_sql("PRAGMA cache_size=-65536")
    # The running totals count up to here; the import counts its own rows as it writes them.
    fold(s, league.id)  # type: ignore[arg-type]
    run = ImportRun(s, league, rules, ids, session_number, again, who)
    key: Any = object()
    group: SessionImport | None = None
    collecting = gc.isenabled()
    gc.disable()  # rows are made and dropped by the million: no cycles to look for
    try:
        for hand, outcome in iter_replay(record, rules):
            if outcome.status == "in_progress":
                raise RecordError(
                    _(
                        "hand {index}: the hand is not finished; a league stores "
                        "only finished hands"
                    ).format(index=outcome.index)
                )
            # Consecutive hands with the same "session" key make one session.
            hand_key = hand.get("session", record.extra.get("session"))
            if group is not None and hand_key != key:
                run.finish(group, record)
                group = None
            if group is None:
                group = run.begin(hand, outcome, record)
            key = hand_key
            run.add(group, hand, outcome)  # stored at once: one hand's record is held
        if group is not None:
            run.finish(group, record)
        run.flush(final=True)
        run.wait()
        run.deferred.restore()
    except BaseException:
        run.abandon()  # the writing thread is done with the connection before the rollback
        raise
    finally:
        if collecting:
            gc.enable()
    log_change(
        s,
        "import",
        who,
        league_id=league.id,
        after={
            "hands": run.inserted,
            "first": run.first,
            "last": run.number,
            "sessions": run.sessions,
            "players_created": created,
        },
    )
    add_appended(s, league.id, run.counts)  # type: ignore[arg-type]
    return Imported(
        run.inserted,
        run.sessions,
        created,
        run.first or run.number + 1,
        run.number,
        run.ended,
        run.notes,
    )


def save_refereed_hand(
    s: Session,
    league_name: str,
    record_text: str,
    *,
    session_number: int | None = None,
    who: str = "",
    source: str = "<referee>",
) -> Imported:
    """Store a refereed hand (a hand record's TOML text, one or more finished hands) in a
    league: into its open session when there is one (or ``session_number``), else as a new
    session. This is what ``mighty referee --league`` calls."""
    record = read_record(record_text, source=source)
    league = get_league(s, league_name)
    if session_number is None:
        open_numbers = s.exec(
            select(LeagueSession.number).where(
                LeagueSession.league_id == league.id,
                LeagueSession.ended_at == None,  # noqa: E711
            )
        ).all()
        if len(open_numbers) == 1:
            session_number = open_numbers[0]
    return import_record(s, league_name, record, who=who, session_number=session_number)
