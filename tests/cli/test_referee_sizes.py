"""The referee, deal, replay, score and simulate at every bundled table size (2마 to 7마), 6마 and
7마 elimination included: one random legal hand typed through the CLI per ruleset, with known
cards (--seed) and with open cards, scored as the engine scores it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evening_script import parse_proposal
from mighty_cli.cli import cli
from mighty_cli.engine import hand as engine
from mighty_cli.engine.cards import format_card
from mighty_cli.engine.records import load_record
from mighty_cli.engine.ruleset import load_ruleset
from sizes_script import names, play_out, seeded_deal, typed_lines

ROOT = Path(__file__).resolve().parents[2]
#: Every bundled ruleset whose table is not five dealt with nobody eliminated.
SIZES = sorted(
    path.stem
    for path in (ROOT / "rulesets").glob("*.toml")
    if (lambda r: r.table.players != 5 or r.table.eliminated)(load_ruleset(path.stem))
)
ELIMINATING = [name for name in SIZES if load_ruleset(name).table.eliminated]


def test_every_size_is_covered():
    sizes = {load_ruleset(name).table.players for name in SIZES}
    assert {2, 3, 4, 6, 7} <= sizes
    assert {"standard-6", "standard-7", "daejeon-6", "gwanak-6"} <= set(ELIMINATING)


def first_proposal(runner, args):
    """The referee's proposal for hand 1 (dealer, opener, the players), read from a run that
    types nothing."""
    probe = runner.invoke(cli, ["referee", *args], input="")
    assert probe.exit_code == 0, probe.output
    _number, dealer, opener, _out, playing = parse_proposal(probe.output)
    return dealer, opener, playing


def referee_one_hand(runner, tmp_path, ruleset, open_cards):
    rules = load_ruleset(ruleset)
    present = names(rules.table.players)
    args = ["-r", ruleset, "--players", ",".join(present)] + ([] if open_cards else ["--seed", "5"])
    drafted = rules.table.deal == "draft" and not open_cards
    if drafted:  # the drafted hands are the table's: the referee takes them from a file
        args[-2:] = ["--deal", str(_drafted_file(tmp_path, rules, present))]
    dealer, opener, playing = first_proposal(runner, args)
    assert playing == present
    state = play_out(rules, playing, dealer, opener, seeded_deal(rules, playing, 5, 1))
    lines = typed_lines(state, open_cards=open_cards)
    saved = tmp_path / f"{ruleset}.toml"
    result = runner.invoke(
        cli, ["referee", *args, "--save", str(saved)], input="\n".join(lines) + "\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "✗" not in result.output, result.output
    return rules, state, saved, result.output


def _drafted_file(tmp_path, rules, present) -> Path:
    """Hand 1's drafted deal (seed 5, as seeded_deal drafts it) as a record --deal reads."""
    from mighty_cli.engine.cards import format_cards
    from mighty_cli.engine.records import Record, dump_record

    deal = seeded_deal(rules, present, 5, 1)
    path = tmp_path / "drafted.toml"
    path.write_text(
        dump_record(
            Record(
                ruleset=rules.name,
                players=present,
                hands=[
                    {
                        "dealer": present[0],
                        "deal": {who: format_cards(cards) for who, cards in deal.items()},
                    }
                ],
            )
        ),
        encoding="utf-8",
    )
    return path


def test_referee_refuses_a_seed_where_the_players_draft(runner):
    result = runner.invoke(
        cli, ["referee", "-r", "variant-2", "--players", "Ana,Bo", "--seed", "5"], input=""
    )
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        "Error: variant-2: the players draft their hands at the table (table.deal = draft), so "
        "--seed cannot know them; referee with open cards, or give the drafted hands with "
        "--deal FILE"
    )


