"""What a table's page shows to enter its next hand: the table's hand the form enters (carried in
the form, :attr:`EntryForm.hand`), who plays it and deals, and the fields the league's ruleset
asks (:class:`mighty_cli.table.next_hand.Variants`): declarer, contract, friend (none where the
declarer always plays alone or 허니문 decides it; two where two cards are called; the card called
at a duplicate table), the point cards taken (split where the friends' cards are weighed) and
who was eliminated (6마, 7마; 시흥 은마's dummy). Read with the table's page in one read-only
transaction (:func:`table_and_entry`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from ..table.next_hand import Variants, read_next_hand
from . import reads
from .view_cache import changes_with

#: The value of "no friend" in the friend field (``record -f none``).
NO_FRIEND = "none"
#: The value of 시흥 은마's dummy in an eliminated field (``record -e dummy``).
DUMMY = "dummy"


@dataclass(frozen=True)
class EntryForm:
    """The entry of a table's next hand, as its page asks it."""

    #: the table's hand the form enters (``expect_hand``: its hands so far + 1)
    hand: int
    #: who plays the hand, in playing order, and who deals
    players: tuple[str, ...]
    dealer: str
    variants: Variants
    #: a duplicate round's table, where the deal decides who the friend is: a friend is named
    #: with the card called (``--friend-call``)
    friend_call: bool

    @property
    def friend_choices(self) -> tuple[str, ...]:
        """The friend field's choices: the players, and no friend where a call may find
        nobody."""
        return ((NO_FRIEND,) if self.variants.alone else ()) + self.players

    @property
    def eliminated_fields(self) -> tuple[str, ...]:
        """The eliminated fields' names: one per player the declarer eliminates."""
        count = self.variants.eliminated
        return tuple("eliminated" if k == 0 else f"eliminated{k + 1}" for k in range(count))


def entry_form(s: Session, league: reads.ServedLeague, view: reads.TableView) -> EntryForm:
    hand = read_next_hand(s, league.name, view.session)
    return EntryForm(
        hand.hand, hand.players, hand.dealer, hand.variants, "friend_call" in hand.fields
    )


@changes_with(reads.table_scope)
def table_and_entry(
    s: Session, league: reads.ServedLeague, ref: str
) -> tuple[reads.TableView, EntryForm | None]:
    """A table's page and, while it plays, the entry of its next hand."""
    view = reads.table_view(s, league, ref)
    return view, entry_form(s, league, view) if view.playing else None
