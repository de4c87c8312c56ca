"""The options of what follows the tricks and frames the hands, one frozen dataclass per TOML
table: the scoring (formulas and doublings), the session, the table (players, deck, kitty,
elimination) and the tournament (scoring across the tables of rounds). Defaults are the
standard game; ``ruleset/schema.py`` assembles them into a Ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .fields import option


@dataclass(frozen=True)
class Doubling:
    """One doubling of the score: when it applies and by how much."""

    enabled: bool = option(True, "Whether this doubling applies.", source="003")
    factor: int = option(2, "The factor it multiplies the score by.", source="003", low=1, high=16)
    applies: str = option(
        "always",
        "Whether it applies on success, on failure, or both.",
        source="000 §4.2.4",
        choices=("always", "success", "failure"),
    )


@dataclass(frozen=True)
class BackRun(Doubling):
    """The back run: the opposition takes a large share of the point cards."""

    threshold: Any = option(
        11,
        'Point cards the opposition must take: a number, or "bid" for '
        "at least the contract's number.",
        source="003 (11); 000 §4.5.2 (10); 000 §7.16 (the bid)",
        kind="int_or_bid",
    )


@dataclass(frozen=True)
class DeclaredRun:
    """A declared run: a contract of the maximum (20) made with every point card."""

    enabled: bool = option(
        False, "Whether a declared run replaces the run doubling.", source="000 §4.5.1"
    )
    factor: int = option(4, "The factor of a declared run.", source="000 §4.5.1", low=1, high=16)
    min_bid: int = option(
        20,
        "The contract number that counts as declaring a run.",
        source="000 §4.5.1, footnote 41",
        low=1,
        high=99,
    )


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
    """Scoring: docs/rules.md §8. The base S, doublings, shares, scale and cap."""

    formula: str = option(
        "bid_bonus",
        'The base-score formula, or "custom" to use the success and failure expressions.',
        source="003",
        choices=tuple(FORMULAS) + ("custom",),
    )
    success: str = option(
        "",
        'With formula = "custom": the base score of a made contract, an '
        "expression over bid, taken, opposition, minimum, max_bid, total "
        "(point cards in play) with + - * / ( ), abs, min, max, floor, ceil.",
        kind="expression",
    )
    failure: str = option(
        "", 'With formula = "custom": the base score of a failed contract.', kind="expression"
    )
    no_trump_minimum: str = option(
        "no_trump_minimum",
        "What 'minimum' means for a no-trump "
        "contract when no-trump may be bid below the minimum: the "
        "no-trump minimum (min_bid − discount, so a made contract "
        "never loses), the suit minimum (the literal formula), or "
        "the suit minimum with the bid bonus never negative.",
        source="none: no seed settles it (a reading)",
        choices=("no_trump_minimum", "minimum", "clamp"),
    )
    friend_share: int = option(
        1, "What the friend gets, in units of S.", source="003; 001 §6", low=0, high=10
    )
    opponent_share: int = option(
        1, "What each opponent pays (or gets), in units of S.", source="003; 001 §6", low=1, high=10
    )
    scale: float = option(
        1.0, "A factor applied after the doublings (a club's unit).", low=0.0, high=1000.0
    )
    cap: int = option(
        0,
        "The most one opponent can pay or get in a hand, after doublings and "
        "scale; 0 means no cap.",
        low=0,
        high=100000,
    )
    rounding: str = option(
        "half_up",
        "How a fractional score per opponent is rounded.",
        choices=("half_up", "down", "up"),
    )
    friend_weight: float = option(
        1.0,
        "How many cards each point card a friend takes counts "
        "for the ruling party (동대전 6마, and 7마 with two friends: "
        "1.5); the friends' weighted total is rounded half up.",
        source="000 §7.5.2, §7.5.3; footnote 75 (사실상 올림)",
        low=1.0,
        high=4.0,
    )
    lone_friend_weight: float = option(
        0.0,
        "With two called cards (friend.called_cards = 2) "
        "held by one friend: the weight of his point cards "
        "(동대전 7마: 2); 0 means friend_weight.",
        source="000 §7.5.3 (프렌즈가 1명이였을 경우 곱하기 2장)",
        low=0.0,
        high=4.0,
    )
    trump_adjustment: int = option(
        0,
        "Added to the base score of a made trump (not no-trump) contract.",
        source="000 §7.7 (관악 5마: 기루다일 경우 -1점)",
        low=-5,
        high=5,
    )
    no_friend_by_trick_call: bool = option(
        True,
        "Whether the no-friend doubling applies when the "
        "declarer called a first- or last-trick friend and "
        "won that trick himself, so played alone.",
        source="000 §4.2.6 (silent on the doubling)",
    )
    cumulative: bool = option(
        True,
        "Whether doublings multiply together (no-trump × no friend × "
        "run = ×8); otherwise only the largest applies.",
        source="000 §4.2.4",
    )
    run: Doubling = field(
        default_factory=lambda: Doubling(applies="success"),
        metadata={
            "doc": "Run (런): the ruling party takes every point card.",
            "source": "003; 000 §4.5.1",
        },
    )
    back_run: BackRun = field(
        default_factory=lambda: BackRun(applies="failure"),
        metadata={
            "doc": "Back run (백 런): the opposition takes at least the threshold.",
            "source": "003; 000 §4.5.2",
        },
    )
    no_trump: Doubling = field(
        default_factory=Doubling,
        metadata={"doc": "No-trump contract (노기루다).", "source": "003; 000 §4.1.1"},
    )
    no_friend: Doubling = field(
        default_factory=Doubling,
        metadata={"doc": "Declarer played alone (노프렌드).", "source": "003; 000 §4.2.4"},
    )
    declared_run: DeclaredRun = field(
        default_factory=DeclaredRun,
        metadata={"doc": "Declared run (예고 런).", "source": "000 §4.5.1"},
    )


@dataclass(frozen=True)
class Session:
    """Dealer and opener succession, sitting out, the end of a session: docs/rules.md §9."""

    next_dealer: str = option(
        "friend",
        "Who deals the next hand: the previous friend (the "
        "declarer if he played alone), the previous declarer, the next "
        "player, or the same dealer every hand (동대전: whoever shuffles "
        "best).",
        source="003; 002; 000 §3.2.3; 000 §7.5.1 (same)",
        choices=("friend", "declarer", "next_player", "same"),
    )
    all_pass_dealer: str = option(
        "next_player",
        "Who deals after everyone passed.",
        source="002",
        choices=("same", "next_player"),
    )
    sit_out: str = option(
        "dealer",
        "With six or seven present, who sits the hand out: the "
        "dealer; or, when the opposition won the previous hand, its declarer; "
        "or players of the previous hand's losing team, chosen at the table "
        "(세종: 가위바위보), while those who sat out come back in.",
        source="000 §3.3.1, §3.4.1; §7.16 (진 팀에서 가위바위보로 한 명을 제하여)",
        choices=("dealer", "declarer_if_opposition_won", "losing_team"),
    )
    hands_per_session: int = option(
        0,
        "Hands in a session; 0 means as many as the table plays.",
        source="001 §1.9",
        low=0,
        high=10000,
    )
    starting_points: int = option(
        0,
        "Each player's starting stack; the session ends when someone "
        "has lost it all. 0 means no stack.",
        source="001 §1.9",
        low=0,
        high=1000000,
    )


@dataclass(frozen=True)
class Table:
    """How many play and with which cards: docs/rules.md §10 (000 §3.5: 4마, 3마, 2마)."""

    players: int = option(
        5,
        "Players dealt a hand (5마: five; 4마, 3마, 2마: four, three, two; "
        "6마, 7마: six, seven, with table.eliminated). More present than this "
        "sit out in turn (session.sit_out); 8마 Chicago: six to eight.",
        source="000 §3.2; §3.3-3.5",
        low=2,
        high=8,
    )
    hand_size: int = option(
        10,
        "Cards dealt to each player: 10, or fewer where players are "
        "eliminated (6마: 8; 7마: 7; the five who play then hold ten), or "
        "fewer for everyone where nobody is eliminated (동대전 6마: 8, 7마: "
        '7 tricks); a drafted hand (table.deal = "draft") may hold more '
        "and plays as many tricks (Mighty Network 4.0's 2마: 13).",
        source="000 §3.3 (6마: 8장씩); §3.4 (7마: 7장씩); §7.5.2-3; "
        "§3.5.1 (13장); §3.5.3 (17장씩, 14장씩, 12장씩)",
        low=5,
        high=17,
    )
    decks: int = option(
        1,
        "Decks shuffled together: one (53 cards), or two (8마 Chicago: 106 "
        "cards, two jokers; of two identical cards in a trick the first played "
        'wins). With two, table.removed_cards takes one copy per naming ("C2 '
        'C2": both) and table.removed_ranks every copy.',
        source="000 §3.5.3 (덱 두 개를 사용하며, 총 106장, 조커 2개)",
        low=1,
        high=2,
    )
    eliminated: int = option(
        0,
        "Players the declarer eliminates after the election (6마: 1, "
        "7마: 2); their hands and the kitty are dealt out so that the rest "
        "play as five.",
        source="000 §3.3 (6마); §3.4 (7마)",
        low=0,
        high=2,
    )
    eliminate_by: str = option(
        "card",
        "How the declarer eliminates: by calling a card (its "
        "holder leaves; a card in the kitty is called again), or by naming "
        "the player (local rule).",
        source="000 §3.3 (카드를 불러서 탈락); footnote 15 (사람을 지명해 죽일 수도 있다)",
        choices=("card", "player"),
    )
    removed_ranks: list = option(
        [],
        'Ranks taken out of the 53 in every suit before dealing (4마: 2 and 4; 3마: "2~6을 빼고").',
        source="000 §3.5",
        kind="any_ranks",
    )
    removed_cards: str = option(
        "",
        'Single cards taken out as well, as a card list (4마\'s "빨간 3": D3 H3).',
        source="000 §3.5",
        kind="cards",
    )
    kitty_size: int = option(
        3,
        "Cards left face down (the kitty); the declarer takes them and "
        "discards as many (with eliminations: the kitty joins the eliminated "
        "hands and he discards what he holds beyond ten). players × "
        "hand_size + kitty = the cards in play.",
        source="003; 000 §3.2.1; §3.3-3.5",
        low=1,
        high=13,
    )
    deal: str = option(
        "dealt",
        "How the hands are made: dealt from the shuffled deck, or "
        "drafted (변형 2마): in turn each player takes the top two cards of the "
        "stock, sees only the upper one, keeps the upper or the lower and puts "
        "the other out of play; the last table.kitty_size cards are the kitty.",
        source="000 §3.2.1; §3.5.1 (변형 2마)",
        choices=("dealt", "draft"),
    )
    undealt: int = option(
        0,
        "Cards of the deck that no hand and no kitty holds: out of play for "
        "the hand (변형 2마: the 20 cards the draft puts aside; Mighty Network "
        "4.0's 2마: 26).",
        source="000 §3.5.1",
        low=0,
        high=40,
    )
    partner_hands: bool = option(
        False,
        "허니문: each player also plays a friend hand seated "
        "right after him (선-선프렌드-후-후프렌드); friend hands never "
        "bid, and the declarer's friend is his own friend hand.",
        source="000 §3.5.1 (허니문 마이티)",
    )
    ghost: bool = option(
        False,
        "Ghost 4마 (고마): one more hand than players is dealt, the "
        "ghost's, kept face down in its dealt order; the ghost never bids and "
        "plays the top card of its pile each trick; it may be the friend.",
        source="000 §3.5.2 (변형 4마, 고스트); §7.22.1 (엠솔 4마)",
    )
    ghost_plays: str = option(
        "top_card",
        "What the ghost plays: the top card of its pile "
        "whatever it is (the seed: 위부터 턴마다 차례대로 낸다), or the "
        "first card from the top that the rules allow (a local reading).",
        source="000 §3.5.2; footnote 19",
        choices=("top_card", "first_legal"),
    )
    rank_eleven: bool = option(
        False,
        "서울과고's 57-card deck: every suit gains a rank 11 "
        "between 10 and J, written S11 (스페이드 11), never J.",
        source="000 §3.3 (플레잉카드에 11을 넣어 57장)",
    )
    dummy: bool = option(
        False,
        "시흥 은마: one more hand than players is dealt, the dummy's "
        "(은실), seated after the players; the dummy never bids. The declarer "
        "calls one card: its holder is eliminated, or the dummy when nobody "
        "holds it (the kitty or the dummy's hand), with no second call. An "
        "eliminated player takes up the dummy's hand and plays it, so the "
        "players always play the tricks (needs table.eliminated = 1).",
        source="000 §7.21 (시흥 은마)",
    )


#: What a tournament's ties are broken by, in the order given (``tournament.tie_break``).
TIE_BREAK_KEYS = ("raw", "per_hand", "place", "hands", "declarer_success", "name")
#: Where the tournament options come from: the tools of other table games (docs/tournament-notes.md).
TOURNAMENTS = "docs/tournament-notes.md"


@dataclass(frozen=True)
class Tournament:
    """Scoring across the tables of a league's rounds (``mighty round start``): what ranks the
    players when each round seats them at several tables."""

    score: str = option(
        "raw",
        "What ranks the players across tables: the points of their hands "
        "(raw); the points per hand played (per_hand), for tables that play "
        "different numbers of hands; or place points won at each table of each "
        "round (place), so a table's swings weigh as much as any other's.",
        source=f"{TOURNAMENTS} (Mahjong Pantheon: uma by place; V:TES Archon: "
        "tournament points by place)",
        choices=("raw", "per_hand", "place"),
    )
    place_points: list = option(
        [60, 48, 36, 24, 12],
        'With score = "place": the points of '
        "the first, second, ... place at a table (a table's places by "
        "the points of its hands in the round; tied players share their "
        "places' points equally).",
        source=f"{TOURNAMENTS} (V:TES Archon: 60/48/36/24/12, ties averaged)",
        kind="place_points",
    )
    size_adjusted: bool = option(
        True,
        'With score = "place": a table of another size than '
        "place_points lists takes the list stretched or shrunk to its "
        "size (the first and last places keep their points, the places "
        "between are spread evenly), so every table gives out the same "
        "range; false: places past the list get 0.",
        source=f"{TOURNAMENTS} (V:TES Archon: 60/48/24/12 at a table of "
        "4; PySkat: per-table-size bonuses)",
    )
    absent: str = option(
        "none",
        "A player of the tournament absent from a round: gets nothing "
        'for it (none), or, with score = "place", his average place points '
        "of the rounds he played (average).",
        source=f"{TOURNAMENTS} (Mahjong "
        "Pantheon: a fixed score for a substitute; tichu-tournament: average "
        "adjustments)",
        choices=("none", "average"),
    )
    tie_break: list = option(
        ["raw", "per_hand"],
        "Players equal on the tournament score are "
        "ordered by these keys, in turn: raw points, points per hand, place "
        "points, hands played, contracts made as declarer, name. Those equal "
        "on every key listed share a place (listed by name); list name last "
        "to give each his own place.",
        source=f"{TOURNAMENTS} (V:TES Archon: game wins, then VP, then TP; "
        "Pantheon #714: secondary keys, shared places)",
        kind="tie_break",
    )
