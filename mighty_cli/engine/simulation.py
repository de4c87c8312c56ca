"""Random legal hands under a ruleset, written as a hand record (``mighty simulate``).

Clubs use it to try a ruleset before adopting it: how often each contract is played, which
friend calls come up, how often a run (런) or a back run (백런) happens.

Each hand follows the session rules (docs/rules.md §9) like a table: who deals, opens and sits out
comes from :func:`session.propose` given the hand before, the cards from the seeded deal of hand
k (``deck.hand_seed(seed, k)``, the same deals ``mighty deal --seed`` gives), and every action is
drawn uniformly from the legal ones (``playout.random_legal_action``; a deal miss a full bid may
cancel is cancelled half the time). The totals are added up here from the engine's results and
the deposit pot, independently of ``record.replay``, which must agree with them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from random import Random

from . import hand as engine
from .cards import format_bid, is_joker
from .cards.deck import hand_seed
from .hand.draft import seeded_deal
from .hand.seats import arranged_deal
from .records import Record, state_to_hand
from .ruleset import Ruleset
from .session import PreviousHand, Proposal, propose, settle_pot

#: The phases a random hand stops in.
ENDED = ("done", "deal_miss", "redeal")


@dataclass
class Simulation:
    """The record of the simulated hands and what they came to."""

    record: Record
    totals: dict[str, int]
    pot: int = 0
    statuses: Counter = field(default_factory=Counter)  # scored, deal_miss, redeal
    contracts: Counter = field(default_factory=Counter)  # "15S", "14NT", ...
    friend_kinds: Counter = field(default_factory=Counter)  # mighty, joker, card, none, ...
    doublings: Counter = field(default_factory=Counter)  # run, back_run, no_trump, no_friend
    made: int = 0  # contracts made

    def to_json(self) -> dict:
        return {
            "hands": sum(self.statuses.values()),
            "statuses": dict(self.statuses),
            "contracts": dict(self.contracts),
            "friend_kinds": dict(self.friend_kinds),
            "doublings": dict(self.doublings),
            "made": self.made,
            "totals": dict(self.totals),
            "pot": self.pot,
        }


def friend_kind(state: engine.HandState) -> str:
    """What kind of friend the declarer called: mighty, joker, card, none, first-trick,
    last-trick or player."""
    call = state.friend_call
    if call.kind == "card":
        if is_joker(call.card):  # either joker (cards.jokers = 2)
            return "joker"
        return "mighty" if call.card == state.mighty else "card"
    return call.kind.replace("_", "-")


def play_random_hand(state: engine.HandState, rng: Random) -> engine.HandState:
    """Random legal actions to the end of the hand."""
    while state.phase not in ENDED or (
        state.phase == "deal_miss" and engine.legal_actions(state) and rng.random() < 0.5
    ):
        state = engine.apply(state, engine.random_legal_action(state, rng))
    return state


def simulate(
    rules: Ruleset,
    ruleset_name: str,
    players: Sequence[str],
    hands: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
    on_hand: Callable[[dict], None] | None = None,
) -> Simulation:
    """Play ``hands`` random legal hands among ``players`` (in playing order; more than five sit
    out in turn) from ``seed``; the same arguments give the same record. ``progress(done,
    hands)`` is told after each hand. With ``on_hand``, each hand goes to it as it is played
    (to be written at once) instead of into the record, so memory stays flat."""
    players = list(players)
    rng = Random(seed)
    record = Record(ruleset=ruleset_name, players=players)
    sim = Simulation(record, dict.fromkeys(players, 0))
    previous = None
    for number in range(1, hands + 1):
        proposal = propose(rules, players, previous, in_playing_order=True)
        five = list(proposal.players)
        # dealt (the ghost's pile too), or drafted with random choices (변형 2마)
        dealt = seeded_deal(
            rules, hand_seed(seed, number), five, lambda player, card: rng.random() < 0.5
        )
        deal = arranged_deal(dealt)  # as mighty deal (the ghost's pile in its order)
        state = engine.new_hand(rules, five, proposal.dealer, deal, proposal.opener)
        state = play_random_hand(state, rng)
        hand = state_to_hand(state, deal)
        hand["opener"] = proposal.opener
        if len(players) != len(five):  # some sit out (000 §3.3.1)
            hand = {"players": five} | hand
        if on_hand is not None:
            on_hand(hand)
        else:
            record.hands.append(hand)
        previous = _tally(sim, rules, state, proposal, five)
        if progress is not None:
            progress(number, hands)
    return sim


def _tally(
    sim: Simulation, rules: Ruleset, state: engine.HandState, proposal: Proposal, five: list[str]
) -> PreviousHand:
    """Count one finished hand into the simulation; what succession needs to know of it."""
    if state.phase == "done":
        result = engine.hand_result(state)
        success = result.score.success
        deltas = dict(result.deltas)
        move = settle_pot(
            rules,
            sim.pot,
            "scored",
            dealer=proposal.dealer,
            declarer=result.declarer,
            friend=result.friend,
            success=success,
            players=five,
            friend2=result.friend2,
        )
        sim.statuses["scored"] += 1
        sim.contracts[format_bid(result.contract)] += 1
        sim.friend_kinds[friend_kind(state)] += 1
        sim.doublings.update(result.score.doublings)
        sim.made += bool(success)
        previous = PreviousHand(
            "scored",
            tuple(five),
            proposal.dealer,
            result.declarer,
            result.friend,
            success,
            None,
            proposal.opener,
        )
    elif state.phase == "deal_miss":
        deltas = {}
        move = settle_pot(
            rules, sim.pot, "deal_miss", dealer=proposal.dealer, deal_miss=state.deal_miss_player
        )
        sim.statuses["deal_miss"] += 1
        previous = PreviousHand(
            "deal_miss",
            tuple(five),
            proposal.dealer,
            deal_miss=state.deal_miss_player,
            opener=proposal.opener,
        )
    else:
        deltas, move = {}, None
        sim.statuses["redeal"] += 1
        previous = PreviousHand("redeal", tuple(five), proposal.dealer, opener=proposal.opener)
    if move is not None:
        for player, amount in move.deltas.items():
            deltas[player] = deltas.get(player, 0) + amount
        sim.pot = move.pot_after
    for player, amount in deltas.items():
        sim.totals[player] += amount
    return previous
