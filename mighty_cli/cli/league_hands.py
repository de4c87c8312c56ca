"""``mighty hand list|show|amend|void|unvoid|log``: a league's hands found by the league's
number or by their table, and their corrections (``mighty record`` enters them:
:mod:`.record_command`)."""

from __future__ import annotations

import click

from ..engine.hand.seats import eliminated_label
from ..engine.scoring import doubling_label
from ..i18n import N_, _, ngettext
from ..i18n import gettext as translate
from ..render.text import friend_call_text, signed, table
from ..table.name_lookup import split_names
from . import completion
from .database import by_option, database, db_option, league_option, who_default
from .hand_lines import deltas_line, eliminated_text, hand_line, table_place
from .hand_values import at_table, entry_errors, league_number, round_hand_option, table_hand_option
from .options import echo_json, json_option, number_type
from .score_taken import TakenType, friends_given

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).


#: Table headers (translated where they are shown).
LIST_HEADERS = (N_("hand"), N_("session"), N_("dealer"), N_("outcome"), N_("pot"))
#: The columns a listing with a round's hands adds after the session: where each was played.
TABLE_HEADERS = (N_("round"), N_("table"), N_("table hand"))
CHANGE_HEADERS = (N_("player"), N_("score was"), N_("now"), N_("change"), N_("rank was"), N_("now"))
LOG_HEADERS = (N_("when"), N_("who"), N_("what"), N_("why"))
#: The change log's actions as ``hand log`` names them in the user's language (``--json`` keeps
#: the stored words); an action not listed is shown as stored.
ACTION_WORDS = {
    "hand record": N_("hand record"),
    "hand amend": N_("hand amend"),
    "hand void": N_("hand void"),
    "hand unvoid": N_("hand unvoid"),
    "import": N_("import"),
    "league create": N_("league create"),
    "league set": N_("league set"),
    "player add": N_("player add"),
    "player merge": N_("player merge"),
    "player rename": N_("player rename"),
    "round start": N_("round start"),
    "round reseat": N_("round reseat"),
    "round seat": N_("round seat"),
    "round end": N_("round end"),
    "session start": N_("session start"),
    "session end": N_("session end"),
}
#: What ``hand log`` says an amendment changed: the hand's keys, each with its label.
AMENDED_KEYS = (
    ("declarer", N_("declarer")),
    ("contract", N_("contract")),
    ("friend", N_("friend")),
    ("friend2", N_("friend")),
    ("friend_call", N_("friend call")),
    ("taken", N_("taken")),
    ("deal_miss", N_("deal miss")),
    ("dealer", N_("dealer")),
    ("players", N_("players")),
    ("eliminated", N_("eliminated")),
    ("note", N_("note")),
)


@click.group()
def hand() -> None:
    """Hands of a league: list, show, amend, void or unvoid (with a change log).

    \b
    Examples:
      mighty hand list --league tuesday --last 10
      mighty hand show --league tuesday 12
      mighty hand amend --league tuesday 12 --taken 15 --reason "miscounted"
      mighty hand void --league tuesday 13 --reason "entered twice"
      mighty hand unvoid --league tuesday 13 --why "it was played after all"
    """


reason_option = click.option(
    "--reason", "--why", "reason", default=None, help=N_("Why (required; asked for when missing).")
)


def print_correction(correction, as_json: bool) -> None:
    """What a correction changed: the hand and the standings, as text or JSON."""
    if as_json:
        echo_json(correction_json(correction))
    else:
        click.echo(changes_text(correction))


def run_correction(
    service: str,
    league_name: str,
    number: int,
    reason: str | None,
    as_json: bool,
    db_url: str | None,
    who: str | None,
    table: int | None = None,
    round_number: int | None = None,
) -> None:
    """Void or restore a hand in one transaction and print what changed."""
    from ..store.ledger import corrections

    at_table(table, round_number)
    why = require_reason(reason)
    with database(db_url) as s:
        number = league_number(s, league_name, number, table, round_number)
        correction = getattr(corrections, service)(
            s, league_name, number, who=who_default(who), why=why
        )
    print_correction(correction, as_json)


