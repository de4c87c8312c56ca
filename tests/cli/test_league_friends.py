"""Friends a league keeps beyond one player of the table: 허니문's friend hand ("Bo's friend",
rulesets/honeymoon.toml) and 동대전 7마's two friends (friend.called_cards = 2,
rulesets/dongdaejeon-7.toml), through ``record``, ``score``, the score-keeper's questions,
statistics, export/import and backup/restore. The two-friend numbers are held to the engine's
own scoring of a refereed hand with the same outcome."""

from __future__ import annotations

import json

import pytest

from mighty_cli.cli import cli
from mighty_cli.engine.cards import parse_bid, parse_cards
from mighty_cli.engine.hand import (
    BidCall,
    CallFriend,
    Discard,
    apply,
    hand_result,
    legal_plays,
    new_hand,
)
from mighty_cli.engine.hand.actions import parse_friend_call
from mighty_cli.engine.records import state_to_hand
from mighty_cli.engine.ruleset import load_ruleset
from sizes_script import seeded_deal

SEVEN = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus"]


def run(runner, db, *args, input=None, code=0):
    result = runner.invoke(cli, [*args, "--db", db], input=input)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result.output


def start(runner, db, league, ruleset, players):
    run(runner, db, "league", "create", league, "-r", ruleset)
    run(runner, db, "session", "start", "-l", league, "-p", ",".join(players))


def hands(runner, db, league):
    return json.loads(run(runner, db, "hand", "list", "-l", league, "--json"))["hands"]


def stats(db, league):
    from mighty_cli.store.db import make_engine, transaction
    from mighty_cli.store.ledger.lookups import get_league, league_rules
    from mighty_cli.store.ledger.stats import league_stats

    engine = make_engine(db)
    try:
        with transaction(engine) as s:
            row = get_league(s, league)
            return league_stats(s, row.id, league_rules(row))
    finally:
        engine.dispose()


# --- 허니문: the declarer's own friend hand ----------------------------------------------------


def test_honeymoon_league_hand_names_the_friend_hand(runner, db):
    # 000 §3.5.1 (honeymoon.py): the declarer's friend is his own friend hand. Stored in a league
    # it was "alone" before; now hand list names it, in English and in Korean.
    start(runner, db, "hm", "honeymoon", ["Ana", "Bo"])
    out = run(runner, db, "record", "-l", "hm", "-d", "Bo", "-c", "14S", "-f", "friend", "-t", "16")
    assert "Hand 1 (session 1): Bo 14S with Bo's friend, took 16: made" in out
    (hand,) = hands(runner, db, "hm")
    assert (hand["friend"], hand["deltas"]) == ("Bo's friend", {"Ana": -8, "Bo": 8})
    korean = runner.invoke(cli, ["--lang", "ko", "hand", "list", "-l", "hm", "--db", db]).output
    assert "Bo 14S 프렌드 Bo의 프렌드 패, 16장: 성공" in korean
    shown = run(runner, db, "hand", "show", "-l", "hm", "1")
    assert "Bo 14S with Bo's friend, took 16: made" in shown


def test_honeymoon_statistics_count_a_hand_with_a_friend_not_a_lone_declarer(runner, db):
    # The hand had a friend (his friend hand): the declarer is not counted alone, the partner
    # matrix counts Bo calling his own friend hand on its diagonal, and nobody else was friend.
    start(runner, db, "hm", "honeymoon", ["Ana", "Bo"])
    run(runner, db, "record", "-l", "hm", "-d", "Bo", "-c", "14S", "-t", "16", input="")
    run(runner, db, "record", "-l", "hm", "-d", "Bo", "-c", "15H", "-t", "12", input="")
    league = stats(db, "hm")
    bo = league.of("Bo")
    assert (bo.declarer.total.hands, bo.declarer.alone.hands) == (2, 0)
    assert bo.friend.hands == 0 and league.of("Ana").friend.hands == 0
    cell = league.cell("Bo", "Bo")
    bo_points = sum(h["deltas"]["Bo"] for h in hands(runner, db, "hm"))
    assert (cell.hands, cell.made, cell.points) == (2, 1, bo_points)
    assert "none" not in bo.calls  # not a 노프렌드 hand


