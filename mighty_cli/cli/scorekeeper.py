"""The score-keeper's questions for ``mighty record``: each answer checked as it is given.

:class:`Answers` checks one answer at a time against the league's rules and the five playing
this hand (names case-insensitively and by unique prefix), so a wrong answer is asked again at
once instead of failing after the last question. :func:`run_evening` keeps one process open for
a whole session (``mighty record --evening``): entry is instant, the running totals and the next
hand's proposal are shown between hands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ..engine.cards import Bid, parse_bid
from ..engine.errors import MightyError
from ..engine.ruleset import Ruleset
from ..engine.records import friend_possible
from ..engine.scoring import check_contract
from ..i18n import N_, _, ngettext
from ..render.text import table
from ..table import words
from ..table.name_lookup import match_name
from ..table.words import normalize_entry

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).

#: The prompts of one hand (translated where they are asked).
DECLARER_PROMPT = N_("Declarer (주공)")
CONTRACT_PROMPT = N_("Contract (e.g. 15D, 16NT, 스페이드 14)")
FRIEND_PROMPT = N_("Friend (프렌드) or none")
FRIENDS_PROMPT = N_("Friends (프렌드): one or two names, or none")
TAKEN_PROMPT = N_("Point cards taken by the ruling party")
SPLIT_TAKEN_PROMPT = N_("Point cards taken by the ruling party (or the declarer's+each "
                        "friend's, e.g. 10+8+2)")
ELIMINATED_PROMPT = N_("Eliminated (탈락) by the declarer")
#: 시흥 은마 (table.dummy): the dummy's hand may be the one eliminated.
ELIMINATED_DUMMY_PROMPT = N_("Eliminated (탈락) by the declarer: a player, or dummy (은실)")
THIS_HAND = N_("the players of this hand")
PRESENT = N_("the players present")


@dataclass
class Answers:
    """One hand's answers, checked one by one."""

    rules: Ruleset
    five: list[str]
    present: list[str] = field(default_factory=list)
    declarer: Optional[str] = None
    contract: Optional[Bid] = None
    eliminated: list[str] = field(default_factory=list)
    friends: list[str] = field(default_factory=list)  # as answered: none, one, or two

    @property
    def friend2(self) -> Optional[str]:
        """The second friend of a two-card call (friend.called_cards = 2, 동대전 7마)."""
        return self.friends[1] if len(self.friends) > 1 else None

    def check_declarer(self, text: str) -> str:
        self.declarer = match_name(text, self.five, _(THIS_HAND))
        return self.declarer

    def check_contract(self, text: str) -> str:
        text = normalize_entry(text.strip(), expect="bid")
        bid = parse_bid(text)
        check_contract(bid, self.rules)
        self.contract = bid
        return text.upper()

    def check_friend(self, text: str) -> str:
        """The friend (or none); where two cards are called (friend.called_cards = 2, 동대전
        7마) one or two names, as ``Ed Fay``, ``Ed, Fay`` or ``Ed+Fay``: the first is
        returned, both kept in :attr:`friends`."""
        self.friends = []
        if self.rules.table.partner_hands:
            partner = self.own_friend_hand(text)
            self.friends = [partner]
            return partner
        if words.means(text, "none"):
            f = self.rules.friend
            if not (f.no_friend or f.fake or f.first_trick or f.last_trick):
                raise MightyError(_("{ruleset} allows no friendless hand: name the friend")
                                  .format(ruleset=self.rules.name))
            return "none"
        names = text.replace("+", ",").replace(",", " ").split() \
            if self.rules.friend.called_cards == 2 else [text]
        if len(names) > 2:
            raise MightyError(_("name one or two friends (two cards are called: "
                                "friend.called_cards = 2)"))
        friends = [self._one_friend(name) for name in names]
        if len(friends) == 2 and friends[0] == friends[1]:
            raise MightyError(_("{player} is named twice: one player holding both called cards "
                                "is one friend").format(player=friends[0]))
        self.friends = friends
        return friends[0]

    def _one_friend(self, text: str) -> str:
        friend = match_name(text, self.five, _(THIS_HAND))
        if friend == self.declarer:
            raise MightyError(_("{player} is the declarer: name the friend, or none if he "
                                "played alone").format(player=friend))
        if friend in self.eliminated and not self.rules.table.dummy:  # 시흥 은마: he plays on
            raise MightyError(_("{player} was eliminated (탈락) and played no trick").format(
                player=friend))
        if not friend_possible(self.rules):
            raise MightyError(_("the declarer always plays alone under {ruleset}: none")
                              .format(ruleset=self.rules.name))
        return friend

    def own_friend_hand(self, text: str) -> str:
        """허니문 (table.partner_hands): the declarer's friend is his own friend hand, the only
        call; accepted in short form (friend, 프렌드, 프렌드 패) or by its name."""
        from ..engine.hand.honeymoon import partner_of

        partner = partner_of(self.declarer or "")
        low = " ".join(text.strip().lower().split())
        if words.means(text, "own-friend") or low == partner.lower():
            return partner
        raise MightyError(_("the declarer's friend is his friend hand {partner} (프렌드 패) "
                            "under {ruleset}: friend, or nothing at all").format(
                                partner=partner, ruleset=self.rules.name))

    def check_eliminated(self, text: str) -> list[str]:
        """6마, 7마: the players the declarer eliminated (table.eliminated of them)."""
        count = self.rules.table.eliminated
        if self.rules.table.dummy:  # 시흥 은마: a player, or the dummy (은실)
            return self._dummy_eliminated(text)
        names = [match_name(n, self.five, _(THIS_HAND))
                 for n in text.replace(",", " ").split()]
        if len(names) != count or len(set(names)) != count:
            raise MightyError(ngettext("name the {count} player the declarer eliminated (탈락)",
                                       "name the {count} players the declarer eliminated (탈락)",
                                       count).format(count=count))
        if self.declarer in names:
            raise MightyError(_("{player} is the declarer and cannot be eliminated").format(
                player=self.declarer))
        self.eliminated = names
        return names

    def _dummy_eliminated(self, text: str) -> list[str]:
        """시흥 은마 (table.dummy): whose own hand left, one player or the dummy (``dummy``,
        ``더미``, ``은실``); an eliminated player plays the dummy's hand and scores like anyone."""
        from ..engine.hand.seats import DUMMY

        name = DUMMY if words.means(text, "dummy") else match_name(text, self.five, _(THIS_HAND))
        if name == self.declarer:
            raise MightyError(_("{player} is the declarer and cannot be eliminated").format(
                player=self.declarer))
        self.eliminated = [name]
        return [name]

    def check_taken(self, text: str) -> int:
        """The ruling party's count, or (``10+8+2``) the declarer's and each friend's cards,
        weighed by the ruleset's friend weights (:mod:`.score_taken`)."""
        from ..engine.scoring import taken_limit
        from .score_taken import parse_taken, ruling_party_count

        if "+" in text:
            return ruling_party_count(self.rules, parse_taken(text), len(self.friends))
        # point cards, or tricks (변형 2마: bid_counts = tricks); more where friends' cards
        # are weighted (동대전: scoring.friend_weight)
        total = taken_limit(self.rules)
        tricks = self.rules.election.bid_counts == "tricks"
        try:
            value = int(text.strip().removesuffix("장").removesuffix("턴").strip())
        except ValueError:
            message = (_("{text!r}: a number of tricks from 0 to {total}") if tricks else
                       _("{text!r}: a number of point cards from 0 to {total}"))
            raise MightyError(message.format(text=text.strip(), total=total)) from None
        if not 0 <= value <= total:
            message = (_("{value}: the ruling party takes from 0 to {total} tricks under "
                         "{ruleset}") if tricks else
                       _("{value}: the ruling party takes from 0 to {total} point cards under "
                         "{ruleset}"))
            raise MightyError(message.format(value=value, total=total, ruleset=self.rules.name))
        return value

    def check_player(self, text: str) -> str:
        return match_name(text, self.five, _(THIS_HAND))

    def check_present(self, text: str) -> str:
        return match_name(text, self.present or self.five, _(PRESENT))


