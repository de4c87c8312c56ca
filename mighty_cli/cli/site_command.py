"""``mighty site``: write a league's static site (index, players, sessions, hands, statistics)."""

from __future__ import annotations

import click

from ..i18n import N_, _, ngettext
from .database import database, db_option, league_option
from .progress import progress, quiet_option, silent

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).


@click.command()
@league_option
@click.option(
    "--output",
    "-o",
    required=True,
    type=click.Path(file_okay=False, writable=True),
    metavar="DIR",
    help=N_("The folder to write the pages into (created if needed)."),
)
@click.option(
    "--templates",
    "template_dir",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    metavar="DIR",
    help=N_("A folder of templates overriding the bundled ones."),
)
@click.option(
    "--timezone",
    "timezone_name",
    default=None,
    metavar="ZONE",
    help=N_(
        "Time zone of the times shown, such as Asia/Seoul (default: the "
        "league's setting, else this machine's)."
    ),
)
@click.option(
    "--page-lang",
    "page_lang",
    type=click.Choice(["ko", "en"]),
    default=None,
    help=N_(
        "Language of the pages (default: the league's setting, else the language the tool speaks)."
    ),
)
@click.option(
    "--full",
    is_flag=True,
    help=N_("Render and write every page, not only those whose content changed."),
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help=N_(
        "Processes rendering pages at once when there are many (default: one "
        "per core; 1: this process only)."
    ),
)
@quiet_option
@db_option
def site(
    league_name: str,
    output: str,
    template_dir: str | None,
    timezone_name: str | None,
    page_lang: str | None,
    full: bool,
    jobs: int | None,
    quiet: bool,
    db_url: str | None,
) -> None:
    """Write the league's site: a folder of pages that work offline and from file://, with
    the league table, ratings and chart, a page per player (statistics by role, partners,
    sessions), a page per session listing every hand, a page per refereed hand, and for a
    league of rounds a tournament page (tournament table, matchpoints, each round).

    Only the pages whose content changed since the last build into the folder are written
    (the folder's .mighty-site.json records what the tool wrote); pages the site no longer
    has are removed, never a file the tool did not write. --full writes every page.

    \b
    Examples:
      mighty site --league tuesday --output site/
      mighty site --league tuesday --output site/ --timezone Asia/Seoul --page-lang ko
      mighty site --league tuesday --output site/ --full --jobs 4
    """
    from ..render.html import time_zone
    from ..site.build import build_site

    time_zone(timezone_name)  # an unknown zone stops here, before anything is written
    with database(db_url) as s, progress(_("writing pages"), quiet) as shown:
        from ..store.ledger.leagues import league_setting

        # The league's own settings (league set --lang/--timezone) unless given here.
        lang = page_lang or league_setting(s, league_name, "lang")
        zone = timezone_name or league_setting(s, league_name, "timezone")
        try:
            report = build_site(
                s,
                league_name,
                output,
                template_dir=template_dir,
                lang=lang,
                timezone_name=zone,
                full=full,
                jobs=jobs,
                progress=None if shown is silent else shown,
            )
        except OSError as exc:  # a read-only place, a full disk: the folder named, one line
            raise click.ClickException(
                _("cannot write {path}: {error}").format(
                    path=click.format_filename(exc.filename or output), error=exc.strerror or exc
                )
            ) from None
    click.echo(
        ngettext(
            "Wrote {written} of {pages} page to {folder} ({players}, {sessions}, "
            "{hands}; largest page {largest} KB: {name}).",
            "Wrote {written} of {pages} pages to {folder} ({players}, {sessions}, "
            "{hands}; largest page {largest} KB: {name}).",
            report.pages,
        ).format(
            written=report.written,
            pages=report.pages,
            folder=click.format_filename(str(report.folder)),
            players=ngettext("{count} player", "{count} players", report.players).format(
                count=report.players
            ),
            sessions=ngettext("{count} session", "{count} sessions", report.sessions).format(
                count=report.sessions
            ),
            hands=ngettext("{count} hand", "{count} hands", report.hands).format(
                count=report.hands
            ),
            largest=round(report.largest[0] / 1024),
            name=report.largest[1],
        )
    )
    if report.removed:
        click.echo(
            ngettext(
                "Removed {count} page the site no longer has.",
                "Removed {count} pages the site no longer has.",
                report.removed,
            ).format(count=report.removed)
        )
    if report.left:
        click.echo(
            ngettext(
                "Left {count} page the site no longer has: changed since the tool wrote it.",
                "Left {count} pages the site no longer has: changed since the tool wrote them.",
                report.left,
            ).format(count=report.left)
        )
