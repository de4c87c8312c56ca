"""With LANG=ko_KR.UTF-8 the translated commands speak Korean, in the clubs' words, and the page
declares Korean; plurals are right in both languages (no "1 hands")."""

from __future__ import annotations

from datetime import date, datetime, timezone
from html.parser import HTMLParser
from pathlib import Path

import pytest

from mighty_cli.cli import cli
from mighty_cli.engine.records import dump_record, load_record

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
KOREAN_DESKTOP = {"MIGHTY_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "ko_KR.UTF-8"}


def korean(runner, *args):
    return runner.invoke(cli, list(args), env=KOREAN_DESKTOP, prog_name="mighty")


def english(runner, *args):
    return runner.invoke(cli, list(args), prog_name="mighty")


def test_mighty_help_in_korean(runner):
    result = korean(runner, "--help")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "사용법: mighty [OPTIONS] COMMAND [ARGS]..."
    assert lines[2] == "  마이티 판과 리그를 운영합니다."
    assert "옵션:" in lines and "명령:" in lines
    assert "  -h, --help      이 도움말을 보여 주고 끝냅니다." in lines
    assert "  score      한 판의 점수를 계산합니다: 기본 점수, 배수, 자리별 몫." in lines


def test_version_in_korean(runner):
    from mighty_cli import __version__

    assert korean(runner, "--version").output == f"mighty, 버전 {__version__}\n"
    assert english(runner, "--version").output == f"mighty, version {__version__}\n"


@pytest.mark.parametrize(
    "command, first_line",
    [
        ("score", "  한 판의 점수를 계산합니다: 기본 점수, 배수, 자리별 몫."),
        ("replay", "  판 기록 파일의 모든 판을 카드 한 장씩 검사하고 점수를 매깁니다."),
        ("deal", "  재현할 수 있는 패를 돌려 판 기록으로 출력합니다 (referee, replay용)."),
    ],
)
def test_subcommand_help_in_korean(runner, command, first_line):
    result = korean(runner, command, "--help")
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == f"사용법: mighty {command} [OPTIONS]" + (
        " FILE" if command == "replay" else ""
    )
    assert result.output.splitlines()[2] == first_line
    assert "  -h, --help" in result.output and "이 도움말을 보여 주고 끝냅니다." in result.output


def test_score_in_korean(runner):
    result = korean(
        runner, "score", "-r", "standard", "--bid", "15", "--trump", "D", "--taken", "16"
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "표준 마이티 (Standard Mighty) (standard)",
        "15D (다이아) 성공: 여당이 20장 중 16장을 가져갔습니다",
        "기본 5 × 1 (배수 없음) → 야당 한 명당 5",
        "주공 +10, 프렌드 +5, 야당 각 -5",
    ]


def test_score_in_korean_names_the_doublings_in_the_clubs_words(runner):
    result = korean(
        runner,
        "score",
        "-r",
        "standard",
        "--bid",
        "20",
        "--trump",
        "노기루다",
        "--taken",
        "20",
        "--no-friend",
    )
    assert result.output.splitlines()[1:] == [
        "20NT (노기루다) 성공: 여당이 20장 중 20장을 가져갔습니다",
        "기본 14 × 8 (런, 노기루다, 노프렌드) → 야당 한 명당 112",
        "주공 +448, 노프렌드, 야당 각 -112",
    ]


def test_score_trump_in_korean_scores_like_the_letter(runner):
    for trump in ("다이아", "다이아몬드", "◆"):
        assert (
            english(
                runner, "score", "-r", "standard", "--bid", "15", "--trump", trump, "--taken", "16"
            ).output
            == english(
                runner, "score", "-r", "standard", "--bid", "15", "--trump", "D", "--taken", "16"
            ).output
        )


def test_score_usage_error_in_korean(runner):
    result = korean(runner, "score", "-r", "standard", "--bid", "15", "--trump", "D")
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == "오류: --taken과 --opposition 중 하나만 주세요"


def test_score_bad_trump_in_korean(runner):
    result = korean(
        runner, "score", "-r", "standard", "--bid", "15", "--trump", "Z", "--taken", "16"
    )
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        "오류: '--trump'의 값이 잘못되었습니다: 'Z'는 기루다가 아닙니다: "
        "S, D, H, C 또는 NT를 쓰세요"
    )


