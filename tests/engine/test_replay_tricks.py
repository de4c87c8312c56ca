"""The fast replay of a record's tricks (engine/hand/replay_tricks.py) against the engine's apply,
card by card: under every bundled ruleset, for random legal hands (hypothesis) and for records
made illegal in every way a record can be, both give the same final state (every slot, the
history included) or the same error, word for word."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mighty_cli.engine.cards import DECK, format_card
from mighty_cli.engine.errors import MightyError, RecordError
from mighty_cli.engine.hand import format_play
from mighty_cli.engine.hand.actions import Play
from mighty_cli.engine.hand.replay_tricks import replay_tricks
from mighty_cli.engine.hand.state import HandState
from mighty_cli.engine.records import Record, replay, state_to_hand
from test_hand_properties import RULESETS, players_of, random_hand

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def slots(state: HandState) -> dict:
    """Every slot of a hand state and of its setup (the memoised legal mask aside)."""
    values = {name: getattr(state, name) for name in HandState.__slots__ if name != "_legal"}
    values["_setup"] = {name: getattr(state._setup, name) for name in type(state._setup).__slots__}
    values["history"] = state.history
    return values


def played_hand(name: str, seed: int):
    """A random legal hand that reached the play: the state before the first card, the tricks
    as a record writes them, and the final state the engine reached card by card."""
    rules, deal, states = random_hand(name, seed)
    first = next((i for i, s in enumerate(states) if s.phase == "play"), None)
    if first is None:
        return None
    final = states[-1]
    plays = [format_play(a) for a in final.history if isinstance(a, Play)]
    # cards a trick: the players still in (6마/7마), the ghost's seat, 허니문's friend hands
    n = len(final.tricks[0].plays) if final.tricks else rules.playing
    tricks = [" ".join(plays[i : i + n]) for i in range(0, len(plays), n)]
    return states[first], tricks, final


def outcome(state: HandState, tricks: list, fast: bool):
    """The final state's slots, or the error's type and message."""
    try:
        return slots(replay_tricks(state, tricks, 3, fast=fast))
    except (RecordError, MightyError) as exc:
        return type(exc).__name__, str(exc)


@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_fast_replay_of_legal_hands_is_the_engines_state(name, seed):
    hand = played_hand(name, seed)
    if hand is None:
        return
    start, tricks, final = hand
    before = slots(start)
    fast = outcome(start, tricks, True)
    assert fast == outcome(start, tricks, False)
    assert fast == slots(final)
    assert slots(start) == before  # the caller's state never changes


@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 60))
def test_fast_replay_of_unfinished_hands_is_the_engines_state(name, seed, cut):
    hand = played_hand(name, seed)
    if hand is None:
        return
    start, tricks, _ = hand
    tokens = " ".join(tricks).split()[:cut]
    n = len(tricks[0].split())
    partial = [" ".join(tokens[i : i + n]) for i in range(0, len(tokens), n)]
    assert outcome(start, partial, True) == outcome(start, partial, False)


def broken(tricks: list, rng: random.Random) -> list:
    """The tricks with one mistake a record can hold: a card replaced (by any card, a joker
    lead naming a suit, a call, or a token that is no card), two cards swapped, a card dropped
    or doubled, a trick split or joined, a card played after the end."""
    tokens = [trick.split() for trick in tricks]
    t = rng.randrange(len(tokens))
    c = rng.randrange(len(tokens[t]))
    kind = rng.randrange(8)
    if kind == 0:
        tokens[t][c] = format_card(rng.choice(DECK))
    elif kind == 1:
        tokens[t][c] = rng.choice(
            ["JK/S", "JK/D", "JK/H", "JK/C", "JK", "C3!", "SA/H", "H3!", "D9/S", "XX", "S1", "JK!"]
        )
    elif kind == 2:
        t2 = rng.randrange(len(tokens))
        c2 = rng.randrange(len(tokens[t2]))
        tokens[t][c], tokens[t2][c2] = tokens[t2][c2], tokens[t][c]
    elif kind == 3:
        del tokens[t][c]
    elif kind == 4:
        tokens[t].insert(c, tokens[t][c])
    elif kind == 5:
        tokens[t : t + 1] = [tokens[t][:c], tokens[t][c:]]
    elif kind == 6 and t + 1 < len(tokens):
        tokens[t : t + 2] = [tokens[t] + tokens[t + 1]]
    else:
        tokens[-1].append(format_card(rng.choice(DECK)))
    return [" ".join(trick) for trick in tokens]


@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_fast_replay_of_illegal_records_gives_the_engines_error(name, seed):
    hand = played_hand(name, seed)
    if hand is None:
        return
    start, tricks, _ = hand
    rng = random.Random(seed)
    for _ in range(6):
        bad = broken(tricks, rng)
        assert outcome(start, bad, True) == outcome(start, bad, False), bad


def record_result(record, monkeypatch, fast: bool):
    """``replay``'s JSON for a record, or its error, with the fast trick path or without."""
    from mighty_cli.engine.hand import replay_tricks as module

    def chosen(state, tricks, index, fast_path=True, **options):
        return replay_tricks(state, tricks, index, fast=fast, **options)

    monkeypatch.setattr(module, "replay_tricks", chosen)
    try:
        return replay(record).to_json()
    except RecordError as exc:
        return str(exc)
    finally:
        monkeypatch.undo()


@pytest.mark.parametrize("name", RULESETS)
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32 - 1))
def test_replay_of_a_record_gives_the_same_json_and_errors_either_way(name, seed, monkeypatch):
    rules, deal, states = random_hand(name, seed)
    final = states[-1]
    hand = state_to_hand(final, deal)
    hand.setdefault("opener", final.election[0][0] if final.election else final.dealer)
    records = [hand]
    if hand.get("tricks"):
        rng = random.Random(seed)
        records += [dict(hand, tricks=broken(hand["tricks"], rng)) for _ in range(3)]
    for one in records:
        record = Record(ruleset=name, players=list(players_of(rules)), hands=[one])
        fast = record_result(record, monkeypatch, True)
        assert fast == record_result(record, monkeypatch, False)
        if one is hand:
            assert isinstance(fast, dict)  # the legal hand replays


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 60))
def test_an_owned_state_replays_as_a_copied_one(name, seed, cut):
    # owned=True: the record replay gives its own state away, filled in without a copy
    hand = played_hand(name, seed)
    if hand is None:
        return
    start, tricks, _ = hand
    tokens = " ".join(tricks).split()[:cut]
    n = len(tricks[0].split())
    partial = [" ".join(tokens[i : i + n]) for i in range(0, len(tokens), n)]
    for record in (tricks, partial):
        copied = outcome(start, record, True)
        try:
            owned = slots(replay_tricks(start._clone(), record, 3, owned=True))
        except (RecordError, MightyError) as exc:
            owned = type(exc).__name__, str(exc)
        assert owned == copied
