"""000 §8's deposit pot won by the winning team, stored in a league: when the contract fails,
the opposition shares the pot (the league passes the hand's players to the pot rule)."""

from __future__ import annotations

from databases import run
from mighty_cli.engine.ruleset import ruleset_from_toml
from mighty_cli.store.ledger.hands import record_hand
from mighty_cli.store.ledger.leagues import create_league
from mighty_cli.store.ledger.queries import standings
from mighty_cli.store.ledger.sessions import start_session

FIVE = ["Ana", "Bo", "Cy", "Di", "Ed"]
WINNING_TEAM = """extends = "standard"
[deposit]
per_deal_miss = 6
won_by = "winning_team"
"""


def pot_points(engine, league="pot") -> dict:
    return {r.stats.name: r.stats.score for r in run(engine, standings, league).rows}


def test_failed_contract_gives_the_pot_to_the_opposition(engine, tmp_path):
    rules = ruleset_from_toml(WINNING_TEAM, label="winning-team", relative_to=tmp_path).ruleset
    run(engine, create_league, "pot", rules, who="t")
    run(engine, start_session, "pot", FIVE, who="t")
    run(engine, record_hand, "pot", deal_miss="Ed", who="t")
    done = run(
        engine, record_hand, "pot", declarer="Bo", contract="15D", friend="Cy", taken=10, who="t"
    )
    # the contract failed: Ana, Di and Ed (the opposition) take 2 each of the 6 in the pot
    assert done.hand.pot_after == 0
    scores = pot_points(engine)
    failed = {"Bo": -10, "Cy": -5, "Ana": 5, "Di": 5, "Ed": 5}
    assert scores == {
        name: failed[name] + {"Ed": -6}.get(name, 0) + (2 if name in ("Ana", "Di", "Ed") else 0)
        for name in FIVE
    }


SEVEN = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus"]
TWO_FRIENDS_POT = """extends = "dongdaejeon-7"
[deposit]
per_deal_miss = 8
won_by = "winning_team"
"""


def test_pot_with_two_friends_is_shared_as_the_score(engine, tmp_path):
    """A two-card call's second friend (동대전 7마) is of the ruling party for the pot: a made
    contract gives the declarer two shares and each friend one (8: 4, 2, 2); a failed one
    gives the pot to the opposition only, never to the second friend."""
    from mighty_cli.engine.session import settle_pot

    rules = ruleset_from_toml(
        TWO_FRIENDS_POT, label="two-friends-pot", relative_to=tmp_path
    ).ruleset
    made = settle_pot(
        rules,
        8,
        "scored",
        declarer="Ana",
        friend="Fay",
        friend2="Gus",
        success=True,
        players=SEVEN[:7],
    )
    assert (made.deltas, made.pot_after) == ({"Ana": 4, "Fay": 2, "Gus": 2}, 0)
    lost = settle_pot(
        rules,
        8,
        "scored",
        declarer="Ana",
        friend="Fay",
        friend2="Gus",
        success=False,
        players=SEVEN,
    )
    assert (lost.deltas, lost.pot_after) == (dict.fromkeys(("Bo", "Cy", "Di", "Ed"), 2), 0)
    # stored in a league: the same shares
    run(engine, create_league, "pot", rules, who="t")
    run(engine, start_session, "pot", SEVEN, who="t")
    run(engine, record_hand, "pot", deal_miss="Bo", who="t")
    done = run(
        engine,
        record_hand,
        "pot",
        declarer="Ana",
        contract="13C",
        friend="Fay",
        friend2="Gus",
        taken=21,
        who="t",
    )
    assert done.hand.pot_after == 0
    scores = pot_points(engine)
    hand = {"Ana": 16, "Bo": -8, "Cy": -8, "Di": -8, "Ed": -8, "Fay": 8, "Gus": 8}
    assert scores == {
        name: hand[name] + {"Bo": -8, "Ana": 4, "Fay": 2, "Gus": 2}.get(name, 0) for name in SEVEN
    }
