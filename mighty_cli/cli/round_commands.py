"""``mighty round``: a round seats everyone present at one or more tables at once."""

from __future__ import annotations

import click

from ..engine.limits import DEAL_SHEET_MAX_DEALS
from ..i18n import N_, _, ngettext
from ..table.name_lookup import split_names
from . import completion
from .database import (
    by_option,
    chosen_pairs,
    database,
    db_option,
    league_option,
    pair_readings,
    who_default,
)
from .options import SEED, echo_json, json_option, number_type, write_output
from .round_plans import standing_order
from .round_text import (
    change_lines,
    matchpoint_lines,
    print_plan,
    substitute_lines,
    tables_lines,
)

# Deferred imports: the store (SQLModel) loads inside the commands that use it, so `mighty
# --help`, a command's --help and a usage error start quickly (tests/test_imports.py).


@click.group("round")
def round_() -> None:
    """Rounds: everyone present seated at one or more tables at once, each table a session of
    the league; a club night is one round or several, a tournament a league of rounds.

    \b
    Examples:
      mighty round start --league cup --players Ana,Bo,Cy,Di,Ed,Fay,Gil,Hu,Ida,Jo,Ki
      mighty round show --league cup
      mighty record --league cup --table 2 -d Ana -c 15D -f Bo -t 16
      mighty round end --league cup
    """


#: The seating search's options, shared by round start and round reseat.
seed_option = click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help=N_("The seed of the seating search: the same seed, the same plan."),
)
apart_option = click.option(
    "--apart",
    multiple=True,
    metavar="A/B",
    shell_complete=completion.pairs,
    help=N_("A pair not to seat at one table (repeatable)."),
)


def _known(s, names):
    """Whether a name is one of ``names`` (those present) or a player of the store: how a pair
    naming a player whose name holds '/' (an older store's) is read."""
    from ..engine.names import folded
    from ..store.ledger.lookups import find_player

    present = {folded(name) for name in names or ()}
    return lambda name: folded(name) in present or find_player(s, name) is not None


#: The orders ``round start`` seats by strength in (``--seat-by``, or ``--by``: on this
#: command those two words name an order, never the change's author).
SEATING_ORDERS = ["standings", "rating"]