def test_honeymoon_friend_hand_survives_export_import_and_backup_restore(runner, db, tmp_path):
    start(runner, db, "hm", "honeymoon", ["Ana", "Bo"])
    run(runner, db, "record", "-l", "hm", "-d", "Bo", "-c", "14S", "-t", "16", input="")
    run(runner, db, "record", "-l", "hm", "-d", "Ana", "-c", "14S", "-t", "12", input="")
    before = hands(runner, db, "hm")
    assert [h["friend"] for h in before] == ["Bo's friend", "Ana's friend"]
    for fmt in ("toml", "json", "csv"):
        path = tmp_path / f"hm.{fmt}"
        run(runner, db, "export", "-l", "hm", "-o", str(path))
        if fmt == "csv":  # a CSV does not say its ruleset
            run(runner, db, "league", "create", "hm-csv", "-r", "honeymoon")
        assert "Bo's friend" in path.read_text(encoding="utf-8")
        run(runner, db, "import", str(path), "--league", f"hm-{fmt}")
        again = hands(runner, db, f"hm-{fmt}")
        assert [(h["friend"], h["deltas"]) for h in again] == [
            (h["friend"], h["deltas"]) for h in before
        ]
    backup = tmp_path / "club.jsonl"
    run(runner, db, "backup", "-o", str(backup))
    other = f"sqlite:///{tmp_path / 'restored.db'}"
    run(runner, other, "restore", str(backup))
    assert hands(runner, other, "hm") == before
    assert stats(other, "hm").cell("Bo", "Bo").hands == 1


def test_honeymoon_refereed_league_hand_stores_the_friend_hand(runner, db):
    # the referee's own hand (test_referee_honeymoon: seed 5, Bo declares 20♣ and loses)
    from test_referee_honeymoon import seeded_hand

    start(runner, db, "hm", "honeymoon", ["Ana", "Bo"])
    _state, lines, _call = seeded_hand()
    result = runner.invoke(
        cli,
        ["referee", "--league", "hm", "--db", db, "--seed", "5"],
        input="\n".join(lines) + "\nquit\n",
    )
    assert result.exit_code == 0, result.output
    (hand,) = hands(runner, db, "hm")
    assert (hand["declarer"], hand["friend"], hand["deltas"]) == (
        "Bo",
        "Bo's friend",
        {"Ana": 18, "Bo": -18},
    )
    assert stats(db, "hm").of("Bo").declarer.alone.hands == 0


def test_honeymoon_amend_to_another_declarer_gives_him_his_own_friend_hand(runner, db):
    start(runner, db, "hm", "honeymoon", ["Ana", "Bo"])
    run(runner, db, "record", "-l", "hm", "-d", "Bo", "-c", "14S", "-t", "16", input="")
    out = run(runner, db, "hand", "amend", "-l", "hm", "1", "-d", "Ana", "--reason", "Ana bid")
    assert "now: Ana 14S with Ana's friend, took 16: made" in out
    (hand,) = hands(runner, db, "hm")
    assert (hand["friend"], hand["deltas"]) == ("Ana's friend", {"Ana": 8, "Bo": -8})


# --- 동대전 7마: two friends --------------------------------------------------------------------


def refereed(call: str = "CA+DA"):
    """Seeded deal 1 of seed 7 for seven: Ana declares 13♣, buries ◆3 ◆5 ◆6 ♥4, calls ``call``
    (♣A is Fay's, ◆A Gus's, ♣10 Fay's) and every card is the first legal one."""
    rules = load_ruleset("dongdaejeon-7")
    state = new_hand(rules, SEVEN, "Ana", seeded_deal(rules, SEVEN, 7, 1), opener="Ana")
    state = apply(state, BidCall("Ana", parse_bid("13C")))
    for player in SEVEN[1:]:
        state = apply(state, BidCall(player, None))
    state = apply(state, Discard(tuple(parse_cards("D3 D5 D6 H4"))))
    state = apply(state, CallFriend(parse_friend_call(call, state)))
    while state.phase == "play":
        state = apply(state, legal_plays(state)[0])
    return state


TWO_FRIENDS = {"Ana": 16, "Bo": -8, "Cy": -8, "Di": -8, "Ed": -8, "Fay": 8, "Gus": 8}


