"""A hand stored at a duplicate round's table, checked against the round's deal.

Every table of a duplicate round (``round start --duplicate --seed S``) deals its hand k from
the round's seed, so every table of one size gets the same cards in the same seats; deal k is
dealt from a fixed seat (:func:`mighty_cli.engine.session.duplicate_proposal`), so the same players
sit out and the same one opens. A hand stored at such a table is checked against its deal: its
dealer and the players who played it, a refereed hand's cards, and a recorded hand's friend (the
player holding the called card). The round's results are gathered by
:mod:`mighty_cli.store.rounds.duplicate`.

Each function raises a project error for bad input, so the caller's rollback leaves the
database exactly as it was.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.cards import parse_card, parse_cards
from ...engine.cards.deck import UNDEALT, hand_seed
from ...engine.errors import MightyError
from ...engine.hand.draft import seeded_deal
from ...engine.hand.seats import arranged_deal
from ...engine.ruleset import Ruleset
from ...engine.session import Proposal
from ...engine.translation import _
from .. import LeagueError
from ..models import LeagueSession
from .succession import DuplicateDeal


def expected_deal(
    rules: Ruleset, seed: int, deal: int, players: Sequence[str]
) -> dict[str, list[int]]:
    """Deal ``deal`` of a duplicate round, dealt to ``players`` (those playing it, in playing
    order) as the referee deals it (``mighty deal --seed S`` hand k)."""
    return arranged_deal(seeded_deal(rules, hand_seed(seed, deal), list(players)))


def check_duplicate_hand(
    rules: Ruleset,
    session: LeagueSession,
    duplicate: DuplicateDeal,
    proposal: Proposal,
    five: Sequence[str],
    dealer: str,
    hand: dict,
    refereed: bool,
) -> None:
    """Refuse a hand that is not the deal every table of the round plays: another dealer,
    other players, other cards (a refereed hand), or a friend who does not hold the called card
    (a recorded hand)."""
    deal = duplicate.deal
    where = _("table {table}, deal {deal} of duplicate round {round}").format(
        table=session.table_number, deal=deal, round=duplicate.round
    )
    if dealer != proposal.dealer:
        raise LeagueError(
            _("{where}: {dealer} deals it at every table, not {given}").format(
                where=where, dealer=proposal.dealer, given=dealer
            )
        )
    if set(five) != set(proposal.players):
        raise LeagueError(
            _("{where}: {players} play it at every table").format(
                where=where, players=", ".join(proposal.players)
            )
        )
    cards = expected_deal(rules, duplicate.seed, deal, proposal.players)
    if refereed and "deal" in hand:
        copies = rules.table.decks == 2
        for who, dealt in cards.items():
            given = hand["deal"].get(who)
            held = parse_cards(given, copies=copies) if isinstance(given, str) else given
            if held is None or sorted(held) != sorted(dealt):
                raise LeagueError(
                    _(
                        "{where}: these are not the round's cards ({who} was dealt "
                        "others); referee it with the round's deal"
                    ).format(where=where, who=who)
                )
    elif not refereed:
        _check_friend(rules, cards, hand, where)


def deal_decides_friend(rules: Ruleset) -> bool:
    """Whether a called card stays with whoever was dealt it, so a duplicate deal decides who
    the friend is (a friend is entered with the card called): one deck, nobody eliminated
    (whose cards go round again), no ghost, dummy or friend hands."""
    t = rules.table
    return (
        t.decks == 1
        and not t.eliminated
        and not t.ghost
        and not t.dummy
        and not t.partner_hands
        and rules.friend.called_cards == 1
    )


def _check_friend(rules: Ruleset, cards: dict[str, list[int]], hand: dict, where: str) -> None:
    call, declarer = hand.get("friend_call"), hand.get("declarer")
    if not declarer or not deal_decides_friend(rules):
        return
    if not call:
        if hand.get("friend") not in (None, "", "none"):  # the deal says who holds the card
            raise LeagueError(
                _(
                    "{where}: the deal decides who the friend is: give the card "
                    "the declarer called (--friend-call, e.g. --friend-call "
                    "SK)"
                ).format(where=where)
            )
        return
    try:
        card = parse_card(str(call))
    except (MightyError, ValueError):
        return  # a call that is not a card (the first trick's winner, "mighty"): not checked
    holder: str | None = next(
        (who for who, held in cards.items() if who not in ("kitty", UNDEALT) and card in held), None
    )
    friend = hand.get("friend")
    friend = None if friend in (None, "", "none") else friend
    expected = holder if holder != declarer else None
    if friend != expected:
        raise LeagueError(
            _("{where}: {card} was dealt to {holder}, so the friend is {friend}").format(
                where=where,
                card=call,
                holder=holder or _("the kitty"),
                friend=expected or _("none (the declarer played alone)"),
            )
        )
