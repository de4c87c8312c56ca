"""The streamed reader's fast path (engine/records/lines.py, issue 12: import and replay speed): a
hand written the way an export or tomli_w writes it (one ``key = value`` a line, lists of strings
one a line, ``[hands.deal]`` sub-tables) is read and shape-checked at once, from remembered lines
or from a layout learnt from an earlier hand, and gives exactly what the general path gives
(tomllib-exact parsing, then check_hand_shape): the same hands, the same errors word for word."""

from __future__ import annotations

import io
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mighty_cli.engine.errors import RecordError
from mighty_cli.engine.records import check_hand_shape
from mighty_cli.engine.records import lines as record_lines
from mighty_cli.engine.records import stream as record_stream
from mighty_cli.engine.records.stream import parse_hand_table, stream_record

PLAYERS = ["Ana", "Bo", "Cy", "Di", "Ed", "김철수"]
HEAD = (
    'format = "mighty-hand-record/1"\nruleset = "standard"\n'
    'players = ["Ana", "Bo", "Cy", "Di", "Ed", "김철수"]\n'
)
NFD = unicodedata.normalize("NFD", "김철수")

#: Lines of a hand table: what an export writes, and what a hand-written record may hold
#: (names to spell one way, wrong types, unknown keys, escapes, a key twice, other spacing).
LINES = [
    "session = 1",
    'session = "spring"',
    "session = true",
    "number = 12",
    "date = 2024-03-05",
    'date = "2024-03-05"',
    "date = 5",
    'players = ["Bo", "Ed", "Ana", "김철수", "Di"]',
    f'players = ["Bo", "Ed", "Ana", "{NFD}", "Di"]',
    'players = ["Bo", "Ed"]',
    "players = []",
    'players = "Bo"',
    'dealer = "Bo"',
    'dealer = " Bo  "',
    f'dealer = "{NFD}"',
    "dealer = 3",
    'dealer = "Zed"',
    'declarer = "김철수"',
    f'declarer = "{NFD}"',
    "declarer = false",
    'contract = "18C"',
    'contract = "13NT"',
    "contract = 18",
    'contract = "99X"',
    'friend = "Ed"',
    'friend = "none"',
    'friend = "SA"',
    "friend = 1",
    'friend2 = "Di"',
    'friend_call = "SA"',
    'friend_call = "first-trick"',
    "taken = 16",
    "taken = 0",
    "taken = 21",
    "taken = -1",
    'taken = "16"',
    "opposition = 4",
    'deal_miss = "김철수"',
    'deal_miss = "Ana"',
    'opener = "Ana"',
    'eliminated = ["Ed"]',
    'eliminated = "Ed"',
    'note = "plain"',
    'note = "a \\"quoted\\" word"',
    'note = ""',
    "note = 'literal'",
    'colour = "red"',
    "tricks = []",
    'election = ["Ana 13H", "Bo pass"]',
    "session_started = 2024-03-05T19:30:00+00:00",
    'session_started = "2024-03-05T19:30:00"',
    "taken = 16  # a comment",
    "taken=16",
    '  dealer = "Bo"',
    "",
    "",
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
    """The hands the streamed reader gives, up to its error's message if it has one."""
    hands: list = []
    try:
        for hand in stream_record(io.StringIO(text)).hands:
            hands.append(hand)
    except RecordError as exc:
        return hands + ["error", str(exc)]
    return hands


def record_text(hands: list[list[str]], header: str = HEAD) -> str:
    return header + "".join(
        "\n[[hands]]\n" + "".join(f"{line}\n" for line in hand) for hand in hands
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.sampled_from(LINES), max_size=9), min_size=1, max_size=5))
def test_the_fast_path_gives_the_general_paths_hands_and_errors(hands):
    text = record_text(hands)
    assert outcome(text) == general(text)


