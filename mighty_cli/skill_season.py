"""Simulated seasons with players of known strength, as hand records (docs/record-format.md) that
``mighty replay`` checks and ``mighty import`` stores. Stdlib only; seeded.

The skill model, for checking the rating (:mod:`mighty_cli.rating`) recovers what it assumes:
it is the rating's own margin model, so a measure of the rating is made on seasons played card by
card too (:mod:`mighty_cli.skill_play`, ``benchmarks/rating_compare.py``). The model:
each player has a true skill ``s`` (standard normal). Each hand deals every player a hand
strength; the strongest bids (13 + what its strength promises, 20 at most) and calls a friend
among the others (one hand in ten alone). The ruling party's point cards are

    taken = bid + (strength − promised)
            + 1.5·((2/3·s_declarer + 1/3·s_friend) − mean(s_opponents)) + noise (sd 2.5),
    rounded and kept within 0..20

so better players make more contracts and defeat more, but luck (the deal, the noise) decides
many hands, and the seat at the table decides who bids: score per hand is a noisy measure.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterator, Optional, Sequence

from .engine.records import Record
from .engine.ruleset import Ruleset, load_ruleset
from .engine.session import PreviousHand, Proposal, propose

#: How much one unit of skill difference moves the ruling party's point cards.
SKILL_EFFECT = 1.5
NOISE = 2.5
CALLS = ("SA", "JK", "HA", "CA", "DK", "first-trick")


@dataclass
class Season:
    record: Record
    skills: dict[str, float]


class SeasonTables:
    """Who plays each hand of a simulated season: sessions of ``per_session`` hands, each with
    ``at_table`` of the players drawn to be present, the ruleset's succession within a session
    (the caller sets :attr:`previous` after each hand)."""

    def __init__(self, rules: Ruleset, players: Sequence[str], per_session: int, at_table: int,
                 rng: random.Random) -> None:
        self.rules, self.players, self.rng = rules, list(players), rng
        self.per_session, self.at_table = per_session, at_table
        self.previous: Optional[PreviousHand] = None

    def hands(self, count: int) -> Iterator[tuple[int, int, Proposal]]:
        """Each hand's index (0, 1, ...), session number and proposal."""
        session = 0
        seats: list[str] = []
        for index in range(count):
            if index % self.per_session == 0:
                session += 1
                seats = self.rng.sample(self.players, min(self.at_table, len(self.players)))
                self.previous = None
            yield index, session, propose(self.rules, seats, self.previous)


def skill_season(players: Sequence[str], hands: int, seed: int = 1, per_session: int = 40,
                 at_table: int = 6, ruleset: str = "standard",
                 skills: Optional[dict[str, float]] = None) -> Season:
    """A season of ``hands`` recorded hands among ``players``: sessions of ``per_session``
    hands with ``at_table`` (5 to 7) of them present, each with its true skill."""
    rng = random.Random(seed)
    rules = load_ruleset(ruleset)
    skills = dict(skills) if skills else {name: rng.gauss(0, 1) for name in players}
    records: list[dict] = []
    tables = SeasonTables(rules, players, per_session, at_table, rng)
    for _index, session, proposal in tables.hands(hands):
        five = list(proposal.players)
        strength = {name: rng.gauss(0, 1.5) for name in five}
        declarer = max(five, key=lambda n: strength[n])
        promised = max(0, round(strength[declarer]))
        bid = min(20, 13 + promised)
        others = [n for n in five if n != declarer]
        friend = None if rng.random() < 0.1 else rng.choice(others)
        opponents = [n for n in others if n != friend]
        ruling = (2 / 3 * skills[declarer] + 1 / 3 * skills[friend]) if friend \
            else skills[declarer]
        edge = ruling - sum(skills[n] for n in opponents) / len(opponents)
        taken = bid + (strength[declarer] - promised) + SKILL_EFFECT * edge + rng.gauss(0, NOISE)
        taken = max(0, min(20, round(taken)))
        trump = rng.choice(("S", "D", "H", "C", "S", "D", "H", "C", "NT"))
        call = "none" if friend is None else rng.choice(CALLS)
        records.append({"session": session, "players": five, "dealer": proposal.dealer,
                        "declarer": declarer, "contract": f"{bid}{trump}",
                        "friend": friend or "none", "friend_call": call, "taken": taken})
        tables.previous = PreviousHand("scored", proposal.players, proposal.dealer, declarer,
                                       friend, taken >= bid)
    return Season(Record(ruleset=ruleset, players=list(players), hands=records), skills)
