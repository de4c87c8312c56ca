"""League commands: ``league``, ``player``, ``session``, ``standings``, ``import``, ``export``.

Thin: parse, open one transaction, call :mod:`mighty_cli.store.services`, print. SQLModel and
Jinja2 are imported inside the commands, so ``mighty --help`` never loads them.
"""

from __future__ import annotations

import getpass
import os
from contextlib import contextmanager
from typing import Iterator, Optional

import click

from ..engine.errors import MightyError
from ..render.text import table
from .options import echo_json, json_option, number_type, write_output

db_option = click.option(
    "--db", "db_url", envvar="MIGHTY_DB", metavar="URL",
    help="Database: any SQLAlchemy URL or a SQLite file path (default: mighty.db in the "
         "user's app directory; env MIGHTY_DB).")
league_option = click.option("--league", "-l", "league_name", required=True, metavar="NAME",
                             help="The league.")
by_option = click.option("--by", "who", metavar="NAME", default=None,
                         help="Who makes the change, for the change log (default: $MIGHTY_USER "
                              "or your login name).")


def who_default(who: Optional[str]) -> str:
    """Who is making a change: --by, $MIGHTY_USER, or the login name."""
    if who:
        return who
    try:
        return os.environ.get("MIGHTY_USER") or getpass.getuser()
    except Exception:  # no login name in some containers
        return "unknown"


@contextmanager
def database(db_url: Optional[str]) -> Iterator:
    """One transaction on the chosen database; database failures become one-line errors."""
    from sqlalchemy.exc import DBAPIError, SQLAlchemyError

    from ..store.db import make_engine, transaction

    engine = make_engine(db_url)
    try:
        with transaction(engine) as session:
            yield session
    except DBAPIError as exc:
        first = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
        if _retryable(exc):
            raise RetryTransaction(f"database error: {first}") from None
        raise click.ClickException(f"database error: {first}") from None
    except SQLAlchemyError as exc:
        orig = getattr(exc, "orig", None)
        if isinstance(orig, MightyError):  # a value a column refused (models.StoredPoints)
            raise click.ClickException(str(orig)) from None
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise click.ClickException(f"database error: {first}") from None
    finally:
        engine.dispose()


class RetryTransaction(click.ClickException):
    """A transaction the database rolled back to keep concurrent writers consistent
    (PostgreSQL's serialization failure or deadlock): the command runs again (cli.LazyGroup)."""


def _retryable(exc) -> bool:
    code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
    return code in ("40001", "40P01")


def split_names(text: Optional[str]) -> Optional[list[str]]:
    """``"A,B,C"`` -> ``["A", "B", "C"]`` (names are trimmed)."""
    if text is None:
        return None
    return [name.strip() for name in text.split(",") if name.strip()]


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


# --- league -------------------------------------------------------------------------------------


@click.group()
def league() -> None:
    """Leagues: a ruleset (kept with the league) and its ranking rules.

    \b
    Examples:
      mighty league create tuesday --ruleset standard --min-hands 20
      mighty league list
      mighty league show tuesday
    """


@league.command("create")
@click.argument("name")
@click.option("--ruleset", "-r", "ruleset_name", required=True, metavar="NAME|FILE",
              help="A bundled ruleset or a .toml file; its full text is stored with the league.")
@click.option("--min-hands", type=number_type(0), default=0, show_default=True,
              help="Hands a player needs to be ranked.")
@click.option("--rank-by", metavar="KEYS", default=None,
              help="Ranking keys, first decides: score, score_per_hand, hands, "
                   "declarer_success, success_rate, friend, runs, name "
                   "(default score,score_per_hand,declarer_success,name).")
@db_option
@by_option
def league_create(name, ruleset_name, min_hands, rank_by, db_url, who) -> None:
    """Create a league playing a ruleset.

    \b
    Examples:
      mighty league create tuesday --ruleset standard
      mighty league create 서울과고 -r seoul-science --min-hands 30 --rank-by score_per_hand,score,name
    """
    from ..store import services

    with database(db_url) as s:
        created = services.create_league(s, name, ruleset_name, min_hands=min_hands,
                                         rank_by=rank_by, who=who_default(who))
        click.echo(f"League {created.name!r} created with ruleset {created.ruleset_name} "
                   f"(its rules are stored with the league).")


