"""`mighty referee` runs a club evening: hand after hand, the league's session, typos survived.

Each test here names the bug of the club-evening issue it pins (each failed on the old code).
"""

from __future__ import annotations

import json
import random

import pytest

from evening_script import parse_proposal, random_hand, typed_lines
from mighty_cli.cli import cli
from mighty_cli.engine import hand as engine
from mighty_cli.engine.records import load_record, replay
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.table.books import SaveFile
from mighty_cli.table.evening import Evening
from mighty_cli.table.referee_session import RefereeSession

SIX = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay"]


def league_with_session(runner, db, ruleset="seoul-science", players=SIX, name="club"):
    assert runner.invoke(cli, ["league", "create", name, "-r", ruleset, "--db", db]).exit_code == 0
    started = runner.invoke(
        cli, ["session", "start", "-l", name, "-p", ",".join(players), "--db", db]
    )
    assert started.exit_code == 0, started.output


def scores(runner, db, league="club") -> dict:
    out = runner.invoke(cli, ["standings", "-l", league, "--db", db, "--json"])
    return {p["name"]: p["score"] for p in json.loads(out.output)["players"]}


def referee(runner, db, text, *args):
    return runner.invoke(cli, ["referee", "--league", "club", "--db", db, *args], input=text)


def test_six_present_league_hand_is_stored_not_lost_to_a_key_error(runner, db):
    """Bug: with six present the finished hand ended in KeyError on the sitter-out."""
    league_with_session(runner, db)
    first = referee(runner, db, "q\n")
    _, dealer, opener, out, five = parse_proposal(first.output)
    assert out == [dealer]  # the dealer sits out (docs/rules.md §9)
    final = random_hand(load_ruleset("seoul-science"), five, dealer, opener, 3)
    result = referee(runner, db, "\n".join(typed_lines(final)) + "\nq\n")
    assert result.exit_code == 0, result.output
    assert "internal error" not in result.output
    assert "saved to league club as hand 1" in result.output
    league = scores(runner, db)
    assert {p: league.get(p, 0) for p in five} == engine.hand_result(final).deltas
    assert league.get(dealer, 0) == 0


def test_the_dealer_sitting_out_can_be_named(runner, db):
    """Bug: --dealer Di with six present said "not one of the players"."""
    league_with_session(runner, db)
    result = referee(runner, db, "q\n", "--dealer", "Di")
    assert result.exit_code == 0, result.output
    _, dealer, _, out, five = parse_proposal(result.output)
    assert dealer == "Di" and out == ["Di"] and "Di" not in five


def test_league_ruleset_is_used_not_standard(runner, db):
    """Bug: without -r the table was refereed under standard, not the league's seoul-science:
    a bid of 13 was accepted (refused only after all 50 cards)."""
    league_with_session(runner, db, players=SIX[:5])
    result = referee(runner, db, "13s\nq\n")
    assert "✗" in result.output and "14" in result.output  # refused at once
    assert "seoul-science" in result.output.splitlines()[0]


def test_a_different_ruleset_than_the_leagues_is_an_error(runner, db):
    league_with_session(runner, db, players=SIX[:5])
    result = referee(runner, db, "q\n", "-r", "standard")
    assert result.exit_code == 2
    assert "seoul-science" in result.output and "[election]" not in result.output


def test_league_scores_what_the_table_saw(runner, db):
    """Bug: the table saw +8/+4/-4 under standard, the league stored +4/+2/-2."""
    league_with_session(runner, db, players=SIX[:5])
    first = referee(runner, db, "q\n")
    _, dealer, opener, _, five = parse_proposal(first.output)
    final = random_hand(load_ruleset("seoul-science"), five, dealer, opener, 11)
    result = referee(runner, db, "\n".join(typed_lines(final)) + "\nq\n")
    deltas = engine.hand_result(final).deltas
    table_row = [
        line
        for line in result.output.splitlines()
        if line.split() == [f"{deltas[p]:+d}" for p in five]
    ]
    assert table_row, result.output
    assert scores(runner, db) == deltas


def test_save_never_replaces_a_record_it_did_not_write(runner, tmp_path):
    """Bug: --save hand1.toml silently replaced a finished hand."""
    path = tmp_path / "hand1.toml"
    path.write_text("# a finished hand, written by someone else\n", encoding="utf-8")
    result = runner.invoke(
        cli, ["referee", "--players", ",".join(SIX[:5]), "--save", str(path)], input="13s\nq\n"
    )
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1
    assert "exists" in result.output
    assert path.read_text(encoding="utf-8").startswith("# a finished hand")