@pytest.mark.parametrize(
    "lines",
    [
        [
            "session = 1",
            'players = ["Bo", "Ed", "Ana", "김철수", "Di"]',
            'dealer = "Bo"',
            'declarer = "김철수"',
            'contract = "18C"',
            'friend = "Ed"',
            "taken = 16",
        ],
        [
            "session = 1",
            'players = ["Bo", "Ed", "Ana", "김철수", "Di"]',
            'dealer = "Ed"',
            'deal_miss = "김철수"',
        ],
        ['dealer = " Bo  "', f'declarer = "{NFD}"', "date = 2024-03-05", 'note = "plain"'],
        ["[hands.deal]", 'Ana = "SA"'],  # a sub-table (the general path took it before)
        ["players = [", '    "Bo",', "]"],  # a list over several lines (the same)
        [
            'dealer = "Ana"',
            'discard = "CA D9 S9"',
            "election = [",
            '    "Ana  20H",',
            '    "Bo pass",',
            "]",
            "tricks = [",
            '    "H7 H2 SA H10 HK",',
            '    "JK/C CQ C9 C3 C10",',
            "]",
            "session = 1",
            "",
            "[hands.deal]",
            'Ana = "S8 D3"',
            f'"{NFD}" = "H5 H4"',
            'kitty = "D9 C4 D6"',
            "",
        ],
        ["election = [", "]", "tricks = []", "[hands.redistribution]", 'Ana = "SA"'],
    ],
)
def test_a_usual_hand_is_taken_by_the_fast_path_and_reads_as_the_general_path(lines):
    text = "".join(f"{line}\n" for line in lines)
    fast = record_stream._checked_hand(text)
    assert fast is not None
    [hand] = parse_hand_table(text, 2)
    check_hand_shape(hand, 1, PLAYERS, "<record>")
    assert fast == hand
    assert [type(v) for v in fast.values()] == [type(v) for v in hand.values()]


@pytest.mark.parametrize(
    "lines",
    [
        ['dealer = "Bo"', 'dealer = "Ed"'],  # a key twice: tomllib's error
        ["dealer = 3"],  # a wrong type: the shape check's line
        ['colour = "red"'],  # an unknown key
        ['note = "a \\"quoted\\" word"'],  # an escape
        ["taken = 16  # a comment"],
        ["taken=16"],
        ["[hands.colour]", 'Ana = "SA"'],  # a sub-table of an unknown key
        ["[hands.deal]", "Ana = 3"],  # a deal that is not a table of strings
        ["[hands.deal]", 'Ana = "SA"', 'Ana = "SK"'],  # a name twice
        ["players = [", '    "Bo"', "]"],  # a list's last string without its comma
        ["players = [", '  "Bo",', "]"],  # other spacing
        ["players = [", "    1,", "]"],  # not strings
        ["dealer = [", '    "Bo",', "]"],  # a list where a name belongs
    ],
)
def test_anything_else_goes_the_general_way(lines):
    assert record_stream._checked_hand("".join(f"{line}\n" for line in lines)) is None


def test_a_remembered_line_gives_each_hand_its_own_list():
    text = record_text(
        [['players = ["Bo", "Ed", "Ana", "김철수", "Di"]', 'dealer = "Bo"', 'deal_miss = "Ana"']]
        * 2
    )
    first, second = stream_record(io.StringIO(text)).hands
    first["players"].append("Cy")
    assert second["players"] == ["Bo", "Ed", "Ana", "김철수", "Di"]


def test_more_than_seven_players_need_each_hand_to_name_its_five():
    header = HEAD.replace('"김철수"]', '"김철수", "Fay", "Gus"]')
    text = record_text(
        [
            ['players = ["Bo", "Ed", "Ana", "김철수", "Di"]', 'dealer = "Bo"', 'deal_miss = "Ana"'],
            ['dealer = "Bo"', 'deal_miss = "Ana"'],
        ],
        header,
    )
    assert outcome(text) == general(text)
    assert outcome(text)[-2] == "error" and "got 8" in outcome(text)[-1]


def test_only_short_lines_are_remembered():
    record_lines._LINES.clear()
    long_note = 'note = "' + "x" * 5000 + '"'
    text = record_text([['dealer = "Bo"', 'deal_miss = "Ana"', long_note]] * 3)
    hands = list(stream_record(io.StringIO(text)).hands)
    assert hands == general(text) and hands[0]["note"] == "x" * 5000
    assert long_note not in record_lines._LINES and 'dealer = "Bo"' in record_lines._LINES


# --- full hands: lists over several lines, sub-tables, layouts ----------------------------------

