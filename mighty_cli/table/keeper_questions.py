"""A score-keeper's questions, one hand at a time (``mighty record`` without the whole outcome on
its command line, and ``record --evening``): which are asked under the league's ruleset and in
what order, each answer checked as it is given (:class:`~.answers.Answers`), an answer taken
back (:class:`GoBack`), a hand interrupted (:class:`HandInterrupted`) and its answers so far
kept at the table to be taken up again (:func:`keep_half`, :func:`resumed_answers`), and the
lines a keeper is shown between hands.

The front end asks: :func:`ask_hand` calls its ``ask(prompt, check, default)`` for each
question not answered already, and its ``say`` for what the tool decides by itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.records import Record, dump_record, friend_possible
from ..engine.translation import N_, _, ngettext
from ..render.text import table
from . import words
from .answers import PRESENT, Answers
from .books import LeagueBook
from .name_lookup import match_name, split_names
from .next_hand import NextHand, read_next_hand
from .score_entry import Outcome
from .words import friend_value

#: The prompts of one hand (translated where they are asked).
DECLARER_PROMPT = N_("Declarer (주공)")
CONTRACT_PROMPT = N_("Contract (e.g. 15D, 16NT, 스페이드 14)")
FRIEND_PROMPT = N_("Friend (프렌드) or none")
FRIENDS_PROMPT = N_("Friends (프렌드): one or two names, or none")
TAKEN_PROMPT = N_("Point cards taken by the ruling party")
SPLIT_TAKEN_PROMPT = N_(
    "Point cards taken by the ruling party (or the declarer's+each friend's, e.g. 10+8+2)"
)
FRIEND_CALL_PROMPT = N_("Card called (e.g. SA, 스페이드 A): the deal says who held it")
ELIMINATED_PROMPT = N_("Eliminated (탈락) by the declarer")
#: 시흥 은마 (table.dummy): the dummy's hand may be the one eliminated.
ELIMINATED_DUMMY_PROMPT = N_("Eliminated (탈락) by the declarer: a player, or dummy (은실)")

#: The answers a hand left half entered keeps, as the command line would give them.
RESUMED = ("declarer", "contract", "friend", "friend2")


class GoBack(Exception):
    """The keeper asked to take the last answer back (``undo``, ``back``, ``무르기``)."""


class HandInterrupted(Exception):
    """Ctrl-C while a hand's answers were asked: ``answers``, those given so far (the
    caller keeps them, so the hand is taken up again where it was left)."""

    def __init__(self, answers: dict):
        super().__init__()
        self.answers = answers


#: A step of :func:`ask_hand` that asked nothing (its question does not apply to this hand).
SKIPPED = object()


def ask_hand(
    answers: Answers,
    ask: Callable[[str, Callable, str | None], object],
    given: dict,
    say: Callable[[str], object] | None = None,
    ask_call: bool = False,
) -> dict:
    """The missing answers of one hand, each checked as given; ``given`` holds the options
    already on the command line (checked the same way). ``say`` shows what the tool decides
    by itself (허니문's friend hand). An answer taken back (:class:`GoBack`, raised by ``ask``)
    asks the question before it again; at the first question it goes to the caller.
    ``ask_call``: a duplicate round's table, whose deal decides who the friend is, asks the
    card called (``friend_call``) when a friend is named (:attr:`~.next_hand.NextHand.
    asks_friend_call`)."""
    out: dict = {}
    if given.get("deal_miss") is not None:
        out["deal_miss"] = answers.check_player(given["deal_miss"])
        return out
    steps = _hand_steps(answers, ask, given, say, ask_call)
    asked: list[int] = []  # the steps whose answer was typed, in order
    index = 0
    while index < len(steps):
        key, answer, typed = steps[index]
        try:
            value = answer()
        except GoBack:
            if not asked:
                raise
            index = asked.pop()
            continue
        except KeyboardInterrupt:
            if answers.friend2 and "friend" in out:
                out["friend2"] = answers.friend2
            raise HandInterrupted(out) from None
        if value is SKIPPED:
            index += 1
            continue
        if key is not None:
            out[key] = value
        if typed:
            asked.append(index)
        index += 1
    if answers.friend2:
        out["friend2"] = answers.friend2
    return out


#: A question of a hand: its key, what answers it, and whether the keeper types the answer (and
#: may take it back).
Step = tuple[str, Callable[[], object], bool]


def _hand_steps(
    answers: Answers,
    ask: Callable[[str, Callable, str | None], object],
    given: dict,
    say: Callable[[str], object] | None,
    ask_call: bool = False,
) -> list:
    """The questions of one hand in order, as ``(key, answer, typed)``: ``answer()`` checks what
    the command line gave or asks (``typed``: a question the keeper answers and may take
    back)."""

    def asked(key: str, prompt: str, check: Callable, default: str | None = None) -> Step:
        return (key, lambda: ask(_(prompt), check, default), True)

    def known(key: str, value: Callable[[], object]) -> Step:
        return (key, value, False)

    steps: list[Step] = []
    if given.get("declarer"):
        steps.append(known("declarer", lambda: answers.check_declarer(given["declarer"])))
    else:
        steps.append(asked("declarer", DECLARER_PROMPT, answers.check_declarer))
    if given.get("contract"):
        steps.append(known("contract", lambda: answers.check_contract(given["contract"])))
    else:
        steps.append(asked("contract", CONTRACT_PROMPT, answers.check_contract))
    if answers.rules.table.eliminated:  # 6마, 7마
        prompt = ELIMINATED_DUMMY_PROMPT if answers.rules.table.dummy else ELIMINATED_PROMPT
        steps.append(
            known("eliminated", lambda: answers.check_eliminated(given["eliminated"]))
            if given.get("eliminated")
            else asked("eliminated", prompt, answers.check_eliminated)
        )
    if given.get("friend"):
        steps.append(
            known(
                "friend",
                lambda: answers.check_friend(
                    " ".join(name for name in (given["friend"], given.get("friend2")) if name)
                    if given.get("friend2")
                    else given["friend"]
                ),
            )
        )
    elif answers.rules.table.partner_hands:  # 허니문: the only call, made by the tool

        def own_friend() -> str:
            partner = answers.check_friend("friend")
            if say is not None:
                say(
                    _(
                        "Friend (프렌드): {partner}, {declarer}'s own friend hand (프렌드 패), the "
                        "only call under {ruleset}"
                    ).format(partner=partner, declarer=answers.declarer, ruleset=answers.rules.name)
                )
            return partner

        steps.append(known("friend", own_friend))
    elif not friend_possible(answers.rules):  # 3마, 2마: always alone, nothing to ask
        steps.append(known("friend", lambda: "none"))
    elif answers.rules.friend.called_cards == 2:  # 동대전 7마: up to two friends
        steps.append(asked("friend", FRIENDS_PROMPT, answers.check_friend, "none"))
    else:
        steps.append(asked("friend", FRIEND_PROMPT, answers.check_friend, "none"))
    if ask_call and not given.get("friend_call"):  # a duplicate deal: who held the card called

        def friend_call() -> object:
            if not answers.friends:  # none: the declarer played alone, nothing to call
                return SKIPPED
            return ask(_(FRIEND_CALL_PROMPT), answers.check_friend_call, None)

        steps.append(("friend_call", friend_call, True))
    if given.get("taken") is not None:
        if "+" in str(given["taken"]):  # split (10+8+2): weighed now that the friends are known
            steps.append(known("taken", lambda: answers.check_taken(str(given["taken"]))))
    elif given.get("opposition") is None:

        def taken_prompt() -> object:
            weighted = (
                answers.rules.scoring.friend_weight != 1
                and answers.friends
                and not answers.rules.table.partner_hands
            )
            return ask(
                _(SPLIT_TAKEN_PROMPT if weighted else TAKEN_PROMPT), answers.check_taken, None
            )

        steps.append(("taken", taken_prompt, True))
    return steps


def opening_answer(answers: Answers, text: str) -> tuple[str | None, dict]:
    """The first answer of a hand in ``record --evening``: a command of :data:`~.words.RECORD`
    (``quit``, ``standings``, ``help``: its English word, and no answers), or the hand's first
    answer, checked: ``{"declarer": NAME}``, or ``{"deal_miss": NAME}`` for ``miss NAME``
    (``딜미스 NAME``). A name nobody has is refused (:class:`~.name_lookup.UnknownName`)."""
    said, rest = words.command(text, words.RECORD)
    if said == "miss" and rest.strip():
        return None, {"deal_miss": answers.check_player(rest)}
    if said in ("quit", "standings", "help"):
        return said, {}
    return None, {"declarer": answers.check_declarer(text)}


def hand_answers(
    hand: NextHand,
    players: str | None = None,
    dealer: str | None = None,
    half: tuple[list[str], dict] | None = None,
) -> tuple[Answers, str | None]:
    """The answers of the table's next hand and its dealer if not the proposal's: who plays it
    (``players`` given, matched among those present; the players of a hand left half entered;
    else the proposal's) and who dealt (``dealer`` given, or the half-entered hand's)."""
    five = list(hand.players)
    if players:
        five = [match_name(p, hand.seating, _(PRESENT)) for p in split_names(players) or []]
    if half is not None and len(half[0]) == len(five):
        five = half[0]
    answers = Answers(hand.rules, five, list(hand.seating))
    chosen = answers.check_present(dealer) if dealer else None
    if half is not None:
        chosen = answers.check_present(str(half[1].get("dealer", "")) or hand.dealer)
    return answers, chosen


def answered_outcome(answered: dict, given: dict, **more: Any) -> Outcome:
    """The outcome :func:`ask_hand`'s answers say, with what the command line gave besides
    (``taken`` as a count, ``opposition``) and ``more`` (the dealer, the players, the friend
    call, the note)."""
    if answered.get("friend_call"):  # asked at a duplicate table
        more["friend_call"] = answered["friend_call"]
    return Outcome(
        declarer=answered.get("declarer"),
        contract=answered.get("contract"),
        friend=friend_value(answered["friend"]) if answered.get("friend") else None,
        friend2=answered.get("friend2"),
        taken=answered.get("taken", given.get("taken")),
        opposition=given.get("opposition"),
        deal_miss=answered.get("deal_miss"),
        eliminated=tuple(answered.get("eliminated") or ()),
        **more,
    )


# --- a hand left half entered ---------------------------------------------------------------


def begin_hand(book: LeagueBook, take_half: bool) -> tuple[NextHand, tuple[list[str], dict] | None]:
    """The table before the keeper's next hand and, with ``take_half``, a hand a keeper left
    half entered there, taken out of the table to be finished (its players and answers so
    far; None when there is none), in one transaction."""
    from ..store.ledger.table_entry import take_half_entered  # start-up: the store

    with book.tx() as s:
        hand = read_next_hand(s, book.league, book.session)
        half = take_half_entered(s, book.league, hand.session) if take_half else None
    return hand, half


def keep_half(
    book: LeagueBook, hand: NextHand, five: list[str], dealer: str, answers: dict
) -> dict | None:
    """Keep the answers given so far (Ctrl-C) as the table's hand in progress, for the next
    ``record`` at the table to take up: the hand kept, or None when nothing was answered.
    Refused (:class:`~.table_errors.HandTakenAway`) when the table stored a hand since this
    one's questions began."""
    from ..store.ledger.table_entry import ANSWERS, keep_half_entered  # start-up: the store

    if not answers:
        return None
    kept = {"dealer": dealer} | {key: answers[key] for key in ANSWERS if key in answers}
    record = Record(ruleset=hand.rules.name, players=list(five), hands=[kept])
    with book.held() as s:
        keep_half_entered(s, book.league, hand.session, dump_record(record), hand.hands)
    return kept


def resumed_answers(hand: dict) -> dict:
    """The answers of a hand left half entered, as the command line would give them."""
    given = {key: hand[key] for key in RESUMED if key in hand}
    if hand.get("eliminated"):
        given["eliminated"] = ",".join(map(str, hand["eliminated"]))
    return given


# --- between hands ------------------------------------------------------------------------------


def proposal_lines(hand: NextHand) -> list[str]:
    """The next hand's line: the league's number, or at a round's table the table's own count
    (other tables store hands meanwhile, so the league's number is said once stored)."""
    proposal = hand.proposal
    if hand.table is not None:
        text = (
            _(
                "Table {table}, hand {number}: dealer {dealer}, opener {opener}, sitting out "
                "{out}; playing {players}"
            )
            if proposal.sitting_out
            else _(
                "Table {table}, hand {number}: dealer {dealer}, opener {opener}; playing {players}"
            )
        )
    elif proposal.sitting_out:
        text = _(
            "Hand {number}: dealer {dealer}, opener {opener}, sitting out {out}; playing {players}"
        )
    else:
        text = _("Hand {number}: dealer {dealer}, opener {opener}; playing {players}")
    text = text.format(
        table=hand.table,
        number=hand.number,
        dealer=proposal.dealer,
        opener=proposal.opener,
        out=", ".join(proposal.sitting_out),
        players=", ".join(proposal.players),
    )
    if hand.pot:
        text += _("; deposit pot {pot}").format(pot=hand.pot)
    return [text]


def totals_lines(totals: dict[str, int], hands: int) -> list[str]:
    """The session's running totals, highest first (nothing before its first hand)."""
    if not hands:
        return []
    rows = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    return [
        ngettext(
            "Session totals after {count} hand:", "Session totals after {count} hands:", hands
        ).format(count=hands),
        table(
            [_("player"), _("total")], [(n, f"{v:+d}" if v else "0") for n, v in rows], align="<>"
        ),
    ]
