"""The ruleset schema: every option of a club's rulebook, with its documentation and source.

A ruleset is a tree of frozen dataclasses, one per TOML table. Each option is a field whose
metadata carries its documentation, its constraints and where the standard value comes from, so
that loading and validation (``ruleset.py``), ``mighty ruleset show`` and ``diff`` all read the
same schema. The defaults are the standard game (RULES.md §2, seeds 003 and 000 §3.2, §4).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

from .cards import SUIT_LETTERS, format_card, parse_card


RANK_KEYS = ("A", "K", "Q", "J", "10")
#: The ranks cards.point_ranks may name: 서울과고's 11 too, where the deck has it
#: (table.rank_eleven).
POINT_RANK_KEYS = ("A", "K", "Q", "J", "11", "10")
BID_COUNTS = ("taken", "opposition_beats", "opposition_limit", "tricks")


def option(default: Any, doc: str, *, source: str = "", kind: str = "", choices: tuple = (),
           low: Optional[float] = None, high: Optional[float] = None) -> Any:
    """A ruleset option: a dataclass field with its documentation and constraints."""
    meta = {"doc": doc, "source": source, "kind": kind, "choices": choices, "low": low,
            "high": high}
    if isinstance(default, (dict, list)):
        return field(default_factory=lambda: type(default)(default), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class Meta:
    """Who the ruleset is for and where its rules come from."""

    name: str = option("standard", "Short name of the ruleset (the file name without .toml).")
    title: str = option("Standard Mighty", "Human-readable title, in the club's own words.")
    description: str = option("", "What this rulebook is and who plays it.")
    source: str = option("003; 000 §3.2, §4", "The documents the rules come from.")


@dataclass(frozen=True)
class Election:
    """Bidding (선거): RULES.md §3."""

    # up to 40: 8마 Chicago's two decks start at 25 (000 §3.5.3)
    min_bid: int = option(13, "Lowest number a bid may name.", source="003; 001 §3.3; 000 §3.2.1",
                          low=1, high=40)
    max_bid: int = option(20, "Highest number a bid may name; 0 means no maximum (bids above 20 "
                          "allowed, as in 신촌 and 대구).", source="003", low=0, high=99)
    no_trump_allowed: bool = option(True, "Whether no-trump (노기루다) may be bid at all.",
                                    source="003")
    no_trump_discount: int = option(0, "How many fewer points a no-trump bid may name: a "
                                    "no-trump bid of N counts as a suit bid of N + discount, and "
                                    "the no-trump minimum is min_bid − discount.",
                                    source="003 (none); 000 footnote 6", low=0, high=2)
    no_trump_beats_equal_suit: bool = option(True, "Whether no-trump beats a suit bid of the same "
                                             "value (001 §3.4: no-trump counts 0.5 higher).",
                                             source="003; 001 §3.4")
    suit_order: list = option([], "Suit ranking for bids of equal number, highest first (e.g. "
                              "[\"S\", \"D\", \"H\", \"C\"]); empty means suits have no order.",
                              source="003 (no order)", kind="suits")
    min_raise: int = option(1, "How much a new bid must raise the standing number when it does "
                            "not win on a tie-break.", source="000 §7.22 (explicit); implied "
                            "elsewhere", low=1, high=5)
    equal_bid_allowed: bool = option(False, "Whether a bid equal to the standing bid is allowed "
                                     "(the tie is settled off the table; the loser passes).",
                                     source="000 §7.10 (경기 2018)")
    opener_may_pass: bool = option(True, "Whether the player who opens the election may pass.",
                                   source="003 (silent); 000 §7.1")
    pass_is_final: bool = option(True, "Whether a player who passed is out of the election.",
                                 source="003; 001 §3.5")
    opener: str = option("previous_declarer", "Who opens the election: the dealer; the previous "
                         "declarer (the dealer on a session's first hand); the previous declarer "
                         "if he made his contract, otherwise his friend; or the player after the "
                         "dealer (the dealer bids last).", source="003",
                         choices=("dealer", "previous_declarer",
                                  "previous_declarer_if_made_else_friend", "after_dealer"))
    bid_counts: str = option("taken", "What a bid's number counts: the point cards the ruling "
                             "party will take (taken); the opposition's cards, a bid of N "
                             "meaning the opposition beats it by taking opposition_base − N "
                             "(opposition_beats, 관악 5마: 2-7); or the most the opposition may "
                             "take, a lower number being the higher bid (opposition_limit, 이우 "
                             "5마: 6 down to 1); or the tricks the ruling party will win "
                             "(tricks, 변형 2마: 공약은 먹은 턴 수를 대상으로 한다).",
                             source="003; 000 §7.7; 000 §7.20; 000 §3.5.1",
                             choices=BID_COUNTS)
    opposition_base: int = option(8, "With bid_counts = \"opposition_beats\": a bid of N is beaten "
                                  "when the opposition takes this minus N point cards.",
                                  source="000 §7.7 (8-(주공이 부른 숫자))", low=1, high=21)
    full_bid_ends: bool = option(False, "Whether a full bid (the highest number) ends the election "
                                 "at once: nobody may bid over it, not even no-trump over a suit.",
                                 source="000 §8 (딜 미스나 풀 둘 중 하나가 나오면 바로 베팅 페이즈가 "
                                 "끝난다); 000 §7.2 (바로 진행)")
    direction: str = option("clockwise", "Direction of bidding and play around the table. A "
                            "hand record lists players in playing order; a session's seating is "
                            "entered clockwise and turned into playing order with this.",
                            source="003", choices=("clockwise", "counterclockwise"))


@dataclass(frozen=True)
class DealMiss:
    """Deal miss (딜 미스): RULES.md §5. A weighted threshold, plus the all-point-cards hand."""

    allowed: bool = option(True, "Whether a player may declare a deal miss at all.", source="003")
    rank_weights: dict = option({"A": 1.0, "K": 1.0, "Q": 1.0, "J": 1.0, "10": 0.5},
                                "Weight of each point-card rank in a hand's deal-miss sum (a "
                                "rank left out weighs 0; cards 2-9 always weigh 0).",
                                source="003 (redeal table)", kind="rank_weights")
    card_weights: dict = option({}, "Weights for particular cards, overriding every other weight "
                                "(e.g. the one-eyed jacks SJ and HJ).", source="000 §7.3",
                                kind="card_weights")
    mighty_weight: float = option(0.0, "Weight of Mighty: the cards.mighty card (♠A), since trump "
                                  "is not known at deal time. It replaces that card's rank "
                                  "weight (a card_weights entry for it wins).", source="003")
    joker_weight: float = option(-1.0, "Weight of the joker (also where the joker is a point "
                                 "card).", source="003")
    threshold: float = option(0.5, "The hand is a deal miss when its sum is below (or at most) "
                              "this.", source="003")
    comparison: str = option("at_most", "How the sum is compared with the threshold.",
                             source="003 (≤ ½); 001 §2.4 (< 1)", choices=("at_most", "below"))
    all_point_cards: bool = option(False, "Whether a hand of ten point cards is also a deal miss.",
                                   source="000 §7.1, §7.3, §7.16")
    during_election: bool = option(True, "Whether a deal miss may still be declared after the "
                                   "election has begun (by a player who may still bid).",
                                   source="001 §3.5")
    after_pass: bool = option(False, "Whether a player who has passed may still declare a deal "
                              "miss.", source="001 §3.5")
    full_bid_overrides: bool = option(False, "Whether a bid of the maximum (20) stops anyone from "
                                      "declaring a deal miss afterwards.", source="000 §7.2 (민사)")
    full_bid_cancels: bool = option(False, "Whether a full bid made after a deal miss was declared "
                                    "cancels it: the full bidder is declarer at once and the hand "
                                    "is played.", source="000 §8 (풀을 불러서 딜 미스를 무력화); "
                                    "000 §7.2")
    mighties_cancel: bool = option(False, "Whether Mighty and the alternate Mighty (♠A and ◆A) "
                                   "held together count 0 in the deal-miss sum (each alone "
                                   "counts its weight).", source="000 §8 (마이티+빨간 마이티를 같이 "
                                   "들면 둘이 합쳐 0 점)")
    next_dealer: str = option("declaring_player", "Who deals the redeal after a deal miss (and "
                              "so opens its election where the dealer opens): the player who "
                              "declared it, the same dealer, or the next player.",
                              source="000 §3.2.1 (딜 미스가 된 사람이 다시 딜러가 되어, 그 사람부터 "
                              "다시 선거를 시작한다); 000 §8",
                              choices=("same", "declaring_player", "next_player"))
    redeal_opener: str = option("dealer", "Who opens the election of a redeal after a deal miss: "
                                "as election.opener says for its new dealer, or whoever opened "
                                "the missed deal (where the opener is set by the last hand "
                                "played, as in 001).", source="000 §3.2.1; 001 §3.2",
                                choices=("dealer", "same"))


@dataclass(frozen=True)
class Deposit:
    """The deposit pot (공탁금): points set aside by deal misses (001 §2)."""

    per_deal_miss: int = option(0, "Points the deal-miss player (or the dealer) puts into the "
                                "pot; 0 means no pot.", source="001 §2.3 (5)", low=0, high=100)
    paid_by: str = option("declaring_player", "Who pays into the pot for a deal miss.",
                          source="001 §2.3; 000 §8 (the dealer)",
                          choices=("declaring_player", "dealer"))
    won_by: str = option("declarer", "Who takes the pot: the declarer of a made contract; the "
                         "ruling party of a made contract, shared like a hand's score (declarer "
                         "takes the remainder); or the winning team, the opposition sharing it "
                         "equally when the contract fails (a remainder stays in the pot).",
                         source="001 §2 (the declarer distributes it); 000 §8 (승리 팀이 획득)",
                         choices=("declarer", "ruling_party", "winning_team"))


@dataclass(frozen=True)
class Exchange:
    """Kitty exchange and trump change: RULES.md §4."""

    discards_count_for_ruling_party: bool = option(True, "Whether point cards the declarer "
                                                   "discards count for the ruling party.",
                                                   source="000 §3.2.1; 001 §1.4; 003")
    trump_change_allowed: bool = option(True, "Whether the declarer may change trump after "
                                        "taking the kitty.", source="003")
    raise_suit_change: int = option(2, "How much the contract must rise when trump changes from "
                                    "one suit to another.", source="000 §3.2.1; 002", low=0,
                                    high=5)
    raise_to_no_trump: int = option(2, "How much it must rise when a suit contract becomes "
                                    "no-trump.", source="000 §3.2.1", low=0, high=5)
    raise_from_no_trump: int = option(2, "How much it must rise when a no-trump contract becomes "
                                      "a suit contract.", source="000 §3.2.1", low=0, high=5)
    free_change_order: list = option([], "If set (highest first), changing to a suit ranked "
                                     "higher than the bid's suit needs no raise (광주, 대구).",
                                     source="000 §7.12", kind="suits")
    voluntary_raise: bool = option(True, "Whether the declarer may raise the contract beyond "
                                   "what a trump change requires.", source="003")


@dataclass(frozen=True)
class Friend:
    """Friend (프렌드) calls: RULES.md §6."""

    card: bool = option(True, "A card friend: whoever holds the called card.", source="003")
    no_friend: bool = option(True, "No friend (노프): the declarer plays alone.", source="003")
    fake: bool = option(True, "Whether the declarer may call a card he holds or discarded (in "
                        "effect no friend, unknown to the others).", source="002; 000 §4.2.5")
    joker: bool = option(True, "Whether the joker may be called as the friend card.",
                         source="003; 000 §7.1")
    mighty: bool = option(True, "Whether Mighty (of the contract) may be called as the friend "
                          "card.", source="000 §3.5 (4마: 마이티 프렌드, 조커 프렌드는 할 수 없다)")
    first_trick: bool = option(True, "First-trick friend (초구): the winner of trick 1.",
                               source="003; 000 §4.2.6")
    first_trick_declarer_wins: str = option("no_friend", "When the declarer wins trick 1 under a "
                                            "first-trick call: he plays alone, or the winner of "
                                            "the next trick he does not win becomes the friend.",
                                            source="000 §4.2.6",
                                            choices=("no_friend", "next_trick"))
    last_trick: bool = option(False, "Last-trick friend (막구): the winner of trick 10.",
                              source="000 §4.2.8 (usually not allowed)")
    player: bool = option(False, "Player friend (너 프렌드): a named player.",
                          source="000 §4.2.7 (003 does not list it)")
    reveal_on_points: bool = option(False, "Whether the friend must reveal himself the moment he "
                                    "wins point cards.", source="000 §7.8 (수원/성균관); 002")
    lead_request: bool = option(True, "Whether a 20 no-trump declarer may name the suit his "
                                "friend must lead when he first leads.", source="003")
    called_cards: int = option(1, "How many different cards a card call names (동대전 7마: two; "
                               "whoever holds one is a friend: two friends, one friend holding "
                               "both, or none when the declarer holds or discarded both).",
                               source="000 §7.5.3 (서로 다른 임의의 카드 두 장을 불러)", low=1, high=2)


@dataclass(frozen=True)
class Cards:
    """Special cards and their power: RULES.md §7."""

    mighty: str = option("SA", "The Mighty card.", source="003; 001 §4", kind="card")
    mighty_alternate: str = option("DA", "Mighty when the Mighty card's suit is trump (빨마); the "
                                   "same card as mighty means Mighty never changes.",
                                   source="003; 001 §4.1-1", kind="card")
    joker_call: str = option("C3", "The joker-call card (조콜).", source="003; 001 §4.3",
                             kind="card")
    joker_call_alternate: str = option("S3", "The joker-call card when the joker-call card's "
                                       "suit is trump.", source="003; 001 §4.3-4", kind="card")
    joker_is_point_card: bool = option(False, "Whether the joker is a 21st point card.",
                                       source="000 §7.12 (광주)")
    point_ranks: list = option(["A", "K", "Q", "J", "10"], "The ranks that are point cards (four "
                               "of each): 20 point cards with all five, 16 without the aces; 11 "
                               "only where the deck has it (table.rank_eleven).",
                               source="003; 000 §7.20 (이우: A 카드를 뺀 16장)", kind="ranks")
    mighty_lead_names_suit: bool = option(False, "Whether Mighty led has no suit: the leader names "
                                          "the suit to follow, as with the joker (SA/H).",
                                          source="000 §7.7 (관악 5마)")
    mighty_power_first_trick: bool = option(True, "Whether Mighty wins when played on trick 1.",
                                            source="000 §7.1, §7.16")
    mighty_power_last_trick: bool = option(True, "Whether Mighty wins when played on trick 10.",
                                           source="000 §7.1, §7.16")
    joker_playable_first_trick: bool = option(True, "Whether the joker may be played on trick 1.",
                                              source="001 §4.2-2; 000 §4.4")
    joker_playable_last_trick: bool = option(True, "Whether the joker may be played on trick 10.",
                                             source="001 §4.2-2; 000 §4.4")
    joker_power_first_trick: bool = option(False, "Whether the joker has its power on trick 1 "
                                           "(otherwise it is the weakest card).",
                                           source="001 §4.2-2; 002; 000 §7.1")
    joker_power_last_trick: bool = option(False, "Whether the joker has its power on trick 10.",
                                          source="001 §4.2-2; 002; 000 §7.1")
    mighty_plays_any_time: bool = option(True, "Whether Mighty may be played at any time, "
                                         "ignoring the led suit; otherwise it is played like any "
                                         "card of its suit.", source="000 §3.2.2; 002; 001 §5.1 "
                                         "(describes no exception)")
    joker_plays_any_time: bool = option(True, "Whether the joker may be played at any time; "
                                        "otherwise only as a lead, when called, or by a player "
                                        "without a card of the led suit.",
                                        source="000 §3.2.2; 002; 001 §5.1 (describes no "
                                        "exception)")
    jokers: int = option(1, "Jokers in the deck: one (53 cards), or two (54: the colour joker "
                         "JK, 컬러 조커, and the black joker BJ, 흑조커); with two, cards.joker_call "
                         "calls the black joker and cards.colour_joker_call the colour joker, and "
                         "when both fall in one trick the first played wins.",
                         source="000 §7.10 (2018: 조커 2장을 모두 사용한다); §7.11; 002 "
                                "(ダブルジョーカー)", low=1, high=2)
    colour_joker_call: str = option("H3", "With two jokers (cards.jokers = 2): the card that "
                                    "calls the colour joker (cards.joker_call calls the black "
                                    "one).", source="000 §7.10 (2018), §7.11 (하트 3); 002",
                                    kind="card")
    colour_joker_call_alternate: str = option("D3", "The colour joker's call card when "
                                              "cards.colour_joker_call's suit is trump.",
                                              source="000 §7.10 (2018), §7.11 (하트 기루다면 다이아 "
                                              "3); 002", kind="card")
    joker_follows_colour: bool = option(False, "With two jokers: a joker may be played to a "
                                        "trick only when the led suit is of its colour (the "
                                        "black joker ♠ ♣, the colour joker ◆ ♥), then as "
                                        "cards.joker_plays_any_time says; a player left with "
                                        "nothing else plays it anyway, without power.",
                                        source="000 §7.11 (선이 낸 문양의 색과 같은 색의 조커만 낼 "
                                        "수 있다); §7.10 (2018); 002")
    joker_leads_colour: bool = option(False, "With two jokers: a joker lead names a suit of the "
                                      "joker's colour, or trump (either joker may rush trump).",
                                      source="000 §7.11 (조커와 같은 색의 문양만 러쉬할 수 있다. "
                                      "단, 기루다는 두 조커 모두 러쉬할 수 있다); §7.10 (2018); 002")
    off_colour_joker_below_trump: bool = option(False, "With two jokers and a trump suit: the "
                                                "joker not of trump's colour loses to any trump "
                                                "in the trick (it still beats the other cards).",
                                                source="000 §7.10 (2018: 기루다와 같은 색깔이 "
                                                "아닌 조커는 기루다보다 약하다)")
    mighty_must_follow_suit: bool = option(True, "Whether Mighty counts as its suit for following "
                                           "(a player whose only card of the led suit is Mighty, "
                                           "with no joker, must play it).",
                                           source="000 §3.2.2, footnote 8, §4.3.1")


@dataclass(frozen=True)
class JokerCall:
    """The joker call (조커 콜): RULES.md §7."""

    declaration: str = option("optional", "Whether leading the joker-call card calls the joker: "
                              "when the leader declares it (C3!), always, or never (no joker "
                              "call in this club).", source="001 §4.3-2; 002; 000 §4.4.1",
                              choices=("optional", "always", "never"))
    first_trick_effect: bool = option(False, "Whether a joker call led on trick 1 has effect.",
                                      source="003; 000 §7.1, §7.3")
    mighty_defends: bool = option(True, "Whether the joker's holder may play Mighty instead of "
                                  "the called joker.", source="003; 002; 000 §4.4.1, §7.1")
    called_joker_powerless: bool = option(True, "Whether a joker forced out by the call loses its "
                                          "power.", source="001 §4.3-2; 000 §4.4.1")


@dataclass(frozen=True)
class Play:
    """Restrictions on leading and playing: RULES.md §2, §7."""

    trump_lead: str = option("not_first_trick", "When the leader may lead trump: not on trick 1 "
                             "unless he holds only trumps; at any time; not until trump has "
                             "been played to an earlier trick (unless he holds only trumps); or "
                             "on no trick while he holds a card of another suit.",
                             source="001 §1.8; 003; 000 §4.1; 002 (仁川); 000 §7.19",
                             choices=("not_first_trick", "any_time", "after_trump_played",
                                      "only_trumps_left"))
    only_trumps_includes_mighty: bool = option(False, "Whether Mighty counts as trump when "
                                               "play.trump_lead asks whether the leader holds "
                                               "only trumps (the joker, having no suit, always "
                                               "does): a hand of trumps, jokers and Mighty may "
                                               "lead trump.",
                                               source="000 §7.10 (경기 2018: 대통령 손패가 "
                                               "기루다, 조커, 마이티로만 이루어져있으면 러쉬를 할 "
                                               "수 있지만)")
    trump_power_first_trick: bool = option(True, "Whether trump has its power on trick 1; "
                                           "otherwise a trump card played to trick 1 wins "
                                           "nothing unless trump was led (it is an off-suit "
                                           "card).", source="000 §7.10 (경기 2018: 이 외 경우에 "
                                           "나오는 기루다는 효력이 없다)")
    trump_instead_of_following: bool = option(False, "Whether a follower who holds the led suit "
                                              "may play trump instead.",
                                              source="000 §7.20 (이우: 선이 낸 문양과 길드 카드)")
    joker_on_trump_lead: bool = option(False, "Whether a follower with no trump who holds the "
                                       "joker must play it when trump is led.",
                                       source="000 §7.20 (이우: 길드가 없고 조커가 있으면 조커를 "
                                       "내야 한다)")


@dataclass(frozen=True)
class Doubling:
    """One doubling of the score: when it applies and by how much."""

    enabled: bool = option(True, "Whether this doubling applies.", source="003")
    factor: int = option(2, "The factor it multiplies the score by.", source="003", low=1,
                         high=16)
    applies: str = option("always", "Whether it applies on success, on failure, or both.",
                          source="000 §4.2.4", choices=("always", "success", "failure"))


@dataclass(frozen=True)
class BackRun(Doubling):
    """The back run: the opposition takes a large share of the point cards."""

    threshold: Any = option(11, "Point cards the opposition must take: a number, or \"bid\" for "
                            "at least the contract's number.", source="003 (11); 000 §4.5.2 "
                            "(10); 000 §7.16 (the bid)", kind="int_or_bid")


@dataclass(frozen=True)
class DeclaredRun:
    """A declared run: a contract of the maximum (20) made with every point card."""

    enabled: bool = option(False, "Whether a declared run replaces the run doubling.",
                           source="000 §4.5.1")
    factor: int = option(4, "The factor of a declared run.", source="000 §4.5.1", low=1, high=16)
    min_bid: int = option(20, "The contract number that counts as declaring a run.",
                          source="000 §4.5.1, footnote 41", low=1, high=99)


FORMULAS = {
    # name: (success, failure) in the expression language of engine.expression
    "bid_bonus": ("2 * (bid - minimum) + (taken - bid)", "bid - taken"),
    "over_ten": ("taken - 10", "bid - taken"),
    "over_minimum": ("taken - minimum", "bid - taken"),
    "over_minimum_plus_one": ("taken - minimum + 1", "bid - taken"),
    "over_bid": ("taken - bid", "bid - taken"),
    "distance": ("abs(bid - taken)", "abs(bid - taken)"),
}


@dataclass(frozen=True)
class Scoring:
    """Scoring: RULES.md §8. The base S, doublings, shares, scale and cap."""

    formula: str = option("bid_bonus", "The base-score formula (RULES.md §8), or \"custom\" to "
                          "use the success and failure expressions.", source="003",
                          choices=tuple(FORMULAS) + ("custom",))
    success: str = option("", "With formula = \"custom\": the base score of a made contract, an "
                          "expression over bid, taken, opposition, minimum, max_bid, total "
                          "(point cards in play) with + - * / ( ), abs, min, max, floor, ceil.",
                          kind="expression")
    failure: str = option("", "With formula = \"custom\": the base score of a failed contract.",
                          kind="expression")
    no_trump_minimum: str = option("no_trump_minimum", "What 'minimum' means for a no-trump "
                                   "contract when no-trump may be bid below the minimum: the "
                                   "no-trump minimum (min_bid − discount, so a made contract "
                                   "never loses), the suit minimum (the literal formula), or "
                                   "the suit minimum with the bid bonus never negative.",
                                   source="RULES.md §8 note (no source settles it)",
                                   choices=("no_trump_minimum", "minimum", "clamp"))
    friend_share: int = option(1, "What the friend gets, in units of S.", source="003; 001 §6",
                               low=0, high=10)
    opponent_share: int = option(1, "What each opponent pays (or gets), in units of S.",
                                 source="003; 001 §6", low=1, high=10)
    scale: float = option(1.0, "A factor applied after the doublings (a club's unit).",
                          low=0.0, high=1000.0)
    cap: int = option(0, "The most one opponent can pay or get in a hand, after doublings and "
                      "scale; 0 means no cap.", low=0, high=100000)
    rounding: str = option("half_up", "How a fractional score per opponent is rounded.",
                           choices=("half_up", "down", "up"))
    friend_weight: float = option(1.0, "How many cards each point card a friend takes counts "
                                  "for the ruling party (동대전 6마, and 7마 with two friends: "
                                  "1.5); the friends' weighted total is rounded half up.",
                                  source="000 §7.5.2, §7.5.3; footnote 75 (사실상 올림)",
                                  low=1.0, high=4.0)
    lone_friend_weight: float = option(0.0, "With two called cards (friend.called_cards = 2) "
                                       "held by one friend: the weight of his point cards "
                                       "(동대전 7마: 2); 0 means friend_weight.",
                                       source="000 §7.5.3 (프렌즈가 1명이였을 경우 곱하기 2장)",
                                       low=0.0, high=4.0)
    trump_adjustment: int = option(0, "Added to the base score of a made trump (not no-trump) "
                                   "contract.", source="000 §7.7 (관악 5마: 기루다일 경우 -1점)",
                                   low=-5, high=5)
    no_friend_by_trick_call: bool = option(True, "Whether the no-friend doubling applies when the "
                                           "declarer called a first- or last-trick friend and "
                                           "won that trick himself, so played alone.",
                                           source="000 §4.2.6 (silent on the doubling)")
    cumulative: bool = option(True, "Whether doublings multiply together (no-trump × no friend × "
                              "run = ×8); otherwise only the largest applies.",
                              source="000 §4.2.4")
    run: Doubling = field(default_factory=lambda: Doubling(applies="success"),
                          metadata={"doc": "Run (런): the ruling party takes every point card.",
                                    "source": "003; 000 §4.5.1"})
    back_run: BackRun = field(default_factory=lambda: BackRun(applies="failure"),
                              metadata={"doc": "Back run (백 런): the opposition takes at least "
                                        "the threshold.", "source": "003; 000 §4.5.2"})
    no_trump: Doubling = field(default_factory=Doubling,
                               metadata={"doc": "No-trump contract (노기루다).",
                                         "source": "003; 000 §4.1.1"})
    no_friend: Doubling = field(default_factory=Doubling,
                                metadata={"doc": "Declarer played alone (노프렌드).",
                                          "source": "003; 000 §4.2.4"})
    declared_run: DeclaredRun = field(default_factory=DeclaredRun,
                                      metadata={"doc": "Declared run (예고 런).",
                                                "source": "000 §4.5.1"})


@dataclass(frozen=True)
class Session:
    """Dealer and opener succession, sitting out, the end of a session: RULES.md §9."""

    next_dealer: str = option("friend", "Who deals the next hand: the previous friend (the "
                              "declarer if he played alone), the previous declarer, the next "
                              "player, or the same dealer every hand (동대전: whoever shuffles "
                              "best).", source="003; 002; 000 §3.2.3; 000 §7.5.1 (same)",
                              choices=("friend", "declarer", "next_player", "same"))
    all_pass_dealer: str = option("next_player", "Who deals after everyone passed.",
                                  source="002", choices=("same", "next_player"))
    sit_out: str = option("dealer", "With six or seven present, who sits the hand out: the "
                          "dealer; or, when the opposition won the previous hand, its declarer.",
                          source="000 §3.3.1, §3.4.1",
                          choices=("dealer", "declarer_if_opposition_won"))
    hands_per_session: int = option(0, "Hands in a session; 0 means as many as the table plays.",
                                    source="001 §1.9", low=0, high=10000)
    starting_points: int = option(0, "Each player's starting stack; the session ends when someone "
                                  "has lost it all. 0 means no stack.", source="001 §1.9; 002",
                                  low=0, high=1000000)


@dataclass(frozen=True)
class Table:
    """How many play and with which cards: RULES.md §10 (000 §3.5: 4마, 3마, 2마)."""

    players: int = option(5, "Players dealt a hand (5마: five; 4마, 3마, 2마: four, three, two; "
                          "6마, 7마: six, seven, with table.eliminated). More present than this "
                          "sit out in turn (session.sit_out); 8마 Chicago: six to eight.",
                          source="000 §3.2; §3.3-3.5", low=2, high=8)
    hand_size: int = option(10, "Cards dealt to each player: 10, or fewer where players are "
                            "eliminated (6마: 8; 7마: 7; the five who play then hold ten), or "
                            "fewer for everyone where nobody is eliminated (동대전 6마: 8, 7마: "
                            "7 tricks); a drafted hand (table.deal = \"draft\") may hold more "
                            "and plays as many tricks (Mighty Network 4.0's 2마: 13).",
                            source="000 §3.3 (6마: 8장씩); §3.4 (7마: 7장씩); §7.5.2-3; "
                                   "§3.5.1 (13장); §3.5.3 (17장씩, 14장씩, 12장씩)",
                            low=5, high=17)
    decks: int = option(1, "Decks shuffled together: one (53 cards), or two (8마 Chicago: 106 "
                        "cards, two jokers; of two identical cards in a trick the first played "
                        "wins). With two, table.removed_cards takes one copy per naming (\"C2 "
                        "C2\": both) and table.removed_ranks every copy.",
                        source="000 §3.5.3 (덱 두 개를 사용하며, 총 106장, 조커 2개)",
                        low=1, high=2)
    eliminated: int = option(0, "Players the declarer eliminates after the election (6마: 1, "
                             "7마: 2); their hands and the kitty are dealt out so that the rest "
                             "play as five.", source="000 §3.3 (6마); §3.4 (7마)", low=0, high=2)
    eliminate_by: str = option("card", "How the declarer eliminates: by calling a card (its "
                               "holder leaves; a card in the kitty is called again), or by naming "
                               "the player (local rule).", source="000 §3.3 (카드를 불러서 탈락); "
                               "footnote 15 (사람을 지명해 죽일 수도 있다)",
                               choices=("card", "player"))
    removed_ranks: list = option([], "Ranks taken out of the 53 in every suit before dealing "
                                 "(4마: 2 and 4; 3마: \"2~6을 빼고\").", source="000 §3.5",
                                 kind="any_ranks")
    removed_cards: str = option("", "Single cards taken out as well, as a card list (4마's "
                                "\"빨간 3\": D3 H3).", source="000 §3.5", kind="cards")
    kitty_size: int = option(3, "Cards left face down (the kitty); the declarer takes them and "
                             "discards as many (with eliminations: the kitty joins the eliminated "
                             "hands and he discards what he holds beyond ten). players × "
                             "hand_size + kitty = the cards in play.",
                             source="003; 000 §3.2.1; §3.3-3.5", low=1, high=13)
    deal: str = option("dealt", "How the hands are made: dealt from the shuffled deck, or "
                       "drafted (변형 2마): in turn each player takes the top two cards of the "
                       "stock, sees only the upper one, keeps the upper or the lower and puts "
                       "the other out of play; the last table.kitty_size cards are the kitty.",
                       source="000 §3.2.1; §3.5.1 (변형 2마)", choices=("dealt", "draft"))
    undealt: int = option(0, "Cards of the deck that no hand and no kitty holds: out of play for "
                          "the hand (변형 2마: the 20 cards the draft puts aside; Mighty Network "
                          "4.0's 2마: 26).", source="000 §3.5.1", low=0, high=40)
    partner_hands: bool = option(False, "허니문: each player also plays a friend hand seated "
                                 "right after him (선-선프렌드-후-후프렌드); friend hands never "
                                 "bid, and the declarer's friend is his own friend hand.",
                                 source="000 §3.5.1 (허니문 마이티)")
    ghost: bool = option(False, "Ghost 4마 (고마): one more hand than players is dealt, the "
                         "ghost's, kept face down in its dealt order; the ghost never bids and "
                         "plays the top card of its pile each trick; it may be the friend.",
                         source="000 §3.5.2 (변형 4마, 고스트); §7.22.1 (엠솔 4마)")
    ghost_plays: str = option("top_card", "What the ghost plays: the top card of its pile "
                              "whatever it is (the seed: 위부터 턴마다 차례대로 낸다), or the "
                              "first card from the top that the rules allow (a local reading).",
                              source="000 §3.5.2; footnote 19",
                              choices=("top_card", "first_legal"))
    rank_eleven: bool = option(False, "서울과고's 57-card deck: every suit gains a rank 11 "
                               "between 10 and J, written S11 (스페이드 11), never J.",
                               source="000 §3.3 (플레잉카드에 11을 넣어 57장)")
    dummy: bool = option(False, "시흥 은마: one more hand than players is dealt, the dummy's "
                         "(은실), seated after the players; the dummy never bids. The declarer "
                         "calls one card: its holder is eliminated, or the dummy when nobody "
                         "holds it (the kitty or the dummy's hand), with no second call. An "
                         "eliminated player takes up the dummy's hand and plays it, so the "
                         "players always play the tricks (needs table.eliminated = 1).",
                         source="000 §7.21 (시흥 은마)")


@dataclass(frozen=True)
class Ruleset:
    """A club's whole rulebook."""

    meta: Meta = field(default_factory=Meta)
    election: Election = field(default_factory=Election)
    deal_miss: DealMiss = field(default_factory=DealMiss)
    deposit: Deposit = field(default_factory=Deposit)
    exchange: Exchange = field(default_factory=Exchange)
    friend: Friend = field(default_factory=Friend)
    cards: Cards = field(default_factory=Cards)
    joker_call: JokerCall = field(default_factory=JokerCall)
    play: Play = field(default_factory=Play)
    scoring: Scoring = field(default_factory=Scoring)
    session: Session = field(default_factory=Session)
    table: Table = field(default_factory=Table)

    @property
    def name(self) -> str:
        return self.meta.name

    @property
    def no_trump_minimum(self) -> int:
        """The lowest number a no-trump bid may name."""
        return self.election.min_bid - self.election.no_trump_discount

    @functools.cached_property  # read for every hand scored; a ruleset never changes
    def point_card_total(self) -> int:
        """Point cards in play: four of each point rank (20) that is not removed from the deck
        (table.removed_cards), plus the joker where it is one."""
        if self.table.decks == 2:  # 8마 Chicago: count the copies in play too
            from .cards import RANK_NAMES
            return sum(1 for card in self.deck_cards  # card & 112 == 64: a joker (either copy)
                       if (card & 112 == 64 and self.cards.joker_is_point_card)
                       or (card & 112 != 64 and RANK_NAMES[card & 15] in self.cards.point_ranks))
        removed = self.removed_card_names
        count = sum(1 for rank in self.cards.point_ranks for suit in SUIT_LETTERS
                    if suit + rank not in removed)
        return count + (self.cards.jokers if self.cards.joker_is_point_card
                        and "JK" not in removed else 0)

    @property
    def tricks(self) -> int:
        """Tricks in a hand: one per card of a hand (ten where players were eliminated)."""
        return 10 if self.table.eliminated else self.table.hand_size

    @property
    def count_total(self) -> int:
        """What the ruling party's count runs to: the point cards in play, or the tricks under
        election.bid_counts = "tricks" (변형 2마)."""
        return self.tricks if self.election.bid_counts == "tricks" else self.point_card_total

    @property
    def playing(self) -> int:
        """Players who play the tricks: table.players less the eliminated (6마, 7마: five)."""
        hands = 2 if self.table.partner_hands else 1  # 허니문: each player's friend hand too
        # 시흥 은마 (table.dummy): the dummy's hand, or an eliminated player taking it up
        dummy = 1 if self.table.dummy else 0
        return self.table.players * hands + dummy - self.table.eliminated

    @property
    def elimination_discard(self) -> int:
        """What the declarer discards after an elimination: the eliminated hands and the kitty
        make every other player's hand up to ten, and the declarer takes the rest (6마: 13 - 2 ×
        4 = 5 to him, three to discard; 7마: 18 - 3 × 4 = 6, three to discard)."""
        t = self.table
        pile = t.eliminated * t.hand_size + t.kitty_size
        return pile - (self.playing - 1) * (10 - t.hand_size) - (10 - t.hand_size)

    @property
    def removed_card_names(self) -> set[str]:
        """The cards taken out of the deck (table.removed_ranks and table.removed_cards)."""
        return {suit + rank for rank in self.table.removed_ranks for suit in SUIT_LETTERS} \
            | set(self.table.removed_cards.split())

    @property
    def deck_cards(self) -> tuple[int, ...]:
        """The cards in play, in the canonical order (♠2…♠A, ◆, ♥, ♣, the joker, the black
        joker under cards.jokers = 2; 서울과고's 11 between 10 and J under table.rank_eleven),
        without the removed ones (table.removed_cards); with two decks (table.decks = 2, 8마
        Chicago) the first deck's, then the second deck's copies in the same order."""
        from .cards import BLACK_JOKER, COPY, DECK, DECK_57
        removed = {parse_card(name) for name in self.removed_card_names}
        deck = DECK_57 if self.table.rank_eleven else DECK
        if self.cards.jokers == 2:  # the black joker after the (colour) joker
            deck += (BLACK_JOKER,)
        if self.table.decks == 2:  # two decks (8마 Chicago): the copies after the originals
            # a card named once in table.removed_cards loses its second copy, twice both
            names = self.table.removed_cards.split()
            removed = {card | COPY for card in removed} | {
                parse_card(name) for name in names if names.count(name) > 1}
            removed |= {parse_card(suit + rank) | copy for rank in self.table.removed_ranks
                        for suit in SUIT_LETTERS for copy in (0, COPY)}
            deck += tuple(card | COPY for card in deck)
        return tuple(card for card in deck if card not in removed)

    @property
    def bids_descend(self) -> bool:
        """Whether a lower number is the higher bid (election.bid_counts = opposition_limit)."""
        return self.election.bid_counts == "opposition_limit"

    @property
    def full_bid(self) -> int:
        """The number of the highest bid (풀): the maximum, 20 without one, or the minimum where
        bids descend."""
        e = self.election
        if self.bids_descend:
            return e.min_bid
        return e.max_bid or 20

    def contract_target(self, number: int) -> int:
        """The point cards the ruling party must take to make a contract of this number."""
        how = self.election.bid_counts
        if how == "taken" or how == "tricks":
            return number
        if how == "opposition_limit":
            return self.point_card_total - number
        return self.point_card_total - (self.election.opposition_base - number) + 1

    def get(self, key: str) -> Any:
        """The value of a dotted option key, e.g. ``election.min_bid``."""
        value: Any = self
        for part in key.split("."):
            value = getattr(value, part)
        return value

    def to_dict(self) -> dict:
        """The ruleset as nested plain data (cards and suits in notation), for TOML and JSON."""
        return _to_dict(self)


