"""Someone leaves or arrives mid-round (issue 35, item 5): ``round seat --table T --leave X
--join Y`` changes one table's seating from its next hand, its earlier hands intact, the other
tables untouched, on SQLite and (when configured) PostgreSQL; the refusals are one line and
change nothing."""

from __future__ import annotations

import json

import pytest

from league_calls import ok, refused

ELEVEN = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gil", "Hu", "Ida", "Jo", "Ki"]


@pytest.fixture
def cup(db):
    ok(db, "league", "create", "cup", "--ruleset", "standard")
    return db


def start(db, players=ELEVEN, seed=1, *extra) -> dict:
    return json.loads(
        ok(
            db,
            "round",
            "start",
            "-l",
            "cup",
            "-p",
            ",".join(players),
            "--seed",
            str(seed),
            "--json",
            *extra,
        )
    )


def tables_by_size(plan) -> tuple[dict, dict]:
    """The table of six and the table of five of eleven."""
    six, five = sorted(plan["tables"], key=lambda t: -len(t["players"]))
    return six, five


def next_players(db, table) -> list[str]:
    return json.loads(ok(db, "session", "show", "-l", "cup", "--table", str(table), "--json"))[
        "next"
    ]["players"]


def record(db, table, k=0, friend=True) -> str:
    """One hand at ``table``, its declarer the ``k``-th of the proposed players (the next his
    friend, or none: at a duplicate table the deal decides the friend). Filler hands: the same
    outcome may come twice (``--again``)."""
    players = next_players(db, table)
    return ok(
        db,
        "record",
        "-l",
        "cup",
        "--table",
        str(table),
        "-d",
        players[k],
        "-c",
        "14H",
        "-f",
        players[k + 1] if friend else "none",
        "-t",
        "16",
        "--again",
    )


def shown(db) -> dict:
    return {
        t["table"]: t for t in json.loads(ok(db, "round", "show", "-l", "cup", "--json"))["tables"]
    }


def test_a_seat_change_mid_round_keeps_the_earlier_hands_and_the_other_tables(cup, tmp_path):
    six, five = tables_by_size(start(cup))
    record(cup, five["table"])
    record(cup, five["table"], 1)
    record(cup, six["table"])
    hands_before = json.loads(ok(cup, "hand", "list", "-l", "cup", "--json"))["hands"]
    other_before = shown(cup)[six["table"]]
    leaver = five["players"][2]
    changed = json.loads(
        ok(
            cup,
            "round",
            "seat",
            "-l",
            "cup",
            "--table",
            str(five["table"]),
            "--leave",
            leaver,
            "--join",
            "Zelda",
            "--json",
        )
    )
    assert changed["changed"] == [five["table"]]
    table = {t["table"]: t for t in changed["tables"]}[five["table"]]
    assert sorted(table["players"]) == sorted(
        [p for p in five["players"] if p != leaver] + ["Zelda"]
    )
    assert table["session"] > six["session"] and table["hands"] == 2
    assert table["seat_changes"] == [
        {"from_hand": 3, "session": table["session"], "left": [leaver], "joined": ["Zelda"]}
    ]
    assert shown(cup)[six["table"]] == other_before  # the other table untouched
    assert json.loads(ok(cup, "hand", "list", "-l", "cup", "--json"))["hands"] == hands_before
    # the table counts on: its next hand is its hand 3, with Zelda in the seating
    said = record(cup, five["table"])
    assert f"Table {five['table']}, hand 3 (league hand 4, session {table['session']})" in said
    hand = json.loads(
        ok(cup, "hand", "show", "-l", "cup", "--table", str(five["table"]), "3", "--json")
    )
    assert "Zelda" in hand["players"] and leaver not in hand["players"]
    assert (hand["round"], hand["table"], hand["table_hand"], hand["number"]) == (
        1,
        five["table"],
        3,
        4,
    )
    text = ok(cup, "round", "show", "-l", "cup")
    assert f"  from its hand 3 (session {table['session']}): {leaver} left; Zelda joined" in text
    ok(cup, "round", "show", "-l", "cup", "--html", str(tmp_path / "board.html"))
    board = (tmp_path / "board.html").read_text(encoding="utf-8")
    assert f"From its hand 3: {leaver} left; Zelda joined" in board
    assert "round seat" in ok(cup, "hand", "log", "-l", "cup")