def test_dongdaejeon_7_refereed_hand_two_friends_the_reference():
    # 000 §7.5.3: Ana took 15, her friends Fay 3 and Gus 1: 15 + 4 × 1.5 = 21 against 13, base
    # 8; 주공 두배, 프렌즈 기본점수 each.
    state = refereed()
    result = hand_result(state)
    assert (state.points_taken["Ana"], state.points_taken["Fay"], state.points_taken["Gus"]) == (
        15,
        3,
        1,
    )
    assert (result.friend, result.friend2, result.taken, result.score.base) == ("Fay", "Gus", 21, 8)
    assert result.deltas == TWO_FRIENDS and sum(result.deltas.values()) == 0


def test_dongdaejeon_7_score_two_friends_split_weighed_as_the_referee_does(runner):
    result = hand_result(refereed())
    out = json.loads(
        runner.invoke(
            cli,
            [
                "score",
                "-r",
                "dongdaejeon-7",
                "--bid",
                "13",
                "--trump",
                "C",
                "--taken",
                "15+3+1",
                "--json",
            ],
        ).output
    )
    assert (
        out["taken"],
        out["base"],
        out["declarer"],
        out["friend"],
        out["opponent"],
        out["friends"],
    ) == (21, 8, 16, 8, -8, 2)
    assert (out["declarer"], out["friend"], out["opponent"]) == (
        result.score.declarer,
        result.score.friend,
        result.score.opponent,
    )
    # the table's own count, already weighed, with --friends 2: the same shares
    same = json.loads(
        runner.invoke(
            cli,
            [
                "score",
                "-r",
                "dongdaejeon-7",
                "--bid",
                "13",
                "--trump",
                "C",
                "--taken",
                "21",
                "--friends",
                "2",
                "--json",
            ],
        ).output
    )
    assert same == out
    # unweighed, the 19 cards would score base 6: the split is weighed, not added
    text = runner.invoke(
        cli, ["score", "-r", "dongdaejeon-7", "--bid", "13", "--trump", "C", "--taken", "15+3+1"]
    ).output
    assert "declarer +16, each of the two friends +8, each opponent -8" in text
    # zero-sum: the declarer's two shares, each friend one, five opponents
    assert out["declarer"] + 2 * out["friend"] + 4 * out["opponent"] == 0


def test_dongdaejeon_7_record_two_friends_scores_as_the_refereed_hand(runner, db):
    start(runner, db, "d7", "dongdaejeon-7", SEVEN)
    out = run(
        runner,
        db,
        "record",
        "-l",
        "d7",
        "-d",
        "Ana",
        "-c",
        "13C",
        "-f",
        "Fay",
        "-f",
        "Gus",
        "-t",
        "15+3+1",
        "--json",
    )
    hand = json.loads(out)["hand"]
    assert (hand["friend"], hand["friend2"], hand["taken"]) == ("Fay", "Gus", 21)
    assert hand["deltas"] == hand_result(refereed()).deltas == TWO_FRIENDS
    text = run(
        runner,
        db,
        "record",
        "-l",
        "d7",
        "-d",
        "Ana",
        "-c",
        "13C",
        "-f",
        "Fay",
        "-f",
        "Gus",
        "-t",
        "21",
        "--again",
    )
    assert "Hand 2 (session 1): Ana 13C with Fay and Gus, took 21: made" in text
    assert "  Ana +16  Bo -8  Cy -8  Di -8  Ed -8  Fay +8  Gus +8" in text


def test_dongdaejeon_7_record_lone_friend_of_two_cards_counts_double(runner, db):
    # 000 §7.5.3: 프렌즈가 1명이였을 경우 그 프렌즈가 얻은 점수카드는 곱하기 2장: Fay holds ♣A and
    # ♣10, her 3 count 6: 15 + 6 = 21 (1.5 would give 20, base 7).
    lone = hand_result(refereed("CA+C10"))
    assert (lone.friend, lone.friend2, lone.taken) == ("Fay", None, 21)
    start(runner, db, "d7", "dongdaejeon-7", SEVEN)
    hand = json.loads(
        run(
            runner,
            db,
            "record",
            "-l",
            "d7",
            "-d",
            "Ana",
            "-c",
            "13C",
            "-f",
            "Fay",
            "-t",
            "15+3",
            "--json",
        )
    )["hand"]
    assert hand["taken"] == 21 and hand["deltas"] == lone.deltas
    assert hand["deltas"] == {
        "Ana": 32,
        "Bo": -8,
        "Cy": -8,
        "Di": -8,
        "Ed": -8,
        "Fay": 8,
        "Gus": -8,
    }


