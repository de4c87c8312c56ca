"""Korean particles chosen by the word they follow: 김민수가, 박서준이, 14S를, Eddie로, 'Bo'는.

A Korean particle has two forms, one after a final consonant (batchim) and one after a vowel:
이/가, 은/는, 을/를, 과/와, 으로/로 (ㄹ takes 로), and the copula 이라/라, 이어야/여야,
이에요/예요. The catalog cannot know the word a placeholder will hold, so a Korean message
writes the particle attached to its placeholder in pair notation, ``{name}이(가)``,
``{card}을(를)``, ``{name}은(는)``, ``{x}와(과)``, ``{x}(으)로``, ``{x}(이)라는``, and
:func:`resolve` picks the form once the message is filled (``mighty_cli.engine.translation``
does that when a Korean message is formatted).

How a word ends (:func:`final_sound`) is read the way a club reads it aloud:

- Hangul: by its last syllable's batchim (ㄹ apart, for (으)로).
- A number: its last spoken syllable: 1 일, 3 삼, 6 육, 7 칠, 8 팔, 0 영 end in a consonant,
  2 이, 4 사, 5 오, 9 구 in a vowel; round numbers by their unit: 10 십, 100 백, 1000 천,
  10000 만, 억, 조.
- A card or a bid in the notation, as clubs say it: ``SA`` 스페이드 에이스, ``DK`` 다이아 킹,
  ``HQ`` 하트 퀸, ``CJ`` 클로버 잭, ``D10`` 다이아 십, ``JK`` 조커, ``14S`` 스페이드 십사,
  ``15NT`` 노기 십오; a suit symbol by its name (♠ 스페이드 ... ♣ 클로버).
- A Latin word by the usual reading of its last letters: -m, -n, -ng (Sam, Ben, Wang) end in a
  consonant, -l and -le in ㄹ (Paul, Kyle); -ne and -me after a vowel (Jane, Jerome); -ck, and
  -k -c -t -p -b after a single vowel (Jack, Erik, Eric, Pat, Philip, Bob); anything else in a
  vowel (Eddie, Peter, Mark, Ted). Up to three capitals are read letter by letter (L 엘, M 엠,
  N 엔, R 알 end in a consonant; ``CSV``, ``SQL``).
- Quotes, brackets and markup around the word are looked through (``'김민숙'은``,
  ``<a>Bo</a>는``); a word with an aside in brackets is read without it (``서울과고 (seoul)는``).

A word nothing reads (a symbol alone, nothing at all) takes the consonant form. The cases are
in ``tests/data/particle_cases.toml``, one table per rule.
"""

from __future__ import annotations

import re
import string

VOWEL, RIEUL, CONSONANT = "vowel", "rieul", "consonant"

#: Each pair as written, and its forms after a consonant, after ㄹ, after a vowel.
PAIRS = {
    "이(가)": ("이", "이", "가"),
    "가(이)": ("이", "이", "가"),
    "은(는)": ("은", "은", "는"),
    "는(은)": ("은", "은", "는"),
    "을(를)": ("을", "을", "를"),
    "를(을)": ("을", "을", "를"),
    "와(과)": ("과", "과", "와"),
    "과(와)": ("과", "과", "와"),
    "아(야)": ("아", "아", "야"),
    "야(아)": ("아", "아", "야"),
    "(으)로": ("으로", "로", "로"),
}
#: The copula (이) and the syllable after it: after a vowel 이어 contracts to 여, 이에 to 예,
#: 이었 to 였; otherwise 이 is dropped (이라는/라는, 이다/다).
_COPULA = {"어": ("이어", "여"), "에": ("이에", "예"), "었": ("이었", "였")}
#: Where a pair is written: one of PAIRS, or (이) before a syllable.
PAIR = re.compile("|".join(re.escape(pair) for pair in PAIRS) + r"|\(이\)([가-힣])")