@league.command("set")
@click.argument("name")
@click.option("--min-hands", type=number_type(0), default=None,
              help="Hands a player needs to be ranked.")
@click.option("--rank-by", metavar="KEYS", default=None, help="Ranking keys, first decides.")
@click.option("--reason", default="", help="Why, for the change log.")
@db_option
@by_option
def league_set(name, min_hands, rank_by, reason, db_url, who) -> None:
    """Change how a league ranks its players (never its ruleset).

    \b
    Example:
      mighty league set tuesday --min-hands 10 --rank-by score_per_hand,score,name
    """
    from ..store import services

    with database(db_url) as s:
        changed = services.configure_league(s, name, min_hands=min_hands, rank_by=rank_by,
                                            who=who_default(who), why=reason)
        click.echo(f"League {changed.name!r}: min hands {changed.min_hands}, "
                   f"rank by {changed.rank_by}")


@league.command("list")
@json_option
@db_option
def league_list(as_json, db_url) -> None:
    """List the leagues.

    \b
    Example:
      mighty league list --json
    """
    from ..store import services

    with database(db_url) as s:
        summaries = services.league_summaries(s)
    if as_json:
        echo_json({"leagues": [x.to_json() for x in summaries]})
        return
    if not summaries:
        from .where import database_location

        click.echo(f"No leagues yet in {database_location(db_url)}: mighty league create NAME "
                   f"--ruleset standard")
        return
    click.echo(table(["league", "ruleset", "players", "sessions", "hands", "open"],
                     [(x.name, x.ruleset, x.players, x.sessions, x.hands,
                       ",".join(map(str, x.open_sessions)) or "-") for x in summaries]))
    from .where import database_location

    click.echo(f"Database: {database_location(db_url)}")


@league.command("show")
@click.argument("name")
@json_option
@db_option
def league_show(name, as_json, db_url) -> None:
    """Show a league: ruleset, ranking rules, sessions and the latest standings.

    \b
    Example:
      mighty league show tuesday
    """
    from ..store import services

    with database(db_url) as s:
        summary = services.league_summaries(s, name)[0]
        table_ = services.standings(s, name)
    if as_json:
        echo_json(summary.to_json() | {"standings": table_.to_json()})
        return
    click.echo(f"League {summary.name}  ruleset {summary.ruleset}  "
               f"{summary.sessions} sessions, {summary.hands} hands, {summary.players} players")
    click.echo(f"Ranked by {summary.rank_by}; at least {summary.min_hands} hands to be ranked")
    if summary.open_sessions:
        click.echo(f"Open sessions: {', '.join(map(str, summary.open_sessions))}")
    if table_.rows:
        click.echo()
        click.echo(standings_text(table_))


# --- players ------------------------------------------------------------------------------------


@click.group()
def player() -> None:
    """Players: add, rename, merge two records of one person, list.

    \b
    Examples:
      mighty player add 김철수
      mighty player rename Chulsoo 김철수
      mighty player merge "Kim C." 김철수
    """


@player.command("add")
@click.argument("names", nargs=-1, required=True)
@db_option
@by_option
def player_add(names, db_url, who) -> None:
    """Add players.

    \b
    Example:
      mighty player add Ana Bo 김철수
    """
    from ..store import services

    with database(db_url) as s:
        for name in names:
            services.add_player(s, name, who_default(who))
    click.echo(f"Added {', '.join(names)}.")


@player.command("rename")
@click.argument("old")
@click.argument("new")
@click.option("--reason", default="", help="Why, for the change log.")
@db_option
@by_option
def player_rename(old, new, reason, db_url, who) -> None:
    """Rename a player (every hand follows).

    \b
    Example:
      mighty player rename Chulsoo 김철수
    """
    from ..store import services

    with database(db_url) as s:
        services.rename_player(s, old, new, who_default(who), reason)
    click.echo(f"Renamed {old} to {new}.")


@player.command("merge")
@click.argument("duplicate")
@click.argument("keep")
@click.option("--reason", default="", help="Why, for the change log.")
@db_option
@by_option
def player_merge(duplicate, keep, reason, db_url, who) -> None:
    """Merge DUPLICATE into KEEP: two records of one person become one. Every hand moves;
    DUPLICATE stays as an alias, and the change log keeps the history.

    \b
    Example:
      mighty player merge "Kim C." 김철수 --reason "same person, typed twice"
    """
    from ..store import services

    with database(db_url) as s:
        services.merge_players(s, duplicate, keep, who_default(who), reason)
    click.echo(f"Merged {duplicate} into {keep}.")