def test_save_command_refuses_a_foreign_file_and_a_folder(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    other = tmp_path / "other.toml"
    other.write_text("x = 1\n", encoding="utf-8")
    result = runner.invoke(
        cli,
        ["referee", "--players", ",".join(SIX[:5])],
        input=f"save {other}\nsave /\nsave {tmp_path}\n13s\nq\n",
    )
    assert result.exit_code == 0, result.output
    assert result.output.count("✗") >= 3
    assert other.read_text(encoding="utf-8") == "x = 1\n"
    assert "✓" in result.output  # the referee went on after the typos


def test_quit_without_save_keeps_the_work_when_piped(runner, tmp_path, monkeypatch):
    """Bug: quit without --save discarded a finished hand unasked."""
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, ["referee", "--players", ",".join(SIX[:5])], input="13s\npass\nq\n")
    assert result.exit_code == 0, result.output
    kept = list(tmp_path.glob("mighty-evening-*.toml"))
    assert len(kept) == 1 and str(kept[0].name) in result.output
    hand = load_record(kept[0]).hands[0]
    assert hand["election"] == ["Ana 13S", "Bo pass"]


def test_quit_asks_first_at_a_terminal(tmp_path):
    rules = load_ruleset("standard")
    evening = Evening(rules, "standard", SIX[:5], interactive=True)
    evening.start_hand()
    evening.handle("13s")
    asked = evening.handle("quit")
    assert not evening.done and "not saved" in asked[0]
    assert evening.handle("back") == ["back to the table"] and not evening.done
    evening.handle("quit")
    target = tmp_path / "kept.toml"
    assert evening.handle(str(target)) == [f"saved to {target}"] and evening.done
    assert load_record(target).hands[0]["election"] == ["Ana 13S"]


def test_prompt_shows_the_led_suit_and_who_is_winning():
    """Bug: `[trick 4] Cy plays:` never showed what was led or what is on the table."""
    session = RefereeSession(load_ruleset("standard"), "standard", SIX[:5], "Ana", None)
    for line in ["13s", "pass", "pass", "pass", "pass", "sa", "h2", "hk"]:
        assert session.handle(line)[0].startswith("✓"), line
    prompt = session.prompt()
    assert "♥ led" in prompt and "Bo's ♥K winning" in prompt and prompt.endswith("Cy plays")
    table = "\n".join(session.handle("table"))
    assert "on the table Ana ♥2, Bo ♥K" in table and "Bo winning" in table
    assert "points in tricks" in table and "not known yet" in table


def test_table_shows_cards_left_when_the_deal_is_known():
    deal = engine.deal_cards(5, SIX[:5])
    final = random_hand(load_ruleset("standard"), SIX[:5], "Ana", "Ana", 5)
    session = RefereeSession(
        load_ruleset("standard"),
        "standard",
        SIX[:5],
        "Ana",
        engine.deal_cards(5, SIX[:5]) if deal else None,
    )
    for line in typed_lines(final, open_cards=False):
        session.handle(line)
        if session.state.phase == "play" and session.state.current_trick:
            break
    table = "\n".join(session.handle("t"))
    assert "holds" in table and "cards left:" in table


def test_undo_n_takes_back_n_entries_in_the_tables_words():
    """Bugs: `undo 2` undid one action; messages printed class names (ChangeContract)."""
    session = RefereeSession(load_ruleset("standard"), "standard", SIX[:5], "Ana", None)
    for line in ["13s", "pass", "pass", "pass", "pass", "15s", "sa", "h2", "hq"]:
        assert session.handle(line)[0].startswith("✓"), line
    out = session.handle("undo 2")
    assert out[0] == "↶ took back Bo's ♥Q, Ana's ♥2"
    out = session.handle("undo 2")
    assert "the friend call (♠A)" in out[0] and "change of contract to 15♠" in out[0]
    assert "ChangeContract" not in out[0] and session.state.phase == "friend"


def test_undo_trick_goes_back_to_the_start_of_the_trick():
    session = RefereeSession(load_ruleset("standard"), "standard", SIX[:5], "Ana", None)
    for line in [
        "13s",
        "pass",
        "pass",
        "pass",
        "pass",
        "sa",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "s2",
        "s3",
    ]:
        assert session.handle(line)[0].startswith("✓"), line
    session.handle("undo trick")
    assert session.state.trick_number == 2 and not session.state.current_trick
    session.handle("undo to 1")
    assert session.state.trick_number == 1 and not session.state.current_trick


