"""Messages without variables translated once, when a bundled template compiles, not each time
a page renders: ``{{ _("Outcome") }}`` becomes the page language's text in the compiled
template, as if written there.

A page environment speaks one language (:func:`.html.environment`), so such a message always
gives the same text; a site of thousands of pages would otherwise ask for it thousands of
times (a hand page has some forty), each call and its escaping costing more than the text.
The text is what the templates' ``_()`` gives (:func:`.html._page_gettext`): the translation
marked safe, as Jinja2's i18n makes it, with ``%%`` read as ``%``. Only the bundled templates
are folded (a club's template may name something else ``_``); their compiled code then
depends on the catalog as well as on their source, so the catalog is part of the compiled
templates' cache key (:func:`catalog_tag`).
"""

from __future__ import annotations

import hashlib
from typing import Callable, Iterator, Optional

from jinja2 import Environment
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream

from ..engine.translation import DOMAIN, LOCALE_DIR, normalize_language

#: The names the templates translate with.
_TRANSLATING = ("_", "gettext")
#: A message without variables, as its tokens come: ``{{ _("text") }}``.
_SHAPE = ("variable_begin", "name", "lparen", "string", "rparen", "variable_end")


class ConstantMessages(Extension):
    """The Jinja2 extension folding ``{{ _("text") }}`` into the text, in an environment whose
    ``constant_messages`` is its catalog's ``gettext`` (None: nothing is folded)."""

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        environment.extend(constant_messages=None)

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        # the setting __init__ added (Environment.extend), which Environment's type lacks
        translate: Optional[Callable[[str], str]] = getattr(
            self.environment, "constant_messages", None)
        if translate is None:
            yield from stream
            return
        tokens = list(stream)
        index = 0
        while index < len(tokens):
            window = tokens[index:index + len(_SHAPE)]
            text = _folded(window, translate) if len(window) == len(_SHAPE) else None
            if text is None:
                yield tokens[index]
                index += 1
            else:
                yield Token(window[0].lineno, "data", text)
                index += len(_SHAPE)


def _folded(window: list[Token], translate: Callable[[str], str]) -> Optional[str]:
    """The text of a constant message's tokens, or None: not one, or a message whose text
    fails to format (left to fail, as before, when the page renders)."""
    if tuple(token.type for token in window) != _SHAPE or window[1].value not in _TRANSLATING:
        return None
    try:
        return translate(window[3].value) % {}
    except (TypeError, ValueError, KeyError):
        return None


def catalog_tag(language: str) -> str:
    """What the folded text depends on: the language and its compiled catalog's bytes."""
    language = normalize_language(language) or "en"
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:  # English: the message ids themselves
        digest = ""
    return f"{language}:{digest}"