@player.command("list")
@json_option
@db_option
def player_list(as_json, db_url) -> None:
    """List players (merged records show the name they became).

    \b
    Example:
      mighty player list
    """
    from ..store import services

    with database(db_url) as s:
        rows = services.list_players(s)
    if as_json:
        echo_json({"players": [{"name": n, "merged_into": m} for n, m in rows]})
    else:
        click.echo(table(["player", "merged into"], [(n, m or "") for n, m in rows]))


# --- sessions -----------------------------------------------------------------------------------


@click.group()
def session() -> None:
    """Sessions: an evening's table, its seating, dealer and sit-out succession.

    \b
    Examples:
      mighty session start --league tuesday --players Ana,Bo,Cy,Di,Ed,김철수
      mighty session show --league tuesday
      mighty session end --league tuesday
    """


def proposal_text(proposal, pot: int) -> str:
    text = f"Next hand: dealer {proposal.dealer}, opener {proposal.opener}"
    if proposal.sitting_out:
        text += f", sitting out {', '.join(proposal.sitting_out)}"
    text += f"; playing {', '.join(proposal.players)}"
    if pot:
        text += f"; deposit pot {pot}"
    return text


@session.command("start")
@league_option
@click.option("--players", "-p", required=True, metavar="A,B,C,D,E[,F,G]",
              help="Players present, in seating order (clockwise); 5 to 7.")
@click.option("--date", "day", default=None, metavar="YYYY-MM-DD", help="Default: today.")
@click.option("--dealer", default=None, metavar="NAME",
              help="The first dealer (default: the first player listed).")
@click.option("--shuffle", is_flag=True,
              help="Propose the seating: fewest repeated neighbours from past sessions.")
@click.option("--apart", multiple=True, metavar="A/B",
              help="With --shuffle: a pair not to seat side by side (repeatable).")
@click.option("--seed", type=int, default=None, hidden=True,
              help="With --shuffle: the seed choosing among equally good seatings.")
@db_option
@by_option
def session_start(league_name, players, day, dealer, shuffle, apart, seed, db_url,
                  who) -> None:
    """Start a session: who is present and where they sit. With six or seven present, five
    play each hand and the tool proposes who sits out (RULES.md §9).

    \b
    Examples:
      mighty session start --league tuesday --players Ana,Bo,Cy,Di,Ed
      mighty session start -l tuesday -p Ana,Bo,Cy,Di,Ed,김철수 --dealer Cy --date 2024-03-05
      mighty session start -l tuesday -p Ana,Bo,Cy,Di,Ed,Fay --shuffle --apart Ana/Bo
    """
    from ..store import services

    names = split_names(players) or []
    pairs = [tuple(split_names(pair.replace("/", ",")) or []) for pair in apart]
    if apart and not shuffle:
        raise click.UsageError("--apart is used with --shuffle")
    for text, pair in zip(apart, pairs):
        if len(pair) != 2:
            raise click.UsageError(f"--apart {text}: expected two names as A/B")
    with database(db_url) as s:
        if shuffle:
            from ..seating import neighbour_history, propose_seating
            from ..store.sessions import past_seatings

            seating = propose_seating(names, neighbour_history(past_seatings(s, league_name)),
                                      pairs, seed)  # type: ignore[arg-type]
            names = seating.order
            click.echo(f"Seating (clockwise): {', '.join(names)} "
                       f"({seating.repeats} repeated neighbour pairs).")
        started, proposal = services.start_session(s, league_name, names,
                                                   day=day, first_dealer=dealer,
                                                   who=who_default(who))
        pot = services.session_proposal(s, league_name, started.number)[2]
        click.echo(f"Session {started.number} of {league_name} started "
                   f"({started.day.isoformat()}).")
        click.echo(proposal_text(proposal, pot))


@session.command("end")
@league_option
@click.option("--session", "session_number", type=number_type(), default=None,
              help="Which open session (needed when several are open).")
