"""Session bookkeeping (pure, shared by hand records and the league store): who deals, opens and sits out next, and the deposit pot.

docs/rules.md §9. No database here: the store hands in what it knows about the previous hand and
gets back a proposal (the table may overrule it) or the pot's movements.

* Dealer: the previous friend (the declarer if he played alone), or as ``session.next_dealer``
  says; after a deal miss ``deal_miss.next_dealer``; after everyone passed
  ``session.all_pass_dealer``. The first dealer of a session is chosen (default: the first seat).
* Who sits out is counted against the ruleset's table (``table.players``: five, or 2-7 for 2마
  to 7마): one more present than it, the dealer; two more, as follows. So a 7-player club plays
  7마 (standard-7) with nobody out, or 5마 with two out.
* Six present: the dealer deals and sits the hand out (000 §3.3.1); with ``session.sit_out =
  "declarer_if_opposition_won"`` a beaten declarer deals and sits out instead. Seven present: the
  previous declarer and friend sit out (000 §3.4.1); without them (a session's first hand, a
  friendless hand) the dealer and the player after him.
* A deal miss is redealt among the same five. Its redeal is dealt as ``deal_miss.next_dealer``
  says (000 §3.2.1: the declaring player) and opened by its dealer (as ``election.opener``
  says), or under ``deal_miss.redeal_opener = "same"`` by whoever opened the missed deal.
* Deposit pot (001 §2): each deal miss pays ``deposit.per_deal_miss`` into it; a made contract
  takes it all (``deposit.won_by``); a failed one leaves it for the next, except under
  ``deposit.won_by = "winning_team"`` (000 §8), where the opposition shares it equally (the
  remainder of the division stays; the caller passes the hand's ``players``).
* A duplicate table deals each deal from a fixed seat, in turn (:func:`duplicate_proposal`).
* The end (001 §1.9, 002): after ``session.hands_per_session`` scored hands, or as soon as a
  player's ``session.starting_points`` stack plus his session total is 0 or less
  (:func:`session_over`, :func:`find_session_end`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields

from .errors import MightyError
from .ruleset import Ruleset
from .scoring import pot_shares
from .translation import _, ngettext


@dataclass(frozen=True)
class PreviousHand:
    """What succession needs to know about the hand before."""

    status: str  # scored | deal_miss | redeal
    players: tuple[str, ...]  # the five who played
    dealer: str | None
    declarer: str | None = None
    friend: str | None = None
    success: bool | None = None
    deal_miss: str | None = None
    opener: str | None = None  # who opened the hand's election (None: not known)


_PREVIOUS_FIELDS = tuple(spec.name for spec in fields(PreviousHand))
_new_object = object.__new__


def previous_hand(values: tuple) -> PreviousHand:
    """``PreviousHand(*values)``, its fields set at once: the frozen dataclass's __init__ sets
    each through object.__setattr__, a sixth of a replayed hand's bookkeeping (it has no
    __post_init__; tests/engine/test_replay_fast_hand.py holds the two equal)."""
    previous = _new_object(PreviousHand)
    previous.__dict__.update(zip(_PREVIOUS_FIELDS, values))
    return previous


@dataclass(frozen=True)
class Proposal:
    """Who should deal, open and play the next hand, and who sits out."""

    dealer: str
    opener: str
    players: tuple[str, ...]
    sitting_out: tuple[str, ...]


def seats_range(rules: Ruleset) -> tuple[int, int]:
    """How many may be present at a session: the ruleset's table (table.players), and up to
    two more taking turns to sit out (000 §3.3.1, §3.4.1: six or seven present at 5마)."""
    return rules.table.players, rules.table.players + 2


def playing_order(seating: Sequence[str], rules: Ruleset) -> list[str]:
    """Seats are entered clockwise; play goes clockwise or counterclockwise by the ruleset."""
    seating = list(seating)
    if rules.election.direction == "counterclockwise":
        return seating[:1] + seating[:0:-1]
    return seating


def _after(order: Sequence[str], player: str, skip: Sequence[str] = ()) -> str:
    """The next player after ``player`` in ``order``, passing over ``skip``."""
    start = order.index(player)
    for step in range(1, len(order) + 1):
        candidate = order[(start + step) % len(order)]
        if candidate not in skip:
            return candidate
    return player


def propose(
    rules: Ruleset,
    seating: Sequence[str],
    previous: PreviousHand | None,
    first_dealer: str | None = None,
    *,
    in_playing_order: bool = False,
) -> Proposal:
    """The proposal for the next hand of a session (docs/rules.md §9). ``seating`` is clockwise
    around the table, or already in playing order (a hand record's players) when
    ``in_playing_order`` is set."""
    order = list(seating) if in_playing_order else playing_order(seating, rules)
    extra = len(order) - rules.table.players  # who sits out (000 §3.3.1, §3.4.1)
    if previous is None:
        dealer = first_dealer if first_dealer in order else order[0]
        out = _first_sitters(order, dealer, extra)
    elif previous.status in ("deal_miss", "redeal"):
        dealer = _redeal_dealer(rules, order, previous)
        out = tuple(p for p in order if p not in previous.players)
    else:
        dealer = _next_dealer(rules, order, previous)
        losers = losing_team(rules, order, previous)
        if losers is not None and len(losers) >= extra >= 1:  # 세종: picked at the table
            out = _first_sitters(
                [p for p in order if p in losers], _first_loser(order, dealer, losers), extra
            )
        elif extra == 1:
            out = (dealer,)
        elif extra == 2 and previous.friend and previous.declarer:
            out = tuple(p for p in order if p in (previous.declarer, previous.friend))
        else:
            out = _first_sitters(order, dealer, extra)
    players = tuple(p for p in order if p not in out)
    return Proposal(dealer, opener_for(rules, order, players, dealer, previous), players, out)


def duplicate_proposal(rules: Ruleset, seating: Sequence[str], deal: int) -> Proposal:
    """The proposal for deal ``deal`` (1, 2, ...) of a duplicate table (``round start
    --duplicate``): as bridge fixes a board's dealer, every table of the round deals it from the
    same seat, the seats in turn from the first (deal 1 from the first seat, deal 2 from the
    next in playing order, ...), and opens and sits out as a session's first hand would with
    that dealer. So every table of one size plays each deal in the same situation, whatever
    happened at it before; the ruleset's succession (the friend deals next, the losers sit out)
    does not apply between deals."""
    order = playing_order(seating, rules)
    return propose(rules, order, None, order[(deal - 1) % len(order)], in_playing_order=True)


def losing_team(
    rules: Ruleset, order: Sequence[str], previous: PreviousHand | None
) -> tuple[str, ...] | None:
    """Under ``session.sit_out = "losing_team"`` (세종), who may sit the next hand out: the
    previous hand's losing side (the declarer and friend when the contract failed, else the
    opposition) among those present; None under another rule, or with no scored hand before
    (then the dealer sits out, as usual)."""
    if (
        rules.session.sit_out != "losing_team"
        or previous is None
        or previous.status != "scored"
        or previous.success is None
    ):
        return None
    ruling = {previous.declarer, previous.friend}
    lost = [p for p in previous.players if (p in ruling) != bool(previous.success)]
    return tuple(p for p in order if p in lost) or None


def check_sitting_out(
    rules: Ruleset, order: Sequence[str], previous: PreviousHand | None, out: Sequence[str]
) -> None:
    """Refuse sitters the ruleset does not allow: under ``session.sit_out = "losing_team"``
    only players of the previous hand's losing team sit out."""
    losers = losing_team(rules, order, previous)
    if losers is None or len(losers) < len(out):
        return
    wrong = [p for p in out if p not in losers]
    if wrong:
        raise MightyError(
            _(
                "{player} sits out, but was not of the losing team ({team}): "
                "someone of it sits out (session.sit_out = losing_team)"
            ).format(player=wrong[0], team=", ".join(losers))
        )


