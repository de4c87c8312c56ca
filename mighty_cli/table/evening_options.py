"""What a front end asks an evening at the table to be (:class:`EveningOptions`: a new table,
a saved record resumed, or a league's table), and the checks of those options that every way
of opening an evening shares: the players present, the deals of a file, a dealer or opener
named among those present, the first hand begun. A value the table cannot take is refused
by the option's name (:class:`~.table_errors.TableOptionError`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.errors import MightyError
from ..engine.records import load_record
from ..engine.session import seats_range
from ..engine.translation import N_, _
from .evening import Evening
from .name_lookup import UnknownName, match_name
from .table_errors import TableOptionError

if TYPE_CHECKING:
    from ..engine.ruleset import Ruleset

#: What an evening with a save file says before its first prompt.
KEPT = N_("the evening is kept in {path} after every entry")


def plain_command_line(
    words: list[str],
    league: str,
    *,
    table: int | None = None,
    session: int | None = None,
    db: str | None = None,
) -> str:
    """``mighty WORDS --league L`` and what finds the same table (a front end gives its own,
    quoted for a shell: :attr:`EveningOptions.command_line`)."""
    parts = ["mighty", *words, "--league", league]
    if table is not None:
        parts += ["--table", str(table)]
    elif session is not None:
        parts += ["--session", str(session)]
    return " ".join(parts)


@dataclass
class EveningOptions:
    """An evening as the front end asks it (``mighty referee``'s options)."""

    ruleset_name: str | None = None
    players: str | None = None
    dealer: str | None = None
    opener: str | None = None
    seed: int | None = None
    deal_file: Path | None = None
    resume: str | None = None
    save_file: Path | None = None
    league: str | None = None
    session_number: int | None = None
    table: int | None = None  # a table of the league's open round: its session
    db: str | None = None
    #: whether a person answers at a terminal (quitting asks first); None: not said (no)
    interactive: bool | None = None
    #: the command line that opens a table again, as the messages name it: called as
    #: ``command_line(words, league, table=, session=, db=)``
    command_line: Callable[..., str] = plain_command_line


def present_players(text: str, rules: Ruleset) -> list[str]:
    """The players present: the ruleset's table (table.players), and up to two more taking
    turns to sit out."""
    names = [p.strip() for p in text.split(",") if p.strip()]
    low, high = seats_range(rules)
    if not low <= len(names) <= high or len({n.casefold() for n in names}) != len(names):
        raise TableOptionError(
            _(
                "expected {low} to {high} distinct names: {ruleset} seats "
                "{low} (table.players), and one or two more take turns to "
                "sit out"
            ).format(low=low, high=high, ruleset=rules.name),
            "--players",
        )
    return names


def deals_from(path: Path) -> list[dict]:
    """The deals of a record file's hands (``--deal FILE``)."""
    record = load_record(path)
    # the cards are read by the evening, under its ruleset (two decks name a card twice)
    deals = [dict(h["deal"]) for h in record.hands if "deal" in h]
    if not deals:
        raise TableOptionError(_("no hand with a deal in that file"), "--deal")
    return deals


def one_of(name: str | None, names: list[str], option: str) -> str | None:
    """A player named by an option (``--dealer``), among ``names``; None when not named."""
    if name is None:
        return None
    try:
        return match_name(name, names)
    except UnknownName as exc:
        raise TableOptionError(str(exc), option) from None


def first_hand(evening: Evening, opts: EveningOptions) -> list[str]:
    """Begin the evening's first hand, with the dealer and opener the options name."""
    proposal = evening.next_proposal()
    dealer = one_of(opts.dealer, evening.present, "--dealer")
    opener = one_of(opts.opener, evening.present, "--opener")
    try:
        return evening.start_hand(proposal, dealer=dealer, opener=opener)
    except MightyError as exc:
        raise TableOptionError(str(exc), "--opener") from None
