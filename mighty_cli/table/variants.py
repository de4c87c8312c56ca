"""The referee at tables other than a plain five (mixed into :class:`~.referee.RefereeSession`).

* 6마, 7마 (table.eliminated): the declarer's elimination calls, who leaves, and the
  eliminated hands and kitty dealt out (``deal``, or typed).
* 시흥 은마 (table.dummy): the dummy (``dummy``, 더미, 은실) is named like a player in an open-cards
  call (``dj dummy``) and in a typed redistribution (``dummy h10 h3``).
* Ghost 4마 (table.ghost): with the deal known, the referee plays the ghost's top card himself.
* 허니문 (table.partner_hands): the declarer's only friend call, his own friend hand, accepted in
  short form or made by the tool, and each player's two hands in the result. ``none`` (노프렌드)
  is refused in one line: under 허니문 the friend is always his own friend hand, so a club that
  types "no friend" means something the game does not have, and the tool says so rather than
  silently calling the friend hand.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from ..engine.cards import parse_cards
from ..engine.errors import InvalidNotation, MightyError
from ..engine.hand.elimination import seeded_redistribution
from ..engine.hand.honeymoon import partner_of
from ..engine.scoring import seat_deltas
from ..engine.translation import _
from . import view, words
from .name_lookup import find_name, match_name
from .words import normalize_entry

if TYPE_CHECKING:
    from ..engine.hand import (
        CallFriend,
        Eliminate,
        FriendCall,
        HandResult,
        HandState,
        Redistribute,
    )
    from ..engine.ruleset import Ruleset


class TableVariants:
    """Elimination, the ghost and friend hands at the referee (``self`` is the hand being
    refereed: its ``engine``, ``state``, ``states``, ``deal``, ``players`` and helpers)."""

    if TYPE_CHECKING:  # what the hand (RefereeSession) gives its mix-ins
        engine: ModuleType
        rules: Ruleset
        players: list[str]
        deal: dict[str, list[int]] | None
        states: list[HandState]

        @property
        def state(self) -> HandState: ...

        def _player(self, name: str) -> str: ...

        def _describe(self, before: HandState, after: HandState) -> str: ...

        def _result_lines(self) -> list[str]: ...

        def _friend_call(self, text: str) -> FriendCall: ...

    # --- 6마, 7마: elimination and redistribution ------------------------------------------

    def _elimination(self, text: str) -> Eliminate:
        """An elimination call: a card (``c5``; in open cards with who held it, ``c5 Bo`` or
        ``c5 kitty``), or under table.eliminate_by = player the player's name."""
        engine, parts = self.engine, text.split()
        if self.rules.table.eliminate_by == "player":
            name = text[7:] if text.lower().startswith("player:") else text
            return engine.Eliminate(None, self._player(name.strip()))
        holder = None
        if len(parts) > 1:
            last = parts[-1]
            if words.means(last, "kitty"):
                parts = parts[:-1]
            elif self._is_dummy(last):
                holder, parts = engine.DUMMY, parts[:-1]
            else:  # who held it: the shortest ending naming a player ('c5 Alexander 김-Johnson')
                for size in range(1, len(parts)):
                    name = " ".join(parts[-size:])
                    if find_name(name, self.players):
                        holder, parts = self._player(name), parts[:-size]
                        break
        cards = parse_cards(normalize_entry(" ".join(parts), expect="card"))
        if len(cards) != 1:
            raise InvalidNotation(
                _(
                    "call one card to eliminate its holder, e.g. c5 (open "
                    "cards: c5 NAME, or c5 kitty)"
                )
            )
        if self.state.hands is None and holder is None and parts == text.split():
            raise InvalidNotation(
                _("open cards: say who held {card}: {entry} NAME, or {entry} kitty").format(
                    card=view.pretty_card(cards[0]), entry=parts[0]
                )
            )
        return engine.Eliminate(cards[0], holder)

    def _redistribution(self, command: str, text: str) -> Redistribute:
        """The eliminated hands and the kitty dealt out: ``deal`` (the tool deals them, the
        same way for the same pile on every machine: mighty-deal/1's shuffle seeded by the
        pile, engine/hand/elimination.py), or ``NAME CARDS; NAME CARDS; ...``."""
        engine, s = self.engine, self.state
        if words.means(command, "deal"):
            return seeded_redistribution(s)
        given = []
        for part in text.split(";"):
            name, _sep, cards = part.strip().partition(" ")
            if not cards.strip():
                raise InvalidNotation(
                    _(
                        "expected 'deal', or NAME CARDS; NAME CARDS (who "
                        "receives which of the eliminated hands and the kitty)"
                    )
                )
            who = self.engine.DUMMY if self._is_dummy(name) else self._player(name)
            given.append((who, tuple(parse_cards(normalize_entry(cards.strip(), expect="card")))))
        return engine.Redistribute(tuple(given))

    def _is_dummy(self, word: str) -> bool:
        """시흥 은마 (table.dummy): whether a word names the dummy."""
        return self.rules.table.dummy and words.means(word, "dummy")

    def _pile_lines(self, state: HandState) -> list[str]:
        """After the last elimination: who leaves, and what is dealt out to whom."""
        sizes = self.engine.redistribution_sizes(state)
        lines = [_("eliminated (탈락): {players}").format(players=", ".join(state.eliminated))]
        lines.append(
            _("to deal out: {shares}").format(
                shares=", ".join(f"{p} {n}" for p, n in sizes.items())
            )
        )
        if state.hands is not None and self.deal is not None:
            pile = [c for p in state.eliminated for c in self.deal[p]] + list(self.deal["kitty"])
            lines.append(
                _("the eliminated hands and the kitty: {cards}").format(
                    cards=view.pretty_cards(pile)
                )
            )
        return lines

    # --- ghost 4마 -----------------------------------------------------------------------------

    def _ghost_plays(self) -> list[str]:
        """Ghost 4마 (table.ghost): with the deal known, the ghost's card is its pile's, so the
        referee turns it up and plays it himself (engine/hand/seats.py)."""
        out = []
        while self._ghost_to_play(self.state):
            before = self.state
            after = self.engine.apply(before, self.engine.legal_plays(before)[0])
            self.states.append(after)
            out.append(
                "✓ " + _("the ghost's top card: {play}").format(play=self._describe(before, after))
            )
            if after.phase == "play" and after.trick_number != before.trick_number:
                out.append(view.points_line(after))
            if after.phase == "done":
                out.extend(self._result_lines())
        return out

    def _ghost_to_play(self, state: HandState) -> bool:
        return (
            state.phase == "play"
            and state.hands is not None
            and state.to_move == self.engine.GHOST
            and state.rules.table.ghost
        )

    # --- 허니문 ------------------------------------------------------------------------------

    def _own_friend_call(self, text: str) -> CallFriend | None:
        """허니문 (table.partner_hands): the declarer's friend is his own friend hand, the only
        call. It is accepted in short form (``friend``, ``프렌드``, ``프렌드 패``) or in full
        (``player:Bo's friend``); None when the entry is a card (the tool then makes the call
        and plays the card); ``none`` (노프렌드) is refused in one line saying why; any other
        call is refused in the engine's words."""

        engine, s = self.engine, self.state
        own = engine.CallFriend(engine.FriendCall("player", player=partner_of(s.declarer)))
        if words.means(text, "own-friend"):
            return own
        if words.means(text, "none", short=True):
            raise MightyError(
                _(
                    "no friend (노프렌드) under 허니문: {declarer}'s friend is always "
                    "his own friend hand {partner} (table.partner_hands); type "
                    "'friend' or his first card"
                ).format(declarer=s.declarer, partner=partner_of(s.declarer))
            )
        name = words.player_called(text)
        if name is not None:
            seat = match_name(name, s.players)
            return engine.CallFriend(engine.FriendCall("player", player=seat))
        if find_name(text, s.players) == partner_of(s.declarer):
            return own
        try:
            engine.parse_play(normalize_entry(text, expect="card"))
        except MightyError:
            return engine.CallFriend(self._friend_call(text))
        return None

    def _auto_friend_call(self) -> list[str]:
        """허니문: the only friend call, made by the tool when the first card is entered."""
        before = self.state
        call = self._own_friend_call(words.WORDS["own-friend"][0])
        self.states.append(self.engine.apply(before, call))
        return ["✓ " + self._describe(before, self.state)]

    def _two_hands_line(self, result: HandResult) -> str:
        """허니문: each player takes what his own hand and his friend hand score."""

        seats = seat_deltas(result.score, self.state.players, result.declarer, result.friend)
        return _("each player takes his two hands (프렌드 패): {sums}").format(
            sums="; ".join(
                f"{p} {seats[p]:+d} + {partner_of(p)} {seats[partner_of(p)]:+d} = "
                f"{result.deltas[p]:+d}"
                for p in self.players
            )
        )
