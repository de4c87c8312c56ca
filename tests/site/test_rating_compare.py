"""The rating comparison's building blocks (benchmarks/rating_compare.py): seasons played card by
card are reproducible from their seed and replay; log loss, the logistic calibration and the
rating's own chance of a contract made on known inputs; a tiny run prints the table's rows."""

from __future__ import annotations

import importlib.util
import math
import re
import sys
from pathlib import Path

import pytest

from mighty_cli.engine.records import dump_record, replay
from mighty_cli.league.played_seasons import played_season
from mighty_cli.league.rating import RatedHand, Ratings

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "rating_compare.py"
NAMES = [f"P{i}" for i in range(7)]


@pytest.fixture(scope="module")
def compare():
    spec = importlib.util.spec_from_file_location("rating_compare", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


def test_a_played_season_is_reproducible_from_its_seed():
    one, again, other = (played_season(NAMES, 30, seed=s, per_session=10) for s in (4, 4, 5))
    assert dump_record(one.record) == dump_record(again.record)
    assert one.skills == again.skills
    assert dump_record(one.record) != dump_record(other.record)
    assert all(0 <= skill <= 1 for skill in one.skills.values())


def test_a_played_season_replays_with_its_sessions():
    season = played_season(NAMES, 30, seed=2, per_session=10, at_table=6)
    result = replay(season.record)
    assert len(result.hands) == 30
    assert {hand["session"] for hand in season.record.hands} == {1, 2, 3}
    assert sum(o.status == "scored" for o in result.hands) > 20
    assert sum(result.totals.values()) + result.pot == 0


def test_log_loss_on_known_inputs(compare):
    assert compare.log_loss([0.5, 0.5], [True, False]) == pytest.approx(math.log(2))
    assert compare.log_loss([0.9, 0.2], [True, False]) == pytest.approx(
        -(math.log(0.9) + math.log(0.8)) / 2
    )
    assert compare.log_loss([1.0], [False]) == pytest.approx(-math.log(1e-6))  # clipped


def test_the_logistic_fit_finds_the_rate_and_the_slope(compare):
    # no column: the intercept is the log-odds of the rate (3 in 4 made)
    beta = compare.logistic_fit([()] * 400, [True, True, True, False] * 100)
    assert beta[0] == pytest.approx(math.log(3), abs=1e-2)
    # one column, outcomes in the proportions a slope of 2 gives at x = ±1
    p = 1 / (1 + math.exp(-2))
    rows = [(1.0,)] * 1000 + [(-1.0,)] * 1000
    made = [i < round(1000 * p) for i in range(1000)] + [
        i < round(1000 * (1 - p)) for i in range(1000)
    ]
    beta = compare.logistic_fit(rows, made)
    assert beta[0] == pytest.approx(0, abs=1e-2) and beta[1] == pytest.approx(2, abs=2e-2)
    assert compare.calibrated(beta, (1.0,)) == pytest.approx(p, abs=1e-3)


def test_the_margin_models_chance_follows_the_predicted_margin():
    ratings = Ratings()
    hand = RatedHand("Ana", "Bo", ["Cy", "Di", "Ed"], 14, 0)
    assert ratings.margin_chance(hand) == pytest.approx(
        0.5 * math.erfc(-0.5 / ratings.predictive_sd(hand) / math.sqrt(2))
    )
    ratings.level_mean[14] = 6.0  # the league makes 14 by six cards on average
    assert ratings.margin_chance(hand) > 0.9
    ratings.level_mean[14] = -6.0
    assert ratings.margin_chance(hand) < 0.1


def test_the_ratings_chance_follows_the_players_and_the_level():
    """OpenSkill's prediction (its teams' sums: two against three and the level, which the
    benchmark's calibration takes out): lower once the level has been lost, and lower still
    for the declarer and friend who lost it."""
    ratings = Ratings()
    hand = RatedHand("Ana", "Bo", ["Cy", "Di", "Ed"], 18, 10)
    other = RatedHand("Fay", "Gus", ["Hu", "Ida", "Jo"], 18, 10)
    start = ratings.chance_made(hand)
    assert ratings.chance_made(other) == pytest.approx(start)
    for _ in range(20):
        ratings.update(hand)
    assert ratings.chance_made(hand) < ratings.chance_made(other) < start


def test_seasons_of_both_kinds_give_the_methods_the_same_hands(compare):
    model = compare.season_hands("model", 3, 40, 6)
    played = compare.season_hands("played", 3, 40, 6)
    assert compare.season_hands("played", 3, 40, 6) == played
    for season in (model, played):
        assert len(season.hands) == 40 and len(season.skills) == 6
        scored = [hand for hand in season.hands if hand is not None]
        assert all(hand.made == (hand.rated.taken >= hand.rated.level) for hand in scored)


def test_a_tiny_run_prints_every_row(compare, capsys):
    compare.main(
        [
            "--tune",
            "1",
            "--seasons",
            "1",
            "--hands",
            "60",
            "--players",
            "6",
            "--kinds",
            "model,played",
        ]
    )
    out = capsys.readouterr().out
    for kind in ("model: 1 seasons", "played: 1 seasons", "played: chosen on the tuning"):
        assert kind in out
    for row in (
        "the league's rating",
        "margin model ",
        "OpenSkill PlackettLuce β×",
        "OpenSkill ThurstoneMostellerFull β×",
        "OpenSkill BradleyTerryFull β×",
        "score per hand",
        "level only (no rating)",
    ):
        assert len(re.findall(rf"^{re.escape(row)}", out, re.MULTILINE)) == 2, row
    assert "peak memory" in out
