"""The league's rating against the margin model it replaced, OpenSkill's models (their β, τ
and a pseudo-player for the contract's level tuned), score per hand and the contract's level
alone, on seasons played card by card by players of known skill
(``mighty_cli.league.played_seasons``: the engine's policies, bidding as a club does) and, with
``--kinds model,played``, on seasons drawn from the margin model itself
(``mighty_cli.league.model_seasons``).

    python benchmarks/rating_compare.py [--tune 30] [--seasons 100] [--hands 400]
                                        [--players 12] [--kinds played]

Two sets of seasons, kept apart: the first ``--tune`` (seeds 1, 2, ...) choose each family's
parameters (OpenSkill's model, β ×1-8, τ ×1 or ×4, with or without the level's player; the
margin model's deviations), by the held-out log loss; the ``--seasons`` after them (seeds 1001,
1002, ...) measure each family's chosen variant. For each season and method: Spearman's rank
correlation of the ratings after the whole season with the true skills; and a held-out
prediction: rated on the first 80% of the season's hands, each later hand's chance that the
ruling party makes its contract, scored by log loss. Each method's number for a hand (the
league's rating and OpenSkill: the logit of ``predict_win``; the margin model: the players' part
of the predicted margin; score per hand: the ruling party's weighted average score per hand less
the defenders') is calibrated to a probability by a logistic fit on it and the contract's
number, fitted on the season's own training hands (each predicted before it was rated, from the
second quarter of the season on): nothing held out is seen. "raw" is the model's own
probability where it has one. The table gives each method's mean, in how many seasons it was
the best and beat the league's rating, and its mean difference from the league's rating with
the standard error of that paired difference.

OpenSkill rates each hand as the ruling party (declarer and friend) against the defenders, the
party that won ranked first, weighted by the payout shares (declarer 2, friend 1, defenders 1).
"""

from __future__ import annotations

import argparse
import math
import resource
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mighty_cli.engine.records import replay
from mighty_cli.league.model_seasons import skill_season
from mighty_cli.league.played_seasons import played_season
from mighty_cli.league.rating import RatedHand, Ratings, spearman

#: The share of a season rated before the held-out hands, and where the calibration's training
#: predictions start (the first ratings know next to nothing).
TRAIN_SHARE = 0.8
CALIBRATION_START = 0.25
#: OpenSkill's models tuned: each with β and τ this many times the library's default, with or
#: without a player for the contract's level among the defenders.
OPENSKILL_MODELS = ("PlackettLuce", "ThurstoneMostellerFull", "BradleyTerryFull")
BETAS = (1, 2, 4, 8)
TAUS = (1, 4)
#: The margin model's deviations tried: the prior's, the noise's, the drift's (point cards).
MARGIN_MODELS = tuple(
    (prior, noise, drift)
    for prior in (1.0, 1.5, 2.5)
    for noise in (2.5, 3.0, 4.0)
    for drift in (0.02, 0.1)
)
#: The seeds of the fresh seasons start here (the tuning seasons' are 1, 2, ...).
FRESH = 1001


@dataclass
class Hand:
    """One scored hand as the methods see it."""

    rated: RatedHand
    made: bool
    deltas: dict[str, int]


@dataclass
class SeasonHands:
    """A season's hands in order (None for a hand not scored: a redeal), with the true skills."""

    hands: list[Hand | None]
    skills: dict[str, float]


def season_hands(kind: str, seed: int, hands: int, players: int) -> SeasonHands:
    """A season of ``kind`` (``model``: skill_season; ``played``: skill_play), replayed by the
    engine for its scores."""
    names = [f"P{i:02d}" for i in range(players)]
    make = skill_season if kind == "model" else played_season
    season = make(names, hands, seed=seed)
    result = replay(season.record)
    found: list[Hand | None] = []
    for outcome in result.hands:
        if outcome.status != "scored":
            found.append(None)
            continue
        rated = RatedHand(
            outcome.declarer,
            outcome.friend,
            [p for p in outcome.players if p not in (outcome.declarer, outcome.friend)],
            outcome.contract.number,
            outcome.taken,
        )
        found.append(Hand(rated, outcome.taken >= outcome.contract.number, dict(outcome.deltas)))
    return SeasonHands(found, season.skills)


# --- measures ---------------------------------------------------------------------------------


def log_loss(probabilities: Sequence[float], outcomes: Sequence[bool]) -> float:
    """The mean negative log-likelihood of the outcomes (probabilities clipped to 1e-6)."""
    total = 0.0
    for p, made in zip(probabilities, outcomes):
        p = min(1 - 1e-6, max(1e-6, p))
        total -= math.log(p if made else 1 - p)
    return total / len(outcomes)


