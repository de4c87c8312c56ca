"""``standings``: the league table for a terminal, as JSON, or as a page (``--html``)."""

from __future__ import annotations

import click

from ..i18n import N_, _, ngettext
from ..render.text import table
from .database import database, db_option, league_option
from .options import echo_json, json_option, number_type, write_output

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).


#: Table headers (translated where they are shown).
STANDINGS_HEADERS = (
    "#",
    N_("player"),
    N_("hands"),
    N_("score"),
    N_("per hand"),
    N_("declarer"),
    N_("made"),
    N_("friend"),
    N_("runs"),
    N_("back runs"),
)


def rate(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


def standings_text(standings) -> str:
    """The league table for a terminal (Korean names line up)."""
    rows = []
    for row in standings.rows:
        x = row.stats
        rows.append(
            (
                row.rank if row.rank is not None else "-",
                x.name,
                x.hands,
                x.score,
                f"{x.score_per_hand:+.2f}",
                x.declarer,
                rate(x.success_rate),
                x.friend,
                x.runs,
                x.back_runs,
            )
        )
    text = table([_(h) for h in STANDINGS_HEADERS], rows, align="<<>>>>>>>>")
    if standings.min_hands:
        text += "\n" + ngettext(
            "(ranked with at least {count} hand)",
            "(ranked with at least {count} hands)",
            standings.min_hands,
        ).format(count=standings.min_hands)
    return text


#: The tournament table's headers, and how each kind of tournament score is named.
TOURNAMENT_HEADERS = (
    "#",
    N_("player"),
    N_("tournament"),
    N_("score"),
    N_("hands"),
    N_("per hand"),
    N_("place points"),
    N_("rounds"),
)
SCORED_BY = {
    "raw": N_("raw points"),
    "per_hand": N_("points per hand"),
    "place": N_("place points"),
}


def tournament_text(rows, scored_by: str) -> str:
    """The tournament table (the ruleset's [tournament] score next to the raw one)."""
    body = [
        (
            row.rank,
            row.name,
            f"{row.score:g}" if scored_by != "per_hand" else f"{row.score:+.2f}",
            row.raw,
            row.hands,
            f"{row.per_hand:+.2f}",
            f"{row.place:g}",
            row.rounds,
        )
        for row in rows
    ]
    title = _("Tournament ({scored_by}, the ruleset's [tournament]):").format(
        scored_by=_(SCORED_BY[scored_by])
    )
    return title + "\n" + table([_(h) for h in TOURNAMENT_HEADERS], body, align="<<>>>>>>")


@click.command()
@league_option
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    metavar="OUT",
    help=N_(
        "Write the standings page (one HTML file), in the league's language (league set --lang)."
    ),
)
@click.option(
    "--templates",
    "template_dir",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    metavar="DIR",
    help=N_("A folder of templates overriding the bundled ones (for --html)."),
)
@click.option(
    "--round",
    "round_number",
    type=number_type(),
    default=None,
    help=N_("The table of one round alone (mighty round start): its tables' hands."),
)
@json_option
@db_option
def standings(league_name, html_path, template_dir, round_number, as_json, db_url) -> None:
    """The league table: hands, score, score per hand, declarer and success rate, friend,
    runs and back runs; a league of rounds, its tournament table (the ruleset's [tournament])
    and its duplicate rounds' matchpoints. --html writes a self-contained page (league table,
    tournament table and each round, each session, per-player statistics, a chart of
    cumulative scores).

    \b
    Examples:
      mighty standings --league tuesday
      mighty standings --league tuesday --json
      mighty standings --league cup --round 2
      mighty standings --league tuesday --html standings.html --templates club-templates/
    """
    from ..store.ledger.lookups import get_league, has_rounds, league_rules

    if as_json and html_path:
        raise click.UsageError(_("give --json or --html, not both"))
    if round_number is not None and html_path:
        raise click.UsageError(
            _("--round is shown in the terminal or as --json; the page (--html) is the league's")
        )
    with database(db_url) as s:
        league = get_league(s, league_name)
        # The rounds' part of the store (and the tournament's scoring) loads for a league that
        # has played in rounds only: a league of evenings needs none of it.
        rounds = has_rounds(s, league)
        if html_path:
            from ..render.html import render_league_page
            from ..store.ledger.league_page import league_page
            from ..store.ledger.leagues import league_setting

            page = league_page(s, league_name)
            lang = league_setting(s, league_name, "lang")
            zone = league_setting(s, league_name, "timezone")
            tournament_page = None
            if rounds:
                from ..store.rounds.tournament_view import tournament_view

                tournament_page = tournament_view(s, league)
            text = render_league_page(
                page, template_dir, lang=lang, timezone_name=zone, tournament=tournament_page
            )
        else:
            tournament = compared = scored_by = None
            if round_number is not None or rounds:
                from ..store.rounds.duplicate import league_matchpoints
                from ..store.rounds.round_board import round_standings, tournament_standings

                if round_number is not None:
                    table_ = round_standings(s, league_name, round_number)
                tournament = tournament_standings(s, league_name, round_number)
                compared = league_matchpoints(s, league.id, round_number)  # duplicate rounds
                scored_by = league_rules(league).tournament.score
            if round_number is None:
                from ..store.ledger.queries import standings

                table_ = standings(s, league_name)
    if html_path:
        write_output(html_path, text)
        click.echo(
            _("Wrote {path} ({players}, {hands}).").format(
                path=html_path,
                players=ngettext(
                    "{count} player", "{count} players", len(page.standings.rows)
                ).format(count=len(page.standings.rows)),
                hands=ngettext("{count} hand", "{count} hands", page.hands).format(
                    count=page.hands
                ),
            )
        )
    elif as_json:
        echo_json(
            {"league": league_name}
            | ({"round": round_number} if round_number else {})
            | table_.to_json()
            | (
                {
                    "tournament": {
                        "score": scored_by,
                        "players": [row.to_json() for row in tournament],
                    }
                }
                if tournament is not None
                else {}
            )
            | ({"matchpoints": [row.to_json() for row in compared]} if compared is not None else {})
        )
    elif not table_.rows:
        click.echo(_("League {league} has no hands yet.").format(league=league_name))
    else:
        click.echo(standings_text(table_))
        if tournament:
            click.echo("")
            click.echo(tournament_text(tournament, scored_by))
        if compared:
            from .round_text import matchpoint_lines

            click.echo("")
            click.echo("\n".join(matchpoint_lines(compared)))
