"""The league site (``mighty site``): reads a league from the store and writes its static
pages (:mod:`mighty_cli.site.page_files`): the index (league table with ratings, chart, latest
session; a league of rounds, its tournament table), the tournament page (a league of rounds:
the tournament table, the matchpoints of its duplicate rounds, each round's table and
substitutes: :mod:`mighty_cli.store.rounds.tournament_view`), the statistics page (bid calibration,
friend calls, partner matrix), one page per player (role statistics, rating, partners and
opponents, every session), one per session (every hand) and one per refereed hand (its
outcome, then the deal and the tricks: :mod:`mighty_cli.site.hand_page`).

Builds are incremental (:class:`mighty_cli.site.page_files.SiteWriter`): each page's key is
what it shows, read cheaply before anything is rendered (a hand page: its record, its session,
seats and stored outcome; a session page: its hands' lines; the index: the standings, chart
and ratings), under a version of everything else the pages depend on (:func:`site_version`:
the templates, the language and its catalog, the time zone, the ruleset, the players' links,
the code). The time of generation is not part of a key: a page kept from an earlier build
keeps its time.

The league's hands are read once, session by session (memory stays flat as a league grows):
that pass writes the session pages, counts who met whom
(:class:`mighty_cli.store.ledger.stats.HeadToHead`) and rates the hands
(:mod:`mighty_cli.site.hand_ratings`; in hand order: when a round's tables interleave, the rated
hands are held and sorted first); the role statistics are grouped in the database
(:mod:`mighty_cli.store.ledger.stats`). A build collects garbage rarely
(:mod:`mighty_cli.site.garbage`).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from .. import __version__
from ..engine.ruleset import bundled_dir
from ..engine.translation import DOMAIN, LOCALE_DIR
from ..league.rating import Ratings
from ..render.html import chart, local_clock, local_day, local_time, page_language, time_zone
from ..store.ledger.league_page import LeaguePage, league_page
from ..store.ledger.lookups import PLAYING_ROLES, RULING_ROLES, get_league, league_rules
from ..store.ledger.stats import CALL_KINDS, HeadToHead, LeagueStats, is_live, league_stats
from ..store.rounds.round_lookups import latest_round_state, rounds_by_player
from ..store.rounds.tournament_view import TournamentView, tournament_view
from . import page_files as pages
from . import page_reads as q
from .garbage import fewer_collections
from .hand_page import hand_detail, hand_outcome, outcome_facts
from .hand_ratings import RatingPass, league_ratings
from .manifest import Unkeyed, fingerprint
from .workers import available_jobs

if TYPE_CHECKING:
    from datetime import tzinfo

    from sqlmodel import Session

    from ..engine.ruleset import Ruleset
    from ..store.models import League
    from ..store.rounds.round_layout import RoundState


@dataclass
class SiteReport:
    folder: Path
    pages: int  # pages the site has
    bytes: int
    largest: tuple[int, str]
    players: int
    sessions: int
    hands: int
    written: int = 0  # pages rendered and written by this build
    removed: int = 0  # pages the site no longer has, removed
    left: int = 0  # pages the site no longer has, left: changed since written


#: The code that makes the pages (paths in mighty_cli/): a change to it changes every page's key.
_CODE = (
    "site/build.py",
    "site/hand_ratings.py",
    "site/hand_page.py",
    "site/page_frames.py",
    "site/page_files.py",
    "site/manifest.py",
    "site/page_reads.py",
    "league/rating.py",
    "league/standings.py",
    "render/html.py",
    "render/text.py",
    "render/page_filters.py",
    "render/escaping.py",
    "render/chart.py",
    "render/constant_messages.py",
    "store/ledger/queries.py",
    "store/ledger/league_page.py",
    "store/ledger/stats.py",
    "store/rounds/round_tables.py",
    "store/rounds/round_layout.py",
    "store/rounds/round_lookups.py",
    "store/rounds/round_board.py",
    "store/rounds/tournament_view.py",
    "store/rounds/duplicate.py",
    "store/rounds/substitutes.py",
    "tournament/ranking.py",
    "tournament/matchpoints.py",
)


def site_version(
    template_dir: str | Path | None, lang: str | None, zone: tzinfo, rules: Ruleset, common: dict
) -> str:
    """The key shared by every page: the bundled templates (their bytes), a club's folder
    (each file's name, size and time: a club's templates can show anything anywhere, so then
    the ratings count too), the page language and its catalog, the time zone, the ruleset,
    what every page is given (but the time of generation) and the code."""
    package = Path(__file__).resolve().parents[1]  # mighty_cli: _CODE's paths are in it
    parts: list = [__version__, [(name, _bytes(package / name)) for name in _CODE]]
    bundled = bundled_dir("templates")
    parts.append(sorted((p.name, _bytes(p)) for p in bundled.iterdir() if p.suffix == ".html"))
    if template_dir:
        club = []
        for folder, _folders, files in os.walk(template_dir):  # links not followed
            for name in files:
                try:
                    info = os.lstat(os.path.join(folder, name))
                except OSError:
                    continue
                club.append(
                    (
                        os.path.relpath(os.path.join(folder, name), template_dir),
                        stat.S_IFMT(info.st_mode),
                        info.st_size,
                        info.st_mtime_ns,
                    )
                )
        parts.append(sorted(club))
    language = page_language(lang)
    parts += [language, _bytes(LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"), repr(zone)]
    shown = {
        k: v
        for k, v in common.items()
        if k not in ("generated", "local", "clock", "local_day", "pages")
        and (template_dir or k != "ratings")
    }  # the ratings: only the index shows them
    try:
        return fingerprint(parts, shown, rules)
    except Unkeyed:
        return fingerprint(parts, shown, getattr(rules, "name", ""))


def _bytes(path: Path) -> str:
    try:
        return path.read_bytes().hex() if path.stat().st_size < 1 << 20 else ""
    except OSError:
        return ""


def build_site(
    s: Session,
    league_name: str,
    output: str | Path,
    *,
    template_dir: str | Path | None = None,
    lang: str | None = None,
    timezone_name: str | None = None,
    generated: datetime | None = None,
    full: bool = False,
    progress: Callable[[int, int | None], None] | None = None,
    jobs: int | None = None,
) -> SiteReport:
    """Write the league's site into ``output`` (created if needed; pages already there are
    replaced one by one, never half-written): only the pages whose content changed, unless
    ``full``; pages the site no longer has are removed (those the tool wrote). ``progress``
    is told of each page (:class:`.page_files.SiteWriter`). Pages render in up to
    ``jobs`` processes (default: one per core; :mod:`.workers`)."""
    with fewer_collections():  # a fifth of the time otherwise (mighty_cli.site.garbage)
        return _build_site(
            s,
            league_name,
            output,
            template_dir,
            lang,
            timezone_name,
            generated,
            full,
            progress,
            jobs,
        )


def _build_site(
    s: Session,
    league_name: str,
    output: str | Path,
    template_dir: str | Path | None,
    lang: str | None,
    timezone_name: str | None,
    generated: datetime | None,
    full: bool,
    progress: Callable[[int, int | None], None] | None,
    jobs: int | None,
) -> SiteReport:
    zone = time_zone(timezone_name)
    league = get_league(s, league_name)
    league_id = league.id
    assert league_id is not None  # (a stored league)
    rules = league_rules(league)
    names = q.player_names(s, league_id)
    ids = {name: player_id for player_id, name in names.items()}
    sessions = q.sessions(s, league_id)
    by_id = {x.id: x for x in sessions}
    when = local_time(generated or datetime.now(timezone.utc), zone)
    common = {
        "league": league.name,
        "ruleset": rules.name,
        "ruleset_title": rules.meta.title,
        "generated": when,
        "pages": pages.URLS,
        "ids": ids,
        # a league of rounds has a tournament page, in every page's menu
        "tournament_page": q.has_rounds(s, league_id),
        "local": lambda moment: local_time(moment, zone),
        "clock": lambda moment: local_clock(moment, zone),
        "local_day": lambda moment: local_day(moment, zone),
    }
    if template_dir:  # a club's templates may show the ratings on any page: read them first
        common["ratings"] = league_ratings(q.rating_rows(s, league_id), names)
    writer = pages.SiteWriter(
        Path(output),
        template_dir,
        lang,
        common=common,
        full=full,
        version=site_version(template_dir, lang, zone, rules, common),
        progress=progress,
        shared={"rules": rules},
        jobs=available_jobs() if jobs is None else jobs,
    )
    if writer.renders_everything:  # many pages to render: the workers start at once
        writer.expect(len(sessions) + q.refereed_count(s, league_id))
    try:
        page = _write_pages(s, writer, league, rules, ids, sessions, by_id)
        writer.finish()  # waits for the workers: a page that failed there raises here
    except BaseException:
        try:
            writer.close()  # the pages the workers have in hand, written and recorded
        except Exception:  # noqa: S110 - the error being raised is the one told
            pass
        writer.save()  # what was written so far, so the next build knows it
        raise
    return SiteReport(
        writer.output,
        len(writer.pages),
        writer.bytes,
        writer.largest,
        len(page.standings.rows),
        len(sessions),
        page.hands,
        writer.written,
        writer.removed,
        writer.left,
    )


def _hand_page(
    number: int, session: int, record_toml: str, facts: tuple | None, shared: dict
) -> dict:
    """A refereed hand's page's context (made where the page renders: maybe a worker), from
    its stored record and its session line's facts (:func:`.hand_page.outcome_facts`; None:
    the hand has no live line)."""
    rules = shared["rules"]
    seated = (
        [
            name
            for name, seat, *_ in sorted(
                (x for x in facts[-1] if x[1] is not None), key=lambda x: x[1]
            )
        ]
        if facts
        else []
    )
    return {
        "hand": hand_detail(
            rules,
            number,
            session,
            seated,
            record_toml,
            hand_outcome(rules, facts) if facts else None,
        )
    }


def _write_hand_page(
    writer: pages.SiteWriter,
    by_id: dict[int, q.SessionLine],
    record: tuple[int, int, str],
    line: q.HandLine | None,
) -> None:
    """A hand played card by card: its page keyed by the stored record and outcome (replayed
    only when either changed)."""
    number, session_id, record_toml = record
    session_number = by_id[session_id].number
    facts = outcome_facts(line) if line else None
    writer.page(
        pages.hand_url(number),
        "site_hand.html",
        (number, session_number, record_toml, facts),
        partial(_hand_page, number, session_number, record_toml, facts),
    )


@dataclass
class _LeagueReads:
    """What the pages after the pass over the sessions read of the league that the pass does
    not count: the standings and chart, the role statistics (the head-to-head lines, counted
    by the pass, added after), each player's totals by session, the rounds each sat in, the
    latest round, the tournament (None: the league plays no rounds)."""

    page: LeaguePage
    stats: LeagueStats
    per_session: dict
    sat_in: dict
    latest_round: RoundState | None
    tournament: TournamentView | None

    @classmethod
    def read(cls, s: Session, league: League, rules: Ruleset) -> _LeagueReads:
        league_id = league.id
        assert league_id is not None  # (a stored league)
        return cls(
            league_page(s, league.name),
            league_stats(s, league_id, rules, pairs={}),
            q.session_stats(s, league_id),
            rounds_by_player(s, league),
            latest_round_state(s, league),
            tournament_view(s, league),
        )


def _write_tournament(writer: pages.SiteWriter, view: TournamentView) -> None:
    """The tournament pages: the first with the tournament table, the substitutes, the
    matchpoints and the latest rounds, the next ones each with earlier rounds (a page holds
    what it shows: an earlier round's page is kept while later rounds are played)."""
    chunks = pages.chunks(view.rounds, pages.ROUNDS_PER_PAGE)
    urls = [pages.tournament_url(n) for n in range(1, len(chunks) + 1)]
    for number, chunk in enumerate(chunks, 1):
        shown = (
            replace(view, rounds=list(chunk))
            if number == 1
            else TournamentView(view.score, [], None, list(chunk))
        )
        writer.write(
            urls[number - 1],
            "site_tournament.html",
            tournament=shown,
            pager=pages.Pager(number, len(chunks), urls),
        )


def _write_pages(
    s: Session,
    writer: pages.SiteWriter,
    league: League,
    rules: Ruleset,
    ids: dict[str, int],
    sessions: list[q.SessionLine],
    by_id: dict[int, q.SessionLine],
) -> LeaguePage:
    """Every page of the site, each through ``writer`` (which keeps those unchanged): the pass
    over the sessions (their pages and their refereed hands', counting who met whom and rating
    the hands), then the players', the session list, the tournament's, the statistics and the
    index; the league's standings page as read."""
    walked = _walk_sessions(s, writer, league, rules, sessions, by_id)
    ratings = walked.rating.ratings()
    reads = walked.reads or _LeagueReads.read(s, league, rules)
    stats = replace(reads.stats, head_to_head=walked.pairs.lines())
    _write_players(writer, reads, stats, ratings, ids, by_id)
    _write_session_list(writer, sessions)
    if reads.tournament is not None:
        _write_tournament(writer, reads.tournament)
    page = reads.page
    writer.write(
        pages.statistics_url(),
        "site_statistics.html",
        stats=stats,
        call_kinds=CALL_KINDS,
        players=[r.stats.name for r in page.standings.rows if r.stats.hands],
    )
    _write_index(writer, reads, ratings, walked.latest, len(sessions))
    return page


@dataclass
class _Walked:
    """What the pass over the sessions leaves for the later pages: the latest session with its
    last hands and columns (for the index), who met whom, the rating pass, and the league's
    reads if they were made while the workers were busy (else None)."""

    latest: tuple
    pairs: HeadToHead
    rating: RatingPass
    reads: _LeagueReads | None


def _walk_sessions(
    s: Session,
    writer: pages.SiteWriter,
    league: League,
    rules: Ruleset,
    sessions: list[q.SessionLine],
    by_id: dict[int, q.SessionLine],
) -> _Walked:
    """Sessions, each with every hand, and after each its refereed hands' pages (the workers
    render them while the next session is read); the latest session is kept for the index.
    The same pass counts who met whom and rates the hands: as they come when the sessions come
    in hand order, else (a round's tables interleave) once all are read, sorted. What the later
    pages read of the league besides is read as soon as the workers have their hands full (the
    build would only wait for them), else after the pass."""
    league_id = league.id
    assert league_id is not None  # (a stored league)
    latest: tuple = (None, [])
    reads: _LeagueReads | None = None
    records = q.refereed_hands(s, league_id)
    record = next(records, None)
    pairs = HeadToHead()
    rating = RatingPass(writer.common.get("ratings"), q.hands_in_session_order(sessions))
    ruling = frozenset(RULING_ROLES)
    for session_id, hands in q.iter_session_hands(s, league_id):
        session = by_id[session_id]
        columns = session.players + sorted(
            {x.name for h in hands for x in h.seats} - set(session.players)
        )
        _write_session(writer, session, hands, columns)
        # This session's records, and those of earlier sessions that list no hand (no line).
        refereed = {hand.number: hand for hand in hands if hand.full}
        while record is not None and record[1] <= session_id:
            _write_hand_page(writer, by_id, record, refereed.get(record[0]))
            record = next(records, None)
        for hand in hands:
            if is_live(hand.voided, hand.status):
                pairs.add(
                    [
                        (x.name, x.role in ruling, x.points)
                        for x in hand.seats
                        if x.role in PLAYING_ROLES
                    ]
                )
                rating.add(hand)
        latest = (session, hands[-pages.HANDS_PER_PAGE :], columns)
        if reads is None and writer.busy:  # read while the workers have pages in hand
            reads = _LeagueReads.read(s, league, rules)
    for session in sessions:  # sessions without a hand yet still get their page
        if not session.hands and not (session.id == getattr(latest[0], "id", None)):
            _write_session(writer, session, [], session.players)
    if sessions and (latest[0] is None or latest[0].id != sessions[-1].id):
        latest = (sessions[-1], [], sessions[-1].players)
    while record is not None:  # records of later sessions that list no hand
        _write_hand_page(writer, by_id, record, None)
        record = next(records, None)
    return _Walked(latest, pairs, rating, reads)


def _write_session(
    writer: pages.SiteWriter, session: q.SessionLine, hands: list, columns: list[str]
) -> None:
    """A session's pages: its hands, in columns of its players (and of those who sat in)."""
    chunks = pages.chunks(hands, pages.HANDS_PER_PAGE)
    urls = [pages.session_url(session.number, n) for n in range(1, len(chunks) + 1)]
    for hand in hands:
        hand.set_columns(columns)
    for number, chunk in enumerate(chunks, 1):
        writer.write(
            urls[number - 1],
            "site_session.html",
            session=session,
            hands=chunk,
            columns=columns,
            pager=pages.Pager(number, len(chunks), urls),
        )


def _write_players(
    writer: pages.SiteWriter,
    reads: _LeagueReads,
    stats: LeagueStats,
    ratings: Ratings,
    ids: dict[str, int],
    by_id: dict[int, q.SessionLine],
) -> None:
    """Each ranked player's pages: role statistics, rating, partners and opponents, and every
    session played, latest first (the first page also lists the rounds sat in)."""
    per_session, sat_in = reads.per_session, reads.sat_in
    for row in reads.page.standings.rows:
        name = row.stats.name
        player_id = ids.get(name)
        if player_id is None:
            continue
        lines = sorted(per_session.get(name, {}).items(), key=lambda item: -by_id[item[0]].number)
        chunks = pages.chunks([(by_id[i], x) for i, x in lines], pages.LINES_PER_PAGE)
        urls = [pages.player_url(player_id, n) for n in range(1, len(chunks) + 1)]
        for number, chunk in enumerate(chunks, 1):
            writer.write(
                urls[number - 1],
                "site_player.html",
                row=row,
                roles=stats.of(name),
                rating=ratings.players.get(name),
                pairs=stats.head_to_head.get(name, []),
                called=[c for c in stats.partners if c.declarer == name],
                called_by=[c for c in stats.partners if c.friend == name],
                lines=chunk,
                call_kinds=CALL_KINDS,
                pager=pages.Pager(number, len(chunks), urls),
                rounds=[
                    (r, per_session.get(name, {}).get(r.session_id))
                    for r in sat_in.get(name, [])[: pages.LINES_PER_PAGE]
                ]
                if number == 1
                else [],
            )


def _write_session_list(writer: pages.SiteWriter, sessions: list[q.SessionLine]) -> None:
    """The session list, latest first."""
    chunks = pages.chunks(list(reversed(sessions)), pages.SESSIONS_PER_PAGE)
    urls = [pages.sessions_url(n) for n in range(1, len(chunks) + 1)]
    for number, chunk in enumerate(chunks, 1):
        writer.write(
            urls[number - 1],
            "site_sessions.html",
            sessions=chunk,
            pager=pages.Pager(number, len(chunks), urls),
        )


def _write_index(
    writer: pages.SiteWriter,
    reads: _LeagueReads,
    ratings: Ratings,
    latest: tuple,
    sessions_count: int,
) -> None:
    """The index: the standings (with the ratings), the chart, and the latest session, or for
    a league of rounds whose latest session is a round's table, the latest round's tables."""
    latest_round = reads.latest_round
    if (
        latest_round is not None
        and latest[0] is not None
        and any(table.session == latest[0].number for table in latest_round.tables)
    ):
        latest = (None, [])
    page = reads.page
    shown = {} if "ratings" in writer.common else {"ratings": ratings}
    writer.write(
        pages.index_url(),
        "site_index.html",
        **shown,
        page=page,
        chart=chart(page.chart_x, page.chart_series),
        latest=latest[0],
        latest_hands=latest[1],
        latest_columns=latest[2] if latest[0] else [],
        sessions_count=sessions_count,
        latest_round=latest_round,
        tournament=reads.tournament,
    )