def test_friend_phase_takes_a_bare_contract():
    """Bug: in the friend phase `16s` was refused unless typed `contract 16s`."""
    session = RefereeSession(load_ruleset("standard"), "standard", SIX[:5], "Ana", None)
    for line in ["14h", "pass", "pass", "pass", "pass"]:
        session.handle(line)
    out = session.handle("16s")
    assert out[0] == "✓ contract is now 16♠"


def test_revoke_names_the_proving_trick_and_the_way_out():
    session = RefereeSession(load_ruleset("standard"), "standard", SIX[:5], "Ana", None)
    for line in ["13s", "pass", "pass", "pass", "pass", "sa", "h2", "c5", "h3", "h4", "h5"]:
        session.handle(line)
    leader = session.state.to_move
    order = SIX[:5][SIX.index(leader) :] + SIX[:5][: SIX.index(leader)]
    cards = iter(["d2", "d3", "d4", "d5", "d6"])
    for player in order:
        if player == "Bo":
            out = session.handle("h9")
            break
        session.handle(next(cards))
    assert out[0].startswith("✗") and "trick 1" in out[0]
    assert "undo to 1" in out[1]


@pytest.mark.parametrize(
    "typo",
    [
        "miss Zed",
        "hand Zed",
        "dm",
        "deal-miss nobody",
        "save /",
        "undo banana",
        "player:Zed",
        "out Zed",
        "dealer",
        "jk/x",
        "13",
        "c3!!",
        "\x1b[A",
        "contract",
        "save",
    ],
)
def test_a_typo_never_ends_the_referee(runner, tmp_path, monkeypatch, typo):
    """Bug: `miss Zed`, `hand Zed`, `dm`, `deal-miss nobody`, `save /` exited the program."""
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(
        cli, ["referee", "--players", ",".join(SIX[:5])], input=f"{typo}\n13s\nq\n"
    )
    assert result.exit_code == 0, result.output
    assert "✓ Ana 13" in result.output  # the next entry is taken: the referee goes on


def garbage_evening(tmp_path, hands: int, seed: int = 20240611):
    """An evening of ``hands`` random legal hands with seeded garbage typed between the legal
    entries (a garbage line that happens to be legal is followed by 'undo', as a referee
    would); returns the script and the evening that took it."""
    rng = random.Random(seed)
    rules = load_ruleset("standard")
    # no letter a-e (a name's first letter: "miss A" is a real deal miss)
    alphabet = "fghijkmnoqrstuvwxyz0123456789!/:-♠♥ ,.?\t\x1b[]Z"
    words = [
        "miss",
        "dm",
        "hand",
        "save",
        "table",
        "legal",
        "contract",
        "player:",
        "jk/",
        "c3!",
        "st",
        "help",
        "deal-miss",
        "undo x",
        "save /",
        "hand Zed",
        "out",
        "dealer",
    ]
    evening = Evening(rules, "standard", SIX[:5], save=SaveFile(tmp_path / "shadow.toml"))
    evening.start_hand()
    script: list[str] = []
    garbage = 0
    for hand_number in range(hands):
        hand = evening.hand
        final = random_hand(rules, hand.players, hand.dealer, hand.opener, 100 + hand_number)
        for line in typed_lines(final):
            for _ in range(rng.randrange(8, 20)):
                junk = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 12)))
                if rng.random() < 0.5:
                    junk = f"{rng.choice(words)} {junk}"
                if junk.split() and junk.split()[0].lower() in (
                    "q",
                    "quit",
                    "exit",
                    "u",
                    "undo",
                    "p",
                ):
                    junk = "x" + junk  # the words that rightly end the evening, undo or pass
                before = evening.hand.state
                out = evening.handle(junk)
                script.append(junk)
                garbage += 1
                assert not evening.done, (junk, out)
                assert not any("could not be handled" in o for o in out), (junk, out)
                if any(o.startswith("✓") for o in out):  # garbage that is a legal entry
                    evening.handle("undo")
                    script.append("undo")
                    assert evening.hand.state.history == before.history, junk
            out = evening.handle(line)
            script.append(line)
            assert out and out[0].startswith("✓"), (line, out)
    return script, evening, garbage


