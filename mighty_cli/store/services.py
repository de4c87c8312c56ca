"""League operations: each function works inside the caller's transaction and raises a
:class:`~mighty_cli.store.LeagueError` (or another project error) for bad input, so the caller's
rollback leaves the database exactly as it was.

The CLI opens one transaction per command (:func:`mighty_cli.store.db.transaction`) and calls
one of these. Hands are scored through the hand-record engine (``engine.record``): a recorded
outcome is checked and scored as a one-hand record; an import replays the whole record first.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Iterable, Optional, Sequence

from sqlalchemy import case, delete, func, insert, update
from sqlmodel import Session, select

from ..engine.cards import format_bid
from ..engine.errors import RecordError
from ..engine.record import (HandOutcome, Record, dump_record, read_record, record_ruleset,
                             replay)
from ..engine.ruleset import Ruleset, load_ruleset, ruleset_from_toml
from ..engine.scoring import pot_shares
from ..standings import (PlayerStats, Series, StandingChange, Standings, diff, parse_rank_by,
                         rank, thin)
from . import LeagueError
from .db import lock_league
from ..engine.session import (PreviousHand, Proposal, SessionTally, find_session_end,
                              has_session_end, propose, settle_pot)
from .models import (ChangeLog, Hand, HandPlayer, League, LeagueSession, Player, SessionSeat,
                     utc_now)

RULING_ROLES = ("declarer", "friend")
PLAYING_ROLES = ("declarer", "friend", "opponent")


# --- names and lookups --------------------------------------------------------------------------


def check_name(name: str, what: str = "player name") -> str:
    """A usable name: trimmed, non-empty, short, and without the comma that separates lists."""
    clean = " ".join(str(name).split())
    if not clean:
        raise LeagueError(f"{what} {name!r}: must not be empty")
    if "," in clean:
        raise LeagueError(f"{what} {clean!r}: must not contain a comma (commas separate names "
                          f"in --players)")
    if len(clean) > 100:
        raise LeagueError(f"{what} {clean[:20]!r}...: longer than 100 characters")
    return clean


def get_league(s: Session, name: str) -> League:
    league = s.exec(select(League).where(League.name == name)).first()
    if league is None:
        known = s.exec(select(League.name).order_by(League.name)).all()
        hint = f" (leagues: {', '.join(known)})" if known else " (create one with 'mighty league create')"
        raise LeagueError(f"no league named {name!r}{hint}")
    return league


_RULES_CACHE: dict[tuple[int, str], Ruleset] = {}


def league_rules(league: League) -> Ruleset:
    """The ruleset stored with the league (never the bundled file it was made from)."""
    key = (league.id or 0, league.ruleset_toml)
    if key not in _RULES_CACHE:
        _RULES_CACHE[key] = ruleset_from_toml(league.ruleset_toml,
                                              label=f"league {league.name!r} ruleset").ruleset
    return _RULES_CACHE[key]


def find_player(s: Session, name: str) -> Optional[Player]:
    """The player of that name, following merges to the record that absorbed it."""
    player = s.exec(select(Player).where(Player.name == name)).first()
    seen = set()
    while player is not None and player.merged_into_id is not None and player.id not in seen:
        seen.add(player.id)
        player = s.get(Player, player.merged_into_id)
    return player


def get_player(s: Session, name: str) -> Player:
    player = find_player(s, name)
    if player is None:
        raise LeagueError(f"no player named {name!r} (add one with 'mighty player add')")
    return player


def ensure_players(s: Session, names: Iterable[str]) -> dict[str, int]:
    """Player ids by name, creating the players not yet known."""
    ids: dict[str, int] = {}
    for name in names:
        clean = check_name(name)
        player = find_player(s, clean)
        if player is None:
            player = Player(name=clean)
            s.add(player)
            s.flush()
        ids[name] = player.id  # type: ignore[assignment]
    return ids


def _names(s: Session, ids: Iterable[Optional[int]]) -> dict[int, str]:
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return {}
    rows = s.exec(select(Player.id, Player.name).where(Player.id.in_(wanted))).all()
    return {i: n for i, n in rows}


def log_change(s: Session, action: str, who: str, why: str = "", *, league_id=None,
               hand_id=None, before: Any = None, after: Any = None) -> None:
    """Append to the change log (before/after as JSON text)."""
    dump = (lambda v: None if v is None else json.dumps(v, ensure_ascii=False, default=str))
    s.add(ChangeLog(league_id=league_id, hand_id=hand_id, action=action, who=who, why=why or "",
                    before=dump(before), after=dump(after)))


# --- leagues ------------------------------------------------------------------------------------


def ruleset_toml_text(rules: Ruleset) -> str:
    """The ruleset's every option as TOML: nothing inherited from a file that may change."""
    import tomli_w

    return tomli_w.dumps(rules.to_dict())


def create_league(s: Session, name: str, ruleset: str | Ruleset, *, min_hands: int = 0,
                  rank_by: str | None = None, who: str = "") -> League:
    name = check_name(name, "league name")
    if s.exec(select(League.id).where(League.name == name)).first() is not None:
        raise LeagueError(f"league {name!r} already exists")
    rules = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)
    text = ruleset_toml_text(rules)
    ruleset_from_toml(text, label=f"league {name!r} ruleset")  # it must load back
    if min_hands < 0:
        raise LeagueError(f"--min-hands {min_hands}: must be 0 or more")
    order = ",".join(parse_rank_by(rank_by)) if rank_by else None
    league = League(name=name, ruleset_name=rules.name, ruleset_toml=text, min_hands=min_hands,
                    **({"rank_by": order} if order else {}))
    s.add(league)
    s.flush()
    log_change(s, "league create", who, league_id=league.id,
               after={"name": name, "ruleset": rules.name, "min_hands": min_hands,
                      "rank_by": league.rank_by})
    return league


def configure_league(s: Session, name: str, *, min_hands: int | None = None,
                     rank_by: str | None = None, who: str = "", why: str = "") -> League:
    """Change a league's ranking rules (its ruleset never changes: results stay comparable)."""
    league = get_league(s, name)
    before = {"min_hands": league.min_hands, "rank_by": league.rank_by}
    if min_hands is not None:
        if min_hands < 0:
            raise LeagueError(f"--min-hands {min_hands}: must be 0 or more")
        league.min_hands = min_hands
    if rank_by is not None:
        league.rank_by = ",".join(parse_rank_by(rank_by))
    s.add(league)
    log_change(s, "league set", who, why, league_id=league.id, before=before,
               after={"min_hands": league.min_hands, "rank_by": league.rank_by})
    return league


