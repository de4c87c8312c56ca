"""The engine's refusals in Korean: with LANG=ko_KR.UTF-8 a refused bid, discard or card is one
Korean line naming the player, the card or call and the rule (its option name untranslated), and
a revoke caught in open cards still gets its hint, found from the error's ``proving_trick``
rather than from its English wording."""

from __future__ import annotations

from test_korean_referee import ELECTION_KO, PLAYERS, referee_korean

from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.engine.translation import set_language
from mighty_cli.table.referee_session import RefereeSession


def prompt_lines(result) -> list[str]:
    return [line for line in result.output.splitlines() if "✗" in line]


def test_bid_below_the_minimum_in_korean(runner):
    result = referee_korean(runner, ["스페이드 12"])
    assert prompt_lines(result) == [
        "[선거] 민수 공약: ✗ 선거: 민수가 12S를 불렀지만 최소 공약 13보다 낮습니다 "
        "(election.min_bid)"
    ]


def test_discard_not_held_in_korean(runner):
    result = referee_korean(runner, ELECTION_KO + ["스페이드 A 하트 6 다이아 6"])
    assert prompt_lines(result) == [
        "[바닥] Bo가 3장을 버립니다 (공약 14♠): ✗ 바닥: Bo가 SA를 버렸지만 그 카드가 "
        "없습니다 (가진 13장: SK S10 S7 S5 DA DJ D10 D6 HA HQ H6 CQ C7)"
    ]


def revoke_at_trick_two(session: RefereeSession) -> list[str]:
    """Bo shows out of hearts on trick 1, then plays a heart on trick 2 (open cards)."""
    for line in ["13s", "pass", "pass", "pass", "pass", "sa"]:
        session.handle(line)  # 민수 declares 13S, discards unseen, calls the Mighty friend
    for line in ["h2", "c5", "h3", "h4", "h5"]:
        session.handle(line)
    leader = session.state.to_move
    order = PLAYERS[PLAYERS.index(leader) :] + PLAYERS[: PLAYERS.index(leader)]
    cards = iter(["d2", "d3", "d4", "d5", "d6"])
    for _player in order[: order.index("Bo")]:
        session.handle(next(cards))
    return session.handle("h9")


def test_open_cards_revoke_carries_its_proving_trick_for_the_hint_in_english():
    session = RefereeSession(load_ruleset("standard"), "standard", list(PLAYERS), PLAYERS[0], None)
    out = revoke_at_trick_two(session)
    assert out[0] == (
        "✗ trick 2: Bo played H9 but showed out of ♥ on trick 1 (revoke: must follow suit)"
    )
    assert out[1].startswith(
        "  trick 1 proves the void. If the earlier card was the mistake, "
        "'undo to 1' goes back to the start of trick 1"
    )


def test_open_cards_revoke_in_korean_names_both_tricks_and_keeps_its_hint():
    set_language("ko")
    session = RefereeSession(load_ruleset("standard"), "standard", list(PLAYERS), PLAYERS[0], None)
    for line in ["13s", "pass", "pass", "pass", "pass", "sa"]:
        session.handle(line)  # 민수 declares 13S, discards unseen, calls the Mighty friend
    for line in ["h2", "c5", "h3", "h4", "h5"]:
        session.handle(line)  # trick 1: Bo shows out of hearts with a club
    leader = session.state.to_move
    order = PLAYERS[PLAYERS.index(leader) :] + PLAYERS[: PLAYERS.index(leader)]
    cards = iter(["d2", "d3", "d4", "d5", "d6"])
    for player in order:
        if player == "Bo":
            break
        session.handle(next(cards))
    assert session.handle("h9") == [
        "✗ 2턴: Bo가 H9를 냈지만 1턴에 ♥가 없다고 보였습니다 (리보크: 같은 무늬를 내야 함)",
        "  1턴에서 그 무늬가 없다는 것이 드러났습니다. 앞의 카드가 잘못이었다면 'undo to 1'로 1턴 "
        "처음으로 돌아가 다시 내고, 아니면 낼 수 있는 카드를 입력하세요 (standard 룰도 출처들도 "
        "리보크 벌칙을 정하지 않습니다)",
    ]


def test_record_into_a_league_with_no_open_session_is_one_korean_line(runner):
    from mighty_cli.cli import cli

    env = {"MIGHTY_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "ko_KR.UTF-8"}
    created = runner.invoke(
        cli, ["league", "create", "화요", "--ruleset", "standard"], prog_name="mighty"
    )
    assert created.exit_code == 0, created.output
    result = runner.invoke(cli, ["record", "-l", "화요"], input="", env=env, prog_name="mighty")
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "오류: '화요' 리그에 진행 중인 회차가 없습니다; 'mighty session start --league 화요 "
        "--players ...'로 시작하세요"
    ]