@pytest.mark.parametrize("open_cards", [False, True], ids=["full-cards", "open-cards"])
@pytest.mark.parametrize("ruleset", SIZES)
def test_referee_plays_a_hand_at_every_table_size(runner, tmp_path, ruleset, open_cards):
    rules, state, saved, output = referee_one_hand(runner, tmp_path, ruleset, open_cards)
    expected = engine.hand_result(state).deltas
    players = list(expected)
    lines = output.splitlines()
    # the result table: each player's change, as the engine scores the hand
    header = next(i for i, line in enumerate(lines) if sorted(line.split()) == sorted(players))
    shown = dict(zip(lines[header].split(), lines[header + 2].split()))
    assert {p: int(v) for p, v in shown.items()} == expected
    replayed = json.loads(runner.invoke(cli, ["replay", str(saved), "--json"]).output)
    assert replayed["hands"][0]["deltas"] == expected
    assert sum(expected.values()) == 0
    if rules.table.eliminated:
        assert f"eliminated (탈락): {', '.join(state.eliminated)}" in lines
        for card, holder in state.eliminations:
            if holder in state.eliminated:
                assert any(
                    line.endswith(
                        f"✓ {state.declarer} calls {_pretty(card)}: {holder} is eliminated (탈락)"
                    )
                    for line in lines
                ), output
        hand = load_record(saved).hands[0]
        assert len(hand["elimination"]) == len(state.eliminations)
        assert ("redistribution" in hand) is not open_cards
        if open_cards:
            assert "the eliminated hands and the kitty are dealt out (unseen: open cards)" in lines
        if rules.table.dummy:  # 시흥 은마: an eliminated player plays the dummy's hand
            assert sorted(expected) == sorted(names(rules.table.players))
        else:
            assert all(expected[p] == 0 for p in state.eliminated)
    if rules.table.partner_hands:  # 허니문: his own friend hand, the only call (no none)
        assert any(
            f"[friend] {state.declarer}'s friend is his own friend hand" in line for line in lines
        ), output
    elif rules.table.players <= 3:  # 3마, 2마: no friend can be called
        assert any(
            f"[friend] {state.declarer} plays alone: none, or a new contract" in line
            for line in lines
        ), output
    if rules.table.players < 5 and not open_cards:
        kitty = rules.table.kitty_size
        assert any(f"discards {kitty} (contract" in line for line in lines), output


def _pretty(card: int) -> str:
    from mighty_cli.table.view import pretty_card

    return pretty_card(card)


def _to_elimination(runner, ruleset, open_cards, extra: str):
    """A hand typed up to the elimination, then ``extra``: (the hand's final state, output)."""
    rules = load_ruleset(ruleset)
    present = names(rules.table.players)
    args = ["-r", ruleset, "--players", ",".join(present)] + ([] if open_cards else ["--seed", "5"])
    dealer, opener, playing = first_proposal(runner, args)
    state = play_out(rules, playing, dealer, opener, seeded_deal(rules, playing, 5, 1))
    lines = typed_lines(state, open_cards=open_cards)
    bids = sum(1 for a in state.history if isinstance(a, engine.BidCall))
    result = runner.invoke(
        cli, ["referee", *args], input="\n".join(lines[:bids]) + "\n" + extra + "\nquit\ndiscard\n"
    )
    assert result.exit_code == 0, result.output
    return state, result.output


def test_elimination_call_of_the_declarers_own_card_is_refused(runner):
    state, _ = _to_elimination(runner, "standard-6", False, "")
    declarer = state.declarer
    held = seeded_deal(state.rules, names(6), 5, 1)[declarer][0]
    _, output = _to_elimination(runner, "standard-6", False, format_card(held).lower())
    assert (
        f"✗ elimination: {declarer} called {format_card(held)}, which he holds himself "
        f"(the card eliminates its holder)" in output
    )


def test_open_cards_elimination_asks_who_held_the_card(runner):
    _, output = _to_elimination(runner, "standard-7", True, "h10")
    assert "✗ open cards: say who held ♥10: h10 NAME, or h10 kitty" in output
    _, output = _to_elimination(runner, "standard-7", True, "h10 kitty")
    assert any(
        line.endswith("calls ♥10: it is in the kitty; he calls again")
        for line in output.splitlines()
    ), output