#: Pieces of a full hand's table, each one key (a list or a sub-table over several lines): what
#: tomli_w writes (GOOD: the fast path takes them, names to spell one way included), and what a
#: hand-written record may hold (ODD: odd spacing, comments, escapes, a key twice, wrong types,
#: a list without its last comma, a string over two lines, other white space).
GOOD = {
    "dealer": ['dealer = "Ana"', 'dealer = " Bo  "', f'dealer = "{NFD}"'],
    "discard": ['discard = "CA D9 S9"', 'discard = "S2 S3 S4"'],
    "friend": ['friend = "D3 lead:H"', 'friend = "Ed"', 'friend = "none"'],
    "session": [
        "session = 1",
        "session = 12",
        'session = "spring"',
        "session = +3",
        "session = -0",
    ],
    "date": ["date = 2024-03-05", 'date = "2024-03-05"', "date = 2024-02-30"],
    "opposition": ["opposition = false", "opposition = 4"],
    "election": [
        'election = [\n    "Ana 20H",\n    "Bo pass",\n]',
        'election = [\n    "Ana  20H",\n    " Bo pass",\n]',
        f'election = [\n    "{NFD} 20H",\n    "Cy pass",\n]',
        "election = [\n]",
        'election = ["Ana 13H", "Bo pass"]',
        "election = []",
    ],
    "tricks": [
        'tricks = [\n    "H7 H2 SA H10 HK",\n    "JK/C CQ C9 C3 C10",\n]',
        'tricks = [\n    "SA",\n]',
        'tricks = [\n    "",\n]',
        "tricks = []",
        'tricks = ["SA", "SK"]',
    ],
    "players": [
        'players = [\n    "Bo",\n    "Ed",\n    "Ana",\n    "김철수",\n    "Di",\n]',
        f'players = [\n    "Bo",\n    "Ed",\n    "Ana",\n    "{NFD}",\n    "Di",\n]',
        'players = ["Bo", "Ed", "Ana", "김철수", "Di"]',
        'players = [\n    "Bo",\n]',
    ],
    "eliminated": ['eliminated = [\n    "Ed",\n]', 'eliminated = [\n    " Ed",\n]'],
    "elimination": ['elimination = [\n    "JK Bo",\n]', "elimination = [\n]"],
    "taken": ["taken = 16", 'taken = [\n    "x",\n]', 'taken = "16"'],
    "note": ['note = "plain"', 'note = ""'],
    "deal": [
        '[hands.deal]\nAna = "S8 D3"\nBo = "H5 H4"\nkitty = "D9 C4 D6"',
        '[hands.deal]\nAna = "S2 S3"\nBo = "H9 H4"\nkitty = "C4 D6 D9"',
        '[hands.deal]\n"김철수" = "S8"\nAna = "H5"',
        f'[hands.deal]\n"{NFD}" = "S8"\nAna = "H5"',
        f'[hands.deal]\nAna = "S8"\n"{NFD}" = "H5"',
        '[hands.deal]\nAna = "S8"\nBo = "H5"',
        f'[hands.deal]\n"{NFD}" = "S8"\n"김철수" = "H5"',
        '[hands.deal]\nAna = "S8"\n"Ana" = "H5"',
        '[hands.deal]\nAna = "S8"\nAna = "H5"',
        '[hands.deal]\n"" = "S8"\n"a.b" = "H5"',
    ],
    "redistribution": ['[hands.redistribution]\nAna = "S8"', '[hands.redistribution]\nBo = "S9"'],
    "blank": ["", ""],
}
ODD = {
    "dealer": [
        "dealer = 3",
        'dealer = "a \\"q\\""',
        'dealer = "Ana\tBo"',
        '  dealer = "Ana"',
        'dealer = [\n    "Ana",\n]',
    ],
    "discard": ["discard = 5", 'discard = "S2 S3 S4" # c'],
    "session": ["session = true", "session = 01", "session = 1_0"],
    "date": ["date = 2024-03-05T19:30:00"],
    "election": [
        'election = [\n    "Ana 20H"\n]',
        'election = [\n    "a\\"b",\n]',
        "election = [\n    1,\n]",
        'election = [\n  "Ana 20H",\n]',
        'election = [\n    "Ana 20H",\n\n]',
        'election = [\n    "Ana 20H", # c\n]',
        'election = [\n    "Ana 20H",\n] ',
        'election = [ \n    "Bo",\n]',
        'election = [\n    "tab\there",\n]',
        'election = [\n    "Ana\n20H",\n]',
        'election = [\n    "Ana",\n    "Bo",\n]\n]',
    ],
    "tricks": [
        'tricks = [\n    "SA",\n    "SK"\n]',
        'tricks = [\n    "S\\u0041",\n]',
        'tricks = [\n    ["SA"],\n]',
        'tricks = [\n    "SA",\n]\n]',
    ],
    "elimination": ["elimination = [\n    2,\n]"],
    "taken": ["taken = 1_6", "taken = 16\x0c"],
    "note": ['note = "a \\"q\\" word"', "note = 'literal'"],
    "colour": ['colour = "red"', 'colour = [\n    "red",\n]'],
    "deal": [
        "[hands.deal]\nAna = 3",
        '[hands.deal]\nAna = "S8"\n\nBo = "H5"',
        "[hands.deal]",
        '[hands.deal]\nAna = "S8"  # c',
        "[hands.deal]\nAna = 'S8'",
        '[ hands.deal ]\nAna = "S8"',
        '[hands.deal]\n Ana = "S8"',
        '[hands.deal]\nAna = "S\\"8"',
        '[hands.deal]\nAna.b = "S8"',
        '[hands.deal]\nAna = "S8"\n[hands.deal]\nBo = "S9"',
        '[[hands.deal]]\nAna = "S8"',
        '[hands.deal]\nAna = "S8"\nBo = "H\n5"',
    ],
    "redistribution": ["[hands.redistribution]\nAna = [1]"],
    "other table": [
        '[hands.colour]\nx = "y"',
        '[hands.dealer]\nx = "y"',
        '[hands.deal.x]\ny = "z"',
    ],
    "blank": ["   ", "\x0c", "\u3000", "# a comment"],
}
KEYS = sorted(set(GOOD) | set(ODD))


