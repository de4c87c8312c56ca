"""The state of a hand: a value. :func:`new_hand` makes the first one; every action makes a new
one (the phase modules build it on a copy), so a state a caller holds never changes.

A hand moves through phases: ``election`` → ``exchange`` (the declarer has taken the kitty and
discards three) → ``friend`` (he may change the contract, then calls a friend) → ``play`` (ten
tricks) → ``done``. A deal miss ends the hand in ``deal_miss``; an election where everyone
passed ends in ``redeal``.

Rules held here:

* The election's opener is the player after the dealer, or the dealer himself
  (``election.opener``), unless the table names him (``redeal_opener`` and friends decide that
  above the engine).
* With six or seven present the dealer deals and sits the hand out (docs/rules.md §9): a dealer who
  is not one of the five is accepted when the opener is named.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from ..cards import NO_SUIT, Bid, Card, CardMask, Suit, format_bid, sorted_cards
from ..cards.deck import assign_copies, cards_of, check_deal, mask_of
from ..errors import IllegalAction, MightyError
from ..ruleset import Ruleset
from ..translation import N_, _
from .actions import Action, CompletedTrick, FriendCall, Play
from .contract import ContractTables, mighty_card
from .derived import HandContext, rule_tables, seating_for
from .honeymoon import is_partner_hand
from .seats import DUMMY, GHOST, Seat, SeatMask, seats

#: The current trick's plays so far, each with its player.
Trick: TypeAlias = tuple[tuple[str, Play], ...]
#: What open cards prove a seat cannot hold: the cards, from which trick, why and by which rule.
Void: TypeAlias = tuple[CardMask, int, str, str]
#: The actions of a hand, newest first, as a linked list (the action, the actions before it):
#: an action adds a pair instead of copying a tuple (``HandState.history`` unrolls it).
History: TypeAlias = tuple[Action, "History"] | None

PHASES = (
    "election",
    "elimination",
    "redistribution",
    "exchange",
    "friend",
    "play",
    "done",
    "deal_miss",
    "redeal",
)


class HandSetup:
    """The election and exchange facts, shared unchanged by every state of the play."""

    __slots__ = (
        "calls",
        "standing",
        "standing_seat",
        "passed",
        "consecutive",
        "opener",
        "deal_miss_seat",
        "declarer",
        "bid",
        "contract",
        "discards",
        "discard_known",
        "friend_call",
        "eliminations",
        "eliminated",
        "friend2",
    )

    calls: tuple[tuple[str, Bid | None], ...]  # the election's calls in order (None: a pass)
    standing: Bid | None  # the highest bid so far
    standing_seat: Seat | None  # and who made it
    passed: SeatMask  # who has passed (and the seats that never bid)
    consecutive: int  # passes in a row
    opener: Seat  # who opened the election
    deal_miss_seat: Seat | None  # who showed a deal miss
    declarer: Seat | None
    bid: Bid | None  # the winning bid
    contract: Bid | None  # the contract (the bid, or what the declarer changed it to)
    discards: tuple[Card, ...] | None  # the declarer's discards (None: not yet)
    discard_known: bool  # whether they were seen (open cards: perhaps not)
    friend_call: FriendCall | None
    eliminations: tuple[tuple[Card | None, str | None], ...]  # 6마, 7마: card, holder
    eliminated: tuple[str, ...]  # the players they eliminated
    friend2: Seat | None  # the second called card's friend (friend.called_cards = 2)

    def copy(self) -> HandSetup:
        new = new_object(HandSetup)
        new.calls = self.calls
        new.standing = self.standing
        new.standing_seat = self.standing_seat
        new.passed = self.passed
        new.consecutive = self.consecutive
        new.opener = self.opener
        new.deal_miss_seat = self.deal_miss_seat
        new.declarer = self.declarer
        new.bid = self.bid
        new.contract = self.contract
        new.discards = self.discards
        new.discard_known = self.discard_known
        new.friend_call = self.friend_call
        new.eliminations = self.eliminations
        new.eliminated = self.eliminated
        new.friend2 = self.friend2
        return new


# --- the state --------------------------------------------------------------------------------


class HandState:
    """A hand at one moment. Immutable from the caller's view: apply() returns a new state.

    ``_hands`` (full deal) is each seat's mask as of the exchange; it does not change during
    the play, because a card leaves a hand only by being played: the cards a seat holds now are
    ``_hands[seat] & ~_played`` (the discards are in ``_played`` too). This spares every play
    a rebuilt tuple of five hands. ``_legal`` memoises the mover's legal mask (full deal)."""

    __slots__ = (
        "_ctx",
        "_setup",
        "_contract",
        "phase",
        "_to_move",
        "_hands",
        "_trick",
        "_trick_mask",
        "_led_suit",
        "_call",
        "trick_number",
        "tricks",
        "_points",
        "_played",
        "_trump_played",
        "_friend",
        "friend_revealed",
        "_friend_led",
        "_voids",
        "_history",
        "_legal",
    )

    # The slots, typed (annotations only: a slot stays a plain slot). The hand package's
    # modules read and write them; everything else reads the properties below.
    _ctx: HandContext  # what the hand does not change: players, dealer, deal, the rules' tables
    _setup: HandSetup  # the election's and the exchange's facts
    _contract: ContractTables | None  # the contract's tables, once the friend is called
    phase: str  # one of PHASES
    _to_move: Seat | None
    _hands: tuple[CardMask, ...] | None  # each seat's cards as of the exchange (None: open)
    _trick: Trick  # the current trick's plays so far
    _trick_mask: CardMask  # and their cards
    _led_suit: Suit  # the suit the current (or last) trick follows; NO_SUIT before any lead
    _call: CardMask  # the jokers the current trick's lead called
    trick_number: int  # 1 to the ruleset's tricks
    tricks: tuple[CompletedTrick, ...]  # the tricks completed
    _points: tuple[int, ...]  # the point cards each seat has taken
    _played: CardMask  # every card played (and the discards)
    _trump_played: bool  # whether trump was played yet (play.trump_lead)
    _friend: Seat | None  # the friend's seat (PENDING: not known yet; None: no friend)
    friend_revealed: bool
    _friend_led: bool  # whether the friend's card was led (friend.reveal_on_points)
    _voids: tuple[tuple[Void, ...], ...] | None  # open cards: what each seat cannot hold
    _history: History  # the actions, newest first
    _legal: CardMask | None  # the mover's legal plays, once worked out

    def _clone(self) -> HandState:
        """A field-by-field copy that the engine fills in before handing it out (apply_play
        builds its own copy: a new slot must be set there too)."""
        new = new_object(HandState)
        new._ctx = self._ctx
        new._setup = self._setup
        new._contract = self._contract
        new.phase = self.phase
        new._to_move = self._to_move
        new._hands = self._hands
        new._trick = self._trick
        new._trick_mask = self._trick_mask
        new._led_suit = self._led_suit
        new._call = self._call
        new.trick_number = self.trick_number
        new.tricks = self.tricks
        new._points = self._points
        new._played = self._played
        new._trump_played = self._trump_played
        new._friend = self._friend
        new.friend_revealed = self.friend_revealed
        new._friend_led = self._friend_led
        new._voids = self._voids
        new._history = self._history
        new._legal = None
        return new

    # -- read-only views (the hand's API: engine/hand/__init__.py, engine/__init__.py) --

    @property
    def rules(self) -> Ruleset:
        return self._ctx.rules

    @property
    def players(self) -> tuple[str, ...]:
        return self._ctx.players

    @property
    def dealer(self) -> str:
        return self._ctx.dealer

    @property
    def open_cards(self) -> bool:
        """Whether the deal is unknown (open-cards mode)."""
        return self._ctx.open

    @property
    def to_move(self) -> str | None:
        return None if self._to_move is None else self._ctx.players[self._to_move]

    @property
    def opener(self) -> str:
        """Who opened the election: the first to call (a deal miss before him aside)."""
        return self._ctx.players[self._setup.opener]

    @property
    def declarer(self) -> str | None:
        seat = self._setup.declarer
        return None if seat is None else self._ctx.players[seat]

    @property
    def bid(self) -> Bid | None:
        return self._setup.bid

    @property
    def contract(self) -> Bid | None:
        return self._setup.contract

    @property
    def friend_call(self) -> FriendCall | None:
        return self._setup.friend_call

    @property
    def friend(self) -> str | None:
        seat = self._friend
        return None if seat is None or seat < 0 else self._ctx.players[seat]

    @property
    def friends(self) -> tuple[str, ...]:
        """The declarer's friends, as far as known: one, or two where two cards are called
        (friend.called_cards = 2, 동대전 7마)."""
        seats = {
            seat for seat in (self._friend, self._setup.friend2) if seat is not None and seat >= 0
        }
        return tuple(self._ctx.players[seat] for seat in sorted(seats))

    @property
    def leader(self) -> str | None:
        """Who leads (or led) the current trick."""
        if self.phase != "play":
            return None
        if self._trick:
            return self._trick[0][0]
        return self.to_move

    @property
    def current_trick(self) -> tuple:
        return self._trick

    @property
    def points_taken(self) -> dict[str, int]:
        return dict(zip(self._ctx.players, self._points))

    @property
    def discards(self) -> tuple[int, ...] | None:
        """The declarer's discards (None until discarded or when unseen)."""
        setup = self._setup
        return setup.discards if setup.discard_known else None

    @property
    def discarded_points(self) -> int:
        ctx, setup = self._ctx, self._setup
        if setup.discards is None:
            return 0
        if setup.discard_known:
            return (mask_of(setup.discards) & ctx.point_mask).bit_count()
        if self.phase == "done":  # open cards, unseen discards: whatever was never played
            return ctx.point_total - (self._played & ctx.point_mask).bit_count()
        return 0

    @property
    def kitty(self) -> tuple[int, ...] | None:
        return self._ctx.kitty

    @property
    def hands(self) -> dict[str, tuple[int, ...]] | None:
        if self._hands is None:
            return None
        played = self._played
        return {
            player: tuple(sorted_cards(cards_of(mask & ~played)))
            for player, mask in zip(self._ctx.players, self._hands)
        }

    @property
    def election(self) -> tuple[tuple[str, Bid | None], ...]:
        return self._setup.calls

    @property
    def standing_bid(self) -> tuple[str, Bid] | None:
        """The highest bid so far and who made it."""
        setup = self._setup
        seat = setup.standing_seat  # (set with the standing bid)
        return (
            None
            if setup.standing is None or seat is None
            else (self._ctx.players[seat], setup.standing)
        )

    @property
    def deal_miss_player(self) -> str | None:
        seat = self._setup.deal_miss_seat
        return None if seat is None else self._ctx.players[seat]

    @property
    def eliminated(self) -> tuple[str, ...]:
        """The players the declarer eliminated (6마, 7마; table.eliminated)."""
        return self._setup.eliminated

    @property
    def eliminations(self) -> tuple:
        """The declarer's elimination calls in order: (card or None, player or None) each."""
        return self._setup.eliminations

    @property
    def history(self) -> tuple:
        actions = []
        node = self._history
        while node is not None:
            actions.append(node[0])
            node = node[1]
        return tuple(reversed(actions))

    @property
    def trump(self) -> int | None:
        contract = self._setup.contract
        return None if contract is None else contract.trump

    @property
    def mighty(self) -> int:
        """The Mighty card of the current contract (the ruleset's Mighty before one exists)."""
        contract = self._setup.contract
        return mighty_card(self._ctx.rules, contract.trump if contract else None)

    def __repr__(self) -> str:
        return (
            f"<HandState {self.phase} trick {self.trick_number} to_move={self.to_move} "
            f"contract={format_bid(self.contract) if self.contract else None}>"
        )


