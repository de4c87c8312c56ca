"""A recorded hand (the outcome only, as a score-keeper writes it) validated and scored, and a
deal miss settled: who was eliminated, the friends, the contract and the points taken checked
against the ruleset, the first violation a :class:`RecordError` naming the hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Bid
from ..errors import RecordError
from ..hand.actions import is_trick_call
from ..hand.honeymoon import fold_deltas, partner_of, partner_seats
from ..hand.seats import DUMMY, GHOST, ghost_score
from ..ruleset import Ruleset
from ..scoring import score_hand, seat_deltas
from ..session import settle_pot
from ..translation import _
from .outcome import HandOutcome, friend_possible
from .values import (
    read_name,
)


def recorded_eliminated(
    rules: Ruleset,
    hand: dict,
    players: Sequence[str],
    declarer: str,
    friend: str | None,
    index: int,
) -> list[str]:
    """6마, 7마: who the declarer eliminated in a recorded outcome (``eliminated = ["Ed"]``,
    table.eliminated of them): they play no trick and score nothing."""
    count = rules.table.eliminated
    given = hand.get("eliminated")
    if rules.table.dummy:
        return _dummy_eliminated(given, players, declarer, index)
    if given is None:
        if count:
            raise RecordError(
                _(
                    "hand {index}: eliminated: {ruleset} eliminates {count} "
                    "(table.eliminated): say who (eliminated = [...])"
                ).format(index=index, ruleset=rules.name, count=count)
            )
        return []
    if not count:
        raise RecordError(
            _(
                "hand {index}: eliminated: nobody is eliminated under {ruleset} "
                "(table.eliminated = 0)"
            ).format(index=index, ruleset=rules.name)
        )
    names = [read_name(name, players, index, "eliminated") for name in given]
    if len(names) != count or len(set(names)) != count:
        raise RecordError(
            _(
                "hand {index}: eliminated: expected {count} distinct players "
                "(table.eliminated), got {given}"
            ).format(index=index, count=count, given=len(names))
        )
    if declarer in names:
        raise RecordError(
            _(
                "hand {index}: eliminated: {player} is the declarer; the eliminated play no trick"
            ).format(index=index, player=declarer)
        )
    if friend in names:
        raise RecordError(
            _(
                "hand {index}: eliminated: {player} is the friend; the eliminated play no trick"
            ).format(index=index, player=friend)
        )
    return names


def _dummy_eliminated(given: Any, players: Sequence[str], declarer: str, index: int) -> list[str]:
    """시흥 은마 (table.dummy): whose own hand the declarer eliminated, a player or ``dummy``.
    It changes no score (an eliminated player plays the dummy's hand), so a record may leave it
    out; the declarer cannot be eliminated, the friend can (the dummy's hand held the card)."""
    if given is None:
        return []
    names = [
        DUMMY
        if isinstance(name, str) and name.strip().lower() == DUMMY
        else read_name(name, players, index, "eliminated")
        for name in given
    ]
    if len(names) != 1:
        raise RecordError(
            _(
                'hand {index}: eliminated: expected one player or "dummy" (시흥 '
                "은마: table.dummy), got {given}"
            ).format(index=index, given=len(names))
        )
    if names[0] == declarer:
        raise RecordError(
            _("hand {index}: eliminated: {player} is the declarer and cannot be eliminated").format(
                index=index, player=declarer
            )
        )
    return names


def score_outcome(
    rules: Ruleset,
    players: Sequence[str],
    declarer: str,
    contract: Bid,
    friend: str | None,
    taken: int,
    *,
    all_players: Sequence[str] | None = None,
    index: int = 1,
    friend_call: str | None = None,
    eliminated: Sequence[str] = (),
    friend2: str | None = None,
) -> HandOutcome:
    """Validate and score a recorded outcome (what a score-keeper writes down). A declarer
    alone after a first- or last-trick ``friend_call`` is doubled as
    ``scoring.no_friend_by_trick_call`` says. ``friend2``: the second friend where two cards
    are called (friend.called_cards = 2, 동대전 7마), each friend taking a friend's share and
    the declarer the balance; ``taken`` is then the ruling party's count with the friends'
    cards weighted (scoring.friend_weight), as the table compares it with the bid."""
    if declarer not in players:
        raise RecordError(
            _("hand {index}: declarer {player} does not play this hand").format(
                index=index, player=repr(declarer)
            )
        )
    if friend2 is not None:
        _check_second_friend(rules, players, declarer, friend, friend2, eliminated, index)
    ghost = rules.table.ghost and friend == GHOST  # ghost 4마: the ghost friend (hand/seats.py)
    if rules.table.partner_hands:  # 허니문: his own friend hand, always (honeymoon.py)
        if friend != partner_of(declarer):
            raise RecordError(
                _(
                    "hand {index}: friend = {friend}: the declarer's friend is his "
                    "friend hand {partner} (table.partner_hands)"
                ).format(
                    index=index, friend=repr(friend or "none"), partner=repr(partner_of(declarer))
                )
            )
    elif friend is not None and not ghost:
        if friend not in players:
            raise RecordError(
                _("hand {index}: friend {player} does not play this hand").format(
                    index=index, player=repr(friend)
                )
            )
        if friend == declarer:
            raise RecordError(
                _(
                    "hand {index}: {declarer} cannot be his own friend (write "
                    'friend = "none" for a declarer playing alone)'
                ).format(index=index, declarer=declarer)
            )
        if not friend_possible(rules):
            raise RecordError(
                _(
                    "hand {index}: friend = {friend}, but the declarer always "
                    'plays alone under {ruleset} (friend = "none")'
                ).format(index=index, friend=repr(friend), ruleset=rules.name)
            )
    elif not (
        rules.friend.no_friend
        or rules.friend.fake
        or rules.friend.first_trick
        or rules.friend.last_trick
    ):
        raise RecordError(
            _(
                "hand {index}: {declarer} played alone but {ruleset} allows no friendless hand"
            ).format(index=index, declarer=declarer, ruleset=rules.name)
        )
    trick_call = is_trick_call(friend_call)
    doubled = (
        None if friend is not None else (rules.scoring.no_friend_by_trick_call or not trick_call)
    )
    score = score_hand(
        rules,
        contract,
        taken,
        has_friend=friend is not None,
        no_friend_doubling=doubled,
        friends=2 if friend2 else 1,
    )
    deltas = dict.fromkeys(all_players or players, 0)
    playing = [p for p in players if p not in eliminated]
    if rules.table.partner_hands:
        deltas.update(fold_deltas(seat_deltas(score, partner_seats(players), declarer, friend)))
    elif ghost:
        score = ghost_score(score, rules, friend)
        deltas.update(seat_deltas(score, playing + [GHOST], declarer, friend))
        del deltas[GHOST]  # the ghost is nobody: it neither pays nor receives
    else:
        deltas.update(seat_deltas(score, playing, declarer, friend, friend2))
    return HandOutcome(
        index=index,
        status="scored",
        players=list(players),
        declarer=declarer,
        contract=contract,
        friend=friend,
        taken=taken,
        score=score,
        deltas=deltas,
        eliminated=list(eliminated),
        friend2=friend2,
    )


def _check_second_friend(
    rules: Ruleset,
    players: Sequence[str],
    declarer: str,
    friend: str | None,
    friend2: str,
    eliminated: Sequence[str],
    index: int,
) -> None:
    """A second friend needs a two-card call (friend.called_cards = 2), a first friend, and
    a third player of the hand."""
    if rules.friend.called_cards != 2:
        raise RecordError(
            _(
                "hand {index}: friend2 = {player}: {ruleset} calls one card, so "
                "the declarer has one friend at most (friend.called_cards)"
            ).format(index=index, player=repr(friend2), ruleset=rules.name)
        )
    if friend is None:
        raise RecordError(
            _('hand {index}: friend2 = {player} without a first friend (friend = "none")').format(
                index=index, player=repr(friend2)
            )
        )
    if friend2 in (declarer, friend) or friend2 in eliminated:
        raise RecordError(
            _(
                "hand {index}: friend2 = {player}: the second friend is another "
                "player than the declarer and the first friend"
            ).format(index=index, player=repr(friend2))
        )


def deal_miss_outcome(
    rules: Ruleset,
    players: Sequence[str],
    index: int,
    dealer: str,
    miss: str,
    pot: int,
    zero: dict[str, int],
) -> HandOutcome:
    move = settle_pot(rules, pot, "deal_miss", dealer=dealer, deal_miss=miss)
    deltas = dict(zero)
    for player, amount in move.deltas.items():
        deltas[player] += amount
    return HandOutcome(
        index=index,
        status="deal_miss",
        players=list(players),
        dealer=dealer,
        deltas=deltas,
        deal_miss_player=miss,
        pot_after=move.pot_after,
    )