@st.composite
def full_hands(draw):
    """Hands of one or more layouts: a sequence of keys, then hands choosing each key's piece,
    mostly one the fast path takes (so hands share a layout with other values, and a layout
    meets what it does not take)."""
    hands = []
    for _layout in range(draw(st.integers(1, 3))):
        keys = draw(st.lists(st.sampled_from(KEYS), max_size=7))
        for _hand in range(draw(st.integers(1, 4))):
            hand = []
            for key in keys:
                odd = key not in GOOD or (key in ODD and draw(st.integers(0, 3)) == 0)
                hand.append(draw(st.sampled_from((ODD if odd else GOOD)[key])))
            hands.append(hand)
    return hands


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(full_hands(), st.booleans())
def test_full_hands_read_by_the_fast_path_as_by_the_general_path(hands, eight):
    record_lines._LINES.clear()
    record_lines._LAYOUTS.clear()
    header = HEAD.replace('"김철수"]', '"김철수", "Fay", "Gus"]') if eight else HEAD
    text = record_text(hands, header)
    assert outcome(text) == general(text)
    assert outcome(text) == general(text)  # again, from what the first reading remembered


@pytest.mark.parametrize("key", KEYS)
def test_each_piece_after_a_hand_that_taught_a_layout_reads_as_the_general_path(key):
    # every piece of the key, in a hand written like one read before it (a layout learnt), and
    # after the key itself: each compared alone, so an error elsewhere hides nothing
    teacher = GOOD.get(key, ["session = 1"])[0]
    for piece in GOOD.get(key, []) + ODD.get(key, []):
        for hands in (
            [
                ['dealer = "Ana"', teacher, GOOD["tricks"][0]],
                ['dealer = "Ana"', piece, GOOD["tricks"][0]],
            ],
            [
                ["session = 1", GOOD["election"][0], teacher, GOOD["deal"][0]],
                ["session = 2", GOOD["election"][1], piece, GOOD["deal"][1]],
            ],
        ):
            record_lines._LINES.clear()
            record_lines._LAYOUTS.clear()
            text = record_text(hands)
            assert outcome(text) == general(text), piece


def canonical_hands(count: int) -> str:
    """A record of ``count`` full hands as tomli_w writes them (benchmarks/league.py's way)."""
    import tomli_w

    hands = [
        {
            "dealer": "Ana",
            "discard": f"C{2 + k % 9} D9 S9",
            "friend": "D3 lead:H",
            "election": ["Ana 20H", "Bo pass", "김철수 pass"][: 1 + k % 3],
            "tricks": [f"H{2 + k % 8} H2 SA H10 HK", "JK/C CQ C9 C3 C10"],
            "session": k,
            "deal": {"Ana": f"S{2 + k % 8} D3", "김철수": "H5 H4", "kitty": "D9 C4 D6"},
        }
        for k in range(count)
    ]
    return tomli_w.dumps(
        {
            "format": "mighty-hand-record/1",
            "ruleset": "standard",
            "players": PLAYERS,
            "hands": hands,
        }
    )


