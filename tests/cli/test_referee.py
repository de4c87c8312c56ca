"""`mighty referee`: the live table, driven line by line."""

from __future__ import annotations

import random

from mighty_cli.cli import cli
from mighty_cli.cli.referee import resume_session
from mighty_cli.engine import hand as engine
from mighty_cli.engine.cards import format_bid, format_cards
from mighty_cli.engine.records import load_record, replay
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.table.referee_session import RefereeSession

PLAYERS = ["민수", "Bo", "Cy", "Di", "Ed"]


def line_for(action) -> str:
    """What a referee would type for an engine action."""
    if isinstance(action, engine.BidCall):
        return "pass" if action.bid is None else format_bid(action.bid).lower()
    if isinstance(action, engine.DeclareDealMiss):
        return f"miss {action.player}"
    if isinstance(action, engine.Discard):
        return format_cards(action.cards).lower()
    if isinstance(action, engine.ChangeContract):
        return f"contract {format_bid(action.contract)}"
    if isinstance(action, engine.CallFriend):
        return engine.format_friend_call(action.call)
    return engine.format_play(action).lower()


def played_hand(seed: int, ruleset: str = "standard"):
    """A finished random legal hand (not a deal miss or redeal) and its deal."""
    rules = load_ruleset(ruleset)
    while True:
        rng = random.Random(seed)
        deal = engine.deal_cards(seed, PLAYERS)
        state = engine.new_hand(rules, PLAYERS, PLAYERS[0], deal)
        while state.phase not in ("done", "deal_miss", "redeal"):
            state = engine.apply(state, engine.random_legal_action(state, rng))
        if state.phase == "done":
            return state, deal
        seed += 1000


def session_for(deal, ruleset: str = "standard", **kwargs) -> RefereeSession:
    return RefereeSession(load_ruleset(ruleset), ruleset, list(PLAYERS), PLAYERS[0], deal, **kwargs)


def test_referee_plays_a_whole_hand_and_scores_it():
    final, deal = played_hand(3)
    session = session_for(deal)
    for action in final.history:
        out = session.handle(line_for(action))
        assert out and out[0].startswith("✓"), out
    assert session.state.phase == "done"
    text = "\n".join(session.status())
    result = engine.hand_result(final)
    assert f"declarer {result.score.declarer:+d}" in text


def test_illegal_entry_is_refused_with_the_rule_and_changes_nothing():
    final, deal = played_hand(5)
    session = session_for(deal)
    # everything up to the first card of trick 2, then a card the player does not hold
    actions = list(final.history)
    first_play = next(i for i, a in enumerate(actions) if isinstance(a, engine.Play))
    for action in actions[: first_play + 5]:
        session.handle(line_for(action))
    before = session.state
    mover = before.to_move
    foreign = next(
        c
        for who, cards in deal.items()
        if who not in (mover, "kitty")
        for c in cards
        if c in before.hands[who]
    )
    out = session.handle(format_cards([foreign]))
    assert out[0].startswith("✗ trick 2:") and mover in out[0]
    assert session.state is before


def test_undo_takes_back_the_last_action():
    final, deal = played_hand(7)
    session = session_for(deal)
    first = line_for(final.history[0])
    session.handle(first)
    assert len(session.states) == 2
    out = session.handle("undo")
    assert out[0].startswith("↶ took back")
    assert len(session.states) == 1
    assert session.handle("u") == ["nothing to undo"]


def test_save_and_resume_an_interrupted_hand(tmp_path):
    final, deal = played_hand(11)
    path = tmp_path / "hand.toml"
    session = session_for(deal, save_path=path)
    actions = list(final.history)
    half = len(actions) // 2
    for action in actions[:half]:
        session.handle(line_for(action))
    record = load_record(path)
    assert replay(record).hands[0].status == "in_progress"
    resumed = resume_session(path, path)
    assert resumed.state.history == session.state.history
    for action in actions[half:]:
        assert resumed.handle(line_for(action))[0].startswith("✓")
    finished = replay(load_record(path)).hands[0]
    assert finished.status == "scored"
    assert finished.deltas == engine.hand_result(final).deltas
    resumed.handle("undo")  # undo reaches back before the resume
    assert len(resumed.state.history) == len(actions) - 1


def test_open_cards_referee_catches_a_revoke_naming_the_earlier_trick():
    session = session_for(None)
    for line in ["13s", "pass", "pass", "pass", "pass", "sa"]:
        session.handle(line)  # 민수 declares 13S, discards unseen, calls the Mighty friend
    assert session.state.phase == "play", session.prompt()
    # trick 1: 민수 leads a heart; Bo shows out of hearts with a club
    for line in ["h2", "c5", "h3", "h4", "h5"]:
        session.handle(line)
    # trick 2 is led by whoever won trick 1; play until Bo's turn, then Bo plays a heart
    leader = session.state.to_move
    order = PLAYERS[PLAYERS.index(leader) :] + PLAYERS[: PLAYERS.index(leader)]
    cards = iter(["d2", "d3", "d4", "d5", "d6"])
    for player in order:
        if player == "Bo":
            out = session.handle("h9")
            assert out[0].startswith("✗ trick 2:"), out
            assert "trick 1" in out[0]
            break
        session.handle(next(cards))


def test_referee_command_reads_lines_and_saves(runner, tmp_path):
    final, deal = played_hand(13)
    path = tmp_path / "hand.toml"
    lines = "\n".join(line_for(a) for a in final.history) + "\nq\n"
    # the same deal through --deal from a saved record
    dealt = tmp_path / "deal.toml"
    runner.invoke(cli, ["deal", "--seed", "1", "--players", ",".join(PLAYERS), "-o", str(dealt)])
    session = session_for(deal, save_path=path)
    session.handle("save")
    result = runner.invoke(cli, ["referee", "--resume", str(path)], input=lines)
    assert result.exit_code == 0, result.output
    assert "declarer" in result.output
    assert replay(load_record(path)).hands[0].status == "scored"


def test_referee_needs_five_players(runner):
    result = runner.invoke(cli, ["referee", "--players", "A,B,C"])
    assert result.exit_code == 2


def test_referee_saves_a_finished_hand_into_a_league(runner, tmp_path):
    db = f"sqlite:///{tmp_path / 'league.db'}"
    assert (
        runner.invoke(
            cli, ["league", "create", "목요리그", "--ruleset", "standard", "--db", db]
        ).exit_code
        == 0
    )
    final, deal = played_hand(17)
    path = tmp_path / "hand.toml"
    session_for(deal, save_path=path).handle("save")
    lines = "\n".join(line_for(a) for a in final.history) + "\nq\n"
    result = runner.invoke(
        cli, ["referee", "--resume", str(path), "--league", "목요리그", "--db", db], input=lines
    )
    assert result.exit_code == 0, result.output
    assert "saved to league 목요리그 as hand 1" in result.output
    standings = runner.invoke(cli, ["standings", "--league", "목요리그", "--db", db, "--json"])
    scores = {p["name"]: p["score"] for p in __import__("json").loads(standings.output)["players"]}
    assert scores == dict(engine.hand_result(final).deltas.items())


def test_referee_refuses_an_unknown_league_before_play(runner, tmp_path):
    db = f"sqlite:///{tmp_path / 'league.db'}"
    assert runner.invoke(cli, ["player", "add", "Zed", "--db", db]).exit_code == 0
    result = runner.invoke(
        cli,
        ["referee", "--players", ",".join(PLAYERS), "--league", "nope", "--db", db],
        input="q\n",
    )
    assert result.exit_code == 1
    assert "nope" in result.output and "[election]" not in result.output
