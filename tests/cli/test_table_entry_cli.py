"""Nothing lost at a club night (issue 35, items 3, 4 and 7): the same outcome entered twice
is refused unless --again, the referee's and the score-keeper's hints carry what finds the
same table again, a referee who took back every call leaves no hand in progress, and a
referee's window whose hand another window took up stops (in process, on SQLite and
PostgreSQL; the processes themselves: tests/hardening/test_table_races.py)."""

from __future__ import annotations

import json
import re
import shlex

from click.testing import CliRunner

from mighty_cli.cli import cli
from mighty_cli.cli.evening_setup import EveningOptions, open_evening

TEN = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy", "Jon"]
FIVE = TEN[:5]


def shown(db: str) -> str:
    """The database as a hint names it: the URL, a password masked (then quoted)."""
    masked = re.sub(r":[^:@/]+@", ":***@", db)
    return f'"{masked}"' if "*" in masked else masked


def mighty(db, *args, input=None):
    return CliRunner().invoke(cli, [*args, "--db", db], input=input)


def ok(db, *args, input=None) -> str:
    result = mighty(db, *args, input=input)
    assert result.exit_code == 0, result.output
    return result.output


def state(db) -> str:
    return ok(db, "export", "-l", "L", "--format", "json") + ok(
        db, "hand", "log", "-l", "L", "--json"
    )


def league(db) -> None:
    ok(db, "league", "create", "L", "-r", "standard")
    ok(db, "session", "start", "-l", "L", "-p", ",".join(FIVE))


def round_of_ten(db) -> list[dict]:
    ok(db, "league", "create", "L", "-r", "standard")
    return json.loads(
        ok(db, "round", "start", "-l", "L", "-p", ",".join(TEN), "--seed", "1", "--json")
    )["tables"]


def test_the_same_outcome_twice_is_refused_in_one_line_and_nothing_changes(db):
    league(db)
    ok(db, "record", "-l", "L", "-d", "Bo", "-c", "15D", "-f", "Cy", "-t", "16")
    before = state(db)
    again = mighty(db, "record", "-l", "L", "-d", "Bo", "-c", "15D", "-f", "Cy", "-t", "16")
    assert again.exit_code == 1
    assert re.fullmatch(
        r"Error: the same outcome as hand 1 \(declarer Bo 15D, by \S+ at "
        r"\d\d:\d\d\): entered twice\? If the table played it twice alike, add "
        r"--again\.\n",
        again.output,
    ), again.output
    assert state(db) == before


def test_again_records_a_hand_played_twice_alike(db):
    league(db)
    ok(db, "record", "-l", "L", "--deal-miss", "Cy")
    said = ok(db, "record", "-l", "L", "--deal-miss", "Cy", "--again")
    assert said.startswith("Hand 2 (session 1): deal miss by Cy")


def test_record_evening_refuses_the_same_outcome_and_goes_on(db):
    league(db)
    out = ok(
        db,
        "record",
        "-l",
        "L",
        "--evening",
        input="Bo\n15D\nCy\n16\nBo\n15D\nCy\n16\nDi\n14S\nnone\n15\nq\n",
    )
    assert "✗ the same outcome as hand 1 (declarer Bo 15D, by " in out
    assert "add --again." in out
    hands = json.loads(ok(db, "hand", "list", "-l", "L", "--json"))["hands"]
    assert [(h["number"], h["declarer"]) for h in hands] == [(1, "Bo"), (2, "Di")]


def test_the_referees_quit_hint_finds_the_same_table_again(db):
    round_of_ten(db)
    left = ok(db, "referee", "--league", "L", "--table", "2", input="pass\nq\n")
    hint = re.search(r"is kept in league L: '(.*)' resumes it at the same card", left)
    assert hint, left
    command = shlex.split(hint[1])
    assert command[:7] == ["mighty", "referee", "--league", "L", "--table", "2", "--db"]
    resumed = mighty(db, *command[1:6], input="q\n")  # a password is masked: given again
    assert resumed.exit_code == 0, resumed.output
    assert "— table 2, hand 1 resumed at the same card" in resumed.output


def test_a_session_chosen_by_number_is_named_again_in_the_hint(db):
    ok(db, "league", "create", "L", "-r", "standard")
    ok(db, "session", "start", "-l", "L", "-p", ",".join(FIVE))
    ok(db, "session", "start", "-l", "L", "-p", ",".join(TEN[5:]))
    left = ok(db, "referee", "--league", "L", "--session", "2", input="pass\nq\n")
    assert f"'mighty referee --league L --session 2 --db {shown(db)}' resumes it" in left


