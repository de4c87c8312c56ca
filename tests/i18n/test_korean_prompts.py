"""Korean input where a score-keeper types a hand: `mighty record` reads the contract the way
clubs say it, by flag and at its prompts, and scores it exactly as the canonical notation."""

from __future__ import annotations

import json

import pytest

from mighty_cli.cli import cli


def ok(runner, *args, input=None):
    result = runner.invoke(cli, list(args), input=input)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def league(runner):
    ok(runner, "league", "create", "tue", "--ruleset", "standard")
    ok(runner, "session", "start", "--league", "tue", "--players", "Ana,Bo,Cy,Di,Ed,김철수")
    return runner


@pytest.mark.parametrize("contract", ["다이아 15", "15 다이아", "15다이아몬드", "◆15"])
def test_record_contract_in_korean_by_flag(league, contract):
    out = ok(league, "record", "-l", "tue", "-d", "Bo", "-c", contract, "-f", "Cy", "-t", "16")
    assert "Bo 15D with Cy, took 16: made" in out


@pytest.mark.parametrize("contract, canonical", [("노기 14", "14NT"), ("스페이드 16", "16S")])
def test_record_contract_in_korean_at_the_prompt(league, contract, canonical):
    out = ok(league, "record", "-l", "tue", input=f"Bo\n{contract}\nCy\n16\n")
    assert f"Bo {canonical} with Cy, took 16" in out


def test_korean_and_canonical_contracts_record_the_same_hand(runner, tmp_path, monkeypatch):
    exports = []
    for contract in ("노기루다 14", "14NT"):
        monkeypatch.setenv("MIGHTY_DB", f"sqlite:///{tmp_path / (str(len(exports)) + '.db')}")
        ok(runner, "league", "create", "tue", "--ruleset", "standard")
        ok(runner, "session", "start", "--league", "tue", "--players", "Ana,Bo,Cy,Di,Ed")
        ok(runner, "record", "-l", "tue", "-d", "Bo", "-c", contract, "-f", "none", "-t", "15")
        data = json.loads(ok(runner, "export", "-l", "tue", "--format", "json"))
        for hand in data["hands"]:  # when each league's session started differs, not the hand
            hand.pop("session_started", None), hand.pop("session_ended", None)
        exports.append(data)
    assert exports[0] == exports[1]
