"""The seats of a hand for every table shape, and the seat nobody plays: the ghost.

:func:`seats` puts a hand's seats in playing order: the players; after them the ghost
(``table.ghost``) or 시흥 은마's dummy (``table.dummy``, elimination.py); or under 허니문 each
player followed by his friend hand (``table.partner_hands``, honeymoon.py).

The ghost (고스트) of ghost 4마 (고마) and 엠솔 4마 (000 §3.5.2, §7.22.1, footnote 19).

Four play the five-player game; the fifth hand is dealt all the same and belongs to nobody, the
ghost. Rules held here (``table.ghost``):

* The ghost's hand is kept face down in the order it was dealt (the record's ``deal.ghost``
  lists it from the top) and it sits after the last player in seating order (000 §3.5.2: 고스트용
  패는 잘 섞어서 엎어 둔다).
* The ghost never bids, never declares a deal miss, never deals nor opens: the election runs
  among the players, as if the ghost had passed.
* Each trick the ghost plays the top card of its pile, whatever it is (000 §3.5.2: 위부터 턴마다
  차례대로 내게 되는데): it follows no suit, answers no joker call and may lead trump, Mighty or
  the joker on any trick, because nobody chooses its card (``table.ghost_plays = "top_card"``).
  Under ``table.ghost_plays = "first_legal"`` (a local reading, not the seed's) it plays the
  first card from the top that the rules allow a player.
* The ghost's lead of the joker-call card always calls the joker (footnote 19: 느닷없는 조커
  콜), where the ruleset has the call.
* A joker the ghost leads (or Mighty under ``cards.mighty_lead_names_suit``) names the suit of
  the next card of its pile (its printed suit for Mighty and the joker-call card); on the last
  trick, with no next card, the trump (♠ under no-trump). The tool's reading: the seed says
  nothing, and nobody may choose for the ghost. In open cards the table turns the cards and
  names the suit, so any suit is accepted.
* The ghost may be the friend (000 §3.5.2: 고스트 프렌드): the holder of the called card, the
  winner of a first- or last-trick call, or named (``player:ghost``).
* Scoring (000 §3.5.2: 룰은 기본적으로 5마와 동일): the hand is scored as the five-player game; the
  ghost is nobody (없는 사람), so it neither pays nor receives, and the declarer takes the
  balance of the players as in every hand: with a ghost friend, the three players pay him.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TypeAlias

from ..cards import SUITS, format_card, is_joker, sorted_cards
from ..errors import IllegalPlay, MightyError
from ..translation import _
from .actions import Play, format_play
from .honeymoon import partner_seats

if TYPE_CHECKING:
    from ..ruleset import Ruleset
    from ..scoring import Score
    from .state import HandState

#: A seat: a player's place in the hand's playing order, 0 to n - 1 (the ghost's, 허니문's friend
#: hands' and the dummy's seats too: ``HandState.players`` names them).
Seat: TypeAlias = int
#: A set of seats, bit ``seat`` set for each (the seats that never bid, those that passed).
SeatMask: TypeAlias = int

#: The ghost's name in a hand's players, deals (``deal.ghost``), tricks and friend calls.
GHOST = "ghost"
#: 시흥 은마's dummy (은실, table.dummy: elimination.py): its name in a hand's players, deals
#: (``deal.dummy``), elimination calls and redistributions.
DUMMY = "dummy"


def eliminated_label(name: str) -> str:
    """An eliminated hand's name as the tables print it: a player's, or 시흥 은마's dummy
    (``dummy``, the record's word) as "dummy (은실)"."""
    return _("dummy (은실)") if name == DUMMY else name


def seats(rules: Ruleset, players: Sequence[str]) -> tuple[str, ...]:
    """The seats of a hand in playing order: the players, then the ghost where the ruleset has
    one (table.ghost), or each player and his friend hand (table.partner_hands, honeymoon.py).
    Refuses a player named like the ghost."""
    players = tuple(players)
    if rules.table.partner_hands:  # 허니문: each player's friend hand after him (honeymoon.py)
        return partner_seats(players)
    if rules.table.dummy:  # 시흥 은마: the dummy sits after the players (elimination.py)
        if DUMMY in players[:-1] or (DUMMY in players and len(players) != rules.table.players + 1):
            raise MightyError(
                _(
                    "players: {name!r} is the dummy's name under table.dummy; a "
                    "player cannot take it"
                ).format(name=DUMMY)
            )
        return players if players[-1:] == (DUMMY,) else players + (DUMMY,)
    if not rules.table.ghost:
        return players
    if GHOST in players[:-1] or (GHOST in players and len(players) != rules.table.players + 1):
        raise MightyError(
            _(
                "players: {name!r} is the ghost's name under table.ghost; a player cannot take it"
            ).format(name=GHOST)
        )
    return players if players[-1:] == (GHOST,) else players + (GHOST,)


def arranged_deal(deal: dict[str, list[int]]) -> dict[str, list[int]]:
    """A deal as tables write it: each hand and the kitty sorted, the ghost's pile kept in its
    dealt order (its top card first)."""
    return {
        who: list(cards) if who == GHOST else sorted_cards(cards) for who, cards in deal.items()
    }


#: What the play rules allow a seat now, as a mask of cards (``play.legal_mask``): the ghost's
#: functions are given it by the play phase, which consults them for the ghost's seat.
LegalMask = Callable[["HandState", bool], int]


def ghost_mask(state: HandState, legal_mask: LegalMask) -> int:
    """The ghost's legal cards in a full deal: its top card (or, under ``table.ghost_plays =
    "first_legal"``, the first card from the top the rules allow)."""
    return 1 << _ghost_card(state, legal_mask)


def _ghost_card(state: HandState, legal_mask: LegalMask) -> int:
    ctx = state._ctx
    remaining = [card for card in ctx.ghost_pile if not state._played >> card & 1]
    if ctx.rules.table.ghost_plays == "first_legal":
        allowed = legal_mask(state, True)
        return next(card for card in remaining if allowed >> card & 1)
    return remaining[0]


def ghost_play(state: HandState, legal_mask: LegalMask) -> Play:
    """The ghost's play now, with what its card says as a lead (full deal)."""
    ctx, ci = state._ctx, state._contract
    assert ci is not None  # (the play: the contract is known)
    card = _ghost_card(state, legal_mask)
    if state._trick:
        return Play(GHOST, card)
    if is_joker(card) or card == ci.mighty_named:  # a joker (either), a naming Mighty
        later = [c for c in ctx.ghost_pile if c != card and not state._played >> c & 1]
        suit = (
            later[0] >> 4
            if later and not is_joker(later[0])
            else later[1] >> 4
            if len(later) > 1
            else (ci.trump if ci.trump is not None else SUITS[0])
        )
        return Play(GHOST, card, suit)
    if card in ci.call_jokers and ci.declaration != "never":
        return Play(GHOST, card, None, True)
    return Play(GHOST, card)


def check_ghost_play(state: HandState, play: Play, legal_mask: LegalMask) -> None:
    """The ghost's card must be the one its pile gives (full deal), and a joker (or suit-naming
    Mighty) lead must name a suit (open cards)."""
    number = state.trick_number
    if state._hands is None:
        if state._played >> play.card & 1:
            raise IllegalPlay(
                _(
                    "trick {number}: the ghost played {card}, which was already "
                    "played (no card twice)"
                ).format(number=number, card=_card(play.card))
            )
        ci = state._contract
        assert ci is not None  # (the play)
        naming = is_joker(play.card) or play.card == ci.mighty_named
        if not state._trick and naming and play.joker_suit not in SUITS:
            raise IllegalPlay(
                _(
                    "trick {number}: the ghost led {card} without naming a suit "
                    "(write {card}/S, {card}/D, {card}/H or {card}/C)"
                ).format(number=number, card=_card(play.card))
            )
        if play.joker_suit is not None and (state._trick or not naming):
            raise IllegalPlay(
                _(
                    "trick {number}: the ghost played {card} with a suit annotation; "
                    "only a joker lead names a suit"
                ).format(number=number, card=_card(play.card))
            )
        return
    expected = ghost_play(state, legal_mask)
    if tuple(play) != tuple(expected):
        raise IllegalPlay(
            _(
                "trick {number}: the ghost played {card} but the top of its pile "
                "gives {expected} (table.ghost_plays = {how})"
            ).format(
                number=number,
                card=format_play(play),
                expected=format_play(expected),
                how=state._ctx.rules.table.ghost_plays,
            )
        )


def _card(card: int) -> str:
    return format_card(card)


def ghost_score(score: Score, rules: Ruleset, friend: str | None) -> Score:
    """The score with the ghost as nobody: with a ghost friend the declarer takes the balance
    of the players (every other player is an opponent), not a friend's share."""
    if friend != GHOST:
        return score
    return replace(score, declarer=-(rules.playing - 1) * score.opponent)
