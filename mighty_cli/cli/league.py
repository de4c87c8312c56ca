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
from ..i18n import N_, _, ngettext
from ..render.text import table
from .options import echo_json, json_option, number_type, write_output

db_option = click.option(
    "--db", "db_url", envvar="MIGHTY_DB", metavar="URL",
    help=N_("Database: any SQLAlchemy URL or a SQLite file path (default: mighty.db in the "
            "user's app directory; env MIGHTY_DB)."))
league_option = click.option("--league", "-l", "league_name", required=True, metavar="NAME",
                             help=N_("The league."))
by_option = click.option("--by", "who", metavar="NAME", default=None,
                         help=N_("Who makes the change, for the change log (default: "
                                 "$MIGHTY_USER or your login name)."))


def who_default(who: Optional[str]) -> str:
    """Who is making a change: --by, $MIGHTY_USER, or the login name (a name: no invisible
    characters, at most 100 characters, as the change log stores it)."""
    from ..engine import names

    if not who:
        try:
            who = os.environ.get("MIGHTY_USER") or getpass.getuser()
        except Exception:  # no login name in some containers
            who = "unknown"
    wrong = names.refused_character(who)
    if wrong:
        raise click.BadParameter(f"{names.visible(who)} {wrong}", param_hint="--by")
    who = names.normalize(who)
    if len(who) > 100:
        raise click.BadParameter(_("{start!r}...: longer than 100 characters").format(
                                     start=who[:20]),
                                 param_hint="--by")
    return who or "unknown"


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
            raise RetryTransaction(_("database error: {error}").format(error=first)) from None
        raise click.ClickException(_("database error: {error}").format(error=first)) from None
    except SQLAlchemyError as exc:
        orig = getattr(exc, "orig", None)
        if isinstance(orig, MightyError):  # a value a column refused (models.StoredPoints)
            raise click.ClickException(str(orig)) from None
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise click.ClickException(_("database error: {error}").format(error=first)) from None
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


#: Table headers (translated where they are shown).
LEAGUE_HEADERS = (N_("league"), N_("ruleset"), N_("players"), N_("sessions"), N_("hands"),
                  N_("open"))
STANDINGS_HEADERS = ("#", N_("player"), N_("hands"), N_("score"), N_("per hand"),
                     N_("declarer"), N_("made"), N_("friend"), N_("runs"), N_("back runs"))


def _language(ctx, param, value: Optional[str]) -> Optional[str]:
    return value.lower() if value else None


def _time_zone(ctx, param, value: Optional[str]) -> Optional[str]:
    """An IANA time zone name (Asia/Seoul), checked with zoneinfo."""
    if value is None:
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise click.BadParameter(_("{value!r} is not an IANA time zone (e.g. Asia/Seoul, "
                                   "Europe/Berlin)").format(value=value)) from None
    return value


lang_option = click.option("--lang", "lang", type=click.Choice(["ko", "en"],
                                                               case_sensitive=False),
                           default=None, callback=_language,
                           help=N_("The language of the league's pages (standings --html)."))
timezone_option = click.option("--timezone", "tz", metavar="ZONE", default=None,
                               callback=_time_zone,
                               help=N_("The league's time zone, an IANA name (Asia/Seoul)."))


def _store_settings(s, league_row, lang: Optional[str], tz: Optional[str],
                    who: str = "") -> None:
    from ..store.leagues import set_league_setting

    if lang:
        set_league_setting(s, league_row.name, "lang", lang, who=who)
    if tz:
        set_league_setting(s, league_row.name, "timezone", tz, who=who)


def _echo_settings(lang: Optional[str], tz: Optional[str]) -> None:
    if lang:
        click.echo(_("Pages in {language}.").format(
            language={"ko": "한국어", "en": "English"}[lang]))
    if tz:
        click.echo(_("Time zone {zone}.").format(zone=tz))


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
              help=N_("A bundled ruleset or a .toml file; its full text is stored with the "
                      "league."))
@click.option("--min-hands", type=number_type(0), default=0, show_default=True,
              help=N_("Hands a player needs to be ranked."))
@click.option("--rank-by", metavar="KEYS", default=None,
              help=N_("Ranking keys, first decides: score, score_per_hand, hands, "
                      "declarer_success, success_rate, friend, runs, name "
                      "(default score,score_per_hand,declarer_success,name)."))
