"""What a new player may not be called: a word the table reads (``None``, ``dummy``, ``패스``), or
a name holding ``/``.

At the table and in ``record`` a friend given as ``none`` (or ``노프렌드``) is no friend,
``dummy`` (``은실``) is 시흥 은마's dummy, ``friend`` under 허니문 the declarer's own friend hand,
``joker``, ``mighty``, ``first-trick`` (``초구``) a friend call and ``pass`` (``패스``) a bid: a
player of such a name could not be named where the word is read (``record -f None`` stored a
hand without a friend). A new name equal to one of these words, whatever its case or character
form (:func:`mighty_cli.engine.names.folded`), is refused in one line naming the word; a player
a store already has keeps his name.

The words are the table's vocabulary, read from where it is kept (:mod:`.words`), never copied
here.

A ``/`` separates the two names of ``--apart A/B`` and ``--substitute S/X``, so a new name typed
at a command may not hold one (:func:`mighty_cli.store.ledger.lookups.check_new_name`); a store, an
export or a record made before keeps its names, and a pair naming one is read by the names the
store knows (:func:`mighty_cli.cli.database.chosen_pairs`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..engine.names import folded
from ..engine.translation import N_, _
from ..store import LeagueError
from ..store.ledger.lookups import check_name, check_new_name, find_player
from .words import SHORT_FORMS, WORDS

if TYPE_CHECKING:
    from sqlmodel import Session

#: The meanings a name may not take, each as the refusal names it.
MEANINGS = {
    "none": N_("no friend"),
    "dummy": N_("the dummy (은실)"),
    "friend": N_("the declarer's own friend hand (허니문)"),
    "first-trick": N_("the first trick's winner (초구)"),
    "last-trick": N_("the last trick's winner (막구)"),
    "joker": N_("the joker (조커)"),
    "mighty": N_("the mighty (마이티)"),
    "pass": N_("a pass (패스)"),
}


def _reserved() -> dict[str, str]:
    """Every reserved word, folded, with the meaning it has at the table."""
    vocabulary = {"friend": "own-friend"}  # the meanings whose words go by another name there
    words = {}
    for meaning in MEANINGS:
        words[folded(meaning)] = meaning
        words.update((folded(word), meaning) for word in WORDS[vocabulary.get(meaning, meaning)])
    words.update(
        (folded(short), meaning) for short, meaning in SHORT_FORMS.items() if meaning in MEANINGS
    )
    return words


RESERVED = _reserved()


def reserved_word(name: str) -> str | None:
    """The meaning the table gives ``name`` (a key of :data:`MEANINGS`), or None for a name
    it reads as a name."""
    return RESERVED.get(folded(name))


def refuse_new_names(s: Session, names: Iterable[str]) -> None:
    """One line for the first of ``names`` that is no player of the store yet (a new name) and
    is a reserved word or holds ``/``; names the store has keep working."""
    for name in names:
        check_name(name)  # a name no store can hold is refused before it is looked up
        if find_player(s, name) is not None:
            continue
        meaning = reserved_word(name)
        if meaning is not None:
            raise LeagueError(
                _(
                    "player name {name!r}: the table reads {name!r} as "
                    "{meaning}; give the player another name"
                ).format(name=name.strip(), meaning=_(MEANINGS[meaning]))
            )
        check_new_name(name)
