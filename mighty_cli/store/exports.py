"""Export: a league's hands as a hand record (TOML), JSON or CSV, written as a stream.

Hands are read in chunks of consecutive hand numbers (keyset pages: no ``IN (...)`` list grows
with the league), turned into text one hand at a time and yielded chunk by chunk, so memory
stays flat whatever the league's size. Every format carries what ``mighty import`` needs to
rebuild the league's standings and hand numbers (:mod:`.interchange` reads all three back):
each hand's number, session and date, the five who played, the outcome, the note, and a
refereed hand's full record. Voided hands are left out (a backup keeps them: :mod:`.backup`).
"""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import date
from functools import lru_cache
from typing import Any, Iterator

from sqlmodel import Session, select

from ..engine.record import FORMAT
from . import LeagueError
from .hands import HandView
from .lookups import get_league
from .models import Hand, HandPlayer, League, LeagueSession, Player, SessionSeat
from ..engine.translation import _

#: Hands read per query: big enough to be quick, small enough to keep memory flat.
CHUNK = 2000
FORMATS = ("toml", "json", "csv")
_JSON = json.JSONEncoder(ensure_ascii=False, default=str)

#: The CSV header's fixed columns (then one column per player, in seating order).
CSV_COLUMNS = ("hand", "session", "date", "status", "dealer", "declarer", "contract", "friend",
               "friend call", "taken", "success", "base", "multiplier", "doublings",
               "deal miss", "pot after", "players", "note", "hand record (refereed)")


# --- reading the league in chunks ---------------------------------------------------------------


def league_players(s: Session, league_id: int) -> list[str]:
    """Everyone who played or paid in the league, in seating order: by session, then seat;
    anyone else (a pot payer never seated) after them, by name."""
    names: dict[str, None] = {}
    for name in s.exec(select(Player.name).select_from(SessionSeat)
                      .join(LeagueSession, LeagueSession.id == SessionSeat.session_id)
                      .join(Player, Player.id == SessionSeat.player_id)
                      .where(LeagueSession.league_id == league_id)
                      .order_by(LeagueSession.number, SessionSeat.seat)).all():
        names.setdefault(name)
    others = s.exec(select(Player.name).where(
        Player.id.in_(select(HandPlayer.player_id).where(HandPlayer.league_id == league_id)
                      .distinct())).order_by(Player.name)).all()
    for name in others:
        names.setdefault(name)
    return list(names)


_HAND_COLUMNS = (Hand.id, Hand.number, Hand.session_id, Hand.status, Hand.voided, Hand.dealer_id,
                 Hand.declarer_id, Hand.friend_id, Hand.deal_miss_id, Hand.contract,
                 Hand.friend_call, Hand.taken, Hand.success, Hand.base, Hand.multiplier,
                 Hand.doublings, Hand.pot_after, Hand.full, Hand.record_toml, Hand.note)


