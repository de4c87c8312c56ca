"""``mighty record``: one hand's outcome entered at a league's table, fast (its fields on the
command line, or asked one by one at a terminal; ``--evening`` for the whole night)."""

from __future__ import annotations

import sys

import click

from ..i18n import N_, _
from ..table.next_hand import read_next_hand
from . import completion
from .database import by_option, database, db_option, league_option, who_default
from .hand_lines import print_recorded
from .hand_values import entry_errors
from .options import json_option, number_type
from .score_taken import TakenType, friends_given

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).


@click.command()
@league_option
@click.option(
    "--session",
    "session_number",
    type=number_type(),
    default=None,
    shell_complete=completion.sessions,
    help=N_("Which open session (needed when several are open)."),
)
@click.option(
    "--table",
    "table",
    type=number_type(),
    default=None,
    shell_complete=completion.tables,
    help=N_("Which table of the open round (mighty round start): its session."),
)
@click.option(
    "--declarer",
    "-d",
    default=None,
    metavar="NAME",
    shell_complete=completion.players,
    help=N_("The declarer (주공)."),
)
@click.option(
    "--contract",
    "-c",
    default=None,
    metavar="BID",
    help=N_("The final contract, e.g. 15D, 14S, 16NT (or 스페이드 14, 16 노기)."),
)
@click.option(
    "--friend",
    "-f",
    "friends",
    multiple=True,
    metavar="NAME|none",
    shell_complete=completion.friends,
    help=N_(
        "The player who was friend (프렌드), or none; twice for two friends "
        "where two cards are called (friend.called_cards = 2, 동대전 7마)."
    ),
)
@click.option(
    "--friend-call",
    default=None,
    metavar="CARD",
    shell_complete=completion.cards,
    help=N_("What was called (optional), e.g. SA, joker, first-trick."),
)
@click.option(
    "--taken",
    "-t",
    type=TakenType(),
    default=None,
    help=N_(
        "Point cards the ruling party took, discards included; or split as the "
        "declarer's and each friend's (10+8+2), weighed by the ruleset's friend "
        "weights."
    ),
)
@click.option(
    "--opposition", "-o", type=int, default=None, help=N_("Or: point cards the opposition took.")
)
@click.option(
    "--deal-miss",
    default=None,
    metavar="NAME",
    shell_complete=completion.players,
    help=N_("The hand was a deal miss (딜 미스) declared by NAME."),
)
@click.option(
    "--dealer",
    default=None,
    metavar="NAME",
    shell_complete=completion.players,
    help=N_("Who dealt (default: the proposed dealer)."),
)
@click.option(
    "--players",
    "-p",
    default=None,
    metavar="A,B,C,D,E",
    shell_complete=completion.players,
    help=N_(
        "Who played this hand, table.players of them (default: the proposal when more are present)."
    ),
)
@click.option(
    "--eliminated",
    "-e",
    default=None,
    metavar="NAME[,NAME]|dummy",
    help=N_(
        "6마, 7마, 시흥 은마: who the declarer eliminated (탈락), comma-separated; "
        "시흥 은마: a player or dummy (은실)."
    ),
)
@click.option("--note", default=None, help=N_("Free text kept with the hand."))
@click.option(
    "--evening",
    is_flag=True,
    help=N_(
        "Keep one process open for the whole session: hand after hand, each "
        "answer checked as given, the totals and the next proposal between "
        "hands."
    ),
)
@click.option(
    "--again",
    is_flag=True,
    help=N_(
        "Record the hand even when its outcome equals the table's previous hand "
        "(played twice alike, not entered twice); without it such a hand is "
        "refused, or asked about at a terminal."
    ),
)
@json_option
@db_option
@by_option
def record(
    league_name,
    session_number,
    table,
    declarer,
    contract,
    friends,
    friend_call,
    taken,
    opposition,
    deal_miss,
    dealer,
    players,
    eliminated,
    note,
    evening,
    again,
    as_json,
    db_url,
    who,
) -> None:
    """Record one hand's outcome in the league's open session: checked against the league's
    ruleset and scored at once. Missing values are asked for, each checked as it is given
    (names match without regard to case, or by a unique beginning: j for 지현). When the
    ruleset's session.hands_per_session or session.starting_points says the session is over,
    it ends here and further hands go to a new session.

    \b
    Examples:
      mighty record -l tuesday -d Ana -c 15D -f Bo -t 16
      mighty record -l tuesday --declarer 김철수 --contract 14NT --friend none --opposition 3
      mighty record -l tuesday --deal-miss Cy
      mighty record -l 동대전 -d Ana -c 13C -f Ed -f Fay -t 10+8+2
      mighty record -l tuesday            (asks for each value)
      mighty record -l tuesday --evening  (the whole session in one process)
      mighty record -l cup --table 2 -d Ana -c 15D -f Bo -t 16  (a round's table 2)
    """
    if table is not None:
        if session_number is not None:
            raise click.UsageError(_("give --table or --session, not both"))
        from ..store.rounds.round_lookups import table_session

        with database(db_url) as s:
            session_number = table_session(s, league_name, table)
    from ..table.score_entry import check_apart  # the table's entry: loaded where used

    with entry_errors():  # fields that do not go together: a usage error
        check_apart(
            {
                "taken": taken,
                "opposition": opposition,
                "deal_miss": deal_miss,
                "eliminated": eliminated,
            }
        )
    friend, friend2 = (list(friends_given(friends)) + [None, None])[:2]
    if taken is not None and not taken.split:
        taken = taken.parts[0]  # a count: checked by the league as before
    given = dict(
        declarer=declarer,
        contract=contract,
        friend=friend,
        friend2=friend2,
        taken=taken,
        opposition=opposition,
        deal_miss=deal_miss,
        eliminated=eliminated,
    )
    complete = deal_miss is not None or (
        declarer and contract and friend and (taken is not None or opposition is not None)
    )
    hint = dict(table=table, session=session_number if table is None else None, db=db_url)
    if complete and not evening:
        fields = dict(
            given,
            friend=friends,
            friend_call=friend_call,
            dealer=dealer,
            players=players,
            note=note,
        )
        del fields["friend2"]
        _record_once(league_name, session_number, fields, as_json, db_url, who, again, hint)
        return
    from .scorekeeper_loop import record_interactively

    record_interactively(
        league_name,
        session_number,
        given,
        friend_call,
        dealer,
        players,
        note,
        as_json,
        db_url,
        who_default(who),
        evening,
        again,
        hint,
    )


