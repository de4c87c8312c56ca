"""`mighty replay` reads a record file twice, hand by hand, and keeps no hand: the whole file's
shape is checked first (a late hand's unknown key is reported before an early hand's broken
rule, as when the file was held whole), the late-hand notes still name the sessions, and a
pipe, which cannot be read twice, is read once."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from mighty_cli.cli import cli

HEADER = 'format = "mighty-hand-record/1"\nruleset = "standard"\n' \
    'players = ["Ana", "Bo", "Cy", "Di", "Ed"]\n'
SCORED = '[[hands]]\ndeclarer = "Ana"\ncontract = "14S"\nfriend = "Bo"\ntaken = {taken}\n'


def test_a_late_hands_shape_error_comes_before_an_early_hands_rule_error(tmp_path):
    path = tmp_path / "season.toml"
    # hand 1 breaks a rule (30 point cards taken); hand 3 has a key no record has
    path.write_text(HEADER + SCORED.format(taken=30) + SCORED.format(taken=15)
                    + SCORED.format(taken=15) + "colour = \"red\"\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1
    assert "hand 3: unknown key 'colour'" in result.output
    path.write_text(HEADER + SCORED.format(taken=30) + SCORED.format(taken=15),
                    encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1 and "hand 1: taken = 30 is impossible" in result.output


def test_the_late_hand_notes_follow_each_hands_session(tmp_path):
    """session.hands_per_session = 2: a third hand of session 1 is late, the two hands of
    session 2 are not (the sessions kept from the first reading, the outcomes from the
    second)."""
    (tmp_path / "club.toml").write_text('extends = "standard"\n[session]\n'
                                        'hands_per_session = 2\n', encoding="utf-8")
    lines = [HEADER.replace('"standard"', '"club.toml"')]
    lines += [SCORED.format(taken=15) + "session = 1\n" for _ in range(3)]
    lines += [SCORED.format(taken=15) + "session = 2\n" for _ in range(2)]
    path = tmp_path / "season.toml"
    path.write_text("".join(lines), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    notes = [line for line in result.output.splitlines() if line.startswith("note:")]
    assert notes == ["note: the session ended after hand 2 (session.hands_per_session = 2: 2 "
                     "hands played); hand 3 came after its end"]


def test_a_record_from_a_pipe_is_read_once(tmp_path):
    text = HEADER + SCORED.format(taken=15) + SCORED.format(taken=12)
    done = subprocess.run([sys.executable, "-m", "mighty_cli", "replay", "/dev/stdin", "--json"],
                          input=text, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert '"totals"' in done.stdout and done.stdout.count('"status": "scored"') == 2