def iter_hand_views(s: Session, league: League, *, include_voided: bool = False,
                    chunk: int = 0) -> Iterator[HandView]:
    """The league's hands in order as views, read ``chunk`` (default :data:`CHUNK`) hands at
    a time."""
    chunk = chunk or CHUNK
    # Core queries on the session's connection: rows as tuples, no ORM loading per row.
    connection = s.connection()
    names = dict(connection.execute(select(Player.id, Player.name)).all())
    sessions = {i: (n, d) for i, n, d in connection.execute(
        select(LeagueSession.id, LeagueSession.number, LeagueSession.day)
        .where(LeagueSession.league_id == league.id)).all()}
    after = 0
    while True:
        query = select(*_HAND_COLUMNS).where(Hand.league_id == league.id, Hand.number > after)
        if not include_voided:
            query = query.where(Hand.voided == False)  # noqa: E712
        hands = connection.execute(query.order_by(Hand.number).limit(chunk)).all()
        if not hands:
            return
        first, last = hands[0][1], hands[-1][1]
        members: dict[int, list[tuple]] = {}
        for hand_id, seat, points, pot, player_id in connection.execute(
                select(HandPlayer.hand_id, HandPlayer.seat, HandPlayer.points, HandPlayer.pot,
                       HandPlayer.player_id)
                .join(Hand, Hand.id == HandPlayer.hand_id)
                .where(Hand.league_id == league.id, Hand.number >= first,
                       Hand.number <= last)).all():
            members.setdefault(hand_id, []).append((seat, names[player_id], points + pot))
        for (hand_id, number, session_id, status, voided, dealer, declarer, friend, miss,
             contract, friend_call, taken, success, base, multiplier, doublings, pot_after,
             full, record_toml, note) in hands:
            rows = sorted(members.get(hand_id, ()),
                          key=lambda r: (r[0] is None, r[0] or 0, r[1]))
            session_number, day = sessions[session_id]
            yield HandView(
                number=number, session=session_number, day=day, status=status, voided=voided,
                players=[r[1] for r in rows if r[0] is not None],
                sitting_out=[r[1] for r in rows if r[0] is None],
                dealer=names.get(dealer), declarer=names.get(declarer),
                friend=names.get(friend), friend_call=friend_call, contract=contract,
                taken=taken, success=success, base=base, multiplier=multiplier,
                doublings=[d for d in doublings.split(",") if d], deal_miss=names.get(miss),
                pot_after=pot_after, full=full, note=note,
                deltas={r[1]: r[2] for r in rows}, record_toml=record_toml)
        after = last


def _batched(views: Iterator[HandView], render, size: int = 500) -> Iterator[str]:
    """Text of ``size`` hands at a time (fewer, larger writes)."""
    buffer: list[str] = []
    for view in views:
        buffer.append(render(view))
        if len(buffer) >= size:
            yield "".join(buffer)
            buffer = []
    if buffer:
        yield "".join(buffer)


# --- TOML ---------------------------------------------------------------------------------------


_PLAIN = re.compile(r'[^"\\\x00-\x1f\x7f]*\Z')


@lru_cache(maxsize=4096)  # names, contracts and calls repeat on every hand
def toml_string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's, but DEL must be escaped too)."""
    if _PLAIN.match(text):
        return f'"{text}"'
    quoted = _JSON.encode(text)
    return quoted.replace("\x7f", "\\u007f") if "\x7f" in quoted else quoted


def _toml_value(value: Any) -> str:
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "[" + ", ".join(map(toml_string, value)) + "]"
    raise TypeError(type(value).__name__)


#: The key order of an exported hand (HAND_RECORD.md's, with number, session and date first).
TOML_ORDER = ("number", "session", "date", "players", "dealer", "deal_miss", "declarer",
              "contract", "friend", "friend_call", "taken", "opposition", "note")


def toml_hand(hand: dict) -> str:
    """One ``[[hands]]`` table as TOML text; a refereed hand (nested tables, card lists)
    goes through tomli_w."""
    lines = ["\n[[hands]]\n"]
    try:
        for key in TOML_ORDER:
            if key in hand:
                lines.append(f"{key} = {_toml_value(hand[key])}\n")
        for key, value in hand.items():
            if key not in TOML_ORDER:
                lines.append(f"{key} = {_toml_value(value)}\n")
    except TypeError:
        import tomli_w

        ordered = {k: hand[k] for k in TOML_ORDER if k in hand} | hand
        return "\n" + tomli_w.dumps({"hands": [ordered]}, multiline_strings=False)
    return "".join(lines)


def _export_hand(view: HandView) -> dict:
    return {"number": view.number} | view.hand_dict()


def _toml_header(league: League, players: list[str]) -> str:
    import tomli_w

    return tomli_w.dumps({"format": FORMAT, "ruleset": league.ruleset_name, "players": players,
                          "league": league.name, "ruleset_toml": league.ruleset_toml},
                         multiline_strings=False)


# --- JSON ---------------------------------------------------------------------------------------


