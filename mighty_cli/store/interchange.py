"""Import and export: hand records in and out of a league, and a refereed hand stored.

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

from sqlalchemy import func, insert
from sqlmodel import Session, select

from ..engine.cards import format_bid
from ..engine.errors import RecordError
from ..engine.record import (
    HandOutcome,
    Record,
    dump_record,
    read_record,
    record_ruleset,
    replay,
)
from ..engine.scoring import pot_shares
from ..engine.session import SessionTally, has_session_end
from . import LeagueError
from .db import lock_league
from .hands import HandView, _hand_columns, _member_rows, _settle, list_hands
from .leagues import create_league
from .lookups import (
    check_name,
    ensure_players,
    find_player,
    get_league,
    league_rules,
    log_change,
)
from .models import (
    Hand,
    HandPlayer,
    League,
    LeagueSession,
    SessionSeat,
    utc_now,
)
from .queries import standings
from .sessions import _parse_day, _pot_before, _session, _session_hands, seating


@dataclass
class Imported:
    hands: int
    sessions: list[int]
    players_created: list[str]
    first: int
    last: int
    ended: list[tuple[int, str]] = field(default_factory=list)   # open sessions it completed
    notes: list[str] = field(default_factory=list)               # hands played after an end


def _outcome_signature(outcome: HandOutcome) -> tuple:
    """What identifies a played hand, to recognise a session imported twice."""
    return (outcome.status, tuple(outcome.players), outcome.dealer, outcome.declarer,
            format_bid(outcome.contract) if outcome.contract else None, outcome.friend,
            outcome.taken, outcome.deal_miss_player)


def _view_signature(view: HandView) -> tuple:
    return (view.status, tuple(view.players), view.dealer, view.declarer, view.contract,
            view.friend, view.taken, view.deal_miss)


def _refuse_reimport(s: Session, league: League, groups: list, record: Record) -> None:
    """A session whose date and hands are already in the league is not imported again by
    accident (the keeper ran the same import twice); ``again`` imports it anyway."""
    days = [_parse_day(hands[0][0].get("date", record.extra.get("date")),
                       f"hand {hands[0][1].index}: date") for _, hands in groups]
    same_day = s.exec(select(LeagueSession.number).where(LeagueSession.league_id == league.id,
                                                         LeagueSession.day.in_(set(days)))).all()
    existing = {}
    for number in same_day:  # only sessions of the same dates can be the same session
        views = list_hands(s, league.name, session_number=number, include_voided=False)
        if views:
            existing[(views[0].day, tuple(_view_signature(v) for v in views))] = number
    for day, (_, hands) in zip(days, groups):
        signature = (day, tuple(_outcome_signature(o) for _, o in hands))
        if signature in existing:
            raise LeagueError(f"hands {hands[0][1].index}-{hands[-1][1].index} of the record are "
                              f"already in league {league.name} as session "
                              f"{existing[signature]} ({day}, same hands): not imported twice "
                              f"(use --again to import them anyway)")


def import_record(s: Session, league_name: str, record: Record, *, who: str = "",
                  session_number: Optional[int] = None, create: bool = False,
                  again: bool = False) -> Imported:
    """Replay a whole record with the league's ruleset (any violation stops everything), then
    store its hands as new sessions (grouped by the hands' ``session`` key) or, with
    ``session_number``, into that open session. With ``create``, a missing league is made
    with the record's ruleset (an exported league embeds its own).

    Session ends (``session.hands_per_session``, ``session.starting_points``): an open session
    the hands complete is ended, and a hand after that end is refused (live recording). New
    sessions are history: they are stored ended, and hands the record played after its
    session's end are kept as played and reported in ``notes``, as ``mighty replay`` does (so
    an export of a corrected league always imports again)."""
    if create and s.exec(select(League.id).where(League.name == league_name)).first() is None:
        create_league(s, league_name, record_ruleset(record), who=who, exist_ok=True)
    league = get_league(s, league_name)
    lock_league(s, league.id)  # type: ignore[arg-type]
    rules = league_rules(league)
    result = replay(record, rules)
    finished = [(hand, outcome) for hand, outcome in zip(record.hands, result.hands)
                if outcome.status != "in_progress"]
    if len(finished) != len(result.hands):
        open_hand = next(o.index for o in result.hands if o.status == "in_progress")
        raise RecordError(f"hand {open_hand}: the hand is not finished; a league stores only "
                          f"finished hands")
    created = [p for p in record.players if find_player(s, check_name(p)) is None]
    ids = ensure_players(s, record.players)
    # Group hands into sessions: consecutive hands with the same "session" key.
    groups: list[tuple[Any, list[tuple[dict, HandOutcome]]]] = []
    for hand, outcome in finished:
        key = hand.get("session", record.extra.get("session"))
        if not groups or groups[-1][0] != key:
            groups.append((key, []))
        groups[-1][1].append((hand, outcome))
    if session_number is None and not again:
        _refuse_reimport(s, league, groups, record)
    number = (s.exec(select(func.max(Hand.number)).where(Hand.league_id == league.id)).one()
              or 0)
    first_number = number + 1
    session_numbers: list[int] = []
    next_session = (s.exec(select(func.max(LeagueSession.number))
                           .where(LeagueSession.league_id == league.id)).one() or 0)
    pot = _pot_before(s, league.id, None)  # type: ignore[arg-type]
    replay_pot = 0
    hand_rows: list[dict] = []
    member_rows: list[tuple[int, list[dict]]] = []
    inserted = 0
    ended: list[tuple[int, str]] = []
    notes: list[str] = []
    ends = has_session_end(rules)
    for key, hands in groups:
        tally = SessionTally()
        end_hand: Optional[int] = None
        end_reason: Optional[str] = None
        late: list[int] = []
        if session_number is not None:
            target = _session(s, league, session_number, open_only=True)
            present = seating(s, target.id)
            missing = [p for _, o in hands for p in o.players if p not in present]
            if missing:
                raise LeagueError(f"{missing[0]!r} played in the record but is not at session "
                                  f"{session_number}")
            if ends:  # count the hands already stored (a correction never ends a session)
                for _, status, deltas in _session_hands(s, target.id):  # type: ignore[arg-type]
                    tally.add(rules, status, deltas)
        else:
            in_group = {p for _, o in hands for p in o.players}
            present = [p for p in record.players if p in in_group]
            next_session += 1
            target = LeagueSession(league_id=league.id, number=next_session,
                                   day=_parse_day(hands[0][0].get("date",
                                                                  record.extra.get("date")),
                                                  f"hand {hands[0][1].index}: date"),
                                   first_dealer_id=ids.get(hands[0][1].dealer or ""),
                                   ended_at=utc_now())
            s.add(target)
            s.flush()
            for seat, name in enumerate(present):
                s.add(SessionSeat(session_id=target.id, seat=seat, player_id=ids[name]))
        session_numbers.append(target.number)
        for hand, outcome in hands:
            if end_reason is not None:
                if session_number is not None:
                    raise LeagueError(f"hand {outcome.index}: session {target.number} of league "
                                      f"{league.name!r} ended after hand {end_hand} "
                                      f"({end_reason}); store it in a new session")
                late.append(number + 1)
            number += 1
            # The replay's deltas include its own pot (which started empty): take the pot part
            # out to get the hand's score, and settle the league's pot in its place.
            points = dict(outcome.deltas)
            if outcome.status == "deal_miss":
                points = {}
            elif outcome.status == "scored" and replay_pot and outcome.score \
                    and outcome.score.success and outcome.declarer:
                for name, amount in pot_shares(replay_pot, rules, outcome.declarer,
                                               outcome.friend).items():
                    points[name] -= amount
            replay_pot = outcome.pot_after
            move = _settle(rules, pot, outcome)
            pot = move.pot_after
            for name in move.deltas:
                if name not in ids:
                    ids.update(ensure_players(s, [name]))
            columns = _hand_columns(rules, outcome, ids)
            record_toml = None
            if outcome.full:
                import tomli_w

                record_toml = tomli_w.dumps({k: v for k, v in hand.items()
                                             if k not in ("session", "date", "note")})
            hand_rows.append(dict(league_id=league.id, session_id=target.id, number=number,
                                  voided=False, pot_after=pot, record_toml=record_toml,
                                  note=hand.get("note"), created_at=utc_now(), **columns))
            member_rows.append((number, _member_rows(outcome, present, points, move.deltas, ids,
                                                     league.id)))  # type: ignore[arg-type]
            if ends and end_reason is None:
                changes = dict(points)
                for name, amount in move.deltas.items():
                    changes[name] = changes.get(name, 0) + amount
                end_reason = tally.add(rules, outcome.status, changes)
                end_hand = number if end_reason else None
            if len(hand_rows) >= BATCH:  # write as we go: the transaction keeps it atomic
                inserted += len(hand_rows)
                _bulk_insert(s, league.id, hand_rows, member_rows)  # type: ignore[arg-type]
                hand_rows, member_rows = [], []
        if end_reason is not None and session_number is not None:
            target.ended_at = utc_now()
            s.add(target)
            log_change(s, "session end", who, end_reason, league_id=league.id,
                       after={"session": target.number, "after_hand": end_hand,
                              "rule": end_reason})
            ended.append((target.number, end_reason))
        elif late:
            span = (f"hand {late[0]}" if len(late) == 1
                    else f"hands {late[0]}-{late[-1]}")
            notes.append(f"session {target.number} ended by its ruleset after hand {end_hand} "
                         f"({end_reason}); the record plays on: {span} stored as played")
    inserted += len(hand_rows)
    _bulk_insert(s, league.id, hand_rows, member_rows)  # type: ignore[arg-type]
    log_change(s, "import", who, league_id=league.id,
               after={"hands": inserted, "first": first_number, "last": number,
                      "sessions": session_numbers, "players_created": created})
    return Imported(inserted, session_numbers, created, first_number, number, ended, notes)


BATCH = 5000


def _bulk_insert(s: Session, league_id: int, hand_rows: list[dict],
                 member_rows: list[tuple[int, list[dict]]]) -> None:
    """Insert many hands and their player rows with executemany batches (the import path)."""
    if not hand_rows:
        return
    for start in range(0, len(hand_rows), BATCH):
        s.execute(insert(Hand), hand_rows[start:start + BATCH])
    first, last = hand_rows[0]["number"], hand_rows[-1]["number"]
    hand_ids = dict(s.exec(select(Hand.number, Hand.id).where(Hand.league_id == league_id,
                                                              Hand.number >= first,
                                                              Hand.number <= last)).all())
    flat = [dict(member, hand_id=hand_ids[number])
            for number, members in member_rows for member in members]
    for start in range(0, len(flat), BATCH * 5):
        _insert_members(s, flat[start:start + BATCH * 5])


def _insert_members(s: Session, rows: list[dict]) -> None:
    s.execute(insert(HandPlayer), rows)


def save_refereed_hand(s: Session, league_name: str, record_text: str, *,
                       session_number: Optional[int] = None, who: str = "",
                       source: str = "<referee>") -> Imported:
    """Store a refereed hand (a hand record's TOML text, one or more finished hands) in a
    league: into its open session when there is one (or ``session_number``), else as a new
    session. This is what ``mighty referee --league`` calls."""
    record = read_record(record_text, source=source)
    league = get_league(s, league_name)
    if session_number is None:
        open_numbers = s.exec(select(LeagueSession.number)
                              .where(LeagueSession.league_id == league.id,
                                     LeagueSession.ended_at == None)).all()  # noqa: E711
        if len(open_numbers) == 1:
            session_number = open_numbers[0]
    return import_record(s, league_name, record, who=who, session_number=session_number)


def export_record(s: Session, league_name: str) -> Record:
    """The league as a hand record (voided hands left out), ruleset embedded."""
    league = get_league(s, league_name)
    hands = list_hands(s, league_name, include_voided=False)
    players: list[str] = []
    for hand in hands:
        for name in hand.players + hand.sitting_out:
            if name not in players:
                players.append(name)
    return Record(ruleset=league.ruleset_name, players=players,
                  hands=[h.hand_dict() for h in hands],
                  extra={"league": league.name, "ruleset_toml": league.ruleset_toml})


#: What a spreadsheet reads as the start of a formula (OWASP's CSV injection list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cells(row: list) -> list:
    """A CSV row with every text cell a spreadsheet would run as a formula (a player named
    ``=HYPERLINK(...)``) neutralised by a leading apostrophe; numbers stay numbers."""
    return [f"'{cell}" if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell
            for cell in row]


def export_league(s: Session, league_name: str, fmt: str = "toml") -> str:
    """The league's hands as hand-record TOML, CSV (one row per hand) or JSON."""
    if fmt == "toml":
        return dump_record(export_record(s, league_name))
    league = get_league(s, league_name)
    hands = list_hands(s, league_name, include_voided=False)
    table = standings(s, league_name)
    if fmt == "json":
        return json.dumps({"league": league.name, "ruleset": league.ruleset_name,
                           "hands": [h.to_json() for h in hands],
                           "standings": table.to_json()}, ensure_ascii=False, indent=2)
    if fmt == "csv":
        import csv
        import io

        names = [row.stats.name for row in table.rows]
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(csv_cells(["hand", "session", "date", "status", "dealer", "declarer",
                                   "contract", "friend", "friend_call", "taken", "success",
                                   "base", "multiplier", "doublings", "deal_miss", "pot_after",
                                   "players"] + names))
        for h in hands:
            base = h.base if h.base is None or not float(h.base).is_integer() else int(h.base)
            writer.writerow(csv_cells([h.number, h.session, h.day.isoformat(), h.status,
                                       h.dealer, h.declarer, h.contract, h.friend,
                                       h.friend_call, h.taken, h.success, base, h.multiplier,
                                       " ".join(h.doublings), h.deal_miss, h.pot_after,
                                       " ".join(h.players)]
                                      + [h.deltas.get(n, "") for n in names]))
        return out.getvalue()
    raise LeagueError(f"--format {fmt!r}: expected toml, csv or json")
