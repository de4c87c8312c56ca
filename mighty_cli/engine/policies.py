"""Players for simulated hands: a random one, a sound heuristic one, and a player of a given
skill who follows the heuristic with that probability at each decision and plays at random
otherwise. Pure; every choice is one of :func:`hand.legal_actions`'s, drawn from a seeded
``Random``. ``mighty_cli.skill_play`` plays seasons with them, so a rating can be measured on
players whose strength is known without assuming how it turns into point cards.

Written for the five-player game with one deck and one joker (``standard`` and the rulesets
like it); on other tables the heuristic's choices stay legal but are less sound.

The heuristic, decision by decision:

* election: a hand's value for each suit as trump (its trumps, their A K Q, Mighty, the joker,
  the other aces) and at no-trump (Mighty, the joker, the aces and kings, a long suit); bid the
  best (no-trump when its value is half a point above the best suit's) up to what the value
  promises (:data:`CEILING` more: 15 for a fair hand, 20 at most), opening the election near
  that and raising by the least, so the contracts spread over 13-18 with one in seven at
  no-trump, as a club's season does (the bundled example); the last to speak when all passed
  bids the least rather than see a redeal; a weak hand that may be shown declares a deal
  miss;
* discard: the three lowest cards that are neither trump, Mighty, the joker nor point cards
  where it can (then the lowest point cards);
* friend: no contract change; call the highest card missing from the hand: Mighty, the joker,
  trump A, trump K, then an ace;
* play: lead the highest trump as the ruling party (then Mighty, then an ace), an ace of a
  side suit or the lowest side card as a defender; following, when the trick's winner so far
  is not on the player's side, win with the cheapest card that wins it now; otherwise (or when
  nothing wins) give the lowest card, a point card where the partner is winning and the
  player is last.

The random player draws uniformly from the legal actions, but in the election, where a uniform
draw would bid almost every hand up to 20 (no table plays like that): there it bids as the
heuristic does in a suit (or no-trump) drawn at random, misjudging the hand's worth by −2 to +2
(uniformly), which is a poor bidder's way; it never declares a deal miss.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from . import hand as engine
from .cards import JOKER, SUITS
from .simulation import ENDED

#: Rank codes (cards.RANKS: 2-14, the ace 14).
ACE, KING, QUEEN = 14, 13, 12

Policy = Callable[[engine.HandState, Random], Any]


def actor(state: engine.HandState) -> str | None:
    """Who decides the next action: the declarer at the discard and the friend call, the player
    to move otherwise."""
    return state.declarer if state.phase in ("exchange", "friend") else state.to_move


def random_action(state: engine.HandState, rng: Random) -> Any:
    """A uniformly random legal action (the election as the module says)."""
    if state.phase == "election":
        trumps = [*SUITS, None] if state.rules.election.no_trump_allowed else list(SUITS)
        return _bid(state, trumps[int(rng.random() * len(trumps))], int(rng.random() * 5) - 2)
    return engine.random_legal_action(state, rng)


def heuristic_action(state: engine.HandState, rng: Random) -> Any:
    """The heuristic's action (deterministic; ``rng`` unused, for the policies' signature)."""
    phase = state.phase
    if phase == "election":
        return _deal_miss(state) or _bid(state)
    if phase == "exchange":
        return _discard(state)
    if phase == "friend":
        return _call(state)
    if phase == "play":
        return _play(state)
    return random_action(state, rng)


def skilled(skill: float) -> Policy:
    """A player who follows the heuristic with probability ``skill`` at each decision and plays
    at random otherwise (0: random, 1: the heuristic)."""

    def choose(state: engine.HandState, rng: Random) -> Any:
        return heuristic_action(state, rng) if rng.random() < skill else random_action(state, rng)

    return choose


def play_hand(
    state: engine.HandState, policies: dict[str, Policy], rng: Random
) -> engine.HandState:
    """The hand played to its end, each decision by its player's policy."""
    while state.phase not in ENDED:
        who = actor(state)
        assert who is not None  # (a hand not ended has someone to act)
        state = engine.apply(state, policies[who](state, rng))
    return state


# --- the heuristic -----------------------------------------------------------------------------


def _own_bids(state: engine.HandState) -> list:
    """The bids the player to move may make that raise the standing number (where an equal bid
    is allowed, 경기 2018, two players matching each other would never end the election)."""
    player = state.to_move
    standing = state.standing_bid
    floor = standing[1].number if standing else -1
    return [
        action
        for action in engine.legal_actions(state)
        if isinstance(action, engine.BidCall)
        and action.player == player
        and action.bid is not None
        and action.bid.number > floor
    ]


def _may_pass(state: engine.HandState) -> bool:
    return bool(state.election) or state.rules.election.opener_may_pass


def _suit(card: int) -> int:
    return card >> 4


def _rank(card: int) -> int:
    return card & 15


