"""What a table's writers are held to in the store (issue 35, items 1 to 3), on SQLite and
PostgreSQL: the hand in progress held by a window's token (a writer whose hand was stored,
taken up or dropped elsewhere is refused and nothing is written), the table's hand a writer
says it enters (behind refused, the same entry recognised), the same outcome twice refused
unless again, and the table's own count of each hand stored."""

from __future__ import annotations

import pytest

from databases import run, snapshot
from mighty_cli.engine.records import Record, dump_record
from mighty_cli.store import LeagueError
from mighty_cli.store.ledger.corrections import void_hand
from mighty_cli.store.ledger.hands import enter_hand, record_hand
from mighty_cli.store.ledger.leagues import create_league
from mighty_cli.store.ledger.sessions import start_session
from mighty_cli.store.ledger.table_entry import (
    HalfEntered,
    HandAlreadyEntered,
    HandGone,
    LiveClaim,
    SameOutcome,
    drop_live_hand,
    hand_in_progress,
    keep_half_entered,
    keep_live_hand,
    take_half_entered,
    take_live_hand,
)
from mighty_cli.store.rounds.round_tables import start_round

FIVE = ["Ana", "Bo", "Cy", "Di", "Ed"]
BO_MADE = dict(declarer="Bo", contract="14S", friend="Cy", taken=16)


def live(*, election=("Ana 14S",)) -> str:
    """A referee's hand in progress: dealt by Ana, the calls so far."""
    hand = {"dealer": "Ana", "opener": "Ana"} | ({"election": list(election)} if election else {})
    return dump_record(Record(ruleset="standard", players=FIVE, hands=[hand]))


@pytest.fixture
def league(engine):
    run(engine, create_league, "L", "standard", who="t")
    run(engine, start_session, "L", FIVE, who="t")
    return engine


def session_id(engine) -> int:
    from mighty_cli.store.ledger.lookups import get_league
    from mighty_cli.store.ledger.sessions import find_session

    def look(s):
        return find_session(s, get_league(s, "L"), 1, open_only=False).id

    return run(engine, look)


def refused_gone(engine, function, *args) -> HandGone:
    """A write refused with HandGone, the store exactly as before."""
    before = snapshot(engine)
    with pytest.raises(HandGone) as caught:
        run(engine, function, *args)
    assert snapshot(engine) == before
    return caught.value


def test_a_writer_whose_hand_was_replaced_by_a_recorded_hand_is_refused(league):
    claim, text = run(league, take_live_hand, "L", 1, "window-a")
    assert text is None and claim == LiveClaim("window-a", 0, held=False)
    run(league, keep_live_hand, "L", 1, live(), claim)
    claim.held = True
    recorded = run(league, record_hand, "L", **BO_MADE, who="kim")  # the keeper's record
    assert recorded.replaced_live == "Ana" and recorded.session_hand == 1
    gone = refused_gone(
        league, keep_live_hand, "L", 1, live(election=("Ana 14S", "Bo pass")), claim
    )
    assert gone.what == "stored"
    assert str(gone).startswith(
        "hand 1 was entered meanwhile elsewhere (declarer Bo 14S, by kim at "
    )
    assert str(gone).endswith("): the entries made here are not kept")


def test_storing_a_replaced_refereed_hand_is_refused_and_stores_nothing(league):
    claim, _text = run(league, take_live_hand, "L", 1, "window-a")
    run(league, record_hand, "L", **BO_MADE, who="kim")
    before = snapshot(league)
    with pytest.raises(HandGone) as caught:
        run(
            league,
            record_hand,
            "L",
            players=FIVE,
            dealer="Ana",
            who="t",
            claim=claim,
            refereed={"players": FIVE, "dealer": "Ana", "opener": "Ana", "deal_miss": "Cy"},
        )
    assert caught.value.what == "stored"
    assert snapshot(league) == before


def test_a_window_that_took_the_hand_up_makes_the_first_windows_entries_refused(league):
    first, _text = run(league, take_live_hand, "L", 1, "window-a")
    run(league, keep_live_hand, "L", 1, live(), first)
    first.held = True
    second, text = run(league, take_live_hand, "L", 1, "window-b")
    assert text == live() and second.held
    gone = refused_gone(league, keep_live_hand, "L", 1, live(), first)
    assert gone.what == "taken"
    assert str(gone).startswith("hand 1 was taken up in another window at ")
    run(league, keep_live_hand, "L", 1, live(election=("Ana 14S", "Bo pass")), second)


def test_a_hand_dropped_elsewhere_refuses_the_window_that_held_it(league):
    first, _text = run(league, take_live_hand, "L", 1, "window-a")
    run(league, keep_live_hand, "L", 1, live(), first)
    first.held = True
    second, _text = run(league, take_live_hand, "L", 1, "window-b")
    run(league, drop_live_hand, "L", 1, second)  # every call taken back there
    second.held = False
    gone = refused_gone(league, keep_live_hand, "L", 1, live(), first)
    assert gone.what == "dropped"
    assert str(gone) == (
        "hand 1, in progress here, was dropped elsewhere: the entries made here are not kept"
    )


def test_a_hand_with_every_call_taken_back_is_no_hand_in_progress(league):
    claim, _text = run(league, take_live_hand, "L", 1, "window-a")
    run(league, keep_live_hand, "L", 1, live(election=()), claim)  # dealt, nothing called
    assert run(league, hand_in_progress, session_id(league)) is False
    run(league, keep_live_hand, "L", 1, live(), claim)
    assert run(league, hand_in_progress, session_id(league)) is True