def proposal_lines(number: int, proposal, pot: int, table=None) -> list[str]:
    """The next hand's line: the league's number, or at a round's table the table's own count
    (other tables store hands meanwhile, so the league's number is said once stored)."""
    if table is not None:
        text = (_("Table {table}, hand {number}: dealer {dealer}, opener {opener}, sitting out "
                  "{out}; playing {players}") if proposal.sitting_out else
                _("Table {table}, hand {number}: dealer {dealer}, opener {opener}; playing "
                  "{players}"))
    elif proposal.sitting_out:
        text = _("Hand {number}: dealer {dealer}, opener {opener}, sitting out {out}; playing "
                 "{players}")
    else:
        text = _("Hand {number}: dealer {dealer}, opener {opener}; playing {players}")
    text = text.format(table=table, number=number, dealer=proposal.dealer,
                       opener=proposal.opener, out=", ".join(proposal.sitting_out),
                       players=", ".join(proposal.players))
    if pot:
        text += _("; deposit pot {pot}").format(pot=pot)
    return [text]


def totals_lines(totals: dict[str, int], hands: int) -> list[str]:
    if not hands:
        return []
    rows = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    return [ngettext("Session totals after {count} hand:", "Session totals after {count} hands:",
                     hands).format(count=hands),
            table([_("player"), _("total")], [(n, f"{v:+d}" if v else "0") for n, v in rows],
                  align="<>")]


