"""Leagues (their stored ruleset and settings) and players (add, rename, merge).

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import func, update
from sqlmodel import Session, select

from ...engine.records.file import renamed_hand
from ...engine.ruleset import Ruleset, load_ruleset, ruleset_from_toml
from ...engine.safe_toml import loads
from ...engine.translation import LANGUAGES, N_, _
from ...league.standings import parse_rank_by
from .. import LeagueError
from ..models import (
    Hand,
    HandPlayer,
    League,
    LeagueSession,
    LeagueSetting,
    LiveHand,
    PlannedTable,
    Player,
    RoundSubstitute,
    SessionSeat,
    utc_now,
)
from .lookups import (
    check_name,
    check_new_name,
    get_league,
    get_player,
    insert_ignoring_conflict,
    log_change,
)
from .open_tables import open_seats


def ruleset_toml_text(rules: Ruleset) -> str:
    """The ruleset's every option as TOML: nothing inherited from a file that may change."""
    import tomli_w

    return tomli_w.dumps(rules.to_dict())


def create_league(
    s: Session,
    name: str,
    ruleset: str | Ruleset,
    *,
    min_hands: int = 0,
    rank_by: str | None = None,
    who: str = "",
    exist_ok: bool = False,
) -> League:
    """Create a league; with ``exist_ok`` an existing league of that name is returned instead
    (``import --create``), also when a concurrent writer creates it first."""
    name = check_name(name, N_("league name"))
    if s.exec(select(League.id).where(League.name == name)).first() is not None:
        if exist_ok:
            return get_league(s, name)
        raise LeagueError(_("league {name!r} already exists").format(name=name))
    rules = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)
    text = ruleset_toml_text(rules)
    ruleset_from_toml(text, label=f"league {name!r} ruleset")  # it must load back
    if min_hands < 0:
        raise LeagueError(
            _("--min-hands {min_hands}: must be 0 or more").format(min_hands=min_hands)
        )
    order = ",".join(parse_rank_by(rank_by)) if rank_by else None
    league = League(
        name=name,
        ruleset_name=rules.name,
        ruleset_toml=text,
        min_hands=min_hands,
        **({"rank_by": order} if order else {}),
    )
    values = league.model_dump(exclude={"id"})
    if not insert_ignoring_conflict(s, League, values, "name"):  # a concurrent writer was first
        if exist_ok:
            return get_league(s, name)
        raise LeagueError(_("league {name!r} already exists").format(name=name))
    league = get_league(s, name)
    log_change(
        s,
        "league create",
        who,
        league_id=league.id,
        after={
            "name": name,
            "ruleset": rules.name,
            "min_hands": min_hands,
            "rank_by": league.rank_by,
        },
    )
    return league


def configure_league(
    s: Session,
    name: str,
    *,
    min_hands: int | None = None,
    rank_by: str | None = None,
    who: str = "",
    why: str = "",
) -> League:
    """Change a league's ranking rules (its ruleset never changes: results stay comparable)."""
    league = get_league(s, name)
    before = {"min_hands": league.min_hands, "rank_by": league.rank_by}
    if min_hands is not None:
        if min_hands < 0:
            raise LeagueError(
                _("--min-hands {min_hands}: must be 0 or more").format(min_hands=min_hands)
            )
        league.min_hands = min_hands
    if rank_by is not None:
        league.rank_by = ",".join(parse_rank_by(rank_by))
    s.add(league)
    log_change(
        s,
        "league set",
        who,
        why,
        league_id=league.id,
        before=before,
        after={"min_hands": league.min_hands, "rank_by": league.rank_by},
    )
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
    leagues = (
        [get_league(s, name)]
        if name is not None
        else s.exec(select(League).order_by(League.name)).all()
    )
    out = []
    for league in leagues:
        hands = s.exec(
            select(func.count(Hand.id)).where(Hand.league_id == league.id, Hand.voided == False)  # noqa: E712
        ).one()
        players = s.exec(
            select(func.count(func.distinct(HandPlayer.player_id))).where(
                HandPlayer.league_id == league.id
            )
        ).one()
        sessions = s.exec(
            select(LeagueSession.number, LeagueSession.ended_at).where(
                LeagueSession.league_id == league.id
            )
        ).all()
        out.append(
            LeagueSummary(
                league.name,
                league.ruleset_name,
                players,
                len(sessions),
                hands,
                sorted(n for n, ended in sessions if ended is None),
                league.min_hands,
                league.rank_by,
                league.created_at,
            )
        )
    return out