@round_.command("start")
@league_option
@click.option(
    "--players",
    "-p",
    required=True,
    metavar="A,B,C,...",
    shell_complete=completion.players,
    help=N_(
        "Everyone present; the tool splits them into tables of the sizes the "
        "league's ruleset plays and seats them."
    ),
)
@seed_option
@apart_option
@click.option(
    "--rounds",
    "rounds_ahead",
    type=click.IntRange(1, 12),
    default=None,
    help=N_(
        "Plan the tournament's R rounds together, from this one: the later ones "
        "are kept and taken as planned at their round (give --rounds R again, or "
        "nothing); another R, or someone who drops or arrives, plans the rounds "
        "ahead again, saying why."
    ),
)
@click.option(
    "--seat-by",
    "seat_by",
    type=click.Choice(SEATING_ORDERS),
    default=None,
    help=N_(
        "Seat by strength: table 1 the top of the tournament table (or of the "
        "league's rating), table 2 the next, and so on (a cup's later rounds, "
        "its final table); then the plan's other rules. Also said --by standings "
        "or --by rating."
    ),
)
@click.option(
    "--swiss",
    is_flag=True,
    help=N_(
        "Swiss seating: players of similar standing together (by --seat-by, "
        "default the tournament table), as far as keeping pairs from meeting "
        "again allows."
    ),
)
@click.option(
    "--substitute",
    "substitutes",
    multiple=True,
    metavar="S/X",
    shell_complete=completion.pairs,
    help=N_(
        "S sits in for X, who is not here (repeatable): planned with X's "
        "opponents so far, in X's place."
    ),
)
@click.option(
    "--credit",
    is_flag=True,
    help=N_(
        "Count the substitutes' results of this round for the players they sit "
        "in for in the tournament table (default: kept apart, under their own "
        "names)."
    ),
)
@click.option(
    "--duplicate",
    is_flag=True,
    help=N_(
        "Duplicate Mighty: every table of one size plays the same deals (from "
        "--seed) in the same seats, each deal dealt from a fixed seat; the "
        "referee deals them, recorded hands are checked against them, and each "
        "seat's result is compared with the others who held the same cards "
        "(matchpoints, in round show)."
    ),
)
@click.option("--date", "day", default=None, metavar="YYYY-MM-DD", help=N_("Default: today."))
@json_option
@db_option
@by_option
def round_start(
    league_name,
    players,
    seed,
    apart,
    rounds_ahead,
    seat_by,
    swiss,
    substitutes,
    credit,
    duplicate,
    day,
    as_json,
    db_url,
    who,
) -> None:
    """Start a round: split everyone present into tables, seat each table so that the fewest
    pairs meet again (against every earlier session of the league), and open them together.
    Prints how many pairs repeat and the fewest possible, and what the plan could not avoid
    (pairs together in every round, pairs meeting a third time). A player already seated at
    an open table is refused. On this command --by standings and --by rating seat by strength
    (--seat-by); the change's author is then $MIGHTY_USER or the login name.

    \b
    Examples:
      mighty round start --league cup --players Ana,Bo,Cy,Di,Ed,Fay,Gil,Hu,Ida,Jo
      mighty round start --league cup --players Ana,Bo,Cy,Di,Ed,Fay,Gil,Hu,Ida,Jo --by standings
      mighty round start --league cup --players Ana,Bo,Cy,Di,Ed,Fay,Gil,Hu,Ida,Jo \\
          --duplicate --seed 7
    """
    from ..store.rounds import round_tables as store
    from ..table.new_names import refuse_new_names

    if who in SEATING_ORDERS:  # --by standings: --seat-by's other spelling, not an author
        if seat_by not in (None, who):
            raise click.UsageError(
                _("--by {by} and --seat-by {seat_by}: seat by one of them").format(
                    by=who, seat_by=seat_by
                )
            )
        seat_by, who = who, None
    names = split_names(players) or []
    readings = pair_readings(apart), pair_readings(substitutes, "--substitute")
    if credit and not substitutes:
        raise click.UsageError(_("--credit is said of substitutes: give --substitute S/X"))
    if (seat_by or swiss) and rounds_ahead:
        raise click.UsageError(
            _("--seat-by and --swiss seat one round by the standing now: not with --rounds")
        )
    with database(db_url) as s:
        pairs = chosen_pairs(apart, readings[0], "--apart", _known(s, names))
        subs = chosen_pairs(substitutes, readings[1], "--substitute", _known(s, names))
        refuse_new_names(s, names)
        standing = (
            standing_order(s, league_name, seat_by or "standings") if seat_by or swiss else None
        )
        state = store.start_round(
            s,
            league_name,
            names,
            seed=seed,
            apart=pairs,
            day=day,
            rounds=rounds_ahead,
            duplicate=duplicate,
            substitutes=subs,
            credit=credit,
            who=who_default(who),
            standing=standing,
            strict=not swiss,
        )
    print_plan(
        state,
        league_name,
        as_json,
        ngettext(
            "Round {number} of {league} started: {count} table.",
            "Round {number} of {league} started: {count} tables.",
            len(state.tables),
        ),
    )


@round_.command("reseat")
@league_option
@click.option(
    "--players",
    "-p",
    default=None,
    metavar="A,B,C,...",
    shell_complete=completion.players,
    help=N_(
        "Everyone present (default: those the round seats): a late arrival or a "
        "drop before the first hand."
    ),
)
@seed_option
@apart_option
@json_option
@db_option
@by_option
def round_reseat(league_name, players, seed, apart, as_json, db_url, who) -> None:
    """Plan the open round again before its first hand: another seed, a pair to keep apart,
    or a late arrival or a drop. Refused once any table has a hand."""
    from ..store.rounds import round_tables as rounds
    from ..table.new_names import refuse_new_names

    names = split_names(players) if players else None
    readings = pair_readings(apart)
    with database(db_url) as s:
        pairs = chosen_pairs(apart, readings, "--apart", _known(s, names))
        refuse_new_names(s, names or ())
        state = rounds.reseat_round(
            s, league_name, names, seed=seed, apart=pairs, who=who_default(who)
        )
    print_plan(
        state,
        league_name,
        as_json,
        ngettext(
            "Round {number} of {league} seated again: {count} table.",
            "Round {number} of {league} seated again: {count} tables.",
            len(state.tables),
        ),
    )