@dataclass
class LeagueSummary:
    name: str
    ruleset: str
    players: int
    sessions: int
    hands: int
    open_sessions: list[int]
    min_hands: int
    rank_by: str
    created_at: datetime

    def to_json(self) -> dict:
        return dataclasses.asdict(self) | {"created_at": self.created_at.isoformat()}


def league_summaries(s: Session, name: str | None = None) -> list[LeagueSummary]:
    leagues = [get_league(s, name)] if name else s.exec(select(League).order_by(League.name)).all()
    out = []
    for league in leagues:
        hands = s.exec(select(func.count(Hand.id)).where(Hand.league_id == league.id,
                                                         Hand.voided == False)).one()  # noqa: E712
        players = s.exec(select(func.count(func.distinct(HandPlayer.player_id)))
                         .where(HandPlayer.league_id == league.id)).one()
        sessions = s.exec(select(LeagueSession.number, LeagueSession.ended_at)
                          .where(LeagueSession.league_id == league.id)).all()
        out.append(LeagueSummary(league.name, league.ruleset_name, players, len(sessions), hands,
                                 sorted(n for n, ended in sessions if ended is None),
                                 league.min_hands, league.rank_by, league.created_at))
    return out


# --- players ------------------------------------------------------------------------------------


def add_player(s: Session, name: str, who: str = "") -> Player:
    name = check_name(name)
    if s.exec(select(Player.id).where(Player.name == name)).first() is not None:
        raise LeagueError(f"player {name!r} already exists")
    player = Player(name=name)
    s.add(player)
    s.flush()
    log_change(s, "player add", who, after={"name": name})
    return player


def rename_player(s: Session, old: str, new: str, who: str = "", why: str = "") -> Player:
    player = get_player(s, old)
    new = check_name(new)
    if s.exec(select(Player.id).where(Player.name == new)).first() is not None:
        raise LeagueError(f"cannot rename {old!r} to {new!r}: that name is taken (to join two "
                          f"records of one person use 'mighty player merge')")
    before = player.name
    player.name = new
    s.add(player)
    log_change(s, "player rename", who, why, before={"name": before}, after={"name": new})
    return player


def merge_players(s: Session, duplicate: str, keep: str, who: str = "", why: str = "") -> Player:
    """Make two records of one person one: every hand and seat of ``duplicate`` moves to
    ``keep``; the duplicate's name stays as an alias that resolves to ``keep``."""
    source, target = get_player(s, duplicate), get_player(s, keep)
    if source.id == target.id:
        raise LeagueError(f"{duplicate!r} and {keep!r} are already the same player")
    both = (select(HandPlayer.hand_id).where(HandPlayer.player_id == source.id)
            .intersect(select(HandPlayer.hand_id).where(HandPlayer.player_id == target.id)))
    clash = s.exec(select(Hand.number, League.name).join(League, League.id == Hand.league_id)
                   .where(Hand.id.in_(both))).first()
    if clash:
        raise LeagueError(f"cannot merge {duplicate!r} into {keep!r}: both played hand "
                          f"{clash[0]} of league {clash[1]!r}, so they are two people")
    seats = (select(SessionSeat.session_id).where(SessionSeat.player_id == source.id)
             .intersect(select(SessionSeat.session_id).where(SessionSeat.player_id == target.id)))
    if s.exec(select(func.count()).select_from(seats.subquery())).one():
        raise LeagueError(f"cannot merge {duplicate!r} into {keep!r}: both sat at the same "
                          f"session, so they are two people")
    counts = s.exec(select(func.count()).where(HandPlayer.player_id == source.id)).one()
    for column in (Hand.dealer_id, Hand.declarer_id, Hand.friend_id, Hand.deal_miss_id):
        s.exec(update(Hand).where(column == source.id).values({column.key: target.id}))
    s.exec(update(HandPlayer).where(HandPlayer.player_id == source.id)
           .values(player_id=target.id))
    s.exec(update(SessionSeat).where(SessionSeat.player_id == source.id)
           .values(player_id=target.id))
    s.exec(update(LeagueSession).where(LeagueSession.first_dealer_id == source.id)
           .values(first_dealer_id=target.id))
    s.exec(update(Player).where(Player.merged_into_id == source.id)
           .values(merged_into_id=target.id))
    source.merged_into_id = target.id
    s.add(source)
    log_change(s, "player merge", who, why,
               before={"players": [source.name, target.name]},
               after={"player": target.name, "alias": source.name, "hands_moved": counts})
    return target


def list_players(s: Session) -> list[tuple[str, Optional[str]]]:
    """Every player name, with the name it was merged into (None for a live record)."""
    rows = s.exec(select(Player).order_by(Player.name)).all()
    names = {p.id: p.name for p in rows}
    return [(p.name, names.get(p.merged_into_id) if p.merged_into_id else None) for p in rows]


# --- sessions -----------------------------------------------------------------------------------


def _session(s: Session, league: League, number: Optional[int], *, open_only: bool) -> LeagueSession:
    query = select(LeagueSession).where(LeagueSession.league_id == league.id)
    if number is not None:
        found = s.exec(query.where(LeagueSession.number == number)).first()
        if found is None:
            raise LeagueError(f"league {league.name!r} has no session {number}")
        if open_only and found.ended_at is not None:
            rule = ended_by_rule(s, league.id, number)  # type: ignore[arg-type]
            raise LeagueError(f"session {number} of league {league.name!r} has ended"
                              + (f" by its ruleset ({rule})" if rule else "")
                              + f"; start a new one with 'mighty session start --league "
                              f"{league.name} --players ...'")
        return found
    open_sessions = s.exec(query.where(LeagueSession.ended_at == None)  # noqa: E711
                           .order_by(LeagueSession.number)).all()
    if not open_sessions:
        last = s.exec(select(func.max(LeagueSession.number))
                      .where(LeagueSession.league_id == league.id)).one()
        rule = ended_by_rule(s, league.id, last) if last else None  # type: ignore[arg-type]
        raise LeagueError(f"league {league.name!r} has no open session"
                          + (f" (session {last} ended by its ruleset: {rule})" if rule else "")
                          + f"; start one with 'mighty session start --league {league.name} "
                          f"--players ...'")
    if len(open_sessions) > 1:
        numbers = ", ".join(str(x.number) for x in open_sessions)
        raise LeagueError(f"league {league.name!r} has {len(open_sessions)} open sessions "
                          f"({numbers}): say which with --session")
    return open_sessions[0]


