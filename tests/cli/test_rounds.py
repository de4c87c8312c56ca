"""Rounds through the command line (issue 23): a club night of 11 at two tables and a
20-player tournament over rounds, on SQLite and (when configured) PostgreSQL: the fixed JSON
interface, every plan checked against the pairs that really met and an exhaustive search, the
refusals (one line, exit 1, nothing changed), entry by table, and four keepers at once."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest
from click.testing import CliRunner

from mighty_cli.cli import cli

ROOT = Path(__file__).resolve().parents[2]
ELEVEN = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gil", "Hu", "Ida", "Jo", "Ki"]
TWENTY = [f"P{i:02d}" for i in range(1, 21)]


def mighty(db, *args):
    return CliRunner().invoke(cli, [*args, "--db", db])


def ok(db, *args) -> str:
    result = mighty(db, *args)
    assert result.exit_code == 0, result.output
    return result.output


def refused(db, *args, code=1) -> str:
    before = state(db)
    result = mighty(db, *args)
    assert result.exit_code == code, result.output
    if code == 1:  # a refusal is one line; a usage error is click's (usage, then the error)
        assert len(result.output.strip().splitlines()) == 1, result.output
    assert "Traceback" not in result.output
    assert state(db) == before  # nothing changed
    return result.output


def state(db) -> str:
    return (
        ok(db, "export", "-l", "cup", "--format", "json")
        + ok(db, "hand", "log", "-l", "cup", "--json")
        + (mighty(db, "round", "show", "-l", "cup", "--json").output)
    )


def pairs_met(tables) -> set:
    return {frozenset(p) for table in tables for p in combinations(table, 2)}


def repeats(tables, earlier_rounds) -> int:
    met = set().union(*(pairs_met(r) for r in earlier_rounds)) if earlier_rounds else set()
    return len(pairs_met(tables) & met)


def order_key(tables, earlier_rounds, seated=5) -> tuple:
    """The plan's documented order over the earlier rounds and this one (everyone present
    every round): pairs together in every round (two or more), meetings beyond a pair's
    second, repeated meetings, their squares, the sum of the squares of each player's rounds
    at a table larger than the ruleset's five (hands sat out in turn)."""
    rounds = [*earlier_rounds, tables]
    met, sat = {}, {}
    for seating in rounds:
        for pair in pairs_met(seating):
            met[pair] = met.get(pair, 0) + 1
        for table in seating:
            if len(table) > seated:
                for name in table:
                    sat[name] = sat.get(name, 0) + 1
    every = sum(1 for m in met.values() if len(rounds) >= 2 and m == len(rounds))
    return (
        every,
        sum(max(0, m - 2) for m in met.values()),
        sum(m - 1 for m in met.values()),
        sum((m - 1) ** 2 for m in met.values()),
        sum(s * s for s in sat.values()),
    )


def every_split(players, sizes):
    """Every split of ``players`` into two tables of ``sizes`` (462 for 11 at 6 + 5)."""
    first = players[0]  # the first player's table; the other is the rest
    for size in set(sizes):
        for rest in combinations(players[1:], size - 1):
            table = (first, *rest)
            yield [table, tuple(p for p in players if p not in table)]


def start(db, players, seed=0, *extra) -> dict:
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


def play_and_end(db, plan, league="cup") -> None:
    """A round that was played: a hand at each table (the first dealer sits out at six), then
    its end. A round ended before its first hand met nobody: a plan does not count it."""
    for table in plan["tables"]:
        ok(
            db,
            "record",
            "-l",
            league,
            "--table",
            str(table["table"]),
            "-d",
            table["players"][1],
            "-c",
            "14H",
            "-f",
            "none",
            "-t",
            "16",
        )
    ok(db, "round", "end", "-l", league)


@pytest.fixture
def cup(db):
    ok(db, "league", "create", "cup", "--ruleset", "standard")
    return db


def test_round_start_json_is_the_fixed_interface(cup):
    plan = start(cup, ELEVEN, 3)
    assert set(plan) >= {"round", "tables", "repeated_pairs", "lower_bound"}
    assert plan["round"] == 1 and plan["repeated_pairs"] == 0 and plan["lower_bound"] == 0
    assert [set(t) for t in plan["tables"]] == [{"table", "session", "players"}] * 2
    assert sorted(len(t["players"]) for t in plan["tables"]) == [5, 6]  # 11 at 5 + 6
    assert sorted(p for t in plan["tables"] for p in t["players"]) == sorted(ELEVEN)
    shown = json.loads(ok(cup, "round", "show", "-l", "cup", "--json"))
    for table, session in zip(plan["tables"], shown["tables"]):
        assert session["players"] == table["players"]  # seat order, the first dealer first
        listed = json.loads(
            ok(cup, "session", "show", "-l", "cup", "--session", str(table["session"]), "--json")
        )
        assert listed["players"] == table["players"]
        assert listed["next"]["dealer"] == table["players"][0]


