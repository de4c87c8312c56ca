"""Defects found by playing a club's evening through the installed ``mighty`` command (a
Korean science-high-school club of seven under 7마, and a university club of five in English
on PostgreSQL), each pinned here so it stays fixed."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from mighty_cli.cli import cli
from mighty_cli.render.text import display_width

KOREAN = {"MIGHTY_LANG": "ko", "COLUMNS": "80"}


def _description_columns(help_text: str) -> dict[str, int]:
    """The display column where each option's description starts, for options whose
    description starts on the option's own line."""
    columns = {}
    for line in help_text.splitlines():
        match = re.match(r"^(  (?:-\w, )?--[\w-]+(?: \S+)?)( {2,})(\S.*)$", line)
        if match:
            columns[match.group(1).strip()] = display_width(match.group(1) + match.group(2))
    return columns


def mighty_process(*args: str) -> subprocess.CompletedProcess:
    """The command as a club runs it: a process of its own (click.Path's metavar is made when
    the command's module is imported, so only a fresh process shows it as a user sees it)."""
    return subprocess.run(
        [sys.executable, "-m", "mighty_cli", *args],
        capture_output=True,
        text=True,
        env=os.environ | KOREAN,
        timeout=60,
    )


@pytest.mark.parametrize("path", [["referee"], ["export"]])
def test_korean_help_aligns_options_with_a_korean_metavar(path):
    """click.Path's metavar is translated (FILE → 파일), two columns a syllable: the
    descriptions of ``--deal 파일`` and ``-o, --output 파일`` started two columns to the right
    of every other option's."""
    result = mighty_process(*path, "--help")
    assert result.returncode == 0, result.stderr
    columns = _description_columns(result.stdout)
    assert any("파일" in option for option in columns), result.stdout
    assert len(set(columns.values())) == 1, columns


def _korean_league(db: str) -> None:
    runner = CliRunner()
    for args in (
        ["league", "create", "club", "-r", "standard", "--lang", "ko"],
        ["session", "start", "-l", "club", "--players", "김민수,이지현,박서준,Bo,Cy"],
        ["record", "-l", "club", "-d", "김민수", "-c", "15D", "-f", "Bo", "-t", "16"],
    ):
        result = runner.invoke(cli, [*args, "--db", db], env=KOREAN)
        assert result.exit_code == 0, result.output


def test_korean_site_says_hoecha_for_a_session_as_the_rest_of_the_tool(db, tmp_path):
    """The tool calls a session 회차 everywhere (1회차, session start's 'N회차를 시작했습니다');
    the site's summary line and its index page said 세션."""
    _korean_league(db)
    result = CliRunner().invoke(
        cli, ["site", "-l", "club", "--output", str(tmp_path / "site"), "--db", db], env=KOREAN
    )
    assert result.exit_code == 0, result.output
    assert "1회차" in result.output and "세션" not in result.output, result.output
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "최근 회차" in index and "모든 회차" in index and "세션" not in index


def test_site_counts_one_session_and_one_hand_in_the_singular(db, tmp_path):
    """'Wrote 10 pages to site (6 players, 1 sessions, 1 hands; ...)': each count now goes
    through ngettext (Korean 5명, 1회차, 1판)."""
    runner = CliRunner()
    for args in (
        ["league", "create", "club", "-r", "standard"],
        ["session", "start", "-l", "club", "--players", "Ana,Bo,Cy,Di,Ed"],
        ["record", "-l", "club", "-d", "Ana", "-c", "15D", "-f", "Bo", "-t", "16"],
    ):
        assert runner.invoke(cli, [*args, "--db", db], env={"MIGHTY_LANG": "en"}).exit_code == 0
    result = runner.invoke(
        cli,
        ["site", "-l", "club", "--output", str(tmp_path / "en"), "--db", db],
        env={"MIGHTY_LANG": "en"},
    )
    assert result.exit_code == 0, result.output
    assert "(5 players, 1 session, 1 hand;" in result.output, result.output
    result = runner.invoke(
        cli, ["site", "-l", "club", "--output", str(tmp_path / "ko"), "--db", db], env=KOREAN
    )
    assert "(5명, 1회차, 1판;" in result.output, result.output


