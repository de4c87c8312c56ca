"""League sessions: ``session start|end|show``, an evening's seating and the proposal of who
deals, opens and sits out next."""

from __future__ import annotations

import click

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
from .options import SEED, echo_json, json_option, number_type

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).


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
        text = _(
            "Next hand: dealer {dealer}, opener {opener}, sitting out {out}; playing {players}"
        )
    else:
        text = _("Next hand: dealer {dealer}, opener {opener}; playing {players}")
    text = text.format(
        dealer=proposal.dealer,
        opener=proposal.opener,
        out=", ".join(proposal.sitting_out),
        players=", ".join(proposal.players),
    )
    if pot:
        text += _("; deposit pot {pot}").format(pot=pot)
    return text


@session.command("start")
@league_option
@click.option(
    "--players",
    "-p",
    required=True,
    metavar="A,B,C,D,E[,F,G]",
    shell_complete=completion.players,
    help=N_(
        "Players present, in seating order (clockwise): the ruleset's "
        "table.players, or one or two more."
    ),
)
@click.option("--date", "day", default=None, metavar="YYYY-MM-DD", help=N_("Default: today."))
@click.option(
    "--dealer",
    default=None,
    metavar="NAME",
    shell_complete=completion.players,
    help=N_("The first dealer (default: the first player listed)."),
)
@click.option(
    "--shuffle",
    is_flag=True,
    help=N_("Propose the seating: fewest repeated neighbours from past sessions."),
)
@click.option(
    "--apart",
    multiple=True,
    metavar="A/B",
    shell_complete=completion.pairs,
    help=N_("With --shuffle: a pair not to seat side by side (repeatable)."),
)
@click.option(
    "--seed",
    type=SEED,
    default=None,
    hidden=True,
    help=N_("With --shuffle: the seed choosing among equally good seatings."),
)
@db_option
@by_option
def session_start(league_name, players, day, dealer, shuffle, apart, seed, db_url, who) -> None:
    """Start a session: who is present and where they sit. With one or two more present than
    the ruleset seats (table.players: five, six under 6마, seven under 7마), they take turns
    to sit out and the tool proposes who (session.sit_out).

    \b
    Examples:
      mighty session start --league tuesday --players Ana,Bo,Cy,Di,Ed
      mighty session start -l tuesday -p Ana,Bo,Cy,Di,Ed,김철수 --dealer Cy --date 2024-03-05
      mighty session start -l tuesday -p Ana,Bo,Cy,Di,Ed,Fay --shuffle --apart Ana/Bo
    """
    from ..store.ledger.lookups import find_player
    from ..store.ledger.sessions import start_session
    from ..store.ledger.succession import session_proposal
    from ..table.new_names import refuse_new_names

    names = split_names(players) or []
    if apart and not shuffle:
        raise click.UsageError(_("--apart is used with --shuffle"))
    readings = pair_readings(apart)
    with database(db_url) as s:
        pairs = chosen_pairs(
            apart,
            readings,
            "--apart",
            lambda name: name in names or find_player(s, name) is not None,
        )
        refuse_new_names(s, names)
        if shuffle:
            from ..league.seating import neighbour_history, propose_seating
            from ..store.ledger.sessions import past_seatings

            seating = propose_seating(
                names, neighbour_history(past_seatings(s, league_name)), pairs, seed
            )  # type: ignore[arg-type]
            names = seating.order
            click.echo(
                ngettext(
                    "Seating (clockwise): {names} ({repeats} repeated neighbour pair).",
                    "Seating (clockwise): {names} ({repeats} repeated neighbour pairs).",
                    seating.repeats,
                ).format(names=", ".join(names), repeats=seating.repeats)
            )
        started, proposal = start_session(
            s, league_name, names, day=day, first_dealer=dealer, who=who_default(who)
        )
        pot = session_proposal(s, league_name, started.number)[2]
        click.echo(
            _("Session {number} of {league} started ({day}).").format(
                number=started.number, league=league_name, day=started.day.isoformat()
            )
        )
        click.echo(proposal_text(proposal, pot))


#: ``--table T``: a round's table, for the commands that take its session.
table_option = click.option(
    "--table",
    "table",
    type=number_type(),
    default=None,
    shell_complete=completion.tables,
    help=N_("Which table of the open round (mighty round start): its session."),
)


def table_or_session(s, league_name: str, session_number, table):
    """The session ``--table T`` (the open round's table) or ``--session N`` names."""
    if table is None:
        return session_number
    if session_number is not None:
        raise click.UsageError(_("give --table or --session, not both"))
    from ..store.rounds.round_lookups import table_session

    return table_session(s, league_name, table)


@session.command("end")
@league_option
@click.option(
    "--session",
    "session_number",
    type=number_type(),
    default=None,
    shell_complete=completion.sessions,
    help=N_("Which open session (needed when several are open)."),
)
@table_option
@db_option
@by_option
def session_end(league_name, session_number, table, db_url, who) -> None:
    """End a session (a round's table: --table).

    \b
    Example:
      mighty session end --league tuesday
    """
    from ..store.ledger.sessions import end_session

    with database(db_url) as s:
        session_number = table_or_session(s, league_name, session_number, table)
        ended = end_session(s, league_name, session_number, who_default(who))
        click.echo(
            _("Session {number} of {league} ended.").format(number=ended.number, league=league_name)
        )


@session.command("show")
@league_option
@click.option(
    "--session",
    "session_number",
    type=number_type(),
    default=None,
    shell_complete=completion.sessions,
    help=N_("Which session (default: the open one)."),
)
@table_option
@json_option
@db_option
def session_show(league_name, session_number, table, as_json, db_url) -> None:
    """Show a session's seating, who should deal, open and sit out next, and how far it is
    from its ruleset's end (session.hands_per_session, session.starting_points); an ended
    session says why it ended, and whether a later correction disagrees (corrections never
    end or reopen a session).

    \b
    Example:
      mighty session show --league tuesday
    """
    from ..store.ledger.lookups import seating
    from ..store.ledger.sessions import session_end_info
    from ..store.ledger.succession import session_proposal

    with database(db_url) as s:
        session_number = table_or_session(s, league_name, session_number, table)
        current, proposal, pot = session_proposal(s, league_name, session_number)
        present = seating(s, current.id)
        end = session_end_info(s, league_name, current.number)
    if as_json:
        echo_json(
            {
                "session": current.number,
                "date": current.day.isoformat(),
                "open": current.ended_at is None,
                "players": present,
                "next": {
                    "dealer": proposal.dealer,
                    "opener": proposal.opener,
                    "players": list(proposal.players),
                    "sitting_out": list(proposal.sitting_out),
                },
                "pot": pot,
                "ended_by": end.ended_by,
                "end_rules": end.progress,
                "note": end.note,
            }
        )
        return
    state = _("open") if current.ended_at is None else _("ended")
    click.echo(
        _("Session {number} ({day}, {state}): {players}").format(
            number=current.number,
            day=current.day.isoformat(),
            state=state,
            players=", ".join(present),
        )
    )
    if end.ended_by:
        click.echo(_("Ended by the ruleset: {reason}.").format(reason=end.ended_by))
    elif end.progress:
        click.echo(_("Session end rules: {progress}.").format(progress=end.progress))
    if end.note:
        click.echo(_("Note: {note}.").format(note=end.note))
    if current.ended_at is None:
        click.echo(proposal_text(proposal, pot))
