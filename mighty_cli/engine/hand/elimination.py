"""6마 and 7마: the declarer eliminates players after the election (000 §3.3, §3.4).

Rules held here, each with its ruleset option:

* Six (seven) are dealt eight (seven) cards each and five (four) to the kitty
  (``table.players``, ``table.hand_size``, ``table.kitty_size``); the election is the usual one.
* The declarer then calls a card, ``table.eliminated`` times (6마 once, 7마 twice): its holder
  leaves the hand (탈락).
* A card in the kitty, or held by a player already eliminated, is called again (만일에 그 카드가
  내려놓은 5장 안에 있다면 다른 카드를 부른다; 같은 카드를 가진 사람이거나 …): the call stands in
  the record and has no effect.
* The declarer may not call a card he holds: that would eliminate nobody.
* Local rule (footnote 15, ``table.eliminate_by = "player"``): he names the player instead.
* The eliminated hands and the kitty are dealt out (a chance event: the table deals it): each
  other player is made up to ten cards and the declarer takes the rest (6마: 5 to him and 2 to
  each other; 7마: 6 and 3). He then discards down to ten (``Ruleset.elimination_discard``),
  and the hand is played as five (그 뒤로는 5마와 동일): the eliminated score nothing.
* When the tool deals the pile itself (the referee's ``deal``), it uses mighty-deal/1's stream
  and shuffle (cards/deck.py), seeded by the pile's cards (:func:`seeded_redistribution`,
  docs/record-format.md "Seeded deals" step 5): the same pile is dealt the same way on every machine and Python
  version. Reading (the seed says only 나누어 준다): the shares go out in seating order from the
  front of the shuffled pile. A record keeps the cards dealt, so no replay depends on this.

시흥 은마 (000 §7.21, ``table.dummy``): five play 6마 with a sixth hand, the dummy's (은실, named
``dummy`` in records), seated after them:

* The dummy is dealt eight like everyone and never bids (비딩 시 더미는 자동 패스), never deals,
  opens or declares a deal miss.
* The declarer calls one card: its holder is eliminated; if nobody holds it (it is in the kitty
  or the dummy's hand), the dummy is eliminated and nobody is called again (더 이상 호명하지
  않는다: 바닥에 있었는지 더미에 있었는지 상관하지 않는다). Calling his own card is refused as in
  6마.
* The dummy eliminated: as ordinary 6마, its eight and the kitty's five go 5 to the declarer and
  2 to each other player.
* A player eliminated: his eight and the kitty's five are dealt 2 to each of the four others and
  2 to the dummy's hand (4사람+1더미에게 2장씩). The seed's numbers leave 3 of the 13: the tool's
  reading gives them to the declarer, who thus takes 5 and discards 3, exactly as in 6마 (every
  hand then holds ten). The eliminated player then takes up the dummy's hand (더미의 카드를 받아)
  and plays it from his own seat: the players keep their order and the dummy's seat is empty.
* So the five players always play the tricks and are scored as in 5마: the player holding the
  dummy's hand is a defender, or the friend when it holds the called card, like anyone; the
  dummy itself never scores. ``eliminated`` in a record names whose own hand left (a player or
  ``dummy``), not someone who scores nothing.

In open-cards mode an elimination call names who held the card (or the kitty), since the table
sees who leaves; the redistributed cards are not seen.
"""

from __future__ import annotations

from collections.abc import Iterable
from hashlib import sha256
from random import Random

from ..cards import Card, CardMask, format_card, format_cards, sorted_cards
from ..cards.deck import VALID_CARDS, cards_of, mask_of, shuffled_deck
from ..errors import IllegalExchange
from ..translation import _, ngettext
from .actions import Eliminate, Redistribute
from .derived import HandContext, seating_for
from .seats import DUMMY, Seat
from .state import HandState, mutable_copy, new_object, phase_error


def _holder(state: HandState, card: Card) -> Seat | None:
    """The seat dealt a card (None: the kitty)."""
    hands = state._hands
    assert hands is not None  # (a full deal)
    return next((seat for seat, mask in enumerate(hands) if mask >> card & 1), None)


