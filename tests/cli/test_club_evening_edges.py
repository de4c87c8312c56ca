"""A club's evening, its rough edges (issue 21, items 10 and 11): each test names the edge it
pins, and failed on the code before."""

from __future__ import annotations

import json

import pytest

from mighty_cli.cli import cli
from mighty_cli.cli.scorekeeper_loop import QuitGuard
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.table.referee_session import RefereeSession

FIVE = ["민수", "Bo", "Cy", "Di", "Ed"]


def _referee(ruleset="standard", lines=()):
    session = RefereeSession(load_ruleset(ruleset), ruleset, FIVE, "민수", None, opener="민수")
    return [session.handle(line) for line in lines]


def test_mighty_by_name_is_played_at_the_play_prompt():
    said = _referee(lines=["15s", "pass", "pass", "pass", "pass", "sa", "마이티", "mighty"])
    assert said[6] == ["✓ 민수 ◆A"]  # spades trump: the alternate Mighty
    assert said[7][0].startswith("✗") and "DA" in said[7][0]  # played already: refused


def test_a_refusal_quotes_what_was_typed_not_its_english_rewrite():
    said = _referee(lines=["15s", "pass", "pass", "pass", "pass", "sa", "스페이드 14"])
    assert said[6][0].startswith("✗ '스페이드 14'") and "'14S'" not in said[6][0]


def _league(runner, db, players=FIVE, ruleset="standard"):
    assert runner.invoke(cli, ["league", "create", "L", "-r", ruleset, "--db", db]).exit_code == 0
    started = runner.invoke(
        cli, ["session", "start", "-l", "L", "-p", ",".join(players), "--db", db]
    )
    assert started.exit_code == 0, started.output


def _hands(runner, db):
    return json.loads(runner.invoke(cli, ["hand", "list", "-l", "L", "--json", "--db", db]).output)[
        "hands"
    ]


def test_record_evening_takes_an_answer_back_with_undo(runner, db):
    _league(runner, db)
    typed = "민수\n15d\nundo\n16s\nbo\n무르기\ncy\n18\nquit\n"
    result = runner.invoke(
        cli, ["--lang", "ko", "record", "-l", "L", "--evening", "--db", db], input=typed
    )
    assert result.exit_code == 0, result.output
    [hand] = _hands(runner, db)
    assert (hand["declarer"], hand["contract"], hand["friend"], hand["taken"]) == (
        "민수",
        "16S",
        "Cy",
        18,
    )


def test_record_evening_undo_at_the_first_question_goes_back_to_the_declarer(runner, db):
    _league(runner, db)
    typed = "민수\nundo\nBo\n14h\nnone\n14\nquit\n"
    result = runner.invoke(cli, ["record", "-l", "L", "--evening", "--db", db], input=typed)
    assert result.exit_code == 0, result.output
    [hand] = _hands(runner, db)
    assert (hand["declarer"], hand["contract"]) == ("Bo", "14H")


def test_a_quit_in_the_middle_of_a_hand_is_said_twice_at_a_terminal():
    guard = QuitGuard(interactive=True)
    with pytest.raises(ValueError, match="again drops this unfinished hand"):
        guard.check("q")
    guard.check("Bo")  # an answer disarms it
    with pytest.raises(ValueError):
        guard.check("종료")
    with pytest.raises(EOFError):
        guard.check("q")
    with pytest.raises(EOFError):  # piped input quits at once
        QuitGuard(interactive=False).check("q")


def test_session_start_refuses_a_name_one_letter_from_a_player(runner, db):
    _league(runner, db)
    assert runner.invoke(cli, ["session", "end", "-l", "L", "--db", db]).exit_code == 0
    typo = runner.invoke(cli, ["session", "start", "-l", "L", "-p", "민슈,Bo,Cy,Di,Ed", "--db", db])
    assert typo.exit_code == 1 and "one letter from 민수" in typo.output
    assert "mighty player add 민슈" in typo.output
    players = runner.invoke(cli, ["player", "list", "--db", db, "--json"]).output
    assert "민슈" not in players
    assert runner.invoke(cli, ["player", "add", "민슈", "--db", db]).exit_code == 0
    assert (
        runner.invoke(
            cli, ["session", "start", "-l", "L", "-p", "민슈,Bo,Cy,Di,Ed", "--db", db]
        ).exit_code
        == 0
    )


def test_korean_messages_name_a_recorded_hands_fields_in_korean(runner, db):
    _league(runner, db)
    said = runner.invoke(
        cli, ["--lang", "ko", "record", "-l", "L", "--deal-miss", "Bo", "-c", "15D", "--db", db]
    )
    assert said.exit_code == 1 and "공약이 없습니다" in said.output
    assert "contract" not in said.output


