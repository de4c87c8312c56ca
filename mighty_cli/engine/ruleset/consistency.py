"""The rules between a ruleset's options, checked once every option holds a value of its kind.

Each check is one rule, named for it, and raises a :class:`RulesetError` naming the file and
the options that disagree; :func:`check_consistency` runs them in the order of :data:`CHECKS`
(the first broken rule is the one reported).
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import ELEVENS, parse_card
from ..errors import RulesetError
from ..translation import _
from .schema import Ruleset

MIGHTIES = ("mighty", "mighty_alternate")
#: The joker-call cards of every deck, and the colour joker's of a two-joker deck.
JOKER_CALLS = ("joker_call", "joker_call_alternate")
COLOUR_JOKER_CALLS = ("colour_joker_call", "colour_joker_call_alternate")


def check_consistency(rules: Ruleset, label: str) -> None:
    """Every rule between the options, in order: the first one broken is raised."""
    for check in CHECKS:
        check(rules, label)


def _bid_range(rules: Ruleset, label: str) -> None:
    e = rules.election
    if e.max_bid and e.min_bid > e.max_bid:
        raise RulesetError(
            _(
                "{label}: election.min_bid = {min_bid} is above election.max_bid = "
                "{max_bid}: the minimum bid cannot exceed the maximum"
            ).format(label=label, min_bid=e.min_bid, max_bid=e.max_bid)
        )


def _mighty_is_no_joker(rules: Ruleset, label: str) -> None:
    for key in MIGHTIES:
        if getattr(rules.cards, key) == "JK":
            raise RulesetError(
                _('{label}: cards.{key} = "JK": the joker cannot be Mighty').format(
                    label=label, key=key
                )
            )


def _joker_calls_are_suited(rules: Ruleset, label: str) -> None:
    """The joker-call cards are suited cards, neither Mighty."""
    c = rules.cards
    for key in JOKER_CALLS:
        card = getattr(c, key)
        if card == "JK":
            raise RulesetError(
                _('{label}: cards.{key} = "JK": the joker-call card must be a suited card').format(
                    label=label, key=key
                )
            )
        if card in (c.mighty, c.mighty_alternate):
            raise RulesetError(
                _("{label}: cards.{key} = {card!r} is also a Mighty card").format(
                    label=label, key=key, card=card
                )
            )


def _colour_joker_calls_differ(rules: Ruleset, label: str) -> None:
    """Two jokers: the colour joker's call cards are suited, neither Mighty nor the black
    joker's call cards."""
    c = rules.cards
    if c.jokers != 2:
        return
    for key in COLOUR_JOKER_CALLS:
        card = getattr(c, key)
        if (
            card in ("JK", "BJ")
            or card in (c.mighty, c.mighty_alternate)
            or card in (c.joker_call, c.joker_call_alternate)
        ):
            raise RulesetError(
                _(
                    "{label}: cards.{key} = {card!r} must be a suited card "
                    "other than Mighty and the black joker's call cards"
                ).format(label=label, key=key, card=card)
            )


def _colour_rules_need_two_jokers(rules: Ruleset, label: str) -> None:
    c = rules.cards
    if c.jokers != 2 and (
        c.joker_follows_colour or c.joker_leads_colour or c.off_colour_joker_below_trump
    ):
        raise RulesetError(
            _(
                "{label}: the joker's colour rules (cards.joker_follows_colour, "
                "joker_leads_colour, off_colour_joker_below_trump) need two jokers "
                "(cards.jokers = 2)"
            ).format(label=label)
        )


def _special_cards_not_removed(rules: Ruleset, label: str) -> None:
    """Mighty and the joker-call cards are in the deck (table.removed_cards)."""
    c = rules.cards
    removed = rules.removed_card_names
    calls = JOKER_CALLS + (COLOUR_JOKER_CALLS if c.jokers == 2 else ())
    for key in MIGHTIES + calls:
        if getattr(c, key) in removed:
            raise RulesetError(
                _(
                    "{label}: cards.{key} = {card!r} is one of the cards "
                    "removed from the deck (table.removed_cards)"
                ).format(label=label, key=key, card=getattr(c, key))
            )


def _eleven_point_rank_needs_elevens(rules: Ruleset, label: str) -> None:
    if "11" in rules.cards.point_ranks and not rules.table.rank_eleven:
        raise RulesetError(
            _(
                "{label}: cards.point_ranks names 11, but the deck has no 11 "
                "(table.rank_eleven = false)"
            ).format(label=label)
        )


def _special_cards_no_elevens(rules: Ruleset, label: str) -> None:
    """Mighty and the joker-call cards are no 11 where the deck has none (서울과고's rank)."""
    if rules.table.rank_eleven:
        return
    c = rules.cards
    for key in MIGHTIES + JOKER_CALLS:
        if parse_card(getattr(c, key)) in ELEVENS:
            raise RulesetError(
                _(
                    "{label}: cards.{key} = {card!r} is not in the deck (table.rank_eleven = false)"
                ).format(label=label, key=key, card=getattr(c, key))
            )