def _elimination_problem(state: HandState, action: Eliminate) -> tuple[str | None, int | None]:
    """Why the call is illegal (None if legal), and the seat it eliminates (None: no effect)."""
    ctx, setup = state._ctx, state._setup
    rules = ctx.rules
    assert setup.declarer is not None  # (the election is over)
    declarer = ctx.players[setup.declarer]
    gone = {ctx.seat_of[name] for name in setup.eliminated}
    named = None
    if action.player is not None:
        if action.player not in ctx.seat_of:
            return _("{player} is not one of the players").format(player=repr(action.player)), None
        named = ctx.seat_of[action.player]
        if named == setup.declarer:
            return _("{declarer} cannot eliminate himself").format(declarer=declarer), None
    if rules.table.eliminate_by == "player":
        if action.card is not None:
            return (
                _("the declarer names a player, not a card (table.eliminate_by = player)"),
                None,
            )
        if named is None:
            return _("name the player to eliminate (table.eliminate_by = player)"), None
        if named in gone:
            return _("{player} is already eliminated").format(player=action.player), None
        return None, named
    card = action.card
    if card is None or card not in VALID_CARDS:
        return _("{card} is not a card (the declarer eliminates by calling a card)").format(
            card=repr(card)
        ), None
    if card not in ctx.valid:
        return _("{card} is not in play (table.removed_cards)").format(card=format_card(card)), None
    if state._hands is not None:
        holder = _holder(state, card)
        if holder == setup.declarer:
            return _(
                "{declarer} called {card}, which he holds himself (the card eliminates its holder)"
            ).format(declarer=declarer, card=format_card(card)), None
        if action.player is not None and named != holder:
            if holder is None:
                return _("{card} is in the kitty, not held by {player}").format(
                    card=format_card(card), player=action.player
                ), None
            return _("{card} is held by {holder}, not by {player}").format(
                card=format_card(card), holder=ctx.players[holder], player=action.player
            ), None
    else:
        holder = named  # open cards: the table says who held it (None: the kitty)
    dummy = state._ctx.tables.dummy_seat
    if dummy >= 0 and (holder is None or holder == dummy):
        return None, dummy  # 시흥 은마: nobody holds it, so the dummy leaves (000 §7.21)
    if holder is None or holder in gone:
        return None, None  # in the kitty, or already out: called again (000 §3.3, §3.4)
    return None, holder


def apply_eliminate(state: HandState, action: Eliminate) -> HandState:
    if state.phase != "elimination":
        raise phase_error(state, _("an elimination"), IllegalExchange)
    problem, seat = _elimination_problem(state, action)
    if problem:
        raise IllegalExchange(_("elimination: {problem}").format(problem=problem))
    ctx, setup = state._ctx, state._setup
    new = mutable_copy(state)
    new_setup = setup.copy()
    holder = None
    if action.card is not None and state._hands is not None:
        held = _holder(state, action.card)
        holder = None if held is None else ctx.players[held]
    elif action.player is not None:
        holder = action.player
    new_setup.eliminations = setup.eliminations + ((action.card, holder),)
    if seat is not None:
        new_setup.eliminated = setup.eliminated + (ctx.players[seat],)
    new._setup = new_setup
    if len(new_setup.eliminated) == ctx.tables.eliminated:
        new.phase = "redistribution"  # a chance event: the table deals the pile out
        new._to_move = None
    return new


def redistribution_sizes(state: HandState) -> dict[str, int]:
    """How many cards each remaining player receives: each other player up to ten, the
    declarer the rest (6마: 5 and 2 each; 7마: 6 and 3 each)."""
    ctx, setup = state._ctx, state._setup
    rules = ctx.rules
    assert setup.declarer is not None  # (the election is over)
    declarer = ctx.players[setup.declarer]
    each = 10 - rules.table.hand_size
    return {
        player: (each + rules.elimination_discard if player == declarer else each)
        for player in ctx.players
        if player not in setup.eliminated
    }


def _pile(state: HandState) -> CardMask:
    """The eliminated hands and the kitty (full deal)."""
    ctx, hands = state._ctx, state._hands
    assert ctx.kitty is not None and hands is not None  # (a full deal)
    pile = mask_of(ctx.kitty)
    for name in state._setup.eliminated:
        pile |= hands[ctx.seat_of[name]]
    return pile


def apply_redistribute(state: HandState, action: Redistribute) -> HandState:
    if state.phase != "redistribution":
        raise phase_error(state, _("a redistribution"), IllegalExchange)
    ctx = state._ctx
    sizes = redistribution_sizes(state)
    given = dict(action.cards)
    if state._hands is None:  # open cards: the cards dealt out are not seen
        if given and set(given) != set(sizes):
            raise IllegalExchange(
                _("redistribution: deal to {players}").format(players=", ".join(sizes))
            )
        return _continue_as_five(state, None)
    if set(given) != set(sizes) or len(given) != len(action.cards):
        raise IllegalExchange(
            _(
                "redistribution: the eliminated hands and the kitty go to {players} (each once)"
            ).format(players=", ".join(sizes))
        )
    pile = _pile(state)
    dealt = 0
    for player, count in sizes.items():
        cards = tuple(given[player])
        if len(cards) != count:
            raise IllegalExchange(
                ngettext(
                    "redistribution: {player} receives {given} card ({cards}); expected {count}",
                    "redistribution: {player} receives {given} cards ({cards}); expected {count}",
                    len(cards),
                ).format(player=player, given=len(cards), cards=format_cards(cards), count=count)
            )
        for card in cards:
            if not isinstance(card, int) or not pile >> card & 1:
                shown = format_card(card) if card in VALID_CARDS else repr(card)
                pile_text = format_cards(sorted_cards(cards_of(pile)))
                raise IllegalExchange(
                    _(
                        "redistribution: {card} is not in the eliminated "
                        "hands and the kitty ({pile})"
                    ).format(card=shown, pile=pile_text)
                )
            if dealt >> card & 1:
                raise IllegalExchange(
                    _("redistribution: {card} is dealt twice").format(card=format_card(card))
                )
            dealt |= 1 << card
    masks = {player: state._hands[ctx.seat_of[player]] | mask_of(given[player]) for player in sizes}
    return _continue_as_five(state, masks)