def hand_value(state: engine.HandState, cards: tuple, trump: int) -> float:
    """What a hand promises with ``trump`` as trump: each trump 1, its A K Q ½ more, Mighty and
    the joker 1½ each, another ace ½."""
    mighty = engine.mighty_card(state.rules, trump)
    value = 0.0
    for card in cards:
        if card == mighty or card == JOKER:
            value += 1.5
        elif _suit(card) == trump:
            value += 1.5 if _rank(card) >= QUEEN else 1.0
        elif _rank(card) == ACE:
            value += 0.5
    return value


def no_trump_value(state: engine.HandState, cards: tuple) -> float:
    """What a hand promises at no-trump, where only the top cards win: Mighty, the joker and
    each ace 2, each king 1, and ½ for each card of its longest suit beyond three."""
    mighty = engine.mighty_card(state.rules, None)
    value = 0.0
    lengths = dict.fromkeys(SUITS, 0)
    for card in cards:
        if card == mighty or card == JOKER or _suit(card) not in lengths:
            value += 2.0
            continue
        lengths[_suit(card)] += 1
        if _rank(card) == ACE:
            value += 2.0
        elif _rank(card) == KING:
            value += 1.0
    return value + 0.5 * max(0, max(lengths.values()) - 3)


#: The contract a hand promises: ``CEILING`` plus its value (13 for a fair hand, the ruleset's
#: highest at most); a no-trump hand is bid at no-trump when its no-trump value is at least
#: ``NO_TRUMP_EDGE`` above its best suit's.
CEILING = 9
NO_TRUMP_EDGE = 0.5
#: Where the election is opened: the ceiling less ``OPENING_SHORT`` (a club opens near what it
#: can make, so the contracts spread over 13-18 as a season of a club does); later bids raise
#: by the least.
OPENING_SHORT = 1
#: The last to speak when all others passed bids the least rather than see the hand redealt
#: when his hand promises no more than ``LAST_SPEAKER`` less than that.
LAST_SPEAKER = 2
#: A deal miss is declared when the hand promises less than the least contract with
#: ``MISS_SHORT`` more taken off.
MISS_SHORT = 2
UNSET = -1


def best_trump(state: engine.HandState, cards: tuple) -> tuple[int | None, float]:
    """The hand's best trump (None: no-trump, where the ruleset allows it) and its value."""
    suit = max(SUITS, key=lambda s: hand_value(state, cards, s))
    value = hand_value(state, cards, suit)
    if state.rules.election.no_trump_allowed:
        at_no_trump = no_trump_value(state, cards)
        if at_no_trump >= value + NO_TRUMP_EDGE:
            return None, at_no_trump
    return suit, value


def _bid(state: engine.HandState, trump: int | None = UNSET, misjudged: int = 0) -> Any:
    """A bid in ``trump`` (the hand's best, :func:`best_trump`, by default) up to what the hand
    promises there, ``misjudged`` more: the election's opening near that, a raise by the
    least; a pass when there is none."""
    player = state.to_move
    cards = state.hands[player]
    if trump == UNSET:
        trump, value = best_trump(state, cards)
    else:
        value = no_trump_value(state, cards) if trump is None else hand_value(state, cards, trump)
    highest = state.rules.election.max_bid or 20
    ceiling = min(highest, CEILING + round(value) + misjudged)
    if (
        state.standing_bid is None
        and len(state.election) >= len(state.players) - 1
        and ceiling >= state.rules.election.min_bid - LAST_SPEAKER
    ):
        ceiling = max(ceiling, state.rules.election.min_bid)  # rather than a redeal
    bids = [
        action
        for action in _own_bids(state)
        if action.bid.trump == trump and action.bid.number <= ceiling
    ]
    if bids:
        if state.standing_bid is None:  # the opening: near the ceiling
            aimed = [a for a in bids if a.bid.number <= ceiling - OPENING_SHORT] or bids
            return max(aimed, key=lambda action: action.bid.number)
        return min(bids, key=lambda action: action.bid.number)
    if _may_pass(state):
        return engine.BidCall(player, None)
    return min(
        _own_bids(state)
        or [
            a
            for a in engine.legal_actions(state)
            if isinstance(a, engine.BidCall) and a.player == player
        ],
        key=lambda action: action.bid.number if action.bid else 0,
    )


def _deal_miss(state: engine.HandState) -> Any | None:
    """A deal miss when the player to move may declare one and his hand promises no contract
    (a club declares the weak hands it may show)."""
    player = state.to_move
    miss = engine.DeclareDealMiss(player)
    if not state.rules.deal_miss.allowed or miss not in engine.legal_actions(state):
        return None
    cards = state.hands[player]
    _trump, value = best_trump(state, cards)
    return miss if CEILING + round(value) - MISS_SHORT < state.rules.election.min_bid else None


def _keep_order(state: engine.HandState, card: int) -> tuple:
    """A card's worth to keep, lowest first: plain side cards, point cards, trumps, the two
    special cards; by rank within each."""
    trump = state.contract.trump if state.contract else None
    if card == state.mighty or card == JOKER:
        return (3, 0)
    if _suit(card) == trump:
        return (2, _rank(card))
    return (1 if _rank(card) >= 10 else 0, _rank(card))


