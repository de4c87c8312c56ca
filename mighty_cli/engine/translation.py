"""The translation functions every layer uses: ``_``, ``ngettext`` and the marker ``N_``.

Stdlib only (GNU gettext through Python's :mod:`gettext`), so the engine can translate its
messages without importing click. The catalogs are ``mighty_cli/locale/<lang>/LC_MESSAGES/
mighty.mo``, compiled from the ``.po`` sources beside them; English is the message ids
themselves. The current language is process-wide: the CLI sets it once per invocation
(``--lang``, ``MIGHTY_LANG``, the locale), and until something sets it the first translation
chooses it from the environment the same way. How to add and translate a message:
``mighty_cli/i18n.py``.

Korean particles: a Korean message writes the particle after a placeholder in pair notation
(``{name}이(가)``, ``{card}을(를)``, ``{x}(으)로``); the catalog gives such a message as a
:class:`KoreanMessage`, whose ``format``, ``format_map`` and ``%`` choose each particle by the
word that was filled in (:mod:`.particles`: 김민수가, 박서준이, 14S를). It is made once, when
the catalog is read, so a message without a pair costs nothing more; the pages' ``_()`` and
``{% trans %}`` do the same (``render/html.py``).
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

# Deferred imports: the particle rule (.particles, its expressions compiled on import) loads
# with the first Korean catalog, so an English command does not pay for it at start-up.

DOMAIN = "mighty"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: The languages the tool speaks; the first is the source language of the message ids.
LANGUAGES = ("en", "ko")
DEFAULT_LANGUAGE = "en"

_loaded: dict[str, _gettext.NullTranslations] = {}
_current: _gettext.NullTranslations | None = None
_current_language: str | None = None


def normalize_language(value: str | None) -> str | None:
    """``ko``, ``ko_KR.UTF-8``, ``KO``, ``en-US`` -> a language the tool speaks, else None."""
    if not value:
        return None
    code = value.strip().replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    return code if code in LANGUAGES else None


def choose_language(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: the ``--lang`` option, then ``MIGHTY_LANG``, then the locale
    (the first set of ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as POSIX orders them), then
    English. A value naming a language the tool does not speak falls through to the next."""
    environ = os.environ if environ is None else environ
    for value in (option, environ.get("MIGHTY_LANG")):
        language = normalize_language(value)
        if language:
            return language
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:  # the first one set decides, even when it is C or a language we lack
            return normalize_language(value) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


class _Lookup(Protocol):
    """What ``str.format_map`` reads names from."""

    def __getitem__(self, key: str, /) -> Any: ...


class _Readable(Protocol):
    """What a catalog is read from."""

    def read(self) -> bytes: ...


class KoreanMessage(str):
    """A translated message holding particles in pair notation (``{name}이(가)``): filling it
    in (``format``, ``format_map``, ``%``) chooses each particle by the word before it."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> str:
        from .particles import resolve

        return resolve(str.format(self, *args, **kwargs))

    def format_map(self, mapping: _Lookup) -> str:
        from .particles import resolve

        return resolve(str.format_map(self, mapping))

    def __mod__(self, values: object) -> str:
        from .particles import resolve

        return resolve(str.__mod__(self, values))


class ParticleCatalog(_gettext.GNUTranslations):
    """A compiled catalog whose messages with particles in pair notation are
    :class:`KoreanMessage`s (made once, as the catalog is read)."""

    def _parse(self, fp: _Readable) -> None:
        from .particles import PAIR

        super()._parse(fp)
        catalog = self._catalog  # type: ignore[attr-defined]  # GNUTranslations' own, untyped
        for key, text in catalog.items():
            if isinstance(text, str) and ")" in text and PAIR.search(text):
                catalog[key] = KoreanMessage(text)


def translations(language: str) -> _gettext.NullTranslations:
    """The catalog of a language (English: the message ids, untranslated)."""
    language = normalize_language(language) or DEFAULT_LANGUAGE
    catalog = _loaded.get(language)
    if catalog is None:
        if language == DEFAULT_LANGUAGE:
            catalog = _gettext.NullTranslations()
        else:
            # fallback=False: a Korean tool without its catalog is a packaging bug, not English
            catalog = _gettext.translation(
                DOMAIN, str(LOCALE_DIR), languages=[language], class_=ParticleCatalog
            )
        _loaded[language] = catalog
    return catalog


def set_language(language: str | None) -> str:
    """Speak this language from now on (None: choose from the environment); returns it."""
    global _current, _current_language
    chosen = normalize_language(language) or choose_language()
    _current, _current_language = translations(chosen), chosen
    return chosen


def get_language() -> str:
    """The language currently spoken (chosen from the environment on first use)."""
    if _current_language is None:
        return set_language(None)
    return _current_language


def _catalog() -> _gettext.NullTranslations:
    """The current catalog (the language chosen from the environment on first use)."""
    if _current is None:
        return translations(set_language(None))
    return _current


def gettext(message: str) -> str:
    """The message in the current language."""
    return _catalog().gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural form for ``count`` in the current language (Korean has one)."""
    return _catalog().ngettext(singular, plural, count)


def N_(message: str) -> str:
    """Mark a message for extraction without translating it yet: module-level constants
    (option help, table headers) are translated where they are shown, with ``_(constant)``."""
    return message


_ = gettext
