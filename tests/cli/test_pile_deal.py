"""The tool's own deal of a 6마/7마 pile (the eliminated hands and the kitty) is mighty-deal/1's
shuffle seeded by the pile (docs/record-format.md "Seeded deals", step 5;
engine/hand/elimination.py): golden deals pinned here, the algorithm re-derived from the manual's
words with nothing of the random module, and the referee's ``deal`` giving exactly those cards.
Records keep the dealt cards, so a record whose pile was dealt the old way (``random.Random``
seeded with the pile's text) still replays."""

from __future__ import annotations

import hashlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from deal_reference import reference_shuffle
from evening_script import parse_proposal
from mighty_cli.cli import cli
from mighty_cli.engine import hand as engine
from mighty_cli.engine.cards import (
    DECK,
    format_card,
    format_cards,
    parse_bid,
    parse_card,
    parse_cards,
    sorted_cards,
)
from mighty_cli.engine.hand.draft import seeded_deal
from mighty_cli.engine.hand.elimination import pile_seed, seeded_redistribution
from mighty_cli.engine.records import Record, replay, state_to_hand
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.table.view import pretty_cards
from sizes_script import seeded_deal as referee_deal

SIX = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay"]
SEVEN = SIX + ["Gus"]

# Golden piles: if one of these changes, the same 6마/7마 pile is now dealt out differently.
# Hand: deal seed 2026 (mighty-deal/1), Ana bids 14♠ and everybody passes, then the calls.
GOLDEN = {
    ("standard-6", ("JK",)): {
        "Ana": "JK S7 HJ C10 C6",
        "Bo": "H9 H4",
        "Di": "D7 HA",
        "Ed": "H3 CK",
        "Fay": "CQ C4",
    },
    ("standard-7", ("JK", "C9")): {
        "Ana": "JK S3 HJ H8 CQ C10",
        "Bo": "CK C9 C4",
        "Ed": "S7 H10 H3",
        "Fay": "S5 D7 H4",
        "Gus": "HA C7 C6",
    },
}


def eliminated_state(ruleset: str, calls, seed: int = 2026):
    """The hand dealt from ``seed`` where Ana bids 14♠ and everybody passes, after ``calls``."""
    rules = load_ruleset(ruleset)
    players = SIX if rules.table.players == 6 else SEVEN
    state = engine.new_hand(rules, players, "Ana", seeded_deal(rules, seed, players))
    state = engine.apply(state, engine.BidCall("Ana", parse_bid("14S")))
    while state.phase == "election":
        state = engine.apply(state, engine.BidCall(state.to_move, None))
    for card in calls:
        state = engine.apply(state, engine.Eliminate(parse_card(card)))
    return state


def shares(action) -> dict:
    return {player: format_cards(cards) for player, cards in action.cards}


def test_golden_pile_deals_six_and_seven_ma():
    for (ruleset, calls), expected in GOLDEN.items():
        state = eliminated_state(ruleset, calls)
        assert state.phase == "redistribution"
        assert shares(seeded_redistribution(state)) == expected, ruleset


def test_golden_pile_seed():
    pile = parse_cards("S7 D7 H3 H4 H9 HJ HA C4 C6 C10 CQ CK JK")
    assert pile_seed(pile) == 12536738679188138247
    assert pile_seed(list(reversed(pile))) == 12536738679188138247  # order given: no part


def reference_deal(state) -> dict:
    """Step 5 (docs/record-format.md) from its words: the pile in canonical order, its seed, the shuffle, the
    shares in seating order from the front."""
    ctx = state._ctx
    held = set(ctx.kitty)
    for name in state.eliminated:
        held |= {card for card in DECK if state._hands[ctx.seat_of[name]] >> card & 1}
    canonical = [card for card in DECK if card in held]
    text = "mighty-pile:" + " ".join(format_card(card) for card in canonical)
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    shuffled = reference_shuffle(seed, canonical)
    out, start = {}, 0
    for player, count in engine.redistribution_sizes(state).items():
        out[player] = format_cards(sorted_cards(shuffled[start : start + count]))
        start += count
    return out


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    ruleset=st.sampled_from(["standard-6", "standard-7", "daejeon-6", "gwanak-6"]),
)
def test_pile_deal_follows_the_documented_algorithm(seed, ruleset):
    rules = load_ruleset(ruleset)
    players = SIX if rules.table.players == 6 else SEVEN
    state = engine.new_hand(rules, players, "Ana", seeded_deal(rules, seed, players))
    rng = random.Random(seed)
    while state.phase == "election":
        state = engine.apply(state, engine.random_legal_action(state, rng))
    while state.phase == "elimination":
        state = engine.apply(state, engine.random_legal_action(state, rng))
    if state.phase != "redistribution":
        return  # a deal miss
    assert shares(seeded_redistribution(state)) == reference_deal(state)


def test_referee_deal_gives_the_documented_pile_deal(runner):
    args = ["referee", "-r", "standard-6", "--players", ",".join(SIX), "--seed", "5"]
    probe = runner.invoke(cli, args, input="")
    _number, dealer, opener, _out, playing = parse_proposal(probe.output)
    rules = load_ruleset("standard-6")
    state = engine.new_hand(
        rules, playing, dealer, referee_deal(rules, playing, 5, 1), opener=opener
    )
    lines = ["14s"] + ["pass"] * 5
    for line in lines:
        bid = None if line == "pass" else parse_bid(line)
        state = engine.apply(state, engine.BidCall(state.to_move, bid))
    declarer = state.declarer
    card = next(
        c
        for c in DECK
        if not state._hands[state._ctx.seat_of[declarer]] >> c & 1
        and any(h >> c & 1 for h in state._hands)
    )
    state = engine.apply(state, engine.Eliminate(card))
    expected = seeded_redistribution(state)
    result = runner.invoke(
        cli, args, input="\n".join(lines + [format_card(card).lower(), "deal", "quit"]) + "\n"
    )
    assert result.exit_code == 0, result.output
    said = "dealt out: " + "; ".join(
        f"{player} {pretty_cards(cards)}" for player, cards in expected.cards
    )
    assert any(line.endswith(said) for line in result.output.splitlines()), result.output


def test_a_record_dealt_the_old_way_still_replays():
    # before mighty-deal/1 the referee shuffled the pile with random.Random(pile text): the
    # record keeps the cards it dealt, so its replay does not depend on how they were drawn
    state = eliminated_state("standard-6", ("JK",))
    ctx = state._ctx
    pile = sorted(
        c for p in state.eliminated for c in DECK if state._hands[ctx.seat_of[p]] >> c & 1
    ) + sorted(ctx.kitty)
    old = engine.random_redistribution(state, random.Random(" ".join(map(str, pile))))
    assert shares(old) != shares(seeded_redistribution(state))
    deal = seeded_deal(state.rules, 2026, SIX)
    state = engine.apply(state, old)
    rng = random.Random(1)
    while state.phase not in ("done", "deal_miss", "redeal"):
        state = engine.apply(state, engine.random_legal_action(state, rng))
    hand = state_to_hand(state, deal)
    assert hand["redistribution"] == shares(old)
    hand.setdefault("opener", "Ana")
    result = replay(Record(ruleset="standard-6", players=SIX, hands=[hand]))
    assert result.totals == engine.hand_result(state).deltas
