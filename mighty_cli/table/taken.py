"""The ruling party's point cards as a score-keeper gives them, to ``mighty score``, ``mighty
record``, ``hand amend`` and any other entry of a hand's outcome.

Two forms:

* ``16``: the count as the table compares it with the bid (discards included; under 동대전's
  ``scoring.friend_weight`` the friends' cards already weighted, as the table counts them).
* ``10+8+2``: the cards split between the ruling party's members, the declarer's first
  (discards included), then each friend's in the order the friends were named. The tool
  weighs the friends' cards by the ruleset (``scoring.friend_weight``, a lone friend of a
  two-card call ``scoring.lone_friend_weight``, the weighted total rounded half up: 000
  §7.5.2-3 and footnote 75) exactly as a refereed hand is counted
  (:func:`mighty_cli.engine.scoring.ruling_party_taken`), so a club that counts each member's
  cards at the table need not do the arithmetic. Under a ruleset without weights the parts
  are simply added.

The reading where the seeds are silent: the split names as many friends as the hand had
(``10+8+2`` for two, ``14+3`` for one, ``13`` alone), and its parts together are at most the
point cards in play.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import MightyError
from ..engine.ruleset import Ruleset
from ..engine.translation import _, ngettext


@dataclass(frozen=True)
class Taken:
    """Point cards as given: one count, or the declarer's and each friend's."""

    parts: tuple[int, ...]

    @property
    def split(self) -> bool:
        return len(self.parts) > 1

    def __str__(self) -> str:
        return "+".join(map(str, self.parts))


def parse_taken(text: str) -> Taken:
    """``16`` or ``10+8+2`` (a trailing 장 or 턴 is allowed, as at the prompt)."""
    parts = [
        part.strip().removesuffix("장").removesuffix("턴").strip() for part in str(text).split("+")
    ]
    if len(parts) == 1 and parts[0].startswith("-") and parts[0][1:].isdigit():
        return Taken((int(parts[0]),))  # a count out of range: the caller's check says so
    if not 1 <= len(parts) <= 3 or not all(part.isdigit() for part in parts):
        raise MightyError(
            _(
                "{text!r}: a number of point cards (16), or the declarer's and "
                "each friend's (10+8+2)"
            ).format(text=str(text).strip())
        )
    return Taken(tuple(int(part) for part in parts))


def ruling_party_count(rules: Ruleset, taken: Taken, friends: int) -> int:
    """What the ruling party counts against the bid: the count itself, or the split weighed
    by the ruleset (``friends``: how many friends the hand had, 0 to 2)."""
    if not taken.split:
        return taken.parts[0]
    named = len(taken.parts) - 1
    if named != friends:
        raise MightyError(
            ngettext(
                "{taken} names {named} friend's cards after the declarer's, and this hand had "
                "{friends}: give one part per friend, or the ruling party's count",
                "{taken} names {named} friends' cards after the declarer's, and this hand had "
                "{friends}: give one part per friend, or the ruling party's count",
                named,
            ).format(taken=taken, named=named, friends=friends)
        )
    total = rules.count_total
    if sum(taken.parts) > total:
        raise MightyError(
            _("{taken}: {sum} point cards, but {total} are in play under {ruleset}").format(
                taken=taken, sum=sum(taken.parts), total=total, ruleset=rules.name
            )
        )
    from ..engine.scoring import ruling_party_taken  # start-up: --taken is read before it

    return ruling_party_taken(rules, taken.parts[0], list(taken.parts[1:]))
