"""Issue 9, item 5: a name is spelt one way (NFC, trimmed, single spaces) in a league and in a
record alike, and a name carrying an invisible character (control, zero-width, bidirectional)
is refused with one line that shows where it is, never echoed raw to the terminal."""

from __future__ import annotations

import json
import unicodedata

import pytest

from promises import error_line, invoke, record_file, snapshot

COMPOSED = unicodedata.normalize("NFC", "한별")
DECOMPOSED = unicodedata.normalize("NFD", "한별")


def test_the_two_spellings_of_a_korean_name_are_one_player(db):
    assert COMPOSED != DECOMPOSED
    assert invoke("league", "create", "tue", "-r", "standard", "--db", db).exit_code == 0
    players = [COMPOSED, "Bo", "Cy", "Di", "Ed"]
    assert (
        invoke("session", "start", "-l", "tue", "-p", ",".join(players), "--db", db).exit_code == 0
    )
    result = invoke("player", "add", DECOMPOSED, "--db", db)
    assert error_line(result) == f"player {COMPOSED!r} already exists"
    listed = json.loads(invoke("player", "list", "--json", "--db", db).output)["players"]
    assert [p["name"] for p in listed].count(COMPOSED) == 1


def test_a_league_named_in_either_spelling_is_found(db):
    assert invoke("league", "create", DECOMPOSED, "-r", "standard", "--db", db).exit_code == 0
    result = invoke("league", "show", COMPOSED, "--json", "--db", db)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["name"] == COMPOSED


@pytest.mark.parametrize(
    "name, what",
    [
        (
            "Bo\u202e5-",
            "an invisible formatting character (zero-width or bidirectional), U+202E, "
            "at character 3",
        ),
        (
            "B\u200bo",
            "an invisible formatting character (zero-width or bidirectional), U+200B, "
            "at character 2",
        ),
        ("\x1b]0;owned\x07Bo", "a control character, U+001B, at character 1"),
        ("Bo\x00", "a control character, U+0000, at character 3"),
    ],
)
def test_invisible_characters_in_a_name_are_refused(db, name, what):
    assert invoke("league", "create", "tue", "-r", "standard", "--db", db).exit_code == 0
    before = snapshot(db)
    for args in (
        ("player", "add", name),
        ("session", "start", "-l", "tue", "-p", f"{name},Cy,Di,Ed,Fay"),
        ("league", "create", name, "-r", "standard"),
    ):
        message = error_line(invoke(*args, "--db", db))
        assert what in message
        assert "\x1b" not in message and "\u202e" not in message and "\u200b" not in message
    assert snapshot(db) == before


def test_trailing_spaces_make_the_same_name_in_a_record(tmp_path):
    path = record_file(tmp_path)
    text = open(path, encoding="utf-8").read().replace('"Ed"]', '"Ed", "Ana "]')
    open(path, "w", encoding="utf-8").write(text)
    assert error_line(invoke("replay", path)) == f"{path}: players: 'Ana' appears twice"


def test_a_record_matches_names_in_either_spelling(tmp_path, db):
    path = record_file(
        tmp_path,
        '[[hands]]\ndeclarer = "' + DECOMPOSED + ' "\ncontract = "15D"\n'
        'friend = "Bo"\ntaken = 16\n',
    )
    text = open(path, encoding="utf-8").read().replace('"Ana"', f'"{COMPOSED}"', 1)
    open(path, "w", encoding="utf-8").write(text)
    result = invoke("replay", path, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["hands"][0]["declarer"] == COMPOSED
    assert invoke("import", path, "-l", "tue", "--db", db).exit_code == 0
    listed = json.loads(invoke("player", "list", "--json", "--db", db).output)["players"]
    assert COMPOSED in [p["name"] for p in listed]


def test_a_record_with_a_bidirectional_override_in_a_name_is_refused(tmp_path):
    path = record_file(tmp_path)
    text = open(path, encoding="utf-8").read().replace('"Bo"', '"B\u202eo"', 1)
    open(path, "w", encoding="utf-8").write(text)
    assert error_line(invoke("replay", path)) == (
        f"{path}: players: 'B\\u202eo' contains an invisible formatting character (zero-width "
        f"or bidirectional), U+202E, at character 2"
    )


def test_a_reason_with_a_terminal_escape_is_shown_as_codes(db):
    # Names refuse such characters; free text (a reason) is kept but never acts on the screen.
    from promises import ROOT

    assert (
        invoke("import", str(ROOT / "examples" / "season.toml"), "-l", "demo", "--db", db).exit_code
        == 0
    )
    reason = "typo\x1b]0;owned\x07 \u202e5-"
    assert invoke("hand", "void", "-l", "demo", "1", "--reason", reason, "--db", db).exit_code == 0
    shown = invoke("hand", "log", "-l", "demo", "--db", db)
    assert shown.exit_code == 0, shown.output
    assert "\x1b" not in shown.output and "\u202e" not in shown.output
    assert "typo\\u001b]0;owned\\u0007 \\u202e5-" in shown.output
