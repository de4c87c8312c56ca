"""What the club evening says (:mod:`.evening`) besides the hand's own lines: the next hand's
proposal (dealer, opener, who sits out, how to change them), the session's running totals, the
line that says the ruleset ended the session, and the words a line may be completed to (a
terminal's Tab). Each reads the evening and changes nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.cards import format_bid, format_card
from ..engine.errors import MightyError
from ..engine.translation import _, ngettext
from ..render.text import table
from . import words

if TYPE_CHECKING:
    from ..engine.cards import Bid
    from .evening import Evening


def session_ended_line(number: int, reason: str) -> str:
    """The one line saying the ruleset ended a session, and why."""
    return _(
        "Session {number} ended by the ruleset ({reason}); start a new one to play on."
    ).format(number=number, reason=reason)


def proposal_line(evening: Evening, number: int) -> str:
    """The line that opens hand ``number``: its dealer, opener, who sits out and who plays."""
    p = evening.proposal
    assert p is not None  # (start_hand proposed the hand it opens)
    if evening.table is not None:  # a round's table: its own count, which others do not move
        text = (
            _(
                "— table {table}, hand {number}: dealer {dealer}, opener {opener}, "
                "sitting out {out}; playing {players}"
            )
            if p.sitting_out
            else _(
                "— table {table}, hand {number}: dealer {dealer}, opener {opener}; "
                "playing {players}"
            )
        )
    elif p.sitting_out:
        text = _(
            "— hand {number}: dealer {dealer}, opener {opener}, sitting out {out}; "
            "playing {players}"
        )
    else:
        text = _("— hand {number}: dealer {dealer}, opener {opener}; playing {players}")
    shown = number if evening.table is not None else number + evening.number_offset
    text = text.format(
        table=evening.table,
        number=shown,
        dealer=p.dealer,
        opener=p.opener,
        out=", ".join(p.sitting_out),
        players=", ".join(p.players),
    )
    if evening.duplicate:
        return text + _(" (a duplicate deal: as at every table of the round)")
    return text + (
        _(" (change before the first call: dealer/opener/out NAME)")
        if len(evening.present) > evening.table_size or number == 1
        else ""
    )


def session_totals_lines(evening: Evening) -> list[str]:
    """The session's running totals, highest first."""
    if evening.book is not None:
        state = evening.book.next_hand()
        totals, count = state.totals, state.hands
    else:
        totals = evening.replayed().totals
        count = len(evening.finished)
    if not count:
        return [_("no hands finished yet")]
    rows = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    return [
        ngettext(
            "session totals after {count} hand:", "session totals after {count} hands:", count
        ).format(count=count),
        table(
            [_("player"), _("total")],
            [(n, f"{v:+d}" if v else "0") for n, v in rows],
            align="<>",
        ),
    ]


def completions(evening: Evening) -> list[str]:
    """The words a line may be completed to now: the commands, the names present and what the
    hand's phase allows."""
    offered = words.words_for("help", "table", "undo", "legal", "hand", "save", "quit", "standings")
    offered += list(evening.present)
    hand = evening.hand
    if hand is None:
        return offered
    s = hand.state
    engine = hand.engine
    try:
        if s.phase == "election":
            offered += words.words_for("pass", "miss") + [
                view_bid(a.bid)
                for a in engine.legal_actions(s)
                if isinstance(a, engine.BidCall) and a.bid
            ]
            offered += ["스페이드", "다이아", "하트", "클로버", "노기루다"]
            if not hand.started:
                offered += words.words_for("dealer", "opener", "out")
        elif s.phase == "play":
            offered += [engine.format_play(p) for p in engine.legal_plays(s)]
            offered += ["스페이드", "다이아", "하트", "클로버", "조커"]
            offered += words.words_for("joker-call")
        elif s.phase == "friend" and evening.rules.table.partner_hands:
            # 허니문: the only call is his own friend hand (or his first card)
            offered += words.words_for("own-friend", "contract")
            offered += ["스페이드", "다이아", "하트", "클로버"]
        elif s.phase == "friend":
            offered += words.words_for(*words.FRIEND_CALLS, "contract")
            offered += ["스페이드", "다이아", "하트", "클로버"]
        elif s.phase == "redistribution":
            offered += words.words_for("deal")
        elif s.phase == "exchange" and s.hands is not None:
            offered += [format_card(c) for c in s.hands[s.declarer]]
    except MightyError:
        pass
    return offered


def view_bid(bid: Bid) -> str:
    return format_bid(bid)
