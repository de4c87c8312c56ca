"""Seeded deals never change (mighty-deal/1, docs/record-format.md "Seeded deals"): golden deals
pinned here, and the algorithm re-derived from its description with nothing of the random
module."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deal_reference import reference_shuffle
from mighty_cli.engine.cards import DECK, format_cards
from mighty_cli.engine.cards import deck as deck_module
from mighty_cli.engine.cards.deck import deal_cards, hand_seed, shuffled_deck

FIVE = ["Ana", "Bo", "Cy", "Di", "Ed"]

# Golden deals: if one of these changes, every table that shared a seed now plays other cards.
GOLDEN = {
    0: {
        "Ana": "H3 JK H6 S4 D4 CA H4 SK S6 D6",
        "Bo": "HJ C2 S8 C6 D2 SQ H2 H7 H10 HK",
        "Cy": "H9 DJ C10 CQ S10 S7 DK C3 S3 D8",
        "Di": "D3 C9 D10 DQ SA D7 CJ C4 HQ H5",
        "Ed": "S2 S9 C7 DA CK C5 SJ D5 HA C8",
        "kitty": "S5 H8 D9",
    },
    42: {
        "Ana": "H7 H6 C4 C8 D5 JK H8 D6 DJ C10",
        "Bo": "SQ S10 HJ C3 S4 SA CJ D8 HA CQ",
        "Cy": "HK SK DQ H3 S7 D3 D7 H5 H2 C7",
        "Di": "CK DK CA H10 S5 D2 C9 DA D4 H9",
        "Ed": "C5 SJ D9 S9 D10 C2 H4 S8 S6 HQ",
        "kitty": "S2 S3 C6",
    },
    -7: {
        "Ana": "H7 S4 S3 H10 SK HA H2 SJ H5 H3",
        "Bo": "HJ D10 DK D8 C7 H8 JK DJ C5 DA",
        "Cy": "S7 CA HK C3 H6 S9 DQ D4 D9 S6",
        "Di": "H4 C10 CJ D5 S8 D3 CQ D6 C2 C9",
        "Ed": "S5 HQ D2 S10 SQ S2 D7 C8 H9 C4",
        "kitty": "C6 CK SA",
    },
}


@pytest.mark.parametrize("seed", sorted(GOLDEN))
def test_golden_deal(seed):
    deal = deal_cards(seed, FIVE)
    assert {who: format_cards(cards) for who, cards in deal.items()} == GOLDEN[seed]


def test_golden_hand_seeds_of_mighty_deal():
    # hand k of `mighty deal --seed 42`
    assert hand_seed(42, 1) == 17077969057185226840
    assert hand_seed(42, 2) == 7655838895582379970
    first = deal_cards(hand_seed(42, 1), FIVE)
    assert format_cards(first["Ana"]) == "DA HJ S10 S7 S8 D9 SQ H6 D3 C5"
    assert format_cards(first["kitty"]) == "S5 H4 C2"


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=-(2**70), max_value=2**70))
def test_deal_follows_the_documented_algorithm(seed):
    assert shuffled_deck(seed) == reference_shuffle(seed, list(DECK))
    deal = deal_cards(seed, FIVE)
    shuffled = reference_shuffle(seed, list(DECK))
    assert [card for who in FIVE + ["kitty"] for card in deal[who]] == shuffled


def test_deal_uses_no_random_module():
    # the engine's dealing must not depend on CPython's random internals
    source = open(deck_module.__file__, encoding="utf-8").read()
    assert "import random" not in source and "from random" not in source


def test_golden_ghost_deal():
    # ghost 4마 (table.ghost): hand 1 of `mighty deal --seed 42 -r ghost-4`; the ghost's pile
    # is the fifth ten of the shuffled deck, kept in that order (its top card first)
    from mighty_cli.engine.hand.seats import GHOST, arranged_deal, seats
    from mighty_cli.engine.ruleset import load_ruleset

    rules = load_ruleset("ghost-4")
    deal = deal_cards(
        hand_seed(42, 1), seats(rules, FIVE[:4]), rules.deck_cards, rules.table.hand_size
    )
    assert format_cards(deal[GHOST]) == "H5 H2 D2 S4 H10 CA D5 C3 CK CQ"
    assert format_cards(deal["Di"]) == "SJ HQ C9 DQ C4 D8 H3 D10 D4 C8"
    assert format_cards(deal["kitty"]) == "S5 H4 C2"
    assert format_cards(arranged_deal(deal)[GHOST]) == "H5 H2 D2 S4 H10 CA D5 C3 CK CQ"
    # the four players get what the five-player deal gives its first four
    five = deal_cards(hand_seed(42, 1), FIVE)
    assert [deal[p] for p in FIVE[:4]] == [five[p] for p in FIVE[:4]]
    assert deal[GHOST] == five["Ed"]
