"""The options of a hand's phases, one frozen dataclass per TOML table: the election
(``[election]``), the deal miss and its deposit, the exchange, the friend call, the cards and
the joker call, and the play of the tricks. Defaults are the standard game (docs/rules.md §2, seeds
003 and 000 §3.2, §4); ``ruleset/schema.py`` assembles them into a Ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass

from .fields import BID_COUNTS, option


@dataclass(frozen=True)
class Election:
    """Bidding (선거): docs/rules.md §3."""

    # up to 40: 8마 Chicago's two decks start at 25 (000 §3.5.3)
    min_bid: int = option(
        13, "Lowest number a bid may name.", source="003; 001 §3.3; 000 §3.2.1", low=1, high=40
    )
    max_bid: int = option(
        20,
        "Highest number a bid may name; 0 means no maximum (bids above 20 "
        "allowed, as in 신촌 and 대구).",
        source="003",
        low=0,
        high=99,
    )
    no_trump_allowed: bool = option(
        True, "Whether no-trump (노기루다) may be bid at all.", source="003"
    )
    no_trump_discount: int = option(
        0,
        "How many fewer points a no-trump bid may name: a "
        "no-trump bid of N counts as a suit bid of N + discount, and "
        "the no-trump minimum is min_bid − discount.",
        source="003 (none); 000 footnote 6",
        low=0,
        high=2,
    )
    no_trump_beats_equal_suit: bool = option(
        True,
        "Whether no-trump beats a suit bid of the same "
        "value (001 §3.4: no-trump counts 0.5 higher).",
        source="003; 001 §3.4",
    )
    suit_order: list = option(
        [],
        "Suit ranking for bids of equal number, highest first (e.g. "
        '["S", "D", "H", "C"]); empty means suits have no order.',
        source="003 (no order)",
        kind="suits",
    )
    min_raise: int = option(
        1,
        "How much a new bid must raise the standing number when it does not win on a tie-break.",
        source="000 §7.22 (explicit); implied elsewhere",
        low=1,
        high=5,
    )
    equal_bid_allowed: bool = option(
        False,
        "Whether a bid equal to the standing bid is allowed "
        "(the tie is settled off the table; the loser passes).",
        source="000 §7.10 (경기 2018)",
    )
    opener_may_pass: bool = option(
        True, "Whether the player who opens the election may pass.", source="003 (silent); 000 §7.1"
    )
    pass_is_final: bool = option(
        True, "Whether a player who passed is out of the election.", source="003; 001 §3.5"
    )
    opener: str = option(
        "previous_declarer",
        "Who opens the election: the dealer; the previous "
        "declarer (the dealer on a session's first hand); the previous declarer "
        "if he made his contract, otherwise his friend; or the player after the "
        "dealer (the dealer bids last).",
        source="003",
        choices=(
            "dealer",
            "previous_declarer",
            "previous_declarer_if_made_else_friend",
            "after_dealer",
        ),
    )
    bid_counts: str = option(
        "taken",
        "What a bid's number counts: the point cards the ruling "
        "party will take (taken); the opposition's cards, a bid of N "
        "meaning the opposition beats it by taking opposition_base − N "
        "(opposition_beats, 관악 5마: 2-7); or the most the opposition may "
        "take, a lower number being the higher bid (opposition_limit, 이우 "
        "5마: 6 down to 1); or the tricks the ruling party will win "
        "(tricks, 변형 2마: 공약은 먹은 턴 수를 대상으로 한다).",
        source="003; 000 §7.7; 000 §7.20; 000 §3.5.1",
        choices=BID_COUNTS,
    )
    opposition_base: int = option(
        8,
        'With bid_counts = "opposition_beats": a bid of N is beaten '
        "when the opposition takes this minus N point cards.",
        source="000 §7.7 (8-(주공이 부른 숫자))",
        low=1,
        high=21,
    )
    full_bid_ends: bool = option(
        False,
        "Whether a full bid (the highest number) ends the election "
        "at once: nobody may bid over it, not even no-trump over a suit.",
        source="000 §8 (딜 미스나 풀 둘 중 하나가 나오면 바로 베팅 페이즈가 "
        "끝난다); 000 §7.2 (바로 진행)",
    )
    direction: str = option(
        "clockwise",
        "Direction of bidding and play around the table. A "
        "hand record lists players in playing order; a session's seating is "
        "entered clockwise and turned into playing order with this.",
        source="003",
        choices=("clockwise", "counterclockwise"),
    )


@dataclass(frozen=True)
class DealMiss:
    """Deal miss (딜 미스): docs/rules.md §5. A weighted threshold, plus the all-point-cards hand."""

    allowed: bool = option(True, "Whether a player may declare a deal miss at all.", source="003")
    rank_weights: dict = option(
        {"A": 1.0, "K": 1.0, "Q": 1.0, "J": 1.0, "10": 0.5},
        "Weight of each point-card rank in a hand's deal-miss sum (a "
        "rank left out weighs 0; cards 2-9 always weigh 0).",
        source="003 (redeal table)",
        kind="rank_weights",
    )
    card_weights: dict = option(
        {},
        "Weights for particular cards, overriding every other weight "
        "(e.g. the one-eyed jacks SJ and HJ).",
        source="000 §7.3",
        kind="card_weights",
    )
    mighty_weight: float = option(
        0.0,
        "Weight of Mighty: the cards.mighty card (♠A), since trump "
        "is not known at deal time. It replaces that card's rank "
        "weight (a card_weights entry for it wins).",
        source="003",
    )
    joker_weight: float = option(
        -1.0, "Weight of the joker (also where the joker is a point card).", source="003"
    )
    threshold: float = option(
        0.5, "The hand is a deal miss when its sum is below (or at most) this.", source="003"
    )
    comparison: str = option(
        "at_most",
        "How the sum is compared with the threshold.",
        source="003 (≤ ½); 001 §2.4 (< 1)",
        choices=("at_most", "below"),
    )
    all_point_cards: bool = option(
        False,
        "Whether a hand of ten point cards is also a deal miss.",
        source="000 §7.1, §7.3, §7.16",
    )
    during_election: bool = option(
        True,
        "Whether a deal miss may still be declared after the "
        "election has begun (by a player who may still bid).",
        source="001 §3.5",
    )
    after_pass: bool = option(
        False, "Whether a player who has passed may still declare a deal miss.", source="001 §3.5"
    )
    full_bid_overrides: bool = option(
        False,
        "Whether a bid of the maximum (20) stops anyone from declaring a deal miss afterwards.",
        source="000 §7.2 (민사)",
    )
    full_bid_cancels: bool = option(
        False,
        "Whether a full bid made after a deal miss was declared "
        "cancels it: the full bidder is declarer at once and the hand "
        "is played.",
        source="000 §8 (풀을 불러서 딜 미스를 무력화); 000 §7.2",
    )
    mighties_cancel: bool = option(
        False,
        "Whether Mighty and the alternate Mighty (♠A and ◆A) "
        "held together count 0 in the deal-miss sum (each alone "
        "counts its weight).",
        source="000 §8 (마이티+빨간 마이티를 같이 들면 둘이 합쳐 0 점)",
    )
    next_dealer: str = option(
        "declaring_player",
        "Who deals the redeal after a deal miss (and "
        "so opens its election where the dealer opens): the player who "
        "declared it, the same dealer, or the next player.",
        source="000 §3.2.1 (딜 미스가 된 사람이 다시 딜러가 되어, 그 사람부터 "
        "다시 선거를 시작한다); 000 §8",
        choices=("same", "declaring_player", "next_player"),
    )
    redeal_opener: str = option(
        "dealer",
        "Who opens the election of a redeal after a deal miss: "
        "as election.opener says for its new dealer, or whoever opened "
        "the missed deal (where the opener is set by the last hand "
        "played, as in 001).",
        source="000 §3.2.1; 001 §3.2",
        choices=("dealer", "same"),
    )


@dataclass(frozen=True)
class Deposit:
    """The deposit pot (공탁금): points set aside by deal misses (001 §2)."""

    per_deal_miss: int = option(
        0,
        "Points the deal-miss player (or the dealer) puts into the pot; 0 means no pot.",
        source="001 §2.3 (5)",
        low=0,
        high=100,
    )
    paid_by: str = option(
        "declaring_player",
        "Who pays into the pot for a deal miss.",
        source="001 §2.3; 000 §8 (the dealer)",
        choices=("declaring_player", "dealer"),
    )
    won_by: str = option(
        "declarer",
        "Who takes the pot: the declarer of a made contract; the "
        "ruling party of a made contract, shared like a hand's score (declarer "
        "takes the remainder); or the winning team, the opposition sharing it "
        "equally when the contract fails (a remainder stays in the pot).",
        source="001 §2 (the declarer distributes it); 000 §8 (승리 팀이 획득)",
        choices=("declarer", "ruling_party", "winning_team"),
    )


@dataclass(frozen=True)
class Exchange:
    """Kitty exchange and trump change: docs/rules.md §4."""

    discards_count_for_ruling_party: bool = option(
        True,
        "Whether point cards the declarer discards count for the ruling party.",
        source="000 §3.2.1; 001 §1.4; 003",
    )
    trump_change_allowed: bool = option(
        True, "Whether the declarer may change trump after taking the kitty.", source="003"
    )
    raise_suit_change: int = option(
        2,
        "How much the contract must rise when trump changes from one suit to another.",
        source="000 §3.2.1; 002",
        low=0,
        high=5,
    )
    raise_to_no_trump: int = option(
        2,
        "How much it must rise when a suit contract becomes no-trump.",
        source="000 §3.2.1",
        low=0,
        high=5,
    )
    raise_from_no_trump: int = option(
        2,
        "How much it must rise when a no-trump contract becomes a suit contract.",
        source="000 §3.2.1",
        low=0,
        high=5,
    )
    free_change_order: list = option(
        [],
        "If set (highest first), changing to a suit ranked "
        "higher than the bid's suit needs no raise (광주, 대구).",
        source="000 §7.12",
        kind="suits",
    )
    voluntary_raise: bool = option(
        True,
        "Whether the declarer may raise the contract beyond what a trump change requires.",
        source="003",
    )


@dataclass(frozen=True)
class Friend:
    """Friend (프렌드) calls: docs/rules.md §6."""

    card: bool = option(True, "A card friend: whoever holds the called card.", source="003")
    no_friend: bool = option(True, "No friend (노프): the declarer plays alone.", source="003")
    fake: bool = option(
        True,
        "Whether the declarer may call a card he holds or discarded (in "
        "effect no friend, unknown to the others).",
        source="002; 000 §4.2.5",
    )
    joker: bool = option(
        True, "Whether the joker may be called as the friend card.", source="003; 000 §7.1"
    )
    mighty: bool = option(
        True,
        "Whether Mighty (of the contract) may be called as the friend card.",
        source="000 §3.5 (4마: 마이티 프렌드, 조커 프렌드는 할 수 없다)",
    )
    first_trick: bool = option(
        True, "First-trick friend (초구): the winner of trick 1.", source="003; 000 §4.2.6"
    )
    first_trick_declarer_wins: str = option(
        "no_friend",
        "When the declarer wins trick 1 under a "
        "first-trick call: he plays alone, or the winner of "
        "the next trick he does not win becomes the friend.",
        source="000 §4.2.6",
        choices=("no_friend", "next_trick"),
    )
    last_trick: bool = option(
        False,
        "Last-trick friend (막구): the winner of trick 10.",
        source="000 §4.2.8 (usually not allowed)",
    )
    player: bool = option(
        False,
        "Player friend (너 프렌드): a named player.",
        source="000 §4.2.7 (003 does not list it)",
    )
    reveal_on_points: bool = option(
        False,
        "Whether the friend must reveal himself the moment he wins point cards.",
        source="000 §7.8 (수원/성균관); 002",
    )
    lead_request: bool = option(
        True,
        "Whether a 20 no-trump declarer may name the suit his "
        "friend must lead when he first leads.",
        source="003",
    )
    called_cards: int = option(
        1,
        "How many different cards a card call names (동대전 7마: two; "
        "whoever holds one is a friend: two friends, one friend holding "
        "both, or none when the declarer holds or discarded both).",
        source="000 §7.5.3 (서로 다른 임의의 카드 두 장을 불러)",
        low=1,
        high=2,
    )
    called_cards_up_to: bool = option(
        False,
        "Whether called_cards is the most a card call "
        "names: the declarer chooses one partner or two (8마 "
        "Chicago); otherwise every card call names exactly "
        "called_cards cards.",
        source="000 §3.5.3 (출마자는 2명의 파트너를 지목할 수 있다)",
    )


@dataclass(frozen=True)
class Cards:
    """Special cards and their power: docs/rules.md §7."""

    mighty: str = option("SA", "The Mighty card.", source="003; 001 §4", kind="card")
    mighty_alternate: str = option(
        "DA",
        "Mighty when the Mighty card's suit is trump (빨마); the "
        "same card as mighty means Mighty never changes.",
        source="003; 001 §4.1-1",
        kind="card",
    )
    joker_call: str = option(
        "C3", "The joker-call card (조콜).", source="003; 001 §4.3", kind="card"
    )
    joker_call_alternate: str = option(
        "S3",
        "The joker-call card when the joker-call card's suit is trump.",
        source="003; 001 §4.3-4",
        kind="card",
    )
    joker_is_point_card: bool = option(
        False, "Whether the joker is a 21st point card.", source="000 §7.12 (광주)"
    )
    point_ranks: list = option(
        ["A", "K", "Q", "J", "10"],
        "The ranks that are point cards (four "
        "of each): 20 point cards with all five, 16 without the aces; 11 "
        "only where the deck has it (table.rank_eleven).",
        source="003; 000 §7.20 (이우: A 카드를 뺀 16장)",
        kind="ranks",
    )
    mighty_lead_names_suit: bool = option(
        False,
        "Whether Mighty led has no suit: the leader names "
        "the suit to follow, as with the joker (SA/H).",
        source="000 §7.7 (관악 5마)",
    )
    mighty_power_first_trick: bool = option(
        True, "Whether Mighty wins when played on trick 1.", source="000 §7.1, §7.16"
    )
    mighty_power_last_trick: bool = option(
        True, "Whether Mighty wins when played on trick 10.", source="000 §7.1, §7.16"
    )
    joker_playable_first_trick: bool = option(
        True, "Whether the joker may be played on trick 1.", source="001 §4.2-2; 000 §4.4"
    )
    joker_playable_last_trick: bool = option(
        True, "Whether the joker may be played on trick 10.", source="001 §4.2-2; 000 §4.4"
    )
    joker_power_first_trick: bool = option(
        False,
        "Whether the joker has its power on trick 1 (otherwise it is the weakest card).",
        source="001 §4.2-2; 002; 000 §7.1",
    )
    joker_power_last_trick: bool = option(
        False, "Whether the joker has its power on trick 10.", source="001 §4.2-2; 002; 000 §7.1"
    )
    mighty_plays_any_time: bool = option(
        True,
        "Whether Mighty may be played at any time, "
        "ignoring the led suit; otherwise it is played like any "
        "card of its suit.",
        source="000 §3.2.2; 002; 001 §5.1 (describes no exception)",
    )
    joker_plays_any_time: bool = option(
        True,
        "Whether the joker may be played at any time; "
        "otherwise only as a lead, when called, or by a player "
        "without a card of the led suit.",
        source="000 §3.2.2; 002; 001 §5.1 (describes no exception)",
    )
    jokers: int = option(
        1,
        "Jokers in the deck: one (53 cards), or two (54: the colour joker "
        "JK, 컬러 조커, and the black joker BJ, 흑조커); with two, cards.joker_call "
        "calls the black joker and cards.colour_joker_call the colour joker, and "
        "when both fall in one trick the first played wins.",
        source="000 §7.10 (2018: 조커 2장을 모두 사용한다); §7.11; 002 (ダブルジョーカー)",
        low=1,
        high=2,
    )
    colour_joker_call: str = option(
        "H3",
        "With two jokers (cards.jokers = 2): the card that "
        "calls the colour joker (cards.joker_call calls the black "
        "one).",
        source="000 §7.10 (2018), §7.11 (하트 3); 002",
        kind="card",
    )
    colour_joker_call_alternate: str = option(
        "D3",
        "The colour joker's call card when cards.colour_joker_call's suit is trump.",
        source="000 §7.10 (2018), §7.11 (하트 기루다면 다이아 3); 002",
        kind="card",
    )
    joker_follows_colour: bool = option(
        False,
        "With two jokers: a joker may be played to a "
        "trick only when the led suit is of its colour (the "
        "black joker ♠ ♣, the colour joker ◆ ♥), then as "
        "cards.joker_plays_any_time says; a player left with "
        "nothing else plays it anyway, without power.",
        source="000 §7.11 (선이 낸 문양의 색과 같은 색의 조커만 낼 수 있다); §7.10 (2018); 002",
    )
    joker_leads_colour: bool = option(
        False,
        "With two jokers: a joker lead names a suit of the "
        "joker's colour, or trump (either joker may rush trump).",
        source="000 §7.11 (조커와 같은 색의 문양만 러쉬할 수 있다. "
        "단, 기루다는 두 조커 모두 러쉬할 수 있다); §7.10 (2018); 002",
    )
    off_colour_joker_below_trump: bool = option(
        False,
        "With two jokers and a trump suit: the "
        "joker not of trump's colour loses to any trump "
        "in the trick (it still beats the other cards).",
        source="000 §7.10 (2018: 기루다와 같은 색깔이 아닌 조커는 기루다보다 약하다)",
    )
    mighty_must_follow_suit: bool = option(
        True,
        "Whether Mighty counts as its suit for following "
        "(a player whose only card of the led suit is Mighty, "
        "with no joker, must play it).",
        source="000 §3.2.2, footnote 8, §4.3.1",
    )


@dataclass(frozen=True)
class JokerCall:
    """The joker call (조커 콜): docs/rules.md §7."""

    declaration: str = option(
        "optional",
        "Whether leading the joker-call card calls the joker: "
        "when the leader declares it (C3!), always, or never (no joker "
        "call in this club).",
        source="001 §4.3-2; 002; 000 §4.4.1",
        choices=("optional", "always", "never"),
    )
    first_trick_effect: bool = option(
        False, "Whether a joker call led on trick 1 has effect.", source="003; 000 §7.1, §7.3"
    )
    mighty_defends: bool = option(
        True,
        "Whether the joker's holder may play Mighty instead of the called joker.",
        source="002; 000 §4.4.1, §7.1",
    )
    called_joker_powerless: bool = option(
        True,
        "Whether a joker forced out by the call loses its power.",
        source="001 §4.3-2; 000 §4.4.1",
    )


@dataclass(frozen=True)
class Play:
    """Restrictions on leading and playing: docs/rules.md §2, §7."""

    trump_lead: str = option(
        "not_first_trick",
        "When the leader may lead trump: not on trick 1 "
        "unless he holds only trumps; at any time; not until trump has "
        "been played to an earlier trick (unless he holds only trumps); or "
        "on no trick while he holds a card of another suit.",
        source="001 §1.8; 003; 000 §4.1; 002 (仁川); 000 §7.19",
        choices=("not_first_trick", "any_time", "after_trump_played", "only_trumps_left"),
    )
    only_trumps_includes_mighty: bool = option(
        False,
        "Whether Mighty counts as trump when "
        "play.trump_lead asks whether the leader holds "
        "only trumps (the joker, having no suit, always "
        "does): a hand of trumps, jokers and Mighty may "
        "lead trump.",
        source="000 §7.10 (경기 2018: 대통령 손패가 "
        "기루다, 조커, 마이티로만 이루어져있으면 러쉬를 할 "
        "수 있지만)",
    )
    trump_power_first_trick: bool = option(
        True,
        "Whether trump has its power on trick 1; "
        "otherwise a trump card played to trick 1 wins "
        "nothing unless trump was led (it is an off-suit "
        "card).",
        source="000 §7.10 (경기 2018: 이 외 경우에 나오는 기루다는 효력이 없다)",
    )
    trump_instead_of_following: bool = option(
        False,
        "Whether a follower who holds the led suit may play trump instead.",
        source="000 §7.20 (이우: 선이 낸 문양과 길드 카드)",
    )
    joker_on_trump_lead: bool = option(
        False,
        "Whether a follower with no trump who holds the joker must play it when trump is led.",
        source="000 §7.20 (이우: 길드가 없고 조커가 있으면 조커를 내야 한다)",
    )
