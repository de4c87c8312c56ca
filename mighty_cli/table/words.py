"""The words a table says besides cards and bids, in English and Korean: one vocabulary for the
referee (``mighty referee``), the score-keeper (``mighty record``, ``record --evening``) and any
other entry made at a table.

Each meaning (:data:`WORDS`) has its words: first the English word the prompts and the notation
use, then the other English spellings, then the clubs' Korean words, the first of which is the
one a Korean message names (:func:`said`). The short forms (``p``, ``t``, ``q``, ``st``) are
apart (:data:`SHORT_FORMS`): they are read where an entry starts with a command, never where a
name is answered (``u`` could begin a name). An entry is read whole, case and spaces aside
(``마이티 프렌드`` is ``마이티프렌드``, ``NF`` is ``nf``). A word has one meaning at a
question; two mean another thing at a question the first never meets: ``-`` is no friend at
the friend call and the kitty in an elimination call, ``no`` no friend at the friend call and
"discard it" when the evening is quit with unsaved work.

The friend calls the hand record itself reads (``mighty``, ``초구``, ``first-trick``) are the
engine's (:data:`~mighty_cli.engine.hand.actions.CALL_SPELLINGS`); the table's words for them
start from those. Cards and bids said in Korean (``스페이드 14``, ``클로버 2 다이아 3``) are read
by ``engine/cards/korean.py``, after these words (:func:`normalize_entry`).

``보기`` is ``table`` (the table drawn: the contract, the points, the friend, the cards left),
as ``show`` is; a player's cards are ``패 NAME`` (``hand NAME``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..engine.cards.korean import read_korean
from ..engine.hand.actions import CALL_SPELLINGS
from ..engine.translation import N_, _, get_language

if TYPE_CHECKING:
    from ..engine.ruleset import Ruleset

#: Each meaning and its words: the English word first, then other English spellings, then the
#: Korean words (the first of them the one Korean messages name).
WORDS: dict[str, tuple[str, ...]] = {
    # the election
    "pass": ("pass", "패스", "빠스"),
    "miss": ("miss", "dm", "dealmiss", "deal-miss", "deal_miss", "딜 미스", "미스", "미스 딜"),
    "contract": ("contract", "raise", "change", "공약"),
    # the friend call
    "mighty": (*CALL_SPELLINGS["mighty"], "마이티 프렌드", "마이티 프랜드"),
    "joker": (*CALL_SPELLINGS["joker"], "조커", "죠커", "조커 프렌드", "조커 프랜드"),
    "none": (
        *CALL_SPELLINGS["none"],
        "no",
        "nf",
        "alone",
        "-",
        "노프렌드",
        "노프",
        "노프랜드",
        "없음",
        "프렌드 없음",
    ),
    "first-trick": (*CALL_SPELLINGS["first-trick"], "초구 프렌드", "초구 프랜드"),
    "last-trick": (*CALL_SPELLINGS["last-trick"], "막구 프렌드", "막구 프랜드"),
    #: 허니문: the declarer's own friend hand, the only call.
    "own-friend": ("friend", "partner", "own", "프렌드", "프렌드 패", "친구"),
    # the play
    "joker-call": ("joker-call", "jokercall", "조콜", "조커 콜"),
    # 6마, 7마 and 시흥 은마: the kitty and the dummy in an elimination call, the pile dealt out
    "kitty": ("kitty", "-", "키티", "바닥"),
    "dummy": ("dummy", "더미", "은실"),
    "deal": ("deal", "딜", "나누기"),
    # any time
    "table": ("table", "show", "보기", "테이블"),
    "legal": ("legal", "가능"),
    "hand": ("hand", "패"),
    "undo": ("undo", "back", "무르기", "취소", "뒤로"),
    "save": ("save", "저장"),
    "help": ("help", "도움말"),
    "quit": ("quit", "exit", "종료", "그만"),
    # between hands
    "standings": ("standings", "totals", "순위", "합계"),
    "dealer": ("dealer", "딜러"),
    "opener": ("opener", "선"),
    "out": ("out", "sit", "쉬기"),
    # the answer yes to a yes-or-no question ("record it all the same?")
    "yes": ("yes", "y", "예", "네", "응"),
    # the answers to "unsaved work: save it?"
    "keep": ("keep", "yes", "y", "예", "네"),
    "discard": ("discard", "d", "no", "n", "버리기", "아니오"),
    "cancel": ("cancel", "b", "돌아가기"),
}
#: The short forms typed where an entry starts with a command (the referee, the evening's
#: opening question): never where a name is answered.
SHORT_FORMS = {
    "p": "pass",
    "u": "undo",
    "s": "table",
    "t": "table",
    "l": "legal",
    "h": "help",
    "?": "help",
    "q": "quit",
    "ft": "first-trick",
    "lt": "last-trick",
    "st": "standings",
}
#: The friend calls by name, in the order a message lists them.
FRIEND_CALLS = ("mighty", "joker", "none", "first-trick", "last-trick")
#: A player named as the friend (너 프렌드): ``player:NAME``, or the Korean words and the name.
PLAYER_CALL = ("player:", "너 프렌드", "너프렌드")
#: The player call as a message shows it, in English and in Korean.
PLAYER_CALL_SAID = N_("player:NAME")
#: What the referee reads at the start of an entry, and the evening besides.
REFEREE = (
    "pass",
    "miss",
    "contract",
    *FRIEND_CALLS,
    "joker-call",
    "table",
    "legal",
    "hand",
    "undo",
    "save",
    "help",
    "quit",
)
EVENING = REFEREE + ("standings", "dealer", "opener", "out")
#: The commands followed by what they act on (무르기 2, 저장 FILE, 패 Bo, 딜 미스 Bo, 선 Bo).
WITH_ARGUMENT = ("miss", "contract", "hand", "undo", "save", "dealer", "opener", "out")
#: The commands of ``mighty record --evening``'s opening question (a declarer's name
#: otherwise); at a hand's questions ``undo`` takes the last answer back and ``quit`` stops.
RECORD = ("miss", "standings", "help", "quit")
#: The answers to "unsaved work: save it?" when the evening is quit (Enter keeps it too).
QUIT_ANSWERS = ("keep", "save", "discard", "cancel", "undo")


def key(text: str) -> str:
    """An entry as the vocabulary compares it: lowercase, spaces aside."""
    return "".join(text.lower().split())


@functools.lru_cache(maxsize=64)
def _table(meanings: tuple[str, ...], short: bool) -> dict[str, str]:
    """Each word of ``meanings`` (compared as :func:`key` makes it) and what it means."""
    table = {key(word): meaning for meaning in meanings for word in WORDS[meaning]}
    if short:
        table.update(
            (word, meaning) for word, meaning in SHORT_FORMS.items() if meaning in meanings
        )
    return table


def meaning(text: str, meanings: Iterable[str] = EVENING, short: bool = False) -> str | None:
    """What a whole entry means among ``meanings`` (its English word), or None. ``short``: the
    one-letter short forms count too."""
    return _table(tuple(meanings), short).get(key(text))


def means(text: str, *meanings: str, short: bool = False) -> bool:
    """Whether a whole entry is one of the words of ``meanings``."""
    return meaning(text, meanings, short) is not None


def command(text: str, meanings: Iterable[str] = EVENING) -> tuple[str | None, str]:
    """The command among ``meanings`` an entry starts with (its English word, one-letter short
    forms counted) and what follows it: ``무르기 2`` -> ``("undo", "2")``, ``딜 미스 Bo`` ->
    ``("miss", "Bo")``; ``(None, text)`` when it starts with none."""
    words = text.split()
    meanings = tuple(meanings)
    for size in (2, 1):  # the two-word Korean commands first (딜 미스, 미스 딜)
        if len(words) >= size:
            found = meaning(" ".join(words[:size]), meanings, short=True)
            if found is not None:
                return found, " ".join(words[size:])
    return None, text


def contract_text(text: str | None) -> str | None:
    """A contract as typed, in notation (``스페이드 14`` is ``14S``); None for nothing typed."""
    if not text:
        return None
    return normalize_entry(text.strip(), expect="bid").upper()


def friend_value(text: str | None) -> str | None:
    """A friend as typed, or ``none`` for any word for no friend (``none``, ``nf``, ``-``,
    ``노프렌드``, ``없음``): the declarer played alone."""
    if text is None:
        return None
    return "none" if means(text, "none") else text.strip()


def player_called(text: str) -> str | None:
    """The name in a player call (``player:Bo``, ``너 프렌드 Bo``), or None."""
    low = text.strip().lower()
    for start in PLAYER_CALL:
        if low.startswith(start) and (start.endswith(":") or low[len(start) :][:1].isspace()):
            return text.strip()[len(start) :].strip()
    return None


def said(meaning_: str) -> str:
    """A meaning's word in the language the tool speaks: ``none`` or ``노프렌드``."""
    if meaning_ == "player":
        return _(PLAYER_CALL_SAID)
    words = WORDS[meaning_]
    if get_language() == "ko":
        return next((word for word in words if not word.isascii()), words[0])
    return words[0]


