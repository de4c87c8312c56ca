"""One hand's outcome answered field by field, each answer checked as it is given against the
league's rules and the players of the hand (names case-insensitively and by unique prefix).

:class:`Answers` is the rule of each field a score-keeper fills (``mighty record``'s
questions, a form on a phone): the declarer, the contract, the friend (none, one or two; 허니문's
own friend hand), who was eliminated (6마, 7마; 시흥 은마's dummy), the ruling party's point
cards (a count, or split: :mod:`.taken`). A wrong answer is refused in one line, so it is
asked again at once instead of failing after the last question. Each check keeps what it
accepted (the declarer, the friends, the eliminated), which the later checks read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.cards import Bid, format_card, parse_bid, parse_card
from ..engine.errors import MightyError
from ..engine.records import friend_possible
from ..engine.ruleset import Ruleset
from ..engine.scoring import check_contract, taken_limit
from ..engine.translation import N_, _, ngettext
from . import words
from .name_lookup import match_name, split_names
from .taken import parse_taken, ruling_party_count
from .words import normalize_entry

#: Who a name is looked for among (translated where it is said).
THIS_HAND = N_("the players of this hand")
PRESENT = N_("the players present")


@dataclass
class Answers:
    """One hand's answers, checked one by one: ``five``, the players of the hand;
    ``present``, everyone at the table (a dealer may sit out)."""

    rules: Ruleset
    five: list[str]
    present: list[str] = field(default_factory=list)
    declarer: str | None = None
    contract: Bid | None = None
    eliminated: list[str] = field(default_factory=list)
    friends: list[str] = field(default_factory=list)  # as answered: none, one, or two

    @property
    def friend2(self) -> str | None:
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
        return self.check_friends(names)

    def check_friends(self, names: list[str]) -> str:
        """One or two friends, each a name as typed (a name may hold a space): the first is
        returned, both kept in :attr:`friends`."""
        self.friends = []
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
        from ..engine.hand.honeymoon import partner_of  # start-up: 허니문's tables only

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
        from ..engine.hand.seats import DUMMY  # start-up: 시흥 은마's tables only

        name = DUMMY if words.means(text, "dummy") else match_name(text, self.five, _(THIS_HAND))
        if name == self.declarer:
            raise MightyError(_("{player} is the declarer and cannot be eliminated").format(
                player=self.declarer))
        self.eliminated = [name]
        return [name]

    def eliminated_given(self, text: str | None) -> list[str]:
        """``--eliminated`` as ``record`` and ``hand amend`` read it: names matched among the
        players of the hand (the count and the declarer are the store's to check); 시흥 은마
        (table.dummy) one player, not the declarer, or the dummy (``dummy``, ``더미``,
        ``은실``: the table's words)."""
        if self.rules.table.dummy and text:
            return self.check_eliminated(text)
        return [self.check_player(p) for p in split_names(text) or []]

    def check_friend_call(self, text: str) -> str:
        """The card the declarer called, in notation (``SA``; ``스페이드 A`` as the clubs say
        it), or a call no card makes (``first-trick``, ``초구``): a duplicate table's deal
        decides who the friend is by it."""
        said = words.meaning(text.strip(), ("mighty", "joker", "first-trick", "last-trick"))
        if said is not None:
            return said
        try:
            card = parse_card(normalize_entry(text.strip(), expect="card").strip())
        except (MightyError, ValueError):
            raise MightyError(_("{text!r}: the card the declarer called, e.g. SA (or 초구, "
                                "first-trick)").format(text=text.strip())) from None
        return format_card(card)

    def check_taken(self, text: str) -> int:
        """The ruling party's count, or (``10+8+2``) the declarer's and each friend's cards,
        weighed by the ruleset's friend weights (:mod:`.taken`)."""
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