def test_who_left_may_sit_at_another_table_and_the_next_dealer_deals(cup):
    """The player who leaves is free: another table takes him (seven at the six: two sit
    out). The changed table's next hand is dealt by whom its succession names, or, where he
    left, by who took his seat."""
    six, five = tables_by_size(start(cup))
    record(cup, five["table"])
    dealer = json.loads(
        ok(cup, "session", "show", "-l", "cup", "--table", str(five["table"]), "--json")
    )["next"]["dealer"]
    changed = json.loads(
        ok(
            cup,
            "round",
            "seat",
            "-l",
            "cup",
            "--table",
            str(five["table"]),
            "--leave",
            dealer,
            "--join",
            "Zelda",
            "--json",
        )
    )
    table = {t["table"]: t for t in changed["tables"]}[five["table"]]
    assert table["players"][0] == "Zelda"  # in the dealer's seat, he deals the next hand
    assert (
        json.loads(
            ok(cup, "session", "show", "-l", "cup", "--table", str(five["table"]), "--json")
        )["next"]["dealer"]
        == "Zelda"
    )
    ok(cup, "round", "seat", "-l", "cup", "--table", str(six["table"]), "--join", dealer)
    assert dealer in shown(cup)[six["table"]]["players"]
    assert len(shown(cup)[six["table"]]["players"]) == 7


def test_a_player_moves_between_tables_by_leaving_one_and_joining_the_other(cup):
    six, five = tables_by_size(start(cup))
    mover = six["players"][3]
    assert f"'{mover}' is already seated at table {six['table']} of round 1" in refused(
        cup, "round", "seat", "-l", "cup", "--table", str(five["table"]), "--join", mover
    )
    text = ok(
        cup,
        "round",
        "seat",
        "-l",
        "cup",
        "--table",
        str(five["table"]),
        "--leave",
        mover,
        "--join",
        mover,
    )
    after = shown(cup)
    assert mover in after[five["table"]]["players"] and len(after[five["table"]]["players"]) == 6
    assert mover not in after[six["table"]]["players"] and len(after[six["table"]]["players"]) == 5
    assert text.startswith("Round 1 of cup: the seating changes from the table's next hand.\n")
    assert f"Table {five['table']} (session {five['session']}):" in text  # no hand: in place


@pytest.mark.parametrize("kind", ["size", "in progress", "not seated", "reserved", "no round"])
def test_round_seat_refusals_are_one_line_and_change_nothing(cup, kind):
    from sqlmodel import Session

    from mighty_cli.store.db import make_engine
    from mighty_cli.store.ledger.table_entry import keep_live_hand, take_live_hand

    if kind == "no round":
        start(cup)
        ok(cup, "round", "end", "-l", "cup")
        assert "league 'cup' has no open round" in refused(
            cup, "round", "seat", "-l", "cup", "--table", "1", "--join", "Zelda"
        )
        return
    six, five = tables_by_size(start(cup))
    record(cup, five["table"])
    table = str(five["table"])
    if kind == "size":
        message = refused(
            cup,
            "round",
            "seat",
            "-l",
            "cup",
            "--table",
            table,
            "--leave",
            five["players"][1],
            "--leave",
            five["players"][2],
        )
        assert f"table {table} would seat 3: standard seats 5 to 7 at a table" in message
    elif kind == "in progress":
        engine = make_engine(cup)
        with Session(engine) as s:
            session = shown(cup)[five["table"]]["session"]
            claim, _held = take_live_hand(s, "cup", session, "test")
            keep_live_hand(
                s,
                "cup",
                session,
                'ruleset = "standard"\nplayers = []\n[[hands]]\ndealer = "Ana"\n',
                claim,
            )
            s.commit()
        engine.dispose()
        assert f"table {table} has a hand in progress" in refused(
            cup,
            "round",
            "seat",
            "-l",
            "cup",
            "--table",
            table,
            "--leave",
            five["players"][1],
            "--join",
            "Zelda",
        )
    elif kind == "not seated":
        assert "--leave 'Nobody': not seated at an open table of round 1" in refused(
            cup, "round", "seat", "-l", "cup", "--table", table, "--leave", "Nobody"
        )
    else:
        assert "player name 'None': the table reads 'None' as no friend" in refused(
            cup, "round", "seat", "-l", "cup", "--table", table, "--join", "None"
        )


def test_an_empty_live_hand_does_not_hold_the_seating(cup):
    """A referee's live hand with nothing in it is no hand in progress: the seating changes
    and the empty hand goes with the old seating."""
    from sqlmodel import Session

    from mighty_cli.store.db import make_engine
    from mighty_cli.store.ledger.table_entry import keep_live_hand, take_live_hand

    six, five = tables_by_size(start(cup))
    engine = make_engine(cup)
    with Session(engine) as s:
        claim, _held = take_live_hand(s, "cup", five["session"], "test")
        keep_live_hand(s, "cup", five["session"], "hands = []\n", claim)
        s.commit()
    engine.dispose()
    ok(cup, "round", "seat", "-l", "cup", "--table", str(five["table"]), "--join", "Zelda")
    assert shown(cup)[five["table"]]["hand_in_progress"] is False


