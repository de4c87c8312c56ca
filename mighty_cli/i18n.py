"""Korean and English: how the tool chooses its language and how a message gets translated.

The machinery is GNU gettext through Python's :mod:`gettext` (the functions live in the
stdlib-only ``mighty_cli.engine.translation`` so the engine can use them; this module adds what
the command line needs). The language: ``mighty --lang ko|en``, then ``MIGHTY_LANG``, then the
locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``ko_KR.UTF-8`` speaks Korean), then English.

Conventions (the message ids are the English text, written in the code):

- Translate where a string is made: ``from ..i18n import _, ngettext`` (engine modules:
  ``from .translation import _, ngettext``). Placeholders are named and filled after
  translation, so a translator can move them: ``_("{player} holds {card}").format(...)``;
  never build a message from pieces or translate an f-string.
- Counts go through ``ngettext``, even in English: ``ngettext("{count} hand", "{count} hands",
  n).format(count=n)``; "1 hands" must not appear in either language.
- Strings fixed at import time (option help, table headers, module constants) are marked with
  ``N_("...")`` and translated where they are shown with ``_(CONSTANT)``. Click help needs
  nothing more: a command's docstring and its options' ``help=N_(...)`` are translated when the
  group loads the command (:func:`localize`), so the language can be chosen after import.
- Templates (Jinja2's i18n extension, ``render/html.py``): ``{{ _("League table") }}``;
  a value by name, ``{{ _("Session %(number)s", number=n) }}``; a count with
  ``{% trans count=n %}{{ count }} hand{% pluralize %}{{ count }} hands{% endtrans %}``.
- Fixed words a command shows from data (a hand's status, a doubling) get a table of ``N_``
  labels beside the code name (``STATUS_LABELS`` in ``cli/replay.py``, ``DOUBLING_LABELS`` in
  ``engine/scoring.py``); JSON output and records keep the code names, never translated.
- Korean wording uses the clubs' vocabulary (docs/rules.md §1): 주공, 프렌드, 여당, 야당,
  공약, 선거, 기루다, 노기루다, 노프렌드, 마이티, 조커, 조커 콜, 초구, 막구, 런, 백런, 딜 미스,
  공탁금; a trick is 턴, a hand 판, point cards 점수카드, a player 플레이어 (never 사람), present
  참석, the kitty 바닥 (카드), a player friend 너 프렌드, open cards 패 모름, a bundled ruleset
  기본 제공 룰셋. Card and bid notation (``SA``, ``13H``) and names stay as they are.
- Korean particles: a particle after a placeholder is written against it in pair notation,
  ``{name}이(가)``, ``{card}을(를)``, ``{name}은(는)``, ``{x}와(과)``, ``{x}(으)로``,
  ``{x}(이)라는``, ``{x}(이)어야``; the form is chosen when the message is filled in, by how the
  word is read (``mighty_cli/engine/particles.py``: 김민수가, 박서준이, 14S를, Eddie로). After a
  fixed word write the particle that word takes; never a space before a particle.
  ``tools/i18n.py check`` refuses a pair after a fixed word, a particle in one form after a
  placeholder (``{card}를``) and a particle apart (``{name} 는``).

Catalog workflow (``python tools/i18n.py ...``; Babel is a development tool installed with
``.[test]``, not a runtime dependency): a module joins the catalog by being listed in
``SOURCES`` in ``tools/i18n.py`` (the templates are all in); ``update`` extracts its messages
(calls of ``_``, ``N_``, ``gettext``, ``ngettext`` and the docstrings of click commands) and
merges them into ``locale/ko/LC_MESSAGES/mighty.po``, new entries empty and vanished ones
dropped (the ruleset schema's option docs are read from the schema itself and translated
where ``ruleset show --docs`` shows them); translate every empty ``msgstr``; ``compile`` writes the ``.mo`` beside it, which is
committed and shipped in the wheel; ``check`` (and ``tests/i18n``) fails on an untranslated,
fuzzy, stale or obsolete entry, a lost placeholder, or a ``.mo`` that is not the compilation of
the ``.po``.

Click's own messages ("Usage:", "Missing option ...") are translated from the same catalog
(:func:`translate_click`; the ones covered are listed in ``cli/click_messages.py``), and help is
wrapped by display width so Korean fits the terminal. Korean *input*: cards and bids
(``스페이드 14``, ``다이아 10``) are read by ``engine/cards/korean.py``, which the card parsers
fall back on; the other words a table says (``패스``, ``노프렌드``, ``마이티 프렌드``, ``무르기``,
``보기``), in English and Korean, are one vocabulary, ``table/words.py``, whose
``normalize_entry`` every prompt passes an entry through first.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Optional

from .engine.translation import (LANGUAGES, N_, _, choose_language, get_language, gettext,
                                 ngettext, normalize_language, set_language, translations)
from .render.text import display_width

if TYPE_CHECKING:
    import click

__all__ = ["LANGUAGES", "N_", "_", "choose_language", "get_language", "gettext", "ngettext",
           "normalize_language", "set_language", "translations", "localize", "language_from_args",
           "translate_click", "translate_help"]

_ORIGINAL = "_mighty_msgid"


def language_from_args(args: list[str]) -> Optional[str]:
    """The value of a ``--lang`` given to the group, read before click parses anything so that
    ``mighty --help --lang ko`` is Korean too (the options before the subcommand only)."""
    for index, arg in enumerate(args):
        if arg == "--lang" and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
        if not arg.startswith("-"):
            break
    return None


def _translated(owner: object, attribute: str) -> None:
    originals = owner.__dict__.setdefault(_ORIGINAL, {})
    if attribute not in originals:
        originals[attribute] = getattr(owner, attribute, None)
    text = originals[attribute]
    if text:
        setattr(owner, attribute, translate_help(text))


def translate_help(text: str) -> str:
    """A help text in the current language. Its message id is the text as click shows it
    (``inspect.cleandoc``), with click's ``\\b`` no-rewrap marker spelled as backslash-b so a
    ``.po`` file can hold it (``tools/i18n.py`` extracts docstrings the same way)."""
    msgid = inspect.cleandoc(text).replace("\b", "\\b")
    translated = gettext(msgid)
    return text if translated == msgid else translated.replace("\\b", "\b")


def localize(command: click.Command) -> None:
    """Translate a click command's help, short help, epilog and option help (and those of its
    subcommands) into the current language. The English text is kept as the message id, so
    calling it again after the language changed translates afresh."""
    for attribute in ("help", "short_help", "epilog"):
        _translated(command, attribute)
    for param in command.params:
        _translated(param, "help")
    # click builds each command's --help option once, worded in the language of that moment,
    # and keeps it: its message id is click's English text whatever it was built in
    help_option = getattr(command, "_help_option", None)
    if help_option is not None:
        help_option.__dict__.setdefault(_ORIGINAL, {})["help"] = "Show this message and exit."
        _translated(help_option, "help")
    for sub in getattr(command, "commands", {}).values():
        localize(sub)


_CLICK_MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "termui", "types",
                  "utils", "shell_completion", "_termui_impl")


def translate_click() -> None:
    """Let click's own messages ("Usage:", "Missing option ...") speak the current language.

    Click marks them with the stdlib's global ``gettext``, bound in each module as ``_`` (and
    ``ngettext``), which would follow the process locale rather than ``--lang``; pointing those
    names at this project's functions gives click the same language and catalog as the rest of
    the tool. The click messages the catalog translates are listed in ``cli/click_messages.py``.
    """
    import sys

    for name in _CLICK_MODULES:
        module = sys.modules.get(f"click.{name}")
        if module is None:  # not imported yet: nothing of it can be on the screen
            continue
        for attribute, function in (("_", gettext), ("ngettext", ngettext)):
            current = getattr(module, attribute, None)
            if current is not None and current is not function:
                setattr(module, attribute, function)
    _wrap_help_by_display_width()


def _wrap_help_by_display_width() -> None:
    """Make click wrap help text by terminal columns, not characters: a Hangul syllable takes
    two columns, so Korean help wrapped by character count runs past the terminal's edge.

    ``click.formatting.wrap_text`` imports ``click._textwrap.TextWrapper`` each time it runs;
    that name is pointed at a subclass whose line filling measures display width (the same
    as the character count for ASCII, so English help is unchanged)."""
    import click._textwrap as click_textwrap

    if getattr(click_textwrap.TextWrapper, "measures_display_width", False):
        return

    class DisplayWidthWrapper(click_textwrap.TextWrapper):
        measures_display_width = True

        def _wrap_chunks(self, chunks: list[str]) -> list[str]:
            # textwrap.TextWrapper._wrap_chunks with len() replaced by display_width()
            lines: list[str] = []
            chunks.reverse()
            while chunks:
                line: list[str] = []
                length = 0
                indent = self.subsequent_indent if lines else self.initial_indent
                width = self.width - display_width(indent)
                if self.drop_whitespace and chunks[-1].strip() == "" and lines:
                    del chunks[-1]
                while chunks and length + display_width(chunks[-1]) <= width:
                    length += display_width(chunks[-1])
                    line.append(chunks.pop())
                if chunks and display_width(chunks[-1]) > width:
                    self._handle_long_word(chunks, line, length, width)
                if self.drop_whitespace and line and line[-1].strip() == "":
                    del line[-1]
                if line:
                    lines.append(indent + "".join(line))
            return lines

    click_textwrap.TextWrapper = DisplayWidthWrapper  # type: ignore[misc]  # the point: replaced
    _measure_terms_by_display_width()


def _measure_terms_by_display_width() -> None:
    """Make click's option and command lists measure their first column in terminal columns:
    a translated metavar (click.Path's ``FILE`` is ``파일``) is two columns a syllable, and
    measured by characters it pushed its description two columns right of every other
    option's. ``click.formatting`` calls its module's ``term_len`` (ANSI codes stripped,
    then counted) for the list's widths and padding; that name is pointed at the same count
    by display width (unchanged for ASCII)."""
    import click.formatting as click_formatting

    if getattr(click_formatting.term_len, "measures_display_width", False):
        return
    from click._compat import strip_ansi


    def term_len(x: str) -> int:  # click's parameter name
        return display_width(strip_ansi(x))

    term_len.measures_display_width = True  # type: ignore[attr-defined]
    click_formatting.term_len = term_len
