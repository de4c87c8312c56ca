"""Korean input: suits, bids and cards as Mighty clubs say them.

A referee at a Korean table hears ``스페이드 14``, ``14 노기``, ``패스``, ``마이티``, ``다이아 10``;
these functions read them. Suits: 스페이드/스페/♠, 다이아/다이아몬드, 하트, 클로버/클럽/크로바;
no-trump: 노기루다/노기. Ranks: 2-10, A/에이스, K/킹, Q/퀸, J/잭; the joker: 조커 (컬러 조커 in a
two-joker deck), the black joker: 흑백 조커 (흑조커, 블랙 조커, 검은 조커). Spaces between
a suit and its number or rank are optional, and a bid may name its number first or last.

The readings of cards, trumps and bids (:func:`~.cards.korean_card` and the others) live in
:mod:`cards`, whose parsers fall back on them when the canonical notation does not match, so
every place that reads a card, a card list, a trump or a bid accepts Korean, and English input
works whatever the language; they are re-exported here. :func:`read_korean` turns an entry of
cards or a bid into the notation (``스페이드 14`` -> ``14S``, ``클로버 2 다이아 3`` -> ``C2 D3``);
the other words a table says (``패스``, ``노프렌드``, ``무르기``) are the table's vocabulary
(``mighty_cli/table/words.py``), which reads them first. The formatters write the Korean forms
back: ``parse_card(format_card_ko(c)) == c``.
"""

from __future__ import annotations

from ..errors import InvalidNotation
from . import (  # noqa: F401 (the readings live with the notation they fall back from)
    BLACK_JOKER,
    BLACK_JOKER_WORDS,
    CLUBS,
    COLOUR_JOKER_WORDS,
    DIAMONDS,
    HEARTS,
    JOKER,
    JOKER_PREFIXES,
    JOKER_WORDS,
    NO_SUIT,
    NO_TRUMP_WORDS,
    RANK_NAMES,
    RANK_WORDS,
    SPADES,
    Bid,
    format_bid,
    korean_bid,
    korean_card,
    korean_card_names,
    korean_trump,
    one_card,
    parse_bid,
)

#: The forms the formatters write.
SUIT_OUTPUT = {SPADES: "스페이드", DIAMONDS: "다이아", HEARTS: "하트", CLUBS: "클로버"}
NO_TRUMP_OUTPUT = "노기루다"
JOKER_OUTPUT = "조커"
BLACK_JOKER_OUTPUT = "흑백 조커"


def read_korean(text: str, expect: str | None = None) -> str:
    """An entry of cards or a bid said the Korean way, in the notation.

    ``스페이드 14`` / ``14 노기`` -> ``14S`` / ``14NT``; cards ``스페이드 A`` -> ``SA``,
    ``클로버 2 다이아 3 하트 4`` -> ``C2 D3 H4``; ``조커 하트`` or ``조커/하트`` -> ``JK/H`` (the
    joker led asking for hearts); a trailing ``!`` (joker call declared) is kept. An entry without
    Hangul or a card symbol, or one these words do not cover, comes back unchanged, so English
    keeps working and the prompt's own parser reports what it cannot read.

    ``다이아 10`` is both a card and a (too low) bid: with ``expect="bid"`` it is the bid
    ``10D``, with ``expect="card"`` or by default the card ``D10``; a suit and 11 or more is
    always a bid, a number said first always a bid, except that with ``expect="card"`` a suit
    and 11 is 서울과고's card 11 (``하트 11`` -> ``H11``).
    """
    stripped = text.strip()
    if stripped.isascii() or not stripped:
        return text
    bang = "!" if stripped.endswith("!") else ""
    body = stripped[:-1].rstrip() if bang else stripped
    compact = "".join(body.split())
    bid = _bid(body)
    eleven = expect == "card" and korean_card(body) is not None  # 서울과고's 하트 11: a card
    if (
        bid is not None
        and not bang
        and not eleven
        and (
            expect == "bid"
            or bid.number > 10
            or body[:1].isdigit()
            or expect is None
            and korean_card(body) is None
        )
    ):
        return format_bid(bid)
    for joker, name in JOKER_PREFIXES:
        if compact.startswith(joker) and len(compact) > len(joker):
            asked = korean_trump(compact[len(joker) :].lstrip("/"))
            if asked not in (None, NO_SUIT):
                return f"{name}/{'SDHC'[asked]}" + bang
    names = korean_card_names(body)
    if names and all(one_card(name) is not None for name in names):
        return " ".join(names) + bang
    return text


def _bid(text: str) -> Bid | None:
    try:
        return parse_bid(text)
    except InvalidNotation:
        return None


def format_trump_ko(trump: int | None) -> str:
    """A trump as clubs say it: ``스페이드`` ... ``노기루다``."""
    return NO_TRUMP_OUTPUT if trump is None else SUIT_OUTPUT[trump]


def format_card_ko(card: int) -> str:
    """A card as clubs say it: ``스페이드 A``, ``다이아 10``, ``조커``."""
    card &= 127  # two decks: a copy reads as its original
    if card == JOKER:
        return JOKER_OUTPUT
    if card == BLACK_JOKER:
        return BLACK_JOKER_OUTPUT
    return f"{SUIT_OUTPUT[card >> 4]} {RANK_NAMES[card & 15]}"


def format_bid_ko(bid: Bid) -> str:
    """A bid as clubs say it: ``스페이드 14``, ``노기루다 15``."""
    return f"{format_trump_ko(bid.trump)} {bid.number}"
