"""`mighty replay` in flat memory (mighty_cli/cli/replay.py): each hand is replayed and dropped,
its row (or JSON) spooled, the totals and late-hand notes kept as running sums. Its output is,
byte for byte, what the command printed when it held every outcome (the reference below, the
command's former body), in text, JSON and Korean, with deal misses, the deposit pot, hands in
progress, hands after their session's end and records without sessions; also when the spool
moves to a temporary file. A spool that cannot be written is one line; a rule violation prints
its line and nothing of the table; memory does not grow with the record."""

from __future__ import annotations

import json
import random
import tracemalloc
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from mighty_cli.cli import cli
from mighty_cli.cli import replay as replay_cli
from mighty_cli.engine.cards import format_bid
from mighty_cli.engine.records import Record, dump_record, load_record, record_ruleset, replay
from mighty_cli.engine.scoring import doubling_label
from mighty_cli.engine.session import find_session_end
from mighty_cli.i18n import _, ngettext
from mighty_cli.render.text import table

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
FIVE = ["Ana", "Bo", "Cy", "Di", "Ed"]


def held(path: Path) -> tuple[str, str]:
    """The former ``mighty replay``: every outcome held, then the table (text) and the JSON."""
    record = load_record(path)
    rules = record_ruleset(record)
    result = replay(record, rules)
    as_json = json.dumps(result.to_json(), ensure_ascii=False, indent=2) + "\n"
    lines = [
        ngettext(
            "{path}: {count} hand under {title} ({name})",
            "{path}: {count} hands under {title} ({name})",
            len(result.hands),
        ).format(path=path, count=len(result.hands), title=rules.meta.title, name=rules.name)
    ]
    rows = []
    for outcome in result.hands:
        score = outcome.score
        status = replay_cli.STATUS_LABELS.get(outcome.status)
        rows.append(
            [
                outcome.index,
                _(status) if status else outcome.status,
                outcome.dealer or "",
                outcome.declarer or "",
                format_bid(outcome.contract) if outcome.contract else "",
                outcome.friend or ("-" if outcome.status == "scored" else ""),
                "" if outcome.taken is None else outcome.taken,
                "" if score is None else f"×{score.multiplier}",
                ", ".join(doubling_label(n) for n in score.doublings)
                if score
                else (
                    _("deal miss by {player}").format(player=outcome.deal_miss_player)
                    if outcome.deal_miss_player
                    else ""
                ),
            ]
            + [f"{outcome.deltas.get(p, 0):+d}" for p in record.players]
        )
    lines.append(
        table(
            ["#"] + [_(h) for h in replay_cli.REPLAY_HEADERS] + list(record.players),
            rows,
            align="><<<<<>><" + ">" * len(record.players),
        )
    )
    lines.append(
        table(
            [_("totals")] + list(record.players),
            [[""] + [f"{result.totals[p]:+d}" for p in record.players]],
            align="<" + ">" * len(record.players),
        )
    )
    if result.pot:
        lines.append(_("deposit pot (공탁금) carried over: {pot}").format(pot=result.pot))
    groups: list[list] = []
    session = object()
    for hand, outcome in zip(record.hands, result.hands):
        if not groups or hand.get("session") != session:
            session = hand.get("session")
            groups.append([])
        if outcome.status != "in_progress":
            groups[-1].append(outcome)
    for outcomes in groups:
        end = find_session_end(rules, [(o.status, o.deltas) for o in outcomes])
        if end is not None and end.position < len(outcomes) - 1:
            later = [o.index for o in outcomes[end.position + 1 :]]
            span = (
                _("hand {number} came after its end").format(number=later[0])
                if len(later) == 1
                else _("hands {first}-{last} came after its end").format(
                    first=later[0], last=later[-1]
                )
            )
            lines.append(
                _("note: {note}").format(
                    note=_("the session ended after hand {number} ({reason}); {span}").format(
                        number=outcomes[end.position].index, reason=end.reason, span=span
                    )
                )
            )
    return "\n".join(lines) + "\n", as_json