def test_korean_hand_show_names_the_friend_call_in_korean(runner, db):
    _league(runner, db)
    assert (
        runner.invoke(
            cli,
            [
                "record",
                "-l",
                "L",
                "-d",
                "민수",
                "-c",
                "15D",
                "-f",
                "Bo",
                "--friend-call",
                "joker",
                "-t",
                "16",
                "--db",
                db,
            ],
        ).exit_code
        == 0
    )
    shown = runner.invoke(cli, ["--lang", "ko", "hand", "show", "-l", "L", "1", "--db", db])
    assert "프렌드 지정 조커" in shown.output and "joker" not in shown.output


def test_ruleset_show_describes_a_bundled_ruleset_in_korean(runner):
    shown = runner.invoke(cli, ["--lang", "ko", "ruleset", "show", "standard"])
    assert (
        shown.output.splitlines()[1]
        == "공약 보너스 점수와 네 가지 배수를 모두 쓰는 공통 규칙(003)."
    )


def test_export_to_a_file_says_what_it_wrote(runner, db, tmp_path):
    _league(runner, db)
    assert (
        runner.invoke(
            cli,
            ["record", "-l", "L", "-d", "민수", "-c", "15D", "-f", "Bo", "-t", "16", "--db", db],
        ).exit_code
        == 0
    )
    path = tmp_path / "l.csv"
    said = runner.invoke(cli, ["export", "-l", "L", "-o", str(path), "--db", db])
    assert said.output == f"Wrote {path} (1 hand, csv).\n"


def test_a_seated_player_with_no_hands_is_in_the_standings(runner, db):
    _league(runner, db)
    assert (
        runner.invoke(
            cli,
            ["record", "-l", "L", "-d", "민수", "-c", "15D", "-f", "Bo", "-t", "16", "--db", db],
        ).exit_code
        == 0
    )
    runner.invoke(cli, ["session", "end", "-l", "L", "--db", db])
    assert runner.invoke(cli, ["player", "add", "Fay", "--db", db]).exit_code == 0
    assert (
        runner.invoke(
            cli, ["session", "start", "-l", "L", "-p", "민수,Bo,Cy,Di,Fay", "--db", db]
        ).exit_code
        == 0
    )
    rows = json.loads(runner.invoke(cli, ["standings", "-l", "L", "--json", "--db", db]).output)[
        "players"
    ]
    assert {"name": "Fay", "hands": 0}.items() <= next(
        r for r in rows if r["name"] == "Fay"
    ).items()


def test_a_refused_trump_change_names_the_contract():
    session = RefereeSession(
        load_ruleset("club-requirements"), "club-requirements", FIVE, "민수", None, opener="민수"
    )
    for line in ("15s", "pass", "pass", "pass", "pass"):
        assert session.handle(line)[0].startswith("✓"), line
    said = session.handle("16h")[0]
    assert said.startswith("✗ exchange: 민수 changed the contract to 16H: changing trump from")


def test_a_second_copy_removed_from_two_decks_names_removed_cards(runner, tmp_path):
    from mighty_cli.engine.records import load_record

    path = tmp_path / "deal.toml"
    assert (
        runner.invoke(
            cli, ["deal", "--seed", "1", "--ruleset", "chicago-8", "-o", str(path)]
        ).exit_code
        == 0
    )
    text = path.read_text(encoding="utf-8")
    deal = load_record(path).hands[0]["deal"]
    holder = next(who for who, cards in deal.items() if "D2" in cards.split())
    other = next(who for who in deal if who not in (holder, "kitty"))
    first = deal[other].split()[0]
    text = text.replace(
        f'{other} = "{deal[other]}"', f'{other} = "{deal[other].replace(first, "D2", 1)}"'
    )
    path.write_text(text, encoding="utf-8")
    said = runner.invoke(cli, ["replay", str(path)])
    assert said.exit_code == 1
    assert "D2 is dealt twice" in said.output and "table.removed_cards" in said.output
    assert "table.decks = 1" not in said.output


def test_an_export_with_no_hand_imports_as_no_hand_not_hands_1_to_0(runner, db, tmp_path):
    _league(runner, db)
    path = tmp_path / "empty.toml"
    assert runner.invoke(cli, ["export", "-l", "L", "-o", str(path), "--db", db]).exit_code == 0
    said = runner.invoke(cli, ["import", str(path), "--league", "Copy", "--db", db])
    assert said.exit_code == 0, said.output
    assert said.output == f"Imported no hand into Copy: {path} has none.\n"