def logistic_fit(
    rows: Sequence[Sequence[float]], outcomes: Sequence[bool], ridge: float = 1e-3, steps: int = 50
) -> list[float]:
    """Coefficients of a logistic regression (an intercept first, then one per column), by
    Newton's method with a small ridge so a separable or constant column cannot diverge."""
    width = len(rows[0]) + 1 if rows else 1
    beta = [0.0] * width
    for _ in range(steps):
        gradient = [-ridge * b for b in beta]
        hessian = [[ridge if i == j else 0.0 for j in range(width)] for i in range(width)]
        for row, made in zip(rows, outcomes):
            x = (1.0, *row)
            p = _sigmoid(sum(b * v for b, v in zip(beta, x)))
            weight = p * (1 - p)
            for i in range(width):
                gradient[i] += (made - p) * x[i]
                for j in range(width):
                    hessian[i][j] += weight * x[i] * x[j]
        step = _solve(hessian, gradient)
        beta = [b + s for b, s in zip(beta, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return beta


def calibrated(beta: Sequence[float], row: Sequence[float]) -> float:
    return _sigmoid(beta[0] + sum(b * v for b, v in zip(beta[1:], row)))


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x > -700 else 0.0


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """matrix⁻¹·vector by Gaussian elimination (a few columns)."""
    n = len(vector)
    a = [row[:] + [v] for row, v in zip(matrix, vector)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[col][col]:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] if a[i][i] else 0.0 for i in range(n)]


# --- the methods ----------------------------------------------------------------------------


class Method:
    """A rating method: take a hand in, say a number about a hand before it (larger: likelier
    made), its own probability if it has one, and each player's rating."""

    name = ""

    def update(self, hand: Hand) -> None:
        raise NotImplementedError

    def signal(self, hand: RatedHand) -> float:
        raise NotImplementedError

    def raw(self, hand: RatedHand) -> float | None:
        return None

    def strength(self, name: str) -> float:
        raise NotImplementedError


class League(Method):
    """The league's rating (mighty_cli.league.rating): OpenSkill with the contract's level."""

    name = "the league's rating"

    def __init__(self) -> None:
        self.ratings = Ratings()

    def update(self, hand: Hand) -> None:
        self.ratings.update(hand.rated)

    def raw(self, hand: RatedHand) -> float:
        return self.ratings.chance_made(hand)

    def signal(self, hand: RatedHand) -> float:
        p = min(1 - 1e-9, max(1e-9, self.raw(hand)))
        return math.log(p / (1 - p))

    def strength(self, name: str) -> float:
        return self.ratings.of(name).mu


class Margin(Method):
    """The margin model (the league's rating before: point cards against the contract)."""

    def __init__(self, prior: float = 1.5, noise: float = 3.0, drift: float = 0.02) -> None:
        self.ratings = Ratings(prior_sd=prior, noise_sd=noise, drift_sd=drift)
        self.name = f"margin model {prior:g}/{noise:g}/{drift:g}"

    def update(self, hand: Hand) -> None:
        self.ratings.update(hand.rated)

    def signal(self, hand: RatedHand) -> float:
        # the players' part of the predicted margin: the contract's part (the level's average
        # margin) is left to the calibration, which has the level
        return self.ratings.predicted(hand) - self.ratings.level_mean.get(hand.level, 0.0)

    def raw(self, hand: RatedHand) -> float:
        return self.ratings.margin_chance(hand)

    def strength(self, name: str) -> float:
        return self.ratings.of(name).mean


class OpenSkill(Method):
    def __init__(
        self, model_name: str, beta: float = 1, tau: float = 1, level: bool = False
    ) -> None:
        from openskill import models

        make = getattr(models, model_name)
        default = make()
        self.model = make(beta=default.beta * beta, tau=default.tau * tau)
        self.level = level
        self.family = f"OpenSkill {model_name}"
        self.name = f"{self.family} β×{beta:g} τ×{tau:g}" + (", level" if level else "")
        self.players: dict[str, object] = {}

    def _rating(self, name: str):
        if name not in self.players:
            self.players[name] = self.model.rating(name=name)
        return self.players[name]

    def _teams(self, hand: RatedHand) -> tuple[list, list]:
        ruling = [hand.declarer] + [
            f for f in (hand.friend, hand.friend2) if f and f != hand.declarer
        ]
        opponents = [n for n in hand.opponents if n not in ruling]
        teams = [[self._rating(n) for n in ruling], [self._rating(n) for n in opponents]]
        weights = [[2.0] + [1.0] * (len(ruling) - 1), [1.0] * len(opponents)]
        if self.level:
            teams[1].append(self._rating(f"level {hand.level}"))
            weights[1].append(1.0)
        return teams, weights

    def update(self, hand: Hand) -> None:
        teams, weights = self._teams(hand.rated)
        new = self.model.rate(teams, ranks=[0, 1] if hand.made else [1, 0], weights=weights)
        for team in new:
            for player in team:
                self.players[player.name] = player

    def raw(self, hand: RatedHand) -> float:
        teams, _weights = self._teams(hand)
        return self.model.predict_win(teams)[0]

    def signal(self, hand: RatedHand) -> float:
        p = min(1 - 1e-9, max(1e-9, self.raw(hand)))
        return math.log(p / (1 - p))

    def strength(self, name: str) -> float:
        player = self.players.get(name)
        return player.mu if player is not None else self.model.mu


class ScorePerHand(Method):
    name = "score per hand"

    def __init__(self) -> None:
        self.score: dict[str, int] = {}
        self.played: dict[str, int] = {}

    def update(self, hand: Hand) -> None:
        for name, delta in hand.deltas.items():
            self.score[name] = self.score.get(name, 0) + delta
            self.played[name] = self.played.get(name, 0) + 1

    def strength(self, name: str) -> float:
        return self.score.get(name, 0) / max(1, self.played.get(name, 0))

    def signal(self, hand: RatedHand) -> float:
        friend = hand.friend if hand.friend and hand.friend != hand.declarer else None
        ruling = (
            (2 * self.strength(hand.declarer) + self.strength(friend)) / 3
            if friend
            else self.strength(hand.declarer)
        )
        return ruling - statistics.fmean(self.strength(n) for n in hand.opponents)


class LevelOnly(Method):
    """No rating: the calibration on the contract's number alone (a floor to beat)."""

    name = "level only (no rating)"

    def update(self, hand: Hand) -> None:
        pass

    def signal(self, hand: RatedHand) -> float:
        return 0.0

    def strength(self, name: str) -> float:
        return 0.0


def candidates() -> dict[str, list[Callable[[], Method]]]:
    """Each family's variants, tuned on the tuning seasons."""
    families: dict[str, list[Callable[[], Method]]] = {
        "margin model": [lambda p=p, n=n, d=d: Margin(p, n, d) for p, n, d in MARGIN_MODELS]
    }
    for model in OPENSKILL_MODELS:
        families[f"OpenSkill {model}"] = [
            lambda m=model, b=b, t=t, lv=lv: OpenSkill(m, b, t, lv)
            for b in BETAS
            for t in TAUS
            for lv in (False, True)
        ]
    return families


# --- one season -------------------------------------------------------------------------------


@dataclass
class Measured:
    rho: float
    log_loss: float
    raw_log_loss: float | None


def measure(method: Method, season: SeasonHands) -> Measured:
    """Spearman after the whole season; log loss on the held-out last fifth."""
    hands = season.hands
    cut = round(TRAIN_SHARE * len(hands))
    start = round(CALIBRATION_START * len(hands))
    train_rows, train_made = [], []
    for index, hand in enumerate(hands[:cut]):
        if hand is None:
            continue
        if index >= start:
            train_rows.append((method.signal(hand.rated), hand.rated.level))
            train_made.append(hand.made)
        method.update(hand)
    beta = logistic_fit(train_rows, train_made)
    held = [hand for hand in hands[cut:] if hand is not None]
    made = [hand.made for hand in held]
    loss = log_loss([calibrated(beta, (method.signal(h.rated), h.rated.level)) for h in held], made)
    raws = [method.raw(h.rated) for h in held]
    raw_loss = log_loss(raws, made) if raws and raws[0] is not None else None
    for hand in hands[cut:]:
        if hand is not None:
            method.update(hand)
    names = sorted(season.skills)
    rho = (
        spearman([season.skills[n] for n in names], [method.strength(n) for n in names])
        if not isinstance(method, LevelOnly)
        else float("nan")
    )
    return Measured(rho, loss, raw_loss)


@dataclass
class Table:
    """Each method's measures over the seasons of one kind."""

    kind: str
    rows: dict[str, list[Measured]] = field(default_factory=dict)

    def add(self, name: str, measured: Measured) -> None:
        self.rows.setdefault(name, []).append(measured)

    def lines(self) -> list[str]:
        """The table: mean ρ, in how many seasons the method's ρ was the best (ties count for
        each) and beat the league's rating (the first row), the mean difference from it over the
        seasons with its standard error; the same for the held-out log loss (lower is better);
        the raw log loss."""
        names = list(self.rows)
        ours = self.rows[names[0]]
        seasons = len(ours)
        rated = [n for n in names if not math.isnan(self.rows[n][0].rho)]
        out = [
            f"{self.kind}: {seasons} seasons",
            f"{'method':<44} {'mean ρ':>6} {'best':>4} {'>1st':>5} {'Δ 1st ± se':>14}"
            f" {'log loss':>8} {'best':>4} {'>1st':>5} {'Δ 1st ± se':>16} {'raw':>6}",
        ]
        for name in names:
            rows = self.rows[name]
            rho = rho_best = rho_beats = rho_diff = ""
            if name in rated:
                rho = f"{statistics.fmean(r.rho for r in rows):.3f}"
                rho_best = sum(
                    rows[i].rho >= max(self.rows[n][i].rho for n in rated) - 1e-12
                    for i in range(seasons)
                )
                rho_beats = sum(r.rho > o.rho for r, o in zip(rows, ours))
                rho_diff = _difference([r.rho - o.rho for r, o in zip(rows, ours)], 3)
            loss_best = sum(
                rows[i].log_loss <= min(self.rows[n][i].log_loss for n in names) + 1e-12
                for i in range(seasons)
            )
            loss_beats = sum(r.log_loss < o.log_loss for r, o in zip(rows, ours))
            loss_diff = _difference([r.log_loss - o.log_loss for r, o in zip(rows, ours)], 4)
            raw = (
                ""
                if rows[0].raw_log_loss is None
                else f"{statistics.fmean(r.raw_log_loss for r in rows):.3f}"
            )
            if name == names[0]:
                rho_beats = loss_beats = rho_diff = loss_diff = "-"
            out.append(
                f"{name:<44} {rho:>6} {rho_best:>4} {rho_beats:>5} {rho_diff:>14}"
                f" {statistics.fmean(r.log_loss for r in rows):>8.4f} {loss_best:>4}"
                f" {loss_beats:>5} {loss_diff:>16} {raw:>6}"
            )
        return out


def _difference(values: Sequence[float], places: int) -> str:
    """A paired difference's mean ± its standard error."""
    mean = statistics.fmean(values)
    error = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{mean:+.{places}f} ± {error:.{places}f}"


def seasons(kind: str, seeds: Sequence[int], hands: int, players: int) -> list[SeasonHands]:
    return [season_hands(kind, seed, hands, players) for seed in seeds]


def tune(data: Sequence[SeasonHands]) -> tuple[list[Callable[[], Method]], list[str]]:
    """Each family's variant of the least mean held-out log loss on ``data``, and the lines
    saying what each family chose."""
    chosen, lines = [], []
    for family, variants in candidates().items():
        scored = []
        for make in variants:
            losses = [measure(make(), season).log_loss for season in data]
            scored.append((statistics.fmean(losses), make))
        loss, best = min(scored, key=lambda item: item[0])
        chosen.append(best)
        lines.append(f"  {family}: {best().name} (log loss {loss:.4f} over {len(scored)} variants)")
    return chosen, lines


def compare(
    kind: str, data: Sequence[SeasonHands], makers: Sequence[Callable[[], Method]]
) -> Table:
    table = Table(kind)
    for season in data:
        for make in makers:
            method = make()
            table.add(method.name, measure(method, season))
    return table


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tune", type=int, default=30, help="tuning seasons (seeds 1, 2, ...)")
    parser.add_argument(
        "--seasons",
        type=int,
        default=100,
        help=f"fresh seasons measured (seeds {FRESH}, {FRESH + 1}, ...)",
    )
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--kinds", default="played", help="played, model or both")
    args = parser.parse_args(argv)
    start, cpu = time.perf_counter(), time.process_time()
    print(
        f"{args.hands} hands, {args.players} players; held out: the last "
        f"{1 - TRAIN_SHARE:.0%} of each season; tuned on {args.tune} seasons, measured on "
        f"{args.seasons} others"
    )
    for kind in args.kinds.split(","):
        tuned, lines = tune(seasons(kind, range(1, args.tune + 1), args.hands, args.players))
        print(f"\n{kind}: chosen on the tuning seasons")
        print("\n".join(lines))
        makers = [League, *tuned, ScorePerHand, LevelOnly]
        fresh = seasons(kind, range(FRESH, FRESH + args.seasons), args.hands, args.players)
        print()
        print("\n".join(compare(kind, fresh, makers).lines()), flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(
        f"\n{time.perf_counter() - start:.1f} s wall, {time.process_time() - cpu:.1f} s CPU, "
        f"peak memory {peak / 1024:.0f} MiB (maximum resident set)"
    )


if __name__ == "__main__":
    main()
