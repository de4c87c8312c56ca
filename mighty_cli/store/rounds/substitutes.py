"""Substitutes in a round (``round start --substitute S/X [--credit]``).

A substitute S sits in for a player X who cannot come: the round is planned as if X were
present (X's history of opponents, X's kept-apart pairs), with S in X's seat. The organiser
chooses what S's results mean for the tournament table: kept apart (the default: S's results
are S's own, and X misses the round) or credited (S's results of the round count for X). The
league table and the round's own table are always by who played.

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlmodel import Session, select

from ...engine.translation import _
from .. import LeagueError
from ..ledger.lookups import check_name, ensure_players, find_player, names_by_id
from ..models import League, RoundSubstitute


@dataclass(frozen=True)
class Substitution:
    """Who sat in for whom in a round, as the board and the pages tell it: the substitute, the
    player replaced, the table he sat at (None: seated at none) and the table's hand he
    played from, and whether his results count for the player replaced."""

    player: str
    absent: str
    table: int | None
    from_hand: int
    credited: bool


#: The table's hand a substitute named at ``round start`` plays from: its first.
FIRST_HAND = 1


def seated_substitutions(
    tables: Iterable[tuple[int, Sequence[str]]], subs: Iterable[tuple[str, str, bool]]
) -> list[Substitution]:
    """A round's substitutes ``(S, X, credited)`` with the table each sits at (``tables``:
    each table's number and players), from its first hand, ordered by table and name."""
    where = {name: table for table, players in tables for name in players}
    found = [
        Substitution(sub, absent, where.get(sub), FIRST_HAND, credited)
        for sub, absent, credited in subs
    ]
    return sorted(found, key=lambda x: (x.table is None, x.table or 0, x.player))


def checked_substitutes(
    s: Session, names: Sequence[str], pairs: Sequence[tuple[str, str]]
) -> dict[str, str]:
    """The substitutes given (``S/X``: S sits in for X) as {S: X}: S is one of the players
    present, X is a player of the store who is not, and each sits in or is replaced once."""
    subs: dict[str, str] = {}
    for given, replaced in pairs:
        sub, absent = check_name(given), check_name(replaced)
        if sub not in names:
            raise LeagueError(
                _("--substitute {sub}/{absent}: {sub} is not one of the players present").format(
                    sub=sub, absent=absent
                )
            )
        if absent in names:
            raise LeagueError(
                _(
                    "--substitute {sub}/{absent}: {absent} is present; a "
                    "substitute sits in for a player who is not"
                ).format(sub=sub, absent=absent)
            )
        known = find_player(s, absent)
        if known is None:
            raise LeagueError(
                _("--substitute {sub}/{absent}: no player named {absent} in this store").format(
                    sub=sub, absent=absent
                )
            )
        absent = known.name
        if sub in subs or absent in subs.values():
            raise LeagueError(
                _("--substitute {sub}/{absent}: one substitute for one player").format(
                    sub=sub, absent=absent
                )
            )
        subs[sub] = absent
    return subs


def keep_substitutes(
    s: Session, league: League, number: int, subs: dict[str, str], credited: bool
) -> None:
    """Store round ``number``'s substitutes (replacing any it had)."""
    for row in s.exec(
        select(RoundSubstitute).where(
            RoundSubstitute.league_id == league.id, RoundSubstitute.round_number == number
        )
    ):
        s.delete(row)
    s.flush()
    ids = ensure_players(s, [*subs, *subs.values()])
    for sub, absent in subs.items():
        s.add(
            RoundSubstitute(
                league_id=league.id,
                round_number=number,  # type: ignore
                player_id=ids[sub],
                for_player_id=ids[absent],
                credited=credited,
            )
        )
    s.flush()


def substitutes(
    s: Session, league_id: int, number: int | None = None
) -> dict[tuple[int, str], tuple[str, bool]]:
    """The league's substitutes (or round ``number``'s): {(round, S): (X, credited)}."""
    query = select(RoundSubstitute).where(RoundSubstitute.league_id == league_id)
    if number is not None:
        query = query.where(RoundSubstitute.round_number == number)
    rows = s.exec(query).all()
    names = names_by_id(s, {i for row in rows for i in (row.player_id, row.for_player_id)})
    return {
        (row.round_number, names[row.player_id]): (names[row.for_player_id], row.credited)
        for row in rows
    }
