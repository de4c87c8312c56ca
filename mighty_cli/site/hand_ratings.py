"""The league's ratings as the site reads them (:mod:`mighty_cli.league.rating` rates): from the
store's rows grouped by hand (:func:`league_ratings`; ``round plan --seat-by rating`` reads them
too), or hand by hand as the site's pass over the sessions reads their pages' lines
(:class:`RatingPass`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..engine.cards import parse_bid
from ..engine.errors import MightyError
from ..league.rating import RatedHand, Ratings, rate
from ..store.ledger.lookups import PLAYING_ROLES
from .page_reads import HandLine


def league_ratings(rows: Iterable[tuple], names: dict[int, str]) -> Ratings:
    """The rating of every player from the store's rows, grouped by hand in order."""

    def hands() -> Iterator[RatedHand | None]:
        current = None
        members: list[tuple] = []
        for number, contract, player, role, taken in rows:
            if number != current:
                if members:
                    yield _rated(members)
                current, members = number, []
            members.append((contract, names.get(player, str(player)), role, taken))
        if members:
            yield _rated(members)

    return rate(h for h in hands() if h is not None)


def rated_line(hand: HandLine) -> RatedHand | None:
    """A session page's hand as the rating takes it (None: not rated), its players in seat
    order as :func:`league_ratings` reads them."""
    return _rated(
        [(hand.contract, x.name, x.role, hand.taken) for x in hand.seats if x.role in PLAYING_ROLES]
    )


class RatingPass:
    """The league's ratings as the site's pass over the sessions reads their hands: those
    ``given`` (a club's templates read them first), else each hand rated as it comes when
    the sessions come ``in_order`` of their hands' numbers, else (a round's tables
    interleave) the rated hands held and rated in that order once all are read."""

    def __init__(self, given: Ratings | None, in_order: bool) -> None:
        self.given = given
        self.streamed = Ratings() if given is None and in_order else None
        self.held: list[tuple[int, RatedHand]] = []

    def add(self, hand: HandLine) -> None:
        if self.given is not None:
            return
        rated = rated_line(hand)
        if rated is None:
            return
        if self.streamed is not None:
            self.streamed.update(rated)
        else:
            self.held.append((hand.number, rated))

    def ratings(self) -> Ratings:
        if self.given is not None:
            return self.given
        if self.streamed is not None:
            return self.streamed
        held, self.held = self.held, []
        return rate(hand for _, hand in sorted(held, key=lambda item: item[0]))


def _rated(members: list[tuple]) -> RatedHand | None:
    """A hand as the rating takes it from its members' (contract, name, role, taken), or None
    (a hand with no contract, declarer or points taken is not rated)."""
    contract, taken = members[0][0], members[0][3]
    try:
        level = parse_bid(contract).number
    except (MightyError, AttributeError):
        return None
    declarer = next((n for _, n, role, _ in members if role == "declarer"), None)
    if declarer is None or taken is None:
        return None
    friends = [n for _, n, role, _ in members if role == "friend"]  # 동대전 7마: two
    return RatedHand(
        declarer,
        friends[0] if friends else None,
        [n for _, n, role, _ in members if role == "opponent"],
        level,
        taken,
        friends[1] if len(friends) > 1 else None,
    )
