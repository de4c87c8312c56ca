"""Corrections: amend, void and unvoid a hand, recompute every later hand and the pot, and log why.

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete
from sqlmodel import Session, select

from ...engine.hand.honeymoon import partner_of
from ...engine.ruleset import Ruleset
from ...engine.session import Proposal, settle_pot
from ...engine.translation import _
from ...league.standings import StandingChange, Standings, diff
from .. import LeagueError
from ..db import lock_league
from ..models import ChangeLog, Hand, HandPlayer, League, LeagueSession
from .hand_reads import HandView, find_hand, hand_views
from .hands import (
    check_five,
    evaluate_hand,
    hand_columns,
    member_row_dicts,
    outcome_dict,
    settle_hand_pot,
)
from .lookups import ensure_players, get_league, league_rules, log_change, seating
from .queries import standings
from .session_end import session_note
from .succession import pot_before
from .totals import add_hand, add_pot, fold


@dataclass
class Correction:
    """A hand amended, voided or restored, how the standings moved, and a note when the
    session's end rules now disagree with whether it ended (see :func:`session_note`)."""

    before: HandView
    after: HandView
    changes: list[StandingChange]
    hands_resettled: int
    session_note: str | None = None


def _correction(
    s: Session,
    league: League,
    rules: Ruleset,
    hand: Hand,
    before: HandView,
    before_table: Standings,
    resettled: int,
) -> Correction:
    after = hand_views(s, league, [hand])[0]
    session = s.get(LeagueSession, hand.session_id)
    return Correction(
        before,
        after,
        diff(before_table, standings(s, league.name)),
        resettled,
        session_note(s, league, rules, session),
    )  # type: ignore[arg-type]


def _hand_to_correct(s: Session, league_name: str, number: int) -> tuple[League, Ruleset, Hand]:
    """A league (locked against concurrent corrections), its rules, and one of its hands."""
    league = get_league(s, league_name)
    lock_league(s, league.id)  # type: ignore[arg-type]
    fold(s, league.id)  # type: ignore[arg-type]  (the totals count every hand; now keep them so)
    return league, league_rules(league), find_hand(s, league, number)