_DIGITS = {
    "0": CONSONANT,
    "1": RIEUL,
    "2": VOWEL,
    "3": CONSONANT,
    "4": VOWEL,
    "5": VOWEL,
    "6": CONSONANT,
    "7": RIEUL,
    "8": RIEUL,
    "9": VOWEL,
}
#: A round number's last syllable by its count of trailing zeros: 십 백 천 만 (to 10^7) 억
#: (to 10^11) 조 (to 10^15) 경.
_UNITS = [CONSONANT] * 11 + [VOWEL] * 4 + [CONSONANT]
#: Letters said by name (CSV, SQL, DK as initials): 엘 and 알 end in ㄹ, 엠 and 엔 in a
#: consonant, every other letter's name in a vowel.
_LETTER_NAMES = {"L": RIEUL, "R": RIEUL, "M": CONSONANT, "N": CONSONANT}
#: A card's rank as said: 에이스, 킹, 퀸, 잭 (a number: as a number).
_RANKS = {"A": VOWEL, "K": CONSONANT, "Q": CONSONANT, "J": CONSONANT}
#: The suits' names all end in a vowel: 스페이드, 다이아, 하트, 클로버.
_SUIT_SYMBOLS = "♠♣♥◆♦♤♧♡◇"
_KOREAN_SUITS = ("스페이드", "스페", "다이아", "다이아몬드", "하트", "클로버", "클럽", "크로바")
_CARD = re.compile(r"^[SDHC♠♣♥◆♦](A|K|Q|J|\d{1,2})(?:/\S*)?!?$")
_JOKER = re.compile(r"^(?:JK|BJ)(?:/\S*)?!?$")
_BID = re.compile(r"^(\d+)\s?(?:S|D|H|C|NT|N|[♠♣♥◆♦])$")
_CLOSERS = "'\"’”」』》〉]}`*"
_VOWEL_LETTERS = "aeiouy"
_TAG = re.compile(r"<[^<>]*>$")
_ENTITY = re.compile(r"&#?\w+;$")
_OPENERS = re.compile(r"^(?:&#?\w+;|['\"‘“「『《〈(\[{`*])+")


def resolve(text: str) -> str:
    """``text`` with every particle in pair notation chosen by the word before it."""
    if "(" not in text:
        return text
    return PAIR.sub(lambda match: _chosen(text[: match.start()], match), text)


def _chosen(before: str, match: re.Match) -> str:
    sound = final_sound(before)
    pair = match.group(0)
    forms = PAIRS.get(pair)
    if forms is not None:
        return forms[(CONSONANT, RIEUL, VOWEL).index(sound)]
    after = match.group(1)  # the copula (이) and the syllable after it
    consonant, vowel = _COPULA.get(after, ("이" + after, after))
    return vowel if sound == VOWEL else consonant


def particle(word: str, pair: str) -> str:
    """The form of ``pair`` (``이(가)``, ``(으)로``, ``(이)라``...) after ``word``."""
    return PAIR.sub(lambda match: _chosen(word, match), pair)


def attach(word: str, pair: str) -> str:
    """``word`` followed by the right form of ``pair``: ``attach("김민수", "이(가)")`` is
    ``김민수가``."""
    return word + particle(word, pair)


def final_sound(text: str) -> str:
    """How the last word of ``text`` ends when read aloud: :data:`VOWEL`, :data:`RIEUL` (a
    final ㄹ) or :data:`CONSONANT`."""
    previous, word = _last_words(text)
    if not word:
        return CONSONANT
    sound = _card_sound(word, previous)
    if sound is not None:
        return sound
    last = word[-1]
    if "가" <= last <= "힣":
        final = (ord(last) - 0xAC00) % 28
        return VOWEL if final == 0 else RIEUL if final == 8 else CONSONANT
    if "ㄱ" <= last <= "ㅎ":
        return RIEUL if last == "ㄹ" else CONSONANT
    if "ㅏ" <= last <= "ㅣ" or last in _SUIT_SYMBOLS or last == "%":
        return VOWEL
    if last.isdigit() and last.isascii():
        return _number_sound(_tail(word, "0123456789."))
    if last.isascii() and last.isalpha():
        return _latin_sound(_tail(word, string.ascii_letters), word)
    trimmed = word.rstrip(".,;:!?…-_/~+=#^|\\")
    return final_sound(previous + " " + trimmed) if trimmed and trimmed != word else CONSONANT


