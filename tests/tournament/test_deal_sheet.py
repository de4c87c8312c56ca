"""The deal sheet's deals (:mod:`mighty_cli.tournament.deal_sheet`): at every table shape a
bundled ruleset deals (five hands and a kitty, six and seven with eliminations, the ghost's
pile, 시흥 은마's dummy, 허니문's friend hands, two decks, two jokers), each stack of a deal
is the one the referee deals and ``record`` checks (:func:`expected_deal`), every card of the
deck once; and a hand is laid out as a director lays it: ♠ ♥ ◆ ♣ high to low, then the
jokers, the mighty marked."""

from __future__ import annotations

from collections import Counter

import pytest

from mighty_cli.engine.cards import parse_card, parse_cards
from mighty_cli.engine.hand.honeymoon import partner_of
from mighty_cli.engine.hand.seats import DUMMY, GHOST
from mighty_cli.engine.ruleset import bundled_names, load_ruleset
from mighty_cli.engine.session import duplicate_proposal
from mighty_cli.store.duplicate import expected_deal
from mighty_cli.tournament.deal_sheet import (
    columns,
    deal_sheet,
    director_order,
    seat_labels,
    sheet_deal,
)

DEALT = [name for name in bundled_names() if load_ruleset(name).table.deal == "dealt"]


@pytest.mark.parametrize("name", DEALT)
def test_every_stack_is_the_deal_record_checks_at_every_table_shape(name):
    """Deals 1 to 3 of seed 5 at a full table and at one with a player more (who sits out):
    each seat's hand (and friend hand), the kitty, the dummy's hand and the ghost's pile (in
    its dealt order) are the deal's, and together they are the deck."""
    rules = load_ruleset(name)
    for size in (rules.table.players, rules.table.players + 1):
        labels = seat_labels(size)
        for number in (1, 2, 3):
            sheet = sheet_deal(rules, 5, size, number)
            proposal = duplicate_proposal(rules, labels, number)
            dealt = expected_deal(rules, 5, number, proposal.players)
            assert (labels[sheet.dealer - 1], labels[sheet.opener - 1]) \
                == (proposal.dealer, proposal.opener)
            stacks = []
            for seat in sheet.seats:
                label = labels[seat.seat - 1]
                if label in proposal.sitting_out:
                    assert seat.cards is None
                    continue
                assert sorted(seat.cards) == sorted(dealt[label])
                stacks.append(seat.cards)
                if rules.table.partner_hands:
                    assert sorted(seat.friend_hand) == sorted(dealt[partner_of(label)])
                    stacks.append(seat.friend_hand)
            piles = dict(sheet.piles)
            assert sorted(piles["kitty"]) == sorted(dealt["kitty"])
            if rules.table.ghost:
                assert list(piles["ghost"]) == dealt[GHOST]  # the top card first
            if rules.table.dummy:
                assert sorted(piles["dummy"]) == sorted(dealt[DUMMY])
            stacks += piles.values()
            assert Counter(card for stack in stacks for card in stack) \
                == Counter(rules.deck_cards)


def test_a_hand_is_laid_out_by_suit_high_to_low_then_the_jokers():
    """Two jokers (the colour joker, then the black), two decks' copies side by side, and
    서울과고's 11 between the jack and the ten."""
    hand = parse_cards("C3 BJ S10 HA D2 JK SA S11 SJ H9 DK", copies=True)
    assert [card & 127 for card in director_order(hand)] == parse_cards(
        "SA SJ S11 S10 HA H9 DK D2 C3 JK BJ")
    two = parse_cards("SA SK SA", copies=True)
    assert [card & 127 for card in director_order(two)] == [parse_card("SA")] * 2 + [
        parse_card("SK")]


def test_the_mighty_is_marked_in_its_suits_column():
    laid = columns(parse_cards("DA SK SA JK C10"), parse_card("SA"))
    assert [[(face.text, face.mighty) for face in column] for column in laid] == [
        [("A", True), ("K", False)], [], [("A", False)], [("10", False)], [("JK", False)]]


def test_a_sheet_gives_each_table_size_its_deals_smallest_first():
    rules = load_ruleset("standard")
    sheet = deal_sheet(rules, 9, [(2, ["A", "B", "C", "D", "E", "F"]),
                                  (1, ["G", "H", "I", "J", "K"]),
                                  (3, ["L", "M", "N", "O", "P"])], 4, league="cup",
                       round_number=2)
    assert [(size.size, [t.table for t in size.tables], len(size.deals))
            for size in sheet.sizes] == [(5, [1, 3], 4), (6, [2], 4)]
    assert sheet.to_json()["mighty"] == "SA" and sheet.to_json()["mighty_alternate"] == "DA"