def _second_session(db: str) -> None:
    """A league whose second session opens after three hands of the first."""
    runner = CliRunner()
    steps = [
        ["league", "create", "club", "-r", "standard"],
        ["session", "start", "-l", "club", "--players", "Ana,Bo,Cy,Di,Ed"],
        ["record", "-l", "club", "-d", "Ana", "-c", "15D", "-f", "Bo", "-t", "16"],
        ["record", "-l", "club", "-d", "Bo", "-c", "14S", "-f", "Cy", "-t", "12"],
        ["record", "-l", "club", "--deal-miss", "Cy"],
        ["session", "end", "-l", "club"],
        ["session", "start", "-l", "club", "--players", "Ana,Bo,Cy,Di,Ed"],
    ]
    for args in steps:
        result = runner.invoke(cli, [*args, "--db", db], env={"MIGHTY_LANG": "en"})
        assert result.exit_code == 0, result.output


def test_record_evening_proposes_the_number_the_hand_is_stored_under(db):
    """``record --evening`` in session 2 proposed 'Hand 1: dealer ...' and stored 'Hand 4
    (session 2)': a keeper amending 'hand 1' from the screen would change session 1's hand."""
    _second_session(db)
    result = CliRunner().invoke(
        cli,
        ["record", "-l", "club", "--evening", "--db", db],
        input="Ana\n15D\nBo\n16\nquit\n",
        env={"MIGHTY_LANG": "en"},
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert (
        out.index("Hand 4: dealer Ana")
        < out.index("Hand 4 (session 2): Ana 15D")
        < out.index("Hand 5: dealer Bo")
    ), out
    assert "Hand 1:" not in out and "Hand 2:" not in out


def test_league_referee_announces_the_number_the_hand_is_stored_under(db):
    """``referee --league`` in session 2 announced '— hand 1' for the hand it then saved as
    league hand 4."""
    _second_session(db)
    result = CliRunner().invoke(
        cli, ["referee", "--league", "club", "--db", db], input="quit\n", env={"MIGHTY_LANG": "en"}
    )
    assert result.exit_code == 0, result.output
    assert "— hand 4: dealer" in result.output, result.output
    assert "— hand 1:" not in result.output


def test_site_into_a_place_it_cannot_write_says_so_in_one_line(db, tmp_path):
    """'--output' under a file (not a folder) failed with the operating system's bare
    'Not a directory: ...', in English under Korean and without saying what could not be
    written; ``export``, ``backup`` and ``standings --html`` say 'cannot write PATH: ...'."""
    _korean_league(db)
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    result = CliRunner().invoke(
        cli, ["site", "-l", "club", "--output", str(blocker / "site"), "--db", db], env=KOREAN
    )
    assert result.exit_code == 1
    assert result.output.startswith("오류: ") and "에 쓸 수 없습니다: " in result.output
    assert result.output.count("\n") == 1, result.output


def test_site_output_naming_a_file_is_refused_in_korean(tmp_path):
    """click's 'Directory ... is a file.' was not in the catalog: English under Korean."""
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    result = mighty_process("site", "-l", "club", "--output", str(blocker))
    assert result.returncode == 2
    assert f"폴더 '{blocker}'은 파일입니다." in result.stderr, result.stderr


def test_referee_save_into_a_missing_folder_names_the_file_given(tmp_path):
    """``referee --save`` to a missing folder failed naming '.evening.toml.tmp', a file the
    user never named."""
    target = tmp_path / "missing" / "evening.toml"
    result = CliRunner().invoke(
        cli,
        [
            "referee",
            "-r",
            "standard",
            "--players",
            "Ana,Bo,Cy,Di,Ed",
            "--seed",
            "1",
            "--save",
            str(target),
        ],
        input="13s\nquit\n",
        env={"MIGHTY_LANG": "en"},
    )
    assert f"cannot write {target}: " in result.output, result.output
    assert ".tmp" not in result.output


SEVEN = "김민수,이지현,박서준,Alexander 김-Johnson,Bo,Cy,Di"


def test_an_eliminated_player_whose_name_has_a_space_replays(tmp_path, db):
    """A 7마 record eliminating 'Alexander 김-Johnson' (written "D6 Alexander 김-Johnson", as
    ``simulate`` and the referee write it) was refused on reading: 'expected a card and who
    held it', since the call was split at every space. So ``mighty replay`` of a simulated
    evening failed, and so did importing it into a league."""
    record = tmp_path / "seven.toml"
    runner = CliRunner()
    result = runner.invoke(
        cli,
        [
            "simulate",
            "-r",
            "standard-7",
            "--hands",
            "5",
            "--seed",
            "2",
            "--players",
            SEVEN,
            "-o",
            str(record),
        ],
    )
    assert result.exit_code == 0, result.output
    assert '"D6 Alexander 김-Johnson"' in record.read_text(encoding="utf-8")
    result = runner.invoke(cli, ["replay", str(record), "--json"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["import", str(record), "--league", "seven", "--db", db])
    assert result.exit_code == 0, result.output
    shown = runner.invoke(cli, ["hand", "show", "-l", "seven", "2", "--db", db])
    assert shown.exit_code == 0 and "Alexander 김-Johnson" in shown.output, shown.output


def test_open_cards_elimination_names_a_holder_whose_name_has_a_space(tmp_path, monkeypatch):
    """At an open-cards 7마 table 'c5 Alexander 김-Johnson' read only the last word as the
    holder ('김-Johnson' names nobody), then refused 'c5 Alexander' as a card."""
    monkeypatch.chdir(tmp_path)  # quitting piped input keeps the evening in a new file here
    bids = ["14s"] + ["pass"] * 6
    result = CliRunner().invoke(
        cli,
        ["referee", "-r", "standard-7", "--players", SEVEN],
        input="\n".join([*bids, "c5 Alexander 김-Johnson", "quit", "discard"]) + "\n",
        env={"MIGHTY_LANG": "en"},
    )
    assert result.exit_code == 0, result.output
    assert "calls ♣5: Alexander 김-Johnson is eliminated" in result.output, result.output


def test_korean_simulate_names_its_rows_in_the_clubs_words(tmp_path):
    """``mighty simulate``'s tables printed their rows as the English keys under Korean:
    scored, deal_miss, made, card, back_run, no_trump, no_friend."""
    result = CliRunner().invoke(
        cli,
        [
            "simulate",
            "-r",
            "standard",
            "--hands",
            "30",
            "--seed",
            "2",
            "-o",
            str(tmp_path / "try.toml"),
        ],
        env=KOREAN,
    )
    assert result.exit_code == 0, result.output
    rows = [line.split()[0] for line in result.output.splitlines()[1:] if line.strip()]
    for english in (
        "scored",
        "deal_miss",
        "redeal",
        "made",
        "card",
        "joker",
        "run",
        "back_run",
        "no_trump",
        "no_friend",
    ):
        assert english not in rows, result.output
    for korean in (
        "완료",
        "딜",
        "재딜",
        "성공",
        "카드",
        "조커",
        "런",
        "백런",
        "노기루다",
        "노프렌드",
    ):
        assert korean in rows, result.output


def test_a_seven_player_refereed_hand_page_shows_its_tricks_and_eliminations(tmp_path, db):
    """The page of a 7마 hand played card by card showed '–' for every trick's leader, winner
    and points (the page replayed only five-player hands), nothing of the two eliminations
    or the cards dealt out after them, and the election's 'pass' in English under Korean."""
    from html.parser import HTMLParser

    record = tmp_path / "seven.toml"
    runner = CliRunner()
    assert (
        runner.invoke(
            cli,
            [
                "simulate",
                "-r",
                "standard-7",
                "--hands",
                "5",
                "--seed",
                "2",
                "--players",
                SEVEN,
                "-o",
                str(record),
            ],
        ).exit_code
        == 0
    )
    result = runner.invoke(cli, ["import", str(record), "--league", "seven", "--db", db])
    assert result.exit_code == 0, result.output
    result = runner.invoke(
        cli,
        [
            "site",
            "-l",
            "seven",
            "--output",
            str(tmp_path / "site"),
            "--page-lang",
            "ko",
            "--db",
            db,
        ],
        env=KOREAN,
    )
    assert result.exit_code == 0, result.output

    class Rows(HTMLParser):
        def __init__(self):
            super().__init__()
            self.rows, self.table, self.open = [], None, False

        def handle_starttag(self, tag, attrs):
            if tag == "table":
                self.table = dict(attrs).get("class")
            elif tag == "tr":
                self.rows.append((self.table, dict(attrs).get("class"), []))
                self.open = True

        def handle_endtag(self, tag):
            if tag == "tr":
                self.open = False

        def handle_data(self, data):
            if self.rows and self.open and data.strip():
                self.rows[-1][2].append(data.strip())

    played = 0
    for path in sorted((tmp_path / "site" / "hands").glob("*.html")):
        text = path.read_text(encoding="utf-8")
        parser = Rows()
        parser.feed(text)
        tricks = [cells for table, _cls, cells in parser.rows if table == "tricks"][1:]
        if not tricks:  # a deal miss: no tricks to show
            continue
        played += 1
        assert len(tricks) == 10, path
        names = SEVEN.split(",")
        assert [c for c in tricks if c[1] not in names or c[-2] not in names] == []
        assert 0 < sum(int(cells[-1]) for cells in tricks) <= 20  # the rest were discarded
        calls = [cells for _t, cls, cells in parser.rows if cls == "elimination"]
        assert len(calls) >= 2 and all(cells[0] == "탈락 지명" for cells in calls), calls
        dealt = [cells for _t, cls, cells in parser.rows if cls == "redistribution"]
        assert len(dealt) == 5 and all(cells[0].endswith("에게 나눠 준 카드") for cells in dealt)
        assert " pass" not in text and "패스" in text
    assert played == 2


def _command_paths(group=None, prefix=()):
    import click

    group = group or cli
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        yield [*prefix, name]
        if isinstance(command, click.Group):
            yield from _command_paths(command, (*prefix, name))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_help_and_rule_docs_point_at_nothing_the_user_lacks(lang):
    """Help texts and messages sent users to 'RULES.md §9', a file that is not in the
    project, and ``session start --help`` said 'with six or seven present, five play each
    hand', untrue under 6마 and 7마 (six or seven play)."""
    runner = CliRunner()
    env = {"MIGHTY_LANG": lang, "COLUMNS": "100"}
    for path in _command_paths():
        result = runner.invoke(cli, [*path, "--help"], env=env)
        assert result.exit_code == 0, (path, result.output)
        assert "RULES.md" not in result.output, path
    docs = runner.invoke(cli, ["ruleset", "show", "standard", "--docs"], env=env)
    assert docs.exit_code == 0 and "RULES.md" not in docs.output
    start = runner.invoke(cli, ["session", "start", "--help"], env=env).output
    assert "five\n  play each hand" not in start and "table.players" in start


def test_too_few_present_names_the_range_without_a_missing_file(db):
    runner = CliRunner()
    assert (
        runner.invoke(cli, ["league", "create", "club", "-r", "standard-7", "--db", db]).exit_code
        == 0
    )
    result = runner.invoke(
        cli, ["session", "start", "-l", "club", "--players", "A,B,C,D", "--db", db], env=KOREAN
    )
    assert result.exit_code == 1
    assert "7~9명" in result.output and "RULES.md" not in result.output, result.output


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_an_export_of_another_table_size_is_refused_by_what_differs(tmp_path, db, fmt):
    """A 7마 club's export imported into a 5마 league failed with 'hand 1: players: expected
    five distinct names from the record's players', which names neither rulesets nor the
    table sizes; the database is unchanged."""
    runner = CliRunner()
    record = tmp_path / "seven.toml"
    assert (
        runner.invoke(
            cli,
            [
                "simulate",
                "-r",
                "standard-7",
                "--hands",
                "3",
                "--seed",
                "2",
                "--players",
                SEVEN,
                "-o",
                str(record),
            ],
        ).exit_code
        == 0
    )
    assert (
        runner.invoke(cli, ["import", str(record), "--league", "seven", "--db", db]).exit_code == 0
    )
    export = tmp_path / f"seven.{fmt}"
    assert (
        runner.invoke(cli, ["export", "-l", "seven", "-o", str(export), "--db", db]).exit_code == 0
    )
    assert (
        runner.invoke(
            cli, ["league", "create", "five", "-r", "seoul-science", "--db", db]
        ).exit_code
        == 0
    )
    before = runner.invoke(cli, ["backup", "-o", str(tmp_path / "a.jsonl"), "--db", db])
    assert before.exit_code == 0
    result = runner.invoke(
        cli, ["import", str(export), "--league", "five", "--db", db], env={"MIGHTY_LANG": "en"}
    )
    assert result.exit_code == 1
    assert (
        "was played under standard-7 (7 at the table); league five plays seoul-science "
        "(5 at the table)" in result.output
    ), result.output
    assert (
        runner.invoke(cli, ["backup", "-o", str(tmp_path / "b.jsonl"), "--db", db]).exit_code == 0
    )
    rows = [
        (tmp_path / name).read_text(encoding="utf-8").splitlines()[1:]
        for name in ("a.jsonl", "b.jsonl")
    ]
    assert rows[0] == rows[1]