def seating(s: Session, session_id: int) -> list[str]:
    rows = s.exec(select(Player.name).join(SessionSeat, SessionSeat.player_id == Player.id)
                  .where(SessionSeat.session_id == session_id).order_by(SessionSeat.seat)).all()
    return list(rows)


def _parse_day(value: Any, what: str = "date") -> date:
    if value is None:
        return date.today()
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise LeagueError(f"{what} {value!r}: expected YYYY-MM-DD") from None


def start_session(s: Session, league_name: str, players: Sequence[str], *,
                  day: Any = None, first_dealer: Optional[str] = None,
                  who: str = "") -> tuple[LeagueSession, Proposal]:
    league = get_league(s, league_name)
    lock_league(s, league.id)  # type: ignore[arg-type]
    names = [check_name(p) for p in players]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise LeagueError(f"--players: {twice!r} is listed twice")
    if not 5 <= len(names) <= 7:
        raise LeagueError(f"--players: {len(names)} players; a Mighty session has five present, "
                          f"or six or seven taking turns to sit out (RULES.md §9)")
    if first_dealer is not None and first_dealer not in names:
        raise LeagueError(f"--dealer {first_dealer!r} is not one of the players present")
    ids = ensure_players(s, names)
    number = (s.exec(select(func.max(LeagueSession.number))
                     .where(LeagueSession.league_id == league.id)).one() or 0) + 1
    session = LeagueSession(league_id=league.id, number=number, day=_parse_day(day),
                            first_dealer_id=ids[first_dealer] if first_dealer else None)
    s.add(session)
    s.flush()
    for seat, name in enumerate(names):
        s.add(SessionSeat(session_id=session.id, seat=seat, player_id=ids[name]))
    log_change(s, "session start", who, league_id=league.id,
               after={"session": number, "players": names, "date": session.day.isoformat()})
    s.flush()
    return session, propose(league_rules(league), names, None, first_dealer)


def end_session(s: Session, league_name: str, number: Optional[int] = None,
                who: str = "") -> LeagueSession:
    league = get_league(s, league_name)
    session = _session(s, league, number, open_only=True)
    session.ended_at = utc_now()
    s.add(session)
    log_change(s, "session end", who, league_id=league.id, after={"session": session.number})
    return session


def ended_by_rule(s: Session, league_id: int, number: int) -> Optional[str]:
    """Why the ruleset ended session ``number`` (None: it is open, or the table ended it). The
    reason is kept in the change log's "session end" entry, so the tables need no column."""
    rows = s.exec(select(ChangeLog.after).where(ChangeLog.league_id == league_id,
                                                ChangeLog.action == "session end")
                  .order_by(ChangeLog.id.desc())).all()
    for after in rows:
        data = json.loads(after or "{}")
        if data.get("session") == number:
            return data.get("rule")
    return None


def _session_hands(s: Session, session_id: int) -> list[tuple[int, str, dict[str, int]]]:
    """The session's live hands in order: number, status and every player's change (deposit
    pot included)."""
    rows = s.exec(select(Hand.number, Hand.status, Player.name,
                         HandPlayer.points + HandPlayer.pot)
                  .join(HandPlayer, HandPlayer.hand_id == Hand.id)
                  .join(Player, Player.id == HandPlayer.player_id)
                  .where(Hand.session_id == session_id, Hand.voided == False)  # noqa: E712
                  .order_by(Hand.number)).all()
    hands: list[tuple[int, str, dict[str, int]]] = []
    for number, status, name, delta in rows:
        if not hands or hands[-1][0] != number:
            hands.append((number, status, {}))
        hands[-1][2][name] = int(delta or 0)
    return hands


@dataclass
class SessionVerdict:
    """What the ruleset says of a session by its stored hands: the hand after which it is
    over and why (None while it goes on), the hands so far, and the lowest stack."""

    end_hand: Optional[int]
    reason: Optional[str]
    numbers: list[int]
    hands_played: int
    lowest: Optional[tuple[str, int]] = None


def session_verdict(s: Session, rules: Ruleset, session_id: int) -> SessionVerdict:
    """Walk the session's live hands through ``session.hands_per_session`` and
    ``session.starting_points`` (engine.session.find_session_end)."""
    hands = _session_hands(s, session_id)
    end = find_session_end(rules, [(status, deltas) for _, status, deltas in hands])
    tally = SessionTally()
    for _, status, deltas in hands:
        tally.add(rules, status, deltas)
    lowest = None
    if rules.session.starting_points and tally.totals:
        name = min(sorted(tally.totals), key=tally.totals.__getitem__)
        lowest = (name, rules.session.starting_points + tally.totals[name])
    return SessionVerdict(hands[end.position][0] if end else None, end.reason if end else None,
                          [number for number, _, _ in hands], tally.hands_played, lowest)


def _end_if_over(s: Session, league: League, rules: Ruleset, session: LeagueSession,
                 who: str) -> Optional[str]:
    """End an open session its ruleset says is over (after a hand was stored); the reason."""
    if not has_session_end(rules) or session.ended_at is not None:
        return None
    verdict = session_verdict(s, rules, session.id)  # type: ignore[arg-type]
    if verdict.reason is None:
        return None
    session.ended_at = utc_now()
    s.add(session)
    log_change(s, "session end", who, verdict.reason, league_id=league.id,
               after={"session": session.number, "after_hand": verdict.numbers[-1],
                      "rule": verdict.reason})
    return verdict.reason


def session_note(s: Session, league: League, rules: Ruleset,
                 session: LeagueSession) -> Optional[str]:
    """What to tell the table when the session's stored state and its rules disagree, which
    only a correction can cause: corrections (amend, void, unvoid) recompute standings but
    never end or reopen a session. An open session found complete ends when its next hand is
    stored; an ended one stays ended."""
    if not has_session_end(rules):
        return None
    verdict = session_verdict(s, rules, session.id)  # type: ignore[arg-type]
    number = session.number
    if session.ended_at is None:
        if verdict.reason:
            return (f"by its hands as corrected, session {number} was complete after hand "
                    f"{verdict.end_hand} ({verdict.reason}); corrections never end a session: "
                    f"it ends when its next hand is stored, or with 'mighty session end'")
        return None
    if verdict.reason is None:
        if ended_by_rule(s, league.id, number):  # type: ignore[arg-type]
            return (f"by its hands as corrected, session {number} would not have ended yet; "
                    f"corrections never reopen a session: play on in a new session")
        return None
    if verdict.end_hand != verdict.numbers[-1]:
        later = verdict.numbers[verdict.numbers.index(verdict.end_hand) + 1:]  # type: ignore
        span = f"hand {later[0]}" if len(later) == 1 else f"hands {later[0]}-{later[-1]}"
        return (f"by its hands as corrected, session {number} ended after hand "
                f"{verdict.end_hand} ({verdict.reason}); {span} stay: corrections never end "
                f"or reopen a session")
    return None