def test_seeded_garbage_between_legal_entries_never_ends_the_evening(tmp_path, monkeypatch):
    """Bug: random garbage typed between legal entries ended the session 1,035 times in 7,712."""
    monkeypatch.chdir(tmp_path)  # "save <garbage>" saves to a file of that name, as asked
    script, evening, garbage = garbage_evening(tmp_path, 6)
    assert garbage > 4000
    assert len(evening.finished) == 6
    assert replay(load_record(tmp_path / "shadow.toml")).totals == evening.replayed().totals


def test_seeded_garbage_piped_into_the_referee_never_ends_it(runner, tmp_path, monkeypatch):
    """The same through the command, one entry per line: the evening ends only at 'q'."""
    monkeypatch.chdir(tmp_path)
    script, evening, _ = garbage_evening(tmp_path, 2, seed=7)
    path = tmp_path / "evening.toml"
    result = runner.invoke(
        cli,
        ["referee", "--players", ",".join(SIX[:5]), "--save", str(path)],
        input="\n".join(script) + "\nq\n",
    )
    assert result.exit_code == 0, result.output[-2000:]
    assert result.output.count("✗") > 1000
    assert "internal error" not in result.output and "could not be handled" not in result.output
    assert replay(load_record(path)).totals == evening.replayed().totals
    assert len(load_record(path).hands) == 2


def test_an_evening_runs_several_hands_with_succession(runner, tmp_path):
    """Bug: one hand per run, no next hand, --players retyped each time."""
    path = tmp_path / "evening.toml"
    rules = load_ruleset("standard")
    script, output = [], ""
    result = runner.invoke(
        cli, ["referee", "--players", ",".join(SIX), "--save", str(path)], input="q\n"
    )
    for k in range(3):
        _, dealer, opener, out, five = parse_proposal(result.output)
        final = random_hand(rules, five, dealer, opener, 40 + k)
        script = typed_lines(final)
        result = runner.invoke(
            cli, ["referee", "--resume", str(path)], input="\n".join(script) + "\nq\n"
        )
        assert result.exit_code == 0, result.output
        output += result.output
    record = load_record(path)
    outcomes = replay(record).hands
    assert [o.status for o in outcomes] == ["scored"] * 3
    dealers = [h["dealer"] for h in record.hands]
    friends = [o.friend or o.declarer for o in outcomes]
    assert dealers[1:] == friends[:2]  # the previous friend deals (docs/rules.md §9)
    assert all(h["dealer"] not in h["players"] for h in record.hands)  # and sits out


def test_the_sessions_end_rule_ends_the_refereed_evening(runner, db, tmp_path):
    """The league's session.hands_per_session ends the evening after the last hand."""
    from club_files import club_file

    rules_path = club_file(tmp_path, hands_per_session=2)
    assert (
        runner.invoke(cli, ["league", "create", "club", "-r", rules_path, "--db", db]).exit_code
        == 0
    )
    assert (
        runner.invoke(
            cli, ["session", "start", "-l", "club", "-p", ",".join(SIX[:5]), "--db", db]
        ).exit_code
        == 0
    )
    rules = load_ruleset(rules_path)
    result = referee(runner, db, "q\n")
    script = []
    _, dealer, opener, _, five = parse_proposal(result.output)
    first = random_hand(rules, five, dealer, opener, 21)
    script += typed_lines(first)
    result = referee(runner, db, "\n".join(script) + "\nq\n")
    _, dealer, opener, _, five = parse_proposal(result.output)
    second = random_hand(rules, five, dealer, opener, 22)
    result = referee(runner, db, "\n".join(typed_lines(second)) + "\n13s\n")
    assert result.exit_code == 0, result.output
    assert "ended by the ruleset (session.hands_per_session = 2" in result.output
    assert "— hand 3" not in result.output and "Ana 13" not in result.output


def test_before_each_card_the_table_is_shown_at_a_glance():
    from evening_script import line_for

    evening = Evening(load_ruleset("standard"), "standard", SIX[:5], seed=3)
    evening.start_hand()
    rng = random.Random(3)
    seen = []
    while evening.hand is not None and not evening.hand.over and len(seen) < 12:
        state = evening.hand.state
        if state.phase == "play":
            seen.append(evening.glance()[0])
        action = engine.random_legal_action(state, rng)
        if isinstance(action, engine.DeclareDealMiss):
            continue
        assert evening.handle(line_for(action, open_cards=False))[0].startswith("✓")
    assert len(seen) == 12
    assert seen[0].startswith("  · ") and "to lead trick 1" in seen[0]
    assert "on the table" in seen[1] and "points 여당 0 / others 0" in seen[1]
    assert all(" holds " in line for line in seen)
