"""A duplicate round's deal sheet read from the league (``mighty round deals``): the round's
seed, its tables and their seats, and the league's ruleset, given to the pure
:func:`mighty_cli.tournament.deal_sheet.deal_sheet`.

Reads inside the caller's session; a round that is not a duplicate round is one line
(:class:`LeagueError`).
"""

from __future__ import annotations

from sqlmodel import Session

from ..engine.limits import DEAL_SHEET_MAX_DEALS
from ..engine.ruleset import Ruleset
from ..engine.translation import _, ngettext
from ..tournament.deal_sheet import DealSheet, deal_sheet
from . import LeagueError
from .lookups import get_league, league_rules
from .round_board import SLIP_LINES
from .rounds import round_state


def sheet_deals(rules: Ruleset) -> int:
    """How many deals a sheet lays out unless told: a session's hands under the ruleset
    (session.hands_per_session: the round's deals), else as many as the round's score slips
    have lines (``round show --html``), at most :data:`DEAL_SHEET_MAX_DEALS`."""
    return min(rules.session.hands_per_session or SLIP_LINES, DEAL_SHEET_MAX_DEALS)


def round_deal_sheet(s: Session, league_name: str, number: int | None = None,
                     deals: int | None = None) -> DealSheet:
    """The deal sheet of round ``number`` of the league (the open one, else the latest): deals
    1 to ``deals`` (default :func:`sheet_deals`) at each of its table sizes, each table by the
    seating it has now (a seat changed mid-round keeps its place, :mod:`.round_seat`). More
    deals than the ruleset's session plays (session.hands_per_session) are refused; the
    command bounds ``deals`` by :data:`DEAL_SHEET_MAX_DEALS` at its option."""
    league = get_league(s, league_name)
    state = round_state(s, league.name, number)
    if state.deal_seed is None:
        raise LeagueError(_("round {number} of league {league} is not a duplicate round: each "
                            "table deals its own cards (a round of the same deals at every "
                            "table: round start --duplicate --seed S)").format(
                                number=state.number, league=repr(league.name)))
    rules = league_rules(league)
    played = rules.session.hands_per_session
    if deals is not None and played and deals > played:
        raise LeagueError(ngettext(
            "--deals {count}: round {number} plays {played} deal (session.hands_per_session "
            "of {ruleset})",
            "--deals {count}: round {number} plays {played} deals (session.hands_per_session "
            "of {ruleset})", played).format(count=deals, number=state.number, played=played,
                                           ruleset=rules.name))
    count = sheet_deals(rules) if deals is None else deals
    return deal_sheet(rules, state.deal_seed,
                      ((table.table, table.players) for table in state.tables), count,
                      league=league.name, round_number=state.number)