def test_dongdaejeon_7_scorekeeper_asks_for_one_or_two_friends(runner, db):
    start(runner, db, "d7", "dongdaejeon-7", SEVEN)
    out = run(runner, db, "record", "-l", "d7", input="Ana\n13C\nfay, gus\n15+3+1\n")
    assert (
        "Friends (프렌드): one or two names, or none [none]: Point cards taken by the "
        "ruling party (or the declarer's+each friend's, e.g. 10+8+2): "
    ) in out
    assert "Ana 13C with Fay and Gus, took 21: made" in out
    assert "  Ana +16  Bo -8  Cy -8  Di -8  Ed -8  Fay +8  Gus +8" in out
    # a name twice, then three names, are asked again; a split naming too many friends too
    out = run(
        runner, db, "record", "-l", "d7", input="Ana\n13C\nFay Fay\nFay Gus Ed\nFay\n15+3+1\n15+3\n"
    )
    assert "✗ Fay is named twice: one player holding both called cards is one friend" in out
    assert "✗ name one or two friends (two cards are called: friend.called_cards = 2)" in out
    assert (
        "✗ 15+3+1 names 2 friends' cards after the declarer's, and this hand had 1: give "
        "one part per friend, or the ruling party's count"
    ) in out
    assert "Ana 13C with Fay, took 21: made" in out


def test_dongdaejeon_7_two_friends_refused_where_one_card_is_called(runner, db, tmp_path):
    from databases import snapshot
    from mighty_cli.store.db import make_engine

    start(runner, db, "std", "standard", ["Ana", "Bo", "Cy", "Di", "Ed"])
    engine = make_engine(db)
    before = snapshot(engine)
    out = run(
        runner,
        db,
        "record",
        "-l",
        "std",
        "-d",
        "Bo",
        "-c",
        "15D",
        "-f",
        "Cy",
        "-f",
        "Di",
        "-t",
        "16",
        code=2,
    )
    assert out.splitlines()[-1] == (
        "Error: --friend: give one friend, or two where the ruleset "
        "calls two cards (friend.called_cards = 2)"
    )
    out = run(
        runner,
        db,
        "record",
        "-l",
        "std",
        "-d",
        "Bo",
        "-c",
        "15D",
        "-f",
        "Cy",
        "-t",
        "14+3+1",
        code=2,
    )
    assert out.splitlines()[-1] == (
        "Error: Invalid value for --taken: 14+3+1 names 2 friends' "
        "cards after the declarer's, and this hand had 1: give one "
        "part per friend, or the ruling party's count"
    )
    assert snapshot(engine) == before
    engine.dispose()
    record = tmp_path / "two.toml"
    record.write_text(
        'format = "mighty-hand-record/1"\nruleset = "standard"\n'
        'players = ["Ana", "Bo", "Cy", "Di", "Ed"]\n[[hands]]\ndeclarer = "Bo"\n'
        'contract = "15D"\nfriend = "Cy"\nfriend2 = "Di"\ntaken = 16\n',
        encoding="utf-8",
    )
    result = runner.invoke(cli, ["replay", str(record)])
    assert result.exit_code == 1
    assert result.output == (
        "Error: hand 1: friend2 = 'Di': standard calls one card, so the "
        "declarer has one friend at most (friend.called_cards)\n"
    )


