"""Replay of full hands: ours from a record file against mighty-online/game-logic's engine.

    MIGHTY_PEER_GAME_LOGIC=/path/to/game-logic python benchmarks/replay.py [--hands 2000]

Ours: random legal hands played card by card are written as a hand-record file; the timed part
reads the file hand by hand (streamed parse) and replays every hand through the hand engine,
every card checked, and scores it, keeping nothing (``mighty replay``'s work). ``--memory N``
adds the peak memory of replaying N hands.

The peer (github.com/mighty-online/game-logic, whose ``engine.py``, ``cards.py`` and
``constructs.py`` sit in the folder ``MIGHTY_PEER_GAME_LOGIC`` names; nothing of it is kept in
this repository): random legal games are played with its ``GameEngine`` and their calls kept in
memory; the timed part applies each game's calls again to a fresh engine (its deal set to the
recorded one), every call validated, to the end of the game. It parses nothing, so the
comparison favours the peer. Without the variable the peer's figure is skipped.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import random
import sys
import tempfile
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

PEER_ENV = "MIGHTY_PEER_GAME_LOGIC"
#: Both sides are timed in this process's CPU time: on a shared machine, other processes' load
#: slows the wall clock of a run but not the work it does (best of --repeat runs either way).
CLOCK = time.process_time


def record_file(count: int) -> Path:
    """A record of ``count`` random legal full hands (standard rules), in a temporary folder."""
    from league import write_full_hands

    path = Path(tempfile.mkdtemp(prefix="mighty-replay-")) / "full.toml"
    write_full_hands(path, count)
    return path


def reading(path: Path, count: int, repeat: int) -> float:
    """Full hands read per second from a record file (the parse and the shape checks alone),
    best of runs: the part of ``ours`` that is not the replay."""
    from mighty_cli.engine.records.stream import stream_record

    best = float("inf")
    for _ in range(repeat):
        start = CLOCK()
        read = sum(1 for _ in stream_record(path).hands)
        best = min(best, CLOCK() - start)
    assert read == count
    return count / best


def ours(path: Path, count: int, repeat: int) -> float:
    """Full hands replayed per second from a record file (parse included), best of runs."""
    from mighty_cli.engine.records import iter_replay
    from mighty_cli.engine.records.stream import stream_record

    best = float("inf")
    for _ in range(repeat):
        start = CLOCK()
        replayed = sum(1 for _ in iter_replay(stream_record(path)))
        best = min(best, CLOCK() - start)
    assert replayed == count
    return count / best


#: Run in a small child of its own: it starts ``mighty replay`` and reports that process's peak
#: RSS. (A child's ru_maxrss counts what it shared with its parent before exec, so measured from
#: here it would be this benchmark's own memory.)
_PEAK_RSS = (
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
    "stdout=subprocess.DEVNULL); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def memory(path: Path) -> tuple[float, float, float]:
    """Peak memory of a replay of the file, in MB: Python's allocations while the stream is
    replayed here (tracemalloc), and the peak RSS of ``mighty replay FILE`` and of ``mighty
    replay FILE --json``, each in a process of its own."""
    import subprocess
    import tracemalloc

    from mighty_cli.engine.records import iter_replay
    from mighty_cli.engine.records.stream import stream_record

    tracemalloc.start()
    for _ in iter_replay(stream_record(path)):
        pass
    traced = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    rss = []
    for extra in ([], ["--json"]):
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                _PEAK_RSS,
                sys.executable,
                "-m",
                "mighty_cli",
                "replay",
                str(path),
                *extra,
            ],
            check=True,
            capture_output=True,
            text=True,
            cwd=Path(__file__).resolve().parents[1],
        )
        rss.append(int(done.stdout.split()[-1]) / 1024)  # KB on Linux
    return traced, rss[0], rss[1]


def load_peer(folder: str):
    """The peer's modules, loaded as a package from its folder (it imports relatively)."""
    package = types.ModuleType("peer_game_logic")
    package.__path__ = [folder]  # type: ignore[attr-defined]
    sys.modules["peer_game_logic"] = package
    return (
        importlib.import_module("peer_game_logic.engine"),
        importlib.import_module("peer_game_logic.constructs"),
        importlib.import_module("peer_game_logic.cards"),
    )


def peer_game(engine, constructs, cards, rng: random.Random):
    """One random legal game with the peer's engine: its deal and its calls."""
    game = engine.GameEngine()
    deal = [list(hand) for hand in game.hands], list(game.kitty)
    suit = cards.Suit(rng.randint(1, 4))
    calls = [("bidding", (0, suit, rng.randint(13, 16)))]
    calls += [("bidding", (player, None, 0)) for player in range(1, 5)]
    for name, args in calls:
        assert getattr(game, name)(*args) == 0
    pool = game.hands[0] + game.kitty
    discards = rng.sample(pool, 3)
    called = rng.choice([c for hand in game.hands[1:] for c in hand])
    more = [("exchange", (0, discards)), ("trump_change", (0, suit))]
    more += [("miss_deal_check", (player, False)) for player in range(5)]
    more += [("friend_call", (0, constructs.FriendCall(0, called)))]
    for name, args in more:
        assert getattr(game, name)(*args) == 0
    calls += more
    while game.next_calltype == constructs.CallType.PLAY:
        play = rng.choice(game.get_legal_plays())
        assert game.play(play) == 0
        calls.append(("play", (play,)))
    return deal, calls


def peer(folder: str, count: int, repeat: int) -> float:
    engine, constructs, cards = load_peer(folder)
    rng = random.Random(7)
    random.seed(7)
    games = [peer_game(engine, constructs, cards, rng) for _ in range(count)]
    best = float("inf")
    for _ in range(repeat):
        start = CLOCK()
        for (hands, kitty), calls in games:
            game = engine.GameEngine()
            game.hands, game.kitty = [list(h) for h in hands], list(kitty)
            for name, args in calls:
                if name == "exchange":
                    args = (args[0], list(args[1]))
                if getattr(game, name)(*args) != 0:
                    raise RuntimeError(f"the peer refused its own {name} {args}")
            assert game.next_calltype == constructs.CallType.GAME_OVER
        best = min(best, CLOCK() - start)
    return count / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3, help="runs (the best is shown)")
    parser.add_argument(
        "--memory",
        type=int,
        default=0,
        metavar="N",
        help="also measure the peak memory of replaying N hands (e.g. 10000)",
    )
    args = parser.parse_args()
    gc.disable()  # both sides alike: allocation-heavy loops, no cycles
    path = record_file(args.hands)
    mine = ours(path, args.hands, args.repeat)
    print(f"ours (parse + replay)      {mine:8.0f} full hands/s  {1e6 / mine:7.1f} µs/hand")
    read = reading(path, args.hands, args.repeat)
    print(f"  of which the parse       {read:8.0f} full hands/s  {1e6 / read:7.1f} µs/hand")
    folder = os.environ.get(PEER_ENV)
    if not folder:
        print(f"peer                       skipped ({PEER_ENV} not set)")
    else:
        theirs = peer(folder, args.hands, args.repeat)
        print(f"game-logic (re-apply)      {theirs:8.0f} full hands/s  {1e6 / theirs:7.1f} µs/hand")
        print(f"ratio                      {mine / theirs:8.2f}x")
    if args.memory:
        gc.enable()  # as the command runs
        traced, rss, rss_json = memory(record_file(args.memory))
        print(
            f"peak memory, {args.memory} hands   replay stream {traced:6.1f} MB (tracemalloc), "
            f"mighty replay {rss:6.1f} MB, --json {rss_json:6.1f} MB (RSS)"
        )


if __name__ == "__main__":
    main()