def amend_hand(
    s: Session, league_name: str, number: int, *, who: str, why: str, **changes: Any
) -> Correction:
    """Change an earlier hand's outcome; every later hand's pot is settled again, all in the
    caller's one transaction, and the change is logged.

    ``eliminated`` (6마, 7마, 시흥 은마: table.eliminated) names again who the declarer
    eliminated, checked as a recorded hand's are; left out, the hand keeps its own. A 6마/7마
    player eliminated scores nothing, so the hand's deltas change with him."""
    league, rules, hand = _hand_to_correct(s, league_name, number)
    if hand.voided:
        raise LeagueError(_("hand {number} is void; it cannot be amended").format(number=number))
    before_view = hand_views(s, league, [hand])[0]
    if hand.full:
        raise LeagueError(
            _(
                "hand {number} was refereed card by card; void it and import or "
                "referee it again instead of amending its outcome"
            ).format(number=number)
        )
    given = {k: v for k, v in changes.items() if v is not None}
    if not given:
        raise LeagueError(
            _(
                "nothing to amend: give at least one of --declarer, --contract, "
                "--friend, --taken/--opposition, --deal-miss, --dealer, --players, "
                "--eliminated, --note"
            )
        )
    if "eliminated" in given and not rules.table.eliminated:
        raise LeagueError(
            _(
                "hand {index}: eliminated: nobody is eliminated under {ruleset} "
                "(table.eliminated = 0)"
            ).format(index=number, ruleset=rules.name)
        )
    before_table = standings(s, league_name)
    present = seating(s, hand.session_id)
    five = check_five(
        given.get("players"),
        present,
        Proposal("", "", tuple(before_view.players), ()),
        rules.table.players,
    )
    dealer = given.get("dealer", before_view.dealer)
    if dealer not in present:
        raise LeagueError(
            _("--dealer {dealer!r} is not at session {session}").format(
                dealer=dealer, session=before_view.session
            )
        )
    merged = {
        "declarer": before_view.declarer,
        "contract": before_view.contract,
        "friend": before_view.friend or ("none" if before_view.declarer else None),
        "friend_call": before_view.friend_call,
        "taken": before_view.taken,
        "opposition": None,
        "deal_miss": before_view.deal_miss,
    }
    if "deal_miss" in given:
        merged = dict.fromkeys(merged) | {"deal_miss": given["deal_miss"]}
    elif any(k in given for k in ("declarer", "contract", "friend", "taken", "opposition")):
        merged["deal_miss"] = None
    for key in ("declarer", "contract", "friend", "friend_call", "taken", "opposition"):
        if key in given:
            merged[key] = given[key]
    if "opposition" in given:
        merged["taken"] = None
    if (
        rules.table.partner_hands
        and "declarer" in given
        and "friend" not in given
        and merged["friend"] not in (None, "none")
    ):
        merged["friend"] = partner_of(given["declarer"])  # 허니문: the declarer's own friend hand
    table = outcome_dict(**merged)
    # 동대전 7마: the second friend stays unless the friends are given again
    friend2 = given.get("friend2", None if "friend" in given else before_view.friend2)
    if friend2 and rules.friend.called_cards != 2:
        raise LeagueError(
            _(
                "--friend: give one friend, or two where the ruleset calls two "
                "cards (friend.called_cards = 2)"
            )
        )
    if friend2 and not merged["deal_miss"] and table.get("friend") != "none":
        table["friend2"] = friend2
    if "eliminated" in given:  # who the declarer eliminated, told again
        if merged["deal_miss"]:
            raise LeagueError(
                _(
                    "hand {number}: eliminated: the hand is a deal miss (딜 미스), "
                    "nobody was eliminated"
                ).format(number=number)
            )
        table["eliminated"] = list(given["eliminated"])
    elif before_view.eliminated and not merged["deal_miss"]:
        table["eliminated"] = before_view.eliminated  # 6마, 7마: the same players stay out
    outcome = evaluate_hand(rules, five, table, number)
    outcome.dealer = dealer
    pot = pot_before(s, league.id, number)  # type: ignore[arg-type]
    move = settle_hand_pot(rules, pot, outcome)
    old_pot_after = hand.pot_after
    add_hand(s, league.id, hand.id, -1)  # type: ignore[arg-type]
    ids = ensure_players(s, present + [p for p in move.deltas if p not in present])
    for key, value in hand_columns(rules, outcome, ids).items():
        setattr(hand, key, value)
    hand.pot_after = move.pot_after
    if "note" in given:
        hand.note = given["note"]
    s.add(hand)
    s.exec(delete(HandPlayer).where(HandPlayer.hand_id == hand.id))
    for member in member_row_dicts(outcome, present, outcome.deltas, move.deltas, ids, league.id):  # type: ignore[arg-type]
        s.add(HandPlayer(hand_id=hand.id, **member))
    s.flush()
    add_hand(s, league.id, hand.id)  # type: ignore[arg-type]
    resettled = _resettle(s, league, rules, number + 1, move.pot_after, old_pot_after)
    correction = _correction(s, league, rules, hand, before_view, before_table, resettled)
    log_change(
        s,
        "hand amend",
        who,
        why,
        league_id=league.id,
        hand_id=hand.id,
        before=before_view.to_json(),
        after=correction.after.to_json(),
    )
    return correction


def void_hand(s: Session, league_name: str, number: int, *, who: str, why: str) -> Correction:
    """Strike a hand from the league (it stays in the log); later pots are settled again."""
    league, rules, hand = _hand_to_correct(s, league_name, number)
    if hand.voided:
        raise LeagueError(_("hand {number} is already void").format(number=number))
    before_view = hand_views(s, league, [hand])[0]
    before_table = standings(s, league_name)
    pot = pot_before(s, league.id, number)  # type: ignore[arg-type]
    add_hand(s, league.id, hand.id, -1)  # type: ignore[arg-type]
    hand.voided = True
    s.add(hand)
    s.flush()
    resettled = _resettle(s, league, rules, number + 1, pot, hand.pot_after)
    correction = _correction(s, league, rules, hand, before_view, before_table, resettled)
    log_change(
        s,
        "hand void",
        who,
        why,
        league_id=league.id,
        hand_id=hand.id,
        before=before_view.to_json(),
        after={"voided": True},
    )
    return correction