def test_dongdaejeon_7_two_friends_in_records_replay_and_round_trip(runner, db, tmp_path):
    # A season file with the refereed hand (its record) and the same outcome recorded: both
    # replay to the same deltas, import into a league that lists both friends, count both as
    # friends in the statistics, and survive export and import.
    state = refereed()
    full = state_to_hand(state, seeded_deal(load_ruleset("dongdaejeon-7"), SEVEN, 7, 1))
    import tomli_w

    recorded = {
        "dealer": "Ana",
        "declarer": "Ana",
        "contract": "13C",
        "friend": "Fay",
        "friend2": "Gus",
        "friend_call": "CA+DA",
        "taken": 21,
    }
    path = tmp_path / "d7.toml"
    path.write_text(
        tomli_w.dumps(
            {
                "format": "mighty-hand-record/1",
                "ruleset": "dongdaejeon-7",
                "players": SEVEN,
                "hands": [full, recorded],
            }
        ),
        encoding="utf-8",
    )
    replayed = json.loads(runner.invoke(cli, ["replay", str(path), "--json"]).output)
    assert [h["deltas"] for h in replayed["hands"]] == [TWO_FRIENDS, TWO_FRIENDS]
    assert [h.get("friend2") for h in replayed["hands"]] == ["Gus", "Gus"]
    run(runner, db, "import", str(path), "--league", "d7")
    listed = hands(runner, db, "d7")
    assert [(h["friend"], h["friend2"], h["deltas"]) for h in listed] == [
        ("Fay", "Gus", TWO_FRIENDS)
    ] * 2
    league = stats(db, "d7")
    assert (league.of("Fay").friend.hands, league.of("Gus").friend.hands) == (2, 2)
    assert (league.cell("Ana", "Fay").hands, league.cell("Ana", "Gus").hands) == (2, 2)
    site = tmp_path / "site"
    run(runner, db, "site", "-l", "d7", "--output", str(site))
    pages = "".join(page.read_text(encoding="utf-8") for page in site.rglob("*.html"))
    assert "<td>Fay, Gus <span" in pages  # the session page's friend column names both
    for fmt in ("toml", "json", "csv"):
        out = tmp_path / f"export.{fmt}"
        run(runner, db, "export", "-l", "d7", "-o", str(out))
        if fmt == "csv":  # a CSV does not say its ruleset; the friends share one cell
            run(runner, db, "league", "create", "d7-csv", "-r", "dongdaejeon-7")
            assert ',Ana,13C,"Fay, Gus",CA+DA,21,' in out.read_text(encoding="utf-8")
        run(runner, db, "import", str(out), "--league", f"d7-{fmt}")
        again = hands(runner, db, f"d7-{fmt}")
        assert [(h["friend"], h["friend2"], h["deltas"]) for h in again] == [
            (h["friend"], h["friend2"], h["deltas"]) for h in listed
        ]


def test_dongdaejeon_7_amend_keeps_the_second_friend(runner, db):
    start(runner, db, "d7", "dongdaejeon-7", SEVEN)
    run(
        runner,
        db,
        "record",
        "-l",
        "d7",
        "-d",
        "Ana",
        "-c",
        "13C",
        "-f",
        "Fay",
        "-f",
        "Gus",
        "-t",
        "21",
    )
    out = run(runner, db, "hand", "amend", "-l", "d7", "1", "-t", "20", "--reason", "recount")
    assert "now: Ana 13C with Fay and Gus, took 20: made" in out
    (hand,) = hands(runner, db, "d7")
    assert hand["deltas"] == {"Ana": 14, "Bo": -7, "Cy": -7, "Di": -7, "Ed": -7, "Fay": 7, "Gus": 7}
    # --friend twice names the friends again; once, one friend (Ana's balance: four shares)
    out = run(
        runner,
        db,
        "hand",
        "amend",
        "-l",
        "d7",
        "1",
        "-f",
        "Ed",
        "-f",
        "Gus",
        "--reason",
        "Ed held ♣A",
    )
    assert "now: Ana 13C with Ed and Gus, took 20: made" in out
    out = run(runner, db, "hand", "amend", "-l", "d7", "1", "-f", "Ed", "--reason", "one friend")
    assert "now: Ana 13C with Ed, took 20: made" in out
    (hand,) = hands(runner, db, "d7")
    assert "friend2" not in hand and hand["deltas"]["Ana"] == 28


@pytest.mark.parametrize(
    "args",
    [
        ["--taken", "15+3+1", "--friends", "1"],
        ["--taken", "15+3+1", "--no-friend"],
        ["--taken", "15+3+1+1"],
        ["--taken", "15+9+9"],
    ],
)
def test_dongdaejeon_7_score_split_that_does_not_fit_is_a_usage_error(runner, args):
    result = runner.invoke(
        cli, ["score", "-r", "dongdaejeon-7", "--bid", "13", "--trump", "C", *args]
    )
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.splitlines()[-1].startswith("Error: Invalid value for")


