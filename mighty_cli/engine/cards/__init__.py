"""Cards, card lists, suits and bids, with their notation (docs/record-format.md).

A card is a small ``int`` so that the engine can play thousands of hands a second:
``suit << 4 | rank`` with suits ``S D H C`` = 0-3 and ranks 2-14 (ace = 14). The joker is
``JOKER`` (suit 4, rank 0). Every parser has its formatter, and ``parse(format(x)) == x``.

Two-joker decks (경기 2018, 더블 조커 마이티, 8마 Chicago) add the black joker, ``BLACK_JOKER``
(suit 4, rank 1), written ``BJ`` (흑백 조커). ``JK`` stays the joker of the 53-card deck and, in a
two-joker deck, names the colour joker (컬러 조커; ``RJ`` is read as ``JK``), so records written
before the black joker read unchanged. A ruleset deals it under ``cards.jokers = 2``
(``double-joker``, ``gyeonggi-2018``); a one-joker deck refuses it as a card not in the deck (see
docs/record-format.md and docs/bundled-rulesets.md, "Two jokers"). The play rules test a joker by the
contract's joker mask or by its suit bits (``card & 112 == 64``), not by ``== JOKER`` (which only
picks a message's words), so a second copy of a joker (a copy bit 128 above the suit, 8마
Chicago) is a joker too.
서울과고's 57-card deck (000 §3.3) adds a rank 11 to every suit, between 10 and J, written with
digits: ``S11`` (``스페이드 11``), never ``J``, which stays the jack. Its code is rank 15 of its
suit (``ELEVEN``; J keeps 11), so within a suit a card's code orders it except for the 11:
:func:`rank_order` (and the trick rules in play.py and contract.py) rank it between 10 and J.
No 53-card ruleset deals it: the engine refuses it as a card not in play.
Two decks (8마 Chicago, ``table.decks = 2``, 000 §3.5.3): the second copy of a card is
``card | COPY`` (``copy << 7 | suit << 4 | rank``), so hands, legal masks and trick rules stay
bitmasks of ints. Both copies are written the same (``SA``): a list with a card named twice
(``parse_cards(..., copies=True)``) reads copy 0 then copy 1, and formatting drops the copy
bit. Whatever asks which card a card is (Mighty, the joker, the joker-call card, a called
friend card, its suit) asks it of :func:`base`.

Input is case-insensitive and accepts the symbols ``♠ ♦ ◆ ♥ ♣`` for the suit letters and ``T``
for ten; output is always the canonical form: ``SA``, ``D10``, ``JK``, ``13H``, ``16NT``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import NamedTuple, TypeAlias

from ..errors import InvalidNotation
from ..translation import N_, _

#: A card, ``copy << 7 | suit << 4 | rank`` (above): an int, as python-chess's ``Square`` is.
Card: TypeAlias = int
#: A set of cards, bit ``card`` set for each card in it (a hand, a trick, the played cards, a
#: suit's cards), as python-chess's ``Bitboard`` is a set of squares: ``mask >> card & 1``.
CardMask: TypeAlias = int
#: A suit: ``SPADES`` to ``CLUBS`` (0-3); ``NO_SUIT`` (4) for the jokers.
Suit: TypeAlias = int
#: A trump: a suit, or None for no-trump.
Trump: TypeAlias = Suit | None

#: The cards' API: notation, the deck's constants and the Korean readings the parsers fall back on.
__all__ = [
    "BID_HELP",
    "BLACK_JOKER",
    "BLACK_JOKER_WORDS",
    "Bid",
    "CARD_HELP",
    "Card",
    "CardMask",
    "COLOUR_JOKER_WORDS",
    "COPY",
    "DECK",
    "DECK2",
    "DECK_57",
    "ELEVEN",
    "ELEVENS",
    "EXTRA_CARD_NAMES",
    "JOKER",
    "JOKER_PREFIXES",
    "JOKER_WORDS",
    "KOREAN_SUIT_WORDS",
    "NO_SUIT",
    "NO_TRUMP_WORDS",
    "POINT_CARDS",
    "RANKS",
    "RANK_NAMES",
    "RANK_ORDER",
    "RANK_WORDS",
    "SUITS",
    "SUIT_LETTERS",
    "SUIT_NAMES",
    "SUIT_NAMES_KO",
    "SUIT_SYMBOLS",
    "SUIT_WORDS",
    "base",
    "format_bid",
    "format_card",
    "format_cards",
    "format_trump",
    "is_joker",
    "is_point_card",
    "korean_bid",
    "korean_card",
    "korean_card_names",
    "korean_trump",
    "make_card",
    "one_card",
    "parse_bid",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "parse_trump",
    "rank_of",
    "rank_order",
    "sort_key",
    "sorted_cards",
    "suit_of",
    "Suit",
    "Trump",
    "trump_name",
]

SPADES, DIAMONDS, HEARTS, CLUBS = 0, 1, 2, 3
NO_SUIT = 4
SUITS = (SPADES, DIAMONDS, HEARTS, CLUBS)
SUIT_LETTERS = "SDHC"
SUIT_SYMBOLS = "♠◆♥♣"
SUIT_NAMES = ("spades", "diamonds", "hearts", "clubs")
#: The suits in words as text shows them (translated where shown: ``trump_name``).
SUIT_WORDS = (N_("spades"), N_("diamonds"), N_("hearts"), N_("clubs"))
SUIT_NAMES_KO = ("스페이드", "다이아몬드", "하트", "클로버")

JOKER = NO_SUIT << 4
#: The black (흑백) joker of two-joker decks; ``JOKER`` is then the colour (컬러) joker.
BLACK_JOKER = NO_SUIT << 4 | 1
#: The copy bit: the second deck's copy of a card is ``card | COPY`` (table.decks = 2).
COPY = 128
RANKS = tuple(range(2, 15))
ACE, KING, QUEEN, JACK, TEN = 14, 13, 12, 11, 10
RANK_NAMES = {
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "10",
    JACK: "J",
    QUEEN: "Q",
    KING: "K",
    ACE: "A",
}

#: 서울과고's rank 11 (table.rank_eleven): code 15 of its suit, ranked between 10 and J.
ELEVEN = 15
RANK_NAMES[ELEVEN] = "11"
#: The four 11s (S11 D11 H11 C11).
ELEVENS = tuple(suit << 4 | ELEVEN for suit in SUITS)

#: The 53 cards in a fixed order: spades 2..A, diamonds, hearts, clubs, then the joker.
DECK = tuple(suit << 4 | rank for suit in SUITS for rank in RANKS) + (JOKER,)
#: 서울과고's 57 cards in their canonical order: spades 2..10, 11, J..A, diamonds, hearts, clubs,
#: then the joker (the order mighty-deal/1 shuffles).
DECK_57 = tuple(
    suit << 4 | rank for suit in SUITS for rank in (*range(2, 11), ELEVEN, *range(11, 15))
) + (JOKER,)
#: The 106 cards of two decks (8마 Chicago): the 53, then their copies in the same order.
DECK2 = DECK + tuple(card | COPY for card in DECK)
#: The 20 point cards (A K Q J 10 of each suit).
POINT_CARDS = frozenset(card for card in DECK if card & 15 >= TEN)

_SUIT_INPUT = {
    "S": SPADES,
    "D": DIAMONDS,
    "H": HEARTS,
    "C": CLUBS,
    "♠": SPADES,
    "♦": DIAMONDS,
    "◆": DIAMONDS,
    "♥": HEARTS,
    "♣": CLUBS,
    "♤": SPADES,
    "♢": DIAMONDS,
    "♡": HEARTS,
    "♧": CLUBS,
}
_RANK_INPUT = {name: rank for rank, name in RANK_NAMES.items()} | {"T": TEN}
_CARD_NAMES = {
    card: (SUIT_LETTERS[card >> 4] + RANK_NAMES[card & 15]) if card != JOKER else "JK"
    for card in DECK_57
}
_CARD_INPUT = {name: card for card, name in _CARD_NAMES.items()}
_CARD_INPUT["JOKER"] = JOKER
_CARD_INPUT["JO"] = JOKER
#: Cards outside the 53-card deck that the notation can write (only added, never renamed).
EXTRA_CARD_NAMES = {BLACK_JOKER: "BJ"}
_CARD_NAMES.update(EXTRA_CARD_NAMES)
# two decks (8마 Chicago): a copy reads the same as its original (the black joker's and the 11s' too)
_CARD_NAMES.update({card | COPY: name for card, name in list(_CARD_NAMES.items())})
_CARD_INPUT.update(
    {
        "BJ": BLACK_JOKER,
        "BLACKJOKER": BLACK_JOKER,
        "BLACK-JOKER": BLACK_JOKER,
        "RJ": JOKER,
        "REDJOKER": JOKER,
        "RED-JOKER": JOKER,
    }
)

CARD_HELP = N_(
    "a card is a suit S D H C (or ♠ ◆ ♥ ♣, 스페이드 다이아 하트 클로버) and a rank "
    "2-10 (or T), J, Q, K, A; the joker is JK (조커), the black joker of two-joker "
    "decks BJ (흑백 조커)"
)
BID_HELP = N_(
    "{text!r} is not a bid: expected a number then S, D, H, C or NT (e.g. 13H, 16NT, 스페이드 14)"
)


def base(card: int) -> int:
    """The card a copy is a copy of (two decks): ``SA`` for both ``SA``; a one-deck card itself."""
    return card & 127


def suit_of(card: int) -> int:
    """The suit of a card (``NO_SUIT`` for either joker), copies included."""
    return card >> 4 & 7


def is_joker(card: int) -> bool:
    """Whether a card is a joker (either; a second copy too: the suit bits say it, not the
    code)."""
    return card & 112 == 64


def rank_of(card: int) -> int:
    """The rank code of a card, 2-14 (0 for the joker, 1 for the black joker; ``ELEVEN``, 15,
    for 서울과고's 11)."""
    return card & 15


#: Each rank code's place in the order of play (index: the code): 2-10 as themselves, the 11
#: at 10.5, J to A as themselves (the joker's 0 is lowest).
RANK_ORDER = tuple(10.5 if rank == ELEVEN else rank for rank in range(16))


def rank_order(card: int) -> float:
    """A suited card's place in its suit, 2 (the 2) to 14 (the ace), the 11 at 10.5: compare
    cards with this, never with their codes (서울과고's 11 has code 15)."""
    return RANK_ORDER[card & 15]


def make_card(suit: int, rank: int) -> int:
    """The card of a suit and a rank."""
    return suit << 4 | rank


def is_point_card(card: int) -> bool:
    """Whether a card is one of the 20 point cards (A K Q J 10); the joker is not."""
    return card & 15 >= TEN


def parse_card(text: str) -> int:
    """Parse one card: ``SA``, ``d10``, ``DT``, ``♥Q``, ``jk``, ``BJ`` (the black joker)."""
    key = text.strip().upper()
    card = _CARD_INPUT.get(key)
    if card is not None:
        return card
    if len(key) >= 2 and key[0] in _SUIT_INPUT and key[1:] in _RANK_INPUT:
        return _SUIT_INPUT[key[0]] << 4 | _RANK_INPUT[key[1:]]
    card = korean_card(text)
    if card is not None:
        return card
    raise InvalidNotation(
        _("{text!r} is not a card: {help}").format(text=text.strip(), help=_(CARD_HELP))
    )


def format_card(card: int) -> str:
    """The canonical name of a card: ``SA``, ``D10``, ``JK``."""
    try:
        return _CARD_NAMES[card]
    except KeyError:
        raise InvalidNotation(_("{code!r} is not a card code").format(code=card)) from None


def parse_cards(text: str | Iterable[str], copies: bool = False) -> list[int]:
    """Parse a list of cards, one string separated by spaces (or commas), or an iterable of names.

    A card named twice is an error: no list of one deck may hold a card twice. With ``copies``
    (two decks, table.decks = 2) the second naming is the card's second copy (``card | COPY``),
    and a third naming is the error.
    """
    if isinstance(text, str):
        names = text.replace(",", " ").split()
        if not text.isascii():
            names = korean_card_names(text)
    else:
        names = list(text)
    cards = [parse_card(name) for name in names]
    if len(set(cards)) != len(cards):
        seen: set[int] = set()
        for index, card in enumerate(cards):
            if copies and card in seen and card | COPY not in seen:
                card = cards[index] = card | COPY  # two decks: the second copy
            elif card in seen:
                raise InvalidNotation(
                    _("{card} appears twice in {cards!r}").format(
                        card=format_card(card), cards=" ".join(names)
                    )
                )
            seen.add(card)
    return cards


def format_cards(cards: Iterable[int]) -> str:
    """A card list in canonical form, separated by single spaces, in the order given."""
    return " ".join(format_card(card) for card in cards)


def sort_key(card: Card) -> tuple[int, float]:
    """Display order: the joker (then the black joker) first, then suits S D H C, high ranks
    first (서울과고's 11 between J and 10); a copy sorts with its original (two decks)."""
    card &= 127
    if card >> 4 == NO_SUIT:
        return (-1, card & 15)
    rank = card & 15
    return (card >> 4, -rank if rank != ELEVEN else -10.5)


def sorted_cards(cards: Iterable[int]) -> list[int]:
    """Cards in display order."""
    return sorted(cards, key=sort_key)


# --- suits and trumps -------------------------------------------------------------------------

_TRUMP_INPUT = {
    **_SUIT_INPUT,
    "NT": None,
    "N": None,
    "NOTRUMP": None,
    "NO-TRUMP": None,
    "NO_TRUMP": None,
    "노기": None,
    "노기루다": None,
    "SPADES": SPADES,
    "DIAMONDS": DIAMONDS,
    "HEARTS": HEARTS,
    "CLUBS": CLUBS,
    "SPADE": SPADES,
    "DIAMOND": DIAMONDS,
    "HEART": HEARTS,
    "CLUB": CLUBS,
}


def parse_suit(text: str) -> int:
    """Parse a suit: ``S``, ``♠``, ``spades`` (case-insensitive)."""
    suit = _TRUMP_INPUT.get(text.strip().upper(), NO_SUIT)
    if suit == NO_SUIT and not text.isascii():
        suit = korean_trump(text)
    if suit is None or suit == NO_SUIT:
        raise InvalidNotation(
            _("{text!r} is not a suit: expected S, D, H or C").format(text=text.strip())
        )
    return suit


def parse_trump(text: str) -> int | None:
    """Parse a trump: a suit, or ``NT`` for no-trump (returned as ``None``)."""
    key = text.strip().upper()
    if key in _TRUMP_INPUT:
        return _TRUMP_INPUT[key]
    if not text.isascii():
        trump = korean_trump(text)
        if trump != NO_SUIT:
            return trump
    raise InvalidNotation(
        _("{text!r} is not a trump: expected S, D, H, C or NT").format(text=text.strip())
    )


def format_trump(trump: int | None) -> str:
    """``S D H C`` or ``NT``."""
    return "NT" if trump is None else SUIT_LETTERS[trump]


def trump_name(trump: int | None) -> str:
    """A trump in words, in the current language: ``hearts``, ``no-trump`` (``하트``, ``노기루다``)."""
    return _("no-trump") if trump is None else _(SUIT_WORDS[trump])


# --- bids ------------------------------------------------------------------------------------


class Bid(NamedTuple):
    """A bid or contract: a number of point cards and a trump suit (``None`` for no-trump)."""

    number: int
    trump: int | None

    @property
    def no_trump(self) -> bool:
        return self.trump is None

    def __str__(self) -> str:
        return format_bid(self)


@functools.lru_cache(maxsize=1024)  # a site reads thousands of contracts, of some forty kinds
def parse_bid(text: str) -> Bid:
    """Parse a bid: ``13H``, ``16NT``, ``14 spades``, ``15♦`` (case-insensitive)."""
    raw = text.strip()
    compact = raw.replace(" ", "")
    digits = len(compact) - len(compact.lstrip("0123456789"))
    if digits == 0 or digits == len(compact) or digits > 3:
        if not raw.isascii():  # 스페이드 14: the clubs say the suit first
            bid = korean_bid(raw)
            if bid is not None:
                return bid
        raise InvalidNotation(_(BID_HELP).format(text=raw))
    try:
        trump = parse_trump(compact[digits:])
    except InvalidNotation:
        raise InvalidNotation(_(BID_HELP).format(text=raw)) from None
    return Bid(int(compact[:digits]), trump)


def format_bid(bid: Bid) -> str:
    """The canonical form of a bid: ``13H``, ``16NT``."""
    return f"{bid.number}{format_trump(bid.trump)}"


# --- Korean readings ----------------------------------------------------------------------------
# How Mighty clubs say suits, cards and bids (``스페이드 14``, ``다이아 10``, ``조커``): the parsers
# above fall back on these when the canonical notation does not match (cards/korean.py has the
# prompt
# entries and the Korean output forms).

#: Suit words, longest first where one starts another (스페이드 before 스페).
KOREAN_SUIT_WORDS = {
    "스페이드": SPADES,
    "스페": SPADES,
    "♠": SPADES,
    "♤": SPADES,
    "다이아몬드": DIAMONDS,
    "다이아": DIAMONDS,
    "다이야": DIAMONDS,
    "♦": DIAMONDS,
    "◆": DIAMONDS,
    "♢": DIAMONDS,
    "하트": HEARTS,
    "♥": HEARTS,
    "♡": HEARTS,
    "클로버": CLUBS,
    "클로바": CLUBS,
    "크로바": CLUBS,
    "클럽": CLUBS,
    "♣": CLUBS,
    "♧": CLUBS,
}
NO_TRUMP_WORDS = ("노기루다", "노기루", "노기", "노트럼프")
JOKER_WORDS = ("조커", "죠커")
#: Two-joker decks: the colour joker (the 53-card deck's joker) and the black one, longest first.
COLOUR_JOKER_WORDS = ("컬러조커", "칼라조커", "빨간조커", "레드조커")
BLACK_JOKER_WORDS = ("흑백조커", "블랙조커", "검은조커", "흑조커")
JOKER_PREFIXES = tuple((word, "BJ") for word in BLACK_JOKER_WORDS) + tuple(
    (word, "JK") for word in COLOUR_JOKER_WORDS + JOKER_WORDS
)
RANK_WORDS = {"에이스": ACE, "에이": ACE, "킹": KING, "퀸": QUEEN, "잭": JACK}
_PREFIXES = sorted(
    list(KOREAN_SUIT_WORDS.items()) + [(word, None) for word in NO_TRUMP_WORDS],
    key=lambda p: -len(p[0]),
)
_KOREAN_RANKS = {name: rank for rank, name in RANK_NAMES.items()} | {"T": TEN} | RANK_WORDS


def _squeeze(text: str) -> str:
    return "".join(text.split()).upper()


def _split_suit(compact: str) -> tuple[int | None, str] | None:
    """(suit or None for no-trump, the rest) when the text starts with a suit word."""
    for word, suit in _PREFIXES:
        if compact.startswith(word):
            return suit, compact[len(word) :]
    return None


def korean_trump(text: str) -> int | None:
    """A suit or ``None`` (no-trump) said in Korean; ``NO_SUIT`` when it is not one."""
    split = _split_suit(_squeeze(text))
    if split is None or split[1]:
        return NO_SUIT
    return split[0]


def korean_card(text: str) -> int | None:
    """A card said in Korean (``스페이드 A``, ``다이아10``, ``하트 킹``, ``조커``, ``흑백 조커``),
    else None."""
    compact = _squeeze(text)
    if compact in JOKER_WORDS or compact in COLOUR_JOKER_WORDS:
        return JOKER
    if compact in BLACK_JOKER_WORDS:
        return BLACK_JOKER
    split = _split_suit(compact)
    if split is None:
        return None
    suit, rest = split
    rank = _KOREAN_RANKS.get(rest)
    return None if suit is None or rank is None else make_card(suit, rank)


def korean_bid(text: str) -> Bid | None:
    """A bid said in Korean with its suit first (``스페이드 14``, ``노기 15``, ``스페14``), else
    None; a number first (``14 노기``, ``14스페``) is read by :func:`parse_bid` itself."""
    split = _split_suit(_squeeze(text))
    if split is None or not split[1].isdigit() or not split[1].isascii():
        return None
    return Bid(int(split[1]), split[0])


def korean_card_names(text: str) -> list[str]:
    """The cards of a list said in Korean, one canonical name each: ``클로버 2 다이아 3`` ->
    ``["C2", "D3"]``. A suit word and the rank after it make one card; a word that is no card is
    passed through as it is, so the caller's parser names it in its error."""
    words = text.replace(",", " ").split()
    names: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        pair = word + words[index + 1] if index + 1 < len(words) else None
        card = one_card(word)
        paired = one_card(pair) if card is None and pair is not None else None
        if paired is not None:
            names.append(format_card(paired))
            index += 2
            continue
        names.append(word if card is None else format_card(card))
        index += 1
    return names


def one_card(word: str) -> int | None:
    """One word as a card, in either language, else None."""
    if not word.isascii():
        return korean_card(word)
    try:
        return parse_card(word)
    except InvalidNotation:
        return None