# --- schema walking -----------------------------------------------------------------------------


def _is_table(tp: Any) -> bool:
    return dataclasses.is_dataclass(tp)


def iter_options(cls: type = Ruleset, prefix: str = "") -> Iterator[tuple[str, dataclasses.Field]]:
    """Every leaf option of the schema as ``(dotted key, field)``, in schema order."""
    for f in dataclasses.fields(cls):
        key = f"{prefix}{f.name}"
        sub = _field_type(f)
        if sub is not None:
            yield from iter_options(sub, key + ".")
        else:
            yield key, f


def _field_type(f: dataclasses.Field) -> Optional[type]:
    """The dataclass a table field holds, or None for a leaf option."""
    if f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
        sample = f.default_factory()  # type: ignore[misc]
        if dataclasses.is_dataclass(sample):
            return type(sample)
    return None


def option_docs() -> dict[str, dict]:
    """Documentation of every option: ``{key: {"doc", "source", "default", "choices"}}``."""
    default = Ruleset()
    return {key: {"doc": f.metadata.get("doc", ""), "source": f.metadata.get("source", ""),
                  "default": _plain(default.get(key), f), "choices": f.metadata.get("choices", ())}
            for key, f in iter_options()}


def _plain(value: Any, f: dataclasses.Field) -> Any:
    kind = f.metadata.get("kind", "")
    if kind == "suits":
        return [SUIT_LETTERS[s] for s in value]
    if kind == "card_weights":
        return {format_card(c): w for c, w in value.items()}
    return value


def _to_dict(obj: Any) -> dict:
    out: dict = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        out[f.name] = _to_dict(value) if dataclasses.is_dataclass(value) else _plain(value, f)
    return out
