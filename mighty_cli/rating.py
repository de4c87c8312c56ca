"""A rating for hidden-partner play: OpenSkill's Plackett-Luce team rating, each hand the
ruling party against the defenders and the contract's level, with each player's margin in
point cards beside it. Pure; no database.

Why not Elo or a team rating as it stands: a Mighty hand is two (or one) against three, the
teams are unequal by design and chosen in secret, and the payout depends on the contract far
more than on who played well. So each hand is rated as a game of two teams weighted by the
payout shares (declarer 2, each friend 1, each defender 1; 동대전 7마's two friends 1 each), and
the contract's level plays on the defenders' side as a player of its own, whose rating learns
how hard a bid of 18 is against one of 13: the party that made (or defeated) the contract
wins. OpenSkill (a well-kept library) updates each player's μ and σ (a Gaussian skill and its
uncertainty, widening a little between hands); its β, the spread of one hand's outcome, is four
times the library's default. The rating shown is ``1500 + 6·(μ − 25)`` (100 a β) with ``±``
two σ; it ranks by μ less two σ, so a lucky newcomer does not lead; a player is *provisional*
while σ is wide or his hands are few.

Beside it, each player's **margin** (what the rating kept from this project's own model): a
hand's margin, point cards taken less the contract, is modelled as

    margin = c[level] + (2/3·m_declarer + 1/3·m_friend) − mean(m_opponents) + noise

(the declarer alone: ``m_declarer`` in place of the ruling party's weighted mean), updated hand
by hand with a Kalman step; ``c[level]`` is the league's average margin at that level. ``mean``
is the player's margin in point cards a hand above the league's average.

Measured (``benchmarks/rating_compare.py``, three minutes of one core) on seasons played card by
card through the engine by twelve players of known skill (``mighty_cli.skill_play``: each
decision follows a sound heuristic with the player's probability, else is random; the election
as a club's: contracts over 13-18, one in seven at no-trump, deal misses), each family's
parameters chosen on 30 seasons and measured on 100 others: asked whether a held-out hand's
contract will be made, this rating's log loss is 0.4655, the margin model's (tuned) 0.4741 (the
rating better by 0.0086 ± 0.0024, in 70 of 100 seasons), score per hand 0.4800, the level
alone 0.4859; OpenSkill without the level's player 0.4638 (0.0017 ± 0.0012 better: within two
standard errors) but orders the players worse. The order after a season has a Spearman
correlation of 0.771 with the true skills; the margin's 0.795, OpenSkill without the level
0.732, score per hand 0.678: the margin ranks best and is shown beside the rating. The seasons
of ``mighty_cli.skill_season`` draw the point cards from the margin model itself: they check
its update, not the model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

from openskill.models import PlackettLuce

#: Prior standard deviation of a skill (point cards) and of a hand's margin around its
#: prediction; the drift added to a player's variance per hand played.
PRIOR_SD = 1.5
NOISE_SD = 3.0
DRIFT_SD = 0.02
#: OpenSkill's Plackett-Luce model: its μ and σ at the start, its β (the spread of one hand's
#: outcome) four times the library's default, the best held-out prediction on the seasons kept
#: for tuning (benchmarks/rating_compare.py).
MU = 25.0
SIGMA = MU / 3
BETA = 4 * SIGMA / 2
#: Below this many hands, or above this σ, a rating is provisional.
PROVISIONAL_HANDS = 30
PROVISIONAL_SIGMA = 6.5
#: The display scale: 1500 the start, 100 for each β of μ.
BASE, SCALE = 1500, 100 / BETA


@dataclass
class PlayerRating:
    """A player's rating: OpenSkill's ``mu`` and ``sigma`` (what is shown and ranks), and his
    margin, ``mean`` point cards a hand above the average with its ``variance``."""

    name: str
    mean: float = 0.0
    variance: float = PRIOR_SD ** 2
    hands: int = 0
    mu: float = MU
    sigma: float = SIGMA

    @property
    def sd(self) -> float:
        """The margin's standard deviation (point cards)."""
        return math.sqrt(self.variance)

    @property
    def rating(self) -> int:
        """The displayed rating."""
        return round(BASE + SCALE * (self.mu - MU))

    @property
    def uncertainty(self) -> int:
        """Two σ on the displayed scale (about a 95% interval)."""
        return round(2 * SCALE * self.sigma)

    @property
    def provisional(self) -> bool:
        return self.hands < PROVISIONAL_HANDS or self.sigma > PROVISIONAL_SIGMA

    @property
    def conservative(self) -> float:
        """μ less two σ: what ranks, so a lucky newcomer does not lead."""
        return self.mu - 2 * self.sigma


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
    #: OpenSkill's μ and σ of each contract level, a defender of every hand at that level
    levels: dict[int, tuple[float, float]] = field(default_factory=dict)
    #: the margin model's deviations (the module's by default; rating_compare.py tunes them)
    prior_sd: float = PRIOR_SD
    noise_sd: float = NOISE_SD
    drift_sd: float = DRIFT_SD

    def of(self, name: str) -> PlayerRating:
        if name not in self.players:
            self.players[name] = PlayerRating(name, variance=self.prior_sd ** 2)
        return self.players[name]

    def predicted(self, hand: RatedHand) -> float:
        """The margin the model expects for the hand before seeing it."""
        return self.level_mean.get(hand.level, 0.0) + sum(
            w * self.of(name).mean for name, w in _weights(hand))

    def predictive_sd(self, hand: RatedHand) -> float:
        """The deviation of the hand's margin around :meth:`predicted`: the noise and the
        players' uncertainty, weighted."""
        return math.sqrt(self.noise_sd ** 2 + sum(w * w * self.of(name).variance
                                                  for name, w in _weights(hand)))

    def margin_chance(self, hand: RatedHand) -> float:
        """The margin model's chance that the ruling party makes its contract (a margin of at
        least 0, the margin counted in whole cards), before seeing the hand."""
        z = (self.predicted(hand) + 0.5) / self.predictive_sd(hand)
        return 0.5 * math.erfc(-z / math.sqrt(2))

    def chance_made(self, hand: RatedHand) -> float:
        """The rating's chance that the ruling party makes its contract, before seeing the
        hand (OpenSkill's prediction, the contract's level among the defenders)."""
        return _MODEL.predict_win(self._teams(hand)[0])[0]

    def update(self, hand: RatedHand) -> None:
        """Take one hand into account: OpenSkill's update, the party that made or defeated
        the contract the winner, and the margin's Kalman step."""
        teams, weights = self._teams(hand)
        made = hand.taken >= hand.level
        rated = _MODEL.rate(teams, ranks=[0, 1] if made else [1, 0], weights=weights)
        for team in rated:
            for player in team:
                name = player.name or ""  # every rating _teams makes is named
                if name.startswith(_LEVEL):
                    self.levels[int(name[len(_LEVEL):])] = (player.mu, player.sigma)
                else:
                    self.players[name].mu = player.mu
                    self.players[name].sigma = player.sigma
        self._margin_step(hand)

    def _teams(self, hand: RatedHand) -> tuple[list, list]:
        """OpenSkill's two teams for a hand (the ruling party; the defenders and the
        contract's level) and their weights (the payout shares: declarer 2, friend 1)."""
        ruling = [hand.declarer] + [f for f in (hand.friend, hand.friend2)
                                    if f and f != hand.declarer]
        ruling = list(dict.fromkeys(ruling))
        defenders = [name for name in hand.opponents if name not in ruling]
        level = self.levels.get(hand.level, (MU, SIGMA))
        teams = [[_MODEL.rating(mu=self.of(n).mu, sigma=self.of(n).sigma, name=n)
                  for n in ruling],
                 [_MODEL.rating(mu=self.of(n).mu, sigma=self.of(n).sigma, name=n)
                  for n in defenders]
                 + [_MODEL.rating(mu=level[0], sigma=level[1], name=f"{_LEVEL}{hand.level}")]]
        weights = [[2.0] + [1.0] * (len(ruling) - 1), [1.0] * (len(defenders) + 1)]
        return teams, weights

    def _margin_step(self, hand: RatedHand) -> None:
        """The margin model's Kalman step on each player's margin."""
        weights = _weights(hand)
        margin = hand.taken - hand.level
        level_mean = self.level_mean.get(hand.level, 0.0)
        players = [(self.of(name), w) for name, w in weights]
        for player, _ in players:
            player.variance += self.drift_sd ** 2
        predicted = level_mean + sum(w * p.mean for p, w in players)
        spread = self.noise_sd ** 2 + sum(w * w * p.variance for p, w in players)
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
        """Players by conservative rating (μ less two σ), best first."""
        return sorted(self.players.values(), key=lambda p: (-p.conservative, p.name))


_MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)
_LEVEL = "\x00level "  # the contract level's pseudo-player (no player's name has a NUL)


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
    opponents = list(hand.opponents)
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
