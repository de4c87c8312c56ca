"""What does not read as Korean in a text meant for a Korean reader: a particle left in pair
notation (``김민수이(가)``, ``Eddie(으)로``: engine/particles.py chooses it when a message is
filled in) or a particle standing apart from its word (``홍길동 는``, ``SA 는 서지우 에게``).
The Korean tests check their outputs with it (tests/i18n/conftest.py), the site tests the
Korean pages."""

from __future__ import annotations

import re

from mighty_cli.engine.particles import PAIR

#: A particle standing apart from the word before it (이 is left out: 이 판, 이 룰 are words).
APART = re.compile(
    r"(?<=\S) +(는|은|을|를|의|에|에게|에게는|에서|에서는|라는|이라는|으로|로|과|가)"
    r"(?=[\s,.:;!?)\]]|$)"
)


def leftovers(text: str) -> list[str]:
    """The pieces of ``text`` that do not read as Korean: a particle pair, a particle apart."""
    return [
        text[max(0, m.start() - 12) : m.end() + 4]
        for pattern in (PAIR, APART)
        for m in pattern.finditer(text)
    ]
