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
from ..engine.scoring import check_contract
from ..render.text import table
from .names import match_name

NONE_WORDS = ("none", "-", "no", "노프", "alone", "nf")


@dataclass
class Answers:
    """One hand's answers, checked one by one."""

    rules: Ruleset
    five: list[str]
    present: list[str] = field(default_factory=list)
    declarer: Optional[str] = None
    contract: Optional[Bid] = None

    def check_declarer(self, text: str) -> str:
        self.declarer = match_name(text, self.five, "the players of this hand")
        return self.declarer

    def check_contract(self, text: str) -> str:
        bid = parse_bid(text.strip())
        check_contract(bid, self.rules)
        self.contract = bid
        return text.strip().upper()

    def check_friend(self, text: str) -> str:
        if text.strip().lower() in NONE_WORDS:
            f = self.rules.friend
            if not (f.no_friend or f.fake or f.first_trick or f.last_trick):
                raise MightyError(f"{self.rules.name} allows no friendless hand: name the friend")
            return "none"
        friend = match_name(text, self.five, "the players of this hand")
        if friend == self.declarer:
            raise MightyError(f"{friend} is the declarer: name the friend, or none if he "
                              f"played alone")
        return friend

    def check_taken(self, text: str) -> int:
        total = self.rules.point_card_total
        try:
            value = int(text.strip())
        except ValueError:
            raise MightyError(f"{text.strip()!r}: a number of point cards from 0 to "
                              f"{total}") from None
        if not 0 <= value <= total:
            raise MightyError(f"{value}: the ruling party takes from 0 to {total} point cards "
                              f"under {self.rules.name}")
        return value

    def check_player(self, text: str) -> str:
        return match_name(text, self.five, "the players of this hand")

    def check_present(self, text: str) -> str:
        return match_name(text, self.present or self.five, "the players present")


def proposal_lines(number: int, proposal, pot: int) -> list[str]:
    text = f"Hand {number}: dealer {proposal.dealer}, opener {proposal.opener}"
    if proposal.sitting_out:
        text += f", sitting out {', '.join(proposal.sitting_out)}"
    text += f"; playing {', '.join(proposal.players)}"
    if pot:
        text += f"; deposit pot {pot}"
    return [text]


def totals_lines(totals: dict[str, int], hands: int) -> list[str]:
    if not hands:
        return []
    rows = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    return [f"Session totals after {hands} hand{'s' if hands != 1 else ''}:",
            table(["player", "total"], [(n, f"{v:+d}" if v else "0") for n, v in rows],
                  align="<>")]


def ask_hand(answers: Answers, ask: Callable[[str, Callable, Optional[str]], object],
             given: dict) -> dict:
    """The missing answers of one hand, each checked as given; ``given`` holds the options
    already on the command line (checked the same way)."""
    out: dict = {}
    if given.get("deal_miss") is not None:
        out["deal_miss"] = answers.check_player(given["deal_miss"])
        return out
    out["declarer"] = answers.check_declarer(given["declarer"]) if given.get("declarer") \
        else ask("Declarer (주공)", answers.check_declarer, None)
    out["contract"] = answers.check_contract(given["contract"]) if given.get("contract") \
        else ask("Contract (e.g. 15D, 16NT)", answers.check_contract, None)
    out["friend"] = answers.check_friend(given["friend"]) if given.get("friend") \
        else ask("Friend (프렌드) or none", answers.check_friend, "none")
    if given.get("taken") is None and given.get("opposition") is None:
        out["taken"] = ask("Point cards taken by the ruling party", answers.check_taken, None)
    return out
