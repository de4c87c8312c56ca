"""Looking up leagues and players by name, a session's seats and a league's rounds, the checks
names pass, and the change log writer.

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.

Names are spelt one way (:mod:`mighty_cli.engine.names`: NFC, trimmed, single spaces) when
stored and when looked up. Creating a player or a league is insert-or-get
(:func:`insert_ignoring_conflict`), so concurrent writers naming the same new player never fail
on the unique name: on PostgreSQL the second waits for the first and then finds its row.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from sqlmodel import Session, select

from ...engine import names as name_rules
from ...engine.translation import N_, _
from .. import LeagueError
from ..models import ChangeLog, League, LeagueRound, LeagueSession, Player, SessionSeat, utc_now

if TYPE_CHECKING:
    from ...engine.ruleset import Ruleset

RULING_ROLES = ("declarer", "friend")
PLAYING_ROLES = ("declarer", "friend", "opponent")


def check_name(name: str, what: str = N_("player name")) -> str:
    """A usable name: NFC, trimmed, non-empty, short, without the comma that separates lists
    and without control, zero-width or bidirectional characters."""
    wrong = name_rules.refused_character(str(name))
    if wrong:
        raise LeagueError(
            _(
                "{what} {visible} {wrong}: names may not contain characters that "
                "change what a screen shows"
            ).format(what=_(what), visible=name_rules.visible(str(name)), wrong=wrong)
        )
    clean = name_rules.normalize(str(name))
    if not clean:
        raise LeagueError(_("{what} {name!r}: must not be empty").format(what=_(what), name=name))
    if "," in clean:
        raise LeagueError(
            _(
                "{what} {clean!r}: must not contain a comma (commas separate names in --players)"
            ).format(what=_(what), clean=clean)
        )
    if len(clean) > 100:
        raise LeagueError(
            _("{what} {start!r}...: longer than 100 characters").format(
                what=_(what), start=clean[:20]
            )
        )
    return clean


def check_new_name(name: str, what: str = N_("player name")) -> str:
    """A name for a new player typed at a command (``player add``, ``player rename``, a new
    name in ``--players``: :mod:`mighty_cli.table.new_names`): :func:`check_name`, without the
    ``/`` that separates the two names of ``--apart A/B`` and ``--substitute S/X``. A store,
    an export or a record made before may hold such a name: it keeps working, read as
    :func:`mighty_cli.engine.names.pair_splits` says."""
    clean = check_name(name, what)
    if name_rules.PAIR_SEPARATOR in clean:
        raise LeagueError(
            _(
                "{what} {clean!r}: must not contain '/' (it separates the two names "
                "of --apart A/B and --substitute S/X)"
            ).format(what=_(what), clean=clean)
        )
    return clean


def insert_ignoring_conflict(s: Session, model: type, values: dict, key: str) -> bool:
    """``INSERT ... ON CONFLICT (key) DO NOTHING``: whether the row was inserted (False when a
    row with that key exists, or another transaction has just inserted one)."""
    dialect = s.get_bind().dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    elif dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert
    else:  # another database: the unique index still refuses a duplicate, as one line
        s.add(model(**values))
        s.flush()
        return True
    statement = insert(model).values(**values).on_conflict_do_nothing(index_elements=[key])
    if dialect == "postgresql":  # psycopg reports no row count here: ask for the new row
        return s.execute(statement.returning(getattr(model, key))).first() is not None
    return s.execute(statement).rowcount == 1


def get_league(s: Session, name: str) -> League:
    name = name_rules.normalize(str(name))
    league = s.exec(select(League).where(League.name == name)).first()
    if league is None:
        known = s.exec(select(League.name).order_by(League.name)).all()
        if known:
            raise LeagueError(
                _("no league named {name!r} (leagues: {known})").format(
                    name=name, known=", ".join(known)
                )
            )
        raise LeagueError(
            _("no league named {name!r} (create one with 'mighty league create')").format(name=name)
        )
    return league


_RULES_CACHE: dict[tuple[int, str], Ruleset] = {}


def league_rules(league: League) -> Ruleset:
    """The ruleset stored with the league (never the bundled file it was made from)."""
    key = (league.id or 0, league.ruleset_toml)
    if key not in _RULES_CACHE:
        # start-up: a ruleset is read and checked only where one is used (standings of a
        # league of evenings, and every lookup, need none)
        from ...engine.ruleset import ruleset_from_toml

        _RULES_CACHE[key] = ruleset_from_toml(
            league.ruleset_toml, label=f"league {league.name!r} ruleset"
        ).ruleset
    return _RULES_CACHE[key]


def find_player(s: Session, name: str) -> Player | None:
    """The player of that name, following merges to the record that absorbed it."""
    name = name_rules.normalize(str(name))
    return _absorbing(s, s.exec(select(Player).where(Player.name == name)).first())


def players_named(s: Session, names: Iterable[str]) -> dict[str, Player]:
    """:func:`find_player` for many names in one query: the players by name (normalized),
    merges followed; a name nobody has is left out."""
    wanted = {name_rules.normalize(str(name)) for name in names}
    if not wanted:
        return {}
    found = s.exec(select(Player).where(Player.name.in_(wanted))).all()  # type: ignore[attr-defined]
    return {
        player.name: absorbing
        for player in found
        if (absorbing := _absorbing(s, player)) is not None
    }


def _absorbing(s: Session, player: Player | None) -> Player | None:
    """The record that absorbed ``player`` (merges followed), or ``player`` itself."""
    seen = set()
    while player is not None and player.merged_into_id is not None and player.id not in seen:
        seen.add(player.id)
        player = s.get(Player, player.merged_into_id)
    return player


def get_player(s: Session, name: str) -> Player:
    player = find_player(s, name)
    if player is None:
        raise LeagueError(
            _("no player named {name!r} (add one with 'mighty player add')").format(name=name)
        )
    return player


def ensure_players(s: Session, names: Iterable[str]) -> dict[str, int]:
    """Player ids by name, creating the players not yet known (insert-or-get)."""
    clean = {name: check_name(name) for name in names}
    known = players_named(s, clean.values())
    # Sorted: concurrent writers insert new names in one order, so they never deadlock.
    missing = sorted(set(clean.values()) - set(known))
    for name in missing:
        insert_ignoring_conflict(s, Player, {"name": name, "created_at": utc_now()}, "name")
    if missing:
        known |= players_named(s, missing)
    ids: dict[str, int] = {}
    for name, spelt in clean.items():
        player = known.get(spelt)
        if player is None:  # pragma: no cover - the insert above made it or found it
            raise LeagueError(_("player {spelt!r} could not be created").format(spelt=spelt))
        ids[name] = player.id  # type: ignore[assignment]
    return ids


def names_by_id(s: Session, ids: Iterable[int | None]) -> dict[int, str]:
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return {}
    rows = s.exec(select(Player.id, Player.name).where(Player.id.in_(wanted))).all()
    return dict(rows)


def log_change(
    s: Session,
    action: str,
    who: str,
    why: str = "",
    *,
    league_id=None,
    hand_id=None,
    before: Any = None,
    after: Any = None,
) -> None:
    """Append to the change log (before/after as JSON text)."""

    def dump(v: Any) -> str | None:
        return None if v is None else json.dumps(v, ensure_ascii=False, default=str)

    s.add(
        ChangeLog(
            league_id=league_id,
            hand_id=hand_id,
            action=action,
            who=who,
            why=why or "",
            before=dump(before),
            after=dump(after),
        )
    )


def seating(s: Session, session_id: int) -> list[str]:
    """A session's players in seat order."""
    rows = s.exec(
        select(Player.name)
        .join(SessionSeat, SessionSeat.player_id == Player.id)
        .where(SessionSeat.session_id == session_id)
        .order_by(SessionSeat.seat)
    ).all()
    return list(rows)


