"""A hand's values as ``record`` and ``hand amend`` read them from the command line: a friend
given as "nobody", the players a 6마/7마 declarer eliminated, and a hand named by its table
(``hand show --table 3 2``: the table's hand 2)."""

from __future__ import annotations

from typing import Optional

import click

from ..i18n import N_, _
from ..table import words
from . import completion
from .database import split_names
from .options import number_type

# Deferred imports: the store (SQLModel) loads where a hand is looked up, so a usage error
# starts quickly (tests/test_imports.py).


def friend_value(text: Optional[str]) -> Optional[str]:
    """A friend, or ``none`` for any word of the table's vocabulary for no friend (``none``,
    ``nf``, ``-``, ``노프렌드``, ``없음``: ``table/words.py``): the declarer played alone."""
    if text is None:
        return None
    return "none" if words.means(text, "none") else text.strip()


def eliminated_given(answers, text: Optional[str]) -> list[str]:
    """``--eliminated`` as ``record`` and ``hand amend`` read it: names matched among the
    players of the hand (``answers.five``); 시흥 은마 (table.dummy) one player, not the
    declarer, or the dummy (``dummy``, ``더미``, ``은실``: the table's words)."""
    if answers.rules.table.dummy and text:
        return answers.check_eliminated(text)
    return [answers.check_player(p) for p in split_names(text) or []]


#: ``--table T [--round R]``: NUMBER is the table's own hand number (``hand show --table 3 2``).
table_hand_option = click.option(
    "--table", "table", type=number_type(), default=None, shell_complete=completion.tables,
    help=N_("NUMBER is this table's hand number (its hand 2), in the open round or --round R."))
round_hand_option = click.option(
    "--round", "round_number", type=number_type(), default=None,
    help=N_("With --table: the round (default: the open one)."))


def at_table(table: Optional[int], round_number: Optional[int]) -> None:
    """``--round`` names a table's round: a usage error without ``--table``."""
    if round_number is not None and table is None:
        raise click.UsageError(_("--round is said of a table: give --table T too"))


def league_number(s, league_name: str, number: int, table: Optional[int],
                  round_number: Optional[int]) -> int:
    """The league's number of the hand NUMBER names: itself, or with ``--table`` the table's
    hand of that number."""
    if table is None:
        return number
    from ..store.ledger.lookups import get_league
    from ..store.ledger.table_hands import table_hand_number

    return table_hand_number(s, get_league(s, league_name), table, number, round_number)
