"""A hand's values as ``record`` and ``hand amend`` read them from the command line: a friend
given as "nobody", and the players a 6마/7마 declarer eliminated."""

from __future__ import annotations

from typing import Optional

from ..table import words
from .database import split_names


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