def test_a_club_night_of_eleven_over_three_rounds_reaches_the_fewest_repeats(cup):
    """Each round's plan: its repeated pairs are the pairs that really met before, it says the
    proven lower bound, and no split of the eleven into 6 + 5 is better by the plan's order
    (all 462 tried): pairs together in every round, then meetings beyond the second, then
    repeats and their squares, then the sit-outs at the six, so round 3 may seat more pairs
    again to keep any from meeting a third time."""
    earlier = []
    for number in (1, 2, 3):
        plan = start(cup, ELEVEN, number)
        tables = [tuple(t["players"]) for t in plan["tables"]]
        assert plan["repeated_pairs"] == repeats(tables, earlier)
        splits = list(every_split(ELEVEN, [6, 5]))
        assert len(splits) == 462
        fewest = min(repeats(split, earlier) for split in splits)
        assert plan["lower_bound"] <= fewest <= plan["repeated_pairs"]
        assert order_key(tables, earlier) == min(order_key(split, earlier) for split in splits)
        if number == 2:  # one earlier round: the fewest repeats is the bound, and reached
            assert plan["lower_bound"] == fewest == plan["repeated_pairs"] == 10
        earlier.append(tables)
        play_and_end(cup, plan)
    assert (
        earlier[1]
        and json.loads(ok(cup, "round", "show", "-l", "cup", "--round", "2", "--json"))["ended"]
        is True
    )


def test_a_twenty_player_tournament_meets_the_bound_and_keeps_pairs_apart(cup):
    earlier = []
    for number in (1, 2, 3, 4):
        plan = start(cup, TWENTY, number, "--apart", "P01/P02")
        tables = [tuple(t["players"]) for t in plan["tables"]]
        assert [len(t) for t in tables] == [5, 5, 5, 5]
        assert plan["repeated_pairs"] == repeats(tables, earlier) >= plan["lower_bound"]
        assert plan["broken_apart"] == []
        assert not any({"P01", "P02"} <= set(t) for t in tables)
        if number == 2:  # 4 tables < 5 seats: at least 4 pairs meet again, and 4 is reached
            assert plan["lower_bound"] == 4 == plan["repeated_pairs"]
        earlier.append(tables)
        play_and_end(cup, plan)


def test_a_player_seated_at_an_open_table_is_refused_by_round_and_session_start(cup):
    plan = start(cup, ELEVEN)
    seated = plan["tables"][0]["players"][0]
    message = refused(
        cup, "session", "start", "-l", "cup", "-p", f"{seated},Mallory,Trent,Victor,Walter"
    )
    assert (
        f"'{seated}' is already seated at table 1 of round 1 (session "
        f"{plan['tables'][0]['session']}), which is still open; one person sits at one open "
        "table" in message
    )
    ok(cup, "round", "end", "-l", "cup")
    ok(cup, "session", "start", "-l", "cup", "-p", "Ana,Mallory,Trent,Victor,Walter")
    message = refused(cup, "round", "start", "-l", "cup", "-p", ",".join(ELEVEN))
    assert "'Ana' is already seated at session 3" in message


def test_session_start_refuses_a_player_already_in_an_open_session(cup):
    ok(cup, "session", "start", "-l", "cup", "-p", "Ana,Bo,Cy,Di,Ed")
    refused(cup, "session", "start", "-l", "cup", "-p", "Ana,Bo,Cy,Di,Ed")
    ok(cup, "session", "start", "-l", "cup", "-p", "Fay,Gil,Hugo,Ida,Mallory")  # others sit


def test_a_second_round_waits_for_the_first_to_end(cup):
    start(cup, ELEVEN)
    assert "round 1 of league 'cup' is still open" in refused(
        cup, "round", "start", "-l", "cup", "-p", "Xu,Yo,Zed,Wu,Vi"
    )