def unvoid_hand(s: Session, league_name: str, number: int, *, who: str, why: str) -> Correction:
    """Restore a voided hand as it was recorded: its deposit pot is settled again from the pot
    before it, then every later hand's, all in the caller's one transaction; the change is
    logged. Like every correction it never ends or reopens a session."""
    league, rules, hand = _hand_to_correct(s, league_name, number)
    if not hand.voided:
        raise LeagueError(
            _("hand {number} is not void; only a voided hand can be restored").format(number=number)
        )
    before_view = hand_views(s, league, [hand])[0]
    before_table = standings(s, league_name)
    pot = pot_before(s, league.id, number)  # type: ignore[arg-type]
    hand.voided = False
    _settle_again(s, league, rules, hand, pot, {})
    add_hand(s, league.id, hand.id)  # type: ignore[arg-type]
    # Later hands were settled against the pot before this one; now they follow its pot.
    resettled = _resettle(s, league, rules, number + 1, hand.pot_after, pot)
    correction = _correction(s, league, rules, hand, before_view, before_table, resettled)
    log_change(
        s,
        "hand unvoid",
        who,
        why,
        league_id=league.id,
        hand_id=hand.id,
        before={"voided": True},
        after=correction.after.to_json(),
    )
    return correction


def _settle_again(
    s: Session,
    league: League,
    rules: Ruleset,
    hand: Hand,
    pot: int,
    changed: dict[int, tuple[int, int]],
) -> int:
    """Settle one stored hand's deposit pot again from ``pot`` (the pot before it): its
    players' pot points and its ``pot_after``; what moved is added to ``changed`` (per player
    id: score change, rows added) for the running totals. Returns the old ``pot_after``."""
    view = hand_views(s, league, [hand])[0]
    move = settle_pot(
        rules,
        pot,
        hand.status,
        dealer=view.dealer,
        deal_miss=view.deal_miss,
        declarer=view.declarer,
        friend=view.friend,
        success=hand.success,
        players=view.players,
        friend2=view.friend2,
    )
    ids = ensure_players(s, move.deltas)
    members = s.exec(select(HandPlayer).where(HandPlayer.hand_id == hand.id)).all()
    by_id = {m.player_id: m for m in members}
    for player_id in ids.values():
        if player_id not in by_id:
            by_id[player_id] = HandPlayer(
                hand_id=hand.id, player_id=player_id, league_id=league.id, seat=None, role="out"
            )
    wanted = {ids[name]: amount for name, amount in move.deltas.items()}
    for player_id, member in by_id.items():
        if member.pot != wanted.get(player_id, 0) or member not in members:
            score, rows = changed.get(player_id, (0, 0))
            changed[player_id] = (
                score + wanted.get(player_id, 0) - (member.pot or 0),
                rows + (member not in members),
            )
            member.pot = wanted.get(player_id, 0)
            s.add(member)
    old_pot_after = hand.pot_after
    hand.pot_after = move.pot_after
    s.add(hand)
    return old_pot_after


def _resettle(
    s: Session, league: League, rules: Ruleset, start: int, pot: int, old_pot: int
) -> int:
    """Settle the deposit pot again from hand ``start`` on, given the new pot before it and
    the old one; stop as soon as the two agree, since nothing after can then change."""
    count = 0
    number = start
    changed: dict[int, tuple[int, int]] = {}
    while pot != old_pot:
        hand = s.exec(
            select(Hand)
            .where(Hand.league_id == league.id, Hand.number >= number, Hand.voided == False)  # noqa: E712
            .order_by(Hand.number)
            .limit(1)
        ).first()
        if hand is None:
            break
        old_pot = _settle_again(s, league, rules, hand, pot, changed)
        pot = hand.pot_after
        number = hand.number + 1
        count += 1
    s.flush()
    add_pot(s, league.id, changed)  # type: ignore[arg-type]
    return count


def change_log(s: Session, league_name: str | None = None, limit: int = 50) -> list[ChangeLog]:
    query = select(ChangeLog)
    if league_name:
        query = query.where(ChangeLog.league_id == get_league(s, league_name).id)
    return list(reversed(s.exec(query.order_by(ChangeLog.id.desc()).limit(limit)).all()))