def test_replay_in_korean(runner):
    result = korean(runner, "replay", str(EXAMPLES / "run.toml"))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"{EXAMPLES / 'run.toml'}: 표준 마이티 (Standard Mighty) (standard) 룰로 1판"
    assert lines[1].split() == [
        "#",
        "상태",
        "딜러",
        "주공",
        "공약",
        "프렌드",
        "득점",
        "배수",
        "배수",
        "사유",
        "민수",
        "Bo",
        "Cy",
        "Di",
        "Ed",
    ]
    assert lines[3].split()[:9] == ["1", "완료", "민수", "민수", "16D", "Cy", "20", "×2", "런"]
    assert lines[4].split()[0] == "합계"


def test_replay_deal_miss_in_korean(runner):
    result = korean(runner, "replay", str(EXAMPLES / "deal-miss.toml"))
    assert result.exit_code == 0, result.output
    assert "딜 미스" in result.output.splitlines()[3] and "Di 딜 미스" in result.output


def test_replay_rule_violation_in_korean_is_one_line(runner, tmp_path):
    record = load_record(EXAMPLES / "run.toml")
    first = record.hands[0]["tricks"][0].split()
    record.hands[0]["tricks"][0] = " ".join(first[:4] + [first[0]])  # a card played twice
    path = tmp_path / "bad.toml"
    path.write_text(dump_record(record), encoding="utf-8")
    result = korean(runner, "replay", str(path))
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines == ["오류: 1판: 1턴: Ed가 HA를 냈지만 그 카드가 없습니다 (이미 나온 카드)"]


@pytest.mark.parametrize(
    "hands, english_line, korean_line",
    [
        ("1", "wrote 1 hand to", "1판을 썼습니다"),
        ("2", "wrote 2 hands to", "2판을 썼습니다"),
    ],
)
def test_deal_counts_hands_in_both_languages(runner, tmp_path, hands, english_line, korean_line):
    path = tmp_path / "deal.toml"
    assert (
        english_line
        in english(runner, "deal", "--seed", "3", "--hands", hands, "-o", str(path)).output
    )
    assert (
        korean_line
        in korean(runner, "deal", "--seed", "3", "--hands", hands, "-o", str(path)).output
    )


def test_replay_counts_hands_in_english(runner):
    assert (
        ": 1 hand under 표준 마이티 (Standard Mighty)"
        in english(runner, "replay", str(EXAMPLES / "run.toml")).output
    )
    season = english(runner, "replay", str(EXAMPLES / "season.toml")).output.splitlines()[0]
    assert " hands under " in season and " 1 hands" not in season


# --- the page ---------------------------------------------------------------------------------