# --- players ------------------------------------------------------------------------------------


def add_player(s: Session, name: str, who: str = "") -> Player:
    name = check_new_name(name)
    if s.exec(
        select(Player.id).where(Player.name == name)
    ).first() is not None or not insert_ignoring_conflict(
        s, Player, {"name": name, "created_at": utc_now()}, "name"
    ):
        raise LeagueError(_("player {name!r} already exists").format(name=name))
    player = get_player(s, name)
    log_change(s, "player add", who, after={"name": name})
    return player


def rename_player(s: Session, old: str, new: str, who: str = "", why: str = "") -> Player:
    player = get_player(s, old)
    new = check_new_name(new)
    if s.exec(select(Player.id).where(Player.name == new)).first() is not None:
        raise LeagueError(
            _(
                "cannot rename {old!r} to {new!r}: that name is taken (to join two "
                "records of one person use 'mighty player merge')"
            ).format(old=old, new=new)
        )
    before = player.name
    _rename_in_records(s, player.id, before, new)  # type: ignore[arg-type]
    _rename_in_plans(s, before, new)
    player.name = new
    s.add(player)
    log_change(s, "player rename", who, why, before={"name": before}, after={"name": new})
    return player


def merge_players(s: Session, duplicate: str, keep: str, who: str = "", why: str = "") -> Player:
    """Make two records of one person one: every hand and seat of ``duplicate`` moves to
    ``keep``; the duplicate's name stays as an alias that resolves to ``keep``."""
    source, target = get_player(s, duplicate), get_player(s, keep)
    if source.id == target.id:
        raise LeagueError(
            _("{duplicate!r} and {keep!r} are already the same player").format(
                duplicate=duplicate, keep=keep
            )
        )
    both = (
        select(HandPlayer.hand_id)
        .where(HandPlayer.player_id == source.id)
        .intersect(select(HandPlayer.hand_id).where(HandPlayer.player_id == target.id))
    )
    clash = s.exec(
        select(Hand.number, League.name)
        .join(League, League.id == Hand.league_id)
        .where(Hand.id.in_(both))
    ).first()
    if clash:
        raise LeagueError(
            _(
                "cannot merge {duplicate!r} into {keep!r}: both played hand {hand} "
                "of league {league!r}, so they are two people"
            ).format(duplicate=duplicate, keep=keep, hand=clash[0], league=clash[1])
        )
    seats = (
        select(SessionSeat.session_id)
        .where(SessionSeat.player_id == source.id)
        .intersect(select(SessionSeat.session_id).where(SessionSeat.player_id == target.id))
    )
    if s.exec(select(func.count()).select_from(seats.subquery())).one():
        raise LeagueError(
            _(
                "cannot merge {duplicate!r} into {keep!r}: both sat at the same "
                "session, so they are two people"
            ).format(duplicate=duplicate, keep=keep)
        )
    _refuse_two_open_tables(s, source, target)
    _merge_substitutes(s, source, target)
    counts = s.exec(select(func.count()).where(HandPlayer.player_id == source.id)).one()
    _rename_in_records(s, source.id, source.name, target.name)  # type: ignore[arg-type]
    _rename_in_plans(s, source.name, target.name)
    for column in (Hand.dealer_id, Hand.declarer_id, Hand.friend_id, Hand.deal_miss_id):
        s.exec(update(Hand).where(column == source.id).values({column.key: target.id}))
    s.exec(update(HandPlayer).where(HandPlayer.player_id == source.id).values(player_id=target.id))
    s.exec(
        update(SessionSeat).where(SessionSeat.player_id == source.id).values(player_id=target.id)
    )
    s.exec(
        update(LeagueSession)
        .where(LeagueSession.first_dealer_id == source.id)
        .values(first_dealer_id=target.id)
    )
    s.exec(
        update(Player).where(Player.merged_into_id == source.id).values(merged_into_id=target.id)
    )
    source.merged_into_id = target.id
    s.add(source)
    log_change(
        s,
        "player merge",
        who,
        why,
        before={"players": [source.name, target.name]},
        after={"player": target.name, "alias": source.name, "hands_moved": counts},
    )
    return target


