"""``mighty hand amend --eliminated``: a keeper who recorded the wrong eliminated player (6마,
7마) or the wrong eliminated hand (시흥 은마: a player or the dummy, 은실) tells it again. The
names are read as ``record --eliminated`` reads them, the hand is scored again (in 6마/7마 the
eliminated score nothing), the standings come out as if the hand had been recorded right, the
change log and ``hand log`` say old → new, exports carry the new eliminated, and a refused
amendment changes no table. Each on SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest

from mighty_cli.cli import cli

SIX = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay"]
SEVEN = SIX + ["Gus"]
FIVE = SIX[:5]


def ok(runner, db, *args) -> str:
    result = runner.invoke(cli, [*args, "--db", db])
    assert result.exit_code == 0, result.output
    return result.output


def refused(runner, db, *args, code: int = 1) -> str:
    """The one line a refused command prints (its last line), after checking its exit code."""
    result = runner.invoke(cli, [*args, "--db", db])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result.output.splitlines()[-1]


def league(runner, db, name: str, ruleset: str, players: list[str], hands: list[list[str]]) -> None:
    ok(runner, db, "league", "create", name, "-r", ruleset)
    ok(runner, db, "session", "start", "-l", name, "-p", ",".join(players))
    for args in hands:
        ok(runner, db, "record", "-l", name, *args)


def hands(runner, db, name: str) -> list:
    return json.loads(ok(runner, db, "hand", "list", "-l", name, "--json"))["hands"]


def standings(runner, db, name: str) -> dict:
    return json.loads(ok(runner, db, "standings", "-l", name, "--json"))


def six_hands(first_out: str) -> list[list[str]]:
    """A 6마 evening (daejeon-6): hand 1's eliminated is ``first_out``."""
    return [
        ["-d", "Ana", "-c", "14S", "-f", "Bo", "-t", "16", "-e", first_out],
        ["-d", "Bo", "-c", "15D", "-f", "Ed", "-t", "12", "-e", "Fay"],
        ["--deal-miss", "Cy"],
        ["-d", "Cy", "-c", "14H", "-f", "Ana", "-t", "15", "-e", "Ed"],
    ]


def seven_hands(first_out: str) -> list[list[str]]:
    """A 7마 evening (standard-7): hand 1's two eliminated are ``first_out``."""
    return [
        ["-d", "Ana", "-c", "14S", "-f", "Bo", "-t", "16", "-e", first_out],
        ["-d", "Gus", "-c", "15C", "-f", "none", "-t", "9", "-e", "Ana,Bo"],
    ]


def reference(runner, tmp_path, name, ruleset, players, recorded) -> str:
    """Another database where the league was recorded right in the first place."""
    other = f"sqlite:///{tmp_path / 'right.db'}"
    league(runner, other, name, ruleset, players, recorded)
    return other


def test_amend_eliminated_6ma_scores_the_hand_as_if_recorded_right(runner, db, tmp_path):
    league(runner, db, "six", "daejeon-6", SIX, six_hands("Cy"))
    assert hands(runner, db, "six")[0]["deltas"]["Cy"] == 0  # the eliminated score nothing
    out = ok(
        runner,
        db,
        "hand",
        "amend",
        "-l",
        "six",
        "1",
        "--eliminated",
        "di",
        "--reason",
        "Di was out, not Cy",
    )
    lines = out.splitlines()
    assert lines[0] == "Hand 1: Ana 14S with Bo, took 16: made; eliminated (탈락): Cy"
    assert lines[1] == "     now: Ana 14S with Bo, took 16: made; eliminated (탈락): Di"
    assert "Standings changed:" in lines
    changed = {line.split()[0] for line in lines[lines.index("Standings changed:") + 3 :]}
    assert changed == {"Cy", "Di"}
    right = reference(runner, tmp_path, "six", "daejeon-6", SIX, six_hands("Di"))
    assert hands(runner, db, "six") == hands(runner, right, "six")
    assert standings(runner, db, "six") == standings(runner, right, "six")
    assert hands(runner, db, "six")[0]["eliminated"] == ["Di"]
    assert hands(runner, db, "six")[0]["deltas"]["Di"] == 0
    shown = ok(runner, db, "hand", "show", "-l", "six", "1").splitlines()
    assert "  eliminated (탈락): Di" in shown