@dataclass
class SessionEndInfo:
    """For ``session show``: why the session ended, how far it is from its end, any note."""

    ended_by: Optional[str]
    progress: Optional[str]
    note: Optional[str]


def session_end_info(s: Session, league_name: str, number: Optional[int] = None) -> SessionEndInfo:
    league = get_league(s, league_name)
    session = _session(s, league, number, open_only=False)
    rules = league_rules(league)
    if not has_session_end(rules):
        return SessionEndInfo(None, None, None)
    verdict = session_verdict(s, rules, session.id)  # type: ignore[arg-type]
    parts = []
    if rules.session.hands_per_session:
        parts.append(f"{verdict.hands_played} of {rules.session.hands_per_session} hands played")
    if rules.session.starting_points:
        low = (f"lowest {verdict.lowest[0]} at {verdict.lowest[1]}" if verdict.lowest
               else "no hands yet")
        parts.append(f"stacks of {rules.session.starting_points}, {low}")
    return SessionEndInfo(ended_by_rule(s, league.id, session.number),  # type: ignore[arg-type]
                          "; ".join(parts), session_note(s, league, rules, session))


def _previous_in_session(s: Session, session_id: int,
                         before_number: Optional[int] = None) -> Optional[PreviousHand]:
    query = select(Hand).where(Hand.session_id == session_id, Hand.voided == False)  # noqa: E712
    if before_number is not None:
        query = query.where(Hand.number < before_number)
    hand = s.exec(query.order_by(Hand.number.desc()).limit(1)).first()
    if hand is None:
        return None
    names = _names(s, [hand.dealer_id, hand.declarer_id, hand.friend_id, hand.deal_miss_id])
    five = s.exec(select(Player.name).join(HandPlayer, HandPlayer.player_id == Player.id)
                  .where(HandPlayer.hand_id == hand.id, HandPlayer.seat != None)  # noqa: E711
                  .order_by(HandPlayer.seat)).all()
    return PreviousHand(hand.status, tuple(five), names.get(hand.dealer_id),
                        names.get(hand.declarer_id), names.get(hand.friend_id), hand.success,
                        names.get(hand.deal_miss_id))


def session_proposal(s: Session, league_name: str,
                     number: Optional[int] = None) -> tuple[LeagueSession, Proposal, int]:
    """The open session, who should deal, open and sit out next, and the deposit pot."""
    league = get_league(s, league_name)
    session = _session(s, league, number, open_only=False)
    names = _names(s, [session.first_dealer_id])
    proposal = propose(league_rules(league), seating(s, session.id),
                       _previous_in_session(s, session.id), names.get(session.first_dealer_id))
    return session, proposal, _pot_before(s, league.id, None)


# --- hands --------------------------------------------------------------------------------------


@dataclass
class HandView:
    """A stored hand, with names, for printing and export."""

    number: int
    session: int
    day: date
    status: str
    voided: bool
    players: list[str]
    sitting_out: list[str]
    dealer: Optional[str]
    declarer: Optional[str]
    friend: Optional[str]
    friend_call: Optional[str]
    contract: Optional[str]
    taken: Optional[int]
    success: Optional[bool]
    base: Optional[float]
    multiplier: Optional[int]
    doublings: list[str]
    deal_miss: Optional[str]
    pot_after: int
    full: bool
    note: Optional[str]
    deltas: dict[str, int] = field(default_factory=dict)
    record_toml: Optional[str] = None

    def to_json(self) -> dict:
        data = dataclasses.asdict(self)
        data["day"] = self.day.isoformat()
        data.pop("record_toml")
        if self.base is not None and float(self.base).is_integer():
            data["base"] = int(self.base)
        return data

    def hand_dict(self) -> dict:
        """The hand as a hand-record table (HAND_RECORD.md), with this project's extra keys."""
        if self.full and self.record_toml:
            hand = _toml_loads(self.record_toml)
        elif self.status == "deal_miss":
            hand = {"dealer": self.dealer, "deal_miss": self.deal_miss}
        else:
            hand = {"dealer": self.dealer, "declarer": self.declarer, "contract": self.contract,
                    "friend": self.friend or "none", "friend_call": self.friend_call,
                    "taken": self.taken}
        hand = {"session": self.session, "date": self.day, "players": self.players} | hand
        if self.note:
            hand["note"] = self.note
        return {k: v for k, v in hand.items() if v is not None}


def _toml_loads(text: str) -> dict:
    import tomllib

    return tomllib.loads(text)


def _hand_views(s: Session, league: League, hands: Sequence[Hand]) -> list[HandView]:
    if not hands:
        return []
    ids = [h.id for h in hands]
    rows = s.exec(select(HandPlayer.hand_id, HandPlayer.seat, HandPlayer.points, HandPlayer.pot,
                         Player.name).join(Player, Player.id == HandPlayer.player_id)
                  .where(HandPlayer.hand_id.in_(ids))).all()
    per_hand: dict[int, list] = {}
    for row in rows:
        per_hand.setdefault(row[0], []).append(row)
    sessions = dict(s.exec(select(LeagueSession.id, LeagueSession.number)
                           .where(LeagueSession.league_id == league.id)).all())
    days = dict(s.exec(select(LeagueSession.id, LeagueSession.day)
                       .where(LeagueSession.league_id == league.id)).all())
    names = _names(s, [i for h in hands for i in (h.dealer_id, h.declarer_id, h.friend_id,
                                                   h.deal_miss_id)])
    views = []
    for hand in hands:
        members = sorted(per_hand.get(hand.id, []), key=lambda r: (r[1] is None, r[1] or 0, r[4]))
        views.append(HandView(
            number=hand.number, session=sessions[hand.session_id], day=days[hand.session_id],
            status=hand.status, voided=hand.voided,
            players=[r[4] for r in members if r[1] is not None],
            sitting_out=[r[4] for r in members if r[1] is None],
            dealer=names.get(hand.dealer_id), declarer=names.get(hand.declarer_id),
            friend=names.get(hand.friend_id), friend_call=hand.friend_call,
            contract=hand.contract, taken=hand.taken, success=hand.success, base=hand.base,
            multiplier=hand.multiplier, doublings=[d for d in hand.doublings.split(",") if d],
            deal_miss=names.get(hand.deal_miss_id), pot_after=hand.pot_after, full=hand.full,
            note=hand.note, deltas={r[4]: r[2] + r[3] for r in members},
            record_toml=hand.record_toml))
    return views


