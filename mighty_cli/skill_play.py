"""Seasons played card by card by players of known skill, as records (docs/record-format.md) that
``mighty replay`` checks. Stdlib only; seeded.

Unlike :func:`mighty_cli.skill_season.skill_season`, which draws the ruling party's point cards
from the margin model the rating assumes, here every hand is dealt and played through the engine
(``engine.policies``): each player has a true skill ``s`` between 0 and 1, the probability that
he makes each decision (bid, discard, friend call, card) by a sound heuristic rather than at
random. How skill turns into point cards, contracts made and payouts is whatever the play makes
of it, so a rating measured on these seasons is not measured against its own assumptions
(``benchmarks/rating_compare.py``).
"""

from __future__ import annotations

from random import Random
from typing import Optional, Sequence

from .engine import hand as engine
from .engine.cards.deck import hand_seed
from .engine.hand.draft import seeded_deal
from .engine.hand.seats import arranged_deal
from .engine.policies import play_hand, skilled
from .engine.records import Record, state_to_hand
from .engine.ruleset import load_ruleset
from .engine.session import PreviousHand, Proposal
from .skill_season import Season, SeasonTables


def played_season(players: Sequence[str], hands: int, seed: int = 1, per_session: int = 40,
                  at_table: int = 6, ruleset: str = "standard",
                  skills: Optional[dict[str, float]] = None) -> Season:
    """A season of ``hands`` hands among ``players``, each played through the engine: sessions
    of ``per_session`` hands with ``at_table`` (5 to 7) of them present, the deals those of
    ``mighty deal --seed`` (hand k of the season: ``hand_seed(seed, k)``), each player's skill
    drawn uniformly from 0 to 1 unless given."""
    rng = Random(seed)
    rules = load_ruleset(ruleset)
    skills = dict(skills) if skills else {name: rng.random() for name in players}
    policies = {name: skilled(skill) for name, skill in skills.items()}
    records: list[dict] = []
    tables = SeasonTables(rules, players, per_session, at_table, rng)
    for index, session, proposal in tables.hands(hands):
        five = list(proposal.players)
        deal = arranged_deal(seeded_deal(rules, hand_seed(seed, index + 1), five,
                                         lambda player, card: rng.random() < 0.5))
        state = engine.new_hand(rules, five, proposal.dealer, deal, proposal.opener)
        state = play_hand(state, policies, rng)
        records.append({"session": session, "players": five, "opener": proposal.opener}
                       | state_to_hand(state, deal))
        tables.previous = _previous(state, proposal, five)
    return Season(Record(ruleset=ruleset, players=list(players), hands=records), skills)


def _previous(state: engine.HandState, proposal: Proposal, five: list[str]) -> PreviousHand:
    """What the session's succession needs to know of a finished hand."""
    if state.phase == "done":
        result = engine.hand_result(state)
        return PreviousHand("scored", tuple(five), proposal.dealer, result.declarer,
                            result.friend, result.score.success, None, proposal.opener)
    return PreviousHand("redeal", tuple(five), proposal.dealer, opener=proposal.opener)