def hand_json(view: HandView) -> dict:
    """A hand as JSON: the view's fields (as ``HandView.to_json``) and a refereed hand's
    record."""
    base = view.base
    data = {"number": view.number, "session": view.session, "day": view.day.isoformat(),
            "status": view.status, "voided": view.voided, "players": view.players,
            "sitting_out": view.sitting_out, "dealer": view.dealer, "declarer": view.declarer,
            "friend": view.friend, "friend_call": view.friend_call, "contract": view.contract,
            "taken": view.taken, "success": view.success,
            "base": int(base) if base is not None and float(base).is_integer() else base,
            "multiplier": view.multiplier, "doublings": view.doublings,
            "deal_miss": view.deal_miss, "pot_after": view.pot_after, "full": view.full,
            "note": view.note, "deltas": view.deltas}
    if view.full and view.record_toml:
        import tomllib

        data["record"] = tomllib.loads(view.record_toml)
    return data


_dumps = _JSON.encode


# --- CSV ----------------------------------------------------------------------------------------


#: What a spreadsheet reads as the start of a formula (OWASP's CSV injection list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> str:
    """Every CSV cell is written through here: blank for nothing, whole numbers without
    ``.0``, and text a spreadsheet would run as a formula (a player named ``=HYPERLINK(...)``)
    neutralised by a leading apostrophe (:func:`.formats.csv_value` reads it back); numbers
    stay numbers."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return str(value)


def csv_row(view: HandView, names: list[str]) -> list[str]:
    """One hand as a CSV row: the fixed columns, then each player's points (blank for a
    player who sat the hand out and paid nothing)."""
    playing = set(view.players)
    return [csv_cell(v) for v in (
        view.number, view.session, view.day.isoformat(), view.status, view.dealer,
        view.declarer, view.contract, view.friend, view.friend_call, view.taken, view.success,
        view.base, view.multiplier, " ".join(view.doublings), view.deal_miss, view.pot_after,
        ", ".join(view.players), view.note, view.record_toml if view.full else None)] + [
        csv_cell(view.deltas.get(n) if n in playing or view.deltas.get(n) else None)
        for n in names]


# --- the export ---------------------------------------------------------------------------------


def iter_export(s: Session, league_name: str, fmt: str = "toml", *,
                bom: bool = False) -> Iterator[str]:
    """The league's export as chunks of text (``bom``: start a CSV with a UTF-8 byte-order
    mark, so spreadsheet programs read Hangul right)."""
    if fmt not in FORMATS:
        raise LeagueError(_("--format {fmt!r}: expected toml, csv or json").format(fmt=fmt))
    league = get_league(s, league_name)
    players = league_players(s, league.id)  # type: ignore[arg-type]
    views = iter_hand_views(s, league)
    if fmt == "toml":
        yield _toml_header(league, players)
        yield from _batched(views, lambda v: toml_hand(_export_hand(v)))
    elif fmt == "json":
        from .queries import standings

        yield ("{" + ", ".join(f"{_dumps(k)}: {_dumps(v)}" for k, v in (
            ("format", FORMAT), ("league", league.name), ("ruleset", league.ruleset_name),
            ("players", players), ("ruleset_toml", league.ruleset_toml))) + ",\n \"hands\": [")
        first = True
        for text in _batched(views, lambda v: ",\n  " + _dumps(hand_json(v))):
            yield text[1:] if first else text
            first = False
        yield ("\n ],\n \"standings\": " + _dumps(standings(s, league.name).to_json())
               + "\n}\n")
    else:
        if bom:
            yield "\ufeff"
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow([csv_cell(c) for c in list(CSV_COLUMNS) + players])

        def row(view: HandView) -> str:
            writer.writerow(csv_row(view, players))
            return _drain(out)

        yield _drain(out)
        yield from _batched(views, row)


def _drain(out: io.StringIO) -> str:
    text = out.getvalue()
    out.seek(0)
    out.truncate()
    return text


def export_league(s: Session, league_name: str, fmt: str = "toml",
                  bom: bool = False) -> str:
    """The whole export as one string (for tests and small leagues; the CLI streams)."""
    return "".join(iter_export(s, league_name, fmt, bom=bom))


def write_export(s: Session, league_name: str, fmt: str, out, bom: bool = False) -> int:
    """Write the export to a text stream chunk by chunk; the characters written."""
    written = 0
    for text in iter_export(s, league_name, fmt, bom=bom):
        out.write(text)
        written += len(text)
    return written
