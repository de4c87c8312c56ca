"""A stored hand in the league commands' words: its one-line outcome, the players' deltas, the
friend and the eliminated, where a round's hand was played, and what ``record`` prints once a
hand is stored."""

from __future__ import annotations

import click

from ..engine.hand.honeymoon import controller_of, is_partner_hand
from ..engine.hand.seats import eliminated_label
from ..i18n import _
from ..render.text import signed
from ..table.evening_text import session_ended_line
from .league_sessions import proposal_text
from .options import echo_json

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).


def friend_label(friend: str | None) -> str | None:
    """A friend as ``hand list`` names him: a player, or under 허니문 the declarer's own friend
    hand, "Bo's friend" (Korean: Bo의 프렌드 패)."""
    if is_partner_hand(friend):
        return _("{player}'s friend").format(player=controller_of(friend))  # type: ignore
    return friend


def eliminated_text(hand, before: str = "; ") -> str:
    """Who the declarer eliminated (6마, 7마; 시흥 은마's player or dummy), after ``before``;
    nothing for a hand that names nobody."""
    if not hand.eliminated:
        return ""
    return before + _("eliminated (탈락): {players}").format(
        players=", ".join(map(eliminated_label, hand.eliminated))
    )


def hand_line(hand) -> str:
    """One hand in a line: what was played and what it came to."""
    if hand.status == "deal_miss":
        what = _("deal miss by {player} (dealer {dealer})").format(
            player=hand.deal_miss, dealer=hand.dealer
        )
    elif hand.status == "redeal":
        what = _("everyone passed: redeal")
    else:
        if getattr(hand, "friend2", None):  # 동대전 7마: two friends
            what = _("{declarer} {contract} with {friend} and {friend2}, took {taken}: {verdict}")
        elif hand.friend:
            what = _("{declarer} {contract} with {friend}, took {taken}: {verdict}")
        else:
            what = _("{declarer} {contract} alone, took {taken}: {verdict}")
        verdict = _("made") if hand.success else _("failed")
        doubled = f" ×{hand.multiplier}" if hand.multiplier and hand.multiplier > 1 else ""
        what = (
            what.format(
                declarer=hand.declarer,
                contract=hand.contract,
                friend=friend_label(hand.friend),
                friend2=getattr(hand, "friend2", None),
                taken=hand.taken,
                verdict=verdict,
            )
            + doubled
        )
    if hand.voided:
        what = _("VOID") + "  " + what
    return what


def table_place(hand) -> str:
    """Where a round's hand was played, for a heading (`` (round 2, table 3, hand 2)``); nothing
    for a hand outside any round."""
    if hand.table is None:
        return ""
    return " " + _("(round {round}, table {table}, hand {local})").format(
        round=hand.round, table=hand.table, local=hand.table_hand
    )


def deltas_line(hand) -> str:
    return "  ".join(
        f"{name} {signed(value)}"
        for name, value in hand.deltas.items()
        if value or name in hand.players
    )


def print_recorded(
    done, as_json: bool, table: int | None = None, referee: str = "mighty referee"
) -> None:
    """What ``record`` prints for a stored hand: the hand, its deltas, what comes next;
    ``table``: a round's table, whose own count of the hand (the store's, counted under the
    league's lock) is shown before the league's number; ``referee``: the command line that
    referees the table's next hand."""
    hand = done.hand
    if as_json:
        echo_json(
            {
                "hand": hand.to_json(),
                "next": None
                if done.session_ended
                else {
                    "dealer": done.proposal.dealer,
                    "opener": done.proposal.opener,
                    "players": list(done.proposal.players),
                    "sitting_out": list(done.proposal.sitting_out),
                },
                "pot": done.pot,
                "session_ended": done.session_ended,
                "replaced_live_hand": None
                if done.replaced_live is None
                else {"dealer": done.replaced_live},
            }
        )
        return
    if done.replaced_live is not None:
        click.echo(
            _(
                "The referee's unfinished hand (dealer {dealer}) is dropped: this hand "
                "replaces it, and '{command}' starts the next one."
            ).format(dealer=done.replaced_live, command=referee)
        )
    if done.replaced_half is not None:
        click.echo(
            _("The hand left half entered ({answers}) is dropped: this hand replaces it.").format(
                answers=done.replaced_half
            )
        )
    if table is not None:
        click.echo(
            _(
                "Table {table}, hand {local} (league hand {number}, session {session}): {hand}"
            ).format(
                table=table,
                local=done.session_hand,
                number=hand.number,
                session=hand.session,
                hand=hand_line(hand),
            )
        )
    else:
        click.echo(
            _("Hand {number} (session {session}): {hand}").format(
                number=hand.number, session=hand.session, hand=hand_line(hand)
            )
        )
    click.echo(f"  {deltas_line(hand)}")
    if done.session_ended:
        click.echo(session_ended_line(hand.session, done.session_ended))
    else:
        click.echo(proposal_text(done.proposal, done.pot))
