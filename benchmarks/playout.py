"""Random playouts: complete random legal hands per second on one core, per bundled ruleset.

    python benchmarks/playout.py [--hands 3000] [--ruleset NAME ...] [--repeat N] [--list]
                                 [--profile]

Each hand: deal with a seed (deal_cards), then random legal actions to the end: the election
(bids, passes and deal misses drawn uniformly from the legal ones), the discard, an optional
contract change and the friend call, ten tricks, and the score (hand_result). A hand that ends in
a deal miss or a redeal counts as a hand too; the "played" column says how many reached a score.

By default actions come from random_legal_action(), which draws from the same sets as
legal_actions() without building them all (it samples the discard instead of listing 286).
``--list`` draws with random.choice(legal_actions(state)) instead (the discard is still sampled),
to show what listing every action costs. ``--profile`` runs cProfile on the standard ruleset and
prints the functions that dominate. ``--repeat N`` times each ruleset N times, each run on new
deals, and reports the median (the machine may be busy: noise only ever slows a run down).
Target: >= 5,000 hands/s for every bundled ruleset.

With ``MIGHTY_PEER_GAME_LOGIC`` naming a folder holding mighty-online/game-logic's ``engine.py``,
``cards.py`` and ``constructs.py`` (nothing of it is kept here), the peer's random playouts of
five-player hands are timed too, the same way (its own deal, a bid, the exchange, a friend call
and random legal plays to the end: ``benchmarks/replay.py``'s ``peer_game``), and the standard
ruleset's ratio to it is printed (issue 11's target: at least 5×). Times are CPU time of this
process, so other work on a shared machine slows both sides alike.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mighty_cli.engine.hand import apply, hand_result, legal_actions, new_hand, random_legal_action
from mighty_cli.engine.hand.draft import seeded_deal
from mighty_cli.engine.ruleset import bundled_names, load_ruleset

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal")
ENDED = ("done", "deal_miss", "redeal")


def play_hands(rules, hands: int, seed: int = 0, listing: bool = False) -> tuple[int, int]:
    """Play random legal hands; returns (hands scored, actions applied)."""
    rng = random.Random(seed)
    scored = actions = 0
    players = NAMES[: rules.table.players]  # table.players: 2마 to 8마 Chicago
    for number in range(hands):
        state = new_hand(
            rules,
            players,
            players[number % len(players)],
            seeded_deal(rules, seed + number, players),
        )  # ghost, draft too
        while state.phase not in ENDED:
            if listing and state.phase != "exchange":
                action = rng.choice(legal_actions(state))
            else:
                action = random_legal_action(state, rng)
            state = apply(state, action)
            actions += 1
        if state.phase == "done":
            hand_result(state)
            scored += 1
    return scored, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--ruleset", action="append", help="a ruleset (default: every bundled one)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per ruleset (median shown)")
    parser.add_argument("--list", action="store_true", help="choose from legal_actions()")
    parser.add_argument("--profile", action="store_true", help="cProfile the standard ruleset")
    args = parser.parse_args()
    if args.profile:
        rules = load_ruleset("standard")
        profiler = cProfile.Profile()
        profiler.runcall(play_hands, rules, args.hands, 0, args.list)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        return
    names = args.ruleset or bundled_names()
    standard = 0.0
    print(
        f"{'ruleset':<20} {'players':>7} {'hands/s':>9} {'µs/hand':>8} {'actions/hand':>13} "
        f"{'played':>7}"
    )
    for name in names:
        rules = load_ruleset(name)
        play_hands(rules, 50)  # warm the caches
        times = []
        for run in range(max(1, args.repeat)):
            start = time.process_time()  # each run deals new hands: no run replays another's
            scored, actions = play_hands(
                rules, args.hands, seed=run * args.hands, listing=args.list
            )
            times.append(time.process_time() - start)
        elapsed = statistics.median(times)
        print(
            f"{name:<20} {rules.table.players:>7} {args.hands / elapsed:>9.0f} "
            f"{elapsed / args.hands * 1e6:>8.0f} "
            f"{actions / args.hands:>13.1f} {scored / args.hands:>7.0%}"
        )
        if name == "standard":
            standard = args.hands / elapsed
    folder = os.environ.get("MIGHTY_PEER_GAME_LOGIC")
    if folder:
        rate = peer_playouts(folder, args.hands, max(1, args.repeat))
        print(f"{'peer (game-logic)':<20} {5:>7} {rate:>9.0f} {1e6 / rate:>8.0f}")
        if "standard" in names:
            print(f"standard / peer: {standard / rate:.1f}×")


def peer_playouts(folder: str, hands: int, repeat: int) -> float:
    """The peer's random five-player playouts per CPU second (median of ``repeat`` runs)."""
    from replay import load_peer, peer_game

    engine, constructs, cards = load_peer(folder)
    times = []
    for run in range(repeat):
        rng = random.Random(run)
        random.seed(run)  # the peer deals with the random module
        start = time.process_time()
        for _ in range(hands):
            peer_game(engine, constructs, cards, rng)
        times.append(time.process_time() - start)
    return hands / statistics.median(times)


if __name__ == "__main__":
    main()