def _first_loser(order: Sequence[str], dealer: str, losers: Sequence[str]) -> str:
    """The proposal among the losing team: the first of it from the dealer on."""
    start = order.index(dealer) if dealer in order else 0
    return next(
        order[(start + step) % len(order)]
        for step in range(len(order))
        if order[(start + step) % len(order)] in losers
    )


def _first_sitters(order: Sequence[str], dealer: str, extra: int) -> tuple[str, ...]:
    sitters = [dealer] if extra >= 1 else []
    while len(sitters) < extra:
        sitters.append(_after(order, sitters[-1]))
    return tuple(p for p in order if p in sitters)


def _redeal_dealer(rules: Ruleset, order: Sequence[str], previous: PreviousHand) -> str:
    dealer = previous.dealer or previous.players[0]
    if previous.status == "deal_miss":
        how = rules.deal_miss.next_dealer
        if how == "declaring_player" and previous.deal_miss:
            return previous.deal_miss
    else:
        how = "next_player" if rules.session.all_pass_dealer == "next_player" else "same"
    return _after(order, dealer) if how == "next_player" and dealer in order else dealer


def _next_dealer(rules: Ruleset, order: Sequence[str], previous: PreviousHand) -> str:
    dealer = (
        previous.dealer if previous.dealer is not None and previous.dealer in order else order[0]
    )
    if (
        rules.session.sit_out == "declarer_if_opposition_won"
        and len(order) > rules.table.players
        and previous.success is False
        and previous.declarer
    ):
        return previous.declarer
    how = rules.session.next_dealer
    if how == "friend":  # a ghost friend (ghost 4마) deals nothing: the declarer does
        friend = previous.friend if previous.friend in order else None
        return friend or previous.declarer or dealer
    if how == "declarer":
        return previous.declarer or dealer
    if how == "same":
        return dealer
    return _after(order, dealer)


