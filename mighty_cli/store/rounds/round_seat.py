"""Someone leaves or arrives mid-round: ``round seat --table T --leave X --join Y``.

``round reseat`` plans the whole round again, which only makes sense before its first hand.
Once the tables play, a table's seating changes on its own: from its next hand the players who
leave are gone and those who join sit in, its earlier hands stay as they were played, and the
other tables are untouched.

* A joiner takes the seat of a player who leaves that table (the first joiner the first
  leaver's seat, and so on); one more sits after the last seat. The table's size must stay one
  the ruleset plays (``table.players`` and up to two more sitting out in turn).
* A table that has played no hand yet has its seats changed in place. A table that has played
  ends its session and opens a new one of the same round and table
  (:attr:`LeagueSession.table_number`), its seats turned so that the player who would have dealt
  next deals its first hand (his replacement where he left); the new session's first hand sits
  out as the ruleset says. The table counts its hands on across its seatings
  (:mod:`..ledger.table_hands`), and the round shows each change
  (:class:`.round_layout.SeatChange`). At a duplicate round's table the seats stay where they were
  (the deals go by seat), and the deals go on from the table's next one.
* A player who leaves may then sit elsewhere. A joiner seated at another open table is refused
  unless he leaves it in the same command (``--leave Y --join Y``: Y moves to table T), and so
  is a player whose substitute sits in the round (``--leave S --join X``: X takes his place).
  A table with a hand in progress (a referee's live hand with something in it) is refused:
  finish it first.

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func
from sqlmodel import Session, select

from ...engine.names import same_but_for_case
from ...engine.safe_toml import loads
from ...engine.session import seats_range
from ...engine.translation import _
from .. import LeagueError
from ..db import lock_league
from ..ledger.lookups import (
    check_name,
    ensure_players,
    find_player,
    get_league,
    league_rules,
    log_change,
    seating,
)
from ..ledger.open_tables import refuse_seated_elsewhere, seat_checked
from ..ledger.sessions import open_session, refuse_near_misses
from ..ledger.succession import next_proposal
from ..models import Hand, League, LeagueRound, LeagueSession, LiveHand, SessionSeat, utc_now
from .round_layout import RoundState
from .round_tables import round_state
from .substitutes import substitutes


def seat_table(
    s: Session,
    league_name: str,
    table: int,
    *,
    leave: Sequence[str] = (),
    join: Sequence[str] = (),
    who: str = "",
) -> tuple[RoundState, list[int]]:
    """Change table ``table``'s seating in the league's open round from its next hand:
    ``leave`` go (from whichever open table of the round they sit at), ``join`` sit at this
    one. The round as it now stands, and the tables whose seating changed."""
    league = get_league(s, league_name)
    lock_league(s, league.id)  # type: ignore[arg-type]
    found = s.exec(
        select(LeagueRound).where(LeagueRound.league_id == league.id, LeagueRound.ended_at == None)  # noqa: E711
    ).first()
    if found is None:
        raise LeagueError(_("league {league} has no open round").format(league=repr(league.name)))
    if not leave and not join:
        raise LeagueError(_("say who leaves (--leave NAME) or joins (--join NAME)"))
    tables = _open_tables(s, found)
    if table not in tables:
        raise LeagueError(
            _("--table {table}: round {number} has no open table {table} (open: {open})").format(
                table=table, number=found.number, open=", ".join(map(str, tables)) or "-"
            )
        )
    leaving = _leaving(s, found, tables, leave)
    joining = _joining(s, league, found, tables[table], join, leaving)
    seatings = {
        number: seating(s, session.id)  # type: ignore[arg-type]
        for number, session in tables.items()
    }
    changed = {
        number: _new_seats(
            seatings[number],
            [name for name, at in leaving.items() if at == number],
            joining if number == table else [],
        )
        for number in sorted({*leaving.values(), table})
    }
    rules = league_rules(league)
    low, high = seats_range(rules)
    for number, seats in changed.items():
        count = sum(1 for name in seats if name is not None)
        if not low <= count <= high:
            raise LeagueError(
                _(
                    "table {table} would seat {count}: {ruleset} seats {low} to "
                    "{high} at a table (table.players, and up to two more sitting "
                    "out in turn)"
                ).format(table=number, count=count, ruleset=rules.name, low=low, high=high)
            )
        _refuse_hand_in_progress(s, tables[number], number)
    for number in sorted(changed, key=lambda number: number == table):  # who moves leaves first
        _reseat(s, league, found, tables[number], seatings[number], changed[number])
    state = round_state(s, league.name, found.number)
    log_change(
        s,
        "round seat",
        who,
        league_id=league.id,
        after={
            "round": found.number,
            "table": table,
            "left": list(leaving),
            "joined": joining,
            "tables": [
                {"table": t.table, "session": t.session, "players": t.players}
                for t in state.tables
                if t.table in changed
            ],
        },
    )
    s.flush()
    return state, list(changed)


def _open_tables(s: Session, found: LeagueRound) -> dict[int, LeagueSession]:
    """The round's open tables by number, each its current session."""
    tables: dict[int, LeagueSession] = {}
    for session in s.exec(
        select(LeagueSession)
        .where(LeagueSession.round_id == found.id)
        .order_by(LeagueSession.number)
    ).all():
        tables.pop(session.table_number or 0, None)  # a later seating of the table replaces it
        if session.ended_at is None:
            tables[session.table_number or 0] = session
    return dict(sorted(tables.items()))


