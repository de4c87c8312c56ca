"""The rest of the engine's refusals in Korean: a bad record through ``mighty replay``, a bad
contract through ``mighty score``, a bad formula in a ruleset, a bad elimination call, a bad name,
a bad deal, a bad TOML file, a phase error and a session end, each one Korean line still naming
hand, trick, player, card and rule (option names such as ``play.trump_lead`` untranslated), and
a short trick counted right in both languages ("1 card", never "1 cards")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mighty_cli.cli import cli
from mighty_cli.engine.cards import parse_bid, parse_card, parse_cards
from mighty_cli.engine.errors import MightyError, RecordError
from mighty_cli.engine.hand import BidCall, Discard, Eliminate, apply, new_hand
from mighty_cli.engine.records import read_record
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.engine.ruleset.formulas import compile_expression
from mighty_cli.engine.session import session_over
from mighty_cli.engine.translation import set_language

#: ``mighty deal --seed 1``, P1 declaring 14♠ and discarding three clubs.
HAND = """format = "mighty-hand-record/1"
ruleset = "standard"
players = ["P1", "P2", "P3", "P4", "P5"]

[[hands]]
dealer = "P1"
election = ["P1 14S", "P2 pass", "P3 pass", "P4 pass", "P5 pass"]
discard = "C4 C8 C10"
[hands.deal]
P1 = "SQ S10 S7 DQ D6 D3 CJ C10 C8 C4"
P2 = "JK SK S9 S8 S4 S3 DJ D4 H8 C9"
P3 = "SJ S6 D7 D5 HA H6 H5 H2 C5 C2"
P4 = "S2 DK D10 D9 HQ HJ H10 H3 CA CQ"
P5 = "SA S5 DA D8 D2 HK H9 H7 CK C7"
kitty = "H4 C6 C3"
"""
HEADER = """format = "mighty-hand-record/1"
ruleset = "standard"
players = ["민수", "Bo", "Cy", "Di", "Ed"]
"""


def full_hand(*lines: str) -> str:
    """The seeded hand with more keys of its own (before its deal table)."""
    return HAND.replace("[hands.deal]", "\n".join(lines) + "\n[hands.deal]")


def recorded_hand(*lines: str) -> str:
    return HEADER + '\n[[hands]]\ndealer = "민수"\n' + "\n".join(lines) + "\n"


def korean(runner, *args):
    return runner.invoke(cli, ["--lang", "ko", *args], prog_name="mighty")


def replay_error(runner, tmp_path, text: str, language: str = "ko") -> str:
    """The one line ``mighty replay`` refuses the record with (exit 1, nothing else)."""
    path = tmp_path / "hand.toml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(cli, ["--lang", language, "replay", str(path)], prog_name="mighty")
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1, lines
    return lines[0].replace(f"{tmp_path}/", "")  # the file as the user named it


@pytest.fixture
def in_korean():
    set_language("ko")
    yield
    set_language("en")


# --- records (record_replay, record_values, record_file), through mighty replay ----------------


def test_a_revoke_in_a_record_is_one_korean_sentence(runner, tmp_path):
    text = full_hand('friend = "SA"', 'tricks = ["DQ DJ D7 D9 D8", "D3 H8"]')
    assert replay_error(runner, tmp_path, text) == (
        "오류: 1판: 2턴: P2가 H8을 냈지만 ◆가 있는데 ◆가 선으로 나왔습니다 (같은 무늬를 내야 함)"
    )


def test_a_barred_trump_lead_in_a_record_keeps_its_option_name(runner, tmp_path):
    text = full_hand('friend = "SA"', 'tricks = ["SQ"]')
    assert replay_error(runner, tmp_path, text) == (
        "오류: 1판: 1턴: P1이 SQ을 선으로 냈지만 다른 무늬 카드도 있고 기루다는 "
        "스페이드입니다 (기루다만 가진 경우가 아니면 초구에 기루다를 선으로 낼 수 없음; "
        "play.trump_lead = not_first_trick)"
    )


def test_a_short_trick_is_one_card_in_both_languages(runner, tmp_path):
    text = full_hand('friend = "SA"', 'tricks = ["DQ", "D6"]')
    assert (
        replay_error(runner, tmp_path, text)
        == "오류: 1판 1턴: 카드가 1장만 나왔는데 2턴이 이어집니다"
    )
    assert (
        replay_error(runner, tmp_path, text, "en")
        == "Error: hand 1, trick 1: only 1 card was played but trick 2 follows"
    )


def test_a_lowered_contract_in_korean(runner, tmp_path):
    text = full_hand('contract = "13S"')
    assert replay_error(runner, tmp_path, text) == (
        "오류: 1판: 바닥: P1이 공약을 바꿨습니다: 13S은 부른 공약 14S보다 낮습니다 "
        "(공약은 내려갈 수 없음)"
    )


def test_a_trump_change_without_its_raise_in_korean(runner, tmp_path):
    text = full_hand('contract = "14D"')
    assert replay_error(runner, tmp_path, text) == (
        "오류: 1판: 바닥: P1이 공약을 바꿨습니다: 14D: 기루다를 스페이드에서 다이아로 "
        "바꾸면 공약이 2 올라 16 이상이어야 합니다 (exchange.raise_suit_change)"
    )


def test_a_friend_call_that_is_not_one_in_korean(runner, tmp_path):
    text = full_hand('friend = "zz"')
    assert replay_error(runner, tmp_path, text) == (
        "오류: 1판: friend: 'zz'는 프렌드 지정이 아닙니다: 카드, joker(조커), mighty(마이티), "
        "none(노프렌드), first-trick(초구), last-trick(막구), player:이름(너 프렌드) 중 하나여야 "
        "합니다"
    )


def test_the_wrong_opener_in_korean(runner, tmp_path):
    text = recorded_hand('election = ["Bo 13S"]')
    assert replay_error(runner, tmp_path, text) == (
        "오류: 1판: 선거: Bo가 13S으로 선거를 열었지만 이 판은 민수가 엽니다 "
        "(election.opener = previous_declarer)"
    )


def test_a_declarer_his_own_friend_in_korean(runner, tmp_path):
    text = recorded_hand('declarer = "Bo"', 'contract = "14S"', 'friend = "Bo"', "taken = 15")
    assert (
        replay_error(runner, tmp_path, text)
        == '오류: 1판: Bo는 자기 자신의 프렌드가 될 수 없습니다 (노프렌드 주공은 friend = "none")'
    )


def test_an_impossible_taken_in_korean(runner, tmp_path):
    text = recorded_hand('declarer = "Bo"', 'contract = "14S"', 'friend = "Cy"', "taken = 25")
    assert replay_error(runner, tmp_path, text) == (
        "오류: 1판: taken = 25는 나올 수 없습니다: standard 룰의 점수카드는 0장에서 20장까지입니다"
    )


def test_a_friend_who_does_not_play_in_korean(runner, tmp_path):
    text = recorded_hand('declarer = "Bo"', 'contract = "14S"', 'friend = "Zed"', "taken = 15")
    assert replay_error(runner, tmp_path, text) == (
        "오류: 1판: friend = 'Zed'는 이 판의 플레이어가 아닙니다 (민수, Bo, Cy, Di, Ed)"
    )


def test_an_unknown_key_in_a_hand_in_korean(runner, tmp_path):
    text = recorded_hand('declarer = "Bo"', 'contract = "14S"', "taken = 15", 'trumps = "S"')
    line = replay_error(runner, tmp_path, text)
    assert line == "오류: hand.toml: 1판: 모르는 키 'trumps'"


def test_a_wrongly_typed_key_in_korean(runner, tmp_path):
    text = recorded_hand('declarer = "Bo"', "contract = 14", "taken = 15")
    assert (
        replay_error(runner, tmp_path, text)
        == '오류: hand.toml: 1판: contract = 14: "15D", "16NT" 같은 공약이어야 합니다'
    )


# --- deals (deck) and cards ---------------------------------------------------------------------


def test_a_short_hand_in_a_deal_in_korean(runner, tmp_path):
    text = HAND.replace('C10 C8 C4"', 'C10 C8"')  # P1 dealt nine
    assert (
        replay_error(runner, tmp_path, text)
        == "오류: 1판: 딜: P1의 카드가 9장입니다; 10장이어야 합니다"
    )


def test_a_card_dealt_twice_in_korean(runner, tmp_path):
    text = HAND.replace('kitty = "H4 C6 C3"', 'kitty = "H4 C6 SQ"')
    assert (
        replay_error(runner, tmp_path, text) == "오류: 1판: 딜: SQ이 P1과 kitty에게 모두 돌았습니다"
    )


# --- names and files (names, record_file, record_stream, safe_toml) ------------------------------


def test_a_name_with_a_control_character_in_korean(runner, tmp_path):
    text = HEADER.replace('"민수"', '"민\\u001b수"')
    assert replay_error(runner, tmp_path, text) == (
        "오류: hand.toml: players: '민\\u001b수': 2번째 글자에 제어 문자 U+001B가 들어 있습니다"
    )


def test_a_name_twice_in_korean(runner, tmp_path):
    text = HEADER.replace('"Ed"', '"Bo"')
    assert replay_error(runner, tmp_path, text) == "오류: hand.toml: players: 'Bo'가 두 번 나옵니다"


def test_a_record_that_is_not_utf8_in_korean(runner, tmp_path):
    path = tmp_path / "hand.toml"
    path.write_bytes(b"\xff\xfe")
    result = korean(runner, "replay", str(path))
    assert result.exit_code == 1
    assert result.output.startswith(f"오류: {path}: 읽을 수 없습니다: UTF-8 텍스트가 아닙니다 (")


def test_tables_nested_too_deep_in_korean(in_korean):
    with pytest.raises(RecordError) as caught:
        read_record("x = " + "[" * 14 + "]" * 14, source="r.toml")
    assert str(caught.value) == "r.toml: 표나 배열이 12단계보다 깊이 중첩되어 있습니다"


# --- scoring and formulas (scoring, expression) ---------------------------------------------------


def test_a_contract_below_the_minimum_in_korean(runner):
    result = korean(
        runner, "score", "-r", "standard", "--bid", "9", "--trump", "S", "--taken", "12"
    )
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "오류: 공약 9S는 standard 룰의 최소 공약(13)보다 낮습니다"
    ]


def test_an_unknown_name_in_a_ruleset_formula_in_korean(runner, tmp_path):
    path = tmp_path / "club.toml"
    path.write_text(
        'extends = "standard"\n[meta]\nname = "club"\n[scoring]\nformula = "custom"\n'
        'success = "bid * frob"\nfailure = "bid"\n',
        encoding="utf-8",
    )
    result = korean(runner, "ruleset", "check", str(path))
    assert result.exit_code == 1
    (line,) = result.output.splitlines()
    assert "scoring.success" in line  # the ruleset's own wrapper names the file and the key
    assert line.endswith(
        "공식 'bid * frob'에 모르는 이름 'frob'이 있습니다 (변수: bid, taken, "
        "opposition, minimum, max_bid, total; 함수: abs, floor, ceil, min, max)"
    )


@pytest.mark.parametrize(
    "formula, message",
    [
        ("bid +", "공식 'bid +'에서 수, 변수, '(' 중 하나가 와야 하는데 '끝'이 나왔습니다"),
        ("max(bid)", "공식 'max(bid)': max()에는 인수가 2개 이상 있어야 합니다"),
        (
            "bid % 2",
            "공식 'bid % 2'에는 '%'를 쓸 수 없습니다 (수, bid, taken, opposition, minimum, "
            "max_bid, total, + - * / ( ), abs, floor, ceil, min, max만 씀)",
        ),
    ],
)
def test_formula_refusals_in_korean(in_korean, formula, message):
    with pytest.raises(ValueError) as caught:
        compile_expression(formula)
    assert str(caught.value) == message


def test_division_by_zero_in_a_formula_in_korean(in_korean):
    compiled = compile_expression("bid / (taken - taken)")
    with pytest.raises(ZeroDivisionError) as caught:
        compiled({"bid": 14, "taken": 15})
    assert str(caught.value) == "점수 공식에서 0으로 나눴습니다"


# --- a hand in the engine (state, elimination) ---------------------------------------------------

SIX = ("Ana", "Bo", "Cy", "Di", "Ed", "Fay")
DEAL_6 = {
    "Ana": "DQ D9 D2 H6 CA CQ C10 C3",
    "Bo": "SK DA D8 HK H8 H5 C9 C8",
    "Cy": "SQ S10 S7 S6 S3 HA H9 C6",
    "Di": "SA S9 S4 D6 D5 D3 H4 C7",
    "Ed": "JK SJ S2 DK D10 D7 D4 CK",
    "Fay": "S5 DJ HJ H7 H2 C5 C4 C2",
    "kitty": "S8 HQ H10 H3 CJ",
}


def six_handed():
    rules = load_ruleset("standard-6")
    deal = {who: parse_cards(text) for who, text in DEAL_6.items()}
    return new_hand(rules, SIX, "Ana", deal, opener="Ana")


def test_a_discard_during_the_election_in_korean(in_korean):
    with pytest.raises(MightyError) as caught:
        apply(six_handed(), Discard(tuple(parse_cards("C3 D2 D9"))))
    assert str(caught.value) == "선거: 선거 중에는 할 수 없습니다: 카드 버리기"


def declared_six():
    state = apply(six_handed(), BidCall("Ana", parse_bid("14C")))
    for player in SIX[1:]:
        state = apply(state, BidCall(player, None))
    return state


def test_the_declarer_eliminating_himself_in_korean(in_korean):
    with pytest.raises(MightyError) as caught:
        apply(declared_six(), Eliminate(parse_card("CA")))
    assert (
        str(caught.value)
        == "탈락: Ana가 자기가 가진 CA를 불렀습니다 (부른 카드를 가진 플레이어가 탈락함)"
    )


def test_an_elimination_naming_the_wrong_holder_in_korean(in_korean):
    with pytest.raises(MightyError) as caught:
        apply(declared_six(), Eliminate(parse_card("SK"), "Cy"))
    assert str(caught.value) == "탈락: SK은 Cy가 아니라 Bo가 가지고 있습니다"


# --- sessions ------------------------------------------------------------------------------------


def test_a_session_end_in_korean_and_one_hand_in_english():
    standard = load_ruleset("standard")
    rules = replace(
        standard, session=replace(standard.session, hands_per_session=1, starting_points=4)
    )
    assert session_over(rules, 1, {"Cy": -4}) == (
        "session.hands_per_session = 1: 1 hand played; "
        "session.starting_points = 4: Cy is at 0 (-4 "
        "this session)"
    )
    set_language("ko")
    try:
        assert session_over(rules, 1, {"Cy": -4}) == (
            "session.hands_per_session = 1: 1판을 쳤습니다; session.starting_points = 4: "
            "Cy는 0점 (이번 회차 -4)"
        )
    finally:
        set_language("en")
