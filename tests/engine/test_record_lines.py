"""The streamed reader's fast path for the usual hand (issue 12: import speed): a hand whose lines
it has seen before is read and shape-checked from what it remembers of each line, and gives
exactly what the general path gives (tomllib-exact parsing, then check_hand_shape): the same
hands, the same errors word for word."""

from __future__ import annotations

import io
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mighty_cli.engine import record_stream
from mighty_cli.engine.errors import RecordError
from mighty_cli.engine.record import check_hand_shape
from mighty_cli.engine.record_stream import parse_hand_table, stream_record

PLAYERS = ["Ana", "Bo", "Cy", "Di", "Ed", "김철수"]
HEAD = ('format = "mighty-hand-record/1"\nruleset = "standard"\n'
        'players = ["Ana", "Bo", "Cy", "Di", "Ed", "김철수"]\n')
NFD = unicodedata.normalize("NFD", "김철수")

#: Lines of a hand table: what an export writes, and what a hand-written record may hold
#: (names to spell one way, wrong types, unknown keys, escapes, a key twice, other spacing).
LINES = [
    'session = 1', 'session = "spring"', 'session = true', 'number = 12', 'date = 2024-03-05',
    'date = "2024-03-05"', 'date = 5',
    'players = ["Bo", "Ed", "Ana", "김철수", "Di"]', f'players = ["Bo", "Ed", "Ana", "{NFD}", "Di"]',
    'players = ["Bo", "Ed"]', 'players = []', 'players = "Bo"',
    'dealer = "Bo"', 'dealer = " Bo  "', f'dealer = "{NFD}"', 'dealer = 3', 'dealer = "Zed"',
    'declarer = "김철수"', f'declarer = "{NFD}"', 'declarer = false',
    'contract = "18C"', 'contract = "13NT"', 'contract = 18', 'contract = "99X"',
    'friend = "Ed"', 'friend = "none"', 'friend = "SA"', 'friend = 1',
    'friend2 = "Di"', 'friend_call = "SA"', 'friend_call = "first-trick"',
    'taken = 16', 'taken = 0', 'taken = 21', 'taken = -1', 'taken = "16"', 'opposition = 4',
    'deal_miss = "김철수"', 'deal_miss = "Ana"', 'opener = "Ana"',
    'eliminated = ["Ed"]', 'eliminated = "Ed"',
    'note = "plain"', 'note = "a \\"quoted\\" word"', 'note = ""', "note = 'literal'",
    'colour = "red"', 'tricks = []', 'election = ["Ana 13H", "Bo pass"]',
    'session_started = 2024-03-05T19:30:00+00:00', 'session_started = "2024-03-05T19:30:00"',
    'taken = 16  # a comment', 'taken=16', '  dealer = "Bo"', '', '',
]


def general(text: str) -> list:
    """The hands of a record through the general path only (the reference)."""
    saved = record_stream._checked_hand
    record_stream._checked_hand = lambda text: None
    try:
        return outcome(text)
    finally:
        record_stream._checked_hand = saved


def outcome(text: str) -> list:
    """The hands the streamed reader gives, or its error's message."""
    try:
        return list(stream_record(io.StringIO(text)).hands)
    except RecordError as exc:
        return ["error", str(exc)]


def record_text(hands: list[list[str]], header: str = HEAD) -> str:
    return header + "".join("\n[[hands]]\n" + "".join(f"{line}\n" for line in hand)
                            for hand in hands)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.sampled_from(LINES), max_size=9), min_size=1, max_size=5))
def test_the_fast_path_gives_the_general_paths_hands_and_errors(hands):
    text = record_text(hands)
    assert outcome(text) == general(text)


@pytest.mark.parametrize("lines", [
    ['session = 1', 'players = ["Bo", "Ed", "Ana", "김철수", "Di"]', 'dealer = "Bo"',
     'declarer = "김철수"', 'contract = "18C"', 'friend = "Ed"', 'taken = 16'],
    ['session = 1', 'players = ["Bo", "Ed", "Ana", "김철수", "Di"]', 'dealer = "Ed"',
     'deal_miss = "김철수"'],
    ['dealer = " Bo  "', f'declarer = "{NFD}"', 'date = 2024-03-05', 'note = "plain"'],
])
def test_a_usual_hand_is_taken_by_the_fast_path_and_reads_as_the_general_path(lines):
    text = "".join(f"{line}\n" for line in lines)
    fast = record_stream._checked_hand(text)
    assert fast is not None
    [hand] = parse_hand_table(text, 2)
    check_hand_shape(hand, 1, PLAYERS, "<record>")
    assert fast == hand
    assert [type(v) for v in fast.values()] == [type(v) for v in hand.values()]


@pytest.mark.parametrize("lines", [
    ['dealer = "Bo"', 'dealer = "Ed"'],          # a key twice: tomllib's error
    ['dealer = 3'],                              # a wrong type: the shape check's line
    ['colour = "red"'],                          # an unknown key
    ['note = "a \\"quoted\\" word"'],            # an escape
    ['taken = 16  # a comment'],
    ['taken=16'],
    ['[hands.deal]', 'Ana = "SA"'],              # a sub-table
    ['players = [', '    "Bo",', ']'],           # a list over several lines
])
def test_anything_else_goes_the_general_way(lines):
    assert record_stream._checked_hand("".join(f"{line}\n" for line in lines)) is None


def test_a_remembered_line_gives_each_hand_its_own_list():
    text = record_text([['players = ["Bo", "Ed", "Ana", "김철수", "Di"]', 'dealer = "Bo"',
                         'deal_miss = "Ana"']] * 2)
    first, second = stream_record(io.StringIO(text)).hands
    first["players"].append("Cy")
    assert second["players"] == ["Bo", "Ed", "Ana", "김철수", "Di"]


def test_more_than_seven_players_need_each_hand_to_name_its_five():
    header = HEAD.replace('"김철수"]', '"김철수", "Fay", "Gus"]')
    text = record_text([['players = ["Bo", "Ed", "Ana", "김철수", "Di"]', 'dealer = "Bo"',
                         'deal_miss = "Ana"'], ['dealer = "Bo"', 'deal_miss = "Ana"']], header)
    assert outcome(text) == general(text)
    assert outcome(text)[0] == "error" and "got 8" in outcome(text)[1]


def test_only_short_lines_are_remembered():
    record_stream._LINES.clear()
    long_note = "note = \"" + "x" * 5000 + "\""
    text = record_text([['dealer = "Bo"', 'deal_miss = "Ana"', long_note]] * 3)
    hands = list(stream_record(io.StringIO(text)).hands)
    assert hands == general(text) and hands[0]["note"] == "x" * 5000
    assert long_note not in record_stream._LINES and 'dealer = "Bo"' in record_stream._LINES
