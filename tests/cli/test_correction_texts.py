"""What corrections and imports say (found trying the manual's examples): the change log names
the hand a void or unvoid touched, voiding a deal miss leaves the standings as they were, and an
import counts its hands and sessions in the right number."""

from __future__ import annotations

import json

from league_calls import ok


def league(db) -> None:
    ok(db, "league", "create", "cup", "--ruleset", "standard")
    ok(db, "session", "start", "-l", "cup", "-p", "Ana,Bo,Cy,Di,Ed")
    ok(db, "record", "-l", "cup", "-d", "Bo", "-c", "14S", "-f", "Cy", "-t", "16")
    ok(db, "record", "-l", "cup", "--deal-miss", "Cy")


def test_the_change_log_names_the_hand_voided_and_unvoided(db):
    league(db)
    ok(db, "hand", "void", "-l", "cup", "1", "--reason", "misdeal found later")
    ok(db, "hand", "unvoid", "-l", "cup", "1", "--reason", "it was fine")
    text = ok(db, "hand", "log", "-l", "cup")
    assert "hand void 1" in text and "hand unvoid 1" in text
    actions = [
        c["action"] for c in json.loads(ok(db, "hand", "log", "-l", "cup", "--json"))["changes"]
    ]
    assert "hand void" in actions  # the JSON keeps the action as it is stored


def test_voiding_a_deal_miss_leaves_the_standings_unchanged(db):
    league(db)
    text = ok(db, "hand", "void", "-l", "cup", "2", "--reason", "no deal miss after all")
    assert "Standings unchanged." in text and "Standings changed" not in text


def test_an_import_counts_its_hands_and_sessions_in_the_right_number(db, tmp_path):
    league(db)
    path = tmp_path / "cup.toml"
    path.write_text(ok(db, "export", "-l", "cup"), encoding="utf-8")
    text = ok(db, "import", str(path), "-l", "copy")
    assert "Imported 2 hands into copy (hands 1-2, session 1)." in text


def test_the_change_log_speaks_the_users_language_and_json_keeps_the_stored_words(db):
    from mighty_cli.engine.translation import set_language

    league(db)
    ok(db, "hand", "void", "-l", "cup", "1", "--reason", "다시 셈")
    text = ok(db, "--lang", "ko", "hand", "log", "-l", "cup")
    set_language("en")
    assert "리그 만들기" in text and "회차 시작" in text and "판 기록" in text
    assert "판 무효 1" in text and "hand void" not in text
    actions = {
        c["action"]
        for c in json.loads(ok(db, "--lang", "ko", "hand", "log", "-l", "cup", "--json"))["changes"]
    }
    set_language("en")
    assert {"league create", "session start", "hand record", "hand void"} <= actions
