"""Write the refereed example records in examples/ (one feature each) from seeded playouts.

Each example is a real hand dealt with a seed and played by the engine: the election, exchange and
friend call are drawn at random, the play follows a simple policy (one side plays its strongest
card, the other its weakest) so that runs and back runs turn up. For each feature the first seed
whose hand shows it is written, with a header saying where to look. Re-running gives the same
files.

    python tools/make_examples.py            # rewrite examples/*.toml
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mighty_cli.engine import hand as engine  # noqa: E402
from mighty_cli.engine.cards import JOKER, format_bid  # noqa: E402
from mighty_cli.engine.records import Record, dump_record, read_record, replay, state_to_hand  # noqa: E402
from mighty_cli.engine.ruleset import load_ruleset  # noqa: E402

PLAYERS = ["민수", "Bo", "Cy", "Di", "Ed"]


def power(state, play) -> int:
    """A rough strength of a card in the current trick, for the play policy."""
    card = play.card
    contract = state.contract
    if card == engine.mighty_card(state.rules, contract.trump):
        return 1000
    if card == JOKER:
        return 900 if 1 < state.trick_number < 10 and not play.joker_call else 1
    suit, rank = card >> 4, card & 15
    if suit == contract.trump:
        return 500 + rank
    led = state.current_trick[0][1].card >> 4 if state.current_trick else suit
    return 100 + rank if suit == led else rank


def ruling_side(state, deal) -> set[str]:
    """Who really plays for the declarer (the policy is omniscient)."""
    side = {state.declarer}
    call = state.friend_call
    if call is not None and call.kind == "card" and deal is not None:
        for who, cards in deal.items():
            if who != "kitty" and call.card in cards and who not in side:
                side.add(who)
    if call is not None and call.kind == "player":
        side.add(call.player)
    return side


def bid_policy(state, rng: random.Random):
    """Pass more often than not; otherwise bid one of the three lowest legal bids (or, rarely,
    declare a deal miss when the hand allows it)."""
    actions = engine.legal_actions(state)
    misses = [a for a in actions if isinstance(a, engine.DeclareDealMiss)]
    if misses and rng.random() < 0.3:
        return rng.choice(misses)
    passes = [a for a in actions if isinstance(a, engine.BidCall) and a.bid is None]
    bids = [a for a in actions if isinstance(a, engine.BidCall) and a.bid is not None]
    if passes and (not bids or rng.random() < 0.55):
        return passes[0]
    return rng.choice(bids[:3])


def play_out(rules_name: str, seed: int, strong: str | None):
    """Play one hand; ``strong`` is "ruling", "opposition" or None (random play)."""
    rules = load_ruleset(rules_name)
    rng = random.Random(seed)
    deal = engine.deal_cards(seed, PLAYERS)
    state = engine.new_hand(rules, PLAYERS, PLAYERS[0], deal)
    while state.phase not in ("done", "deal_miss", "redeal"):
        if state.phase == "play" and strong is not None:
            plays = engine.legal_plays(state)
            ruling = state.to_move in ruling_side(state, deal)
            wants_high = ruling == (strong == "ruling")
            ranked = sorted(plays, key=lambda p: power(state, p), reverse=wants_high)
            action = ranked[0]
        elif state.phase == "election":
            action = bid_policy(state, rng)
        elif state.phase == "friend" and rng.random() < 0.8:
            calls = [
                a
                for a in engine.legal_actions(state)
                if isinstance(a, engine.CallFriend) and a.call.lead_suit is None
            ]
            action = rng.choice(calls)
        else:
            action = engine.random_legal_action(state, rng)
        state = engine.apply(state, action)
    return state, deal


def first_trick_joker(state, _deal) -> str | None:
    if state.phase != "done" or not state.tricks:
        return None
    trick = state.tricks[0]
    for player, play in trick.plays:
        if play.card == JOKER:
            return (
                f"Trick 1: {player} plays the joker, which is powerless on the first trick "
                f"(cards.joker_power_first_trick = false); {trick.winner} wins it."
            )
    return None


def joker_call_defended(state, deal) -> str | None:
    if state.phase != "done":
        return None
    rules = state.rules
    mighty = engine.mighty_card(rules, state.contract.trump)
    for number, trick in enumerate(state.tricks, 1):
        leader, lead = trick.plays[0]
        if not lead.joker_call or number == 1:
            continue
        holders = {p for p, cards in deal.items() if JOKER in cards}
        for player, play in trick.plays[1:]:
            if player in holders and play.card == mighty:
                return (
                    f"Trick {number}: {leader} leads {engine.format_play(lead)} (joker call "
                    f"declared); {player} holds the joker but defends with Mighty "
                    f"({engine.format_play(play)}), as joker_call.mighty_defends allows; "
                    f"{trick.winner} wins."
                )
    return None


def outcome(predicate: Callable) -> Callable:
    def check(state, deal) -> str | None:
        if state.phase != "done":
            return None
        result = engine.hand_result(state)
        return predicate(state, result)

    return check


def describe_result(state, result) -> str:
    score = result.score
    return (
        f"{result.declarer} declared {format_bid(result.contract)}, the ruling party took "
        f"{result.taken}; {', '.join(score.doublings) or 'no doublings'}: ×{score.multiplier}, "
        f"declarer {score.declarer:+d}."
    )


EXAMPLES = [
    (
        "run",
        "standard",
        "ruling",
        "A run (런): the ruling party takes all 20 point cards.",
        outcome(lambda s, r: describe_result(s, r) if r.taken == 20 and r.score.success else None),
    ),
    (
        "back-run",
        "standard",
        "opposition",
        "A back run (백 런): the opposition takes 11 or more.",
        outcome(lambda s, r: describe_result(s, r) if "back_run" in r.score.doublings else None),
    ),
    (
        "no-trump",
        "standard",
        "ruling",
        "A no-trump contract (노기루다) made with a friend, doubled.",
        outcome(
            lambda s, r: (
                describe_result(s, r)
                if r.contract.trump is None and r.score.success and r.friend is not None
                else None
            )
        ),
    ),
    (
        "no-friend",
        "standard",
        "ruling",
        "A declarer playing alone (노프렌드), doubled.",
        outcome(
            lambda s, r: (
                describe_result(s, r) if s.friend_call.kind == "none" and r.score.success else None
            )
        ),
    ),
    (
        "joker-call",
        "standard",
        None,
        "A joker call (조커 콜) answered with Mighty.",
        joker_call_defended,
    ),
    (
        "first-trick-joker",
        "standard",
        None,
        "The joker played on the first trick.",
        first_trick_joker,
    ),
    (
        "trump-change",
        "standard",
        None,
        "A trump change after the kitty, with its raise (+2).",
        outcome(
            lambda s, r: (
                (
                    f"The bid {format_bid(s.bid)} became {format_bid(r.contract)}. "
                    + describe_result(s, r)
                )
                if s.bid is not None
                and r.contract.trump != s.bid.trump
                and s.bid.trump is not None
                and r.contract.trump is not None
                and r.contract.number == s.bid.number + 2
                else None
            )
        ),
    ),
    (
        "first-trick-friend",
        "standard",
        "ruling",
        "A first-trick friend (초구 프렌드).",
        outcome(
            lambda s, r: (
                (
                    f"The winner of trick 1, {s.tricks[0].winner}, becomes the friend. "
                    + describe_result(s, r)
                )
                if s.friend_call.kind == "first_trick" and r.friend is not None
                else None
            )
        ),
    ),
    (
        "deal-miss",
        "standard",
        None,
        "A deal miss (딜 미스): a hopeless hand is shown and redealt.",
        lambda s, d: (
            f"{s.deal_miss_player} declares a deal miss." if s.phase == "deal_miss" else None
        ),
    ),
    (
        "seoul-science",
        "seoul-science",
        "ruling",
        "서울과고 rules: minimum 14, but no-trump may be bid one lower.",
        outcome(
            lambda s, r: (
                describe_result(s, r)
                if r.contract.trump is None and r.contract.number == 13 and r.score.success
                else None
            )
        ),
    ),
]


def main() -> None:
    out = ROOT / "examples"
    out.mkdir(exist_ok=True)
    for name, rules_name, strong, title, predicate in EXAMPLES:
        for seed in range(1, 200000):
            state, deal = play_out(rules_name, seed, strong)
            found = predicate(state, deal)
            if found:
                break
        else:  # pragma: no cover - the search space is large enough
            raise SystemExit(f"no seed found for {name}")
        record = Record(ruleset=rules_name, players=PLAYERS, hands=[state_to_hand(state, deal)])
        text = dump_record(record)
        replay(read_record(text))  # every example must replay cleanly
        header = [
            f"# {title}",
            f"# {found}",
            f"# Generated by tools/make_examples.py from seed {seed}.",
            f"# replay it with: mighty replay examples/{name}.toml",
            "",
        ]
        (out / f"{name}.toml").write_text("\n".join(header) + text, encoding="utf-8")
        print(f"{name}: seed {seed}: {found}")


if __name__ == "__main__":
    main()