@db_option
@by_option
def session_end(league_name, session_number, db_url, who) -> None:
    """End a session.

    \b
    Example:
      mighty session end --league tuesday
    """
    from ..store import services

    with database(db_url) as s:
        ended = services.end_session(s, league_name, session_number, who_default(who))
        click.echo(f"Session {ended.number} of {league_name} ended.")


@session.command("show")
@league_option
@click.option("--session", "session_number", type=number_type(), default=None,
              help="Which session (default: the open one).")
@json_option
@db_option
def session_show(league_name, session_number, as_json, db_url) -> None:
    """Show a session's seating, who should deal, open and sit out next, and how far it is
    from its ruleset's end (session.hands_per_session, session.starting_points); an ended
    session says why it ended, and whether a later correction disagrees (corrections never
    end or reopen a session).

    \b
    Example:
      mighty session show --league tuesday
    """
    from ..store import services

    with database(db_url) as s:
        current, proposal, pot = services.session_proposal(s, league_name, session_number)
        present = services.seating(s, current.id)
        end = services.session_end_info(s, league_name, current.number)
    if as_json:
        echo_json({"session": current.number, "date": current.day.isoformat(),
                   "open": current.ended_at is None, "players": present,
                   "next": {"dealer": proposal.dealer, "opener": proposal.opener,
                            "players": list(proposal.players),
                            "sitting_out": list(proposal.sitting_out)}, "pot": pot,
                   "ended_by": end.ended_by, "end_rules": end.progress, "note": end.note})
        return
    state = "open" if current.ended_at is None else "ended"
    click.echo(f"Session {current.number} ({current.day.isoformat()}, {state}): "
               f"{', '.join(present)}")
    if end.ended_by:
        click.echo(f"Ended by the ruleset: {end.ended_by}.")
    elif end.progress:
        click.echo(f"Session end rules: {end.progress}.")
    if end.note:
        click.echo(f"Note: {end.note}.")
    if current.ended_at is None:
        click.echo(proposal_text(proposal, pot))


# --- standings ----------------------------------------------------------------------------------


def rate(value: Optional[float]) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


def standings_text(standings) -> str:
    """The league table for a terminal (Korean names line up)."""
    rows = []
    for row in standings.rows:
        x = row.stats
        rows.append((row.rank if row.rank is not None else "-", x.name, x.hands, x.score,
                     f"{x.score_per_hand:+.2f}", x.declarer, rate(x.success_rate), x.friend,
                     x.runs, x.back_runs))
    text = table(["#", "player", "hands", "score", "per hand", "declarer", "made", "friend",
                  "runs", "back runs"], rows, align="<<>>>>>>>>")
    if standings.min_hands:
        text += f"\n(ranked with at least {standings.min_hands} hands)"
    return text


@click.command()
@league_option
@click.option("--html", "html_path", type=click.Path(dir_okay=False, writable=True),
              default=None, metavar="OUT", help="Write the standings page (one HTML file).")
@click.option("--templates", "template_dir", type=click.Path(file_okay=False, exists=True),
              default=None, metavar="DIR",
              help="A folder of templates overriding the bundled ones (for --html).")
@json_option
@db_option
def standings(league_name, html_path, template_dir, as_json, db_url) -> None:
    """The league table: hands, score, score per hand, declarer and success rate, friend,
    runs and back runs. --html writes a self-contained page (league table, each session,
    per-player statistics, a chart of cumulative scores).

    \b
    Examples:
      mighty standings --league tuesday
      mighty standings --league tuesday --json
      mighty standings --league tuesday --html standings.html --templates club-templates/
    """
    from ..store import services

    if as_json and html_path:
        raise click.UsageError("give --json or --html, not both")
    with database(db_url) as s:
        if html_path:
            from ..render.html import render_league_page

            page = services.league_page(s, league_name)
            text = render_league_page(page, template_dir)
        else:
            table_ = services.standings(s, league_name)
    if html_path:
        write_output(html_path, text)
        click.echo(f"Wrote {html_path} ({len(page.standings.rows)} players, {page.hands} hands).")
    elif as_json:
        echo_json({"league": league_name} | table_.to_json())
    elif not table_.rows:
        click.echo(f"League {league_name} has no hands yet.")
    else:
        click.echo(standings_text(table_))
