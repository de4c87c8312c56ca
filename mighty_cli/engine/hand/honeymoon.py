"""허니문 마이티 (honeymoon Mighty, 000 §3.5.1): two players, each with a friend's hand.

"허니문 마이티라는 것도 있다. 교육용으로 쓰이며, 4마와 같되 선-선프렌드-후-후프렌드 순으로 두며
본인이 자기 프렌드의 패 중에서 하나를 규칙에 맞게 골라서 낸다." Rules held here
(``table.partner_hands``):

* The table is 4마's (43 cards, four hands of ten, three in the kitty), but two play: each
  player's friend hand (프렌드의 패) sits right after him, so the order is 선, 선's friend, 후,
  후's friend. A friend hand is a seat named ``"<player>'s friend"`` in deals, tricks and calls.
* The player chooses his friend hand's card each trick, by the rules (규칙에 맞게: it follows
  suit like any hand); the engine treats it as a seat, whoever picks the card.
* The friend hands never bid (the election is between the two players, as if they had passed),
  never deal and never declare a deal miss: a player shows his own hand only (the tool's
  reading; the seed says no more than 4마와 같되).
* The declarer's friend is his own friend hand: the friend call can be nothing else, and the
  friend is known from the start.
* Scoring is 4마's (four hands, two against two); each player takes what his two hands score,
  so the game is zero-sum between the two.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import MightyError
from ..translation import _

if TYPE_CHECKING:
    from ..ruleset import Ruleset

#: A friend hand's name: its player's name and this suffix ("Ana's friend").
PARTNER_SUFFIX = "'s friend"


def partner_of(player: str) -> str:
    """The name of a player's friend hand."""
    return player + PARTNER_SUFFIX


def controller_of(seat: str) -> str:
    """The player who plays a seat: himself, or the owner of a friend hand."""
    return seat[: -len(PARTNER_SUFFIX)] if seat.endswith(PARTNER_SUFFIX) else seat


def is_partner_hand(name: str | None) -> bool:
    return isinstance(name, str) and name.endswith(PARTNER_SUFFIX)


def partner_seats(players: Sequence[str]) -> tuple[str, ...]:
    """The seats in playing order: each player, then his friend hand (선-선프렌드-후-후프렌드).
    Seats already listed so are returned as they are."""
    players = tuple(players)
    if len(players) % 2 == 0 and all(
        players[i + 1] == partner_of(players[i]) for i in range(0, len(players), 2)
    ):
        return players
    if any(is_partner_hand(player) for player in players):
        raise MightyError(
            _(
                "players: a name ending in {suffix!r} is a friend hand's under table.partner_hands"
            ).format(suffix=PARTNER_SUFFIX)
        )
    return tuple(seat for player in players for seat in (player, partner_of(player)))


def fold_deltas(deltas: dict[str, int]) -> dict[str, int]:
    """Each player's change: his own and his friend hand's."""
    out: dict[str, int] = {}
    for seat, amount in deltas.items():
        player = controller_of(seat)
        out[player] = out.get(player, 0) + amount
    return out


def hands_per_player(rules: Ruleset) -> int:
    """Hands each player plays: two under table.partner_hands, else one."""
    return 2 if rules.table.partner_hands else 1
