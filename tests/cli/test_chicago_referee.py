"""8마 Chicago at the referee (000 §3.5.3): a hand whose discard names a card twice (both copies,
written alike) typed through the CLI with --seed, scored as the engine scores it, saved and
replayed to the same result."""

from __future__ import annotations

import json
import random

from mighty_cli.cli import cli
from mighty_cli.engine import hand as engine
from mighty_cli.engine.cards import format_cards
from mighty_cli.engine.ruleset import load_ruleset
from sizes_script import names, play_out, seeded_deal, typed_lines
from test_referee_sizes import first_proposal


def _hand_discarding_both_copies(rules, players, dealer, opener, deal):
    """A random legal hand of this deal whose discard holds both copies of a card."""
    for attempt in range(2000):
        rng = random.Random(attempt)
        state = engine.new_hand(rules, players, dealer, deal, opener=opener)
        while state.phase not in ("done", "deal_miss", "redeal"):
            action = engine.random_legal_action(state, rng)
            if isinstance(action, engine.DeclareDealMiss):
                break
            if isinstance(action, engine.Discard) and len(
                {card & 127 for card in action.cards}
            ) == len(action.cards):
                break  # not the hand this test wants
            state = engine.apply(state, action)
        if state.phase == "done":
            return state
    raise AssertionError("no hand discarding both copies of a card")


def test_referee_discard_naming_a_card_twice(runner, tmp_path):
    rules = load_ruleset("chicago-6")
    present = names(6)
    args = ["-r", "chicago-6", "--players", ",".join(present), "--seed", "5"]
    dealer, opener, playing = first_proposal(runner, args)
    state = _hand_discarding_both_copies(
        rules, playing, dealer, opener, seeded_deal(rules, playing, 5, 1)
    )
    discard = next(action for action in state.history if isinstance(action, engine.Discard))
    lines = typed_lines(state)
    typed = next(line for line in lines if format_cards(discard.cards).lower() in line.lower())
    words = format_cards(discard.cards).split()
    assert len(set(words)) < len(words), typed  # the referee is typed a card twice: "sk sk ..."
    saved = tmp_path / "chicago.toml"
    result = runner.invoke(
        cli, ["referee", *args, "--save", str(saved)], input="\n".join(lines) + "\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "✗" not in result.output, result.output
    expected = engine.hand_result(state).deltas
    replayed = json.loads(runner.invoke(cli, ["replay", str(saved), "--json"]).output)
    assert replayed["hands"][0]["deltas"] == expected and sum(expected.values()) == 0
    assert len({card & 127 for card in discard.cards}) < len(discard.cards)


def test_chicago_evening_deal_file_and_resume_name_a_card_twice(runner, tmp_path):
    """An evening dealt from a Chicago deal file (a hand naming a card twice: both copies) starts,
    and its hand in progress resumes from the saved evening, then scores as the engine does."""
    from evening_script import parse_proposal
    from mighty_cli.engine.cards import parse_cards
    from mighty_cli.engine.records import load_record

    rules, present = load_ruleset("chicago-6"), names(6)
    dealt = tmp_path / "deals.toml"
    assert (
        runner.invoke(
            cli,
            [
                "deal",
                "-r",
                "chicago-6",
                "--seed",
                "3",
                "--players",
                ",".join(present),
                "-o",
                str(dealt),
            ],
        ).exit_code
        == 0
    )
    texts = load_record(dealt).hands[0]["deal"]
    assert any(len(set(text.split())) < len(text.split()) for text in texts.values())
    saved = tmp_path / "evening.toml"
    first = runner.invoke(
        cli,
        [
            "referee",
            "-r",
            "chicago-6",
            "--players",
            ",".join(present),
            "--deal",
            str(dealt),
            "--save",
            str(saved),
        ],
        input="quit\n",
    )
    assert first.exit_code == 0, first.output
    _number, dealer, opener, _out, playing = parse_proposal(first.output)
    deal = {who: parse_cards(text, copies=True) for who, text in texts.items()}
    state = play_out(rules, playing, dealer, opener, deal, seed=2)
    lines = typed_lines(state)
    for part in (lines[:3], lines[3:]):  # stopped after the first bids, resumed twice
        result = runner.invoke(
            cli, ["referee", "--resume", str(saved)], input="\n".join(part) + "\nquit\n"
        )
        assert result.exit_code == 0, result.output
        assert "✗" not in result.output, result.output
    replayed = json.loads(runner.invoke(cli, ["replay", str(saved), "--json"]).output)
    assert replayed["hands"][0]["deltas"] == engine.hand_result(state).deltas