def _tail(word: str, characters: str) -> str:
    """The run of ``characters`` that ends ``word`` (perhaps empty)."""
    return word[len(word.rstrip(characters)) :]


def _last_words(text: str) -> tuple[str, str]:
    """The last two words of ``text`` (the last one read, the one before it for a card's
    suit), quotes, closing brackets, markup and a trailing aside in
    brackets looked through."""
    text = text.rstrip()
    while text:
        tag = _TAG.search(text) or _ENTITY.search(text)
        if tag is not None:
            text = text[: tag.start()].rstrip()
        elif text[-1] in _CLOSERS:
            text = text[:-1].rstrip()
        elif text[-1] == ")":
            opening = text.rfind("(")
            inside, before = text[opening + 1 : -1], text[:opening].rstrip()
            if opening < 0:
                text = text[:-1]
            elif before and before[-1] not in "([{'\"":  # an aside: the word before it
                text = before
            else:
                text = before + " " + inside if before else inside
        else:
            break
    words = text.rsplit(None, 2)[-2:] or [""]
    word = _OPENERS.sub("", words[-1])
    return ("" if len(words) < 2 else words[0]), word


def _card_sound(word: str, previous: str) -> str | None:
    """A card or a bid in the notation, or a rank after a suit's Korean name (``스페이드 K``),
    as clubs say it; None when the word is neither."""
    card = _CARD.match(word)
    if card is not None:
        rank = card.group(1)
        return _RANKS.get(rank) or _number_sound(rank)
    if _JOKER.match(word):
        return VOWEL  # 조커
    bid = _BID.match(word)
    if bid is not None:
        return _number_sound(bid.group(1))  # 스페이드 십사, 노기 십오
    if word in _RANKS and previous and (previous in _KOREAN_SUITS or previous[-1] in _SUIT_SYMBOLS):
        return _RANKS[word]
    return None


def _number_sound(number: str) -> str:
    """How a number in digits ends read in Sino-Korean: its last digit, or a round number's
    unit (십, 백, 천, 만, 억, 조)."""
    whole, point, fraction = number.strip(".").partition(".")
    if point and fraction:
        return _DIGITS[fraction[-1]]
    digits = whole.lstrip("0")
    if not digits:
        return CONSONANT  # 영
    zeros = len(digits) - len(digits.rstrip("0"))
    if zeros == 0:
        return _DIGITS[digits[-1]]
    return _UNITS[min(zeros, len(_UNITS)) - 1]


def _latin_sound(letters: str, word: str) -> str:
    """How a Latin word ends as its usual Korean reading has it (see the module's doc)."""
    if (
        len(letters) <= 3
        and letters.isupper()
        and (len(letters) > 1 or len(word) == 1 or not word[-2].isalpha())
    ):
        return _LETTER_NAMES.get(letters[-1], VOWEL)
    low = letters.lower()
    last, before = low[-1], low[-2:-1]
    if low.endswith("ng") or last in "mn":
        return CONSONANT
    if last == "l":
        return RIEUL
    if last == "e":
        if before == "l":
            return RIEUL  # Kyle 카일, Michelle 미셸
        if before in ("n", "m") and (low[-3:-2] in _VOWEL_LETTERS + "n") and len(low) > 2:
            return CONSONANT  # Jane 제인, Anne 앤, Jerome 제롬
        return VOWEL  # Mike 마이크, Eddie 에디, Rose 로즈
    if low.endswith("ck"):
        return CONSONANT  # Jack 잭
    if last in "kctpb":
        stem = low[:-1].rstrip(last) if last in "tpb" else low[:-1]
        if stem and stem[-1] in "aeiou" and (len(stem) == 1 or stem[-2] not in _VOWEL_LETTERS):
            return CONSONANT  # Erik 에릭, Eric 에릭, Pat 팻, Scott 스콧, Bob 밥
    return VOWEL  # Peter 피터, Mark 마크, Ted 테드, Max 맥스