@hand.command("list")
@league_option
@click.option(
    "--session",
    "session_number",
    type=number_type(),
    default=None,
    shell_complete=completion.sessions,
    help=N_("One session only."),
)
@click.option("--last", type=number_type(), default=None, help=N_("Only the last N hands."))
@json_option
@db_option
def hand_list(league_name, session_number, last, as_json, db_url) -> None:
    """List a league's hands.

    \b
    Example:
      mighty hand list --league tuesday --session 3
    """
    from ..store.ledger.hand_reads import list_hands

    with database(db_url) as s:
        hands = list_hands(s, league_name, session_number=session_number, last=last)
    if as_json:
        echo_json({"hands": [h.to_json() for h in hands]})
        return
    if not hands:
        click.echo(_("League {league} has no hands yet.").format(league=league_name))
        return
    if not any(h.table is not None for h in hands):
        click.echo(
            table(
                [_(h) for h in LIST_HEADERS],
                [
                    (
                        h.number,
                        h.session,
                        h.dealer or "",
                        hand_line(h) + eliminated_text(h),
                        h.pot_after,
                    )
                    for h in hands
                ],
                align=">><<>",
            )
        )
        return
    headers = [_(h) for h in LIST_HEADERS[:2] + TABLE_HEADERS + LIST_HEADERS[2:]]
    click.echo(
        table(
            headers,
            [
                (
                    h.number,
                    h.session,
                    *(("", "", "") if h.table is None else (h.round, h.table, h.table_hand)),
                    h.dealer or "",
                    hand_line(h) + eliminated_text(h),
                    h.pot_after,
                )
                for h in hands
            ],
            align=">>>>><<>",
        )
    )


@hand.command("show")
@league_option
@click.argument("number", type=number_type())
@table_hand_option
@round_hand_option
@json_option
@db_option
def hand_show(league_name, number, table, round_number, as_json, db_url) -> None:
    """Show one hand in full: NUMBER is the league's hand number, or with --table the table's
    own (hand 2 of table 3).

    \b
    Examples:
      mighty hand show --league tuesday 12
      mighty hand show --league cup --table 3 2
    """
    from ..store.ledger.hand_reads import show_hand

    at_table(table, round_number)
    with database(db_url) as s:
        number = league_number(s, league_name, number, table, round_number)
        shown = show_hand(s, league_name, number)
    if as_json:
        echo_json(shown.to_json())
        return
    click.echo(
        _("Hand {number}, session {session} ({day})").format(
            number=shown.number, session=shown.session, day=shown.day.isoformat()
        )
        + table_place(shown)
        + (" — " + _("VOID") if shown.voided else "")
    )
    click.echo(f"  {hand_line(shown)}")
    if shown.sitting_out:
        said = _("players: {players}; sitting out: {out}; dealer {dealer}")
    else:
        said = _("players: {players}; dealer {dealer}")
    click.echo(
        "  "
        + said.format(
            players=", ".join(shown.players), out=", ".join(shown.sitting_out), dealer=shown.dealer
        )
    )
    if shown.eliminated:  # 6마, 7마; 시흥 은마: a player (he played the dummy's hand) or the dummy
        click.echo("  " + eliminated_text(shown, ""))
    if shown.status == "scored":
        doubled = ", ".join(doubling_label(d) for d in shown.doublings) or _("no doublings")
        base = (
            int(shown.base)
            if shown.base is not None and shown.base == int(shown.base)
            else shown.base
        )
        click.echo(
            "  "
            + _("base {base} × {multiplier} ({doublings})").format(
                base=base, multiplier=shown.multiplier, doublings=doubled
            )
            + (
                _("; friend call {call}").format(call=friend_call_text(shown.friend_call))
                if shown.friend_call
                else ""
            )
        )
    click.echo(f"  {deltas_line(shown)}")
    click.echo("  " + _("deposit pot after: {pot}").format(pot=shown.pot_after))
    if shown.note:
        click.echo("  " + _("note: {note}").format(note=shown.note))
    if shown.full and shown.record_toml:
        click.echo("  " + _("refereed card by card:"))
        for line in shown.record_toml.rstrip().splitlines():
            click.echo(f"    {line}")