def test_round_start_refuses_what_cannot_be_seated(cup):
    assert "cannot be seated" in refused(cup, "round", "start", "-l", "cup", "-p", "A,B,C,D")
    assert "listed twice" in refused(cup, "round", "start", "-l", "cup", "-p", "A,B,C,D,E,A")
    assert "not one of the players" in refused(
        cup, "round", "start", "-l", "cup", "-p", "A,B,C,D,E", "--apart", "A/Q"
    )
    refused(cup, "round", "start", "-l", "cup", "-p", "A,B,C,D,E", "--apart", "A", code=2)


def test_record_by_table_stores_the_hand_at_that_table(cup):
    plan = start(cup, ELEVEN)
    for number, table in enumerate(plan["tables"], start=1):
        declarer, friend = table["players"][1], table["players"][2]
        said = ok(
            cup,
            "record",
            "-l",
            "cup",
            "--table",
            str(table["table"]),
            "-d",
            declarer,
            "-c",
            "15D",
            "-f",
            friend,
            "-t",
            "16",
        )
        assert said.startswith(
            f"Table {table['table']}, hand 1 (league hand {number}, "
            f"session {table['session']}): {declarer}"
        )
    shown = json.loads(ok(cup, "round", "show", "-l", "cup", "--json"))
    assert [t["hands"] for t in shown["tables"]] == [1, 1]
    hands = json.loads(ok(cup, "hand", "list", "-l", "cup", "--json"))["hands"]
    by_session = {h["session"]: h["declarer"] for h in hands}
    assert by_session == {t["session"]: t["players"][1] for t in plan["tables"]}


def test_record_by_table_refusals(cup):
    assert "no open round" in refused(
        cup,
        "record",
        "-l",
        "cup",
        "--table",
        "1",
        "-d",
        "Ana",
        "-c",
        "15D",
        "-f",
        "none",
        "-t",
        "16",
    )
    start(cup, ELEVEN)
    assert "round 1 has tables 1 to 2" in refused(
        cup,
        "record",
        "-l",
        "cup",
        "--table",
        "3",
        "-d",
        "Ana",
        "-c",
        "15D",
        "-f",
        "none",
        "-t",
        "16",
    )
    refused(
        cup,
        "record",
        "-l",
        "cup",
        "--table",
        "1",
        "--session",
        "1",
        "-d",
        "Ana",
        "-c",
        "15D",
        "-f",
        "none",
        "-t",
        "16",
        code=2,
    )


def test_round_end_refuses_a_table_with_a_hand_in_progress_unless_forced(cup):
    start(cup, ELEVEN)
    left = CliRunner().invoke(
        cli, ["referee", "--league", "cup", "--table", "2", "--db", cup], input="pass\nq\n"
    )  # one call in, the referee left mid-hand
    assert left.exit_code == 0, left.output
    assert "table 2 has a hand in progress" in refused(cup, "round", "end", "-l", "cup")
    shown = json.loads(ok(cup, "round", "show", "-l", "cup", "--json"))
    assert [t["hand_in_progress"] for t in shown["tables"]] == [False, True]
    ok(cup, "round", "end", "-l", "cup", "--force")
    shown = json.loads(ok(cup, "round", "show", "-l", "cup", "--json"))
    assert shown["ended"] is True and not any(t["playing"] for t in shown["tables"])
    assert not any(t["hand_in_progress"] for t in shown["tables"])


