"""Matchpoints: a duplicate round's results compared on the same cards.

In a duplicate round (``round start --duplicate``) every table of one size plays deal k with the
same cards in the same seats (the same dealer, the same opener). A seat's result on a deal is
the points its player scored; it is compared with the result of every player who held the same
cards (same table size, same deal, same seat) at another table, as bridge scores a board: one
matchpoint for each result beaten, half for each tied, none for each lost. A deal played at one
table only has nothing to be compared with and scores nothing. A player's percentage is his
matchpoints over the most he could have had (one per comparison), so players who were compared
on more deals or against more tables are ranked on the same scale.

Pure: :mod:`mighty_cli.store.rounds.duplicate` gathers the results from the league.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class SeatResult:
    """What the player at ``seat`` (0: the table's first seat) of a table of ``size`` scored on
    deal ``deal`` (the table's hand ``deal``) of round ``round``."""

    size: int
    deal: int
    seat: int
    table: int
    player: str
    points: int
    round: int = 1


@dataclass
class MatchpointRow:
    """One player's matchpoints: won, the most he could have won, and how many of his deals
    were compared (played at another table too)."""

    player: str
    matchpoints: float = 0.0
    top: int = 0
    deals: int = 0

    @property
    def percent(self) -> float | None:
        """Matchpoints as a percentage of the top (None: nothing compared yet)."""
        return 100.0 * self.matchpoints / self.top if self.top else None

    def to_json(self) -> dict:
        percent = self.percent
        return {
            "player": self.player,
            "matchpoints": self.matchpoints,
            "top": self.top,
            "deals": self.deals,
            "percent": round(percent, 2) if percent is not None else None,
        }


def seat_matchpoints(points: int, others: Iterable[int]) -> float:
    """One result's matchpoints against the others on the same cards: 1 per result beaten,
    1/2 per tie."""
    return sum(1.0 if points > other else 0.5 if points == other else 0.0 for other in others)


def matchpoints(results: Iterable[SeatResult]) -> list[MatchpointRow]:
    """Every player's matchpoints, best percentage first (then most matchpoints, then name);
    a player none of whose deals was compared is listed last, with no percentage."""
    boards: dict[tuple[int, int, int, int], list[SeatResult]] = defaultdict(list)
    rows: dict[str, MatchpointRow] = {}
    for result in results:
        boards[(result.round, result.size, result.deal, result.seat)].append(result)
        rows.setdefault(result.player, MatchpointRow(result.player))
    for board in boards.values():
        if len(board) < 2:
            continue
        for result in board:
            row = rows[result.player]
            row.matchpoints += seat_matchpoints(
                result.points, (other.points for other in board if other is not result)
            )
            row.top += len(board) - 1
            row.deals += 1
    return sorted(rows.values(), key=lambda row: (*_order(row), row.player))


def _order(row: MatchpointRow) -> tuple:
    return (row.percent is None, -(row.percent or 0.0), -row.matchpoints)


def places(rows: list[MatchpointRow]) -> list[int | None]:
    """Each row's place (as :func:`matchpoints` orders them): equal percentage and matchpoints
    share a place; a row with nothing compared has none."""
    out: list[int | None] = []
    for index, row in enumerate(rows):
        if row.percent is None:
            out.append(None)
        elif index and _order(rows[index - 1]) == _order(row):
            out.append(out[-1])
        else:
            out.append(index + 1)
    return out