def _leaving(
    s: Session, found: LeagueRound, tables: dict[int, LeagueSession], leave: Sequence[str]
) -> dict[str, int]:
    """The players who leave, as the store spells them, each with the table he leaves."""
    leaving: dict[str, int] = {}
    for given in leave:
        player = find_player(s, check_name(given))
        at = next(
            (
                number
                for number, session in tables.items()
                if player is not None and player.name in seating(s, session.id)
            ),
            None,
        )  # type: ignore[arg-type]
        if player is None or at is None:
            raise LeagueError(
                _("--leave {name}: not seated at an open table of round {number}").format(
                    name=repr(given), number=found.number
                )
            )
        if player.name in leaving:
            raise LeagueError(_("--leave {name}: given twice").format(name=repr(player.name)))
        leaving[player.name] = at
    return leaving


def _joining(
    s: Session,
    league: League,
    found: LeagueRound,
    session: LeagueSession,
    join: Sequence[str],
    leaving: dict[str, int],
) -> list[str]:
    """The players who join the table, checked: new names as ``round start`` takes them, none
    at the table already, none seated at another open table he does not leave."""
    names = [check_name(name) for name in join]
    alike = same_but_for_case(names)
    if len(set(names)) != len(names) or alike:
        twice = alike or next((n, n) for n in names if names.count(n) > 1)
        raise LeagueError(
            _("--join: {first} and {second} are one player; name each who joins once").format(
                first=repr(twice[0]), second=repr(twice[1])
            )
        )
    names = [
        (find_player(s, name).name if find_player(s, name) else name)  # type: ignore
        for name in names
    ]
    here = seating(s, session.id)  # type: ignore[arg-type]
    for name in names:
        if name in here:
            raise LeagueError(
                _("--join {name}: already seated at table {table}").format(
                    name=repr(name), table=session.table_number
                )
            )
    refuse_near_misses(s, names, "--join")
    seated = {name for at in _open_tables(s, found).values() for name in seating(s, at.id)} - set(
        leaving
    )  # type: ignore[arg-type]
    for (_round, sub), (absent, _credited) in substitutes(s, league.id, found.number).items():  # type: ignore[arg-type]
        if absent in names and sub in seated:
            raise LeagueError(
                _(
                    "--join {absent}: {sub} sits in for {absent} this round; "
                    "{absent} takes the seat with --leave {sub} --join "
                    "{absent}"
                ).format(absent=absent, sub=sub)
            )
    moving = [(name, _session_of(s, found, at)) for name, at in leaving.items()]
    refuse_seated_elsewhere(s, league, names, "--join", leaving=moving)
    return names