def changes_text(correction) -> str:
    before, after = correction.before, correction.after
    # who the declarer eliminated, said on both lines where the correction changed it
    told = eliminated_text if before.eliminated != after.eliminated else (lambda hand: "")
    heading = (
        _("Hand {number}: {hand}")
        if after.table is None
        else _("Hand {number} (round {round}, table {table}, hand {local}): {hand}")
    )
    lines = [
        heading.format(
            number=after.number,
            round=after.round,
            table=after.table,
            local=after.table_hand,
            hand=hand_line(before) + told(before),
        ),
        "     " + _("now: {hand}").format(hand=hand_line(after) + told(after)),
    ]
    if correction.hands_resettled:
        lines.append(
            ngettext(
                "Deposit pot settled again in {count} later hand.",
                "Deposit pot settled again in {count} later hands.",
                correction.hands_resettled,
            ).format(count=correction.hands_resettled)
        )
    if correction.session_note:
        lines.append(_("Note: {note}.").format(note=correction.session_note))
    # a player whose score and place stay (a voided deal miss: only the hands counted) is not
    # a change a reader looks for
    shown = [
        c
        for c in correction.changes
        if c.score_before != c.score_after or c.rank_before != c.rank_after
    ]
    if not shown:
        lines.append(_("Standings unchanged."))
        return "\n".join(lines)

    def rank(r: int | None) -> str:
        return "-" if r is None else str(r)

    rows = [
        (
            c.name,
            c.score_before,
            c.score_after,
            signed(c.score_after - c.score_before),
            rank(c.rank_before),
            rank(c.rank_after),
        )
        for c in shown
    ]
    lines.append(_("Standings changed:"))
    lines.append(table([_(h) for h in CHANGE_HEADERS], rows, align="<>>>>>"))
    return "\n".join(lines)


def correction_json(correction) -> dict:
    return {
        "before": correction.before.to_json(),
        "after": correction.after.to_json(),
        "hands_resettled": correction.hands_resettled,
        "changes": [vars(c) for c in correction.changes],
        "session_note": correction.session_note,
    }


def require_reason(reason: str | None) -> str:
    """``--reason``, asked for when missing; none given (an empty answer, or no input left to
    ask: a script) is a usage error, exit 2."""
    if reason is None:
        try:
            reason = click.prompt(_("Reason (for the change log)"))
        except click.Abort:  # end of input at the question (or Ctrl-C): nothing was said
            reason = ""
    if not reason.strip():
        raise click.UsageError(_("--reason must say why the hand changes"))
    return reason.strip()