def _hand(s: Session, league: League, number: int) -> Hand:
    hand = s.exec(select(Hand).where(Hand.league_id == league.id, Hand.number == number)).first()
    if hand is None:
        raise LeagueError(f"league {league.name!r} has no hand {number}")
    return hand


def list_hands(s: Session, league_name: str, *, session_number: Optional[int] = None,
               include_voided: bool = True, last: Optional[int] = None) -> list[HandView]:
    league = get_league(s, league_name)
    query = select(Hand).where(Hand.league_id == league.id)
    if session_number is not None:
        query = query.where(Hand.session_id == _session(s, league, session_number,
                                                        open_only=False).id)
    if not include_voided:
        query = query.where(Hand.voided == False)  # noqa: E712
    if last:
        hands = list(reversed(s.exec(query.order_by(Hand.number.desc()).limit(last)).all()))
    else:
        hands = s.exec(query.order_by(Hand.number)).all()
    return _hand_views(s, league, hands)


def show_hand(s: Session, league_name: str, number: int) -> HandView:
    league = get_league(s, league_name)
    return _hand_views(s, league, [_hand(s, league, number)])[0]


def evaluate_hand(rules: Ruleset, five: Sequence[str], hand: dict, index: int = 1) -> HandOutcome:
    """Check and score one recorded hand (or deal miss) among the five who played it, as a
    one-hand record, without the deposit pot (the league settles the pot in order)."""
    table = {k: v for k, v in hand.items()
             if k not in ("players", "dealer", "session", "date", "note") and v is not None}
    record = Record(ruleset=rules.name, players=list(five), hands=[table])
    try:
        outcome = replay(record, rules).hands[0]
    except RecordError as exc:
        message = str(exc)
        prefix = "hand 1"
        if message.startswith(prefix):
            message = f"hand {index}" + message[len(prefix):]
        raise RecordError(message) from None
    if outcome.status == "in_progress":
        raise RecordError(f"hand {index}: the hand is not finished")
    if outcome.status != "scored":
        # The one-hand replay paid a deal miss into its own pot; the league settles the pot.
        outcome.deltas = {name: 0 for name in outcome.deltas}
    return outcome


def _run_flags(rules: Ruleset, outcome: HandOutcome) -> tuple[bool, bool]:
    if outcome.status != "scored" or outcome.taken is None or outcome.contract is None:
        return False, False
    total = rules.point_card_total
    threshold = rules.scoring.back_run.threshold
    threshold = outcome.contract.number if threshold == "bid" else threshold
    return outcome.taken == total, total - outcome.taken >= threshold


def _pot_before(s: Session, league_id: int, number: Optional[int]) -> int:
    """The deposit pot before hand ``number`` (after the last hand when None)."""
    query = select(Hand.pot_after).where(Hand.league_id == league_id,
                                         Hand.voided == False)  # noqa: E712
    if number is not None:
        query = query.where(Hand.number < number)
    value = s.exec(query.order_by(Hand.number.desc()).limit(1)).first()
    return value or 0


def _role(outcome: HandOutcome, name: str) -> str:
    if outcome.status != "scored":
        return "player"
    if name == outcome.declarer:
        return "declarer"
    return "friend" if name == outcome.friend else "opponent"


def _hand_columns(rules: Ruleset, outcome: HandOutcome, ids: dict[str, int]) -> dict:
    run, back_run = _run_flags(rules, outcome)
    score = outcome.score
    return dict(
        status=outcome.status,
        dealer_id=ids.get(outcome.dealer) if outcome.dealer else None,
        declarer_id=ids.get(outcome.declarer) if outcome.declarer else None,
        friend_id=ids.get(outcome.friend) if outcome.friend else None,
        deal_miss_id=ids.get(outcome.deal_miss_player) if outcome.deal_miss_player else None,
        contract=format_bid(outcome.contract) if outcome.contract else None,
        friend_call=outcome.friend_call, taken=outcome.taken,
        success=score.success if score else None,
        base=float(score.base) if score else None,
        multiplier=score.multiplier if score else None,
        doublings=",".join(score.doublings) if score else "", run=run, back_run=back_run,
        full=outcome.full)


def _member_rows(outcome: HandOutcome, present: Sequence[str], points: dict[str, int],
                 pot: dict[str, int], ids: dict[str, int], league_id: int) -> list[dict]:
    rows = []
    for name in list(outcome.players) + [p for p in present if p not in outcome.players]:
        playing = name in outcome.players
        rows.append(dict(player_id=ids[name], league_id=league_id,
                         seat=outcome.players.index(name) if playing else None,
                         role=_role(outcome, name) if playing else "out",
                         points=points.get(name, 0), pot=pot.get(name, 0)))
    for name, amount in pot.items():  # a pot payer who is not at the table at all
        if name not in outcome.players and name not in present:
            rows.append(dict(player_id=ids[name], league_id=league_id, seat=None, role="out",
                             points=0, pot=amount))
    return rows


def _settle(rules: Ruleset, pot: int, outcome: HandOutcome):
    return settle_pot(rules, pot, outcome.status, dealer=outcome.dealer,
                      deal_miss=outcome.deal_miss_player, declarer=outcome.declarer,
                      friend=outcome.friend,
                      success=outcome.score.success if outcome.score else None)


@dataclass
class Recorded:
    """A hand just stored, and the proposal for the next one (or why the session ended)."""

    hand: HandView
    proposal: Proposal
    pot: int
    session_ended: Optional[str] = None


