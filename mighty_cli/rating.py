"""A rating for hidden-partner play: each player's skill, measured in point cards, with its
uncertainty. Pure; no database.

Why not Elo or a team rating as it stands: a Mighty hand is two (or one) against three, the
teams are unequal by design and chosen in secret, and the payout depends on the contract far
more than on who played well. Skat's league ratings answer the same problem by comparing what a
player achieved with what the situation predicted. This model does that with the hand's most
informative number, the ruling party's **margin**: point cards taken minus the contract.

Model. Player *i* has skill ``r_i`` (point cards; 0 is the league's average). A hand's margin is

    margin = c[level] + (2/3·r_declarer + 1/3·r_friend) − mean(r_opponents) + noise

(the declarer alone: ``r_declarer`` in place of the ruling party's weighted mean). The weights
mirror the payout shares, declarer ×2 and each friend ×1 (two friends, 동대전 7마: 1/2, 1/4 and
1/4); ``c[level]`` is the league's average margin at that contract level (a bid of 18 is
harder than 13), learned as hands come in.
Ratings are updated hand by hand with a Kalman step (a Gaussian prior per player, a diagonal
approximation as Glicko and TrueSkill make), so each rating carries a standard deviation that
shrinks as the player plays and widens a little between hands (skills drift). A player is
*provisional* while that deviation is large or their hands are few.

The score shown is ``1500 + 100·r``: +100 is one point card per hand of a ruling party.

Measured (``benchmarks/rating_compare.py``, 30 seasons of 400 hands among 12 players) on seasons
played card by card through the engine by players of known skill (``mighty_cli.skill_play``:
each decision follows a sound heuristic with the player's probability, else is random; nothing
there assumes this model): the rating's order after a season has a Spearman correlation of 0.79
with the true skills on average, OpenSkill's Plackett-Luce (the ruling party against the
defenders, weighted by the payout shares) 0.77, each the better in half the seasons, and score
per hand 0.64. Asked whether a held-out hand's contract will be made, OpenSkill is the better
(log loss 0.587 against 0.601, the contract's level alone 0.617). The site ranks and predicts
nothing, so this model stays. The seasons of ``mighty_cli.skill_season`` draw the point cards
from this very model: on them the rating recovers the skills (0.90, OpenSkill 0.81), which checks
the update, not the model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

#: Prior standard deviation of a skill (point cards) and of a hand's margin around its
#: prediction; the drift added to a player's variance per hand played.
PRIOR_SD = 1.5
NOISE_SD = 3.0
DRIFT_SD = 0.02
#: Below this many hands, or above this deviation, a rating is provisional.
PROVISIONAL_HANDS = 30
PROVISIONAL_SD = 0.6
#: The display scale.
BASE, SCALE = 1500, 100


@dataclass
class PlayerRating:
    name: str
    mean: float = 0.0
    variance: float = PRIOR_SD ** 2
    hands: int = 0

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    @property
    def rating(self) -> int:
        """The displayed rating."""
        return round(BASE + SCALE * self.mean)

    @property
    def uncertainty(self) -> int:
        """Two standard deviations on the displayed scale (about a 95% interval)."""
        return round(2 * SCALE * self.sd)

    @property
    def provisional(self) -> bool:
        return self.hands < PROVISIONAL_HANDS or self.sd > PROVISIONAL_SD

    @property
    def conservative(self) -> float:
        """The rating less two deviations: what ranks, so a lucky newcomer does not lead."""
        return self.mean - 2 * self.sd


@dataclass
class RatedHand:
    """What the rating needs from one scored hand."""

    declarer: str
    friend: Optional[str]
    opponents: Sequence[str]
    level: int                       # the contract's number
    taken: int
    friend2: Optional[str] = None    # 동대전 7마's second friend (friend.called_cards = 2)


@dataclass
class Ratings:
    players: dict[str, PlayerRating] = field(default_factory=dict)
    level_mean: dict[int, float] = field(default_factory=dict)
    level_count: dict[int, int] = field(default_factory=dict)

    def of(self, name: str) -> PlayerRating:
        if name not in self.players:
            self.players[name] = PlayerRating(name)
        return self.players[name]

    def predicted(self, hand: RatedHand) -> float:
        """The margin the model expects for the hand before seeing it."""
        return self.level_mean.get(hand.level, 0.0) + sum(
            w * self.of(name).mean for name, w in _weights(hand))

    def predictive_sd(self, hand: RatedHand) -> float:
        """The deviation of the hand's margin around :meth:`predicted`: the noise and the
        players' uncertainty, weighted."""
        return math.sqrt(NOISE_SD ** 2 + sum(w * w * self.of(name).variance
                                             for name, w in _weights(hand)))

    def chance_made(self, hand: RatedHand) -> float:
        """The chance that the ruling party makes its contract (a margin of at least 0, the
        margin counted in whole cards), before seeing the hand."""
        z = (self.predicted(hand) + 0.5) / self.predictive_sd(hand)
        return 0.5 * math.erfc(-z / math.sqrt(2))

    def update(self, hand: RatedHand) -> None:
        """Take one hand into account (a Kalman step on each player's skill)."""
        weights = _weights(hand)
        margin = hand.taken - hand.level
        level_mean = self.level_mean.get(hand.level, 0.0)
        players = [(self.of(name), w) for name, w in weights]
        for player, _ in players:
            player.variance += DRIFT_SD ** 2
        predicted = level_mean + sum(w * p.mean for p, w in players)
        spread = NOISE_SD ** 2 + sum(w * w * p.variance for p, w in players)
        error = margin - predicted
        for player, w in players:
            gain = player.variance * w / spread
            player.mean += gain * error
            player.variance *= max(1e-6, 1 - gain * w)
            player.hands += 1
        # The level's average margin, net of who played (as predicted before this hand).
        count = self.level_count.get(hand.level, 0) + 1
        self.level_count[hand.level] = count
        self.level_mean[hand.level] = level_mean + error / count

    def ranked(self) -> list[PlayerRating]:
        """Players by conservative rating (mean less two deviations), best first."""
        return sorted(self.players.values(), key=lambda p: (-p.conservative, p.name))


def _weights(hand: RatedHand) -> list[tuple[str, float]]:
    """Each player's weight in the predicted margin: the ruling party's shares (declarer 2,
    each friend 1) positive, the opposition's equal shares negative."""
    if hand.friend and hand.friend != hand.declarer and hand.friend2 \
            and hand.friend2 not in (hand.declarer, hand.friend):
        ruling = [(hand.declarer, 1 / 2), (hand.friend, 1 / 4), (hand.friend2, 1 / 4)]
    elif hand.friend and hand.friend != hand.declarer:
        ruling = [(hand.declarer, 2 / 3), (hand.friend, 1 / 3)]
    else:
        ruling = [(hand.declarer, 1.0)]
    opponents = [name for name in hand.opponents]
    return ruling + [(name, -1 / len(opponents)) for name in opponents] if opponents else ruling


def rate(hands: Iterable[RatedHand]) -> Ratings:
    """Ratings after the hands, in order."""
    ratings = Ratings()
    for hand in hands:
        ratings.update(hand)
    return ratings


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (ties get their average rank)."""
    def ranks(values: Sequence[float]) -> list[float]:
        order = sorted(range(len(values)), key=lambda i: values[i])
        result = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                result[order[k]] = (i + j) / 2
            i = j + 1
        return result

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    vy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return cov / (vx * vy) if vx and vy else 0.0