def test_the_same_outcome_as_the_tables_previous_hand_is_refused_unless_again(league):
    run(league, enter_hand, "L", **BO_MADE, who="kim")
    before = snapshot(league)
    with pytest.raises(SameOutcome) as caught:
        run(league, enter_hand, "L", **BO_MADE, who="kim")
    assert str(caught.value).startswith("the same outcome as hand 1 (declarer Bo 14S, by kim at ")
    assert snapshot(league) == before
    assert run(league, enter_hand, "L", **BO_MADE, who="kim", again=True).hand.number == 2
    other = dict(BO_MADE, taken=15)
    assert run(league, enter_hand, "L", **other, who="kim").hand.number == 3


def test_a_deal_miss_by_the_same_player_twice_is_refused_and_another_is_not(league):
    run(league, enter_hand, "L", deal_miss="Cy", who="t")
    with pytest.raises(SameOutcome):
        run(league, enter_hand, "L", deal_miss="Cy", who="t")
    assert run(league, enter_hand, "L", deal_miss="Di", who="t").hand.number == 2


def test_the_same_outcome_after_a_voided_hand_is_compared_with_the_hand_before_it(league):
    run(league, enter_hand, "L", **BO_MADE, who="t")
    run(league, enter_hand, "L", **dict(BO_MADE, taken=15), who="t")
    run(league, void_hand, "L", 2, who="t", why="entered wrong")
    with pytest.raises(SameOutcome) as caught:
        run(league, enter_hand, "L", **BO_MADE, who="t")
    assert "hand 1" in str(caught.value)


def test_a_writer_behind_the_table_is_told_which_hand_was_entered(league):
    run(league, enter_hand, "L", **BO_MADE, who="kim", expect_hand=1)
    before = snapshot(league)
    with pytest.raises(HandAlreadyEntered) as caught:  # another hand, sent as hand 1
        run(
            league,
            enter_hand,
            "L",
            declarer="Ana",
            contract="15D",
            friend="none",
            taken=17,
            who="lee",
            expect_hand=1,
        )
    assert not caught.value.same and caught.value.next == 2
    assert str(caught.value).startswith("hand 1 is already entered (declarer Bo 14S, by kim at ")
    with pytest.raises(HandAlreadyEntered) as caught:  # the same entry sent again
        run(league, enter_hand, "L", **BO_MADE, who="kim", expect_hand=1)
    assert caught.value.same
    assert "is already entered as given here" in str(caught.value)
    with pytest.raises(LeagueError, match="the table has 1 hand stored: its next is hand 2, not 5"):
        run(league, enter_hand, "L", **BO_MADE, who="kim", expect_hand=5)
    assert snapshot(league) == before


def test_a_tables_hand_is_told_by_its_own_count(engine):
    run(engine, create_league, "cup", "standard", who="t")
    plan = run(engine, start_round, "cup", FIVE + ["Fay", "Gus", "Hal", "Ivy", "Jon"], who="t")
    one, two = plan.tables
    run(
        engine,
        record_hand,
        "cup",
        session_number=two.session,
        declarer=two.players[1],
        contract="14S",
        friend="none",
        taken=16,
        who="t",
    )
    done = run(
        engine,
        record_hand,
        "cup",
        session_number=one.session,
        declarer=one.players[1],
        contract="14S",
        friend="none",
        taken=16,
        who="t",
    )
    assert (done.hand.number, done.session_hand) == (2, 1)
    with pytest.raises(HandAlreadyEntered) as caught:
        run(
            engine,
            enter_hand,
            "cup",
            session_number=one.session,
            declarer=one.players[2],
            contract="15S",
            friend="none",
            taken=16,
            who="t",
            expect_hand=1,
        )
    assert str(caught.value).startswith(
        f"table 1's hand 1 is already entered (declarer {one.players[1]} 14S, by t at "
    )


def test_a_score_keepers_half_typed_hand_is_kept_then_taken_up_once(league):
    half = dump_record(
        Record(
            ruleset="standard",
            players=FIVE,
            hands=[{"dealer": "Ana", "declarer": "Bo", "contract": "14S"}],
        )
    )
    run(league, keep_half_entered, "L", 1, half, 0)
    assert run(league, hand_in_progress, session_id(league)) is True
    with pytest.raises(
        HalfEntered,
        match=r"hand 1 was left half entered by a score-keeper "
        r"\(declarer Bo, contract 14S\)",
    ):
        run(league, take_live_hand, "L", 1, "a-referee")
    players, hand = run(league, take_half_entered, "L", 1)
    assert players == FIVE and hand == {"dealer": "Ana", "declarer": "Bo", "contract": "14S"}
    assert run(league, take_half_entered, "L", 1) is None


def test_a_half_typed_hand_is_not_kept_once_the_table_stored_that_hand(league):
    run(league, record_hand, "L", **BO_MADE, who="kim")
    half = dump_record(
        Record(ruleset="standard", players=FIVE, hands=[{"dealer": "Ana", "declarer": "Bo"}])
    )
    gone = refused_gone(league, keep_half_entered, "L", 1, half, 0)
    assert gone.what == "stored"


def test_a_recorded_hand_replacing_a_half_typed_one_says_its_answers(league):
    half = dump_record(
        Record(
            ruleset="standard",
            players=FIVE,
            hands=[{"dealer": "Ana", "declarer": "Bo", "contract": "14S"}],
        )
    )
    run(league, keep_half_entered, "L", 1, half, 0)
    done = run(league, record_hand, "L", **BO_MADE, who="kim")
    assert (done.replaced_live, done.replaced_half) == (None, "declarer Bo, contract 14S")