def record_hand(s: Session, league_name: str, *, session_number: Optional[int] = None,
                declarer: Optional[str] = None, contract: Optional[str] = None,
                friend: Optional[str] = None, friend_call: Optional[str] = None,
                taken: Optional[int] = None, opposition: Optional[int] = None,
                deal_miss: Optional[str] = None, dealer: Optional[str] = None,
                players: Optional[Sequence[str]] = None, note: Optional[str] = None,
                who: str = "") -> Recorded:
    """Validate, score and store one hand's outcome in the league's open session; end the
    session when its ruleset says it is over (``session.hands_per_session``,
    ``session.starting_points``). An ended session takes no more hands."""
    league = get_league(s, league_name)
    lock_league(s, league.id)  # type: ignore[arg-type]
    session = _session(s, league, session_number, open_only=True)
    rules = league_rules(league)
    present = seating(s, session.id)
    previous = _previous_in_session(s, session.id)
    first = _names(s, [session.first_dealer_id]).get(session.first_dealer_id)
    proposal = propose(rules, present, previous, first)
    five = _check_five(players, present, proposal)
    dealer = dealer or proposal.dealer
    if dealer not in present:
        raise LeagueError(f"--dealer {dealer!r} is not at session {session.number} "
                          f"({', '.join(present)})")
    hand = _outcome_dict(declarer=declarer, contract=contract, friend=friend,
                         friend_call=friend_call, taken=taken, opposition=opposition,
                         deal_miss=deal_miss)
    number = (s.exec(select(func.max(Hand.number)).where(Hand.league_id == league.id)).one()
              or 0) + 1
    outcome = evaluate_hand(rules, five, hand, number)
    outcome.dealer = dealer
    pot = _pot_before(s, league.id, None)  # type: ignore[arg-type]
    move = _settle(rules, pot, outcome)
    ids = ensure_players(s, present)
    row = Hand(league_id=league.id, session_id=session.id, number=number, note=note,
               pot_after=move.pot_after, **_hand_columns(rules, outcome, ids))
    s.add(row)
    s.flush()
    for member in _member_rows(outcome, present, outcome.deltas, move.deltas, ids,
                               league.id):  # type: ignore[arg-type]
        s.add(HandPlayer(hand_id=row.id, **member))
    s.flush()
    view = _hand_views(s, league, [row])[0]
    log_change(s, "hand record", who, league_id=league.id, hand_id=row.id,
               after=view.to_json())
    next_proposal = propose(rules, present, _previous_in_session(s, session.id), first)
    ended = _end_if_over(s, league, rules, session, who)
    return Recorded(view, next_proposal, move.pot_after, ended)


def _check_five(players: Optional[Sequence[str]], present: Sequence[str],
                proposal: Proposal) -> list[str]:
    if players is None:
        return list(proposal.players)
    five = [check_name(p) for p in players]
    if len(five) != 5 or len(set(five)) != 5:
        raise LeagueError(f"--players: expected the five who played this hand, got {len(five)}"
                          f"{' (a name twice)' if len(set(five)) != len(five) else ''}")
    absent = [p for p in five if p not in present]
    if absent:
        raise LeagueError(f"--players: {absent[0]!r} is not at this session "
                          f"({', '.join(present)})")
    return sorted(five, key=list(present).index)


def _outcome_dict(*, declarer, contract, friend, friend_call, taken, opposition,
                  deal_miss) -> dict:
    if deal_miss is not None:
        given = [k for k, v in (("declarer", declarer), ("contract", contract),
                                ("taken", taken), ("opposition", opposition)) if v is not None]
        if given:
            raise LeagueError(f"a deal miss has no {given[0]}: the hand was redealt")
        return {"deal_miss": deal_miss}
    missing = [k for k, v in (("declarer", declarer), ("contract", contract),
                              ("friend", friend)) if v is None]
    if missing:
        raise LeagueError(f"missing {missing[0]}: give the declarer, contract, friend and the "
                          f"points taken, or --deal-miss PLAYER")
    hand: dict[str, Any] = {"declarer": declarer, "contract": contract, "friend": friend}
    if friend_call:
        hand["friend_call"] = friend_call
    if taken is not None:
        hand["taken"] = taken
    if opposition is not None:
        hand["opposition"] = opposition
    return hand


# --- corrections --------------------------------------------------------------------------------


@dataclass
class Correction:
    """A hand amended, voided or restored, how the standings moved, and a note when the
    session's end rules now disagree with whether it ended (see :func:`session_note`)."""

    before: HandView
    after: HandView
    changes: list[StandingChange]
    hands_resettled: int
    session_note: Optional[str] = None


def _correction(s: Session, league: League, rules: Ruleset, hand: Hand, before: HandView,
                before_table: Standings, resettled: int) -> Correction:
    after = _hand_views(s, league, [hand])[0]
    session = s.get(LeagueSession, hand.session_id)
    return Correction(before, after, diff(before_table, standings(s, league.name)), resettled,
                      session_note(s, league, rules, session))  # type: ignore[arg-type]


def _hand_to_correct(s: Session, league_name: str, number: int) -> tuple[League, Ruleset, Hand]:
    """A league (locked against concurrent corrections), its rules, and one of its hands."""
    league = get_league(s, league_name)
    lock_league(s, league.id)  # type: ignore[arg-type]
    return league, league_rules(league), _hand(s, league, number)


def amend_hand(s: Session, league_name: str, number: int, *, who: str, why: str,
               **changes: Any) -> Correction:
    """Change an earlier hand's outcome; every later hand's pot is settled again, all in the
    caller's one transaction, and the change is logged."""
    league, rules, hand = _hand_to_correct(s, league_name, number)
    if hand.voided:
        raise LeagueError(f"hand {number} is void; it cannot be amended")
    before_view = _hand_views(s, league, [hand])[0]
    if hand.full:
        raise LeagueError(f"hand {number} was refereed card by card; void it and import or "
                          f"referee it again instead of amending its outcome")
    given = {k: v for k, v in changes.items() if v is not None}
    if not given:
        raise LeagueError("nothing to amend: give at least one of --declarer, --contract, "
                          "--friend, --taken/--opposition, --deal-miss, --dealer, --players, "
                          "--note")
    before_table = standings(s, league_name)
    present = seating(s, hand.session_id)
    five = _check_five(given.get("players"), present,
                       Proposal("", "", tuple(before_view.players), ()))
    dealer = given.get("dealer", before_view.dealer)
    if dealer not in present:
        raise LeagueError(f"--dealer {dealer!r} is not at session {before_view.session}")
    merged = {"declarer": before_view.declarer, "contract": before_view.contract,
              "friend": before_view.friend or ("none" if before_view.declarer else None),
              "friend_call": before_view.friend_call, "taken": before_view.taken,
              "opposition": None, "deal_miss": before_view.deal_miss}
    if "deal_miss" in given:
        merged = dict.fromkeys(merged) | {"deal_miss": given["deal_miss"]}
    elif any(k in given for k in ("declarer", "contract", "friend", "taken", "opposition")):
        merged["deal_miss"] = None
    for key in ("declarer", "contract", "friend", "friend_call", "taken", "opposition"):
        if key in given:
            merged[key] = given[key]
    if "opposition" in given:
        merged["taken"] = None
    outcome = evaluate_hand(rules, five, _outcome_dict(**merged), number)
    outcome.dealer = dealer
    pot = _pot_before(s, league.id, number)  # type: ignore[arg-type]
    move = _settle(rules, pot, outcome)
    old_pot_after = hand.pot_after
    ids = ensure_players(s, present + [p for p in move.deltas if p not in present])
    for key, value in _hand_columns(rules, outcome, ids).items():
        setattr(hand, key, value)
    hand.pot_after = move.pot_after
    if "note" in given:
        hand.note = given["note"]
    s.add(hand)
    s.exec(delete(HandPlayer).where(HandPlayer.hand_id == hand.id))
    for member in _member_rows(outcome, present, outcome.deltas, move.deltas, ids,
                               league.id):  # type: ignore[arg-type]
        s.add(HandPlayer(hand_id=hand.id, **member))
    s.flush()
    resettled = _resettle(s, league, rules, number + 1, move.pot_after, old_pot_after)
    correction = _correction(s, league, rules, hand, before_view, before_table, resettled)
    log_change(s, "hand amend", who, why, league_id=league.id, hand_id=hand.id,
               before=before_view.to_json(), after=correction.after.to_json())
    return correction