def test_the_referee_at_an_open_round_without_a_table_says_which(db):
    round_of_ten(db)
    result = mighty(db, "referee", "--league", "L")
    assert result.exit_code == 1
    assert result.output == (
        "Error: league L plays round 1 at tables 1 to 2: say which with "
        f"--table, e.g. 'mighty referee --league L --table 1 --db "
        f"{shown(db)}'\n"
    )


def test_round_end_after_the_referee_took_back_every_call(db):
    round_of_ten(db)
    ok(db, "referee", "--league", "L", "--table", "1", input="pass\npass\nundo 2\nq\n")
    shown = json.loads(ok(db, "round", "show", "-l", "L", "--json"))
    assert [t["hand_in_progress"] for t in shown["tables"]] == [False, False]
    assert ok(db, "round", "end", "-l", "L").startswith("Round 1 of L ended")


def test_a_window_whose_hand_was_taken_up_elsewhere_stops_and_stores_nothing(db):
    league(db)
    first, _lines = open_evening(EveningOptions(league="L", db=db, interactive=False), "t")
    second = None
    try:
        assert first.handle("pass")[0].startswith("✓ ")
        second, lines = open_evening(EveningOptions(league="L", db=db, interactive=False), "t")
        assert "— hand 1 resumed at the same card" in lines
        refused = first.handle("pass")
        assert len(refused) == 1 and refused[0].startswith(
            "✗ hand 1 was taken up in another window at "
        )
        assert first.done and first.taken_away
        assert second.handle("pass")[0].startswith("✓ ")
    finally:
        first.book.close()
        if second is not None:
            second.book.close()


def test_a_finished_hand_another_window_stored_is_not_stored_again(db):
    league(db)
    first, _lines = open_evening(EveningOptions(league="L", db=db, interactive=False), "t")
    second, _lines = open_evening(EveningOptions(league="L", db=db, interactive=False), "t")
    try:
        second.handle("miss Cy")  # hand 1: a deal miss, stored by the second window
        refused = first.handle("miss Cy")  # the first window's same hand, ending there too
        assert len(refused) == 1
        assert refused[0].startswith(
            "✗ hand 1 was entered meanwhile elsewhere (deal miss (Cy), by t at "
        )
        assert refused[0].endswith(
            f"'mighty referee --league L --db {shown(db)}' goes on from what the league holds"
        )
    finally:
        first.book.close()
        second.book.close()
    hands = json.loads(ok(db, "hand", "list", "-l", "L", "--json"))["hands"]
    assert [h["number"] for h in hands] == [1]


def test_a_window_at_a_table_the_round_ended_stops_without_a_way_on(db):
    round_of_ten(db)
    window, _lines = open_evening(
        EveningOptions(league="L", db=db, table=1, interactive=False), "t"
    )
    try:
        window.handle("pass")
        ok(db, "round", "end", "-l", "L", "--force")
        assert window.handle("pass") == [
            "✗ table 1 (session 1) has ended: the entries made here are not kept"
        ]
        assert window.done and window.taken_away
    finally:
        window.book.close()


def test_a_hand_half_entered_is_the_keepers_to_finish_not_a_referees(db):
    league(db)
    from mighty_cli.engine.records import Record, dump_record
    from mighty_cli.store.db import make_engine, transaction
    from mighty_cli.store.ledger.table_entry import keep_half_entered

    engine = make_engine(db)
    with transaction(engine) as s:
        keep_half_entered(
            s,
            "L",
            1,
            dump_record(
                Record(
                    ruleset="standard",
                    players=FIVE,
                    hands=[{"dealer": "Ana", "declarer": "Bo", "contract": "15D"}],
                )
            ),
            0,
        )
    engine.dispose()
    refused = mighty(db, "referee", "--league", "L")
    assert refused.exit_code == 1
    assert refused.output == (
        "Error: hand 1 was left half entered by a score-keeper (declarer Bo, contract 15D): "
        f"'mighty record --evening --league L --db {shown(db)}' takes it up again (to finish "
        "it, or to drop it with quit)\n"
    )
    taken = ok(db, "record", "-l", "L", "--evening", input="Cy\n16\nq\n")
    assert "— taken up where it was left: declarer Bo, contract 15D" in taken
    assert "Hand 1 (session 1): Bo 15D with Cy, took 16: made" in taken
