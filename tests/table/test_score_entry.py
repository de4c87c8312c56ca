"""The score-keeper's entry as any front end calls it, without click (mighty_cli.table.score_entry):
one field checked as it is filled, a whole outcome checked, an outcome stored as the table's
hand the writer expects. One test per rule, on SQLite (the store's own tests hold its rules on
PostgreSQL too)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from databases import fresh_url, run, snapshot
from mighty_cli.store.db import make_engine, transaction
from mighty_cli.table.next_hand import NextHand, read_next_hand
from mighty_cli.table.score_entry import (
    AlreadyStored,
    EnteredElsewhere,
    EntryRefused,
    Outcome,
    SameAsPrevious,
    check_field,
    check_outcome,
    sent_again,
    store_outcome,
)

FIVE = ["Ana", "Bo", "Cy", "Di", "Ed"]
BO_MADE = {"declarer": "bo", "contract": "14S", "friend": "cy", "taken": "16"}


def league_engine(tmp_path, ruleset: str = "standard", players=FIVE):
    from mighty_cli.store.ledger.leagues import create_league
    from mighty_cli.store.ledger.sessions import start_session

    engine = make_engine(fresh_url("sqlite", tmp_path))
    run(engine, create_league, "L", ruleset, who="t")
    run(engine, start_session, "L", list(players), who="t")
    return engine


@pytest.fixture
def engine(tmp_path):
    made = league_engine(tmp_path)
    yield made
    made.dispose()


def next_hand(engine) -> NextHand:
    return run(engine, read_next_hand, "L")


def store(engine, fields: dict, **how):
    with transaction(engine) as s:
        outcome = check_outcome(read_next_hand(s, "L"), fields)
        return store_outcome(s, "L", outcome, **how)


def refused(engine, fields: dict, **how) -> EntryRefused:
    """A store refused in one line, the database exactly as before."""
    before = snapshot(engine)
    with pytest.raises(EntryRefused) as caught:
        store(engine, fields, **how)
    assert snapshot(engine) == before
    return caught.value


# --- check_field ---------------------------------------------------------------------------------


def test_check_field_matches_a_name_by_any_case_or_a_unique_beginning(engine):
    hand = next_hand(engine)
    assert check_field(hand, "declarer", "an") == "Ana"
    assert check_field(hand, "declarer", "BO") == "Bo"


def test_check_field_refuses_a_name_nobody_has_by_the_fields_name(engine):
    with pytest.raises(EntryRefused) as caught:
        check_field(next_hand(engine), "declarer", "Zed")
    assert caught.value.field == "declarer" and caught.value.kind == "rule"
    assert "Zed" in str(caught.value) and "\n" not in str(caught.value)


def test_check_field_gives_the_contract_in_notation(engine):
    assert check_field(next_hand(engine), "contract", "스페이드 14") == "14S"
    assert check_field(next_hand(engine), "contract", "16nt") == "16NT"


def test_check_field_refuses_a_contract_below_the_rulesets_minimum(engine):
    with pytest.raises(EntryRefused) as caught:
        check_field(next_hand(engine), "contract", "9S")
    assert caught.value.field == "contract"


def test_check_field_reads_the_fields_filled_so_far(engine):
    with pytest.raises(EntryRefused) as caught:
        check_field(next_hand(engine), "friend", "ana", {"declarer": "an"})
    assert caught.value.field == "friend"
    assert str(caught.value) == "Ana is the declarer: name the friend, or none if he played alone"


def test_check_field_refuses_a_bad_field_so_far_by_that_fields_name(engine):
    with pytest.raises(EntryRefused) as caught:
        check_field(next_hand(engine), "friend", "Bo", {"declarer": "Zed"})
    assert caught.value.field == "declarer"


def test_check_field_refuses_a_name_that_is_no_field(engine):
    with pytest.raises(EntryRefused) as caught:
        check_field(next_hand(engine), "bid", "14S")
    assert caught.value.kind == "usage" and caught.value.field == "bid"


@pytest.mark.parametrize("word", ["none", "nf", "NF", "노프렌드", "-"])
def test_check_field_reads_every_word_of_the_vocabulary_for_no_friend(engine, word):
    assert check_field(next_hand(engine), "friend", word, {"declarer": "Ana"}) == []


def test_check_field_weighs_a_split_count_with_the_friends(tmp_path):
    engine = league_engine(tmp_path, "dongdaejeon-7", [*FIVE, "Fay", "Gus"])
    hand = next_hand(engine)
    assert check_field(hand, "taken", "15+4", {"declarer": "Ana", "friend": "fay"}) == 23
    assert check_field(hand, "taken", "15+3+1", {"declarer": "Ana", "friend": ["fay", "gus"]}) == 21
    engine.dispose()


# --- check_outcome -------------------------------------------------------------------------------


def test_check_outcome_gives_names_as_the_league_knows_them(engine):
    outcome = check_outcome(next_hand(engine), BO_MADE)
    assert outcome == Outcome(declarer="Bo", contract="14S", friend="Cy", taken=16)


@pytest.mark.parametrize("word", ["nf", "노프렌드", "none"])
def test_check_outcome_reads_every_word_for_no_friend_as_none(engine, word):
    outcome = check_outcome(next_hand(engine), BO_MADE | {"friend": word})
    assert outcome.friend == "none"


def test_check_outcome_refuses_taken_and_opposition_together_as_usage(engine):
    with pytest.raises(EntryRefused) as caught:
        check_outcome(next_hand(engine), BO_MADE | {"opposition": "4"})
    assert caught.value.kind == "usage"
    assert str(caught.value) == "give --taken or --opposition, not both"


def test_check_outcome_names_the_first_missing_field(engine):
    with pytest.raises(EntryRefused) as caught:
        check_outcome(next_hand(engine), {"declarer": "Bo", "contract": "14S", "taken": "16"})
    assert caught.value.field == "friend"
    assert str(caught.value).startswith("missing the friend (프렌드): ")


def test_check_outcome_takes_a_deal_miss_alone(engine):
    assert check_outcome(next_hand(engine), {"deal-miss": "cy"}) == Outcome(deal_miss="Cy")


def test_check_outcome_decides_no_friend_where_the_declarer_always_plays_alone(tmp_path):
    engine = league_engine(tmp_path, "standard-3", FIVE[:3])
    outcome = check_outcome(
        next_hand(engine), {"declarer": "Ana", "contract": "14S", "taken": "16"}
    )
    assert outcome.friend == "none"
    engine.dispose()


# --- store_outcome -------------------------------------------------------------------------------


def test_store_outcome_stores_the_hand_the_writer_expects(engine):
    stored = store(engine, BO_MADE, expect_hand=1, who="kim")
    assert (stored.table_hand, stored.league_hand) == (1, 1)
    assert sum(stored.points.values()) == 0 and stored.points["Bo"] > 0
    assert next_hand(engine).hand == 2


def test_store_outcome_of_a_hand_the_table_is_past_is_entered_elsewhere(engine):
    store(engine, BO_MADE, expect_hand=1, who="kim")
    elsewhere = refused(engine, {"deal_miss": "Di"}, expect_hand=1, who="lee")
    assert isinstance(elsewhere, EnteredElsewhere)
    assert (elsewhere.declarer, elsewhere.who, elsewhere.table_hand) == ("Bo", "kim", 1)
    assert elsewhere.next_hand == 2 and elsewhere.league_hand == 1
    assert abs(datetime.now(timezone.utc) - elsewhere.when).total_seconds() < 60
    assert str(elsewhere).startswith("hand 1 is already entered (declarer Bo 14S, by kim at ")


def test_store_outcome_of_the_same_entry_again_is_already_stored(engine):
    store(engine, BO_MADE, expect_hand=1, who="kim")
    again = refused(engine, BO_MADE, expect_hand=1, who="kim")
    assert isinstance(again, AlreadyStored) and not isinstance(again, EnteredElsewhere)
    assert (again.table_hand, again.league_hand, again.next_hand) == (1, 1, 2)
    assert "is already entered as given here" in str(again)


def test_store_outcome_equal_to_the_previous_hand_is_refused_without_again(engine):
    store(engine, BO_MADE, expect_hand=1)
    assert isinstance(refused(engine, BO_MADE, expect_hand=2), SameAsPrevious)


def test_store_outcome_with_again_stores_an_outcome_equal_to_the_previous_hand(engine):
    store(engine, BO_MADE, expect_hand=1)
    assert store(engine, BO_MADE, expect_hand=2, again=True).table_hand == 2


def test_store_outcome_without_expect_hand_stores_the_next_hand(engine):
    store(engine, BO_MADE)
    assert store(engine, {"deal_miss": "Di"}).table_hand == 2


def test_store_outcome_refuses_what_the_store_refuses_in_one_line(engine):
    refusal = refused(engine, BO_MADE | {"contract": "9S"})
    assert type(refusal) is EntryRefused and "\n" not in str(refusal) and "9" in str(refusal)


# --- next_hand -----------------------------------------------------------------------------------


def test_next_hand_names_the_fields_a_keeper_fills_in_order(engine):
    hand = next_hand(engine)
    assert hand.fields == ("declarer", "contract", "friend", "taken")
    assert hand.to_json()["hand"] == 1 and hand.to_json()["fields"] == list(hand.fields)


def test_next_hand_at_a_duplicate_table_asks_the_card_called_with_a_friend(tmp_path):
    from mighty_cli.store.ledger.leagues import create_league
    from mighty_cli.store.rounds.round_tables import start_round

    engine = make_engine(fresh_url("sqlite", tmp_path))
    run(engine, create_league, "L", "standard", who="t")
    run(engine, start_round, "L", FIVE, who="t", duplicate=True, seed=7)
    hand = next_hand(engine)
    assert hand.duplicate and hand.asks_friend_call
    assert hand.fields == ("declarer", "contract", "friend", "friend_call", "taken")
    engine.dispose()


def test_store_outcome_at_a_duplicate_table_refuses_a_friend_without_the_card_called(tmp_path):
    from mighty_cli.store.ledger.leagues import create_league
    from mighty_cli.store.rounds.round_tables import start_round

    engine = make_engine(fresh_url("sqlite", tmp_path))
    run(engine, create_league, "L", "standard", who="t")
    run(engine, start_round, "L", FIVE, who="t", duplicate=True, seed=7)
    seats = next_hand(engine).seating  # seed 7 deals the ace of spades to seat 4 on deal 1
    entry = {"declarer": seats[2], "contract": "14S", "friend": seats[4], "taken": "16"}
    refusal = refused(engine, entry)
    assert "the deal decides who the friend is: give the card the declarer called" in str(refusal)
    assert store(engine, entry | {"friend_call": "SA"}).table_hand == 1
    engine.dispose()


# --- sent_again ----------------------------------------------------------------------------------


def test_sent_again_weighs_a_stored_hand_with_its_own_players_at_a_table_of_six(tmp_path):
    """At a table of six the dealer sits out: hand 1 sent again once its friend deals hand 2
    (and so no longer plays) is still this very entry; another outcome is not."""
    six = league_engine(tmp_path, players=[*FIVE, "Fay"])
    playing = list(next_hand(six).players)
    fields = {"declarer": playing[0], "contract": "15D", "friend": playing[1], "taken": "16"}
    store(six, fields, expect_hand=1)
    assert playing[1] not in next_hand(six).players
    with transaction(six) as s:
        assert sent_again(s, "L", 1, 1, fields, playing)
        assert not sent_again(s, "L", 1, 1, {**fields, "taken": "15"}, playing)
        assert not sent_again(s, "L", 1, 2, fields, playing)  # not stored yet: not sent again
    six.dispose()