class GoBack(Exception):
    """The keeper asked to take the last answer back (``undo``, ``back``, ``무르기``)."""


class HandInterrupted(Exception):
    """Ctrl-C while a hand's answers were asked: ``answers``, those given so far (the
    caller keeps them, so the hand is taken up again where it was left)."""

    def __init__(self, answers: dict):
        super().__init__()
        self.answers = answers


def ask_hand(answers: Answers, ask: Callable[[str, Callable, Optional[str]], object],
             given: dict, say: Optional[Callable[[str], object]] = None) -> dict:
    """The missing answers of one hand, each checked as given; ``given`` holds the options
    already on the command line (checked the same way). ``say`` shows what the tool decides
    by itself (허니문's friend hand). An answer taken back (:class:`GoBack`, raised by ``ask``)
    asks the question before it again; at the first question it goes to the caller."""
    out: dict = {}
    if given.get("deal_miss") is not None:
        out["deal_miss"] = answers.check_player(given["deal_miss"])
        return out
    steps = _hand_steps(answers, ask, given, say)
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
        if key is not None:
            out[key] = value
        if typed:
            asked.append(index)
        index += 1
    if answers.friend2:
        out["friend2"] = answers.friend2
    return out


def _hand_steps(answers: Answers, ask, given: dict, say) -> list:
    """The questions of one hand in order, as ``(key, answer, typed)``: ``answer()`` checks what
    the command line gave or asks (``typed``: a question the keeper answers and may take
    back)."""
    def asked(key, prompt, check, default=None):
        return (key, lambda: ask(_(prompt), check, default), True)

    def known(key, value):
        return (key, value, False)

    steps = []
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
        steps.append(known("eliminated", lambda: answers.check_eliminated(given["eliminated"]))
                     if given.get("eliminated") else
                     asked("eliminated", prompt, answers.check_eliminated))
    if given.get("friend"):
        steps.append(known("friend", lambda: answers.check_friend(
            " ".join(name for name in (given["friend"], given.get("friend2")) if name)
            if given.get("friend2") else given["friend"])))
    elif answers.rules.table.partner_hands:  # 허니문: the only call, made by the tool
        def own_friend():
            partner = answers.check_friend("friend")
            if say is not None:
                say(_("Friend (프렌드): {partner}, {declarer}'s own friend hand (프렌드 패), the "
                      "only call under {ruleset}").format(partner=partner,
                                                         declarer=answers.declarer,
                                                         ruleset=answers.rules.name))
            return partner
        steps.append(known("friend", own_friend))
    elif not friend_possible(answers.rules):  # 3마, 2마: always alone, nothing to ask
        steps.append(known("friend", lambda: "none"))
    elif answers.rules.friend.called_cards == 2:  # 동대전 7마: up to two friends
        steps.append(asked("friend", FRIENDS_PROMPT, answers.check_friend, "none"))
    else:
        steps.append(asked("friend", FRIEND_PROMPT, answers.check_friend, "none"))
    if given.get("taken") is not None:
        if "+" in str(given["taken"]):  # split (10+8+2): weighed now that the friends are known
            steps.append(known("taken", lambda: answers.check_taken(str(given["taken"]))))
    elif given.get("opposition") is None:
        def taken_prompt():
            weighted = answers.rules.scoring.friend_weight != 1 and answers.friends \
                and not answers.rules.table.partner_hands
            return ask(_(SPLIT_TAKEN_PROMPT if weighted else TAKEN_PROMPT), answers.check_taken,
                       None)
        steps.append(("taken", taken_prompt, True))
    return steps
