"""The table's errors: one line each, for the front end to show (the command line turns a
:class:`TableUsageError` into a usage error, exit 2, and any other into exit 1)."""

from __future__ import annotations

from ..engine.errors import MightyError


class TableError(MightyError):
    """What the table cannot do: a save file it did not write, the league's database refusing."""


class TableUsageError(TableError):
    """Options that cannot go together at a table (``--seed`` where the hands are drafted)."""


class HandTakenAway(TableError):
    """The hand this window enters is no longer its own: another writer stored a hand at the
    table, took the hand up in another window, or dropped it, or the table's session ended
    (the store's :class:`~mighty_cli.store.table_entry.HandGone`; ``what`` says which).
    Nothing more is kept from this window."""

    def __init__(self, message: str, what: str = ""):
        super().__init__(message)
        self.what = what


class TableOptionError(TableUsageError):
    """One option's value the table cannot take (``--players`` naming too few, a ``--dealer``
    who is not present): ``option`` names it, as the command line shows it."""

    def __init__(self, message: str, option: str):
        super().__init__(message)
        self.option = option