def _record_once(league_name, session_number, fields, as_json, db_url, who, again, hint) -> None:
    """Every value given on the command line: one transaction, no question (but at a
    terminal, whether an outcome equal to the table's previous hand is recorded again)."""
    from ..table.score_entry import SameAsPrevious
    from .resume_hints import command_line
    from .scorekeeper_loop import again_refused, ask_again

    values = (league_name, session_number, fields, db_url, who)
    try:
        stored, table = _store_once(*values, again=again)
    except SameAsPrevious as exc:
        if not sys.stdin.isatty():
            raise click.ClickException(again_refused(exc)) from None
        if not ask_again(exc):
            raise click.ClickException(_("nothing recorded")) from None
        stored, table = _store_once(*values, again=True)
    print_recorded(stored.recorded, as_json, table, command_line(["referee"], league_name, **hint))


def _store_once(league_name, session_number, fields, db_url, who, *, again: bool):
    """:func:`_record_once`'s transaction: the outcome checked (as a keeper's whole entry:
    :func:`~mighty_cli.table.score_entry.check_outcome`) and stored; the hand stored, and its
    table (or None)."""
    from ..table.score_entry import check_outcome, store_outcome

    with database(db_url) as s, entry_errors():
        hand = read_next_hand(s, league_name, session_number)
        outcome = check_outcome(hand, fields)
        stored = store_outcome(
            s, league_name, outcome, session=session_number, again=again, who=who_default(who)
        )
    return stored, hand.table