def _one_deck_removes_once(rules: Ruleset, label: str) -> None:
    names = rules.table.removed_cards.split()
    if rules.table.decks == 1 and len(names) != len(set(names)):
        raise RulesetError(
            _(
                "{label}: table.removed_cards names a card twice, but there is one "
                "deck (table.decks = 1)"
            ).format(label=label)
        )


def _deal_uses_the_deck(rules: Ruleset, label: str) -> None:
    """The hands, the kitty and the cards put aside use every card in play, no more."""
    t = rules.table
    # 53; 54 with two jokers (cards.jokers); 57 with 서울과고's 11s (table.rank_eleven); 106
    # with two decks (table.decks, 8마 Chicago); less the removed
    in_play = len(rules.deck_cards)
    # the ghost's hand (000 §3.5.2); 허니문's friend hands (000 §3.5.1)
    # and 시흥 은마's dummy (table.dummy, elimination.py)
    hands = t.players * (2 if t.partner_hands else 1) + (1 if t.ghost or t.dummy else 0)
    needed = hands * t.hand_size + t.kitty_size + t.undealt
    if needed == in_play:
        return
    ghost = (
        _(" (and the ghost's, table.ghost)")
        if t.ghost
        else _(" (and the dummy's, table.dummy)")
        if t.dummy
        else ""
    )
    undealt = _(" and {count} undealt (table.undealt)").format(count=t.undealt) if t.undealt else ""
    raise RulesetError(
        _(
            "{label}: table.players = {players} hands{ghost} of {hand_size} "
            "and a kitty of {kitty_size}{undealt} need {needed} cards, but "
            "{in_play} are in play (the deck less table.removed_cards)"
        ).format(
            label=label,
            players=t.players,
            ghost=ghost,
            hand_size=t.hand_size,
            kitty_size=t.kitty_size,
            undealt=undealt,
            needed=needed,
            in_play=in_play,
        )
    )


def _draft_puts_one_aside_per_card(rules: Ruleset, label: str) -> None:
    t = rules.table
    if t.deal == "draft" and (t.undealt != t.players * t.hand_size or t.ghost or t.eliminated):
        raise RulesetError(
            _(
                '{label}: table.deal = "draft" puts one card aside for every card '
                "kept: table.undealt must be table.players × table.hand_size = "
                "{count}, with no ghost and no eliminations"
            ).format(label=label, count=t.players * t.hand_size)
        )


def _tricks_bid_needs_a_maximum(rules: Ruleset, label: str) -> None:
    e = rules.election
    if e.bid_counts == "tricks" and not e.max_bid:
        raise RulesetError(
            _(
                '{label}: election.bid_counts = "tricks" needs election.max_bid '
                "(at most the {tricks} tricks)"
            ).format(label=label, tricks=rules.tricks)
        )


def _partner_hands_alone(rules: Ruleset, label: str) -> None:
    t = rules.table
    if t.partner_hands and (t.ghost or t.eliminated or t.deal == "draft"):
        raise RulesetError(
            _(
                "{label}: table.partner_hands = true cannot be used with a ghost, "
                "eliminations or a drafted deal"
            ).format(label=label)
        )


def _dummy_needs_one_card_elimination(rules: Ruleset, label: str) -> None:
    t = rules.table
    if t.dummy and (
        t.eliminated != 1
        or t.eliminate_by != "card"
        or t.ghost
        or t.partner_hands
        or t.deal == "draft"
    ):
        raise RulesetError(
            _(
                "{label}: table.dummy = true needs table.eliminated = 1 by a "
                'called card (table.eliminate_by = "card"), with no ghost, no '
                "friend hands and a dealt deck (000 §7.21)"
            ).format(label=label)
        )


def _ghost_without_eliminations(rules: Ruleset, label: str) -> None:
    t = rules.table
    if t.ghost and t.eliminated:
        raise RulesetError(
            _(
                "{label}: table.ghost = true cannot be used with table.eliminated = "
                "{eliminated}: the ghost plays where nobody is eliminated"
            ).format(label=label, eliminated=t.eliminated)
        )


def _weighed_friends_without_runs(rules: Ruleset, label: str) -> None:
    s = rules.scoring
    if (s.friend_weight != 1 or s.lone_friend_weight not in (0, 1)) and (
        s.run.enabled or s.back_run.enabled or s.declared_run.enabled
    ):
        raise RulesetError(
            _(
                "{label}: scoring.friend_weight / lone_friend_weight weigh the "
                "friends' cards, so a run or back run (counted in cards) cannot be "
                "told: set scoring.run, back_run and declared_run enabled = false"
            ).format(label=label)
        )


