"""A hand's values as ``record`` and ``hand amend`` take them from the command line: a hand named
by its table (``hand show --table 3 2``: the table's hand 2), and the table's refusals of an
entry (:class:`~mighty_cli.table.score_entry.EntryRefused`) as click shows them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import click

from ..i18n import N_, _
from . import completion
from .options import number_type

# Deferred imports: the store (SQLModel) loads where a hand is looked up, so a usage error
# starts quickly (tests/test_imports.py).


#: ``--table T [--round R]``: NUMBER is the table's own hand number (``hand show --table 3 2``).
table_hand_option = click.option(
    "--table",
    "table",
    type=number_type(),
    default=None,
    shell_complete=completion.tables,
    help=N_("NUMBER is this table's hand number (its hand 2), in the open round or --round R."),
)
round_hand_option = click.option(
    "--round",
    "round_number",
    type=number_type(),
    default=None,
    help=N_("With --table: the round (default: the open one)."),
)


def at_table(table: int | None, round_number: int | None) -> None:
    """``--round`` names a table's round: a usage error without ``--table``."""
    if round_number is not None and table is None:
        raise click.UsageError(_("--round is said of a table: give --table T too"))


def league_number(
    s, league_name: str, number: int, table: int | None, round_number: int | None
) -> int:
    """The league's number of the hand NUMBER names: itself, or with ``--table`` the table's
    hand of that number."""
    if table is None:
        return number
    from ..store.ledger.lookups import get_league
    from ..store.ledger.table_hands import table_hand_number

    return table_hand_number(s, get_league(s, league_name), table, number, round_number)


@contextmanager
def entry_errors() -> Iterator[None]:
    """The table's refusal of an entry as click shows it: fields given together that do not go
    together, a usage error; one field's unreadable value, a bad value of its option (exit 2);
    any other, as the project's errors are (exit 1)."""
    from ..table.score_entry import EntryRefused  # the table's entry: loaded where used

    try:
        yield
    except EntryRefused as exc:
        if exc.kind == "value":
            raise click.BadParameter(
                str(exc), param_hint="--" + (exc.field or "").replace("_", "-")
            ) from None
        if exc.kind == "usage":
            raise click.UsageError(str(exc)) from None
        raise
