"""mighty-deal/1's shuffle written from the manual's description (docs/record-format.md, "Seeded
deals"), as another implementation would write it: the golden tests hold the engine's deals and
piles to it."""

from __future__ import annotations

import hashlib
import struct


def reference_shuffle(seed: int, deck: list[int]) -> list[int]:
    """The cards of ``deck`` (canonical order) shuffled by mighty-deal/1 with ``seed``."""
    words: list[int] = []
    block = 0

    def next_word() -> int:
        nonlocal block
        if not words:
            digest = hashlib.sha256(f"mighty-deal/1:{seed}:{block}".encode()).digest()
            words.extend(reversed(struct.unpack(">8I", digest)))
            block += 1
        return words.pop()

    cards = list(deck)
    for i in range(len(cards) - 1, 0, -1):
        limit = 2**32 - 2**32 % (i + 1)
        u = next_word()
        while u >= limit:
            u = next_word()
        j = u % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