def normalize_entry(text: str, expect: str | None = None) -> str:
    """One entry said the Korean way, in the English words and the notation the prompts read.

    A whole entry of the vocabulary is its English word (``패스`` -> ``pass``, ``마이티 프렌드``
    -> ``mighty``, ``노프렌드`` -> ``none``, ``조콜`` -> ``joker-call``); a command and what
    follows (``무르기 2`` -> ``undo 2``, ``딜 미스 Bo`` -> ``miss Bo``, ``공약 스페이드 16`` ->
    ``contract 16S``, ``너 프렌드 Bo`` -> ``player:Bo``); a card and ``조콜`` is that card led
    with the joker call (``클로버 3 조콜`` -> ``C3!``); anything else is read as cards or a bid
    (:func:`~mighty_cli.engine.cards.korean.read_korean`, with ``expect``). An entry without
    Hangul comes back unchanged, so English keeps working."""
    stripped = text.strip()
    if stripped.isascii() or not stripped:
        return text
    whole = meaning(stripped, EVENING)
    if whole is not None:
        return whole
    name = player_called(stripped)
    if name is not None:
        return f"player:{name}" if name else "player:"
    found, rest = command(stripped, WITH_ARGUMENT)
    if found is not None and rest:
        if found == "contract":
            return f"contract {read_korean(rest, expect='bid')}"
        return f"{found} {rest}"
    words = stripped.split()
    for size in (2, 1):  # a card and the joker call said after it: 클로버 3 조콜, C3 조커 콜
        if len(words) > size and means(" ".join(words[-size:]), "joker-call"):
            return read_korean(" ".join(words[:-size]), expect="card").strip() + "!"
    return read_korean(text, expect)


def words_for(*meanings: str) -> list[str]:
    """The words of ``meanings`` a prompt offers for completion (one word each: no spaces)."""
    return [word for m in meanings for word in WORDS[m] if " " not in word]


def not_a_friend_call(call: str, rules: Ruleset | None = None) -> str:
    """The refusal of an entry that is no friend call: the calls in the language the tool
    speaks (노프렌드, 초구 ... in Korean), those the ruleset allows where it is given."""
    allowed = [m for m in FRIEND_CALLS if rules is None or _allowed(m, rules)]
    if rules is None or rules.friend.player:
        allowed.append("player")
    return _("{call} is not a friend call: say a card or {calls}").format(
        call=repr(call.strip()), calls=", ".join(said(m) for m in allowed)
    )


def _allowed(call: str, rules: Ruleset) -> bool:
    f = rules.friend
    return {
        "mighty": f.mighty,
        "joker": f.joker,
        "none": f.no_friend,
        "first-trick": f.first_trick,
        "last-trick": f.last_trick,
    }[call]
