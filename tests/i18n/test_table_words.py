"""One vocabulary for the words a table says (``table/words.py``): the referee, ``record`` and
``record --evening`` read the same friend calls, no-friend words, joker call and commands, in
English and Korean; no word means two things at one question; a refusal names the calls in the
language the tool speaks."""

from __future__ import annotations

import pytest
from test_korean_referee import DEAL, DISCARD_EN, ELECTION_EN, PLAYERS, session_at

from mighty_cli.cli import cli
from mighty_cli.engine.ruleset import load_ruleset, ruleset_from_toml
from mighty_cli.engine.translation import set_language
from mighty_cli.table import words
from mighty_cli.table.referee_session import RefereeSession

#: 민수 declares 13H and discards: he leads trick 1 holding ♣3, the joker-call card.
MINSU_DECLARES = ["13h", "pass", "pass", "pass", "pass", "d5 d6 s5"]
#: The words that are read at one question, each with one meaning there.
QUESTIONS = {
    "referee and evening": (words.EVENING, True),
    "record's friend question": (("none", "own-friend", "undo", "quit"), False),
    "record's opening question": (words.RECORD, True),
    "an elimination call": (("kitty", "dummy", "deal"), False),
    "unsaved work on quitting": (words.QUIT_ANSWERS, False),
}


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_no_word_has_two_meanings_at_one_question(question):
    meanings, short = QUESTIONS[question]
    seen: dict[str, str] = {}
    for meaning in meanings:
        spelled = list(words.WORDS[meaning]) + (
            [w for w, m in words.SHORT_FORMS.items() if m == meaning] if short else []
        )
        for word in spelled:
            assert seen.setdefault(words.key(word), meaning) == meaning, (word, question)


def test_each_meaning_has_an_english_word_first_and_a_korean_word():
    for meaning, spelled in words.WORDS.items():
        assert spelled[0].isascii(), meaning
        assert any(not word.isascii() for word in spelled), meaning


def referee(rules=None, before=()):
    session = RefereeSession(
        rules or load_ruleset("standard"), "standard", list(PLAYERS), PLAYERS[0], dict(DEAL)
    )
    for entry in before:
        assert session.handle(entry)[0].startswith("✓"), entry
    return session


@pytest.mark.parametrize(
    "said, notation",
    [
        ("마이티 프렌드", "mighty"),
        ("마이티프렌드", "mighty"),
        ("조커 프렌드", "joker"),
        ("노프렌드", "none"),
        ("노프", "none"),
        ("없음", "none"),
        ("nf", "none"),
        ("NF", "none"),
        ("no", "none"),
        ("-", "none"),
        ("초구 프렌드", "first-trick"),
        ("ft", "first-trick"),
    ],
)
def test_the_referee_takes_the_clubs_friend_calls(said, notation):
    in_words, in_notation = (
        session_at(ELECTION_EN + [DISCARD_EN]),
        session_at(ELECTION_EN + [DISCARD_EN]),
    )
    assert in_words.handle(said) == in_notation.handle(notation)
    assert in_words.state.history == in_notation.state.history


def test_the_referee_takes_a_player_called_as_friend_in_korean():
    rules = ruleset_from_toml(
        'extends = "standard"\n[meta]\nname = "named"\n[friend]\nplayer = true\n', label="named"
    ).ruleset
    said, written = referee(rules, MINSU_DECLARES), referee(rules, MINSU_DECLARES)
    assert said.handle("너 프렌드 Cy") == written.handle("player:Cy") == ["✓ friend call: Cy"]
    assert said.state.history == written.state.history


@pytest.mark.parametrize("said", ["조콜", "조커 콜", "클로버 3 조콜", "c3 조콜", "joker-call"])
def test_the_joker_call_is_the_joker_call_card_led_with_the_call(said):
    in_words = referee(before=MINSU_DECLARES + ["mighty"])
    in_notation = referee(before=MINSU_DECLARES + ["mighty"])
    assert in_words.handle(said) == in_notation.handle("c3!") == ["✓ 민수 ♣3 (joker call)"]
    assert in_words.state.history == in_notation.state.history


@pytest.mark.parametrize("said", ["보기", "테이블", "table", "t", "show", "s"])
def test_every_word_for_the_table_draws_the_table(said):
    session = referee(before=MINSU_DECLARES)
    assert session.handle(said) == session.status()