@round_.command("seat")
@league_option
@click.option(
    "--table",
    "table",
    type=number_type(),
    required=True,
    shell_complete=completion.tables,
    help=N_("The table of the open round whose seating changes."),
)
@click.option(
    "--leave",
    multiple=True,
    metavar="NAME",
    shell_complete=completion.players,
    help=N_(
        "A player who leaves (repeatable): from his table's next hand he is not "
        "seated, and may sit at another table."
    ),
)
@click.option(
    "--join",
    multiple=True,
    metavar="NAME",
    shell_complete=completion.players,
    help=N_(
        "A player who joins the table (repeatable), in the seat of one who "
        "leaves it; one seated at another open table must --leave it too."
    ),
)
@json_option
@db_option
@by_option
def round_seat(league_name, table, leave, join, as_json, db_url, who) -> None:
    """Someone leaves or arrives mid-round: from the table's next hand its seating changes
    (who leaves goes, who joins sits in his seat); its earlier hands stay as played, it counts
    its hands on, and the other tables are untouched. The table must stay a size the ruleset
    plays; refused while it has a hand in progress.

    \b
    Examples:
      mighty round seat --league cup --table 2 --leave Cy --join Zed
      mighty round seat --league cup --table 1 --join Mallory
      mighty round seat --league cup --table 1 --leave Bo --join Bo  (Bo moves to table 1)
    """
    from ..store.rounds.round_seat import seat_table
    from ..table.new_names import refuse_new_names

    if not leave and not join:
        raise click.UsageError(_("say who leaves (--leave NAME) or joins (--join NAME)"))
    with database(db_url) as s:
        refuse_new_names(s, join)
        state, changed = seat_table(
            s, league_name, table, leave=leave, join=join, who=who_default(who)
        )
    if as_json:
        echo_json(state.to_json() | {"changed": changed})
        return
    click.echo(
        _("Round {number} of {league}: the seating changes from the table's next hand.").format(
            number=state.number, league=league_name
        )
    )
    for shown in state.tables:
        if shown.table not in changed:
            continue
        following = shown.changes[-1].from_hand if shown.changes else 1
        click.echo(
            (
                _(
                    "Table {table} (session {session}): {players}; its hand {hand} is the "
                    "round's deal {hand}"
                )
                if state.deal_seed is not None
                else _(
                    "Table {table} (session {session}): {players}; {dealer} deals its hand {hand}"
                )
            ).format(
                table=shown.table,
                session=shown.session,
                players=", ".join(shown.players),
                dealer=shown.players[0],
                hand=following,
            )
        )
        for line in change_lines(shown):
            click.echo(line)


@round_.command("show")
@league_option
@click.option(
    "--round",
    "round_number",
    type=number_type(),
    default=None,
    help=N_("Which round (default: the open one, else the latest)."),
)
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    metavar="OUT",
    help=N_(
        "Write the projector board (tables, where each player sits, the round's "
        "standings; reloaded every minute while the round runs) and a printable "
        "score slip per table, in the league's language."
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
    "--url",
    "serve_url",
    default=None,
    metavar="URL",
    help=N_(
        "With --html: the address mighty serve printed (http://192.168.0.10:8000); "
        "each slip gets a QR code that opens its table's page with its entry "
        "code."
    ),
)
@json_option
@db_option
def round_show(
    league_name, round_number, html_path, template_dir, serve_url, as_json, db_url
) -> None:
    """Show a round's tables: who sits where, the hands played, which tables are still
    playing, and each playing table's entry code for the phones (mighty serve). --html writes
    the board for a projector or a phone, with a score slip per table for the printer (with
    its entry code: keep the file to those who run the night).

    \b
    Examples:
      mighty round show --league cup
      mighty round show --league cup --html board.html --url http://192.168.0.10:8000
    """
    from ..store.rounds import round_tables as rounds

    if as_json and html_path:
        raise click.UsageError(_("give --json or --html, not both"))
    if serve_url is not None and not html_path:
        raise click.UsageError(_("--url is said of the slips: give --html too"))
    if serve_url is not None and not serve_url.startswith(("http://", "https://")):
        raise click.UsageError(
            _("--url {url}: an address beginning http:// or https://").format(url=serve_url)
        )
    with database(db_url) as s:
        state = rounds.round_state(s, league_name, round_number)
        if html_path:
            from ..render.html import render_round_board
            from ..store.ledger.leagues import league_setting
            from ..store.rounds.round_board import round_board

            board = round_board(s, league_name, round_number)
            text = render_round_board(
                board,
                template_dir,
                lang=league_setting(s, league_name, "lang"),
                timezone_name=league_setting(s, league_name, "timezone"),
                serve_url=serve_url,
            )
    if html_path:
        write_output(html_path, text)
        click.echo(
            _("Wrote {path} (round {number}, {tables}).").format(
                path=html_path,
                number=state.number,
                tables=ngettext("{count} table", "{count} tables", len(state.tables)).format(
                    count=len(state.tables)
                ),
            )
        )
        return
    if as_json:
        echo_json(state.to_json())
        return
    playing = [t.table for t in state.tables if t.playing]
    click.echo(
        _("Round {number} of {league} ({state}).").format(
            number=state.number, league=league_name, state=_("ended") if state.ended else _("open")
        )
    )
    for line in tables_lines(state) + substitute_lines(state):
        click.echo(line)
    if playing and not state.ended:
        click.echo(_("Still playing: tables {tables}.").format(tables=", ".join(map(str, playing))))
        codes = [
            _("table {table}: {code}").format(table=t.table, code=t.code)
            for t in state.tables
            if t.playing and t.code
        ]
        if codes:
            click.echo(
                _("Entry codes for the phones (mighty serve): {codes}.").format(
                    codes=", ".join(codes)
                )
            )
    if state.deal_seed is not None:
        click.echo("\n".join(matchpoint_lines(state.matchpoints)))


