"""000 §8's deposit pot won by the winning team, stored in a league: when the contract fails,
the opposition shares the pot (the league passes the hand's players to the pot rule)."""

from __future__ import annotations

from mighty_cli.engine.ruleset import ruleset_from_toml
from mighty_cli.store import services as sv

from databases import run

FIVE = ["Ana", "Bo", "Cy", "Di", "Ed"]
WINNING_TEAM = """extends = "standard"
[deposit]
per_deal_miss = 6
won_by = "winning_team"
"""


def pot_points(engine, league="pot") -> dict:
    return {r.stats.name: r.stats.score for r in run(engine, sv.standings, league).rows}


def test_failed_contract_gives_the_pot_to_the_opposition(engine, tmp_path):
    rules = ruleset_from_toml(WINNING_TEAM, label="winning-team", relative_to=tmp_path).ruleset
    run(engine, sv.create_league, "pot", rules, who="t")
    run(engine, sv.start_session, "pot", FIVE, who="t")
    run(engine, sv.record_hand, "pot", deal_miss="Ed", who="t")
    done = run(engine, sv.record_hand, "pot", declarer="Bo", contract="15D", friend="Cy",
               taken=10, who="t")
    # the contract failed: Ana, Di and Ed (the opposition) take 2 each of the 6 in the pot
    assert done.hand.pot_after == 0
    scores = pot_points(engine)
    failed = {"Bo": -10, "Cy": -5, "Ana": 5, "Di": 5, "Ed": 5}
    assert scores == {name: failed[name] + {"Ed": -6}.get(name, 0)
                      + (2 if name in ("Ana", "Di", "Ed") else 0) for name in FIVE}