def test_undo_takes_back_the_unseen_redistribution_with_the_last_call(runner):
    state, _ = _to_elimination(runner, "standard-6", True, "")
    call = next(
        a for a in state.history if isinstance(a, engine.Eliminate) and a.player in state.eliminated
    )
    line = f"{format_card(call.card).lower()} {call.player}"
    _, output = _to_elimination(runner, "standard-6", True, f"{line}\nundo\nlegal")
    lines = output.splitlines()
    took = f": ↶ took back the elimination call of {_pretty(call.card)}"
    index = next(i for i, line in enumerate(lines) if line.endswith(took))
    assert lines[index].startswith("[friend] ")  # the unseen pile and discard went with it
    assert lines[index + 1].startswith("[elimination 1 of 1] ")
    assert lines[index + 1].endswith(
        f"legal: any card in play but {state.declarer}'s own; one "
        f"in the kitty (or an eliminated player's) is called again"
    )


def test_the_tool_deals_the_pile_out_the_same_way_every_time(runner):
    state, _ = _to_elimination(runner, "standard-6", False, "")
    calls = [format_card(a.card).lower() for a in state.history if isinstance(a, engine.Eliminate)]
    outputs = [
        _to_elimination(runner, "standard-6", False, "\n".join(calls) + "\ndeal\ntable")[1]
        for _ in range(2)
    ]
    dealt = [[line for line in out.splitlines() if "✓ dealt out: " in line] for out in outputs]
    assert dealt[0] and dealt[0] == dealt[1]
    pile_line = next(
        line
        for line in outputs[0].splitlines()
        if line.startswith("the eliminated hands and the kitty: ")
    )
    pile = sorted(pile_line.split(": ", 1)[1].split())
    given = dealt[0][0].split("✓ dealt out: ", 1)[1]
    received = sorted(card for share in given.split("; ") for card in share.split()[1:])
    assert received == pile
    # the declarer now holds 13 and discards three; each other player holds ten
    assert f"[exchange] {state.declarer} discards 3 (contract" in outputs[0]


def test_players_outside_the_table_size_are_refused_in_one_line(runner):
    result = runner.invoke(cli, ["referee", "-r", "standard-4", "--players", "A,B,C"], input="")
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        "Error: Invalid value for --players: expected 4 to 6 distinct names: standard-4 seats "
        "4 (table.players), and one or two more take turns to sit out"
    )


def test_four_ma_with_six_present_sits_two_out_in_turn(runner):
    result = runner.invoke(
        cli,
        ["referee", "-r", "standard-4", "--players", "Ana,Bo,Cy,Di,Ed,Fay", "--seed", "3"],
        input="out Cy,Di\n",
    )
    lines = result.output.splitlines()
    assert (
        "— hand 1: dealer Ana, opener Cy, sitting out Ana, Bo; playing Cy, Di, Ed, Fay "
        "(change before the first call: dealer/opener/out NAME)"
    ) in lines
    assert (
        "— hand 1: dealer Ana, opener Ana, sitting out Cy, Di; playing Ana, Bo, Ed, Fay "
        "(change before the first call: dealer/opener/out NAME)"
    ) in "\n".join(lines)
    result = runner.invoke(
        cli,
        ["referee", "-r", "standard-4", "--players", "Ana,Bo,Cy,Di,Ed,Fay", "--seed", "3"],
        input="out Cy\n",
    )
    assert "✗ out: 2 sit out at this table, named 1" in result.output


@pytest.mark.parametrize("ruleset", SIZES)
def test_deal_replay_and_simulate_at_every_size(runner, tmp_path, ruleset):
    rules = load_ruleset(ruleset)
    dealt = tmp_path / "dealt.toml"
    result = runner.invoke(
        cli, ["deal", "--seed", "11", "-r", ruleset, "--hands", "2", "-o", str(dealt)]
    )
    if rules.table.deal == "draft":  # no deal to print: the players draft at the table
        assert result.exit_code == 2
        assert "table.deal = draft" in result.output.splitlines()[-1]
    else:
        assert result.exit_code == 0, result.output
        record = load_record(dealt)
        assert len(record.players) == rules.table.players
        for hand in record.hands:
            assert all(
                len(hand["deal"][p].split()) == rules.table.hand_size for p in record.players
            )
            assert len(hand["deal"]["kitty"].split()) == rules.table.kitty_size
    tried = tmp_path / "tried.toml"
    result = runner.invoke(
        cli,
        ["simulate", "--ruleset", ruleset, "--hands", "12", "--seed", "2", "--output", str(tried)],
    )
    assert result.exit_code == 0, result.output
    replayed = json.loads(runner.invoke(cli, ["replay", str(tried), "--json"]).output)
    assert sum(replayed["totals"].values()) == 0
    for hand in replayed["hands"]:
        assert sum(hand["deltas"].values()) == 0