def opener_for(
    rules: Ruleset,
    order: Sequence[str],
    players: Sequence[str],
    dealer: str,
    previous: PreviousHand | None,
) -> str:
    """Who opens the election (election.opener); never a player sitting out."""
    how = rules.election.opener
    candidate: str | None = dealer
    if (
        previous is not None
        and previous.status == "deal_miss"
        and previous.opener
        and rules.deal_miss.redeal_opener == "same"
    ):
        candidate = previous.opener  # 001 §3.2: the opener is set by the last hand played
    elif how == "after_dealer":
        candidate = None
    elif how != "dealer" and previous is not None and previous.status == "scored":
        if how == "previous_declarer" or previous.success:
            candidate = previous.declarer
        else:
            candidate = previous.friend or previous.declarer
    if candidate is not None and candidate in players:
        return candidate
    # "after_dealer", or the one who would open sits out: the next player after the dealer.
    sitting_out = [p for p in order if p not in players]
    return _after(order, dealer, skip=sitting_out)


@dataclass
class PotMove:
    """What the deposit pot did in one hand: who paid in or won how much, and what is left."""

    deltas: dict[str, int] = field(default_factory=dict)
    pot_after: int = 0


def settle_pot(
    rules: Ruleset,
    pot: int,
    status: str,
    *,
    dealer: str | None = None,
    deal_miss: str | None = None,
    declarer: str | None = None,
    friend: str | None = None,
    success: bool | None = None,
    players: Sequence[str] = (),
    friend2: str | None = None,
) -> PotMove:
    """The pot's movement in one hand, given the pot before it (001 §2; 000 §8); ``friend2``:
    the second friend of a two-card call (동대전 7마), of the ruling party too."""
    if status == "deal_miss":
        fee = rules.deposit.per_deal_miss
        payer = deal_miss if rules.deposit.paid_by == "declaring_player" else dealer
        if fee and payer:
            return PotMove({payer: -fee}, pot + fee)
        return PotMove({}, pot)
    if status == "scored" and success and pot > 0 and declarer:
        return PotMove(dict(pot_shares(pot, rules, declarer, friend, friend2)), 0)
    if (
        status == "scored"
        and success is False
        and pot > 0
        and declarer
        and players
        and rules.deposit.won_by == "winning_team"
    ):
        opposition = [p for p in players if p not in (declarer, friend, friend2)]
        share = pot // len(opposition)
        if share:
            return PotMove(dict.fromkeys(opposition, share), pot - share * len(opposition))
    return PotMove({}, pot)