def _two_called_cards_need_card_calls(rules: Ruleset, label: str) -> None:
    if rules.friend.called_cards == 2 and not rules.friend.card:
        raise RulesetError(
            _("{label}: friend.called_cards = 2 needs card calls (friend.card)").format(label=label)
        )


def _eliminations_leave_full_hands(rules: Ruleset, label: str) -> None:
    t = rules.table
    if t.eliminated and (t.players - t.eliminated < 2 or rules.elimination_discard < 0):
        raise RulesetError(
            _(
                "{label}: table.eliminated = {eliminated} leaves {left} players "
                "who cannot each be made up to ten cards from the eliminated hands "
                "and the kitty"
            ).format(label=label, eliminated=t.eliminated, left=t.players - t.eliminated)
        )


def _custom_formula_has_both(rules: Ruleset, label: str) -> None:
    s = rules.scoring
    if s.formula == "custom" and not (s.success and s.failure):
        raise RulesetError(
            _(
                '{label}: scoring.formula = "custom" needs both scoring.success '
                "and scoring.failure expressions"
            ).format(label=label)
        )


def _expressions_only_custom(rules: Ruleset, label: str) -> None:
    s = rules.scoring
    if s.formula != "custom" and (s.success or s.failure):
        raise RulesetError(
            _(
                "{label}: scoring.success/failure are used only with "
                'scoring.formula = "custom" (it is {formula!r})'
            ).format(label=label, formula=s.formula)
        )


def _some_friend_call(rules: Ruleset, label: str) -> None:
    f = rules.friend
    if not any(
        (f.card, f.no_friend, f.first_trick, f.last_trick, f.player, rules.table.partner_hands)
    ):
        raise RulesetError(
            _(
                "{label}: friend: no kind of friend call is allowed (set at least "
                "one of card, no_friend, first_trick, last_trick, player)"
            ).format(label=label)
        )


def _descending_bids_without_discount(rules: Ruleset, label: str) -> None:
    e = rules.election
    if e.bid_counts == "opposition_limit" and e.no_trump_discount:
        raise RulesetError(
            _(
                "{label}: election.no_trump_discount = {no_trump_discount} cannot "
                'be used with election.bid_counts = "opposition_limit" (bids '
                "descend)"
            ).format(label=label, no_trump_discount=e.no_trump_discount)
        )


def _opposition_bids_need_a_maximum(rules: Ruleset, label: str) -> None:
    e = rules.election
    if e.bid_counts not in ("taken", "tricks") and not e.max_bid:
        raise RulesetError(
            _(
                "{label}: election.bid_counts = {bid_counts!r} needs a maximum bid "
                "(election.max_bid)"
            ).format(label=label, bid_counts=e.bid_counts)
        )


def _bids_ask_for_cards_in_play(rules: Ruleset, label: str) -> None:
    """The lowest and the highest bid each ask for a number of the point cards in play."""
    e = rules.election
    if e.bid_counts in ("taken", "tricks"):
        return
    for number in (e.min_bid, e.max_bid):
        target = rules.contract_target(number)
        if not 0 <= target <= rules.point_card_total:
            raise RulesetError(
                _(
                    "{label}: a bid of {number} asks the ruling party for "
                    "{target} of {point_card_total} point cards "
                    "(election.bid_counts, election.opposition_base, "
                    "election.min_bid/max_bid)"
                ).format(
                    label=label,
                    number=number,
                    target=target,
                    point_card_total=rules.point_card_total,
                )
            )


def _discount_needs_no_trump(rules: Ruleset, label: str) -> None:
    e = rules.election
    if e.no_trump_discount and not e.no_trump_allowed:
        raise RulesetError(
            _(
                "{label}: election.no_trump_discount = {no_trump_discount} but "
                "no-trump is not allowed (election.no_trump_allowed = false)"
            ).format(label=label, no_trump_discount=e.no_trump_discount)
        )


#: The rules, in the order they are checked.
CHECKS: tuple[Callable[[Ruleset, str], None], ...] = (
    _bid_range,
    _mighty_is_no_joker,
    _joker_calls_are_suited,
    _colour_joker_calls_differ,
    _colour_rules_need_two_jokers,
    _special_cards_not_removed,
    _eleven_point_rank_needs_elevens,
    _special_cards_no_elevens,
    _one_deck_removes_once,
    _deal_uses_the_deck,
    _draft_puts_one_aside_per_card,
    _tricks_bid_needs_a_maximum,
    _partner_hands_alone,
    _dummy_needs_one_card_elimination,
    _ghost_without_eliminations,
    _weighed_friends_without_runs,
    _two_called_cards_need_card_calls,
    _eliminations_leave_full_hands,
    _custom_formula_has_both,
    _expressions_only_custom,
    _some_friend_call,
    _descending_bids_without_discount,
    _opposition_bids_need_a_maximum,
    _bids_ask_for_cards_in_play,
    _discount_needs_no_trump,
)
