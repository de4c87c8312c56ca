"""Role statistics from SQL aggregates agree with the same statistics counted hand by hand
from the league's hand views (the reference, in the test only), on every database."""

from __future__ import annotations

import pytest

from databases import run
from site_league import EVIL, LEAGUE


def reference(views, rules):
    """Per player: declarer (hands, made, bid sum, runs, back runs), friend (hands, won),
    defender (hands, won); calibration; partner cells; pairs together/opposed."""
    from mighty_cli.engine.cards import parse_bid
    from mighty_cli.store.ledger.stats import call_kind

    out = {}
    calibration, partners, pairs, calls = {}, {}, {}, {}

    def of(name):
        return out.setdefault(
            name,
            {"declarer": [0, 0, 0, 0, 0, 0], "friend": [0, 0], "defender": [0, 0], "calls": {}},
        )

    for v in views:
        if v.voided or v.status != "scored":
            continue
        level = parse_bid(v.contract).number
        made = bool(v.success)
        d = of(v.declarer)["declarer"]
        d[0] += 1
        d[1] += made
        d[2] += level
        d[3] += ("run" in v.doublings) or (v.taken == 20 and made)
        d[4] += "back_run" in v.doublings
        d[5] += v.deltas[v.declarer]
        c = calibration.setdefault(level, [0, 0])
        c[0] += 1
        c[1] += made
        kind = call_kind(v.friend_call, v.contract, rules, v.friend is not None)
        calls.setdefault(kind, [0, 0])
        calls[kind][0] += 1
        calls[kind][1] += made
        if v.friend:
            f = of(v.friend)["friend"]
            f[0] += 1
            f[1] += made
            cell = partners.setdefault((v.declarer, v.friend), [0, 0])
            cell[0] += 1
            cell[1] += made
        ruling = {v.declarer, v.friend}
        for name in v.players:
            if name not in ruling:
                x = of(name)["defender"]
                x[0] += 1
                x[1] += not made
        for a in v.players:
            for b in v.players:
                if a != b:
                    p = pairs.setdefault((a, b), [0, 0, 0])
                    p[0] += 1
                    opposed = (a in ruling) != (b in ruling)
                    p[1] += opposed
                    p[2] += v.deltas[a] if opposed else 0
    return out, calibration, partners, pairs, calls


def test_role_statistics_agree_with_the_hands(league_engine):
    from mighty_cli.store.ledger.hand_reads import list_hands
    from mighty_cli.store.ledger.lookups import get_league, league_rules
    from mighty_cli.store.ledger.stats import league_stats

    def both(s):
        league = get_league(s, LEAGUE)
        rules = league_rules(league)
        return league_stats(s, league.id, rules), list_hands(s, LEAGUE), rules

    stats, views, rules = run(league_engine, both)
    players, calibration, partners, pairs, calls = reference(views, rules)
    assert set(stats.players) == set(players)
    for name, want in players.items():
        got = stats.of(name)
        d = got.declarer
        assert [d.total.hands, d.total.won, d.bid_sum, d.back_runs, d.total.points] == [
            want["declarer"][i] for i in (0, 1, 2, 4, 5)
        ], name
        assert [got.friend.hands, got.friend.won] == want["friend"], name
        assert [got.defender.hands, got.defender.won] == want["defender"], name
        assert sum(t.hands for t in d.by_level.values()) == d.total.hands
        assert d.suit.hands + d.no_trump.hands == d.total.hands
    assert {k: [t.hands, t.won] for k, t in stats.calibration.items()} == calibration
    assert {(c.declarer, c.friend): [c.hands, c.made] for c in stats.partners} == partners
    assert {k: [t.hands, t.won] for k, t in stats.calls.items()} == calls
    got_pairs = {
        (a, line.other): [line.together, line.opposed, line.opposed_points]
        for a, lines in stats.head_to_head.items()
        for line in lines
    }
    assert got_pairs == pairs


def test_head_to_head_is_symmetric(league_engine):
    from mighty_cli.store.ledger.lookups import get_league
    from mighty_cli.store.ledger.stats import head_to_head

    lines = run(league_engine, lambda s: head_to_head(s, get_league(s, LEAGUE).id))
    table = {(a, x.other): x for a, xs in lines.items() for x in xs}
    assert EVIL in lines
    for (a, b), line in table.items():
        back = table[(b, a)]
        assert (line.together, line.partners, line.opposed) == (
            back.together,
            back.partners,
            back.opposed,
        )


@pytest.mark.parametrize(
    "call, contract, has_friend, kind",
    [
        ("SA", "14H", True, "mighty"),
        ("SA", "14S", True, "card"),  # spades trump: the Mighty is ◆A
        ("DA", "14S", True, "mighty"),
        ("mighty", "15D", True, "mighty"),
        ("JK", "15D", True, "joker"),
        ("joker", "15D", True, "joker"),
        ("HA", "15D", True, "card"),
        ("first-trick", "15D", True, "first-trick"),
        ("player:Bo", "15D", True, "player"),
        ("none", "15D", False, "none"),
        (None, "15D", False, "none"),
        (None, "15D", True, "unknown"),
        ("HK+DK", "15C", True, "card"),  # 동대전 7마: two cards called
        ("HK+SA", "15C", True, "mighty"),  # the Mighty is one of them
        ("HK+joker", "15C", True, "joker"),
        ("HK+XX", "15C", True, "unknown"),
        ("SA lead:H", "20NT", True, "mighty"),  # a lead asked of the friend: the card still counts
    ],
)
def test_friend_call_kind(call, contract, has_friend, kind):
    from mighty_cli.engine.ruleset import load_ruleset
    from mighty_cli.store.ledger.stats import call_kind

    assert call_kind(call, contract, load_ruleset("standard"), has_friend) == kind