def test_amend_eliminated_7ma_names_both_again(runner, db, tmp_path):
    league(runner, db, "seven", "standard-7", SEVEN, seven_hands("Cy,Di"))
    ok(runner, db, "hand", "amend", "-l", "seven", "1", "-e", "Di, Gus", "--reason", "x")
    right = reference(runner, tmp_path, "seven", "standard-7", SEVEN, seven_hands("Di,Gus"))
    assert hands(runner, db, "seven") == hands(runner, right, "seven")
    assert standings(runner, db, "seven") == standings(runner, right, "seven")
    assert hands(runner, db, "seven")[0]["eliminated"] == ["Di", "Gus"]
    assert (
        refused(runner, db, "hand", "amend", "-l", "seven", "1", "-e", "Cy", "--reason", "x")
        == "Error: hand 1: eliminated: expected 2 distinct players (table.eliminated), got 1"
    )


def test_amend_eliminated_with_a_new_declarer_in_one_amendment(runner, db, tmp_path):
    # Di was recorded as eliminated; he was the declarer, and Ana was out.
    league(runner, db, "six", "daejeon-6", SIX, six_hands("Cy"))
    refusal = refused(runner, db, "hand", "amend", "-l", "six", "4", "-d", "Ed", "--reason", "x")
    assert refusal == "Error: hand 4: eliminated: Ed is the declarer; the eliminated play no trick"
    ok(runner, db, "hand", "amend", "-l", "six", "4", "-d", "Ed", "-e", "Bo", "--reason", "x")
    hand = hands(runner, db, "six")[3]
    assert (hand["declarer"], hand["eliminated"], hand["deltas"]["Bo"]) == ("Ed", ["Bo"], 0)
    assert hand["deltas"]["Ed"] > 0


def test_amend_eliminated_makes_a_deal_miss_a_played_6ma_hand(runner, db):
    league(runner, db, "six", "daejeon-6", SIX, six_hands("Cy"))
    ok(
        runner,
        db,
        "hand",
        "amend",
        "-l",
        "six",
        "3",
        "-d",
        "Di",
        "-c",
        "14C",
        "-f",
        "Fay",
        "-t",
        "14",
        "-e",
        "Ana",
        "--reason",
        "it was played",
    )
    hand = hands(runner, db, "six")[2]
    assert (hand["status"], hand["eliminated"], hand["deltas"]["Ana"]) == ("scored", ["Ana"], 0)


SIHEUNG = [
    ["-d", "Bo", "-c", "14S", "-f", "Ed", "-t", "16", "-e", "Ed"],
    ["-d", "Cy", "-c", "15S", "-f", "none", "-t", "12", "-e", "Di"],
]


def test_amend_eliminated_siheung_player_dummy_and_back(runner, db):
    league(runner, db, "sh", "siheung-6", FIVE, SIHEUNG)
    table = standings(runner, db, "sh")
    out = ok(runner, db, "hand", "amend", "-l", "sh", "1", "-e", "a", "--reason", "x")
    assert out.splitlines()[:2] == [
        "Hand 1: Bo 14S with Ed, took 16: made; eliminated (탈락): Ed",
        "     now: Bo 14S with Ed, took 16: made; eliminated (탈락): Ana",
    ]
    assert "Standings unchanged." in out  # an eliminated 시흥 player plays the dummy's hand
    assert [h["eliminated"] for h in hands(runner, db, "sh")] == [["Ana"], ["Di"]]
    out = ok(runner, db, "hand", "amend", "-l", "sh", "2", "-e", "은실", "--reason", "x")
    assert "     now: Cy 15S alone, took 12: failed ×2; eliminated (탈락): dummy (은실)" in out
    assert [h["eliminated"] for h in hands(runner, db, "sh")] == [["Ana"], ["dummy"]]
    ok(runner, db, "hand", "amend", "-l", "sh", "2", "-e", "더미", "--reason", "x")
    assert hands(runner, db, "sh")[1]["eliminated"] == ["dummy"]
    ok(runner, db, "hand", "amend", "-l", "sh", "2", "-e", "Di", "--reason", "x")
    assert [h["eliminated"] for h in hands(runner, db, "sh")] == [["Ana"], ["Di"]]
    assert standings(runner, db, "sh") == table
    assert (
        refused(runner, db, "hand", "amend", "-l", "sh", "2", "-e", "Cy", "--reason", "x")
        == "Error: Cy is the declarer and cannot be eliminated"
    )
    assert (
        refused(runner, db, "hand", "amend", "-l", "sh", "2", "-e", "Ana,Bo", "--reason", "x")
        == "Error: 'Ana,Bo' is not one of the players of this hand (Ana, Bo, Cy, Di, Ed)"
    )