def test_dongdaejeon_7_score_says_the_count_is_weighed_not_took_21_of_20(runner):
    """A weighed count may pass the point cards in play (two friends' 19 cards count 21): the
    score says the count is weighed instead of "took 21 of 20"; a hand alone keeps "took"."""
    text = runner.invoke(
        cli, ["score", "-r", "dongdaejeon-7", "--bid", "13", "--trump", "C", "--taken", "15+3+1"]
    ).output
    assert (
        "13C (clubs) made: the ruling party counts 21, its friends' point cards weighed "
        "(20 in play)"
        in text
        and "of 20" not in text
    )
    alone = runner.invoke(
        cli,
        [
            "score",
            "-r",
            "dongdaejeon-7",
            "--bid",
            "13",
            "--trump",
            "C",
            "--taken",
            "12",
            "--no-friend",
        ],
    ).output
    assert "13C (clubs) failed: ruling party took 12 of 20" in alone


def test_dongdaejeon_7_friend_call_words_name_both_called_cards():
    """The table's words for a two-card call name both cards, not only the first."""
    from mighty_cli.table.view import friend_call_words, pretty_card

    call = next(action.call for action in refereed().history if isinstance(action, CallFriend))
    assert call.card2 is not None
    assert friend_call_words(call) == f"{pretty_card(call.card)} and {pretty_card(call.card2)}"
    one = parse_friend_call("SA", load_ruleset("standard"))
    assert friend_call_words(one) == "♠A"


def test_dongdaejeon_7_amend_taken_split_is_weighed(runner, db):
    """``hand amend --taken 15+3+1`` weighs the split as ``record`` does (15 + 4 × 1.5 = 21),
    with the hand's friends, or the friends given with it (one friend: 15 + 4 × 2 = 23)."""
    start(runner, db, "d7", "dongdaejeon-7", SEVEN)
    run(
        runner,
        db,
        "record",
        "-l",
        "d7",
        "-d",
        "Ana",
        "-c",
        "13C",
        "-f",
        "Fay",
        "-f",
        "Gus",
        "-t",
        "12",
    )
    out = run(runner, db, "hand", "amend", "-l", "d7", "1", "-t", "15+3+1", "--reason", "split")
    assert "now: Ana 13C with Fay and Gus, took 21: made" in out
    (hand,) = hands(runner, db, "d7")
    assert hand["deltas"] == TWO_FRIENDS
    out = run(
        runner,
        db,
        "hand",
        "amend",
        "-l",
        "d7",
        "1",
        "-f",
        "Fay",
        "-t",
        "15+4",
        "--reason",
        "one friend",
    )
    assert "now: Ana 13C with Fay, took 23: made" in out
    # a split that does not fit the hand's friends: a usage error, nothing changed
    out = run(runner, db, "hand", "amend", "-l", "d7", "1", "-t", "15+3+1", "--reason", "x", code=2)
    assert "names 2 friends' cards" in out
    assert hands(runner, db, "d7")[0]["taken"] == 23


def test_dongdaejeon_7_opposition_count_refused_where_friends_are_weighed(runner, db):
    """Under 동대전's weights the opposition's count cannot say the ruling party's (it depends
    on which of them took the cards): ``record`` refuses it in one line and stores nothing,
    ``score`` is a usage error; alone, the opposition's count still scores."""
    start(runner, db, "d7", "dongdaejeon-7", SEVEN)
    out = run(
        runner, db, "record", "-l", "d7", "-d", "Ana", "-c", "13C", "-f", "Fay", "-o", "5", code=1
    )
    assert (
        "opposition = 5 cannot be scored under dongdaejeon-7: its friends' point cards are "
        "weighed (scoring.friend_weight), so give taken" in out
    )
    assert len(out.strip().splitlines()) == 1 and hands(runner, db, "d7") == []
    run(runner, db, "record", "-l", "d7", "-d", "Ana", "-c", "13C", "-f", "none", "-o", "5")
    assert hands(runner, db, "d7")[0]["taken"] == 15
    usage = runner.invoke(
        cli,
        [
            "score",
            "-r",
            "dongdaejeon-7",
            "--bid",
            "13",
            "--trump",
            "C",
            "--opposition",
            "5",
            "--friends",
            "2",
        ],
    )
    assert usage.exit_code == 2 and "give --taken, split as the declarer's" in usage.output
    alone = runner.invoke(
        cli,
        [
            "score",
            "-r",
            "dongdaejeon-7",
            "--bid",
            "13",
            "--trump",
            "C",
            "--opposition",
            "5",
            "--no-friend",
        ],
    )
    assert alone.exit_code == 0 and "took 15 of 20" in alone.output