def _continue_as_five(state: HandState, masks: dict[str, int] | None) -> HandState:
    """The hand from here on among the remaining players (그 뒤로는 5마와 동일): a context of
    their own, seats renumbered in the same order, the declarer to discard."""
    old, setup = state._ctx, state._setup
    players = tuple(p for p in old.players if p not in setup.eliminated)
    if old.tables.dummy_seat >= 0 and setup.eliminated != (DUMMY,):
        # 시흥 은마: the eliminated player takes up the dummy's hand and plays it from his seat
        taker = setup.eliminated[0]
        players = tuple(p for p in old.players if p != DUMMY)
        if masks is not None:
            masks[taker] = masks.pop(DUMMY)
    seating = seating_for(players, len(players))
    ctx = new_object(HandContext)
    for name in HandContext.__slots__:
        setattr(ctx, name, getattr(old, name))
    ctx.players = players
    ctx.seat_of = seating.seat_of
    ctx.play_tables = seating.play_tables
    ctx.n = len(players)
    ctx.kitty_size = old.rules.elimination_discard  # what the declarer discards
    ctx.deal_masks = None if masks is None else tuple(masks[p] for p in players)
    ctx.miss_hands = None
    ctx.silent, ctx.bidders = 0, len(players)  # 시흥 은마: the dummy's seat is gone
    new = mutable_copy(state)
    new._ctx = ctx
    new_setup = setup.copy()
    assert setup.declarer is not None  # (the election is over)
    declarer = ctx.seat_of[old.players[setup.declarer]]
    new_setup.declarer = new_setup.standing_seat = new_setup.opener = declarer
    new_setup.passed = 0
    new._setup = new_setup
    new._hands = ctx.deal_masks
    new._points = (0,) * ctx.n
    new._voids = ((),) * ctx.n if ctx.open else None
    new.phase = "exchange"
    new._to_move = declarer
    return new


def elimination_calls(state: HandState) -> list:
    """Every legal elimination call (with the holder named, so that open-cards replays agree)."""
    ctx, setup = state._ctx, state._setup
    if ctx.rules.table.eliminate_by == "player":
        return [
            Eliminate(None, p)
            for p in ctx.players
            if p not in setup.eliminated and ctx.seat_of[p] != setup.declarer
        ]
    if state._hands is None:
        holders = [None] + [p for p in ctx.players if ctx.seat_of[p] != setup.declarer]
        return [Eliminate(card, who) for card in sorted_cards(ctx.tables.deck) for who in holders]
    calls = []
    for card in sorted_cards(ctx.tables.deck):
        holder = _holder(state, card)
        if holder != setup.declarer:
            calls.append(Eliminate(card, None if holder is None else ctx.players[holder]))
    return calls


def random_redistribution(state: HandState, rng: Random) -> Redistribute:
    """The eliminated hands and the kitty shuffled and dealt out (the table's chance event; a
    random playout's: ``rng`` draws it)."""
    if state._hands is None:
        return Redistribute(())
    pile = cards_of(_pile(state))
    rng.shuffle(pile)
    return _dealt_out(state, pile)


#: The prefix of the text whose SHA-256 seeds the tool's deal of a pile (docs/record-format.md).
PILE_SEED_PREFIX = "mighty-pile:"


def pile_seed(pile: Iterable[Card]) -> int:
    """The seed of the tool's deal of a 6마/7마 pile: the first 8 bytes, read as an unsigned
    big-endian integer, of the SHA-256 of ``"mighty-pile:"`` followed by the pile's cards in
    canonical order (♠2…♠A, ◆, ♥, ♣, then the joker) in record notation, separated by single
    spaces (``"mighty-pile:S4 D10 HQ CA JK"``)."""
    cards = sorted(pile)  # the card codes sort in canonical order, the joker last
    text = PILE_SEED_PREFIX + " ".join(format_card(card) for card in cards)
    return int.from_bytes(sha256(text.encode("utf-8")).digest()[:8], "big")


def seeded_redistribution(state: HandState) -> Redistribute:
    """The tool's own deal of the eliminated hands and the kitty (the referee's ``deal``):
    mighty-deal/1's shuffle (cards/deck.py) of the pile in canonical order, seeded by
    :func:`pile_seed`; then each remaining player, in seating order, takes his share
    (:func:`redistribution_sizes`) from the front. The same pile is always dealt the same way,
    on every machine and Python version."""
    if state._hands is None:
        return Redistribute(())
    pile = cards_of(_pile(state))
    return _dealt_out(state, shuffled_deck(pile_seed(pile), pile))


def _dealt_out(state: HandState, pile: list) -> Redistribute:
    """A shuffled pile dealt out: each remaining player in seating order takes his share from
    the front (each share sorted, as a record writes it)."""
    out, start = [], 0
    for player, count in redistribution_sizes(state).items():
        out.append((player, tuple(sorted_cards(pile[start : start + count]))))
        start += count
    return Redistribute(tuple(out))