def test_amend_eliminated_is_in_the_change_log(runner, db):
    league(runner, db, "six", "daejeon-6", SIX, six_hands("Cy"))
    ok(runner, db, "hand", "amend", "-l", "six", "1", "-e", "Di", "--reason", "Di was out")
    entry = json.loads(ok(runner, db, "hand", "log", "-l", "six", "--json"))["changes"][-1]
    assert (entry["action"], entry["why"]) == ("hand amend", "Di was out")
    assert (entry["before"]["eliminated"], entry["after"]["eliminated"]) == (["Cy"], ["Di"])
    log = ok(runner, db, "hand", "log", "-l", "six").splitlines()
    assert "hand amend 1: eliminated Cy → Di" in log[-1] and log[-1].endswith("Di was out")
    korean = runner.invoke(cli, ["--lang", "ko", "hand", "log", "-l", "six", "--db", db])
    assert "판 정정 1: 탈락 Cy → Di" in korean.output.splitlines()[-1]


def test_hand_log_names_what_each_amendment_changed(runner, db):
    league(runner, db, "sh", "siheung-6", FIVE, SIHEUNG)
    ok(runner, db, "hand", "amend", "-l", "sh", "2", "-e", "dummy", "--reason", "x")
    ok(runner, db, "hand", "amend", "-l", "sh", "2", "-t", "13", "--reason", "y")
    ok(runner, db, "hand", "amend", "-l", "sh", "2", "--note", "late", "--reason", "z")
    log = ok(runner, db, "hand", "log", "-l", "sh").splitlines()
    assert "hand amend 2: eliminated Di → dummy (은실)" in log[-3]
    assert "hand amend 2: taken 12 → 13" in log[-2]
    assert "hand amend 2: note - → late" in log[-1]
    korean = runner.invoke(cli, ["--lang", "ko", "hand", "log", "-l", "sh", "--db", db])
    assert "판 정정 2: 탈락 Di → 더미(은실)" in korean.output.splitlines()[-3]
    assert "판 정정 2: 득점 12 → 13" in korean.output.splitlines()[-2]


@pytest.mark.parametrize("suffix", ["toml", "json", "csv"])
def test_export_after_amend_carries_the_new_eliminated(runner, db, tmp_path, suffix):
    league(runner, db, "six", "daejeon-6", SIX, six_hands("Cy"))
    ok(runner, db, "hand", "amend", "-l", "six", "1", "-e", "Di", "--reason", "x")
    path = tmp_path / f"six.{suffix}"
    ok(runner, db, "export", "-l", "six", "-o", str(path))
    if suffix == "json":
        exported = json.loads(path.read_text(encoding="utf-8"))["hands"]
        assert exported[0]["eliminated"] == ["Di"]
    other = f"sqlite:///{tmp_path / 'other.db'}"
    if suffix == "csv":  # a CSV names no ruleset
        ok(runner, other, "league", "create", "six", "-r", "daejeon-6")
    ok(runner, other, "import", "-l", "six", str(path))
    assert hands(runner, other, "six")[0]["eliminated"] == ["Di"]
    assert standings(runner, other, "six") == standings(runner, db, "six")


def test_export_after_a_siheung_amend_carries_the_dummy(runner, db, tmp_path):
    league(runner, db, "sh", "siheung-6", FIVE, SIHEUNG)
    ok(runner, db, "hand", "amend", "-l", "sh", "1", "-e", "은실", "--reason", "x")
    path = tmp_path / "sh.toml"
    ok(runner, db, "export", "-l", "sh", "-o", str(path))
    other = f"sqlite:///{tmp_path / 'other.db'}"
    ok(runner, other, "import", "-l", "sh", str(path))
    assert [h["eliminated"] for h in hands(runner, other, "sh")] == [["dummy"], ["Di"]]
    backup = tmp_path / "all.jsonl"
    ok(runner, db, "backup", "-o", str(backup))
    restored = f"sqlite:///{tmp_path / 'restored.db'}"
    ok(runner, restored, "restore", str(backup))
    assert hands(runner, restored, "sh") == hands(runner, db, "sh")


def every_table(engine) -> dict:
    """Every row of every table of the store (the running totals and their mark included)."""
    from sqlalchemy import text
    from sqlmodel import SQLModel

    with engine.connect() as connection:
        return {
            t.name: sorted(map(repr, connection.execute(text(f"SELECT * FROM {t.name}"))))
            for t in SQLModel.metadata.sorted_tables
        }


def _tables(db: str) -> dict:
    from mighty_cli.store.db import make_engine

    engine = make_engine(db)
    try:
        return every_table(engine)
    finally:
        engine.dispose()


