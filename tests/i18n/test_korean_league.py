"""The score-keeper and the league in Korean: `mighty record`'s prompts and Korean answers,
the standings table with Korean names lined up, a league whose pages are Korean
(`league create --lang ko`), its time zone, and a CSV export Excel opens with Hangul intact."""

from __future__ import annotations

import csv
import io
import json
import re

from sqlalchemy import create_engine, text

from mighty_cli.cli import cli
from mighty_cli.render.text import display_width

KOREAN_DESKTOP = {"MIGHTY_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "ko_KR.UTF-8"}
SEATS = "김철수,이영희,Bo,Cy,Di,박지성"


def korean(runner, *args, input=None):
    return runner.invoke(cli, list(args), env=KOREAN_DESKTOP, input=input, prog_name="mighty")


def ok(result):
    assert result.exit_code == 0, result.output
    return result.output


def english(runner, *args, input=None):
    return ok(runner.invoke(cli, list(args), input=input, prog_name="mighty"))


def league(runner, *extra):
    english(runner, "league", "create", "화요", "--ruleset", "standard", *extra)
    english(runner, "session", "start", "-l", "화요", "-p", SEATS)
    return runner


# --- mighty record --------------------------------------------------------------------------


def test_record_prompts_in_korean_with_korean_answers(runner):
    league(runner)
    out = ok(korean(runner, "record", "-l", "화요", input="이영\n14 노기\n노프렌드\n15\n"))
    lines = out.splitlines()
    assert lines[0] == (
        "1번째 판: 딜러 김철수, 선 이영희, 쉬는 플레이어 김철수; "
        "플레이어 이영희, Bo, Cy, Di, 박지성"
    )
    assert lines[1] == (
        "주공: 공약 (예: 15D, 16NT, 스페이드 14): "
        "프렌드 (없으면 none 또는 노프렌드) [none]: "
        "여당이 가져간 점수카드 수: 1번째 판 (1회차): 이영희 14NT 노프렌드, 15장: 성공 ×4"
    )
    assert lines[2] == "  이영희 +48  Bo -12  Cy -12  Di -12  박지성 -12"
    assert lines[3] == (
        "다음 판: 딜러 이영희, 선 Bo, 쉬는 플레이어 이영희; 플레이어 김철수, Bo, Cy, Di, 박지성"
    )


def test_record_asks_again_in_korean(runner):
    league(runner)
    out = ok(
        korean(
            runner,
            "record",
            "-l",
            "화요",
            input="김철수\nbo\n스페이드 9\n스페이드 16\nbo\n이영\n21\n12장\n",
        )
    )
    assert "✗ '김철수'는 이 판의 플레이어 중에 없습니다 (이영희, Bo, Cy, Di, 박지성)" in out
    assert "✗ 공약 9S는 standard 룰의 최소 공약(13)보다 낮습니다" in out
    assert "✗ Bo는 주공입니다: 프렌드를 적거나, 혼자 쳤으면 none" in out
    assert "✗ 21: standard 룰에서 여당은 점수카드를 0에서 20장 가져갑니다" in out
    assert "1번째 판 (1회차): Bo 16S 프렌드 이영희, 12장: 실패" in out


def test_korean_and_english_answers_record_the_same_hand(runner, tmp_path, monkeypatch):
    exports = []
    for index, answers in enumerate(
        ("bo\n스페이드 16\n이영\n17\n", "bo\n16S\n이영희\n17\n", "bo\n16 스페\n이영\n17\n")
    ):
        monkeypatch.setenv("MIGHTY_DB", f"sqlite:///{tmp_path / f'{index}.db'}")
        league(runner)
        ok(korean(runner, "record", "-l", "화요", input=answers))
        data = json.loads(english(runner, "export", "-l", "화요", "--format", "json"))
        for hand in data["hands"]:  # when each league's session started differs, not the hand
            hand.pop("session_started", None), hand.pop("session_ended", None)
        exports.append(data)
    assert exports[0] == exports[1] == exports[2]


def test_record_evening_reads_korean_commands(runner):
    league(runner)
    out = ok(
        korean(
            runner,
            "record",
            "-l",
            "화요",
            "--evening",
            input="bo\n스페이드 16\n이영\n17\n순위\n딜미스 Cy\n종료\n",
        )
    )
    assert out.splitlines()[0].startswith(
        "화요 리그, 1회차 (standard): 판을 기록하려면 주공을 "
        "입력하세요. 딜 미스는 '딜 미스 이름' (miss 이름)"
    )
    assert "1번째 판 (1회차): Bo 16S 프렌드 이영희, 17장: 성공" in out
    assert "1판 뒤 회차 합계:" in out  # the totals after the hand, and again for 순위
    assert out.count("1판 뒤 회차 합계:") == 2
    assert "2번째 판 (1회차): Cy 딜 미스 (딜러 이영희)" in out


def test_record_quits_on_korean_word_mid_hand(runner):
    league(runner)
    result = korean(runner, "record", "-l", "화요", input="bo\n종료\n")
    assert result.exit_code == 1
    assert "판을 다 입력하기 전에 입력이 끝났습니다. 아무것도 기록하지 않았습니다" in result.output


# --- standings ----------------------------------------------------------------------------------


def test_standings_table_in_korean_lines_up_korean_names(runner):
    league(runner, "--min-hands", "1")
    english(runner, "record", "-l", "화요", "-d", "이영희", "-c", "14NT", "-f", "none", "-t", "15")
    english(
        runner,
        "record",
        "-l",
        "화요",
        "-d",
        "박지성",
        "-c",
        "스페이드 15",
        "-f",
        "김철수",
        "-t",
        "16",
    )
    lines = ok(korean(runner, "standings", "-l", "화요")).splitlines()
    assert re.split(r"\s{2,}", lines[0]) == [
        "#",
        "플레이어",
        "판 수",
        "점수",
        "판당",
        "주공",
        "성공",
        "프렌드",
        "런",
        "백런",
    ]
    table = lines[:-1]
    assert lines[-1] == "(1판 이상 한 플레이어만 순위에 듭니다)"

    def columns(line: str) -> str:  # one character per terminal column: Hangul takes two
        return "".join(ch + ("\0" if display_width(ch) == 2 else "") for ch in line)

    spans = [m.span() for m in re.finditer(r"-+", table[1])]
    for row in [table[0]] + table[2:]:
        cells = columns(row).ljust(spans[-1][1])
        # between the columns only spaces: every cell sits inside its column, on every row
        gaps = [cells[end:start] for (_, end), (start, _) in zip(spans, spans[1:])]
        assert all(gap.strip() == "" for gap in gaps), row
        assert cells[spans[3][1] - 1] != " ", row  # the score column's numbers end at its edge
    assert any(row.startswith("1  이영희") for row in table)


# --- a league's language and time zone ---------------------------------------------------------


def test_league_create_lang_ko_writes_a_korean_page(runner, tmp_path):
    league(runner, "--lang", "ko", "--timezone", "Asia/Seoul")
    english(runner, "record", "-l", "화요", "-d", "이영희", "-c", "14NT", "-f", "none", "-t", "15")
    page = tmp_path / "page.html"
    said = english(runner, "standings", "-l", "화요", "--html", str(page))
    assert said == f"Wrote {page} (6 players, 1 hand).\n"  # the tool speaks English...
    html = page.read_text(encoding="utf-8")
    assert '<html lang="ko">' in html  # ...the league's page Korean
    assert "<h2>리그 순위표</h2>" in html and "화요 — 순위" in html
    shown = english(runner, "league", "show", "화요")
    assert "Pages in 한국어." in shown and "Time zone Asia/Seoul." in shown
    import json

    shown = json.loads(english(runner, "league", "show", "화요", "--json"))
    assert shown["settings"] == {"lang": "ko", "timezone": "Asia/Seoul"}


def test_league_set_changes_the_page_language(runner, tmp_path):
    league(runner, "--lang", "ko")
    english(runner, "record", "-l", "화요", "-d", "이영희", "-c", "14NT", "-f", "none", "-t", "15")
    said = ok(korean(runner, "league", "set", "화요", "--lang", "en"))
    assert said.splitlines()[-1] == "페이지 언어: English."
    page = tmp_path / "page.html"
    ok(korean(runner, "standings", "-l", "화요", "--html", str(page)))
    assert '<html lang="en">' in page.read_text(encoding="utf-8")


def test_a_league_without_a_language_follows_the_tool(runner, tmp_path):
    league(runner)
    english(runner, "record", "-l", "화요", "-d", "이영희", "-c", "14NT", "-f", "none", "-t", "15")
    page = tmp_path / "page.html"
    assert (
        ok(korean(runner, "standings", "-l", "화요", "--html", str(page)))
        == f"{page}을 썼습니다 (6명, 1판).\n"
    )
    assert '<html lang="ko">' in page.read_text(encoding="utf-8")


def test_bad_time_zone_and_language_are_refused_and_change_nothing(runner):
    league(runner)
    result = korean(runner, "league", "set", "화요", "--timezone", "Mars/Olympus")
    assert result.exit_code == 2
    assert (
        "'Mars/Olympus'는 IANA 시간대가 아닙니다 (예: Asia/Seoul, Europe/Berlin)" in result.output
    )
    result = runner.invoke(cli, ["league", "create", "수요", "-r", "standard", "--lang", "jp"])
    assert result.exit_code == 2
    assert "수요" not in english(runner, "league", "list")
    assert "Time zone" not in english(runner, "league", "show", "화요")


def test_settings_on_a_database_made_before_them(runner, tmp_path, monkeypatch):
    """A database from before league settings existed gains the table and keeps working."""
    path = tmp_path / "old.db"
    monkeypatch.setenv("MIGHTY_DB", f"sqlite:///{path}")
    league(runner)
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE league_setting"))
    engine.dispose()
    assert "Time zone" not in english(runner, "league", "show", "화요")
    english(runner, "league", "set", "화요", "--lang", "ko", "--timezone", "Asia/Seoul")
    assert "Pages in 한국어." in english(runner, "league", "show", "화요")


def test_backup_and_restore_keep_a_leagues_settings(runner, tmp_path):
    league(runner, "--lang", "ko", "--timezone", "Asia/Seoul")
    backup = tmp_path / "club.jsonl"
    english(runner, "backup", "-o", str(backup))
    other = f"sqlite:///{tmp_path / 'restored.db'}"
    english(runner, "restore", str(backup), "--db", other)
    shown = english(runner, "league", "show", "화요", "--db", other)
    assert "Pages in 한국어." in shown and "Time zone Asia/Seoul." in shown


def test_league_setting_accessors(runner):
    from mighty_cli.store.db import make_engine, transaction
    from mighty_cli.store.ledger.leagues import league_setting, league_settings, set_league_setting

    league(runner, "--lang", "ko")
    engine = make_engine()
    with transaction(engine) as s:
        assert league_setting(s, "화요", "lang") == "ko"
        assert league_setting(s, "화요", "timezone") is None
        set_league_setting(s, "화요", "timezone", "Europe/Berlin", who="t")
        assert league_settings(s, "화요") == {"lang": "ko", "timezone": "Europe/Berlin"}
    engine.dispose()


# --- CSV for Excel --------------------------------------------------------------------------


def test_csv_export_opens_in_excel_with_hangul_intact(runner, tmp_path):
    league(runner)
    english(runner, "record", "-l", "화요", "-d", "이영희", "-c", "14NT", "-f", "none", "-t", "15")
    path = tmp_path / "화요.csv"
    english(runner, "export", "-l", "화요", "-o", str(path))
    data = path.read_bytes()
    # Excel reads a CSV as UTF-8 only when it starts with the byte-order mark
    assert data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert "김철수" in rows[0] and "박지성" in rows[0] and "이영희" in rows[1]
    plain = tmp_path / "plain.csv"
    english(runner, "export", "-l", "화요", "-o", str(plain), "--no-bom")
    assert plain.read_bytes() == data[3:]
    assert "UTF-8 BOM" in ok(korean(runner, "export", "--help"))


def test_a_korean_leagues_csv_is_for_people_and_reads_back_in_any_language(runner, tmp_path):
    """Exported in Korean, the CSV keeps the words an import reads (made/failed, the English
    headers) and shows the league's Seoul times to the second; it imports back in Korean."""
    league(runner, "--timezone", "Asia/Seoul")
    english(runner, "record", "-l", "화요", "-d", "이영희", "-c", "14NT", "-f", "none", "-t", "15")
    english(
        runner,
        "record",
        "-l",
        "화요",
        "-d",
        "Bo",
        "-c",
        "15S",
        "-f",
        "Cy",
        "-t",
        "9",
        "--note",
        "첫 줄\n둘째 줄",
    )
    path = tmp_path / "화요.csv"
    ok(korean(runner, "export", "-l", "화요", "-o", str(path)))
    with open(path, encoding="utf-8-sig", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert [row["result"] for row in rows] == ["made", "failed"]
    assert rows[1]["note"] == "첫 줄\\n둘째 줄"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+09:00", rows[0]["session started"])
    assert "성공" not in path.read_text(encoding="utf-8-sig")
    english(runner, "league", "create", "사본", "--ruleset", "standard")
    assert "2판" in ok(korean(runner, "import", str(path), "-l", "사본"))
    copy, original = (
        json.loads(english(runner, "standings", "-l", name, "--json")) for name in ("사본", "화요")
    )
    assert copy == original | {"league": "사본"}


def test_json_output_is_the_same_in_both_languages(runner):
    league(runner, "--lang", "ko")
    english(runner, "record", "-l", "화요", "-d", "이영희", "-c", "14NT", "-f", "none", "-t", "15")
    for args in (
        ["standings", "-l", "화요", "--json"],
        ["hand", "list", "-l", "화요", "--json"],
        ["league", "list", "--json"],
        ["session", "show", "-l", "화요", "--json"],
        ["ruleset", "diff", "standard", "sinchon", "--json"],
    ):
        assert ok(korean(runner, *args)) == english(runner, *args)