@round_.command("deals")
@league_option
@click.option(
    "--round",
    "round_number",
    type=number_type(),
    default=None,
    help=N_("Which round (default: the open one, else the latest)."),
)
@click.option(
    "--deals",
    "deals",
    type=click.IntRange(1, DEAL_SHEET_MAX_DEALS),
    default=None,
    metavar="N",
    help=N_(
        "Lay out deals 1 to N (default: the hands of a session under the "
        "ruleset, else 12); more than the round plays is refused."
    ),
)
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    metavar="OUT",
    help=N_("Write the sheet as a printable page (A4, a deal per page), in the league's language."),
)
@click.option(
    "--templates",
    "template_dir",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    metavar="DIR",
    help=N_("A folder of templates overriding the bundled ones (for --html)."),
)
@json_option
@db_option
def round_deals(league_name, round_number, deals, html_path, template_dir, as_json, db_url) -> None:
    """Print a duplicate round's deal sheet, to lay out its deals with real cards: for each
    deal, who deals and opens, each seat's hand sorted as a director lays it out (by suit, high
    to low, then the jokers; the mighty marked), and the kitty, for each table size of the
    round.

    \b
    Examples:
      mighty round deals --league cup --deals 8
      mighty round deals --league cup --html deals.html
    """
    from ..store.rounds.round_deals import round_deal_sheet
    from .deal_sheet_lines import sheet_lines  # the engine's deals: loaded by the command

    if as_json and html_path:
        raise click.UsageError(_("give --json or --html, not both"))
    with database(db_url) as s:
        sheet = round_deal_sheet(s, league_name, round_number, deals)
        if html_path:
            from ..render.html import render_deal_sheet
            from ..store.ledger.leagues import league_setting

            text = render_deal_sheet(
                sheet,
                template_dir,
                lang=league_setting(s, league_name, "lang"),
                timezone_name=league_setting(s, league_name, "timezone"),
            )
    if html_path:
        write_output(html_path, text)
        click.echo(
            ngettext(
                "Wrote {path} (round {number}, {count} deal).",
                "Wrote {path} (round {number}, {count} deals).",
                sheet.deals,
            ).format(path=html_path, number=sheet.round, count=sheet.deals)
        )
        return
    if as_json:
        echo_json(sheet.to_json())
        return
    for line in sheet_lines(sheet):
        click.echo(line)


@round_.command("end")
@league_option
@click.option(
    "--force",
    is_flag=True,
    help=N_("End the round even where a table has a hand in progress (dropped)."),
)
@db_option
@by_option
def round_end(league_name, force, db_url, who) -> None:
    """End the open round: every table still playing ends with it."""
    from ..store.rounds import round_tables as rounds

    with database(db_url) as s:
        state = rounds.end_round(s, league_name, force=force, who=who_default(who))
    click.echo(
        _("Round {number} of {league} ended.").format(number=state.number, league=league_name)
    )
    for line in tables_lines(state):
        click.echo(line)
