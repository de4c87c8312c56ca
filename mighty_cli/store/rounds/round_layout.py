"""What a round is as the store gives it back: the round (:class:`RoundState`: its number, its
tables, what its plan could not avoid, a duplicate round's deals and matchpoints), each table
(:class:`RoundTable`: its session, players in seat order, hands) and a table's seating changed
mid-round (:class:`SeatChange`); each as JSON for ``--json`` and the pages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...tournament.matchpoints import MatchpointRow
from ...tournament.plan import (
    PlanFacts,
)
from .planned_rounds import (
    PlanChange,
)


@dataclass
class SeatChange:
    """A table's seating changed mid-round (``round seat``): from the table's hand
    ``from_hand`` on it is session ``session``, without ``left`` and with ``joined``."""

    from_hand: int
    session: int
    left: list[str]
    joined: list[str]

    def to_json(self) -> dict:
        return {
            "from_hand": self.from_hand,
            "session": self.session,
            "left": self.left,
            "joined": self.joined,
        }


@dataclass
class RoundTable:
    """One table of a round: its number, its session (the latest, where its seating changed
    mid-round), its players in seat order (the first dealer first), its live hands over every
    seating it had, whether it is still playing, and how its seating changed."""

    table: int
    session: int
    players: list[str]
    hands: int = 0
    playing: bool = True
    hand_in_progress: bool = False
    changes: list[SeatChange] = field(default_factory=list)
    #: the table's entry code (:mod:`.entry_codes`): for those who run the night, never for a
    #: page anyone may read
    code: str | None = None

    def to_json(self) -> dict:
        return {
            "table": self.table,
            "session": self.session,
            "players": self.players,
            "hands": self.hands,
            "playing": self.playing,
            "hand_in_progress": self.hand_in_progress,
            "seat_changes": [change.to_json() for change in self.changes],
            "code": self.code,
        }


@dataclass
class RoundState:
    """A round: its number, its tables, and (when just planned) the plan's repeated pairs,
    their proven lower bound and the kept-apart pairs that could not be kept apart."""

    number: int
    tables: list[RoundTable]
    ended: bool = False
    repeated_pairs: int | None = None
    lower_bound: int | None = None
    broken_apart: list[tuple[str, str]] = field(default_factory=list)
    ahead: int = 0  # rounds planned together with this one and kept for later
    deal_seed: int | None = None  # a duplicate round's deals (round start --duplicate)
    matchpoints: list[MatchpointRow] = field(default_factory=list)  # a duplicate round's
    #: who sits in for whom (S, X, credited): :mod:`.substitutes`
    substitutes: list[tuple[str, str, bool]] = field(default_factory=list)
    #: when just planned: what the plan could not avoid (this round and those planned after)
    facts: PlanFacts | None = None
    #: a round of a plan of several: its place in the plan and the plan's length (None:
    #: unknown), and why the rounds ahead were planned again
    plan_round: tuple[int, int | None] | None = None
    replanned: PlanChange | None = None
    dropped: int = 0  # rounds planned ahead that seating by strength dropped

    def to_json(self) -> dict:
        data: dict[str, Any] = {"round": self.number, "tables": [t.to_json() for t in self.tables]}
        if self.substitutes:
            data["substitutes"] = [
                {"player": sub, "for": absent, "credited": credited}
                for sub, absent, credited in self.substitutes
            ]
        if self.deal_seed is not None:
            data["duplicate"] = {
                "seed": self.deal_seed,
                "matchpoints": [row.to_json() for row in self.matchpoints],
            }
        if self.repeated_pairs is not None:
            data["repeated_pairs"] = self.repeated_pairs
            data["lower_bound"] = self.lower_bound
            data["broken_apart"] = [list(p) for p in self.broken_apart]
            data["planned_ahead"] = self.ahead
            if self.facts is not None:
                data.update(self.facts.to_json())
            if self.plan_round is not None:
                data["plan"] = {"round": self.plan_round[0], "rounds": self.plan_round[1]}
            if self.replanned:
                data["planned_again"] = self.replanned.to_json()
            if self.dropped:
                data["dropped_ahead"] = self.dropped
        else:
            data["ended"] = self.ended
        return data