class Page(HTMLParser):
    def __init__(self, html: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.stack: list[str] = []
        self.texts: dict[str, list[str]] = {}
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self.stack.append(tag)

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass

    def handle_data(self, data):
        for tag in set(self.stack):
            self.texts.setdefault(tag, []).append(data)

    def text(self, tag: str) -> list[str]:
        return [t.strip() for t in self.texts.get(tag, []) if t.strip()]


def league_page(hands: int = 10):
    from mighty_cli.league.standings import PlayerStats, Series, rank
    from mighty_cli.store.ledger.league_page import LeaguePage, SessionTable

    names = ("민수", "Bo", "김철수", "Di", "Ed")
    stats = [
        PlayerStats(n, hands=hands, score=(2 - i) * 7, declarer=3, declarer_success=2, friend=2)
        for i, n in enumerate(names)
    ]
    table = rank(stats, min_hands=1)
    sessions = [SessionTable(1, date(2024, 3, 5), False, list(names), hands, rank(stats))]
    xs = list(range(0, 11))
    series = [Series(s.name, [s.score * x // 10 for x in xs]) for s in stats]
    return LeaguePage(
        "목요리그", "standard", "Standard Mighty", table, sessions, hands, xs, series, 5
    )


def render(lang=None, hands=10):
    from mighty_cli.render.html import render_league_page

    return render_league_page(
        league_page(hands), lang=lang, generated=datetime(2024, 3, 5, 21, 0, tzinfo=timezone.utc)
    )


def test_korean_page_declares_korean_and_has_korean_headings():
    page = Page(render("ko"))
    assert [attrs.get("lang") for tag, attrs in page.tags if tag == "html"] == ["ko"]
    assert page.text("h2") == ["리그 순위표", "누적 점수", "플레이어 통계", "회차"]
    assert page.text("title")[0] == "목요리그 — 순위"
    assert page.text("p")[0] == "Standard Mighty (standard) · 1회차 · 10판 · 공탁금 5"
    headers = page.text("th")
    # Made % (성공률) is the rate: issue 13 (the header said "Made" for a rate here, a count
    # in the statistics table).
    assert headers[:8] == ["#", "플레이어", "판", "점수", "판당", "주공", "성공률", "프렌드"]
    assert "백런" in headers and "딜 미스" in headers
    assert "1회차" in page.text("summary") and "진행 중" in "".join(page.text("summary"))
    assert page.text("footer") == [
        "mighty-cli가 2024-03-05 21:00 UTC에 만들었습니다. 점수는 리그에 "
        "저장된 리그의 룰셋을 따릅니다."
    ]


def test_english_page_declares_english():
    page = Page(render("en"))
    assert [attrs.get("lang") for tag, attrs in page.tags if tag == "html"] == ["en"]
    assert page.text("h2") == ["League table", "Cumulative score", "Player statistics", "Sessions"]
    assert page.text("p")[0] == (
        "Standard Mighty (standard) · 1 session · 10 hands · deposit pot (공탁금) 5"
    )


def test_page_counts_one_hand_in_the_singular():
    assert "· 1 hand ·" in Page(render("en", hands=1)).text("p")[0]
    assert "1 hands" not in render("en", hands=1)


def test_page_without_lang_speaks_the_tools_language():
    from mighty_cli.i18n import set_language

    set_language("ko")
    assert 'lang="ko"' in render()
    set_language("en")
    assert 'lang="en"' in render()


def test_league_language_overrides_the_tools_language():
    from mighty_cli.i18n import set_language

    set_language("en")
    assert Page(render("ko")).text("h2")[0] == "리그 순위표"


def test_page_font_stack_has_korean_faces():
    html = render("ko")
    assert all(
        face in html
        for face in (
            '"Apple SD Gothic Neo"',
            '"Malgun Gothic"',
            '"Noto Sans KR"',
            '"Noto Sans CJK KR"',
        )
    )


@pytest.mark.parametrize(
    "args", [["--help"], ["score", "--help"], ["replay", "--help"], ["deal", "--help"]]
)
def test_korean_help_fits_the_terminal_width(runner, args):
    from mighty_cli.render.text import display_width

    result = runner.invoke(
        cli, args, env=KOREAN_DESKTOP | {"COLUMNS": "80"}, prog_name="mighty", terminal_width=80
    )
    korean_lines = [line for line in result.output.splitlines() if not line.isascii()]
    assert korean_lines and max(display_width(line) for line in korean_lines) <= 80


@pytest.mark.parametrize(
    "args",
    [
        [
            "score",
            "-r",
            "standard",
            "--bid",
            "20",
            "--trump",
            "NT",
            "--taken",
            "20",
            "--no-friend",
            "--json",
        ],
        ["replay", str(EXAMPLES / "run.toml"), "--json"],
        ["replay", str(EXAMPLES / "deal-miss.toml"), "--json"],
    ],
)
def test_json_output_is_the_same_in_both_languages(runner, args):
    assert korean(runner, *args).output == english(runner, *args).output