def void_hand(s: Session, league_name: str, number: int, *, who: str, why: str) -> Correction:
    """Strike a hand from the league (it stays in the log); later pots are settled again."""
    league, rules, hand = _hand_to_correct(s, league_name, number)
    if hand.voided:
        raise LeagueError(f"hand {number} is already void")
    before_view = _hand_views(s, league, [hand])[0]
    before_table = standings(s, league_name)
    pot = _pot_before(s, league.id, number)  # type: ignore[arg-type]
    hand.voided = True
    s.add(hand)
    s.flush()
    resettled = _resettle(s, league, rules, number + 1, pot, hand.pot_after)
    correction = _correction(s, league, rules, hand, before_view, before_table, resettled)
    log_change(s, "hand void", who, why, league_id=league.id, hand_id=hand.id,
               before=before_view.to_json(), after={"voided": True})
    return correction


def unvoid_hand(s: Session, league_name: str, number: int, *, who: str,
                why: str) -> Correction:
    """Restore a voided hand as it was recorded: its deposit pot is settled again from the pot
    before it, then every later hand's, all in the caller's one transaction; the change is
    logged. Like every correction it never ends or reopens a session."""
    league, rules, hand = _hand_to_correct(s, league_name, number)
    if not hand.voided:
        raise LeagueError(f"hand {number} is not void; only a voided hand can be restored")
    before_view = _hand_views(s, league, [hand])[0]
    before_table = standings(s, league_name)
    pot = _pot_before(s, league.id, number)  # type: ignore[arg-type]
    hand.voided = False
    _settle_again(s, league, rules, hand, pot)
    # Later hands were settled against the pot before this one; now they follow its pot.
    resettled = _resettle(s, league, rules, number + 1, hand.pot_after, pot)
    correction = _correction(s, league, rules, hand, before_view, before_table, resettled)
    log_change(s, "hand unvoid", who, why, league_id=league.id, hand_id=hand.id,
               before={"voided": True}, after=correction.after.to_json())
    return correction


def _settle_again(s: Session, league: League, rules: Ruleset, hand: Hand, pot: int) -> int:
    """Settle one stored hand's deposit pot again from ``pot`` (the pot before it): its
    players' pot points and its ``pot_after``. Returns the old ``pot_after``."""
    view = _hand_views(s, league, [hand])[0]
    move = settle_pot(rules, pot, hand.status, dealer=view.dealer, deal_miss=view.deal_miss,
                      declarer=view.declarer, friend=view.friend, success=hand.success)
    ids = ensure_players(s, move.deltas)
    members = s.exec(select(HandPlayer).where(HandPlayer.hand_id == hand.id)).all()
    by_id = {m.player_id: m for m in members}
    for name, player_id in ids.items():
        if player_id not in by_id:
            by_id[player_id] = HandPlayer(hand_id=hand.id, player_id=player_id,
                                          league_id=league.id, seat=None, role="out")
    wanted = {ids[name]: amount for name, amount in move.deltas.items()}
    for player_id, member in by_id.items():
        if member.pot != wanted.get(player_id, 0) or member not in members:
            member.pot = wanted.get(player_id, 0)
            s.add(member)
    old_pot_after = hand.pot_after
    hand.pot_after = move.pot_after
    s.add(hand)
    return old_pot_after


def _resettle(s: Session, league: League, rules: Ruleset, start: int, pot: int,
              old_pot: int) -> int:
    """Settle the deposit pot again from hand ``start`` on, given the new pot before it and
    the old one; stop as soon as the two agree, since nothing after can then change."""
    count = 0
    number = start
    while pot != old_pot:
        hand = s.exec(select(Hand).where(Hand.league_id == league.id, Hand.number >= number,
                                         Hand.voided == False)  # noqa: E712
                      .order_by(Hand.number).limit(1)).first()
        if hand is None:
            break
        old_pot = _settle_again(s, league, rules, hand, pot)
        pot = hand.pot_after
        number = hand.number + 1
        count += 1
    s.flush()
    return count


# --- standings ----------------------------------------------------------------------------------


def _sum_if(condition) -> Any:
    return func.sum(case((condition, 1), else_=0))


def _stats_query(league_id: int, *group: Any):
    playing = HandPlayer.role.in_(PLAYING_ROLES)
    return (select(*group, Player.name,
                   _sum_if(playing),
                   func.sum(HandPlayer.points + HandPlayer.pot),
                   _sum_if(HandPlayer.role == "declarer"),
                   _sum_if((HandPlayer.role == "declarer") & (Hand.success == True)),  # noqa
                   _sum_if(HandPlayer.role == "friend"),
                   _sum_if(Hand.run & HandPlayer.role.in_(RULING_ROLES)),
                   _sum_if(Hand.back_run & (HandPlayer.role == "opponent")),
                   _sum_if(Hand.deal_miss_id == HandPlayer.player_id))
            .select_from(HandPlayer)
            .join(Hand, Hand.id == HandPlayer.hand_id)
            .join(Player, Player.id == HandPlayer.player_id)
            .where(HandPlayer.league_id == league_id, Hand.voided == False)  # noqa: E712
            .group_by(*group, Player.name))