@lang_option
@timezone_option
@db_option
@by_option
def league_create(name, ruleset_name, min_hands, rank_by, lang, tz, db_url, who) -> None:
    """Create a league playing a ruleset.

    \b
    Examples:
      mighty league create tuesday --ruleset standard
      mighty league create 서울과고 -r seoul-science --min-hands 30 --rank-by score_per_hand,score,name
      mighty league create 화요모임 -r standard --lang ko --timezone Asia/Seoul
    """
    from ..store import services

    with database(db_url) as s:
        created = services.create_league(s, name, ruleset_name, min_hands=min_hands,
                                         rank_by=rank_by, who=who_default(who))
        _store_settings(s, created, lang, tz, who_default(who))
        click.echo(_("League {name!r} created with ruleset {ruleset} (its rules are stored with "
                     "the league).").format(name=created.name, ruleset=created.ruleset_name))
        _echo_settings(lang, tz)


@league.command("set")
@click.argument("name")
@click.option("--min-hands", type=number_type(0), default=None,
              help=N_("Hands a player needs to be ranked."))
@click.option("--rank-by", metavar="KEYS", default=None, help=N_("Ranking keys, first decides."))
@lang_option
@timezone_option
@click.option("--reason", default="", help=N_("Why, for the change log."))
@db_option
@by_option
def league_set(name, min_hands, rank_by, lang, tz, reason, db_url, who) -> None:
    """Change how a league ranks its players (never its ruleset), the language of its pages
    and its time zone.

    \b
    Examples:
      mighty league set tuesday --min-hands 10 --rank-by score_per_hand,score,name
      mighty league set tuesday --lang ko --timezone Asia/Seoul
    """
    from ..store import services

    with database(db_url) as s:
        if min_hands is None and rank_by is None and (lang or tz):
            from ..store.lookups import get_league

            changed = get_league(s, name)
        else:
            changed = services.configure_league(s, name, min_hands=min_hands, rank_by=rank_by,
                                                who=who_default(who), why=reason)
        _store_settings(s, changed, lang, tz, who_default(who))
        click.echo(_("League {name!r}: min hands {min_hands}, rank by {rank_by}").format(
            name=changed.name, min_hands=changed.min_hands, rank_by=changed.rank_by))
        _echo_settings(lang, tz)


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

        click.echo(_("No leagues yet in {database}: mighty league create NAME --ruleset "
                     "standard").format(database=database_location(db_url)))
        return
    click.echo(table([_(h) for h in LEAGUE_HEADERS],
                     [(x.name, x.ruleset, x.players, x.sessions, x.hands,
                       ",".join(map(str, x.open_sessions)) or "-") for x in summaries]))
    from .where import database_location

    click.echo(_("Database: {database}").format(database=database_location(db_url)))


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
        from ..store.leagues import league_settings

        summary = services.league_summaries(s, name)[0]
        table_ = services.standings(s, name)
        settings = league_settings(s, summary.name)
    if as_json:
        echo_json(summary.to_json() | {"settings": settings, "standings": table_.to_json()})
        return
    click.echo(_("League {name}  ruleset {ruleset}  {sessions}, {hands}, {players}").format(
        name=summary.name, ruleset=summary.ruleset,
        sessions=ngettext("{count} session", "{count} sessions", summary.sessions).format(
            count=summary.sessions),
        hands=ngettext("{count} hand", "{count} hands", summary.hands).format(
            count=summary.hands),
        players=ngettext("{count} player", "{count} players", summary.players).format(
            count=summary.players)))
    click.echo(ngettext("Ranked by {keys}; at least {count} hand to be ranked",
                        "Ranked by {keys}; at least {count} hands to be ranked",
                        summary.min_hands).format(keys=summary.rank_by, count=summary.min_hands))
    if summary.open_sessions:
        click.echo(_("Open sessions: {sessions}").format(
            sessions=", ".join(map(str, summary.open_sessions))))
    _echo_settings(settings.get("lang"), settings.get("timezone"))
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
    click.echo(_("Added {names}.").format(names=", ".join(names)))


@player.command("rename")
@click.argument("old")
@click.argument("new")
@click.option("--reason", default="", help=N_("Why, for the change log."))
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
    click.echo(_("Renamed {old} to {new}.").format(old=old, new=new))


@player.command("merge")
@click.argument("duplicate")
@click.argument("keep")
@click.option("--reason", default="", help=N_("Why, for the change log."))
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
    click.echo(_("Merged {duplicate} into {keep}.").format(duplicate=duplicate, keep=keep))


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
        click.echo(table([_("player"), _("merged into")], [(n, m or "") for n, m in rows]))


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
    if proposal.sitting_out:
        text = _("Next hand: dealer {dealer}, opener {opener}, sitting out {out}; playing "
                 "{players}")
    else:
        text = _("Next hand: dealer {dealer}, opener {opener}; playing {players}")
    text = text.format(dealer=proposal.dealer, opener=proposal.opener,
                       out=", ".join(proposal.sitting_out), players=", ".join(proposal.players))
    if pot:
        text += _("; deposit pot {pot}").format(pot=pot)
    return text