def test_a_duplicate_table_keeps_its_seats_and_plays_the_next_deal(cup):
    """At a duplicate round's table the seats stay where they were (the deals go by seat):
    the joiner takes the leaver's seat, and the table's next hand is the round's deal 2, dealt
    from its second seat as at every table."""
    plan = start(cup, ELEVEN[:10], 3, "--duplicate")
    table = plan["tables"][0]
    record(cup, table["table"], friend=False)
    leaver = table["players"][2]
    changed = json.loads(
        ok(
            cup,
            "round",
            "seat",
            "-l",
            "cup",
            "--table",
            str(table["table"]),
            "--leave",
            leaver,
            "--join",
            "Zelda",
            "--json",
        )
    )
    seats = {t["table"]: t for t in changed["tables"]}[table["table"]]["players"]
    assert seats == [("Zelda" if name == leaver else name) for name in table["players"]]
    nxt = json.loads(
        ok(cup, "session", "show", "-l", "cup", "--table", str(table["table"]), "--json")
    )["next"]
    assert nxt["dealer"] == seats[1]


def test_the_tournament_table_counts_a_changed_table_once(cup):
    """Each player who sat at a table whose seating changed has one place there; the table's
    place points go over everyone who sat at it."""
    six, five = tables_by_size(start(cup))
    record(cup, five["table"])
    leaver = five["players"][2]
    ok(
        cup,
        "round",
        "seat",
        "-l",
        "cup",
        "--table",
        str(five["table"]),
        "--leave",
        leaver,
        "--join",
        "Zelda",
    )
    record(cup, five["table"])
    rows = json.loads(ok(cup, "standings", "-l", "cup", "--json"))["tournament"]["players"]
    names = [row["name"] for row in rows]
    assert len(names) == len(set(names)) == 12
    stayed = next(row for row in rows if row["name"] == five["players"][0])
    assert stayed["rounds"] == 1 and stayed["hands"] == 2


def test_a_table_of_a_fixed_number_of_hands_counts_them_across_the_change(db, tmp_path):
    """session.hands_per_session = 3: two hands, a seat change, and the table's third hand
    ends it, the seating's first hand though it is."""
    rules = tmp_path / "three.toml"
    rules.write_text(
        'extends = "standard"\n[meta]\nname = "three"\n[session]\nhands_per_session = 3\n',
        encoding="utf-8",
    )
    ok(db, "league", "create", "cup", "--ruleset", str(rules))
    plan = start(db, ELEVEN[:10])
    table = plan["tables"][0]["table"]
    record(db, table)
    record(db, table)
    ok(
        db,
        "round",
        "seat",
        "-l",
        "cup",
        "--table",
        str(table),
        "--leave",
        plan["tables"][0]["players"][3],
        "--join",
        "Zelda",
    )
    said = record(db, table)
    assert "Table 1, hand 3 (" in said and "ended by the ruleset" in said
    assert shown(db)[table]["playing"] is False


def test_the_player_a_substitute_sits_in_for_takes_his_place(cup):
    """Kimberly arrives mid-round: seated beside Zelda, who sits in for her, she is refused;
    in Zelda's place she plays on, and with --credit the table counts Zelda's hands and hers
    as Kimberly's, one place."""
    ok(cup, "player", "add", "Kimberly")
    plan = start(cup, ELEVEN[:9] + ["Zelda"], 1, "--substitute", "Zelda/Kimberly", "--credit")
    table = next(t for t in plan["tables"] if "Zelda" in t["players"])
    record(cup, table["table"])
    said = refused(
        cup, "round", "seat", "-l", "cup", "--table", str(table["table"]), "--join", "Kimberly"
    )
    assert (
        "--join Kimberly: Zelda sits in for Kimberly this round; Kimberly takes the seat "
        "with --leave Zelda --join Kimberly" in said
    )
    ok(
        cup,
        "round",
        "seat",
        "-l",
        "cup",
        "--table",
        str(table["table"]),
        "--leave",
        "Zelda",
        "--join",
        "Kimberly",
    )
    record(cup, table["table"])
    rows = json.loads(ok(cup, "standings", "-l", "cup", "--json"))["tournament"]["players"]
    names = [row["name"] for row in rows]
    assert "Zelda" not in names and names.count("Kimberly") == 1
    assert next(row for row in rows if row["name"] == "Kimberly")["hands"] == 2
