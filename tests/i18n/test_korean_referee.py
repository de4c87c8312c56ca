"""The referee in Korean: with LANG=ko_KR.UTF-8 the prompts, the table view and the refusals
speak the clubs' words, and Korean entries (패스, 스페이드 14, 14 노기, 마이티, 조커, 노프렌드, 초구,
스페이드 A, 다이아 10) are read at the prompt exactly as the notation they stand for."""

from __future__ import annotations

from pathlib import Path

import pytest

from mighty_cli.cli import cli
from mighty_cli.engine.cards import parse_cards
from mighty_cli.engine.records import load_record
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.engine.translation import set_language
from mighty_cli.table.referee_session import RefereeSession

PLAYERS = ["민수", "Bo", "Cy", "Di", "Ed"]
KOREAN_DESKTOP = {"MIGHTY_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "ko_KR.UTF-8"}
#: The deal these tests play, from a file so that their exact lines hold whatever the deal
#: algorithm: Bo holds ♠K ♠10 ♠7 ♠5 ◆A ◆J ◆10 ◆6 ♥A ♥Q ♥6 ♣Q ♣7 after the kitty.
ELECTION_KO = ["패스", "스페이드 14", "패스", "패스", "패스"]
ELECTION_EN = ["pass", "14s", "pass", "pass", "pass"]
DISCARD_KO, DISCARD_EN = "클로버 7 하트 6 다이아 6", "c7 h6 d6"
DEAL_FILE = Path(__file__).resolve().parents[1] / "data" / "korean_referee_deal.toml"
DEAL = {who: parse_cards(text) for who, text in load_record(DEAL_FILE).hands[0]["deal"].items()}


def referee_korean(runner, lines: list[str]):
    return runner.invoke(
        cli,
        ["referee", "--players", ",".join(PLAYERS), "--deal", str(DEAL_FILE)],
        input="\n".join(lines) + "\n",
        env=KOREAN_DESKTOP,
        prog_name="mighty",
    )


def test_refereed_hand_in_korean_with_a_rule_violation_at_the_prompt(runner):
    # 마이티 calls the Mighty card: with spades trump that is the alternate Mighty ◆A.
    result = referee_korean(
        runner, ELECTION_KO + [DISCARD_KO, "마이티", "스페이드 K", "하트 A", "table"]
    )
    lines = result.output.splitlines()
    assert lines[0] == "표준 마이티 (Standard Mighty) (standard); 참석 민수, Bo, Cy, Di, Ed"
    assert lines[1] == (
        "— 1번째 판: 딜러 민수, 선 민수; 플레이어 민수, Bo, Cy, Di, Ed "
        "(첫 공약 전에 바꿀 수 있습니다: 딜러/선/쉬기 이름)"
    )
    assert lines[3] == "선거: 아직 공약 없음; 민수 차례"
    assert lines[4] == "민수의 패: ♠8 ◆K ◆Q ◆5 ♥8 ♥5 ♥4 ♣10 ♣9 ♣3"  # what the bidder holds
    assert lines[5] == (
        "입력 방법은 'help'(도움말), 테이블 전체는 'table'(보기), 되돌리기는 'undo'(무르기)"
    )
    assert lines[6] == "[선거] 민수 공약: ✓ 민수 패스"
    assert lines[8] == "[선거, 현재 Bo의 14♠] Cy 공약: ✓ Cy 패스"
    assert lines[10] == "[선거, 현재 Bo의 14♠] Ed 공약: ✓ Ed 패스; Bo 주공, 공약 14♠"
    assert lines[11] == "[바닥] Bo가 3장을 버립니다 (공약 14♠): ✓ Bo가 3장을 버렸습니다"
    assert lines[12] == (
        "[프렌드] Bo가 프렌드를 부르거나 공약을 바꿉니다 (지금 14♠): ✓ 프렌드 지정: ◆A"
    )
    assert lines[13] == (
        "  · Bo 1턴 선 · 점수 여당 0 / 야당 0 · 프렌드 (◆A) 모름 · "
        "Bo의 패: ♠K ♠10 ♠7 ♠5 ◆A ◆J ◆10 ♥A ♥Q ♣Q"
    )
    # the refusal: in Korean, naming trick, player, card and rule (its option name untranslated),
    # and nothing changed: the same glance again
    assert lines[14] == (
        "[1턴] Bo 차례: ✗ 1턴: Bo가 SK을 선으로 냈지만 다른 무늬 카드도 있고 "
        "기루다는 스페이드입니다 (기루다만 가진 경우가 아니면 초구에 기루다를 선으로 "
        "낼 수 없음; play.trump_lead = not_first_trick)"
    )
    assert lines[15] == lines[13]
    assert lines[16] == "[1턴] Bo 차례: ✓ Bo ♥A"
    # the table view, drawn in full
    table = lines[lines.index("딜러 민수; 플레이어 민수, Bo, Cy, Di, Ed", 4) :]
    assert table[:7] == [
        "딜러 민수; 플레이어 민수, Bo, Cy, Di, Ed",
        "주공 Bo, 공약 14♠",
        "프렌드 지정 ◆A: 아직 모름",
        "가져간 점수카드: 여당 0, 야당 0 (프렌드를 몰라 야당에 셉니다)",
        "1턴: ♥ 선; 바닥에 Bo ♥A; Bo가 이기는 중; Cy 차례",
        "Cy의 패: ♠Q ♠6 ♠3 ♠2 ◆9 ◆8 ◆2 ♥7 ♣A ♣8",
        "남은 카드: 민수 10, Bo 9, Cy 10, Di 10, Ed 10",
    ]
    assert "[1턴, ♥ 선, Bo의 ♥A가 이기는 중] Cy 차례: " in result.output


def test_referee_refusals_of_its_own_in_korean(runner):
    result = referee_korean(runner, ["무르기", "undo to 3", "miss", "hand", "도움말"])
    assert "[선거] 민수 공약: 무를 것이 없습니다" in result.output
    assert "✗ 딜 미스를 선언한 플레이어를 적어 주세요: 딜 미스 이름" in result.output
    assert (
        "  프렌드:    주공이 공약을 바꾸면 먼저 새 공약 (공약 스페이드 16), 그다음 프렌드 지정:\n"
        "             스페이드 A, 마이티 (프렌드), 조커 (프렌드), 노프렌드, 초구, 막구, 너 프렌드 "
        "이름\n" in result.output
    )


def test_korean_and_english_entries_referee_the_same_hand(runner, tmp_path):
    saved = {}
    for name, lines in (
        ("ko", ELECTION_KO + [DISCARD_KO, "마이티", "하트 A"]),
        ("en", ELECTION_EN + [DISCARD_EN, "mighty", "ha"]),
    ):
        path = tmp_path / f"{name}.toml"
        result = runner.invoke(
            cli,
            [
                "referee",
                "--players",
                ",".join(PLAYERS),
                "--deal",
                str(DEAL_FILE),
                "--save",
                str(path),
            ],
            input="\n".join(lines) + "\n",
        )
        assert result.exit_code == 0, result.output
        saved[name] = path.read_text(encoding="utf-8")
    assert saved["ko"] == saved["en"]
    assert 'friend = "DA"' in saved["ko"] and 'tricks = [\n    "HA",' in saved["ko"]


# --- each Korean word at the prompt, against the notation it stands for ----------------------


def session_at(entries: list[str]) -> RefereeSession:
    deal = dict(DEAL)
    session = RefereeSession(load_ruleset("standard"), "standard", list(PLAYERS), PLAYERS[0], deal)
    for entry in entries:
        out = session.handle(entry)
        assert out and out[0].startswith("✓"), out
    return session


@pytest.mark.parametrize(
    "korean, english, before",
    [
        ("패스", "pass", []),
        ("스페이드 14", "14s", []),
        ("14 노기", "14nt", []),
        ("다이아 14", "14d", []),
        ("마이티", "mighty", ELECTION_EN + [DISCARD_EN]),
        ("조커", "joker", ELECTION_EN + [DISCARD_EN]),
        ("노프렌드", "none", ELECTION_EN + [DISCARD_EN]),
        ("초구", "first-trick", ELECTION_EN + [DISCARD_EN]),
        ("막구", "last-trick", ELECTION_EN + [DISCARD_EN]),
        ("스페이드 A", "sa", ELECTION_EN + [DISCARD_EN]),
        ("공약 스페이드 16", "contract 16s", ELECTION_EN + [DISCARD_EN]),
        ("다이아 10", "d10", ELECTION_EN + [DISCARD_EN, "mighty"]),
        ("하트 A", "ha", ELECTION_EN + [DISCARD_EN, "mighty"]),
        ("클로버 Q", "cq", ELECTION_EN + [DISCARD_EN, "mighty"]),
    ],
)
def test_korean_entry_is_the_notation(korean, english, before):
    said_in_korean, said_in_english = session_at(before), session_at(before)
    out = said_in_korean.handle(korean)
    assert out == said_in_english.handle(english)
    assert said_in_korean.state.history == said_in_english.state.history
    # accepted, except 막구 which the standard rules refuse (friend.last_trick = false): the
    # refusal names the last-trick call, so the Korean word was read as that call
    assert out[0].startswith("✓" if korean != "막구" else "✗ exchange: Bo called last-trick"), out


def test_korean_entries_mix_with_names_and_english():
    session = session_at([])
    session.handle("패스")
    assert session.handle("Bo 스페이드 14")[0] == "✓ Bo 14♠"  # naming the bidder
    assert session.handle("Cy 패스")[0] == "✓ Cy pass"
    assert session.handle("14 노기")[0] == "✓ Di 14 no-trump"  # no-trump beats 14♠
    assert session.handle("Ed 스페이드 14")[0].startswith("✗")  # a suit at 14 does not


def test_diamond_ten_is_a_bid_in_the_election_and_a_card_in_play():
    # in the election 다이아 10 is the bid 10D, refused as below the minimum (a bid, not a card)
    out = session_at([]).handle("다이아 10")
    assert out == ["✗ election: 민수 bid 10D below the minimum 13 (election.min_bid)"]
    play = session_at(ELECTION_EN + [DISCARD_EN, "mighty"])
    assert play.handle("다이아 10") == ["✓ Bo ◆10"]


def test_korean_words_are_offered_for_completion():
    from mighty_cli.table.evening import Evening

    evening = Evening(load_ruleset("standard"), "standard", list(PLAYERS), deals=[dict(DEAL)])
    evening.start_hand()
    words = evening.completions()
    assert {"패스", "스페이드", "노기루다", "무르기"} <= set(words)
    evening.hand = session_at(ELECTION_EN + [DISCARD_EN])
    assert {"마이티", "조커", "노프렌드", "초구", "막구"} <= set(evening.completions())
    evening.hand = session_at(ELECTION_EN + [DISCARD_EN, "mighty"])
    assert {"조커", "스페이드", "D10"} <= set(evening.completions())


def test_english_entries_keep_working_in_korean():
    set_language("ko")
    session = session_at([])
    assert session.handle("pass")[0] == "✓ 민수 패스"
    assert session.handle("14s")[0] == "✓ Bo 14♠"


def test_referee_stores_a_hand_into_a_league_in_korean(runner, tmp_path):
    from tests.cli.test_referee import line_for, played_hand
    from tests.cli.test_referee import session_for as english_session

    db = f"sqlite:///{tmp_path / 'league.db'}"
    assert (
        runner.invoke(
            cli, ["league", "create", "목요리그", "--ruleset", "standard", "--db", db]
        ).exit_code
        == 0
    )
    final, deal = played_hand(17)
    path = tmp_path / "hand.toml"
    english_session(deal, save_path=path).handle("save")
    lines = "\n".join(line_for(a) for a in final.history) + "\n종료\n"
    result = runner.invoke(
        cli,
        ["referee", "--resume", str(path), "--league", "목요리그", "--db", db],
        input=lines,
        env=KOREAN_DESKTOP,
    )
    assert result.exit_code == 0, result.output
    assert "목요리그 리그에 1번째 판으로 저장했습니다 (1회차)" in result.output
    assert "1판 뒤 회차 합계:" in result.output
    assert "— 2번째 판: 딜러 " in result.output