@session.command("start")
@league_option
@click.option("--players", "-p", required=True, metavar="A,B,C,D,E[,F,G]",
              help=N_("Players present, in seating order (clockwise): the ruleset's "
                      "table.players, or one or two more."))
@click.option("--date", "day", default=None, metavar="YYYY-MM-DD", help=N_("Default: today."))
@click.option("--dealer", default=None, metavar="NAME",
              help=N_("The first dealer (default: the first player listed)."))
@click.option("--shuffle", is_flag=True,
              help=N_("Propose the seating: fewest repeated neighbours from past sessions."))
@click.option("--apart", multiple=True, metavar="A/B",
              help=N_("With --shuffle: a pair not to seat side by side (repeatable)."))
@click.option("--seed", type=int, default=None, hidden=True,
              help=N_("With --shuffle: the seed choosing among equally good seatings."))
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
        raise click.UsageError(_("--apart is used with --shuffle"))
    for text, pair in zip(apart, pairs):
        if len(pair) != 2:
            raise click.UsageError(_("--apart {text}: expected two names as A/B").format(
                                       text=text))
    with database(db_url) as s:
        if shuffle:
            from ..seating import neighbour_history, propose_seating
            from ..store.sessions import past_seatings

            seating = propose_seating(names, neighbour_history(past_seatings(s, league_name)),
                                      pairs, seed)  # type: ignore[arg-type]
            names = seating.order
            click.echo(ngettext("Seating (clockwise): {names} ({repeats} repeated neighbour "
                                "pair).",
                                "Seating (clockwise): {names} ({repeats} repeated neighbour "
                                "pairs).", seating.repeats).format(
                           names=", ".join(names), repeats=seating.repeats))
        started, proposal = services.start_session(s, league_name, names,
                                                   day=day, first_dealer=dealer,
                                                   who=who_default(who))
        pot = services.session_proposal(s, league_name, started.number)[2]
        click.echo(_("Session {number} of {league} started ({day}).").format(
            number=started.number, league=league_name, day=started.day.isoformat()))
        click.echo(proposal_text(proposal, pot))


@session.command("end")
@league_option
@click.option("--session", "session_number", type=number_type(), default=None,
              help=N_("Which open session (needed when several are open)."))
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
        click.echo(_("Session {number} of {league} ended.").format(number=ended.number,
                                                                   league=league_name))


@session.command("show")
@league_option
@click.option("--session", "session_number", type=number_type(), default=None,
              help=N_("Which session (default: the open one)."))
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
    state = _("open") if current.ended_at is None else _("ended")
    click.echo(_("Session {number} ({day}, {state}): {players}").format(
        number=current.number, day=current.day.isoformat(), state=state,
        players=", ".join(present)))
    if end.ended_by:
        click.echo(_("Ended by the ruleset: {reason}.").format(reason=end.ended_by))
    elif end.progress:
        click.echo(_("Session end rules: {progress}.").format(progress=end.progress))
    if end.note:
        click.echo(_("Note: {note}.").format(note=end.note))
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
    text = table([_(h) for h in STANDINGS_HEADERS], rows, align="<<>>>>>>>>")
    if standings.min_hands:
        text += "\n" + ngettext("(ranked with at least {count} hand)",
                                "(ranked with at least {count} hands)",
                                standings.min_hands).format(count=standings.min_hands)
    return text


@click.command()
@league_option
@click.option("--html", "html_path", type=click.Path(dir_okay=False, writable=True),
              default=None, metavar="OUT",
              help=N_("Write the standings page (one HTML file), in the league's language "
                      "(league set --lang)."))
@click.option("--templates", "template_dir", type=click.Path(file_okay=False, exists=True),
              default=None, metavar="DIR",
              help=N_("A folder of templates overriding the bundled ones (for --html)."))
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
        raise click.UsageError(_("give --json or --html, not both"))
    with database(db_url) as s:
        if html_path:
            from ..render.html import render_league_page
            from ..store.leagues import league_setting

            page = services.league_page(s, league_name)
            lang = league_setting(s, league_name, "lang")
            zone = league_setting(s, league_name, "timezone")
            text = render_league_page(page, template_dir, lang=lang, timezone_name=zone)
        else:
            table_ = services.standings(s, league_name)
    if html_path:
        write_output(html_path, text)
        click.echo(_("Wrote {path} ({players}, {hands}).").format(
            path=html_path,
            players=ngettext("{count} player", "{count} players",
                             len(page.standings.rows)).format(count=len(page.standings.rows)),
            hands=ngettext("{count} hand", "{count} hands", page.hands).format(
                count=page.hands)))
    elif as_json:
        echo_json({"league": league_name} | table_.to_json())
    elif not table_.rows:
        click.echo(_("League {league} has no hands yet.").format(league=league_name))
    else:
        click.echo(standings_text(table_))
