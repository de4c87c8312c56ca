"""What one hand of a record came to (:class:`HandOutcome`), whether a friend can exist at a
table, and the deposit pot settled on an outcome: shared by the general replay
(:mod:`records.replaying`) and the recorded-outcome fast path (:mod:`records.summary`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cards import Bid, format_bid
from ..ruleset import Ruleset
from ..scoring import Score
from ..session import settle_pot


@dataclass
class HandOutcome:
    """What one hand of a record came to."""

    index: int
    status: str
    players: list[str]
    dealer: str | None = None
    declarer: str | None = None
    contract: Bid | None = None
    friend: str | None = None
    friend_call: str | None = None
    taken: int | None = None
    score: Score | None = None
    deltas: dict[str, int] = field(default_factory=dict)
    deal_miss_player: str | None = None
    pot_after: int = 0
    full: bool = False
    state: Any = None  # the final HandState of a full hand (None for recorded hands)
    opener: str | None = None  # who opened (or would have opened) the election
    eliminated: list[str] = field(default_factory=list)  # 6마, 7마: they score nothing
    # 시흥 은마 (table.dummy): whose own hand the declarer eliminated, a player (who then plays
    # the dummy's hand and scores like anyone) or "dummy"; None where not said. Nobody sits out,
    # so ``eliminated`` stays empty.
    eliminated_hand: str | None = None
    friend2: str | None = None  # the second friend of a two-card call (동대전 7마)

    def to_json(self) -> dict:
        """The acceptance interface's per-hand object (docs/record-format.md)."""
        score = self.score
        data = {
            "status": self.status,
            "declarer": self.declarer,
            "contract": format_bid(self.contract) if self.contract else None,
            "friend": self.friend,
            "taken": self.taken,
            "base": score.base_value if score else None,
            "multiplier": score.multiplier if score else None,
            "doublings": list(score.doublings) if score else [],
            "deltas": dict(self.deltas),
        }
        if self.friend2:  # a key added only where two cards made two friends (동대전 7마)
            data["friend2"] = self.friend2
        if self.eliminated:  # 6마, 7마, 시흥 은마: as a record says it
            data["eliminated"] = list(self.eliminated)
        elif self.eliminated_hand:
            data["eliminated"] = [self.eliminated_hand]
        return data


def friend_possible(rules: Ruleset) -> bool:
    """Whether a friend can exist at this table: three or more play the tricks and some friend
    call is allowed (3마 and 2마: the declarer is always alone)."""
    f = rules.friend
    return rules.playing >= 3 and (f.card or f.first_trick or f.last_trick or f.player)


def settle_outcome_pot(rules: Ruleset, outcome: HandOutcome, pot: int) -> HandOutcome:
    """A made contract wins the deposit pot (001 §2); a failed one leaves it."""
    move = settle_pot(
        rules,
        pot,
        outcome.status,
        dealer=outcome.dealer,
        declarer=outcome.declarer,
        friend=outcome.friend,
        success=outcome.score.success if outcome.score else None,
        players=outcome.players,
        friend2=outcome.friend2,
    )
    for player, amount in move.deltas.items():
        outcome.deltas[player] += amount
    outcome.pot_after = move.pot_after
    return outcome