def _discard(state: engine.HandState) -> Any:
    cards = state.hands[state.declarer]
    size = len(cards) - engine.HAND_SIZE if len(cards) > engine.HAND_SIZE else 3
    lowest = sorted(cards, key=lambda card: _keep_order(state, card))[:size]
    return engine.Discard(tuple(sorted(lowest)))


def _call(state: engine.HandState) -> Any:
    calls = [
        action for action in engine.legal_actions(state) if isinstance(action, engine.CallFriend)
    ]
    held = set(state.hands[state.declarer])
    trump = state.contract.trump
    wanted = [state.mighty, JOKER]
    if trump is not None:
        wanted += [trump << 4 | ACE, trump << 4 | KING]
    wanted += [suit << 4 | ACE for suit in SUITS]
    by_card = {
        action.call.card: action
        for action in calls
        if action.call.kind == "card"
        and action.call.lead_suit is None
        and action.call.card2 is None
    }
    for card in wanted:
        if card not in held and card in by_card:
            return by_card[card]
    plain = [action for action in calls if action.call.kind == "none"]
    return (plain or calls)[0]


def _power(state: engine.HandState, card: int) -> int:
    """How strong a card is to spend: Mighty, the joker, trumps by rank, then others by rank."""
    if card == state.mighty:
        return 1000
    if card == JOKER:
        return 900
    return (200 if _suit(card) == state.trump else 0) + _rank(card)


def _side(state: engine.HandState, player: str) -> set:
    """The players the player knows to be on his side (himself included)."""
    declarer = state.declarer
    call = state.friend_call
    friend = state.friend
    ruling = {declarer} | ({friend} if friend else set())
    if player in ruling:
        return ruling
    if call is not None and call.kind == "card" and call.card in state.hands[player]:
        return {player, declarer}  # the hidden friend knows himself
    if friend:  # revealed: the other three are the defence
        return set(state.players) - ruling
    return {player}


def _winner(state: engine.HandState, trick: tuple, cards: list) -> int:
    """The index of the winning card among ``cards`` played to the trick led by ``trick[0]``."""
    first = trick[0][1]
    led = first.joker_suit if first.joker_suit is not None else _suit(first.card)
    number = state.trick_number
    rules = state.rules.cards
    last = number == engine.TRICKS
    mighty_power = not (
        number == 1
        and not rules.mighty_power_first_trick
        or last
        and not rules.mighty_power_last_trick
    )
    joker_power = not (
        number == 1
        and not rules.joker_power_first_trick
        or last
        and not rules.joker_power_last_trick
        or first.joker_call
        and state.rules.joker_call.called_joker_powerless
    )
    if len(cards) == 1:
        return 0
    return engine.trick_winner(cards, led, state.trump, state.mighty, mighty_power, joker_power)


def _play(state: engine.HandState) -> Any:
    plays = engine.legal_plays(state)
    by_card: dict[int, Any] = {}
    for play in plays:  # one play per card: a joker lead naming trump, the call not declared
        kept = by_card.get(play.card)
        if (
            kept is None
            or (play.joker_suit == state.trump and kept.joker_suit != state.trump)
            or (kept.joker_call and not play.joker_call)
        ):
            by_card[play.card] = play
    cards = list(by_card)
    player = state.to_move
    trick = state.current_trick
    if not trick:
        return by_card[_lead(state, player, cards)]
    side = _side(state, player)
    played = [play.card for _, play in trick]
    winner = trick[_winner(state, trick, played)][0]
    partner_winning = winner in side
    if not partner_winning:
        winners = [card for card in cards if _winner(state, trick, played + [card]) == len(played)]
        if winners:
            return by_card[min(winners, key=lambda card: _power(state, card))]
    last = len(trick) == len(state.players) - 1
    if partner_winning and last:
        points = [
            card
            for card in cards
            if _rank(card) >= 10
            and _suit(card) != state.trump
            and card != state.mighty
            and card != JOKER
        ]
        if points:
            return by_card[max(points, key=_rank)]
    return by_card[min(cards, key=lambda card: _keep_order(state, card))]


def _lead(state: engine.HandState, player: str, cards: list) -> int:
    side = _side(state, player)
    trump = state.trump
    special = (state.mighty, JOKER)
    if state.declarer in side:
        trumps = [card for card in cards if _suit(card) == trump and card not in special]
        if trumps:
            return max(trumps, key=_rank)
        if state.mighty in cards:
            return state.mighty
    aces = [
        card
        for card in cards
        if _rank(card) == ACE and _suit(card) != trump and card not in special
    ]
    if aces:
        return aces[0]
    plain = [card for card in cards if _suit(card) != trump and card not in special]
    return min(plain or cards, key=lambda card: _keep_order(state, card))