REFUSALS_6MA = [
    (
        ["1", "-e", "Ana"],
        "Error: hand 1: eliminated: Ana is the declarer; the eliminated play no trick",
    ),
    (
        ["1", "-e", "Bo"],
        "Error: hand 1: eliminated: Bo is the friend; the eliminated play no trick",
    ),
    (
        ["1", "-e", "Cy,Di"],
        "Error: hand 1: eliminated: expected 1 distinct players (table.eliminated), got 2",
    ),
    (
        ["1", "-e", "Zed"],
        "Error: 'Zed' is not one of the players of this hand (Ana, Bo, Cy, Di, Ed, Fay)",
    ),
    (
        ["1", "-e", "dummy"],
        "Error: 'dummy' is not one of the players of this hand (Ana, Bo, Cy, Di, Ed, Fay)",
    ),
    (
        ["3", "-e", "Di"],
        "Error: hand 3: eliminated: the hand is a deal miss (딜 미스), nobody was eliminated",
    ),
    (
        ["1", "--deal-miss", "Bo", "-e", "Di"],
        "Error: hand 1: eliminated: the hand is a deal miss (딜 미스), nobody was eliminated",
    ),
    (["9", "-e", "Di"], "Error: league 'six' has no hand 9"),
]


@pytest.mark.parametrize(
    "args, line",
    REFUSALS_6MA,
    ids=[
        "declarer",
        "friend",
        "count",
        "unknown",
        "dummy-in-6ma",
        "deal-miss-hand",
        "to-a-deal-miss",
        "no-hand",
    ],
)
def test_amend_eliminated_refusals_change_nothing(runner, db, args, line):
    league(runner, db, "six", "daejeon-6", SIX, six_hands("Cy"))
    before = _tables(db)
    assert refused(runner, db, "hand", "amend", "-l", "six", *args, "--reason", "x") == line
    assert _tables(db) == before


def test_amend_eliminated_refused_where_nobody_is_eliminated(runner, db):
    league(
        runner, db, "five", "standard", FIVE, [["-d", "Ana", "-c", "14S", "-f", "Bo", "-t", "15"]]
    )
    before = _tables(db)
    assert (
        refused(runner, db, "hand", "amend", "-l", "five", "1", "-e", "Cy", "--reason", "x")
        == "Error: hand 1: eliminated: nobody is eliminated under standard (table.eliminated = 0)"
    )
    korean = runner.invoke(
        cli,
        [
            "--lang",
            "ko",
            "hand",
            "amend",
            "-l",
            "five",
            "1",
            "-e",
            "Cy",
            "--reason",
            "x",
            "--db",
            db,
        ],
    )
    assert korean.exit_code == 1
    assert (
        korean.output.splitlines()[-1]
        == "오류: 1판: eliminated: standard에서는 아무도 탈락하지 않습니다 (table.eliminated = 0)"
    )
    assert _tables(db) == before


def test_amend_eliminated_refused_on_a_void_or_refereed_hand(runner, db, tmp_path):
    record = tmp_path / "sim.toml"
    result = runner.invoke(
        cli,
        [
            "simulate",
            "-r",
            "daejeon-6",
            "--hands",
            "3",
            "--seed",
            "5",
            "--players",
            ",".join(SIX),
            "-o",
            str(record),
        ],
    )
    assert result.exit_code == 0, result.output
    ok(runner, db, "import", "-l", "six", str(record))
    ok(runner, db, "hand", "void", "-l", "six", "2", "--reason", "x")
    before = _tables(db)
    assert refused(runner, db, "hand", "amend", "-l", "six", "1", "-e", "Ana", "--reason", "x") == (
        "Error: hand 1 was refereed card by card; void it and import or "
        "referee it again instead of amending its outcome"
    )
    assert (
        refused(runner, db, "hand", "amend", "-l", "six", "2", "-e", "Ana", "--reason", "x")
        == "Error: hand 2 is void; it cannot be amended"
    )
    assert _tables(db) == before


def test_amend_eliminated_in_korean(runner, db):
    league(runner, db, "six", "daejeon-6", SIX, six_hands("Cy"))
    result = runner.invoke(
        cli,
        [
            "--lang",
            "ko",
            "hand",
            "amend",
            "-l",
            "six",
            "1",
            "-e",
            "Di",
            "--reason",
            "x",
            "--db",
            db,
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].endswith("; 탈락: Cy")
    assert result.output.splitlines()[1].endswith("; 탈락: Di")
    result = runner.invoke(
        cli,
        [
            "--lang",
            "ko",
            "hand",
            "amend",
            "-l",
            "six",
            "3",
            "-e",
            "Di",
            "--reason",
            "x",
            "--db",
            db,
        ],
    )
    assert result.exit_code == 1
    assert (
        result.output.splitlines()[-1]
        == "오류: 3번째 판: eliminated: 딜 미스인 판이라 탈락한 플레이어가 없습니다"
    )
    help_text = runner.invoke(cli, ["--lang", "ko", "hand", "amend", "--help"]).output
    assert "시흥 은마: 플레이어 또는 더미(은실)." in " ".join(help_text.split())
