"""An amendment's values read as ``mighty record`` reads them: the keeper who types ``bo`` for
Bo, or ``김`` for 김철수, at the table types the same when he corrects the hand afterwards
(``hand amend``, and any front end correcting a hand).

Names (the declarer, the friends, the deal miss's player, the eliminated) are matched without
regard to case, or by a unique beginning, among the players of the hand (the amended ones when
they are given); a split count (``15+3+1``) is weighed by the league's ruleset. A name that
matches nobody, or a hand that cannot be amended (refereed, void, not there), is passed on as
typed, for the store to refuse with its own message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.errors import MightyError
from .answers import Answers
from .name_lookup import find_name, split_names
from .score_entry import EntryRefused
from .taken import Taken, ruling_party_count
from .words import contract_text, friend_value

if TYPE_CHECKING:
    from sqlmodel import Session

    from ..engine.ruleset import Ruleset
    from ..store.ledger.hand_reads import HandView


class AmendedHand:
    """The hand an amendment corrects, in the caller's transaction ``s``, with its league's
    ruleset (each read once, when first needed)."""

    def __init__(self, s: Session, league_name: str, number: int, players: str | None):
        self.s, self.league_name, self.number = s, league_name, number
        self.players = split_names(players) if players else None
        self._rules: Ruleset | None = None
        self._view: HandView | None = None
        self._looked = False  # the hand looked up (it may not be there)

    @property
    def rules(self) -> Ruleset:
        if self._rules is None:
            from ..store.ledger.lookups import get_league, league_rules  # start-up: the store

            self._rules = league_rules(get_league(self.s, self.league_name))
        return self._rules

    @property
    def view(self) -> HandView | None:
        """The stored hand, or None where it cannot be amended (the store says why)."""
        if not self._looked:
            from ..store import LeagueError  # start-up: the store
            from ..store.ledger.hand_reads import show_hand  # start-up: the store

            self._looked = True
            try:
                self._view = show_hand(self.s, self.league_name, self.number)
            except LeagueError:
                return None
        view = self._view
        return None if view is None or view.full or view.voided else view

    def values(
        self,
        *,
        declarer: str | None = None,
        contract: str | None = None,
        friend: str | None = None,
        friend2: str | None = None,
        taken: Taken | int | None = None,
        deal_miss: str | None = None,
        eliminated: str | None = None,
    ) -> dict:
        """An amendment's values as typed, read as ``record`` reads them: the keywords of
        :func:`~mighty_cli.store.ledger.corrections.amend_hand` for these fields (None: unchanged)."""
        declarer, deal_miss = self.name(declarer), self.name(deal_miss)
        friend, friend2 = self.friend(friend), self.name(friend2)
        if isinstance(taken, Taken):
            taken = self.count(taken, friend, friend2)
        out = None if eliminated is None else self.eliminated(eliminated, declarer)
        return {
            "declarer": declarer,
            "contract": contract_text(contract),
            "friend": friend_value(friend),
            "friend2": friend2,
            "taken": taken,
            "deal_miss": deal_miss,
            "eliminated": out,
        }

    def name(self, text: str | None) -> str | None:
        """A player of the hand as ``record`` matches him (``text`` as typed where nobody, or
        more than one, matches)."""
        view = self.view
        if text is None or view is None:
            return text
        return find_name(text, self.players or view.players) or text

    def friend(self, text: str | None) -> str | None:
        """The friend: a player of the hand, or ``none`` (and a 허니문 partner hand or a
        ghost, which are not players, as typed)."""
        if text is None or friend_value(text) == "none":
            return text
        table = self.rules.table
        return text if table.partner_hands or table.ghost else self.name(text)

    def eliminated(self, text: str, declarer: str | None) -> list[str]:
        """Who was eliminated, read as ``record`` reads it, with the hand's declarer (or the
        amended one)."""
        view = self.view
        if view is None or not self.rules.table.eliminated:
            return split_names(text) or []
        answers = Answers(self.rules, self.players or view.players)
        answers.declarer = declarer or view.declarer
        return answers.eliminated_given(text)

    def count(self, taken: Taken, friend: str | None, friend2: str | None) -> int:
        """The ruling party's count: a split weighed by the league's ruleset, with the friends
        given, or else the friends the hand has (a value refusal of ``taken``)."""
        if not taken.split:
            return taken.parts[0]
        if friend is None and self.view is not None:  # the friends stay as they are
            friend, friend2 = self.view.friend, self.view.friend2
        count = 0 if friend is None or friend_value(friend) == "none" else 1 + bool(friend2)
        try:
            return ruling_party_count(self.rules, taken, count)
        except MightyError as exc:
            raise EntryRefused(str(exc), "taken", "value") from None