@pytest.mark.parametrize("ruleset", ["standard-2", "standard-3", "jeju-3"])
def test_score_at_two_and_three_players_is_the_declarer_alone(runner, ruleset):
    rules = load_ruleset(ruleset)
    result = runner.invoke(
        cli, ["score", "-r", ruleset, "--bid", "14", "--trump", "S", "--taken", "16"]
    )
    assert result.exit_code == 0, result.output
    others = rules.table.players - 1
    unit = int(result.output.split("→ ")[1].split()[0])
    assert result.output.splitlines()[-1] == (
        f"declarer +{unit * others}, alone, each opponent -{unit}"
    )


def test_score_at_six_ma_pays_the_five_who_play(runner):
    result = runner.invoke(
        cli, ["score", "-r", "standard-6", "--bid", "14", "--trump", "S", "--taken", "16"]
    )
    assert result.output.splitlines()[-2:] == [
        "base 2 × 1 (no doublings) → 2 per opponent",
        "declarer +4, friend +2, each opponent -2",
    ]


def test_recorded_six_ma_outcome_names_the_eliminated(runner, tmp_path):
    path = tmp_path / "six.toml"
    text = (
        'ruleset = "standard-6"\nplayers = ["A", "B", "C", "D", "E", "F"]\n[[hands]]\n'
        'dealer = "A"\ndeclarer = "B"\ncontract = "14S"\nfriend = "C"\ntaken = 16\n'
    )
    path.write_text(text)
    result = runner.invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        "Error: hand 1: eliminated: standard-6 eliminates 1 (table.eliminated): say who "
        "(eliminated = [...])"
    )
    path.write_text(text + 'eliminated = ["D"]\n')
    shown = json.loads(runner.invoke(cli, ["replay", str(path), "--json"]).output)
    assert shown["totals"] == {"A": -2, "B": 4, "C": 2, "D": 0, "E": -2, "F": -2}
    path.write_text(text + 'eliminated = ["C"]\n')
    result = runner.invoke(cli, ["replay", str(path)])
    assert result.output.splitlines()[-1] == (
        "Error: hand 1: eliminated: C is the friend; the eliminated play no trick"
    )


def test_recorded_three_ma_outcome_with_a_friend_is_refused(runner, tmp_path):
    path = tmp_path / "three.toml"
    path.write_text(
        'ruleset = "standard-3"\nplayers = ["A", "B", "C"]\n[[hands]]\n'
        'dealer = "A"\ndeclarer = "B"\ncontract = "14S"\nfriend = "C"\ntaken = 16\n'
    )
    result = runner.invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        "Error: hand 1: friend = 'C', but the declarer always plays alone under standard-3 "
        '(friend = "none")'
    )


def test_naming_rule_eliminates_the_player_named(runner, tmp_path):
    club = tmp_path / "named-6.toml"
    club.write_text(
        'extends = "standard-6"\n[meta]\nname = "named-6"\ntitle = "named"\n'
        '[table]\neliminate_by = "player"\n'
    )
    typed = ["14s"] + ["pass"] * 5 + ["legal", "c5", "Ana", "fay", "undo"]
    result = runner.invoke(
        cli,
        ["referee", "-r", str(club), "--players", ",".join(names(6)), "--seed", "2"],
        input="\n".join(typed) + "\nquit\ndiscard\n",
    )
    lines = result.output.splitlines()
    ask = "[elimination 1 of 1] Ana names a player to eliminate (탈락): "
    assert ask + "✗ 'c5' is not one of the players (Ana, Bo, Cy, Di, Ed, Fay)" in lines
    assert ask + "✗ elimination: Ana cannot eliminate himself" in lines
    assert ask + "✓ Ana eliminates Fay (탈락)" in lines
    assert ask + "legal: Bo, Cy, Di, Ed, Fay" in lines
    assert "to deal out: Ana 5, Bo 2, Cy 2, Di 2, Ed 2" in lines
    assert any(line.endswith("↶ took back the elimination of Fay") for line in lines)