def sessions_record(tmp_path: Path) -> Path:
    """Scored hands and deal misses (the pot), hands in progress, sessions that end after two
    hands with one, two or no hands after the end, a hand without a session, odd names."""
    (tmp_path / "club.toml").write_text(
        'extends = "standard"\n[session]\nhands_per_session = 2\n[deposit]\nper_deal_miss = 5\n'
        '[election]\nopener = "dealer"\n',
        encoding="utf-8",
    )
    run = load_record(EXAMPLES / "run.toml")
    full = run.hands[0]
    names = run.players
    in_progress = dict(full, tricks=full["tricks"][:3], dealer=full["dealer"])
    rng = random.Random(3)

    def scored() -> dict:
        declarer, friend = rng.sample(names, 2)
        return {
            "declarer": declarer,
            "contract": rng.choice(["14S", "15H", "13C"]),
            "friend": friend,
            "taken": rng.randint(8, 20),
        }

    hands = []
    for session, kinds in ((1, "sss"), (2, "spsss"), (None, "ss"), (3, "msmspss"), (4, "msm")):
        for kind in kinds:
            hand = (
                scored()
                if kind == "s"
                else dict(in_progress)
                if kind == "p"
                else {"deal_miss": rng.choice(names)}
            )
            if session is not None:
                hand["session"] = session
            hands.append(hand)
    hands[0]["dealer"] = names[0]
    path = tmp_path / "sessions.toml"
    path.write_text(
        dump_record(Record(ruleset=str(tmp_path / "club.toml"), players=names, hands=hands)),
        encoding="utf-8",
    )
    return path


def records(tmp_path: Path) -> list[Path]:
    odd = load_record(EXAMPLES / "season.toml")
    renamed = dict(zip(odd.players, ['A "b"', "김철수", "{0} %d", "Bo", "=1"]))
    text = (EXAMPLES / "season.toml").read_text(encoding="utf-8")
    for old, new in renamed.items():
        text = text.replace(f'"{old}"', json.dumps(new, ensure_ascii=False))
    (tmp_path / "odd.toml").write_text(text, encoding="utf-8")
    return [*sorted(EXAMPLES.glob("*.toml")), sessions_record(tmp_path), tmp_path / "odd.toml"]


def invoke(*args: str, lang: str = "en") -> str:
    result = CliRunner().invoke(cli, ["--lang", lang, "replay", *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_replay_prints_what_it_printed_when_it_held_every_hand(tmp_path, lang):
    paths = records(tmp_path)
    notes = 0
    for path in paths:
        with click.Context(cli, obj={}):
            text = invoke(str(path), lang=lang)
            from mighty_cli.i18n import set_language

            set_language(lang)
            try:
                want_text, want_json = held(path)
            finally:
                set_language("en")
        assert text == want_text, path.name
        assert invoke(str(path), "--json", lang=lang) == want_json, path.name
        notes += text.count("\nnote: ") + text.count("\n참고: ")
    assert notes == 3  # the sessions record's hands after their session's end


def test_a_spool_moved_to_a_temporary_file_prints_the_same(tmp_path, monkeypatch):
    path = EXAMPLES / "season.toml"
    text, as_json = invoke(str(path)), invoke(str(path), "--json")
    monkeypatch.setattr(replay_cli, "SPOOL_MEMORY", 100)  # a few rows, then the disk
    assert invoke(str(path)) == text
    assert invoke(str(path), "--json") == as_json


def test_a_spool_that_cannot_be_written_is_one_line(tmp_path, monkeypatch):
    import errno
    import tempfile

    class Full(tempfile.SpooledTemporaryFile):
        def write(self, text):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(replay_cli.tempfile, "SpooledTemporaryFile", Full)
    result = CliRunner().invoke(cli, ["replay", str(EXAMPLES / "season.toml")])
    assert result.exit_code == 1
    assert result.output == (
        "Error: cannot write a temporary file for the replay: No space left on device\n"
    )


def test_a_rule_violation_prints_its_line_and_nothing_else(tmp_path):
    text = (EXAMPLES / "season.toml").read_text(encoding="utf-8")
    last = text.rindex("taken = ")
    path = tmp_path / "late.toml"
    path.write_text(text[:last] + "taken = 35" + text[last + 10 :], encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and "taken = 35" in result.output


def test_replay_memory_does_not_grow_with_the_record(tmp_path, monkeypatch):
    """Python's peak allocations replaying 4× the hands stay about the same (the spool and the
    file reader's chunks kept small, so that both sizes are past them; the output goes to a
    file, not to memory)."""
    import contextlib
    import os

    from mighty_cli.engine.records import stream as record_stream

    monkeypatch.setattr(replay_cli, "SPOOL_MEMORY", 1000)
    monkeypatch.setattr(record_stream, "_CHUNK", 4096)
    season = load_record(EXAMPLES / "season.toml")

    def peak(copies: int, as_json: bool) -> int:
        path = tmp_path / f"season{copies}.toml"
        path.write_text(
            dump_record(
                Record(ruleset=season.ruleset, players=season.players, hands=season.hands * copies)
            ),
            encoding="utf-8",
        )
        with open(os.devnull, "w", encoding="utf-8") as out, contextlib.redirect_stdout(out):
            tracemalloc.start()
            replay_cli.replay_file(str(path), None, as_json)
            top = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        return top

    for as_json in (False, True):
        peak(5, as_json)  # modules and caches loaded
        small, large = peak(20, as_json), peak(80, as_json)  # 600 and 2,400 hands
        assert large < small * 1.2, (as_json, small, large)
