"""The hidden-partner rating: it follows skill, carries its uncertainty, marks newcomers
provisional; it recovers the skills of seasons drawn from its own model, and on seasons played
card by card by players of known skill it ranks them better than score per hand does."""

from __future__ import annotations

import statistics

import pytest

from mighty_cli.league.model_seasons import skill_season
from mighty_cli.league.rating import PROVISIONAL_HANDS, RatedHand, Ratings, rate, spearman

NAMES = [f"P{i}" for i in range(10)]


def rated_hands(outcomes):
    return [
        RatedHand(
            o.declarer,
            o.friend,
            [p for p in o.players if p not in (o.declarer, o.friend)],
            o.contract.number,
            o.taken,
        )
        for o in outcomes
        if o.status == "scored"
    ]


def evaluate(seed: int, hands: int = 300, make=skill_season):
    from mighty_cli.engine.records import replay

    season = make(NAMES, hands, seed=seed)
    result = replay(season.record)
    ratings = rate(rated_hands(result.hands))
    played = {n: sum(n in o.players for o in result.hands) for n in NAMES}
    truth = [season.skills[n] for n in NAMES]
    return (
        spearman(truth, [ratings.of(n).mu for n in NAMES]),
        spearman(truth, [result.totals[n] / max(1, played[n]) for n in NAMES]),
        spearman(truth, [ratings.of(n).mean for n in NAMES]),
    )


def test_rating_recovers_the_skills_of_its_own_model():
    """skill_season draws the point cards from the margin model: this checks the margin's
    update, not the model (benchmarks/rating_compare.py measures that); the rating (OpenSkill,
    on contracts made or lost) orders them too."""
    rows = [evaluate(seed) for seed in range(1, 9)]
    rating, per_hand, margin = (statistics.fmean(r[k] for r in rows) for k in range(3))
    assert margin > per_hand and margin > 0.85
    assert rating > 0.75


def test_rating_ranks_better_than_score_per_hand_on_seasons_played_card_by_card():
    """Seasons the rating assumed nothing about (skill_play: the probability of playing a sound
    heuristic rather than at random); seeded, so the figures are fixed: the rating (0.63) and
    the margin (0.70) order the players better than score per hand (0.53)."""
    from mighty_cli.league.played_seasons import played_season

    rows = [evaluate(seed, 200, played_season) for seed in range(1, 11)]
    rating, per_hand, margin = (statistics.fmean(r[k] for r in rows) for k in range(3))
    assert rating > per_hand + 0.05, (rating, per_hand)
    assert margin > rating


