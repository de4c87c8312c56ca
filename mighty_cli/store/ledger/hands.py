"""Hands: scoring a recorded outcome into the league and storing it (the views that read hands
back: :mod:`.hand_reads`).

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.

How a hand's friend is stored (``hand.friend_id`` and the ``hand_player`` roles):

* One friend: his id in ``friend_id`` and his row's role ``friend``.
* 허니문 (``table.partner_hands``): the friend is the declarer's own friend hand ("Bo's friend"),
  which no player id names. The club's reading is that the hand had a friend, the hand its
  declarer plays for himself, so ``friend_id`` is the declarer's own id (no other hand can have
  a friend equal to its declarer) and the views name it back as ``"Bo's friend"``: ``hand
  list`` shows "Bo 14S with Bo's friend" (Korean "Bo의 프렌드 패"), statistics count the hand
  as a declarer's hand with a friend (not alone), and the partner matrix counts it on its
  diagonal, Bo calling his own friend hand. Nobody gains a hand "as friend": the declarer's row
  keeps the role ``declarer``. Export writes ``friend = "Bo's friend"``, which import and
  restore read back to the same row.
* Two friends (``friend.called_cards = 2``, 동대전 7마): the first in ``friend_id``, both rows
  with the role ``friend``; the views give the second as ``friend2`` (the hand record's key).

Who the declarer eliminated (the views' ``eliminated``, the hand record's key):

* 6마, 7마: the eliminated play no trick and score nothing; their rows have the role
  ``eliminated``.
* 시흥 은마 (``table.dummy``): whose own hand left, a player or the dummy. A player takes up the
  dummy's hand and plays on as a defender or the friend, so his row keeps that role, and the
  hand stores his seat in ``hand.eliminated_seat``; the dummy's is the seat after the players.
  The views give ``["Ed"]`` or ``["dummy"]``; nothing when the record left it unsaid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, select

from ...engine.cards import format_bid
from ...engine.errors import RecordError
from ...engine.hand import DUMMY
from ...engine.hand.honeymoon import controller_of, is_partner_hand
from ...engine.records import HandOutcome, Record, replay
from ...engine.ruleset import Ruleset
from ...engine.session import Proposal, check_sitting_out, playing_order, settle_pot
from ...engine.translation import N_, _, ngettext
from .. import LeagueError
from ..db import lock_league
from ..models import Hand, HandPlayer
from .duplicate_deals import check_duplicate_hand
from .hand_reads import HandView, hand_views
from .lookups import (
    check_name,
    ensure_players,
    get_league,
    league_rules,
    log_change,
    seating,
)
from .session_end import end_if_over
from .sessions import find_session
from .succession import duplicate_deal, next_proposal, pot_before, previous_in_session
from .table_entry import (
    LiveClaim,
    answers_words,
    check_claim,
    check_next_hand,
    check_not_repeated,
    clear_live_hand,
    half_entered_hand,
    outcome_key,
    session_hands,
)


def eliminated_seat(outcome: HandOutcome) -> int | None:
    """What ``hand.eliminated_seat`` stores (시흥 은마, table.dummy): the seat of the player
    whose own hand the declarer eliminated, or the seat after the players for the dummy's;
    None for any other hand (a 6마/7마 hand's eliminated have their own role)."""
    out = outcome.eliminated_hand
    if out is None or outcome.status != "scored":
        return None
    return len(outcome.players) if out == DUMMY else outcome.players.index(out)


def stored_friend_id(outcome: HandOutcome, ids: dict[str, int]) -> int | None:
    """What ``hand.friend_id`` stores: the friend's id, or under 허니문 the declarer's own,
    whose friend hand ("Bo's friend") was his friend."""
    if not outcome.friend:
        return None
    if is_partner_hand(outcome.friend):
        return ids.get(controller_of(outcome.friend))
    return ids.get(outcome.friend)


def evaluate_hand(rules: Ruleset, five: Sequence[str], hand: dict, index: int = 1) -> HandOutcome:
    """Check and score one recorded hand (or deal miss) among the five who played it, as a
    one-hand record, without the deposit pot (the league settles the pot in order)."""
    table = {
        k: v
        for k, v in hand.items()
        if k not in ("players", "dealer", "session", "date", "note") and v is not None
    }
    record = Record(ruleset=rules.name, players=list(five), hands=[table])
    # numbered as the league numbers it: every message names the hand (and, in Korean, "5판"
    # where a rewrite of the English "hand 1" would have missed it)
    outcome = replay(record, rules, first=index).hands[0]
    if outcome.status == "in_progress":
        raise RecordError(_("hand {index}: the hand is not finished").format(index=index))
    if outcome.status != "scored":
        # The one-hand replay paid a deal miss into its own pot; the league settles the pot.
        outcome.deltas = dict.fromkeys(outcome.deltas, 0)
    return outcome


def _run_flags(rules: Ruleset, outcome: HandOutcome, total: int | None = None) -> tuple[bool, bool]:
    """Whether the hand was a run and a back run (``total``: the rules' point cards, when the
    caller already has it)."""
    if outcome.status != "scored" or outcome.taken is None or outcome.contract is None:
        return False, False
    total = rules.count_total if total is None else total  # point cards, or tricks
    threshold = rules.scoring.back_run.threshold
    threshold = outcome.contract.number if threshold == "bid" else threshold
    return outcome.taken == total, total - outcome.taken >= threshold


def _role(outcome: HandOutcome, name: str) -> str:
    if outcome.status != "scored":
        return "player"
    if name in outcome.eliminated:
        return "eliminated"  # 6마, 7마: at the table, out of the hand, scoring nothing
    if name == outcome.declarer:
        return "declarer"
    return "friend" if name in (outcome.friend, outcome.friend2) else "opponent"


def hand_columns(
    rules: Ruleset, outcome: HandOutcome, ids: dict[str, int], total: int | None = None
) -> dict:
    run, back_run = _run_flags(rules, outcome, total)
    score = outcome.score
    return dict(
        status=outcome.status,
        dealer_id=ids.get(outcome.dealer) if outcome.dealer else None,
        declarer_id=ids.get(outcome.declarer) if outcome.declarer else None,
        friend_id=stored_friend_id(outcome, ids),
        deal_miss_id=ids.get(outcome.deal_miss_player) if outcome.deal_miss_player else None,
        contract=format_bid(outcome.contract) if outcome.contract else None,
        friend_call=outcome.friend_call,
        taken=outcome.taken,
        success=score.success if score else None,
        base=float(score.base) if score else None,
        multiplier=score.multiplier if score else None,
        doublings=",".join(score.doublings) if score else "",
        run=run,
        back_run=back_run,
        full=outcome.full,
        eliminated_seat=eliminated_seat(outcome),
    )


#: The columns of :func:`_member_tuples`' rows (a ``hand_player`` row without its hand).
MEMBER_FIELDS = ("player_id", "league_id", "seat", "role", "points", "pot")


def _member_tuples(
    outcome: HandOutcome,
    present: Sequence[str],
    points: dict[str, int],
    pot: dict[str, int],
    ids: dict[str, int],
    league_id: int,
) -> list[tuple]:
    """The hand's ``hand_player`` rows as tuples (:data:`MEMBER_FIELDS`): the five who played
    in seat order, then the others present (sitting out), then a pot payer not present."""
    players = outcome.players
    rows = []
    for seat, name in enumerate(players):
        role = _role(outcome, name)
        rows.append((ids[name], league_id, seat, role, points.get(name, 0), pot.get(name, 0)))
    return rows + out_tuples(players, present, points, pot, ids, league_id)


def out_tuples(
    players: Sequence[str],
    present: Sequence[str],
    points: dict[str, int],
    pot: dict[str, int],
    ids: dict[str, int],
    league_id: int,
) -> list[tuple]:
    """:func:`_member_tuples`' rows for those not playing the hand: the others present
    (sitting out), then a pot payer not present."""
    rows = []
    for name in present:
        if name not in players:
            rows.append((ids[name], league_id, None, "out", points.get(name, 0), pot.get(name, 0)))
    for name, amount in pot.items():  # a pot payer who is not at the table at all
        if name not in players and name not in present:
            rows.append((ids[name], league_id, None, "out", 0, amount))
    return rows


def member_row_dicts(
    outcome: HandOutcome,
    present: Sequence[str],
    points: dict[str, int],
    pot: dict[str, int],
    ids: dict[str, int],
    league_id: int,
) -> list[dict]:
    """:func:`_member_tuples` as dictionaries (for ORM rows)."""
    return [
        dict(zip(MEMBER_FIELDS, row))
        for row in _member_tuples(outcome, present, points, pot, ids, league_id)
    ]


def settle_hand_pot(rules: Ruleset, pot: int, outcome: HandOutcome):
    return settle_pot(
        rules,
        pot,
        outcome.status,
        dealer=outcome.dealer,
        deal_miss=outcome.deal_miss_player,
        declarer=outcome.declarer,
        friend=outcome.friend,
        success=outcome.score.success if outcome.score else None,
        players=outcome.players,
        friend2=outcome.friend2,
    )


@dataclass
class Recorded:
    """A hand just stored, and the proposal for the next one (or why the session ended)."""

    hand: HandView
    proposal: Proposal
    pot: int
    session_ended: str | None = None
    #: the dealer of a referee's unfinished hand that this recorded hand replaced (the table
    #: quit the referee mid-hand and recorded the hand's outcome instead), else None
    replaced_live: str | None = None
    #: the hand's number at its table (the session's hand k, counted under the league's lock,
    #: so each of several keepers at once is told the number his hand got)
    session_hand: int = 0
    #: the answers of a score-keeper's half-typed hand this hand replaced (``declarer Ana,
    #: contract 15D``), else None
    replaced_half: str | None = None


def record_hand(
    s: Session,
    league_name: str,
    *,
    session_number: int | None = None,
    declarer: str | None = None,
    contract: str | None = None,
    friend: str | None = None,
    friend_call: str | None = None,
    taken: int | None = None,
    opposition: int | None = None,
    deal_miss: str | None = None,
    dealer: str | None = None,
    players: Sequence[str] | None = None,
    note: str | None = None,
    who: str = "",
    refereed: dict | None = None,
    eliminated: Sequence[str] | None = None,
    friend2: str | None = None,
    claim: LiveClaim | None = None,
    expect_hand: int | None = None,
    check_repeat: bool = False,
) -> Recorded:
    """Validate, score and store one hand's outcome in the league's open session; end the
    session when its ruleset says it is over (``session.hands_per_session``,
    ``session.starting_points``). An ended session takes no more hands.

    ``refereed`` is a hand refereed card by card (a hand-record table: ``deal``, ``election``,
    ``tricks``..., or a ``deal_miss``, with its ``opener``), replayed under the league's rules
    and kept with the hand; ``players`` are then the five in playing order. Storing any hand
    settles the session's hand in progress (:func:`save_live_hand`) in the same transaction:
    the hand just stored is that hand (refereed to its end, or its outcome recorded after the
    referee was left mid-hand), so a later ``referee --league`` never deals it again.
    ``eliminated`` names the players a 6마/7마 declarer eliminated (table.eliminated);
    ``friend2`` the second friend of a two-card call (friend.called_cards = 2, 동대전 7마).

    What the table's writers are held to (:mod:`.table_entry`), under the league's lock:
    ``claim``, the hand in progress this writer holds (a referee storing his hand: refused
    when it is no longer his, :class:`~.table_entry.HandGone`); ``expect_hand``, the table's
    hand this entry is (refused when the table is past it or short of it:
    :class:`~.table_entry.HandAlreadyEntered`); ``check_repeat``, an outcome equal to the
    table's previous hand is refused (:class:`~.table_entry.SameOutcome`): what
    :func:`enter_hand`, the score-keepers' way in, asks for."""
    league = get_league(s, league_name)
    lock_league(s, league.id)  # type: ignore[arg-type]
    session = find_session(s, league, session_number, open_only=claim is None)
    if claim is not None:
        check_claim(s, league, session, claim)
    rules = league_rules(league)
    present = seating(s, session.id)
    previous = previous_in_session(s, session.id)
    duplicate = duplicate_deal(s, session)
    proposal = next_proposal(s, rules, session, present, duplicate)
    five = check_five(players, present, proposal, rules.table.players)
    if duplicate is None:  # a duplicate deal's sitters-out are the deal's (check_duplicate_hand)
        check_sitting_out(
            rules, playing_order(present, rules), previous, [p for p in present if p not in five]
        )  # 세종: from the losing team
    if refereed is not None and players is not None:
        five = [check_name(p) for p in players]  # the refereed hand's playing order
    dealer = dealer or proposal.dealer
    if dealer not in present:
        raise LeagueError(
            _("--dealer {dealer!r} is not at session {number} ({present})").format(
                dealer=dealer, number=session.number, present=", ".join(present)
            )
        )
    if refereed is not None:
        hand = {k: v for k, v in refereed.items() if k not in ("players", "dealer")}
    else:
        hand = outcome_dict(
            declarer=declarer,
            contract=contract,
            friend=friend,
            friend_call=friend_call,
            taken=taken,
            opposition=opposition,
            deal_miss=deal_miss,
        )
        if eliminated and deal_miss is None:
            hand["eliminated"] = [check_name(p) for p in eliminated]
        if friend2 and deal_miss is None:
            hand["friend2"] = check_name(friend2)
    if duplicate is not None:  # a duplicate round's table: the deal every table of its size plays
        check_duplicate_hand(
            rules, session, duplicate, proposal, five, dealer, hand, refereed=refereed is not None
        )
    number = (
        s.exec(select(func.max(Hand.number)).where(Hand.league_id == league.id)).one() or 0
    ) + 1
    outcome = evaluate_hand(rules, five, hand, number)
    outcome.dealer = dealer
    pot = pot_before(s, league.id, None)  # type: ignore[arg-type]
    move = settle_hand_pot(rules, pot, outcome)
    ids = ensure_players(s, present)
    row = Hand(
        league_id=league.id,
        session_id=session.id,
        number=number,
        note=note,
        pot_after=move.pot_after,
        **hand_columns(rules, outcome, ids),
    )
    if refereed is not None:
        import tomli_w

        row.record_toml = tomli_w.dumps({"players": list(five), "dealer": dealer} | hand)
    members = member_row_dicts(outcome, present, outcome.deltas, move.deltas, ids, league.id)  # type: ignore[arg-type]
    key = outcome_key(row, [(m["player_id"], m["role"]) for m in members])
    if expect_hand is not None:
        check_next_hand(s, league, session, expect_hand, key)
    if check_repeat and refereed is None:
        check_not_repeated(s, league, session, key)
    position = session_hands(s, session.id) + 1  # type: ignore[arg-type]
    dropped = clear_live_hand(s, session.id)  # type: ignore[arg-type]
    half = half_entered_hand(dropped) if dropped is not None else None
    s.add(row)
    s.flush()
    for member in members:
        s.add(HandPlayer(hand_id=row.id, **member))
    s.flush()
    view = hand_views(s, league, [row])[0]
    log_change(s, "hand record", who, league_id=league.id, hand_id=row.id, after=view.to_json())
    proposal = next_proposal(s, rules, session, present)
    ended = end_if_over(s, league, rules, session, who)
    replaced = (
        str(dropped.get("dealer", "?"))
        if dropped is not None and half is None and refereed is None
        else None
    )
    return Recorded(
        view,
        proposal,
        move.pot_after,
        ended,
        replaced_live=replaced,
        session_hand=position,
        replaced_half=answers_words(half) if half is not None else None,
    )


def enter_hand(
    s: Session,
    league_name: str,
    *,
    again: bool = False,
    expect_hand: int | None = None,
    **outcome: Any,
) -> Recorded:
    """A hand's outcome as a score-keeper enters it at a table (``mighty record``, and any
    front end entering hands): :func:`record_hand`, refusing an outcome equal to the table's
    previous hand (a keeper pressing Enter on his last command again) unless ``again`` says
    the table played it twice alike, and the table's hand ``expect_hand`` when the writer
    says which hand it enters."""
    return record_hand(s, league_name, check_repeat=not again, expect_hand=expect_hand, **outcome)


def check_five(
    players: Sequence[str] | None, present: Sequence[str], proposal: Proposal, size: int = 5
) -> list[str]:
    """Who played this hand: ``size`` (table.players) of those present, in seating order."""
    if players is None:
        return list(proposal.players)
    five = [check_name(p) for p in players]
    if len(five) != size or len(set(five)) != size:
        said = ngettext(
            "--players: expected the {size} who played this hand (table.players), got {count}",
            "--players: expected the {size} who played this hand (table.players), got {count}",
            len(five),
        ).format(size=size, count=len(five))
        if len(set(five)) != len(five):
            said += _(" (a name twice)")
        raise LeagueError(said)
    absent = [p for p in five if p not in present]
    if absent:
        raise LeagueError(
            _("--players: {absent!r} is not at this session ({present})").format(
                absent=absent[0], present=", ".join(present)
            )
        )
    return sorted(five, key=list(present).index)


#: A recorded hand's fields as a message names them (in the user's language).
OUTCOME_WORDS = {
    "declarer": N_("the declarer (주공)"),
    "contract": N_("the contract"),
    "friend": N_("the friend (프렌드)"),
    "taken": N_("the points taken"),
    "opposition": N_("the opposition's points"),
}


def outcome_dict(*, declarer, contract, friend, friend_call, taken, opposition, deal_miss) -> dict:
    if deal_miss is not None:
        given = [
            k
            for k, v in (
                ("declarer", declarer),
                ("contract", contract),
                ("taken", taken),
                ("opposition", opposition),
            )
            if v is not None
        ]
        if given:
            raise LeagueError(
                _("a deal miss has no {given}: the hand was redealt").format(
                    given=_(OUTCOME_WORDS[given[0]])
                )
            )
        return {"deal_miss": deal_miss}
    missing = [
        k
        for k, v in (("declarer", declarer), ("contract", contract), ("friend", friend))
        if v is None
    ]
    if missing:
        raise LeagueError(
            _(
                "missing {missing}: give the declarer, contract, friend and the "
                "points taken, or --deal-miss PLAYER"
            ).format(missing=_(OUTCOME_WORDS[missing[0]]))
        )
    hand: dict[str, Any] = {"declarer": declarer, "contract": contract, "friend": friend}
    if friend_call:
        hand["friend_call"] = friend_call
    if taken is not None:
        hand["taken"] = taken
    if opposition is not None:
        hand["opposition"] = opposition
    return hand