# --- the end of a session -----------------------------------------------------------------------


def counts_toward_session(status: str) -> bool:
    """Whether a hand counts toward ``session.hands_per_session``: scored hands only.

    001 §1.9 counts games (게임) played to a result, and 002 washes a deal-miss round out
    (そのラウンドは流れます): a deal miss or an all-pass redeal is dealt again, so no game was
    played. Counting them would also let a run of bad deals cut a session short, which no
    source suggests. (A deal miss's deposit still counts against the stack: it is points.)
    """
    return status == "scored"


def session_over(
    rules: Ruleset, hands_played: int, session_totals: Mapping[str, int]
) -> str | None:
    """Why the session is complete (None while it goes on): ``hands_played`` scored hands
    (:func:`counts_toward_session`) and each player's points this session, deposit pot
    included. The reason names the rule, e.g. ``session.hands_per_session = 8: 8 hands
    played``; when both rules hold, both are named."""
    reasons = []
    limit = rules.session.hands_per_session
    if limit and hands_played >= limit:
        reasons.append(
            ngettext(
                "session.hands_per_session = {limit}: {count} hand played",
                "session.hands_per_session = {limit}: {count} hands played",
                hands_played,
            ).format(limit=limit, count=hands_played)
        )
    stack = rules.session.starting_points
    if stack:
        broke = sorted(
            (stack + total, name) for name, total in session_totals.items() if stack + total <= 0
        )
        if broke:
            who = ", ".join(
                _("{name} is at {left} ({change:+d} this session)").format(
                    name=name, left=left, change=left - stack
                )
                for left, name in broke
            )
            reasons.append(
                _("session.starting_points = {stack}: {who}").format(stack=stack, who=who)
            )
    return "; ".join(reasons) or None


def has_session_end(rules: Ruleset) -> bool:
    """Whether the ruleset ends sessions by itself (else only the table ends them)."""
    return bool(rules.session.hands_per_session or rules.session.starting_points)


@dataclass
class SessionTally:
    """A session's running count of scored hands and each player's total, for
    :func:`session_over` as hands come in one by one."""

    hands_played: int = 0
    totals: dict[str, int] = field(default_factory=dict)

    def add(self, rules: Ruleset, status: str, deltas: Mapping[str, int]) -> str | None:
        """Count one more hand; why the session is over after it (None while it goes on)."""
        self.hands_played += counts_toward_session(status)
        for name, delta in deltas.items():
            self.totals[name] = self.totals.get(name, 0) + delta
        return session_over(rules, self.hands_played, self.totals)


@dataclass(frozen=True)
class SessionEnd:
    """Where a session's rules ended it: after its ``position``-th hand (0-based) and why."""

    position: int
    reason: str


def find_session_end(
    rules: Ruleset, hands: Iterable[tuple[str, Mapping[str, int]]]
) -> SessionEnd | None:
    """The first hand after which the session is over, given each hand's status and every
    player's change (deposit pot included), in order; None if it never ends."""
    if not has_session_end(rules):
        return None
    tally = SessionTally()
    for position, (status, deltas) in enumerate(hands):
        reason = tally.add(rules, status, deltas)
        if reason:
            return SessionEnd(position, reason)
    return None
