"""허니문 at the referee: ``none`` (노프렌드) is refused in one line saying why. The declarer's
friend is always his own friend hand, so "no friend" is no call of this game; before, the tool
took ``none`` as one more short form of that call, which a club would not expect."""

from __future__ import annotations

import pytest

from mighty_cli.cli import cli
from test_referee_honeymoon import ARGS, ASK, CALLED, seeded_hand

REFUSED = (
    "✗ no friend (노프렌드) under 허니문: Bo's friend is always his own friend hand "
    "Bo's friend (table.partner_hands); type 'friend' or his first card"
)


@pytest.mark.parametrize("entry", ["none", "no", "nf", "노프렌드", "노프", "None"])
def test_honeymoon_none_is_refused_in_one_line_and_the_call_stays_to_make(runner, entry):
    _state, lines, call = seeded_hand()
    result = runner.invoke(
        cli, ARGS, input="\n".join(lines[:call] + [entry, "friend"]) + "\nquit\n"
    )
    assert result.exit_code == 0, result.output
    out = result.output.splitlines()
    assert ASK + REFUSED in out
    # nothing changed: the same question, then the only call is made as usual
    assert ASK + CALLED in out
    assert out.index(ASK + REFUSED) < out.index(ASK + CALLED)


def test_honeymoon_none_is_refused_in_korean(runner, monkeypatch):
    monkeypatch.setenv("MIGHTY_LANG", "ko")
    _state, lines, call = seeded_hand()
    result = runner.invoke(cli, ARGS, input="\n".join(lines[:call] + ["노프렌드"]) + "\nquit\n")
    assert result.exit_code == 0, result.output
    assert (
        "✗ 허니문에는 노프렌드가 없습니다: Bo의 프렌드는 언제나 자기 프렌드 패 Bo's friend"
        "입니다 (table.partner_hands); '프렌드' 또는 첫 카드를 입력하세요"
    ) in result.output
