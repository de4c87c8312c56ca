"""The evening with known deals (`--seed N`: hand k dealt from N and k; `--deal FILE`: the
file's deals in order), the completion offered at the prompt, and the light start of the
open-cards referee."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from evening_script import parse_proposal, play_out, typed_lines
from mighty_cli.cli import cli
from mighty_cli.cli.line_input import LineReader
from mighty_cli.engine import hand as engine
from mighty_cli.engine.cards import format_cards, parse_cards
from mighty_cli.engine.cards.deck import hand_seed
from mighty_cli.engine.records import load_record, replay
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.table.evening import Evening

ROOT = Path(__file__).resolve().parents[2]
FIVE = ["Ana", "Bo", "Cy", "Di", "Ed"]


def seeded_hand(rules, five, dealer, opener, seed):
    """The random legal play of the deal the referee's --seed gives this hand."""
    return playable(rules, five, dealer, opener, engine.deal_cards(seed, five))


def playable(rules, five, dealer, opener, deal):
    """A random legal play of a deal to the end (not a deal miss)."""
    for attempt in range(200):
        state = play_out(rules, five, dealer, opener, deal, random.Random(attempt))
        if state is not None:
            return state
    raise AssertionError("no playable line for that deal")


def test_seeded_league_evening_deals_hand_k_from_seed_and_k(runner, db):
    assert (
        runner.invoke(cli, ["league", "create", "club", "-r", "standard", "--db", db]).exit_code
        == 0
    )
    assert (
        runner.invoke(
            cli, ["session", "start", "-l", "club", "-p", ",".join(FIVE), "--db", db]
        ).exit_code
        == 0
    )
    rules = load_ruleset("standard")
    result = runner.invoke(
        cli, ["referee", "--league", "club", "--db", db, "--seed", "9"], input="q\n"
    )
    for k in (1, 2):
        _, dealer, opener, _, five = parse_proposal(result.output)
        final = seeded_hand(rules, five, dealer, opener, hand_seed(9, k))
        lines = typed_lines(final, open_cards=False)
        # half the hand, a break (the hand in progress is kept), then the rest
        first = runner.invoke(
            cli,
            ["referee", "--league", "club", "--db", db, "--seed", "9"],
            input="\n".join(lines[:7]) + "\nq\n",
        )
        assert first.output.count("✓") == 7, first.output
        result = runner.invoke(
            cli,
            ["referee", "--league", "club", "--db", db, "--seed", "9"],
            input="\n".join(lines[7:]) + "\nq\n",
        )
        assert f"hand {k} resumed at the same card" in result.output
        assert "holds" in result.output  # the deal is known: the cards are shown
        assert f"saved to league club as hand {k}" in result.output, result.output
    shown = json.loads(
        runner.invoke(cli, ["hand", "list", "-l", "club", "--db", db, "--json"]).output
    )["hands"]
    assert [h["status"] for h in shown] == ["scored", "scored"]


def test_deal_file_gives_each_hand_its_deal_in_order(runner, tmp_path):
    dealt = tmp_path / "deals.toml"
    assert (
        runner.invoke(
            cli,
            ["deal", "--seed", "4", "--players", ",".join(FIVE), "--hands", "2", "-o", str(dealt)],
        ).exit_code
        == 0
    )
    deals = [h["deal"] for h in load_record(dealt).hands]
    rules = load_ruleset("standard")
    evening_file = tmp_path / "evening.toml"
    result = runner.invoke(
        cli, ["referee", "--deal", str(dealt), "--save", str(evening_file)], input="q\n"
    )
    assert result.exit_code == 0, result.output
    for k in (0, 1):
        _, dealer, opener, _, five = parse_proposal(result.output)
        deal = {who: parse_cards(text) for who, text in deals[k].items()}
        s = playable(rules, five, dealer, opener, deal)
        result = runner.invoke(
            cli,
            ["referee", "--resume", str(evening_file), "--deal", str(dealt)],
            input="\n".join(typed_lines(s, open_cards=False)) + "\nq\n",
        )
        assert result.exit_code == 0, result.output
    record = load_record(evening_file)
    assert [
        format_cards(engine.parse_play(c)[0] for c in h["deal"]["Ana"].split())
        for h in record.hands
    ] == [deals[0]["Ana"], deals[1]["Ana"]]
    assert [o.status for o in replay(record).hands] == ["scored", "scored"]


def test_completion_offers_names_bids_and_cards():
    evening = Evening(load_ruleset("standard"), "standard", FIVE)
    evening.start_hand()
    words = evening.completions()
    assert "Cy" in words and "13S" in words and "pass" in words and "dealer" in words
    for line in ["13s", "pass", "pass", "pass", "pass", "sa"]:
        evening.handle(line)
    reader = LineReader(complete=evening.completions, interactive=False)
    matches = []
    state = 0
    while (match := reader._completer("ta", state)) is not None:
        matches.append(match)
        state += 1
    assert matches == ["table"]


def test_open_cards_referee_does_not_load_the_database_layer(tmp_path):
    probe = (
        "import json, sys\n"
        "from click.testing import CliRunner\n"
        "from mighty_cli.cli import cli\n"
        "CliRunner().invoke(cli, ['referee', '--players', 'A,B,C,D,E'], input='13s\\nq\\n')\n"
        "CliRunner().invoke(cli, ['where'])\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('sqlmodel', 'sqlalchemy', 'jinja2'))))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []
