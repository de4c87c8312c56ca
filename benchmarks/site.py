"""The league site at scale: build a league of a million hands, write its site, print the
largest page.

    python benchmarks/site.py [--hands 1000000] [--db URL] [--keep DIR] [--build-only]

The league is built fast through the store's bulk path (the rows ``mighty import`` writes,
``store.interchange``) from a seeded skill-model season
(:mod:`mighty_cli.skill_season`: ten players, sessions of 50 hands with six present), each
hand scored by the engine's scoring (``engine.record.score_outcome``); the five refereed
examples are then imported the ordinary way, so hand pages exist. Target: every page at most
300 KB (``mighty site`` pages long lists).
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert  # noqa: E402

from mighty_cli.engine.cards import parse_bid  # noqa: E402
from mighty_cli.engine.records import load_record, score_outcome  # noqa: E402
from mighty_cli.skill_season import skill_season  # noqa: E402
from mighty_cli.store import services  # noqa: E402
from mighty_cli.store.db import make_engine, transaction  # noqa: E402
from mighty_cli.store.hands import _hand_columns, _member_rows  # noqa: E402
from mighty_cli.store.interchange import BATCH  # noqa: E402
from mighty_cli.store.lookups import ensure_players, get_league, league_rules  # noqa: E402
from mighty_cli.store.models import LeagueSession, SessionSeat, utc_now  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "김철수", "이영희", "박민수"]
PER_SESSION = 50
LIMIT_KB = 300


def timed(label: str, function):
    start = time.perf_counter()
    result = function()
    print(f"{label:<34} {time.perf_counter() - start:8.1f} s", flush=True)
    return result


def build(engine, hands: int, chunk: int = 50_000) -> None:
    """The league ``bench`` with ``hands`` recorded hands, written in bulk: the import's rows
    (``store.hands._hand_columns``, ``_member_rows``) inserted with Core table inserts, one
    executemany per batch, hand ids given (a fresh league) so no id is read back."""
    from sqlalchemy import func
    from sqlmodel import select

    from mighty_cli.store.models import Hand, HandPlayer

    with transaction(engine) as s:
        services.create_league(s, "bench", "standard")
    with transaction(engine) as s:
        league = get_league(s, "bench")
        rules = league_rules(league)
        ids = ensure_players(s, PLAYERS)
        connection = s.connection()
        hand_id = s.exec(select(func.max(Hand.id))).one() or 0
        session_id = s.exec(select(func.max(LeagueSession.id))).one() or 0
        number, session_number = 0, 0
        skills = None
        now = utc_now()
        for start in range(0, hands, chunk):
            season = skill_season(PLAYERS, min(chunk, hands - start), seed=start + 1,
                                  per_session=PER_SESSION, skills=skills)
            skills = season.skills  # the same players' strengths in every chunk
            sessions: dict[int, tuple[int, list[str]]] = {}
            present: dict[int, list[str]] = {}
            for hand in season.record.hands:
                seen = present.setdefault(hand["session"], [])
                seen.extend(name for name in hand["players"] if name not in seen)
            hand_rows, member_rows = [], []
            for hand in season.record.hands:
                if hand["session"] not in sessions:
                    session_id += 1
                    session_number += 1
                    sessions[hand["session"]] = (session_id, present[hand["session"]])
                    connection.execute(insert(LeagueSession.__table__), [dict(
                        id=session_id, league_id=league.id, number=session_number,
                        day=now.date(), first_dealer_id=None, started_at=now, ended_at=now)])
                current, seen = sessions[hand["session"]]
                number += 1
                hand_id += 1
                friend = None if hand["friend"] == "none" else hand["friend"]
                outcome = score_outcome(rules, hand["players"], hand["declarer"],
                                        parse_bid(hand["contract"]), friend, hand["taken"],
                                        friend_call=hand["friend_call"])
                outcome.dealer, outcome.friend_call = hand["dealer"], hand["friend_call"]
                hand_rows.append(dict(id=hand_id, league_id=league.id, session_id=current,
                                      number=number, voided=False, pot_after=0,
                                      record_toml=None, note=None, created_at=now,
                                      **_hand_columns(rules, outcome, ids)))
                member_rows.extend(dict(row, hand_id=hand_id) for row in _member_rows(
                    outcome, seen, outcome.deltas, {}, ids, league.id))  # type: ignore[arg-type]
                if len(hand_rows) >= BATCH:
                    connection.execute(insert(Hand.__table__), hand_rows)
                    connection.execute(insert(HandPlayer.__table__), member_rows)
                    hand_rows, member_rows = [], []
            if hand_rows:
                connection.execute(insert(Hand.__table__), hand_rows)
                connection.execute(insert(HandPlayer.__table__), member_rows)
            connection.execute(insert(SessionSeat.__table__), [
                dict(session_id=sid, seat=seat, player_id=ids[name])
                for sid, names in sessions.values() for seat, name in enumerate(names)])
            print(f"  {number:>9,} hands stored", flush=True)
    for example in ("run", "joker-call", "back-run", "no-trump", "trump-change"):
        with transaction(engine) as s:
            services.import_record(s, "bench", load_record(ROOT / "examples" / f"{example}.toml"),
                                   again=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite "
                                                   "file); an existing league 'bench' is reused")
    parser.add_argument("--keep", default=None, help="write the site here (default: temporary)")
    parser.add_argument("--build-only", action="store_true",
                        help="only build the league (with --db, to write the site in a later run)")
    args = parser.parse_args()
    folder = tempfile.TemporaryDirectory()
    url = args.db or f"sqlite:///{Path(folder.name) / 'bench.db'}"
    engine = make_engine(url)
    with transaction(engine) as s:
        exists = bool(services.league_summaries(s)) and any(
            x.name == "bench" for x in services.league_summaries(s))
    if not exists:
        timed(f"build {args.hands:,} hands (bulk)", lambda: build(engine, args.hands))
    if args.build_only:
        return
    out = Path(args.keep) if args.keep else Path(folder.name) / "site"

    def write():
        from mighty_cli.site_data import build_site

        with transaction(engine) as s:
            return build_site(s, "bench", out, timezone_name="Asia/Seoul")

    report = timed("write the site", write)
    sizes = sorted(((p.stat().st_size, str(p.relative_to(out))) for p in out.rglob("*.html")),
                   reverse=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{report.hands:,} hands, {report.sessions:,} sessions, {report.players} players: "
          f"{report.pages:,} pages, {report.bytes / 2**20:.0f} MB")
    for size, name in sizes[:5]:
        print(f"  {size / 1024:7.1f} KB  {name}")
    print(f"largest page {sizes[0][0] / 1024:.1f} KB ({sizes[0][1]}); limit {LIMIT_KB} KB: "
          f"{'OK' if sizes[0][0] <= LIMIT_KB * 1024 else 'EXCEEDED'}")
    print(f"peak memory (max RSS) {peak:.0f} MB")
    engine.dispose()


if __name__ == "__main__":
    main()
