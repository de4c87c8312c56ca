"""Hands read back as views (``hand list``, ``hand show``, the export, the pages): a stored
hand with names (:class:`HandView`), its friends and who was eliminated named as the hand
record names them (how they are stored: :mod:`.hands`). Nothing here writes."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from sqlmodel import Session, select

from ...engine.hand import DUMMY
from ...engine.hand.honeymoon import partner_of
from ...engine.safe_toml import tomllib
from ...engine.translation import _
from .. import LeagueError
from ..models import Hand, HandPlayer, League, LeagueSession, Player
from .lookups import (
    get_league,
    names_by_id,
)
from .sessions import (
    find_session,
)
from .table_hands import hand_places


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
    dealer: str | None
    declarer: str | None
    friend: str | None
    friend_call: str | None
    contract: str | None
    taken: int | None
    success: bool | None
    base: float | None
    multiplier: int | None
    doublings: list[str]
    deal_miss: str | None
    pot_after: int
    full: bool
    note: str | None
    deltas: dict[str, int] = field(default_factory=dict)
    record_toml: str | None = None
    eliminated: list[str] = field(default_factory=list)  # 6마, 7마
    friend2: str | None = None  # the second friend (friend.called_cards = 2, 동대전 7마)
    #: a round's hand: the round, the table and the hand's number at it (:mod:`.table_hands`);
    #: None for a hand outside any round
    round: int | None = None
    table: int | None = None
    table_hand: int | None = None

    def __post_init__(self) -> None:
        # 허니문: a friend stored as the declarer himself is his own friend hand (see above)
        if self.friend is not None and self.friend == self.declarer:
            self.friend = partner_of(self.declarer)

    def to_json(self) -> dict:
        data = dataclasses.asdict(self)
        data["day"] = self.day.isoformat()
        data.pop("record_toml")
        if not self.eliminated:
            data.pop("eliminated")  # only 6마 and 7마 hands say who was eliminated
        if self.friend2 is None:
            data.pop("friend2")  # only a two-card call's hand has a second friend
        if self.base is not None and float(self.base).is_integer():
            data["base"] = int(self.base)
        return data

    def hand_dict(self) -> dict:
        """The hand as a record table (docs/record-format.md), with this project's extra keys."""
        if self.full and self.record_toml:
            hand = _toml_loads(self.record_toml)
        elif self.status == "deal_miss":
            hand = {"dealer": self.dealer, "deal_miss": self.deal_miss}
        else:
            hand = {
                "dealer": self.dealer,
                "declarer": self.declarer,
                "contract": self.contract,
                "friend": self.friend or "none",
                "friend2": self.friend2,
                "friend_call": self.friend_call,
                "taken": self.taken,
                "eliminated": self.eliminated or None,
            }
        hand = {"session": self.session, "date": self.day, "players": self.players} | hand
        if self.note:
            hand["note"] = self.note
        return {k: v for k, v in hand.items() if v is not None}


def _toml_loads(text: str) -> dict:

    return tomllib.loads(text)


def hand_views(s: Session, league: League, hands: Sequence[Hand]) -> list[HandView]:
    if not hands:
        return []
    ids = [h.id for h in hands]
    per_hand: dict[int, list] = {}
    for start in range(0, len(ids), 500):  # bounded IN lists, whatever the number of hands
        for row in s.exec(
            select(
                HandPlayer.hand_id,
                HandPlayer.seat,
                HandPlayer.points,
                HandPlayer.pot,
                Player.name,
                HandPlayer.role,
            )
            .join(Player, Player.id == HandPlayer.player_id)
            .where(HandPlayer.hand_id.in_(ids[start : start + 500]))
        ).all():
            per_hand.setdefault(row[0], []).append(row)
    sessions = dict(
        s.exec(
            select(LeagueSession.id, LeagueSession.number).where(
                LeagueSession.league_id == league.id
            )
        ).all()
    )
    days = dict(
        s.exec(
            select(LeagueSession.id, LeagueSession.day).where(LeagueSession.league_id == league.id)
        ).all()
    )
    names = names_by_id(
        s, {i for h in hands for i in (h.dealer_id, h.declarer_id, h.friend_id, h.deal_miss_id)}
    )
    places = hand_places(s, league, hands)
    views = []
    for hand in hands:
        members = sorted(per_hand.get(hand.id, []), key=lambda r: (r[1] is None, r[1] or 0, r[4]))
        views.append(
            HandView(
                number=hand.number,
                session=sessions[hand.session_id],
                day=days[hand.session_id],
                status=hand.status,
                voided=hand.voided,
                players=[r[4] for r in members if r[1] is not None],
                sitting_out=[r[4] for r in members if r[1] is None],
                dealer=names.get(hand.dealer_id),
                declarer=names.get(hand.declarer_id),
                friend=names.get(hand.friend_id),
                friend_call=hand.friend_call,
                contract=hand.contract,
                taken=hand.taken,
                success=hand.success,
                base=hand.base,
                multiplier=hand.multiplier,
                doublings=[d for d in hand.doublings.split(",") if d],
                deal_miss=names.get(hand.deal_miss_id),
                pot_after=hand.pot_after,
                full=hand.full,
                note=hand.note,
                deltas={r[4]: r[2] + r[3] for r in members},
                record_toml=hand.record_toml,
                eliminated=(
                    eliminated_names(
                        hand.eliminated_seat, [r[4] for r in members if r[1] is not None]
                    )
                    or [r[4] for r in members if r[5] == "eliminated"]
                ),
                friend2=second_friend(
                    names.get(hand.friend_id), [r[4] for r in members if r[5] == "friend"]
                ),
            )
        )
        place = places.get(hand.id)  # type: ignore[arg-type]
        if place is not None:
            views[-1].round, views[-1].table, views[-1].table_hand = (
                place.round,
                place.table,
                place.hand,
            )
    return views


def eliminated_names(seat: int | None, players: Sequence[str]) -> list[str]:
    """시흥 은마: whose own hand the declarer eliminated, from ``hand.eliminated_seat`` (the
    players in seat order): ``[name]``, ``["dummy"]`` (the seat after the players), or ``[]``
    (not such a hand)."""
    if seat is None:
        return []
    return [players[seat] if seat < len(players) else DUMMY]


def second_friend(friend: str | None, friends: Sequence[str]) -> str | None:
    """The second friend of a two-card call (동대전 7마): the other player whose role is
    ``friend`` (``friends``: every such name)."""
    return next((name for name in friends if name != friend), None)


def find_hand(s: Session, league: League, number: int) -> Hand:
    hand = s.exec(select(Hand).where(Hand.league_id == league.id, Hand.number == number)).first()
    if hand is None:
        raise LeagueError(
            _("league {name!r} has no hand {number}").format(name=league.name, number=number)
        )
    return hand


def list_hands(
    s: Session,
    league_name: str,
    *,
    session_number: int | None = None,
    include_voided: bool = True,
    last: int | None = None,
) -> list[HandView]:
    league = get_league(s, league_name)
    query = select(Hand).where(Hand.league_id == league.id)
    if session_number is not None:
        query = query.where(
            Hand.session_id == find_session(s, league, session_number, open_only=False).id
        )
    if not include_voided:
        query = query.where(Hand.voided == False)  # noqa: E712
    if last:
        hands = list(reversed(s.exec(query.order_by(Hand.number.desc()).limit(last)).all()))
    else:
        hands = s.exec(query.order_by(Hand.number)).all()
    return hand_views(s, league, hands)


def show_hand(s: Session, league_name: str, number: int) -> HandView:
    league = get_league(s, league_name)
    return hand_views(s, league, [find_hand(s, league, number)])[0]