def test_full_hands_written_alike_are_read_by_one_layout(monkeypatch):
    record_lines._LAYOUTS.clear()
    text = canonical_hands(12)
    by_lines = []
    read = record_lines._hand_by_lines
    monkeypatch.setattr(record_lines, "_hand_by_lines", lambda t: by_lines.append(t) or read(t))
    hands = outcome(text)
    assert hands == general(text) and len(hands) == 12
    assert len(by_lines) == 1 and len(record_lines._LAYOUTS) == 1  # the first hand taught it
    assert hands[3]["election"] == ["Ana 20H"] and hands[2]["deal"]["김철수"] == "H5 H4"


def test_every_full_hand_written_so_is_taken_by_the_fast_path():
    record_lines._LAYOUTS.clear()
    text = canonical_hands(5)
    blocks = text.split("[[hands]]\n")[1:]
    for block in blocks * 2:  # by lines, then by the layout learnt
        assert record_stream._checked_hand(block) == parse_hand_table(block, 2)[0]


@pytest.mark.parametrize(
    "first, later, error",
    [
        ("date = 2024-03-05", "date = 2024-02-30", "Invalid date"),  # a date that is no day
        ('Bo = "H5"', 'Ana = "H5"', "Cannot overwrite a value"),  # a name twice in the deal
    ],
)
def test_a_hand_a_layout_matches_but_tomllib_refuses_says_tomllibs_error(
    monkeypatch, first, later, error
):
    record_lines._LAYOUTS.clear()
    by_lines = []
    read = record_lines._hand_by_lines
    monkeypatch.setattr(record_lines, "_hand_by_lines", lambda t: by_lines.append(t) or read(t))
    table = 'session = 5\n{}\n[hands.deal]\nAna = "S8"\n{}'
    if first.startswith("date"):
        hands = [[table.format(first, 'Bo = "H5"')], [table.format(later, 'Bo = "H5"')]]
    else:
        hands = [[table.format("", first)], [table.format("", later)]]
    text = record_text(hands)
    refused = outcome(text)
    assert refused[-2] == "error" and error in refused[-1]
    assert len(by_lines) == 1  # the first hand taught the layout; the second matched it
    assert outcome(text) == general(text)


def test_a_layout_is_not_learnt_from_a_hand_of_summary_lines():
    record_lines._LAYOUTS.clear()
    outcome(record_text([['dealer = "Bo"', 'deal_miss = "Ana"']] * 3))
    assert record_lines._LAYOUTS == []


def test_the_layouts_kept_are_few():
    record_lines._LAYOUTS.clear()
    hands = [
        [f'{key} = [\n    "Bo",\n]' for key in ("players", "eliminated", "tricks")][: k % 3 + 1]
        + [f"session = {k}"] * (k % 2)
        + ['note = "x"'] * (k % 5 == 0)
        for k in range(40)
    ]
    text = record_text(hands)
    assert outcome(text) == general(text)
    assert 1 < len(record_lines._LAYOUTS) <= record_lines._MOST_LAYOUTS


def test_a_deal_whose_names_are_one_once_spelt_teaches_no_layout():
    record_lines._LAYOUTS.clear()
    record_lines._MADE.clear()
    hand = ['tricks = [\n    "SA",\n]', f'[hands.deal]\n"{NFD}" = "S8"\n"김철수" = "H5"']
    text = record_text([hand] * 3)
    assert outcome(text) == general(text)
    assert record_lines._LAYOUTS == [] and list(record_lines._MADE.values()) == [False]


def test_a_file_of_more_layouts_than_are_kept_makes_each_once():
    record_lines._LAYOUTS.clear()
    record_lines._MADE.clear()
    extra = [
        "session = 1",
        "number = 1",
        "taken = 1",
        "opposition = 1",
        'note = "x"',
        'dealer = "Bo"',
        'declarer = "Bo"',
        'contract = "18C"',
        'friend = "Ed"',
        'friend_call = "SA"',
    ]
    assert len(extra) > record_lines._MOST_LAYOUTS
    layouts = [['tricks = [\n    "SA",\n]', line] for line in extra]
    text = record_text(layouts)
    assert outcome(text) == general(text)
    made = dict(record_lines._MADE)
    assert len(made) == len(extra) and len(record_lines._LAYOUTS) == record_lines._MOST_LAYOUTS
    text = record_text(layouts * 3)  # each layout evicted before it comes again
    assert outcome(text) == general(text)
    assert all(record_lines._MADE[source] is layout for source, layout in made.items())
