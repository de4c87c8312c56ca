"""The short ways a record's full hand is replayed outside the tricks, each held to the general
way it stands for, under every bundled ruleset: the deal read as masks at once
(record_values.read_plain_deal) against read_deal and new_hand's deal check; the usual election calls
written at once (election.bid_run) against bid_step call by call; a finished hand's usual
result (hand._plain_result) against hand_result's general body. Same states, same values, same
errors word for word.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mighty_cli.engine.hand import hand_result
from mighty_cli.engine.hand.api import _full_result, _plain_result
from mighty_cli.engine.hand.derived import rule_tables
from test_hand_properties import RULESETS, random_hand
from test_replay_fast_setup import record_outcome

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_the_usual_result_is_the_general_one(name, seed):
    rules, read_deal, states = random_hand(name, seed)
    final = states[-1]
    if final.phase != "done":
        return
    general = _full_result(final, final._ctx, final._setup)
    setup = final._setup
    if setup.friend2 is None and rule_tables(rules).plain_result and not setup.eliminated:
        assert _plain_result(final, final._ctx, setup) == general
    assert hand_result(final) == general


def test_the_usual_result_covers_the_common_rulesets():
    """The short way is taken where it should be (else the test above compares nothing)."""
    for name in ("standard", "club-requirements"):
        rules, read_deal, states = random_hand(name, 3)
        assert rule_tables(rules).plain_result
    assert not rule_tables(random_hand("ghost-4", 1)[0]).plain_result
    assert not rule_tables(random_hand("dongdaejeon-7", 1)[0]).plain_result  # weighed friends


# --- the deal read as masks at once (record_values.read_plain_deal) ---------------------------------


def broken_deal(deal: dict, rng: random.Random) -> object:
    """The deal's texts with one change a record could have: each either still a legal deal
    written otherwise (lower case, ♠, the suit's word, spaces) or a deal the reader or the deal
    check refuses (a card moved, named twice, unknown, out of play; a hand missing or extra;
    not a string; not a table)."""
    deal = dict(deal)
    who = rng.choice(sorted(deal))
    cards = deal[who].split()
    other = rng.choice(sorted(set(deal) - {who}))
    kind = rng.randrange(14)
    if kind == 0:
        cards[rng.randrange(len(cards))] = cards[rng.randrange(len(cards))].lower()
    elif kind == 1:
        cards[0] = cards[0].replace("S", "♠").replace("H", "하트 ")
    elif kind == 2:
        deal[who] = "  " + "   ".join(cards) + " "
        return deal
    elif kind == 3:  # a card moved from one hand to another
        moved = deal[other].split()
        cards.append(moved.pop())
        deal[other] = " ".join(moved)
    elif kind == 4:  # a card named twice (and one never)
        cards[0] = deal[other].split()[0]
    elif kind == 5:
        cards[-1] = rng.choice(["ZZ", "S1", "BJ", "S11", "H11", "10S", "JK JK"])
    elif kind == 6:
        del deal[who]
        return deal
    elif kind == 7:
        deal["Zed"] = deal[who]
        return deal
    elif kind == 8:
        deal[who] = cards  # a list, not a string
        return deal
    elif kind == 9:
        deal[who] = 7
        return deal
    elif kind == 10:
        return " ".join(deal.values())  # not a table
    elif kind == 11:  # two cards swapped between hands: still legal
        theirs = deal[other].split()
        cards[0], theirs[0] = theirs[0], cards[0]
        deal[other] = " ".join(theirs)
    elif kind == 12:
        cards.pop()
    else:
        cards.append("JK")
    deal[who] = " ".join(cards)
    return deal


def outcome_of(record, fast: bool):
    return record_outcome(record, fast)


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_a_deal_reads_the_same_at_once_and_card_by_card(name, seed):
    from mighty_cli.engine.records import Record, state_to_hand
    from test_hand_properties import players_of

    rules, deal, states = random_hand(name, seed)
    hand = state_to_hand(states[-1], deal)
    if "deal" not in hand:
        return
    hand.setdefault("opener", states[0].to_move)
    players = list(players_of(rules))
    rng = random.Random(seed)
    for one in [hand] + [dict(hand, deal=broken_deal(hand["deal"], rng)) for _ in range(6)]:
        fast = outcome_of(Record(ruleset=name, players=players, hands=[one]), True)
        assert fast == outcome_of(Record(ruleset=name, players=players, hands=[one]), False), \
            one["deal"]


def test_the_deal_at_once_takes_the_usual_deal_only():
    from mighty_cli.engine.records import state_to_hand
    from mighty_cli.engine.records.values import read_deal, read_plain_deal
    from mighty_cli.engine.cards.deck import check_deal

    rules, deal, states = random_hand("standard", 5)
    texts = state_to_hand(states[-1], deal)["deal"]
    players = tuple(states[0].players)
    tables = rule_tables(rules)
    read, masks = read_plain_deal(texts, players, tables)
    assert masks == check_deal(read_deal(texts, 1), players)
    assert {who: read[who] for who in texts} == read_deal(texts, 1)
    lower = dict(texts, kitty=texts["kitty"].lower())
    assert read_plain_deal(lower, players, tables) is None  # legal, but read by read_deal
    twice = dict(texts, kitty=" ".join([texts[players[0]].split()[0]] + texts["kitty"].split()[1:]))
    assert read_plain_deal(twice, players, tables) is None
    assert read_plain_deal(dict(texts, Zed="SA"), players, tables) is None
    assert not rule_tables(random_hand("chicago-8", 1)[0]).plain_deal  # two decks
    assert not rule_tables(random_hand("ghost-4", 1)[0]).plain_deal  # the ghost's seat


def test_the_previous_hand_made_at_once_is_the_dataclass_made_by_its_init():
    import dataclasses

    from mighty_cli.engine.session import PreviousHand, previous_hand

    assert not hasattr(PreviousHand, "__post_init__")  # nothing the short way would skip
    for values in [("scored", ("Ana", "Bo"), "Ana", "Bo", "Cy", True, None, "Bo"),
                   ("deal_miss", ("Ana",), "Ana", None, None, None, "Ana", None),
                   ("redeal", (), None, None, None, None, None, None)]:
        made = previous_hand(values)
        assert made == PreviousHand(*values)
        assert dataclasses.astuple(made) == values
        assert repr(made) == repr(PreviousHand(*values))
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.status = "scored"  # still frozen


def test_a_call_parsed_for_one_seating_is_refused_at_another():
    """The election's calls are remembered per seating (record_values.read_calls): the same text
    in a hand where its player sits out is refused as the general path refuses it."""
    from mighty_cli.engine.records import Record, state_to_hand

    rules, deal, states = random_hand("standard", 11)
    first = state_to_hand(states[-1], deal)
    first["opener"] = states[0].to_move
    seated = list(states[0].players)
    first["players"] = seated
    caller = next(text.split()[0] for text in first["election"]
                  if text.split()[0] not in (first["dealer"], first["opener"]))
    second = dict(first, players=["Fay" if name == caller else name for name in seated])
    second["deal"] = {("Fay" if who == caller else who): cards
                      for who, cards in first["deal"].items()}
    everyone = seated + ["Fay"]
    outcomes = [record_outcome(Record(ruleset="standard", players=everyone,
                                      hands=[dict(first), dict(second)]), fast)
                for fast in (True, False)]
    assert outcomes[0] == outcomes[1]
    assert outcomes[0] == (f"hand 2: election = {caller!r} is not one of the players of this "
                           f"hand ({', '.join(second['players'])})")