def _stats(row: Sequence) -> PlayerStats:
    name, *numbers = row
    return PlayerStats(name, *(int(n or 0) for n in numbers))


def player_stats(s: Session, league_id: int) -> list[PlayerStats]:
    """Every player's totals in one aggregate query (the store's form of
    :func:`mighty_cli.standings.accumulate`)."""
    return [_stats(row) for row in s.exec(_stats_query(league_id)).all()]


def standings(s: Session, league_name: str) -> Standings:
    league = get_league(s, league_name)
    return rank(player_stats(s, league.id), league.min_hands,  # type: ignore[arg-type]
                parse_rank_by(league.rank_by))


@dataclass
class SessionTable:
    number: int
    day: date
    ended: bool
    players: list[str]
    hands: int
    standings: Standings


@dataclass
class LeaguePage:
    """Everything the standings page shows."""

    league: str
    ruleset: str
    ruleset_title: str
    standings: Standings
    sessions: list[SessionTable]
    hands: int
    chart_x: list[int]
    chart_series: list[Series]
    pot: int


CHART_POINTS = 400


def league_page(s: Session, league_name: str, max_points: int = CHART_POINTS) -> LeaguePage:
    """The league table, each session's table and the cumulative-score series (per hand, at
    most ``max_points`` evenly spaced hands per line)."""
    league = get_league(s, league_name)
    rules = league_rules(league)
    sessions = s.exec(select(LeagueSession).where(LeagueSession.league_id == league.id)
                      .order_by(LeagueSession.number)).all()
    # One aggregate per (session, player) gives each session's table and, summed, the league's.
    per_session: dict[int, list[PlayerStats]] = {}
    totals: dict[str, PlayerStats] = {}
    for row in s.exec(_stats_query(league.id, Hand.session_id)).all():  # type: ignore[arg-type]
        stats = _stats(row[1:])
        per_session.setdefault(row[0], []).append(stats)
        total = totals.setdefault(stats.name, PlayerStats(stats.name))
        for key in ("hands", "score", "declarer", "declarer_success", "friend", "runs",
                    "back_runs", "deal_misses"):
            setattr(total, key, getattr(total, key) + getattr(stats, key))
    table = rank(totals.values(), league.min_hands, parse_rank_by(league.rank_by))
    counts: dict[int, int] = dict(s.exec(
        select(Hand.session_id, func.count(Hand.id))
        .where(Hand.league_id == league.id, Hand.voided == False)  # noqa: E712
        .group_by(Hand.session_id)).all())
    seats: dict[int, list[str]] = {}
    for session_id, name in s.exec(select(SessionSeat.session_id, Player.name)
                                   .join(Player, Player.id == SessionSeat.player_id)
                                   .join(LeagueSession,
                                         LeagueSession.id == SessionSeat.session_id)
                                   .where(LeagueSession.league_id == league.id)
                                   .order_by(SessionSeat.session_id, SessionSeat.seat)).all():
        seats.setdefault(session_id, []).append(name)
    tables = [SessionTable(x.number, x.day, x.ended_at is not None, seats.get(x.id, []),
                           counts.get(x.id, 0),
                           rank(per_session.get(x.id, []), 0, ("score", "score_per_hand", "name")))
              for x in sessions]
    names = [r.stats.name for r in table.rows if r.stats.hands]
    xs, series = _chart(s, league, names, max_points)
    return LeaguePage(league.name, rules.name, rules.meta.title, table, tables,
                      sum(counts.values()), xs, series, _pot_before(s, league.id, None))  # type: ignore[arg-type]


def _chart(s: Session, league: League, names: Sequence[str],
           max_points: int) -> tuple[list[int], list[Series]]:
    """Cumulative scores by hand number. A long league is thinned evenly in the database:
    hands are summed in equal runs of ``bucket`` hands and each line gets a point at the end
    of every run (the exact running total at that hand), so at most ``max_points`` points
    per line whatever the league's size."""
    last = s.exec(select(func.max(Hand.number)).where(Hand.league_id == league.id)).one() or 0
    if not last or not names:
        return [], [Series(n) for n in names]
    bucket = max(1, -(-last // max_points))
    # Floor division: SQLAlchemy 2's "/" is true division, which would group hand by hand.
    key = (Hand.number - 1) // bucket if bucket > 1 else Hand.number - 1
    rows = s.exec(select(key, Player.name, func.sum(HandPlayer.points + HandPlayer.pot))
                  .select_from(HandPlayer).join(Hand, Hand.id == HandPlayer.hand_id)
                  .join(Player, Player.id == HandPlayer.player_id)
                  .where(HandPlayer.league_id == league.id, Hand.voided == False)  # noqa: E712
                  .group_by(key, Player.name)).all()
    sums: dict[int, dict[str, int]] = {}
    for index, name, total in rows:
        sums.setdefault(int(index), {})[name] = int(total or 0)
    running = {n: 0 for n in names}
    series_rows: list[tuple[int, dict[str, int]]] = [(0, dict(running))]
    for index in sorted(sums):
        for name, total in sums[index].items():
            if name in running:
                running[name] += total
        series_rows.append((min(last, (index + 1) * bucket), dict(running)))
    return thin(series_rows, names, max_points + 1)


# --- import and export --------------------------------------------------------------------------


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
        create_league(s, league_name, record_ruleset(record), who=who)
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
        writer.writerow(["hand", "session", "date", "status", "dealer", "declarer", "contract",
                         "friend", "friend_call", "taken", "success", "base", "multiplier",
                         "doublings", "deal_miss", "pot_after", "players"] + names)
        for h in hands:
            base = h.base if h.base is None or not float(h.base).is_integer() else int(h.base)
            writer.writerow([h.number, h.session, h.day.isoformat(), h.status, h.dealer,
                             h.declarer, h.contract, h.friend, h.friend_call, h.taken,
                             h.success, base, h.multiplier, " ".join(h.doublings), h.deal_miss,
                             h.pot_after, " ".join(h.players)]
                            + [h.deltas.get(n, "") for n in names])
        return out.getvalue()
    raise LeagueError(f"--format {fmt!r}: expected toml, csv or json")


def change_log(s: Session, league_name: Optional[str] = None, limit: int = 50) -> list[ChangeLog]:
    query = select(ChangeLog)
    if league_name:
        query = query.where(ChangeLog.league_id == get_league(s, league_name).id)
    return list(reversed(s.exec(query.order_by(ChangeLog.id.desc()).limit(limit)).all()))