@hand.command("amend")
@league_option
@click.argument("number", type=number_type())
@table_hand_option
@round_hand_option
@click.option("--declarer", "-d", default=None, metavar="NAME", shell_complete=completion.players)
@click.option("--contract", "-c", default=None, metavar="BID")
@click.option(
    "--friend",
    "-f",
    "friends",
    multiple=True,
    metavar="NAME|none",
    shell_complete=completion.friends,
)
@click.option("--friend-call", default=None, metavar="CARD", shell_complete=completion.cards)
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
@click.option("--opposition", "-o", type=int, default=None)
@click.option(
    "--deal-miss",
    default=None,
    metavar="NAME",
    shell_complete=completion.players,
    help=N_("It was a deal miss after all."),
)
@click.option("--dealer", default=None, metavar="NAME", shell_complete=completion.players)
@click.option(
    "--players", "-p", default=None, metavar="A,B,C,D,E", shell_complete=completion.players
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
@click.option("--note", default=None)
@reason_option
@json_option
@db_option
@by_option
def hand_amend(
    league_name,
    number,
    table,
    round_number,
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
    reason,
    as_json,
    db_url,
    who,
) -> None:
    """Correct an earlier hand (NUMBER: the league's, or with --table the table's own).
    Everything after it is recomputed in the same transaction, the change log records who,
    when and why, and the standings changes are printed.

    \b
    Examples:
      mighty hand amend --league tuesday 12 --taken 15 --reason "miscounted the kitty"
      mighty hand amend -l tuesday 7 --friend none --by 김철수 --reason "no friend was called"
      mighty hand amend -l six 4 --eliminated Di --reason "Di was out, not Cy"
      mighty hand amend -l cup --table 3 2 --taken 14 --reason "table 3 miscounted"
    """
    from ..store.ledger.corrections import amend_hand

    at_table(table, round_number)
    if taken is not None and opposition is not None:
        raise click.UsageError(_("give --taken or --opposition, not both"))
    # --friend twice: the two friends of a two-card call (동대전 7마); once: one friend (or none)
    friend, friend2 = (friends_given(friends) + [None, None])[:2]
    why = require_reason(reason)
    from ..table.amended_hand import AmendedHand  # names read as record reads them

    with database(db_url) as s, entry_errors():
        number = league_number(s, league_name, number, table, round_number)
        values = AmendedHand(s, league_name, number, players).values(
            declarer=declarer,
            contract=contract,
            friend=friend,
            friend2=friend2,
            taken=taken,
            deal_miss=deal_miss,
            eliminated=eliminated,
        )
        correction = amend_hand(
            s,
            league_name,
            number,
            who=who_default(who),
            why=why,
            friend_call=friend_call,
            opposition=opposition,
            dealer=dealer,
            players=split_names(players),
            note=note,
            **values,
        )
    print_correction(correction, as_json)


@hand.command("void")
@league_option
@click.argument("number", type=number_type())
@table_hand_option
@round_hand_option
@reason_option
@json_option
@db_option
@by_option
def hand_void(league_name, number, table, round_number, reason, as_json, db_url, who) -> None:
    """Void a hand (entered twice, never played): it leaves the standings but stays in the
    change log; everything after it is recomputed. NUMBER: the league's, or with --table the
    table's own.

    \b
    Examples:
      mighty hand void --league tuesday 13 --reason "entered twice"
      mighty hand void --league cup --table 3 2 --reason "entered twice"
    """
    run_correction(
        "void_hand", league_name, number, reason, as_json, db_url, who, table, round_number
    )


@hand.command("unvoid")
@league_option
@click.argument("number", type=number_type())
@table_hand_option
@round_hand_option
@reason_option
@json_option
@db_option
@by_option
def hand_unvoid(league_name, number, table, round_number, reason, as_json, db_url, who) -> None:
    """Restore a voided hand as it was recorded: it counts in the standings again, the deposit
    pot of every hand after it is settled again in the same transaction, the change log
    records who, when and why, and the standings changes are printed.

    \b
    Example:
      mighty hand unvoid --league tuesday 13 --why "voided the wrong hand"
    """
    run_correction(
        "unvoid_hand", league_name, number, reason, as_json, db_url, who, table, round_number
    )


@hand.command("log")
@league_option
@click.option("--limit", type=number_type(), default=50, show_default=True)
@json_option
@db_option
def hand_log(league_name, limit, as_json, db_url) -> None:
    """The change log of a league: who changed what, when and why.

    \b
    Example:
      mighty hand log --league tuesday --limit 20
    """
    import json

    from ..render.html import local_time, time_zone
    from ..store.ledger.corrections import change_log
    from ..store.ledger.leagues import league_setting

    with database(db_url) as s:
        entries = change_log(s, league_name, limit)
        rows = [
            {
                "at": e.at.isoformat(timespec="seconds"),
                "who": e.who,
                "action": e.action,
                "why": e.why,
                "before": json.loads(e.before) if e.before else None,
                "after": json.loads(e.after) if e.after else None,
            }
            for e in entries
        ]
        if not as_json:  # the table in the league's time zone, else the machine's
            zone = time_zone(league_setting(s, league_name, "timezone"))
            times = [local_time(e.at, zone) for e in entries]
    if as_json:  # the stored UTC moment
        echo_json({"changes": rows})
        return
    click.echo(
        table(
            [_(h) for h in LOG_HEADERS],
            [
                (
                    at,
                    r["who"],
                    (
                        translate(ACTION_WORDS[r["action"]])
                        if r["action"] in ACTION_WORDS
                        else r["action"]
                    )
                    + amended_text(r),
                    r["why"],
                )
                for at, r in zip(times, rows)
            ],
            align="<<<<",
        )
    )


def amended_text(entry: dict) -> str:
    """What a correction in the change log touched, after its action: an amendment's hand and
    changes (`` 4: eliminated Cy → Di``), a void's or unvoid's hand (`` 4``); nothing for other
    entries."""
    before, after = entry["before"], entry["after"]
    if entry["action"] in ("hand void", "hand unvoid"):
        number = (after or {}).get("number", (before or {}).get("number"))
        return f" {number}" if number is not None else ""
    if entry["action"] != "hand amend" or not before or not after:
        return ""

    def shown(key: str, value) -> str:
        names = value if isinstance(value, list) else [] if value is None else [value]
        return ", ".join(map(eliminated_label if key == "eliminated" else str, names)) or "-"

    changed = [
        f"{_(label)} {shown(key, before.get(key))} → {shown(key, after.get(key))}"
        for key, label in AMENDED_KEYS
        if before.get(key) != after.get(key)
    ]
    return f" {after.get('number', '')}" + (": " + "; ".join(changed) if changed else "")
