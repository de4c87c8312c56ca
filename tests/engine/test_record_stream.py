"""The streamed record reader gives exactly what tomllib gives for the whole file, through its
fast path or its fallback, and errors name the file's line."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from mighty_cli.engine.errors import RecordError
from mighty_cli.engine.records import read_record, replay
from mighty_cli.engine.records.stream import parse_hand_table, stream_record

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.toml"))
HEAD = 'format = "mighty-hand-record/1"\nruleset = "standard"\nplayers = ["Ana", "Bo", "Cy", "Di", "Ed"]\n'


def streamed(text: str) -> list:
    return list(stream_record(io.StringIO(text)).hands)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_streams_to_what_tomllib_reads(path):
    text = path.read_text(encoding="utf-8")
    assert streamed(text) == tomllib.loads(text).get("hands", [])
    assert replay(stream_record(path)).to_json() == replay(read_record(text)).to_json()


@pytest.mark.parametrize("lines", [
    ['dealer = "Ana"\n', 'note = "a \\"quoted\\" word\\nand a new line, é, \\u00e9"\n'],
    ['tricks = [\n', '    "SK S3 S9 SQ S2",\n', '    "JK/H H2 H9 HA H5",\n', ']\n'],
    ['tricks = [\n', '    "SK S3 S9 SQ S2"\n', ']\n'],
    ['deal = { Ana = "SA", Bo = "SK", kitty = "C2 C3 C4" }\n', 'taken = -0\n'],
    ['session = 2\n', 'date = 2024-03-05\n', 'full = true\n', '\n', '[hands.deal]\n',
     'Ana = "SA"\n', 'kitty = "C2"\n'],
    ['note = \'literal\'  # a comment\n', 'taken = 1_6\n'],
    ['election = ["Ana 13H", "Bo pass",]\n', 'numbers = [1, 2]\n'],
    ['date = 2024-03-05T10:00:00\n', 'base = 1.5\n', '"quoted key" = 1\n', 'a.b = 1\n'],
])
def test_a_hand_table_parses_as_tomllib_does(lines):
    assert parse_hand_table(lines, 2) == tomllib.loads("[[hands]]\n" + "".join(lines))["hands"]


@pytest.mark.parametrize("lines", [
    ['tricks = [\n', '    "SK S3 S9 SQ S2"\n', '    "JK/H H2 H9 HA H5",\n', ']\n'],
    ['deal = { Ana = "SA", }\n'],
    ['dealer = "Ana"\n', 'dealer = "Bo"\n'],
    ['deal = { Ana = "SA", Ana = "SK" }\n'],
    ['note = "bad \\x escape"\n'],
    ['taken = 016\n'],
    ['date = 2024-02-30\n'],
    ['deal = { Ana = "SA" }\n', '[hands.deal]\n', 'Bo = "SK"\n'],
    # white space that is none to TOML (a form feed, a Unicode space): no blank line, no
    # header, nothing around a list's string
    ['dealer = "Ana"\n', '\x0c\n', 'taken = 2\n'],
    ['dealer = "Ana"\n', '\u3000\n'],
    ['players = [\n', '    "Bo",\x0c\n', ']\n'],
    ['dealer = "Ana"\n', '\u2003[[hands]]\n', 'dealer = "Bo"\n'],
    ['dealer = "Ana"\n', '[hands.deal]\x0c\n', 'Ana = "SA"\n'],
])
def test_what_tomllib_refuses_the_stream_refuses_with_the_files_line(lines):
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads("[[hands]]\n" + "".join(lines))
    text = HEAD + "\n[[hands]]\n" + "".join(lines)
    with pytest.raises(RecordError, match=r"<record>: not valid TOML: .*line \d+"):
        streamed(text)


def test_an_error_names_the_line_in_the_file_not_in_the_hand():
    text = HEAD + '\n[[hands]]\ndealer = "Ana"\n\n[[hands]]\ndealer = "Ana"\ntaken = 01\n'
    with pytest.raises(RecordError, match=r"at line 10,"):
        streamed(text)


def test_a_multi_line_string_that_holds_a_hands_header_stays_one_string():
    text = HEAD + '\n[[hands]]\ndealer = "Ana"\nnote = """one\n[[hands]]\ntwo"""\n'
    assert streamed(text) == tomllib.loads(text)["hands"]


def test_unknown_keys_are_refused_as_read_record_does():
    text = HEAD + '\n[[hands]]\ndealer = "Ana"\ncolour = "red"\n'
    with pytest.raises(RecordError, match="hand 1: unknown key 'colour'"):
        streamed(text)


# --- the canonical table and the block reader (issue 12: replay of full hands) ----------------

from mighty_cli.engine.records import stream as record_stream  # noqa: E402
from mighty_cli.engine.limits import RECORD_LINE_MAX_BYTES  # noqa: E402


@pytest.mark.parametrize("lines", [
    ['dealer = "Ana"\n', 'election = [\n', '    "Ana 13H",\n', '    "Bo pass",\n', ']\n',
     'session = -3\n', 'full = false\n', 'date = 2024-03-05\n', '\n', '[hands.deal]\n',
     'Ana = "SA"\n', 'Bo = "한 명"\n'],
    ['players = ["Ana", "Bo", "Cy"]\n', 'tricks = []\n', 'note = ""\n', 'taken = 0\n'],
    ['tricks = [\n', ']\n', 'opener = "Bo"\n', '[hands.redistribution]\n', '[hands.deal]\n',
     'kitty = "C2 C3 C4"\n'],
    ['dealer = "Ana"'],  # the file's last line, without its end
    [],
])
def test_a_canonical_hand_table_reads_as_tomllib_does(lines):
    text = "".join(lines)
    assert record_stream._canonical_table(text) is not None
    assert parse_hand_table(text, 2) == tomllib.loads("[[hands]]\n" + text)["hands"]


@pytest.mark.parametrize("lines", [
    ['dealer = "Ana"\n', 'dealer = "Bo"\n'],
    ['deal = "x"\n', '[hands.deal]\n', 'Ana = "SA"\n'],
    ['[hands.deal]\n', 'Ana = "SA"\n', '[hands.deal]\n', 'Bo = "SK"\n'],
    ['taken = 016\n'],
    ['date = 2024-02-30\n'],
])
def test_a_canonical_looking_table_tomllib_refuses_is_refused_with_the_files_line(lines):
    text = HEAD + "\n[[hands]]\n" + "".join(lines)
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(text)
    with pytest.raises(RecordError, match=r"<record>: not valid TOML: .*line \d+"):
        streamed(text)


def season_text(hands: int) -> str:
    """A record of many small hands, written in several styles, with a header inside a
    multi-line string and headers with white space around them."""
    body = []
    for number in range(hands):
        header = ("[[hands]]", "  [[hands]] ", "[[hands]]\t")[number % 3]
        note = ('note = """a\n[[hands]]\nb"""\n' if number % 7 == 0 else
                'note = "plain"  # comment\n' if number % 5 == 0 else f'note = "n{number}"\n')
        body.append(f'{header}\ndealer = "Ana"\n{note}session = {number}\n')
    return HEAD + "\n" + "\n".join(body)


@pytest.mark.parametrize("chunk", [1, 7, 64, 1 << 18])
def test_the_block_reader_gives_tomllibs_hands_whatever_the_chunk_size(monkeypatch, chunk):
    monkeypatch.setattr(record_stream, "_CHUNK", chunk)
    text = season_text(40)
    assert streamed(text) == tomllib.loads(text)["hands"]
    for path in EXAMPLES[:3]:
        whole = path.read_text(encoding="utf-8")
        assert list(stream_record(path).hands) == tomllib.loads(whole).get("hands", [])


@pytest.mark.parametrize("chunk", [5, 1 << 18])
def test_an_error_names_the_files_line_whatever_the_chunk_size(monkeypatch, chunk):
    monkeypatch.setattr(record_stream, "_CHUNK", chunk)
    text = season_text(12) + '\n[[hands]]\ndealer = "Ana"\ntaken = 01\n'
    line = text.count("\n")  # the last line
    with pytest.raises(RecordError, match=rf"at line {line},"):
        streamed(text)


def test_a_line_longer_than_the_limit_is_refused_after_the_hands_before_it(monkeypatch):
    monkeypatch.setattr(record_stream, "_CHUNK", 1 << 16)
    long = "x" * (RECORD_LINE_MAX_BYTES + 1)
    text = HEAD + '\n[[hands]]\ndealer = "Ana"\n\n[[hands]]\nnote = "' + long + '"\n'
    hands = stream_record(io.StringIO(text)).hands
    assert next(hands) == {"dealer": "Ana"}
    with pytest.raises(RecordError, match="a line longer than 1 MiB"):
        next(hands)
    fits = HEAD + '\n[[hands]]\nnote = "' + "x" * (RECORD_LINE_MAX_BYTES - 9) + '"\n'
    assert len(fits.splitlines()[-1]) == RECORD_LINE_MAX_BYTES
    assert len(streamed(fits)[0]["note"]) == RECORD_LINE_MAX_BYTES - 9
