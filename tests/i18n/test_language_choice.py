"""Which language the tool speaks: --lang, then MIGHTY_LANG, then the locale, then English."""

from __future__ import annotations

import pytest

from mighty_cli.cli import cli
from mighty_cli.i18n import choose_language, get_language, language_from_args, set_language

#: The environment of a Korean desktop, with the tests' MIGHTY_LANG=en pin removed.
KOREAN_DESKTOP = {"MIGHTY_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "ko_KR.UTF-8"}


def mighty(runner, args, env=None):
    return runner.invoke(cli, args, env=env, prog_name="mighty")


@pytest.mark.parametrize(
    "option, environ, expected",
    [
        (None, {}, "en"),
        (None, {"LANG": "ko_KR.UTF-8"}, "ko"),
        (None, {"LANG": "en_US.UTF-8"}, "en"),
        (None, {"LANG": "C"}, "en"),
        (None, {"LANG": "fr_FR.UTF-8"}, "en"),
        (None, {"LC_MESSAGES": "ko_KR.UTF-8", "LANG": "en_US.UTF-8"}, "ko"),
        (None, {"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "ko_KR.UTF-8"}, "en"),
        (None, {"LC_ALL": "ko_KR.eucKR"}, "ko"),
        (None, {"MIGHTY_LANG": "ko", "LANG": "en_US.UTF-8"}, "ko"),
        (None, {"MIGHTY_LANG": "en", "LC_ALL": "ko_KR.UTF-8"}, "en"),
        (None, {"MIGHTY_LANG": "klingon", "LANG": "ko_KR.UTF-8"}, "ko"),
        ("en", {"MIGHTY_LANG": "ko", "LANG": "ko_KR.UTF-8"}, "en"),
        ("ko", {"MIGHTY_LANG": "en", "LANG": "en_US.UTF-8"}, "ko"),
        ("KO", {}, "ko"),
    ],
)
def test_language_precedence(option, environ, expected):
    assert choose_language(option, environ) == expected


@pytest.mark.parametrize(
    "args, expected",
    [
        (["--lang", "ko", "--help"], "ko"),
        (["--help", "--lang=ko"], "ko"),
        (["score", "--lang", "ko"], None),  # after the subcommand it is not the group's option
        (["--version"], None),
    ],
)
def test_lang_is_read_before_click_parses(args, expected):
    assert language_from_args(args) == expected


def test_korean_desktop_gets_korean_help(runner):
    result = mighty(runner, ["--help"], env=KOREAN_DESKTOP)
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "사용법: mighty [OPTIONS] COMMAND [ARGS]..."


def test_lang_option_beats_mighty_lang_and_the_locale(runner):
    result = mighty(runner, ["--lang", "en", "--help"], env=KOREAN_DESKTOP | {"MIGHTY_LANG": "ko"})
    assert result.output.splitlines()[0] == "Usage: mighty [OPTIONS] COMMAND [ARGS]..."
    result = mighty(runner, ["--help", "--lang", "ko"], env={"MIGHTY_LANG": "en"})
    assert result.output.splitlines()[0] == "사용법: mighty [OPTIONS] COMMAND [ARGS]..."


def test_mighty_lang_beats_the_locale(runner):
    result = mighty(runner, ["--help"], env=KOREAN_DESKTOP | {"MIGHTY_LANG": "en"})
    assert result.output.splitlines()[0] == "Usage: mighty [OPTIONS] COMMAND [ARGS]..."


def test_unknown_lang_is_a_usage_error(runner):
    result = mighty(runner, ["--lang", "fr", "score"])
    assert result.exit_code == 2
    assert "'fr' is not one of 'ko', 'en'" in result.output


def test_one_process_can_switch_languages_between_invocations(runner):
    korean = mighty(runner, ["--lang", "ko", "score", "--help"])
    english = mighty(runner, ["--lang", "en", "score", "--help"])
    assert "한 판의 점수를 계산합니다" in korean.output and "옵션:" in korean.output
    assert "Score one hand: base, doublings" in english.output and "Options:" in english.output
    assert "한" not in english.output.replace("한국어", "")
    again = mighty(runner, ["--lang", "ko", "score", "--help"])
    assert "이 도움말을 보여 주고 끝냅니다." in again.output
    assert "Show this message and exit." in mighty(runner, ["score", "--help"]).output


def test_the_engine_follows_the_language_set():
    from mighty_cli.engine.cards import trump_name

    set_language("ko")
    assert (get_language(), trump_name(None), trump_name(0)) == ("ko", "노기루다", "스페이드")
    set_language("en")
    assert (get_language(), trump_name(None), trump_name(0)) == ("en", "no-trump", "spades")