def _session_of(s: Session, found: LeagueRound, table: int) -> int:
    """The number of the open session of the round's table ``table``."""
    return s.exec(
        select(LeagueSession.number).where(
            LeagueSession.round_id == found.id,
            LeagueSession.table_number == table,
            LeagueSession.ended_at == None,  # noqa: E711
        )
    ).first()  # type: ignore


def _new_seats(
    players: list[str], leavers: Sequence[str], joiners: Sequence[str]
) -> list[str | None]:
    """The table's seats, clockwise, where they were: each joiner in a leaver's seat, in turn,
    any more after the last seat, a leaver's seat nobody takes empty (None)."""
    seats: list[str | None] = list(players)
    waiting = list(joiners)
    for index, name in enumerate(seats):
        if name in leavers:
            seats[index] = waiting.pop(0) if waiting else None
    return seats + waiting


def _refuse_hand_in_progress(s: Session, session: LeagueSession, table: int) -> None:
    """A table whose referee has a hand under way keeps its seats until the hand is stored."""
    live = s.get(LiveHand, session.id)
    if live is not None and _begun(live.record_toml):
        raise LeagueError(
            _(
                "table {table} has a hand in progress: finish it ('mighty referee "
                "--league {league} --table {table}') or record its outcome ('mighty "
                "record --league {league} --table {table}') before its seating "
                "changes"
            ).format(table=table, league=_league_name(s, session))
        )


def _league_name(s: Session, session: LeagueSession) -> str:
    league = s.get(League, session.league_id)
    return league.name if league is not None else "?"


def _begun(record_toml: str) -> bool:
    """Whether a live hand has anything in it (a record that cannot be read counts as one)."""
    try:
        return any(isinstance(hand, dict) and hand for hand in loads(record_toml).get("hands", ()))
    except (ValueError, TypeError, AttributeError):
        return True


def _reseat(
    s: Session,
    league: League,
    found: LeagueRound,
    session: LeagueSession,
    before: list[str],
    seats: list[str | None],
) -> None:
    """Give the table its new seats: in place where it has no hand yet, else in a new session
    of the round's table from its next hand, who deals it in the first seat."""
    players = [name for name in seats if name is not None]
    live = s.get(LiveHand, session.id)
    if live is not None:  # nothing in it (else refused): the old seating's
        s.delete(live)
    stored = s.exec(select(func.count(Hand.id)).where(Hand.session_id == session.id)).one()
    if not stored:
        for seat in s.exec(select(SessionSeat).where(SessionSeat.session_id == session.id)):
            s.delete(seat)
        s.flush()
        ids = ensure_players(s, players)
        seat_checked(s, league, ids, "--join")
        for index, name in enumerate(players):
            s.add(SessionSeat(session_id=session.id, seat=index, player_id=ids[name]))
        s.flush()
        return
    if found.deal_seed is None:  # (a duplicate round's deals go by seat: its seats stay)
        dealer = next_proposal(s, league_rules(league), session, before).dealer
        start = before.index(dealer) if dealer in before else 0
        first = next(
            seats[(start + step) % len(seats)]
            for step in range(len(seats))
            if seats[(start + step) % len(seats)] is not None
        )
        players = players[players.index(first) :] + players[: players.index(first)]
    session.ended_at = utc_now()
    s.add(session)
    s.flush()
    opened = open_session(
        s,
        league,
        players,
        day=session.day,
        round_id=found.id,
        table_number=session.table_number,
        option="--join",
    )
    if found.deal_seed is not None:
        opened.deal_seed = found.deal_seed
    opened.entry_code = session.entry_code or opened.entry_code  # the phones at it go on
    s.add(opened)
    s.flush()
