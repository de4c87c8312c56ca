"""`mighty replay` reads a record file twice, hand by hand, and keeps no hand: the whole file's
shape is checked first (a late hand's unknown key is reported before an early hand's broken
rule, as when the file was held whole), the late-hand notes still name the sessions, and a
pipe, which cannot be read twice, is copied as it is read and replayed from the copy; a pipe is
imported hand by hand too, and endless input is refused at the limits."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from mighty_cli.cli import cli

HEADER = (
    'format = "mighty-hand-record/1"\nruleset = "standard"\n'
    'players = ["Ana", "Bo", "Cy", "Di", "Ed"]\n'
)
SCORED = '[[hands]]\ndeclarer = "Ana"\ncontract = "14S"\nfriend = "Bo"\ntaken = {taken}\n'


def test_a_late_hands_shape_error_comes_before_an_early_hands_rule_error(tmp_path):
    path = tmp_path / "season.toml"
    # hand 1 breaks a rule (30 point cards taken); hand 3 has a key no record has
    path.write_text(
        HEADER
        + SCORED.format(taken=30)
        + SCORED.format(taken=15)
        + SCORED.format(taken=15)
        + 'colour = "red"\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1
    assert "hand 3: unknown key 'colour'" in result.output
    path.write_text(HEADER + SCORED.format(taken=30) + SCORED.format(taken=15), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1 and "hand 1: taken = 30 is impossible" in result.output


def test_the_late_hand_notes_follow_each_hands_session(tmp_path):
    """session.hands_per_session = 2: a third hand of session 1 is late, the two hands of
    session 2 are not (the sessions kept from the first reading, the outcomes from the
    second)."""
    (tmp_path / "club.toml").write_text(
        'extends = "standard"\n[session]\nhands_per_session = 2\n', encoding="utf-8"
    )
    lines = [HEADER.replace('"standard"', '"club.toml"')]
    lines += [SCORED.format(taken=15) + "session = 1\n" for _ in range(3)]
    lines += [SCORED.format(taken=15) + "session = 2\n" for _ in range(2)]
    path = tmp_path / "season.toml"
    path.write_text("".join(lines), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    notes = [line for line in result.output.splitlines() if line.startswith("note:")]
    assert notes == [
        "note: the session ended after hand 2 (session.hands_per_session = 2: 2 "
        "hands played); hand 3 came after its end"
    ]


def test_a_record_from_a_pipe_is_read_once(tmp_path):
    text = HEADER + SCORED.format(taken=15) + SCORED.format(taken=12)
    done = subprocess.run(
        [sys.executable, "-m", "mighty_cli", "replay", "/dev/stdin", "--json"],
        input=text,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert '"totals"' in done.stdout and done.stdout.count('"status": "scored"') == 2


def _piped(args, text, cwd):
    return subprocess.run(
        [sys.executable, "-m", "mighty_cli", *args],
        input=text,
        capture_output=True,
        text=True,
        cwd=cwd,
    )


def test_a_record_from_a_pipe_replays_as_the_same_file(tmp_path):
    text = HEADER + "".join(
        SCORED.format(taken=taken) + f"session = {1 + n // 3}\n"
        for n, taken in enumerate((15, 12, 17, 20, 13, 11, 19))
    )
    path = tmp_path / "season.toml"
    path.write_text(text, encoding="utf-8")
    for extra in ((), ("--json",)):
        from_file = CliRunner().invoke(cli, ["replay", str(path), *extra])
        assert from_file.exit_code == 0, from_file.output
        piped = _piped(["replay", "/dev/stdin", *extra], text, tmp_path)
        assert piped.returncode == 0, piped.stderr
        assert piped.stdout.replace("/dev/stdin", str(path)) == from_file.output


def test_a_late_hands_shape_error_comes_first_from_a_pipe_too(tmp_path):
    """The pipe is copied as the first reading checks it, and replayed from the copy: the
    order of the errors is the file's."""
    text = (
        HEADER
        + SCORED.format(taken=30)
        + SCORED.format(taken=15)
        + SCORED.format(taken=15)
        + 'colour = "red"\n'
    )
    piped = _piped(["replay", "/dev/stdin"], text, tmp_path)
    assert piped.returncode == 1 and piped.stdout == ""
    assert "hand 3: unknown key 'colour'" in piped.stderr
    piped = _piped(["replay", "/dev/stdin"], HEADER + SCORED.format(taken=30), tmp_path)
    assert piped.returncode == 1 and "hand 1: taken = 30 is impossible" in piped.stderr


def test_a_pipe_of_endless_short_lines_is_refused_at_the_hand_limit(monkeypatch):
    """No [[hands]] header ever comes: the header would grow without end; it stops at
    limits.RECORD_BLOCK_MAX_BYTES (made small here)."""
    import io

    import pytest

    from mighty_cli.engine.errors import RecordError
    from mighty_cli.engine.records import stream as record_stream

    monkeypatch.setattr(record_stream, "RECORD_BLOCK_MAX_BYTES", 1 << 16)
    endless = io.StringIO(HEADER + "# y\n" * 200_000)
    with pytest.raises(RecordError) as error:
        record_stream.stream_record(endless, "<pipe>")
    assert str(error.value) == (
        "<pipe>: line 1: a hand (or the header) longer than 0 MiB: not a file this tool reads"
    )


def test_a_record_from_a_pipe_imports_hand_by_hand(tmp_path):
    text = HEADER + "".join(SCORED.format(taken=taken) + "session = 1\n" for taken in (15, 12, 17))
    db = f"sqlite:///{tmp_path / 'club.db'}"
    piped = _piped(["import", "/dev/stdin", "-l", "club", "--db", db], text, tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.startswith("Imported 3 hands into club (hands 1-3, session 1).")
    path = tmp_path / "season.toml"
    path.write_text(text, encoding="utf-8")
    assert CliRunner().invoke(cli, ["import", str(path), "-l", "copy", "--db", db]).exit_code == 0
    standings = [
        CliRunner().invoke(cli, ["standings", "-l", name, "--json", "--db", db]).output
        for name in ("club", "copy")
    ]
    assert standings[0] == standings[1].replace('"copy"', '"club"')


def test_an_import_names_its_sessions_as_runs():
    from mighty_cli.cli.import_export import number_ranges

    assert number_ranges([1, 2, 3]) == "1-3"
    assert number_ranges([4]) == "4"
    assert number_ranges([1, 2, 3, 5, 7, 8, 9, 12]) == "1-3, 5, 7-9, 12"
    assert number_ranges(list(range(1, 20_001))) == "1-20000"