new_object = object.__new__
tuple_new = tuple.__new__


def mutable_copy(state: HandState) -> HandState:
    """A copy of a state for apply() to fill in (the caller never sees it change)."""
    return state._clone()


# --- starting a hand ----------------------------------------------------------------------------


def new_hand(
    rules: Ruleset,
    players: Sequence[str],
    dealer: str,
    deal: dict[str, list[int]] | None,
    opener: str | None = None,
    *,
    deal_masks: tuple[int, ...] | None = None,
) -> HandState:
    """The state before the first call: players in playing order, the dealer, the deal (None for
    open cards) and the election's opener (default: ``election.opener`` without history).

    With six or seven the dealer deals and sits the hand out (docs/rules.md §9): a dealer who
    is not one of the five is accepted when the opener is named.

    ``deal_masks``: the hands' masks in playing order, where the caller has already checked the
    deal as the deal check would (record_values.read_plain_deal: one deck, every card of it dealt
    once, the sizes right); ``deal`` then maps each player and the kitty to its cards."""
    tables = rule_tables(rules)
    # ghost 4마: the ghost sits last (hand/seats.py); 허니문: each friend hand after its player
    players = seats(rules, players) if tables.extra_seats else tuple(players)
    seating = seating_for(players, tables.n)
    seat_of = seating.seat_of
    if tables.extra_seats:  # the ghost's, 허니문's friend hands, 시흥 은마's dummy
        if (
            (dealer == GHOST or opener == GHOST)
            and rules.table.ghost
            or rules.table.partner_hands
            and (is_partner_hand(dealer) or is_partner_hand(opener))
        ):
            raise MightyError(
                _(
                    "the ghost never deals nor opens (table.ghost): dealer "
                    "{dealer!r}, opener {opener!r}"
                ).format(dealer=dealer, opener=opener)
            )
        if rules.table.dummy and DUMMY in (dealer, opener):  # 시흥 은마 (elimination.py)
            raise MightyError(
                _(
                    "the dummy never deals nor opens (table.dummy): dealer "
                    "{dealer!r}, opener {opener!r}"
                ).format(dealer=dealer, opener=opener)
            )
    if dealer not in seat_of and (opener is None or not isinstance(dealer, str) or not dealer):
        raise MightyError(
            _(
                "dealer {dealer} is not one of the players {players} (a dealer "
                "sitting the hand out needs the opener named)"
            ).format(dealer=repr(dealer), players=", ".join(players))
        )
    if deal_masks is None:
        if deal is not None and rules.table.decks == 2:  # two decks: first copy 0, then 1
            deal = assign_copies(deal)
        deal_masks = (
            check_deal(
                deal,
                players,
                tables.kitty_size,
                tables.deck_mask,
                tables.valid,
                tables.hand_size,
                tables.undealt,
            )
            if deal is not None
            else None
        )
    ctx = HandContext(rules, players, seating, dealer, deal, deal_masks, tables)
    if opener is None:
        seat = seat_of[dealer]
        opener_seat = (seat + 1) % ctx.n if ctx.tables.opener_after_dealer else seat
        while ctx.silent >> opener_seat & 1:  # the ghost, a friend hand: the next player
            opener_seat = (opener_seat + 1) % ctx.n
    elif opener in seat_of:
        opener_seat = seat_of[opener]
    else:
        raise MightyError(
            _("opener {opener} is not one of the players {players}").format(
                opener=repr(opener), players=", ".join(players)
            )
        )
    setup = new_object(HandSetup)
    setup.calls = ()
    setup.standing = None
    setup.standing_seat = None
    setup.passed = ctx.silent  # the ghost and 허니문's friend hands never bid
    setup.consecutive = 0
    setup.opener = opener_seat
    setup.deal_miss_seat = None
    setup.declarer = None
    setup.bid = None
    setup.contract = None
    setup.discards = None
    setup.discard_known = False
    setup.friend_call = None
    setup.eliminations = ()  # 6마/7마: the declarer's elimination calls, in order
    setup.eliminated = ()  # the players they eliminated
    setup.friend2 = None  # the second called card's friend (friend.called_cards = 2)
    state = new_object(HandState)
    state._ctx = ctx
    state._setup = setup
    state._contract = None
    state.phase = "election"
    state._to_move = opener_seat
    state._hands = deal_masks
    state._trick = ()
    state._trick_mask = 0
    state._led_suit = NO_SUIT
    state._call = 0  # the called jokers' bits (none)
    state.trick_number = 1
    state.tricks = ()
    state._points = (0,) * ctx.n
    state._played = 0
    state._trump_played = False
    state._friend = None
    state.friend_revealed = False
    state._friend_led = False
    state._voids = ((),) * ctx.n if ctx.open else None
    state._history = None
    state._legal = None
    return state


#: Each phase as a refusal names it: its label (the message's prefix) and when it is.
PHASE_LABELS = {
    "election": N_("election"),
    "elimination": N_("elimination"),
    "redistribution": N_("redistribution"),
    "exchange": N_("exchange"),
    "friend": N_("friend"),
    "play": N_("play"),
    "done": N_("done"),
    "deal_miss": N_("deal_miss"),
    "redeal": N_("redeal"),
}
PHASE_TIMES = {
    "election": N_("during the election"),
    "elimination": N_("during the elimination"),
    "redistribution": N_("during the redistribution"),
    "exchange": N_("during the exchange (discard)"),
    "friend": N_("during the friend call"),
    "play": N_("during trick {number}"),
    "done": N_("during the end of the hand"),
    "deal_miss": N_("during a deal miss"),
    "redeal": N_("during a redeal (everyone passed)"),
}


def phase_error(state: HandState, what: str, error: type) -> IllegalAction:
    """``what`` (already translated) refused because the hand is in another phase."""
    when = _(PHASE_TIMES[state.phase]).format(number=state.trick_number)
    return error(
        _("{phase}: {what} is not possible {when}").format(
            phase=_(PHASE_LABELS[state.phase]), what=what, when=when
        )
    )