def seatings_by_session(s: Session, league_id: int) -> dict[int, list[str]]:
    """Per session id, its players' names in seating order, for every session of a league."""
    seatings: dict[int, list[str]] = {}
    for session_id, name in s.exec(
        select(SessionSeat.session_id, Player.name)
        .join(Player, Player.id == SessionSeat.player_id)
        .join(LeagueSession, LeagueSession.id == SessionSeat.session_id)
        .where(LeagueSession.league_id == league_id)
        .order_by(SessionSeat.session_id, SessionSeat.seat)
    ).all():
        seatings.setdefault(session_id, []).append(name)
    return seatings


def has_rounds(s: Session, league: League) -> bool:
    """Whether the league has played in rounds (``round start``): only then do its standings
    come with a tournament table and matchpoints (and need the rounds' part of the store)."""
    return (
        s.exec(select(LeagueRound.id).where(LeagueRound.league_id == league.id).limit(1)).first()
        is not None
    )


def open_round(s: Session, league: League) -> LeagueRound | None:
    """The league's open round, if any."""
    return s.exec(
        select(LeagueRound).where(LeagueRound.league_id == league.id, LeagueRound.ended_at == None)  # noqa: E711
    ).first()


def find_round(s: Session, league: League, number: int | None = None) -> LeagueRound:
    """Round ``number`` of the league, or the open one (else the latest); one line if none."""
    query = select(LeagueRound).where(LeagueRound.league_id == league.id)
    if number is not None:
        found = s.exec(query.where(LeagueRound.number == number)).first()
        if found is None:
            raise LeagueError(
                _("league {league} has no round {number}").format(
                    league=repr(league.name), number=number
                )
            )
        return found
    found = open_round(s, league) or s.exec(query.order_by(LeagueRound.number.desc())).first()
    if found is None:
        raise LeagueError(
            _(
                "league {league} has no round; start one with 'mighty round start "
                "--league {name} --players ...'"
            ).format(league=repr(league.name), name=league.name)
        )
    return found