def _refuse_two_open_tables(s: Session, source: Player, target: Player) -> None:
    """Two records each seated at an open table are two people at two tables: one person sits
    at one open table (:mod:`.open_tables`)."""
    at_source = open_seats(s, [source.id])  # type: ignore[list-item]
    at_target = open_seats(s, [target.id])  # type: ignore[list-item]
    if at_source and at_target:
        raise LeagueError(
            _(
                "cannot merge {duplicate!r} into {keep!r}: {duplicate!r} sits at "
                "{first} and {keep!r} at {second}, both open; one person sits at "
                "one open table (end one, or take one out with 'mighty round seat "
                "--leave')"
            ).format(
                duplicate=source.name,
                keep=target.name,
                first=at_source[0].where(),
                second=at_target[0].where(),
            )
        )


def _merge_substitutes(s: Session, source: Player, target: Player) -> None:
    """The rounds' substitutes follow the merge (``round start --substitute S/X``): the
    duplicate's rows become the kept player's. Refused where that makes one player sit in for
    himself, or play two parts in one round (two substitutes, or one sitting in and replaced)."""
    rows = s.exec(
        select(RoundSubstitute).where(
            (RoundSubstitute.player_id == source.id)  # type: ignore[arg-type]
            | (RoundSubstitute.for_player_id == source.id)
        )
    ).all()
    if not rows:
        return

    def merged(player_id: int) -> int:
        return target.id if player_id == source.id else player_id

    for league_id, number in {(row.league_id, row.round_number) for row in rows}:
        parts = [
            merged(i)
            for row in s.exec(
                select(RoundSubstitute).where(
                    RoundSubstitute.league_id == league_id, RoundSubstitute.round_number == number
                )
            )
            for i in (row.player_id, row.for_player_id)
        ]
        if len(parts) != len(set(parts)):
            league = s.get(League, league_id)
            raise LeagueError(
                _(
                    "cannot merge {duplicate!r} into {keep!r}: in round {round} of "
                    "league {league!r} one sat in for the other, or both were "
                    "substitutes, so they are two people"
                ).format(
                    duplicate=source.name,
                    keep=target.name,
                    round=number,
                    league=league.name if league else "?",
                )
            )
    kept = [
        (
            row.league_id,
            row.round_number,
            merged(row.player_id),
            merged(row.for_player_id),
            row.credited,
        )
        for row in rows
    ]
    for row in rows:
        s.delete(row)
    s.flush()  # the key holds the substitute: the rows are written again under the kept one
    for league_id, number, sub, absent, credited in kept:
        s.add(
            RoundSubstitute(
                league_id=league_id,
                round_number=number,
                player_id=sub,
                for_player_id=absent,
                credited=credited,
            )
        )
    s.flush()


def _rename_in_plans(s: Session, old: str, new: str) -> None:
    """Call ``old`` ``new`` in the rounds planned ahead (``round start --rounds``), which keep
    the players by name."""
    for row in s.exec(select(PlannedTable)).all():
        players = json.loads(row.players)
        if old in players:
            row.players = json.dumps([new if name == old else name for name in players])
            s.add(row)
    s.flush()


