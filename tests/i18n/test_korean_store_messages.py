"""On a Korean desktop (LANG=ko_KR.UTF-8, no MIGHTY_LANG) the ruleset checks, the league's
refusals (import, export, backup, corrections, lookups), the session-end progress and notes, and
the template errors speak Korean, in one line, with option names and notation untranslated; in
English they are unchanged. Each refusal still exits 1 and changes nothing."""

from __future__ import annotations

from mighty_cli.cli import cli

KOREAN_DESKTOP = {"MIGHTY_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "ko_KR.UTF-8"}
PLAYERS = "민수,Bo,Cy,Di,Ed"


def korean(runner, *args):
    return runner.invoke(cli, list(args), env=KOREAN_DESKTOP, prog_name="mighty")


def english(runner, *args):
    result = runner.invoke(cli, list(args), prog_name="mighty")
    assert result.exit_code == 0, result.output
    return result.output


def refusal(result) -> str:
    """The one line a refused command prints (exit 1)."""
    assert result.exit_code == 1, result.output
    assert len(result.output.splitlines()) == 1, result.output
    return result.output.rstrip("\n")


def club(tmp_path, hands: int) -> str:
    path = tmp_path / f"club-{hands}.toml"
    path.write_text(
        'extends = "club-requirements"\n[meta]\nname = "club"\n'
        f"[session]\nhands_per_session = {hands}\n",
        encoding="utf-8",
    )
    return str(path)


def league(runner, ruleset="standard"):
    english(runner, "league", "create", "화요", "--ruleset", ruleset)
    english(runner, "session", "start", "-l", "화요", "-p", PLAYERS)


# --- rulesets -----------------------------------------------------------------------------------


def test_ruleset_check_min_above_max_in_korean(runner, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[election]\nmin_bid = 16\nmax_bid = 14\n", encoding="utf-8")
    assert refusal(korean(runner, "ruleset", "check", str(bad))) == (
        "오류: bad.toml: election.min_bid = 16이 election.max_bid = 14보다 큽니다: "
        "최저 공약은 최고 공약을 넘을 수 없습니다"
    )
    english_result = runner.invoke(cli, ["ruleset", "check", str(bad)])
    assert english_result.output == (
        "Error: bad.toml: election.min_bid = 16 is above election.max_bid = 14: the minimum "
        "bid cannot exceed the maximum\n"
    )


def test_ruleset_wrong_type_in_korean_keeps_the_option_name(runner, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[election]\nmin_bid = "x"\n', encoding="utf-8")
    assert (
        refusal(korean(runner, "ruleset", "check", str(bad)))
        == "오류: bad.toml: election.min_bid = 'x': 필요한 값: 정수"
    )


def test_ruleset_friend_rules_in_korean_use_the_clubs_words(runner, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[cards]\nmighty = "JK"\n', encoding="utf-8")
    assert (
        refusal(korean(runner, "ruleset", "check", str(bad)))
        == '오류: bad.toml: cards.mighty = "JK": 조커는 마이티가 될 수 없습니다'
    )


def test_unknown_ruleset_in_korean(runner):
    line = refusal(korean(runner, "ruleset", "show", "nosuch"))
    assert line.startswith("오류: 모르는 룰셋 'nosuch': standard, ")
    assert line.endswith(" 중 하나이거나 .toml 파일 경로여야 합니다")


# --- the league's refusals ----------------------------------------------------------------------


def test_no_such_league_in_korean(runner):
    assert runner.invoke(cli, ["player", "add", "민수"]).exit_code == 0  # a database, no league
    assert (
        refusal(korean(runner, "standings", "-l", "없는리그"))
        == "오류: '없는리그' 리그가 없습니다 ('mighty league create'로 만드세요)"
    )
    league(runner)
    assert (
        refusal(korean(runner, "standings", "-l", "없는리그"))
        == "오류: '없는리그' 리그가 없습니다 (있는 리그: 화요)"
    )


def test_voiding_a_void_hand_in_korean_changes_nothing(runner):
    league(runner)
    english(runner, "record", "-l", "화요", "-d", "민수", "-c", "14S", "-f", "Bo", "-t", "15")
    english(runner, "hand", "void", "-l", "화요", "1", "--reason", "두 번 적음")
    log = english(runner, "hand", "log", "-l", "화요")
    assert (
        refusal(korean(runner, "hand", "void", "-l", "화요", "1", "--reason", "또"))
        == "오류: 1번째 판은 이미 무효입니다"
    )
    assert (
        refusal(korean(runner, "hand", "amend", "-l", "화요", "1", "-t", "16", "--reason", "또"))
        == "오류: 1번째 판은 무효라서 고칠 수 없습니다"
    )
    assert english(runner, "hand", "log", "-l", "화요") == log


def test_import_of_broken_json_in_korean(runner, tmp_path):
    league(runner)
    bad = tmp_path / "bad.json"
    bad.write_text('{"x": \n', encoding="utf-8")
    assert refusal(korean(runner, "import", str(bad), "-l", "화요")).startswith(
        f"오류: {bad}: 올바른 JSON이 아닙니다: "
    )


def test_restore_into_a_database_with_leagues_in_korean(runner, tmp_path):
    league(runner)
    backup = tmp_path / "club.jsonl"
    english(runner, "backup", "-o", str(backup))
    assert refusal(korean(runner, "restore", str(backup))) == (
        "오류: 데이터베이스가 비어 있지 않습니다 (league 테이블에 행이 있습니다): "
        "새 데이터베이스에 복원하세요"
    )


def test_a_database_url_nobody_can_open_in_korean(runner):
    line = refusal(korean(runner, "standings", "-l", "화요", "--db", "nosuch://x"))
    assert line.startswith(
        "오류: --db 'nosuch://x': SQLAlchemy가 쓸 수 있는 데이터베이스 URL이 아닙니다 ("
    )


# --- sessions -----------------------------------------------------------------------------------


def test_session_end_progress_in_korean(runner, tmp_path):
    league(runner, club(tmp_path, 8))
    english(runner, "record", "-l", "화요", "-d", "민수", "-c", "14S", "-f", "Bo", "-t", "15")
    lines = korean(runner, "session", "show", "-l", "화요").output.splitlines()
    assert "회차 종료 규칙: 8판 중 1판 침." in lines
    assert (
        "Session end rules: 1 of 8 hands played."
        in english(runner, "session", "show", "-l", "화요").splitlines()
    )


def test_session_note_after_a_correction_in_korean(runner, tmp_path):
    league(runner, club(tmp_path, 2))
    english(runner, "record", "-l", "화요", "-d", "민수", "-c", "14S", "-f", "Bo", "-t", "15")
    english(runner, "record", "-l", "화요", "-d", "Bo", "-c", "14S", "-f", "Cy", "-t", "10")
    english(runner, "hand", "void", "-l", "화요", "1", "--reason", "잘못 적음")
    lines = korean(runner, "session", "show", "-l", "화요", "--session", "1").output.splitlines()
    assert (
        "참고: 고친 판들로 계산하면 1회차는 아직 끝나지 않습니다; 수정은 회차를 다시 열지 "
        "않습니다: 새 회차에서 계속 치세요." in lines
    )


# --- the page -----------------------------------------------------------------------------------


def test_broken_club_template_in_korean(runner, tmp_path):
    league(runner)
    english(runner, "record", "-l", "화요", "-d", "민수", "-c", "14S", "-f", "Bo", "-t", "15")
    templates = tmp_path / "club-templates"
    templates.mkdir()
    (templates / "standings.html").write_text("{% if %}\n", encoding="utf-8")
    page = tmp_path / "page.html"
    line = refusal(
        korean(
            runner, "standings", "-l", "화요", "--html", str(page), "--templates", str(templates)
        )
    )
    assert line.startswith("오류: 템플릿 ") and ", 1번째 줄: " in line
    assert not page.exists()


def test_korean_desktop_writes_a_korean_page(runner, tmp_path):
    league(runner)
    english(runner, "record", "-l", "화요", "-d", "민수", "-c", "14S", "-f", "Bo", "-t", "15")
    page = tmp_path / "page.html"
    assert (
        korean(runner, "standings", "-l", "화요", "--html", str(page)).output
        == f"{page}을 썼습니다 (5명, 1판).\n"
    )
    html = page.read_text(encoding="utf-8")
    assert '<html lang="ko">' in html and "<title>화요 — 순위</title>" in html
    for heading in ("리그 순위표", "누적 점수", "플레이어 통계", "회차"):
        assert f"<h2>{heading}</h2>" in html
