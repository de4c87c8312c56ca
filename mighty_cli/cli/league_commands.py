"""League commands: ``league`` (create, set, list, show); what every league command shares (the
``--db``, ``--league`` and ``--by`` options, one transaction per command) is in :mod:`.database`.
The other league commands live by concern:
:mod:`.league_players` (``player``), :mod:`.league_sessions` (``session``),
:mod:`.league_standings` (``standings``), :mod:`.record_command` (``record``),
:mod:`.league_hands` (``hand``) and :mod:`.import_export` (``import``, ``export``, ``backup``,
``restore``).

Thin: parse, open one transaction, call the store's operations, print. SQLModel and
Jinja2 are imported inside the commands, so ``mighty --help`` never loads them.
"""

from __future__ import annotations

import click

from ..i18n import N_, _, ngettext
from ..render.text import table
from . import completion
from .database import by_option, database, db_option, who_default
from .options import echo_json, json_option, number_type

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).

#: Table headers (translated where they are shown).
LEAGUE_HEADERS = (
    N_("league"),
    N_("ruleset"),
    N_("players"),
    N_("sessions"),
    N_("hands"),
    N_("open"),
)


def _language(ctx, param, value: str | None) -> str | None:
    return value.lower() if value else None


def _time_zone(ctx, param, value: str | None) -> str | None:
    """An IANA time zone name (Asia/Seoul), checked with zoneinfo."""
    if value is None:
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise click.BadParameter(
            _("{value!r} is not an IANA time zone (e.g. Asia/Seoul, Europe/Berlin)").format(
                value=value
            )
        ) from None
    return value


lang_option = click.option(
    "--lang",
    "lang",
    type=click.Choice(["ko", "en"], case_sensitive=False),
    default=None,
    callback=_language,
    help=N_("The language of the league's pages (standings --html)."),
)
timezone_option = click.option(
    "--timezone",
    "tz",
    metavar="ZONE",
    default=None,
    callback=_time_zone,
    help=N_("The league's time zone, an IANA name (Asia/Seoul)."),
)


def _store_settings(
    s, league_row, lang: str | None, tz: str | None, who: str = "", why: str = ""
) -> None:
    from ..store.ledger.leagues import set_league_setting

    if lang:
        set_league_setting(s, league_row.name, "lang", lang, who=who, why=why)
    if tz:
        set_league_setting(s, league_row.name, "timezone", tz, who=who, why=why)


def _echo_settings(lang: str | None, tz: str | None) -> None:
    if lang:
        click.echo(
            _("Pages in {language}.").format(language={"ko": "한국어", "en": "English"}[lang])
        )
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
@click.option(
    "--ruleset",
    "-r",
    "ruleset_name",
    required=True,
    metavar="NAME|FILE",
    shell_complete=completion.rulesets,
    help=N_("A bundled ruleset or a .toml file; its full text is stored with the league."),
)
@click.option(
    "--min-hands",
    type=number_type(0),
    default=0,
    show_default=True,
    help=N_("Hands a player needs to be ranked."),
)
@click.option(
    "--rank-by",
    metavar="KEYS",
    default=None,
    help=N_(
        "Ranking keys, first decides: score, score_per_hand, hands, "
        "declarer_success, success_rate, friend, runs, name "
        "(default score,score_per_hand,declarer_success,name)."
    ),
)
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
    from ..store.ledger.leagues import create_league

    with database(db_url, creates=True) as s:
        created = create_league(
            s, name, ruleset_name, min_hands=min_hands, rank_by=rank_by, who=who_default(who)
        )
        _store_settings(s, created, lang, tz, who_default(who))
        click.echo(
            _(
                "League {name!r} created with ruleset {ruleset} (its rules are stored with "
                "the league)."
            ).format(name=created.name, ruleset=created.ruleset_name)
        )
        _echo_settings(lang, tz)


@league.command("set")
@click.argument("name", shell_complete=completion.leagues)
@click.option(
    "--min-hands", type=number_type(0), default=None, help=N_("Hands a player needs to be ranked.")
)
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
    from ..store.ledger.leagues import configure_league

    with database(db_url) as s:
        if min_hands is None and rank_by is None and (lang or tz):
            from ..store.ledger.lookups import get_league

            changed = get_league(s, name)
        else:
            changed = configure_league(
                s, name, min_hands=min_hands, rank_by=rank_by, who=who_default(who), why=reason
            )
        _store_settings(s, changed, lang, tz, who_default(who), reason)
        click.echo(
            _("League {name!r}: min hands {min_hands}, rank by {rank_by}").format(
                name=changed.name, min_hands=changed.min_hands, rank_by=changed.rank_by
            )
        )
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
    from ..store.ledger.leagues import league_summaries

    with database(db_url) as s:
        summaries = league_summaries(s)
    if as_json:
        echo_json({"leagues": [x.to_json() for x in summaries]})
        return
    if not summaries:
        from .where import database_location

        click.echo(
            _("No leagues yet in {database}: mighty league create NAME --ruleset standard").format(
                database=database_location(db_url)
            )
        )
        return
    click.echo(
        table(
            [_(h) for h in LEAGUE_HEADERS],
            [
                (
                    x.name,
                    x.ruleset,
                    x.players,
                    x.sessions,
                    x.hands,
                    ",".join(map(str, x.open_sessions)) or "-",
                )
                for x in summaries
            ],
        )
    )
    from .where import database_location

    click.echo(_("Database: {database}").format(database=database_location(db_url)))


@league.command("show")
@click.argument("name", shell_complete=completion.leagues)
@json_option
@db_option
def league_show(name, as_json, db_url) -> None:
    """Show a league: ruleset, ranking rules, sessions and the latest standings.

    \b
    Example:
      mighty league show tuesday
    """
    from ..store.ledger.leagues import league_summaries
    from ..store.ledger.queries import standings

    with database(db_url) as s:
        from ..store.ledger.leagues import league_settings

        summary = league_summaries(s, name)[0]
        table_ = standings(s, name)
        settings = league_settings(s, summary.name)
    if as_json:
        echo_json(summary.to_json() | {"settings": settings, "standings": table_.to_json()})
        return
    click.echo(
        _("League {name}  ruleset {ruleset}  {sessions}, {hands}, {players}").format(
            name=summary.name,
            ruleset=summary.ruleset,
            sessions=ngettext("{count} session", "{count} sessions", summary.sessions).format(
                count=summary.sessions
            ),
            hands=ngettext("{count} hand", "{count} hands", summary.hands).format(
                count=summary.hands
            ),
            players=ngettext("{count} player", "{count} players", summary.players).format(
                count=summary.players
            ),
        )
    )
    click.echo(
        ngettext(
            "Ranked by {keys}; at least {count} hand to be ranked",
            "Ranked by {keys}; at least {count} hands to be ranked",
            summary.min_hands,
        ).format(keys=summary.rank_by, count=summary.min_hands)
    )
    if summary.open_sessions:
        click.echo(
            _("Open sessions: {sessions}").format(
                sessions=", ".join(map(str, summary.open_sessions))
            )
        )
    _echo_settings(settings.get("lang"), settings.get("timezone"))
    if table_.rows:
        from .league_standings import standings_text

        click.echo()
        click.echo(standings_text(table_))