def test_a_players_cards_are_shown_by_hand_or_pae():
    session = referee(before=MINSU_DECLARES)
    assert (
        session.handle("패 Bo")
        == session.handle("hand Bo")
        == ["Bo: ♠K ♠10 ♠7 ◆A ◆10 ♥A ♥Q ♥6 ♣Q ♣7"]
    )


def test_a_bad_friend_call_names_the_calls_the_ruleset_allows_in_english():
    assert referee(before=MINSU_DECLARES).handle("zz") == [
        "✗ 'zz' is not a friend call: say a card or mighty, joker, none, first-trick"
    ]


def test_a_bad_friend_call_names_the_calls_in_korean_in_korean():
    set_language("ko")
    assert referee(before=MINSU_DECLARES).handle("아무거나") == [
        "✗ '아무거나'는 프렌드 지정이 아닙니다: 카드나 마이티, 조커, 노프렌드, 초구 중 하나로 "
        "부르세요"
    ]


def test_record_takes_every_no_friend_word_the_referee_takes(runner):
    """``record --friend nf`` (and 없음, -, 노프...) records a hand played alone, as the
    referee's friend call takes the same words."""
    assert runner.invoke(cli, ["league", "create", "t", "-r", "standard"]).exit_code == 0
    assert (
        runner.invoke(cli, ["session", "start", "-l", "t", "-p", "Ana,Bo,Cy,Di,Ed"]).exit_code == 0
    )
    for word in words.WORDS["none"]:
        result = runner.invoke(
            cli, ["record", "-l", "t", "-d", "Ana", "-c", "14S", "-f", word, "-t", "15", "--again"]
        )
        assert result.exit_code == 0 and " alone, took 15: made" in result.output, (
            word,
            result.output,
        )
        assert session_at(ELECTION_EN + [DISCARD_EN]).handle(word) == [
            "✓ friend call: no friend (노프렌드)"
        ], word


def test_record_asks_for_the_friend_and_takes_the_korean_no_friend_word(runner):
    assert runner.invoke(cli, ["league", "create", "t", "-r", "standard"]).exit_code == 0
    assert (
        runner.invoke(cli, ["session", "start", "-l", "t", "-p", "Ana,Bo,Cy,Di,Ed"]).exit_code == 0
    )
    result = runner.invoke(cli, ["record", "-l", "t"], input="Ana\n14S\n없음\n15\n")
    assert result.exit_code == 0 and " alone, took 15: made" in result.output, result.output


def test_the_evening_draws_the_table_for_bogi_as_for_table():
    from mighty_cli.table.evening import Evening

    evening = Evening(load_ruleset("standard"), "standard", PLAYERS + ["Fay"], deals=[dict(DEAL)])
    evening.start_hand()
    drawn = evening.handle("table")
    assert evening.handle("보기") == drawn and drawn[-1].startswith("sitting out ")


def test_record_evening_takes_the_deal_miss_in_two_korean_words(runner):
    assert runner.invoke(cli, ["league", "create", "t", "-r", "standard"]).exit_code == 0
    assert (
        runner.invoke(cli, ["session", "start", "-l", "t", "-p", "Ana,Bo,Cy,Di,Ed"]).exit_code == 0
    )
    result = runner.invoke(cli, ["record", "-l", "t", "--evening"], input="딜 미스 Cy\n종료\n")
    assert result.exit_code == 0 and "Hand 1 (session 1): deal miss by Cy" in result.output, (
        result.output
    )


@pytest.mark.parametrize(
    "answer, said",
    [
        ("back", "back to the table"),
        ("돌아가기", "back to the table"),
        ("취소", "back to the table"),
        ("discard", "discarded"),
        ("no", "discarded"),
        ("아니오", "discarded"),
        ("버리기", "discarded"),
    ],
)
def test_quitting_with_unsaved_work_takes_the_answers_in_both_languages(answer, said):
    from mighty_cli.table.evening import Evening

    evening = Evening(load_ruleset("standard"), "standard", list(PLAYERS), interactive=True)
    evening.start_hand()
    evening.handle("13s")
    assert "not saved" in evening.handle("종료")[0]
    assert evening.handle(answer) == [said]
