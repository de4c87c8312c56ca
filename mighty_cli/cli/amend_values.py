"""An amendment's values read as ``mighty record`` reads them: the keeper who types ``bo`` for
Bo, or ``김`` for 김철수, at the table types the same when he corrects the hand afterwards.

Names (``--declarer``, ``--friend``, ``--deal-miss``, ``--eliminated``) are matched without
regard to case, or by a unique beginning, among the players of the hand (the amended ones when
``--players`` is given); a split ``--taken`` (``15+3+1``) is weighed by the league's ruleset. A
name that matches nobody, or a hand that cannot be amended (refereed, void, not there), is
passed on as typed, for the store to refuse with its own message.
"""

from __future__ import annotations

from typing import Optional

import click

from ..engine.errors import MightyError
from .database import split_names
from .hand_values import eliminated_given, friend_value
from .score_taken import Taken, ruling_party_count

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).


class AmendedHand:
    """The hand an amendment corrects, with its league's ruleset (each read once, when first
    needed)."""

    def __init__(self, s, league_name: str, number: int, players: Optional[str]):
        self.s, self.league_name, self.number = s, league_name, number
        self.players = split_names(players) if players else None
        self._rules = self._view = None
        self._looked = False  # the hand looked up (it may not be there)

    @property
    def rules(self):
        if self._rules is None:
            from ..store.ledger.lookups import get_league, league_rules

            self._rules = league_rules(get_league(self.s, self.league_name))
        return self._rules

    @property
    def view(self):
        """The stored hand, or None where it cannot be amended (the store says why)."""
        if not self._looked:
            from ..store import LeagueError
            from ..store.ledger.hands import show_hand

            self._looked = True
            try:
                self._view = show_hand(self.s, self.league_name, self.number)
            except LeagueError:
                return None
        view = self._view
        return None if view is None or view.full or view.voided else view

    def name(self, text: Optional[str]) -> Optional[str]:
        """A player of the hand as ``record`` matches him (``text`` as typed where nobody, or
        more than one, matches)."""
        from ..table.name_lookup import find_name

        view = self.view
        if text is None or view is None:
            return text
        return find_name(text, self.players or view.players) or text

    def friend(self, text: Optional[str]) -> Optional[str]:
        """``--friend``: a player of the hand, or ``none`` (and a 허니문 partner hand or a
        ghost, which are not players, as typed)."""

        if text is None or friend_value(text) == "none":
            return text
        table = self.rules.table
        return text if table.partner_hands or table.ghost else self.name(text)

    def eliminated(self, text: str, declarer: Optional[str]) -> list[str]:
        """``--eliminated``, read as ``record`` reads it, with the hand's declarer (or the
        amended one)."""
        from .scorekeeper import Answers

        view = self.view
        if view is None or not self.rules.table.eliminated:
            return split_names(text) or []
        answers = Answers(self.rules, self.players or view.players)
        answers.declarer = declarer or view.declarer
        return eliminated_given(answers, text)

    def count(self, taken: Taken, friend: Optional[str], friend2: Optional[str]) -> int:
        """``--taken`` as the ruling party's count: a split weighed by the league's ruleset,
        with the friends given, or else the friends the hand has."""

        if not taken.split:
            return taken.parts[0]
        if friend is None and self.view is not None:  # the friends stay as they are
            friend, friend2 = self.view.friend, self.view.friend2
        count = 0 if friend is None or friend_value(friend) == "none" else 1 + bool(friend2)
        try:
            return ruling_party_count(self.rules, taken, count)
        except MightyError as exc:
            raise click.BadParameter(str(exc), param_hint="--taken") from None