def test_four_keepers_write_at_once_and_nothing_is_lost_or_doubled(cup):
    """Four score-keepers, one per table, each recording three hands in its own process at the
    same time: every hand is stored once, at its table, under a distinct league number."""
    plan = start(cup, TWENTY, 7)
    keepers = []
    for table in plan["tables"]:
        players = table["players"]
        script = "; ".join(
            f"r = runner.invoke(cli, ['record', '-l', 'cup', '--table', '{table['table']}', "
            f"'-d', '{players[k]}', '-c', '14S', '-f', '{players[k + 1]}', '-t', '15', "
            f"'--db', {cup!r}]); assert r.exit_code == 0, r.output"
            for k in range(3)
        )
        code = (
            "from click.testing import CliRunner\nfrom mighty_cli.cli import cli\n"
            f"runner = CliRunner()\n{script}\n"
        )
        keepers.append(
            subprocess.Popen(
                [sys.executable, "-c", code],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
        )
    for keeper in keepers:
        output = keeper.communicate(timeout=300)[0]
        assert keeper.returncode == 0, output.decode()
    hands = json.loads(ok(cup, "hand", "list", "-l", "cup", "--json"))["hands"]
    assert sorted(h["number"] for h in hands) == list(range(1, 13))
    sessions = {t["session"]: t for t in plan["tables"]}
    for session, table in sessions.items():
        declarers = [h["declarer"] for h in hands if h["session"] == session]
        assert declarers == table["players"][:3]


def test_the_referee_takes_a_table_of_the_open_round(cup):
    plan = start(cup, ELEVEN)
    table = plan["tables"][1]
    result = CliRunner().invoke(
        cli, ["referee", "--league", "cup", "--table", "2", "--seed", "4", "--db", cup], input="q\n"
    )
    assert result.exit_code == 0, result.output
    assert f"session {table['session']}; present {', '.join(table['players'])}" in result.output
    result = CliRunner().invoke(cli, ["referee", "--table", "2", "--db", cup])
    assert result.exit_code == 2 and "--table is a table of a league's open round" in result.output


def test_standings_by_round_are_the_sum_of_that_rounds_hands(cup):
    """Two rounds of hands at every table; each round's table (standings --round R --json,
    today's keys) equals the hand-by-hand sum of the deltas at its tables, and the league's
    table the sum of both."""
    sessions_of = {}
    for number in (1, 2):
        plan = start(cup, ELEVEN, number)
        sessions_of[number] = {t["session"] for t in plan["tables"]}
        for table in plan["tables"]:
            for k in range(2):  # at six, one sits out: the players of the hand proposed
                players = json.loads(
                    ok(
                        cup,
                        "session",
                        "show",
                        "-l",
                        "cup",
                        "--session",
                        str(table["session"]),
                        "--json",
                    )
                )["next"]["players"]
                ok(
                    cup,
                    "record",
                    "-l",
                    "cup",
                    "--table",
                    str(table["table"]),
                    "-d",
                    players[k],
                    "-c",
                    "14H",
                    "-f",
                    players[k + 2],
                    "-t",
                    str(13 + 3 * k),
                )
        ok(cup, "round", "end", "-l", "cup")
    hands = json.loads(ok(cup, "hand", "list", "-l", "cup", "--json"))["hands"]
    league = json.loads(ok(cup, "standings", "-l", "cup", "--json"))
    for number in (1, 2):
        table = json.loads(ok(cup, "standings", "-l", "cup", "--round", str(number), "--json"))
        assert set(league) <= set(table) and table["round"] == number
        summed = {}
        for hand in hands:
            if hand["session"] in sessions_of[number]:
                for name, delta in hand["deltas"].items():
                    summed[name] = summed.get(name, 0) + delta
        assert {p["name"]: p["score"] for p in table["players"]} == summed
        assert sorted(p["name"] for p in table["players"]) == sorted(ELEVEN)
    total = {p["name"]: p["score"] for p in league["players"]}
    assert total == {name: sum(h["deltas"].get(name, 0) for h in hands) for name in ELEVEN}
    assert "has no round 3" in refused(cup, "standings", "-l", "cup", "--round", "3")


def test_standings_show_the_tournament_score_next_to_the_raw_one(db, tmp_path):
    """A league whose ruleset scores by place (tournament.score = "place"): standings --json
    keeps today's keys and adds the tournament table, each table's best taking 60; the text
    prints it under the league table. The same hands under the default score raw points."""
    rules = tmp_path / "cup-place.toml"
    rules.write_text(
        'extends = "standard"\n[meta]\nname = "cup-place"\n[tournament]\nscore = "place"\n',
        encoding="utf-8",
    )
    for league, ruleset in (("cup", "standard"), ("placed", str(rules))):
        ok(db, "league", "create", league, "--ruleset", ruleset)
        plan = json.loads(
            ok(db, "round", "start", "-l", league, "-p", ",".join(ELEVEN[:10]), "--json")
        )
        for table in plan["tables"]:
            players = table["players"]
            ok(
                db,
                "record",
                "-l",
                league,
                "--table",
                str(table["table"]),
                "-d",
                players[0],
                "-c",
                "14H",
                "-f",
                players[1],
                "-t",
                "16",
            )
        data = json.loads(ok(db, "standings", "-l", league, "--json"))
        assert {"league", "min_hands", "rank_by", "players"} <= set(data)
        scores = {p["name"]: p["score"] for p in data["tournament"]["players"]}
        winners = {t["players"][0] for t in plan["tables"]}
        if league == "cup":
            assert data["tournament"]["score"] == "raw"
            assert scores == {p["name"]: p["score"] for p in data["players"]}
        else:
            assert data["tournament"]["score"] == "place"
            assert {name for name, score in scores.items() if score == 60} == winners
            text = ok(db, "standings", "-l", league)
            assert "Tournament (place points" in text
        ok(db, "round", "end", "-l", league)  # one person, one open table: in any league


def test_the_first_deal_goes_round_the_players_over_rounds(cup):
    """Each table's first dealer is one who has dealt first least often in earlier rounds
    (the seats turned round, neighbours kept): over four rounds of eleven at two tables, each
    played, eight first deals, nobody deals first twice; the session proposes that dealer."""
    counts = dict.fromkeys(ELEVEN, 0)
    for number in range(1, 5):
        plan = start(cup, ELEVEN, number)
        for table in plan["tables"]:
            counts[table["players"][0]] += 1
            shown = json.loads(
                ok(
                    cup,
                    "session",
                    "show",
                    "-l",
                    "cup",
                    "--session",
                    str(table["session"]),
                    "--json",
                )
            )
            assert shown["next"]["dealer"] == table["players"][0]
        play_and_end(cup, plan)
    assert sum(counts.values()) == 8 and max(counts.values()) == 1


def test_a_table_shows_its_own_hand_numbers_whatever_other_tables_store(cup):
    """Before each hand a round's table shows the table's own count, which hands stored at
    other tables meanwhile do not move: the number shown is the one the hand is kept under
    (the table's hand k), and the league's number is said once it is stored."""
    plan = start(cup, TWENTY)
    one, two = plan["tables"][0], plan["tables"][1]

    def evening(table, declarer, friend):
        result = CliRunner().invoke(
            cli,
            ["record", "-l", "cup", "--table", str(table["table"]), "--evening", "--db", cup],
            input=f"{declarer}\n14H\n{friend}\n16\nq\n",
        )
        assert result.exit_code == 0, result.output
        return result.output

    first = evening(one, one["players"][1], one["players"][2])
    assert f"Table 1, hand 1: dealer {one['players'][0]}" in first
    assert "Table 1, hand 1 (league hand 1," in first
    ok(
        cup,
        "record",
        "-l",
        "cup",
        "--table",
        "2",
        "-d",
        two["players"][1],
        "-c",
        "15D",
        "-f",
        "none",
        "-t",
        "16",
    )  # table 2 stores league hand 2 meanwhile
    again = evening(one, one["players"][2], one["players"][3])
    assert "Table 1, hand 2:" in again and "Table 1, hand 2 (league hand 3," in again
    hands = json.loads(
        ok(cup, "hand", "list", "-l", "cup", "--session", str(one["session"]), "--json")
    )["hands"]
    assert [h["number"] for h in hands] == [1, 3]  # the league's numbers: table 1's 1 and 2
    result = CliRunner().invoke(
        cli, ["referee", "--league", "cup", "--table", "2", "--db", cup], input="q\n"
    )
    assert "— table 2, hand 2: dealer" in result.output


def test_a_round_is_seated_again_before_its_first_hand_and_not_after(cup):
    """round reseat: another seed, or a late arrival, before the first hand; the round keeps
    its number, its tables are the new plan's; refused once a table has a hand."""
    first = start(cup, ELEVEN, 1)
    again = json.loads(ok(cup, "round", "reseat", "-l", "cup", "--seed", "9", "--json"))
    assert again["round"] == first["round"] == 1
    assert sorted(p for t in again["tables"] for p in t["players"]) == sorted(ELEVEN)
    shown = json.loads(ok(cup, "round", "show", "-l", "cup", "--json"))
    assert [t["players"] for t in shown["tables"]] == [t["players"] for t in again["tables"]]
    late = json.loads(
        ok(cup, "round", "reseat", "-l", "cup", "-p", ",".join(ELEVEN + ["Mallory"]), "--json")
    )
    assert sorted(len(t["players"]) for t in late["tables"]) == [6, 6]
    table = late["tables"][0]
    ok(
        cup,
        "record",
        "-l",
        "cup",
        "--table",
        "1",
        "-d",
        table["players"][1],
        "-c",
        "15D",
        "-f",
        "none",
        "-t",
        "16",
    )
    assert "round 1 has begun (table 1 has a hand)" in refused(
        cup, "round", "reseat", "-l", "cup", "--seed", "3"
    )
    log = ok(cup, "hand", "log", "-l", "cup")
    assert "round reseat" in log


def total_meetings(rounds) -> int:
    """Repeated meetings over rounds: a pair meeting m times in all counts m - 1."""
    met = {}
    for tables in rounds:
        for pair in pairs_met(tables):
            met[pair] = met.get(pair, 0) + 1
    return sum(m - 1 for m in met.values())


def test_known_rounds_planned_together_seat_no_pair_in_every_round(cup):
    """20 players at 4 tables over 3 rounds: planned together (round start --rounds 3, then
    the next rounds taken as planned, --rounds 3 given again) no pair together in all three
    rounds, none three times: 12 repeated meetings (8 would seat four pairs in every round);
    each round says its place in the plan and what the plan could not avoid."""
    plan = start(cup, TWENTY, 1, "--rounds", "3")
    assert plan["planned_ahead"] == 2 and plan["plan"] == {"round": 1, "rounds": 3}
    assert (plan["pairs_every_round"], plan["pairs_thrice"], plan["most_meetings"]) == ([], [], 2)
    assert plan["repeated_meetings"] == 12 and "planned_again" not in plan
    rounds = [[tuple(t["players"]) for t in plan["tables"]]]
    for number in (2, 3):
        play_and_end(cup, plan)
        plan = start(cup, TWENTY, 99, "--rounds", "3")  # the same R: the plan is kept
        assert plan["round"] == number and plan["planned_ahead"] == 3 - number
        assert plan["plan"] == {"round": number, "rounds": 3} and "planned_again" not in plan
        tables = [tuple(t["players"]) for t in plan["tables"]]
        assert plan["repeated_pairs"] == repeats(tables, rounds) >= plan["lower_bound"]
        rounds.append(tables)
    assert total_meetings(rounds) == 12
    assert order_key(rounds[2], rounds[:2])[0] == 0  # no pair in all three


def test_rounds_given_again_keep_the_plan_and_another_r_plans_again(cup):
    """--rounds 3 at round 1; at round 2 the text says "Round 2 of 3 planned" (the same R:
    taken as planned); --rounds 4 at round 3 plans rounds 3 and 4 again and says why."""
    first = start(cup, TWENTY, 1, "--rounds", "3")
    ok(cup, "round", "end", "-l", "cup")
    text = ok(cup, "round", "start", "-l", "cup", "-p", ",".join(TWENTY), "--rounds", "3")
    assert "Round 2 of 3 planned." in text and "Planned again" not in text
    assert "No pair sits together in every round, and none meets a third time." in text
    ok(cup, "round", "end", "-l", "cup")
    again = start(cup, TWENTY, 5, "--rounds", "4")
    assert again["planned_again"] == {"rounds": [3, 4], "missing": [], "new": [], "apart": []}
    assert again["plan"] == {"round": 3, "rounds": 4} and again["planned_ahead"] == 1
    assert first["round"] == 1
    ok(cup, "round", "end", "-l", "cup")
    text = ok(cup, "round", "start", "-l", "cup", "-p", ",".join(TWENTY[1:] + ["Newcomer"]))
    assert "Round 4 of 4 planned." in text
    assert "Planned again for the players present: P01 planned but not here." in text
    assert "Planned again for the players present: Newcomer here but not planned." in text


@pytest.mark.parametrize("option", ["--seat-by", "--by"])
def test_round_start_by_standings_seats_the_top_players_together(cup, option, monkeypatch):
    """A cup's last round seated by the tournament table (--seat-by standings, or --by
    standings: on round start the word names the order, not the change's author): table 1
    seats the top five, table 2 the next five, and so on; the plan ahead, if any, is
    dropped."""
    monkeypatch.setenv("MIGHTY_USER", "director")
    ten = TWENTY[:10]
    plan = start(cup, ten, 1, "--rounds", "2")
    for table in plan["tables"]:  # the first seat wins 16 with the second as friend
        players = table["players"]
        ok(
            cup,
            "record",
            "-l",
            "cup",
            "--table",
            str(table["table"]),
            "-d",
            players[1],
            "-c",
            "14H",
            "-f",
            players[2],
            "-t",
            "16",
        )
    ok(cup, "round", "end", "-l", "cup")
    order = json.loads(ok(cup, "standings", "-l", "cup", "--json"))["tournament"]["players"]
    ranked = [row["name"] for row in order]
    assert ranked[:2] != ranked[2:4]  # not all equal: two declarers and two friends lead
    result = start(cup, ten, 2, option, "standings")
    assert result["dropped_ahead"] == 1 and result["planned_ahead"] == 0
    log = json.loads(ok(cup, "hand", "log", "-l", "cup", "--json"))["changes"]
    assert [c["who"] for c in log if c["action"] == "round start"] == ["director"] * 2
    top = set(result["tables"][0]["players"])
    scores = {row["name"]: row["score"] for row in order}
    cut = sorted(scores.values(), reverse=True)[4]
    assert {n for n in ten if scores[n] > cut} <= top
    assert all(scores[n] >= cut for n in top)
    message = refused(
        cup,
        "round",
        "start",
        "-l",
        "cup",
        "-p",
        ",".join(ten),
        "--seat-by",
        "standings",
        "--rounds",
        "2",
        code=2,
    )
    assert "not with --rounds" in message
    message = refused(
        cup,
        "round",
        "start",
        "-l",
        "cup",
        "-p",
        ",".join(ten),
        "--by",
        "rating",
        "--seat-by",
        "standings",
        code=2,
    )
    assert "--by rating and --seat-by standings: seat by one of them" in message


def test_round_start_swiss_keeps_repeats_first(cup):
    """--swiss: players near each other in the standings together, as far as the fewest
    repeats allow (20 players, round 2: the four forced repeats and no more)."""
    plan = start(cup, TWENTY, 1)
    for table in plan["tables"]:
        players = table["players"]
        ok(
            cup,
            "record",
            "-l",
            "cup",
            "--table",
            str(table["table"]),
            "-d",
            players[1],
            "-c",
            "14H",
            "-f",
            players[2],
            "-t",
            "16",
        )
    ok(cup, "round", "end", "-l", "cup")
    swiss = start(cup, TWENTY, 2, "--swiss")
    assert swiss["repeated_pairs"] == swiss["lower_bound"] == 4


def test_a_drop_replans_the_rounds_still_ahead(cup):
    """A player drops after round 1 of three planned together: round 2 is planned again for
    the nineteen present (with round 3 kept ahead for them), never seating the one who left."""
    start(cup, TWENTY, 1, "--rounds", "3")
    ok(cup, "round", "end", "-l", "cup")
    plan = start(cup, TWENTY[1:], 2)
    assert plan["planned_ahead"] == 1
    assert sorted(p for t in plan["tables"] for p in t["players"]) == sorted(TWENTY[1:])
    ok(cup, "round", "end", "-l", "cup")
    plan = start(cup, TWENTY[1:], 3)
    assert plan["planned_ahead"] == 0 and "P01" not in str(plan["tables"])


def test_twenty_five_players_meet_nobody_twice_over_six_rounds(cup):
    """25 players at tables of 5: the affine plane of order 5 seats six rounds with no pair
    meeting twice."""
    players = [f"Q{i:02d}" for i in range(1, 26)]
    plan = start(cup, players, 1, "--rounds", "6")
    rounds = [[tuple(t["players"]) for t in plan["tables"]]]
    for _number in range(2, 7):
        ok(cup, "round", "end", "-l", "cup")
        plan = start(cup, players, 0)
        assert plan["repeated_pairs"] == 0 == plan["lower_bound"]
        rounds.append([tuple(t["players"]) for t in plan["tables"]])
    assert total_meetings(rounds) == 0


def test_rounds_planned_together_keep_a_pair_apart_in_every_round(cup):
    """--apart with --rounds: the pair never shares a table in any of the rounds planned
    together, and the repeats stay near the joint plan's (8 for 20 players over 3 rounds)."""
    plan = start(cup, TWENTY, 1, "--rounds", "3", "--apart", "P01/P02", "--apart", "P03/P04")
    rounds = [[tuple(t["players"]) for t in plan["tables"]]]
    assert plan["broken_apart"] == []
    for _number in (2, 3):
        ok(cup, "round", "end", "-l", "cup")
        plan = start(cup, TWENTY, 0)
        assert plan["broken_apart"] == []
        rounds.append([tuple(t["players"]) for t in plan["tables"]])
    for tables in rounds:
        assert not any({"P01", "P02"} <= set(t) or {"P03", "P04"} <= set(t) for t in tables)
    assert total_meetings(rounds) <= 12  # never worse than seating round by round
