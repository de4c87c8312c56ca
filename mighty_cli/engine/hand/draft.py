"""The drafted deal of 변형 2마 and Mighty Network 4.0's 2마 (000 §3.5.1).

Rules held here (``table.deal = "draft"``):

* The stock is the ruleset's deck shuffled by the seed (mighty-deal/1, cards/deck.py), its top card
  first (4마's 43 cards for 변형 2마: "4마와 같이 43장으로 한다"; all 53 for Mighty Network 4.0).
* In turn from the first player in seating order, a player takes the top two cards of the stock,
  sees only the upper one, keeps the upper or the lower and puts the other aside, face down
  ("쌓아둔 더미에서 두 장씩 교대로 가져가 위의 패만 뒤집어보고 위나 아래 중 한 장을 가져가고
  나머지는 버린다"). The cards put aside are out of play for the hand (the deal's ``undealt``).
* When every hand is full (table.hand_size: ten, or thirteen in Mighty Network 4.0's 2마) the
  cards left are the kitty ("남은 세 장은 내려놓는다"; one in Mighty Network 4.0).

After the draft the hand goes on as any other: the election (the bid counts tricks,
``election.bid_counts = "tricks"``: "공약은 먹은 턴 수를 대상으로 한다"), the declarer takes the
kitty and discards as many, and may revise the contract (exchange), then the tricks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..cards.deck import UNDEALT, deal_cards, shuffled_deck
from ..errors import MightyError
from ..translation import _
from .derived import rule_tables
from .seats import seats

if TYPE_CHECKING:
    from ..ruleset import Ruleset

#: A player's choice in the draft: given the player and the upper card he sees (the lower one
#: stays hidden), True to keep the upper card, False to keep the lower.
Keep = Callable[[str, int], bool]


def drafted_deal(
    seed: int,
    players: Sequence[str],
    deck: Sequence[int],
    hand_size: int,
    kitty_size: int,
    keep: Keep,
) -> dict[str, list[int]]:
    """The hands, kitty and cards put aside of a draft from the seed's stock, each player's
    choice made by ``keep``; the hands in the order drafted."""
    stock = shuffled_deck(seed, deck)
    needed = 2 * hand_size * len(players) + kitty_size
    if len(stock) != needed:
        raise MightyError(
            _(
                "draft: {players} hands of {hand_size} drafted two cards at a time "
                "and a kitty of {kitty} need {needed} cards; the deck has {cards}"
            ).format(
                players=len(players),
                hand_size=hand_size,
                kitty=kitty_size,
                needed=needed,
                cards=len(stock),
            )
        )
    deal: dict[str, list[int]] = {player: [] for player in players}
    aside: list[int] = []
    position = 0
    for _round in range(hand_size):
        for player in players:
            upper, lower = stock[position], stock[position + 1]
            position += 2
            kept, other = (upper, lower) if keep(player, upper) else (lower, upper)
            deal[player].append(kept)
            aside.append(other)
    deal["kitty"] = stock[position:]
    deal[UNDEALT] = aside
    return deal


def seeded_deal(
    rules: Ruleset, seed: int, players: Sequence[str], keep: Keep | None = None
) -> dict[str, list[int]]:
    """The deal of a hand from a seed, whatever the table: dealt (with the ghost's pile under
    table.ghost, hand/seats.py), or drafted under table.deal = "draft" (``keep`` makes each choice;
    by default a player keeps the upper card)."""
    t = rules.table
    deck = rule_tables(rules).deck  # the ruleset's deck, built once
    if t.deal == "draft":
        return drafted_deal(
            seed, players, deck, t.hand_size, t.kitty_size, keep or (lambda player, card: True)
        )
    return deal_cards(seed, seats(rules, players), deck, t.hand_size)