def test_a_declarer_who_makes_more_than_the_others_rates_highest():
    five = ["Ana", "Bo", "Cy", "Di", "Ed"]
    ratings = Ratings()
    for index in range(100):
        declarer, friend = five[index % 5], five[(index + 2 + index // 5) % 5]
        friend = friend if friend != declarer else five[(index + 1) % 5]
        ratings.update(
            RatedHand(
                declarer,
                friend,
                [p for p in five if p not in (declarer, friend)],
                14,
                17 if declarer == "Ana" else 14,
            )
        )
    best = max(ratings.players.values(), key=lambda p: p.mean)
    assert best.name == "Ana" and best.mean > 0
    assert sum(p.mean for p in ratings.players.values()) == pytest.approx(
        0, abs=ratings.of("Ana").mean
    )


def test_the_declarer_weighs_twice_the_friend():
    ratings = Ratings()
    ratings.level_mean[14] = 0.0
    ratings.level_count[14] = 100
    ratings.update(RatedHand("Ana", "Bo", ["Cy", "Di", "Ed"], 14, 17))
    assert ratings.of("Ana").mean == pytest.approx(2 * ratings.of("Bo").mean)


def test_two_friends_each_weigh_half_the_declarer():
    # 동대전 7마 (friend.called_cards = 2): declarer ×2, each friend ×1, as the payouts
    ratings = Ratings()
    ratings.level_mean[13] = 0.0
    ratings.level_count[13] = 100
    ratings.update(RatedHand("Ana", "Fay", ["Bo", "Cy", "Di", "Ed"], 13, 21, "Gus"))
    assert ratings.of("Gus").mean > 0
    assert ratings.of("Fay").mean == pytest.approx(ratings.of("Gus").mean)
    assert ratings.of("Ana").mean == pytest.approx(2 * ratings.of("Gus").mean)
    assert ratings.of("Gus").hands == 1


def test_league_ratings_read_both_friends_of_a_hand():
    from mighty_cli.site.hand_ratings import league_ratings

    rows = [
        (1, "13C", 1, "declarer", 21),
        (1, "13C", 2, "friend", 21),
        (1, "13C", 3, "friend", 21),
    ] + [(1, "13C", k, "opponent", 21) for k in (4, 5, 6, 7)]
    names = dict(enumerate(["", "Ana", "Fay", "Gus", "Bo", "Cy", "Di", "Ed"]))
    ratings = league_ratings(rows, names)
    assert ratings.of("Gus").hands == 1
    assert ratings.of("Gus").mean > 0
    assert ratings.of("Gus").mean == pytest.approx(ratings.of("Fay").mean)


def test_uncertainty_shrinks_and_provisional_mark_goes():
    from mighty_cli.engine.records import replay

    season = skill_season(["A", "B", "C", "D", "E", "F"], 300, seed=2)
    hands = rated_hands(replay(season.record).hands)
    early, late = rate(hands[:20]), rate(hands)
    assert all(p.provisional for p in early.players.values())
    assert not any(p.provisional for p in late.players.values())
    assert all(late.of(n).uncertainty < early.of(n).uncertainty for n in "ABCDEF")
    assert all(late.of(n).hands >= PROVISIONAL_HANDS for n in "ABCDEF")
    newcomer = Ratings().of("Fay")
    assert newcomer.provisional and newcomer.rating == 1500


def test_five_who_always_play_together_stay_uncertain():
    """With the same five at every hand, only differences between them can be measured:
    the rating says so by keeping its deviation wide."""
    five = ["Ana", "Bo", "Cy", "Di", "Ed"]
    ratings = Ratings()
    for index in range(60):
        declarer, friend = five[index % 5], five[(index + 1) % 5]
        ratings.update(
            RatedHand(
                declarer,
                friend,
                [p for p in five if p not in (declarer, friend)],
                14,
                14 + index % 3,
            )
        )
    assert ratings.of("Ana").provisional


def test_conservative_ranking_puts_a_lucky_newcomer_below_a_proven_player():
    ratings = Ratings()
    ratings.of("Proven").mu, ratings.of("Proven").sigma, ratings.of("Proven").hands = 30.0, 2.0, 500
    ratings.of("Lucky").mu, ratings.of("Lucky").sigma, ratings.of("Lucky").hands = 33.0, 8.0, 3
    assert [p.name for p in ratings.ranked()] == ["Proven", "Lucky"]


def test_spearman():
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1)
    assert spearman([1, 2, 3], [1, 1, 2]) == pytest.approx(0.866, abs=1e-3)


def test_simulated_season_replays_and_imports_into_a_league(tmp_path):
    from databases import run
    from mighty_cli.engine.records import dump_record, read_record, replay
    from mighty_cli.site.hand_ratings import league_ratings
    from mighty_cli.site.page_reads import player_names, rating_rows
    from mighty_cli.store.db import make_engine
    from mighty_cli.store.interchange.imports import import_record
    from mighty_cli.store.ledger.leagues import create_league
    from mighty_cli.store.ledger.lookups import get_league

    season = skill_season(NAMES[:6], 120, seed=3, per_session=40)
    text = dump_record(season.record)
    replayed = replay(read_record(text))
    engine = make_engine(f"sqlite:///{tmp_path / 'l.db'}")
    run(engine, create_league, "sim", "standard")
    imported = run(engine, import_record, "sim", read_record(text))
    assert imported.hands == 120 and len(imported.sessions) == 3
    from_store = run(
        engine,
        lambda s: league_ratings(
            rating_rows(s, get_league(s, "sim").id), player_names(s, get_league(s, "sim").id)
        ),
    )
    direct = rate(rated_hands(replayed.hands))
    assert {n: round(p.mean, 9) for n, p in from_store.players.items()} == {
        n: round(p.mean, 9) for n, p in direct.players.items()
    }
    engine.dispose()


def _site_and_store_ratings(db_url: str, league: str, tmp_path, monkeypatch):
    """The ratings the site's index shows (counted in its pass over the sessions) and those
    read from the store in hand order (rating_rows)."""
    from databases import run
    from mighty_cli.site.build import build_site
    from mighty_cli.site.hand_ratings import league_ratings
    from mighty_cli.site.page_files import SiteWriter
    from mighty_cli.site.page_reads import player_names, rating_rows
    from mighty_cli.store.db import make_engine
    from mighty_cli.store.ledger.lookups import get_league

    shown = []
    real = SiteWriter.write

    def write(self, url, template, depends=(), **context):
        if template == "site_index.html":
            shown.append(context["ratings"])
        return real(self, url, template, depends, **context)

    monkeypatch.setattr(SiteWriter, "write", write)
    engine = make_engine(db_url)
    run(engine, build_site, league, tmp_path / "site", jobs=1)
    stored = run(
        engine,
        lambda s: league_ratings(
            rating_rows(s, get_league(s, league).id), player_names(s, get_league(s, league).id)
        ),
    )
    engine.dispose()
    return shown[0], stored


def test_the_sites_ratings_are_the_stores_when_a_rounds_tables_interleave(tmp_path, monkeypatch):
    """Two tables of a round record in turn: their sessions' hands interleave, so the site's
    pass, reading session by session, must rate them in hand order all the same."""
    import json

    from click.testing import CliRunner

    from mighty_cli.cli import cli

    db = f"sqlite:///{tmp_path / 'cup.db'}"

    def ok(*args) -> str:
        result = CliRunner().invoke(cli, [*args, "--db", db])
        assert result.exit_code == 0, result.output
        return result.output

    ok("league", "create", "cup", "--ruleset", "standard")
    plan = json.loads(ok("round", "start", "-l", "cup", "-p", ",".join(NAMES[:10]), "--json"))
    for taken in (16, 9, 18, 12, 20, 14):
        for table in plan["tables"]:
            players = json.loads(
                ok("session", "show", "-l", "cup", "--session", str(table["session"]), "--json")
            )["next"]["players"]
            ok(
                "record",
                "-l",
                "cup",
                "--table",
                str(table["table"]),
                "-d",
                players[1],
                "-c",
                "14S",
                "-f",
                players[2],
                "-t",
                str(taken - table["table"]),
            )
    from databases import run
    from mighty_cli.site.page_reads import hands_in_session_order, sessions
    from mighty_cli.store.db import make_engine
    from mighty_cli.store.ledger.lookups import get_league

    engine = make_engine(db)
    assert not run(engine, lambda s: hands_in_session_order(sessions(s, get_league(s, "cup").id)))
    engine.dispose()
    site, stored = _site_and_store_ratings(db, "cup", tmp_path, monkeypatch)
    assert len(site.players) == 10
    assert {n: p.mean for n, p in site.players.items()} == {
        n: p.mean for n, p in stored.players.items()
    }


def test_the_sites_ratings_are_the_stores_when_sessions_follow_each_other(tmp_path, monkeypatch):
    from databases import run
    from mighty_cli.site.page_reads import hands_in_session_order, sessions
    from mighty_cli.store.db import make_engine
    from mighty_cli.store.interchange.imports import import_record
    from mighty_cli.store.ledger.leagues import create_league
    from mighty_cli.store.ledger.lookups import get_league

    db = f"sqlite:///{tmp_path / 'l.db'}"
    engine = make_engine(db)
    run(engine, create_league, "sim", "standard")
    season = skill_season(NAMES[:6], 90, seed=5, per_session=30)
    from mighty_cli.engine.records import dump_record, read_record

    run(engine, import_record, "sim", read_record(dump_record(season.record)))
    assert run(engine, lambda s: hands_in_session_order(sessions(s, get_league(s, "sim").id)))
    engine.dispose()
    site, stored = _site_and_store_ratings(db, "sim", tmp_path, monkeypatch)
    assert len(site.players) == 6
    assert {n: p.mean for n, p in site.players.items()} == {
        n: p.mean for n, p in stored.players.items()
    }