def _rename_in_records(s: Session, player_id: int, old: str, new: str) -> None:
    """Call ``old`` ``new`` in the stored records of the player's refereed hands and in the
    hands in progress of the sessions he sits at, so exports, hand pages and a resumed
    evening name him as the store does."""
    import tomli_w

    played = select(HandPlayer.hand_id).where(HandPlayer.player_id == player_id)
    for hand in s.exec(
        select(Hand).where(
            Hand.id.in_(played),  # type: ignore[union-attr]
            Hand.record_toml.is_not(None),
        )
    ):  # type: ignore
        hand.record_toml = tomli_w.dumps(renamed_hand(loads(hand.record_toml), old, new))
        s.add(hand)
    seated = select(SessionSeat.session_id).where(SessionSeat.player_id == player_id)
    for live in s.exec(select(LiveHand).where(LiveHand.session_id.in_(seated))):  # type: ignore
        record = loads(live.record_toml)
        record["players"] = [new if p == old else p for p in record.get("players", [])]
        record["hands"] = [renamed_hand(h, old, new) for h in record.get("hands", [])]
        live.record_toml = tomli_w.dumps(record)
        s.add(live)
    s.flush()


def list_players(s: Session) -> list[tuple[str, str | None]]:
    """Every player name, with the name it was merged into (None for a live record)."""
    rows = s.exec(select(Player).order_by(Player.name)).all()
    names = {p.id: p.name for p in rows}
    return [(p.name, names.get(p.merged_into_id) if p.merged_into_id else None) for p in rows]


#: The settings a league may keep (LeagueSetting) and what each accepts.
LEAGUE_SETTINGS = ("lang", "timezone")


def checked_setting(key: str, value: str) -> str:
    """A league setting's value as it may be kept (a language the tool speaks, a real IANA time
    zone); one line naming what is wrong otherwise."""
    if key not in LEAGUE_SETTINGS:
        raise LeagueError(
            _("{key!r} is not a league setting (one of {settings})").format(
                key=key, settings=", ".join(LEAGUE_SETTINGS)
            )
        )
    if key == "lang":
        if value not in LANGUAGES:
            raise LeagueError(
                _("lang {value!r}: one of {languages}").format(
                    value=value, languages=", ".join(LANGUAGES)
                )
            )
    if key == "timezone":
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise LeagueError(
                _("timezone {value!r}: not an IANA time zone name").format(value=value)
            ) from None
    return value


def league_setting(s: Session, league: str | League, key: str) -> str | None:
    """A league's setting (``lang``, ``timezone``), or None when it was never set; the league
    by name or as its row."""
    league_id = league.id if isinstance(league, League) else get_league(s, league).id
    row = s.get(LeagueSetting, (league_id, key))
    return row.value if row is not None else None


def league_today(s: Session, league: League) -> date:
    """Today's date where the league plays (its ``timezone`` setting), else the machine's: a
    session started at 1 a.m. in Seoul on a server in UTC is still that evening's."""
    zone = league_setting(s, league, "timezone")
    if zone is None:
        return date.today()
    from zoneinfo import ZoneInfo

    return datetime.now(ZoneInfo(zone)).date()


def league_settings(s: Session, league: str) -> dict[str, str]:
    """Every setting a league has, by key."""

    league_id = get_league(s, league).id
    rows = s.exec(select(LeagueSetting).where(LeagueSetting.league_id == league_id)).all()
    return {row.key: row.value for row in rows}


def set_league_setting(
    s: Session, league: str, key: str, value: str, who: str = "", why: str = ""
) -> None:
    """Set a league's setting (checked: a language the tool speaks, a real time zone); the
    change log records it, with the value before (null: never set) and why."""

    value = checked_setting(key, value)
    row_league = get_league(s, league)
    row = s.get(LeagueSetting, (row_league.id, key))
    before = row.value if row is not None else None
    if before == value:
        return
    if row is None:
        s.add(LeagueSetting(league_id=row_league.id, key=key, value=value))
    else:
        row.value = value
        s.add(row)
    s.flush()
    log_change(
        s, "league set", who, why, league_id=row_league.id, before={key: before}, after={key: value}
    )  # before: null when the league had no such setting
