"""The standings page: Jinja2 templates, autoescaped, rendered to one self-contained HTML file.

Like datasette, the environment's loader looks in a club's own template folder first and falls
back to the bundled ``templates/``, so a club can override ``standings.html`` or just the
``base.html`` it extends. The chart of cumulative scores is drawn here as SVG geometry (plain
numbers) that the template places; nothing on the page loads from the network.

A club's templates run in Jinja2's sandbox: a club's folder is shared, untrusted input, and a
template that reaches for Python internals (``cycler.__init__.__globals__``) stops with one
line, as does a template that is broken or names something the page does not have
(:class:`TemplateError`). The bundled templates alone are the project's own code and render
without the sandbox, at full speed (a site writes thousands of pages).

The page speaks one language, Korean or English: Jinja2's i18n extension gives the templates
``_()`` and ``{% trans %}`` over the project's gettext catalogs, and the page declares it
(``<html lang>``). The language is the ``lang`` argument (a league's own language, which the
caller passes), else the one the tool speaks (``--lang``, ``MIGHTY_LANG``, the locale).

The bundled templates are compiled once per machine (:mod:`.template_cache`), their messages
without variables translated as they compile (:mod:`.constant_messages`).
"""

from __future__ import annotations

import os
import threading
from datetime import date, datetime, timezone, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

from markupsafe import Markup

from ..engine.errors import MightyError
from ..engine.limits import PAGE_MAX_CHARACTERS, TEMPLATE_MAX_BYTES
from ..engine.ruleset import bundled_dir
from ..engine.scoring import DOUBLING_LABELS
from ..engine.particles import resolve
from ..engine.translation import KoreanMessage, _, get_language, normalize_language, translations
from .chart import LABEL_GAP, PALETTE, Chart, ChartLine, chart, spread_labels  # noqa: F401
from .escaping import bundled_template_class
from .page_filters import (ROLE_LABELS, bid_face, call_label, card_class, card_face,  # noqa: F401
                           card_spans, deal_rows, election_calls, friend_called, player_link,
                           remembered, role_label, score_html, seat_rows, trick_rows,
                           trick_spans)
from .template_cache import bytecode_cache
from .text import friend_call_text

if TYPE_CHECKING:
    from jinja2 import Environment, FileSystemLoader, Template
    from jinja2.nodes import EvalContext
    from jinja2.runtime import Context

    from ..tournament.deal_sheet import DealSheet


class TemplateError(MightyError):
    """A standings template that cannot be loaded or rendered."""


def page_language(lang: Optional[str] = None) -> str:
    """The language of a page: ``lang`` when it names one the tool speaks, else the current."""
    return normalize_language(lang) or get_language()


def environment(template_dir: Optional[str | Path] = None,
                lang: Optional[str] = None) -> Environment:
    """A Jinja2 environment: the club's folder (if any) overrides the bundled templates; the
    templates translate into ``lang`` (default: the language the tool speaks). With a club's
    folder every template runs in the sandbox (a bundled one may be extended by the club's);
    the bundled ones alone run unsandboxed."""
    import jinja2
    from jinja2.sandbox import SandboxedEnvironment

    language = page_language(lang)
    folders = folders_of(template_dir)
    page_environment = _environment_class(SandboxedEnvironment) if template_dir \
        else jinja2.Environment
    from .constant_messages import ConstantMessages, catalog_tag  # imports Jinja2

    options: dict[str, Any] = {"autoescape": True, "trim_blocks": True, "lstrip_blocks": True,
               "undefined": jinja2.StrictUndefined,
               "extensions": ["jinja2.ext.i18n", ConstantMessages]}
    policies = {"ext.i18n.trimmed": True}  # {% trans %} text is one line, as extracted
    # Compiled code depends on these as well as on a template's text (and the bundled ones
    # on the catalog, whose messages without variables they hold): the cache is theirs.
    cache = None if template_dir else bytecode_cache(repr((sorted(options.items()), policies,
                                                           catalog_tag(language))))
    env = page_environment(loader=_confined_loader(folders), bytecode_cache=cache,
                           auto_reload=bool(template_dir),  # the bundled ones do not change
                           **options)
    env.policies.update(policies)
    catalog = translations(language)
    if not template_dir:  # the project's own templates: messages translated as they compile,
        # the extension's setting (Environment.extend), which Environment's type lacks;
        # values escaped by escaping.escape
        env.constant_messages = catalog.gettext  # type: ignore[attr-defined]
        env.template_class = bundled_template_class()
    # added by the i18n extension, which Environment's type lacks
    env.install_gettext_translations(catalog, newstyle=True)  # type: ignore[attr-defined]
    env.globals["gettext"] = env.globals["_"] = _page_gettext(catalog.gettext)
    env.globals["ngettext"] = _page_ngettext(catalog.ngettext)
    env.globals["lang"] = language
    env.filters["signed"] = lambda v: f"{v:+d}" if v else "0"
    env.filters["rate"] = lambda v: "–" if v is None else f"{v * 100:.0f}%"
    env.filters["per_hand"] = lambda v: f"{v:+.2f}"
    env.filters["card_face"] = card_face
    env.filters["friend_call"] = lambda call: friend_call_text(call, catalog.gettext)
    env.filters["score"] = score_html
    env.filters["doubling"] = lambda name: (catalog.gettext(DOUBLING_LABELS[name])
                                            if name in DOUBLING_LABELS else name)
    env.filters["card_class"] = card_class
    env.filters["card_spans"] = card_spans
    env.filters["trick_spans"] = trick_spans
    env.filters["trick_rows"] = trick_rows
    env.filters["bid_face"] = remembered(lambda text: bid_face(text, catalog.gettext))
    env.filters["role"] = lambda name: role_label(name, catalog.gettext)
    env.filters["election_calls"] = lambda election: election_calls(election, catalog.gettext)
    env.filters["call_label"] = lambda kind: call_label(kind, catalog.gettext)
    env.filters["friend_called"] = lambda outcome: friend_called(outcome, catalog.gettext)
    env.filters["player_link"] = jinja2.pass_context(player_link)
    env.filters["deal_rows"] = jinja2.pass_context(deal_rows)
    env.filters["seat_rows"] = jinja2.pass_context(
        lambda context, outcome: seat_rows(context, outcome, catalog.gettext))
    return env


#: Messages each page environment keeps translated (the bundled pages ask for a few hundred).
_MESSAGES_KEPT = 4096


def _page_gettext(translate: Callable[[str], str]) -> Callable[..., str]:
    """The templates' ``_()`` and ``gettext()`` as Jinja2's i18n extension makes them (newstyle:
    the message translated, marked safe where the template autoescapes, then formatted with
    its variables, escaped), in one call where the extension's take three: a site page asks
    for some forty messages, rendered thousands of times. A Korean message's particles in
    pair notation are chosen once it is filled in (:func:`_page_markup`)."""
    from jinja2 import pass_eval_context

    marked: dict[str, Markup] = {}  # each message as the page's language has it, marked safe
    alone: dict[str, Markup] = {}   # and formatted, for messages with no variables

    @pass_eval_context
    def gettext(eval_ctx: EvalContext, string: str, **variables: Any) -> str:
        if not eval_ctx.autoescape:
            return translate(string) % variables
        cache = marked if variables else alone
        text = cache.get(string)
        if text is None:
            text = _page_markup(translate(string))
            if not variables:
                text = text % {}
            if len(cache) < _MESSAGES_KEPT:  # a club's template may ask for any text
                cache[string] = text
        if not variables:
            return text
        if type(text) is Markup:  # no particle to choose
            for value in variables.values():  # whole numbers (most variables): nothing to escape
                if type(value) is not int:
                    return text % variables
            return Markup(str.__mod__(text, variables))
        return text % variables

    return gettext


def _page_ngettext(translate: Callable[[str, str, int], str]) -> Callable[..., str]:
    """The templates' ``ngettext()`` (``{% trans count=n %}``) as Jinja2's i18n extension makes
    it (newstyle), a Korean message's particles chosen once it is filled in."""
    from jinja2 import pass_context

    @pass_context
    def ngettext(context: Context, singular: str, plural: str, number: int,
                 **variables: Any) -> str:
        variables.setdefault("num", number)
        text = translate(singular, plural, number)
        if context.eval_ctx.autoescape:
            text = _page_markup(text)
        return text % variables

    return ngettext


class PairedMarkup(Markup):
    """A page's translated message holding particles in pair notation: filled in (``%``),
    each particle is chosen by the word before it (markup around the word looked through)."""

    __slots__ = ()

    def __mod__(self, values):
        return Markup(resolve(str(Markup.__mod__(self, values))))


def _page_markup(text: str) -> Markup:
    """A translated message marked safe for a page; one holding particles in pair notation
    (a :class:`~mighty_cli.engine.translation.KoreanMessage`) chooses them when filled in."""
    return PairedMarkup(text) if type(text) is KoreanMessage else Markup(text)


def _confined_loader(folders: list[str]) -> FileSystemLoader:
    """Jinja2's file loader, refusing what a ruleset folder refuses too: a template that is a
    link leading out of its folder, or not a regular file (a pipe would wait forever), or
    larger than :data:`TEMPLATE_MAX_BYTES`."""
    import jinja2
    from jinja2.loaders import split_template_path

    class ConfinedLoader(jinja2.FileSystemLoader):
        def get_source(self, environment, template):
            for folder in self.searchpath:
                path = Path(folder).joinpath(*split_template_path(template))
                if not os.path.lexists(path):
                    continue
                real, home = path.resolve(), Path(folder).resolve()
                if real != home and home not in real.parents:
                    raise TemplateError(_("template {name}: a link out of its folder {folder} "
                                          "(a template folder is shared: it may only use its "
                                          "own files)").format(name=template, folder=folder))
                if not real.is_file():
                    raise TemplateError(_("template {name}: not a regular file").format(
                        name=template))
                if real.stat().st_size > TEMPLATE_MAX_BYTES:
                    raise TemplateError(_("template {name}: larger than {size} KiB").format(
                        name=template, size=TEMPLATE_MAX_BYTES >> 10))
                break
            return super().get_source(environment, template)

    return ConfinedLoader(folders)


_CLASSES: dict = {}
#: How deep calls inside a template may nest (macros calling macros); each costs several
#: Python frames, so this stays far below the interpreter's recursion limit.
MAX_CALL_DEPTH = 40
_CALLS = threading.local()


def _environment_class(base: type[Environment]) -> type[Environment]:
    """The sandbox with its attribute check remembered per (type, name): the check depends
    only on the name and on what the object is an instance of (``is_internal_attribute``
    tests ``isinstance`` against functions, methods, types, code, frames, generators), and a
    site page of a hundred hands asks it thousands of times."""
    if base not in _CLASSES:
        class PageEnvironment(base):  # type: ignore[misc, valid-type]  # a base chosen at run time
            _safe: dict = {}

            def call(self, context, obj, *args, **kwargs):
                """Every call a template makes: nested at most ``MAX_CALL_DEPTH`` deep, so a
                club's macro that calls itself stops in one line long before Python's own
                recursion limit (a full stack would fail even the clean-up)."""
                depth = _CALLS.depth = getattr(_CALLS, "depth", 0) + 1
                try:
                    if depth > MAX_CALL_DEPTH:
                        from jinja2.exceptions import SecurityError

                        raise SecurityError(_("calls nested more than {depth} deep (a macro "
                                              "calling itself without end?)").format(
                                                  depth=MAX_CALL_DEPTH))
                    return super().call(context, obj, *args, **kwargs)
                finally:
                    _CALLS.depth = depth - 1

            intercepted_binops = frozenset(["*", "**"])

            def call_binop(self, context, operator, left, right):
                """``'a' * 1000000000`` and ``9 ** 9 ** 9``: a product or a power that would
                outgrow a page is refused before it is computed."""
                from jinja2.exceptions import SecurityError

                if operator == "*":
                    for sequence, count in ((left, right), (right, left)):
                        if isinstance(sequence, (str, list, tuple)) and isinstance(count, int) \
                                and len(sequence) * count > PAGE_MAX_CHARACTERS:
                            raise SecurityError(_("a repetition longer than a page may be "
                                                  "({size} MiB)").format(
                                                      size=PAGE_MAX_CHARACTERS >> 20))
                if operator == "**" and isinstance(right, int) and abs(right) > 1024 \
                        and isinstance(left, int) and abs(left) > 1:
                    raise SecurityError(_("a power too large to compute ({exponent})").format(
                        exponent=right))
                return super().call_binop(context, operator, left, right)

            def is_safe_attribute(self, obj, attr, value):
                key = (type(obj), attr)
                known = self._safe.get(key)
                if known is None:
                    known = self._safe[key] = super().is_safe_attribute(obj, attr, value)
                return known

        _CLASSES[base] = PageEnvironment
    return _CLASSES[base]


def render_league_page(page: Any, template_dir: Optional[str | Path] = None,
                       generated: Optional[datetime] = None, lang: Optional[str] = None,
                       timezone_name: Optional[str] = None, tournament: Any = None) -> str:
    """The whole standings page of a league as one HTML string, in ``lang`` (``ko``, ``en``;
    None: the language the tool speaks), times in ``timezone_name`` (an IANA zone such as
    ``Asia/Seoul``; None: the machine's); with the league's ``tournament`` (its rounds'
    tables and matchpoints: :class:`mighty_cli.store.tournament_view.TournamentView`) when
    it plays rounds."""
    env = environment(template_dir, lang)
    zone = time_zone(timezone_name)
    return render(env, "standings.html", template_dir, page=page, tournament=tournament,
                  chart=chart(page.chart_x, page.chart_series),
                  generated=local_time(generated or datetime.now(timezone.utc), zone))


def render_round_board(board: Any, template_dir: Optional[str | Path] = None,
                       generated: Optional[datetime] = None, lang: Optional[str] = None,
                       timezone_name: Optional[str] = None,
                       serve_url: Optional[str] = None) -> str:
    """A round's projector board and score slips (``round_board.html``) as one HTML string.
    Each slip shows its table's entry code; with ``serve_url`` (the address ``mighty serve``
    printed) a QR code too, which opens the table's page with the code."""
    from .qr import qr_svg, table_link  # segno loads only where a board is rendered

    env = environment(template_dir, lang)
    zone = time_zone(timezone_name)
    links = {table.table: table_link(serve_url, table.table, table.code)
             for table in board.round.tables if serve_url and table.code and table.playing}
    return render(env, "round_board.html", template_dir, board=board,
                  links={table: (link, qr_svg(link)) for table, link in links.items()},
                  generated=local_time(generated or datetime.now(timezone.utc), zone))


def render_deal_sheet(sheet: DealSheet, template_dir: str | Path | None = None,
                      generated: datetime | None = None, lang: str | None = None,
                      timezone_name: str | None = None) -> str:
    """A duplicate round's deal sheet (``deal_sheet.html``: a deal per A4 page) as one HTML
    string (:class:`mighty_cli.tournament.deal_sheet.DealSheet`)."""
    env = environment(template_dir, lang)
    zone = time_zone(timezone_name)
    return render(env, "deal_sheet.html", template_dir, sheet=sheet,
                  generated=local_time(generated or datetime.now(timezone.utc), zone))


class TimeZoneError(MightyError):
    """A time zone name the machine does not know."""


def time_zone(name: Optional[str] = None) -> tzinfo:
    """The named IANA time zone (``Asia/Seoul``), or the machine's own when None: its IANA
    zone where the machine names one (a time from before a change to summer time shows in
    the offset it had then), else its offset now."""
    if not name:
        return _machine_zone() or datetime.now().astimezone().tzinfo or timezone.utc
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise TimeZoneError(_("time zone {name!r}: unknown (use an IANA name such as Asia/Seoul "
                              "or UTC)").format(name=name)) from None


def _machine_zone() -> Optional[tzinfo]:
    """The IANA zone the machine names: ``TZ`` (``Europe/Berlin``, ``:Europe/Berlin`` or a
    path into a zoneinfo folder), else the zone file ``/etc/localtime`` links to; None where
    neither names one the zone database knows (``TZ=EST5EDT,M3.2.0,M11.1.0``, a copied file)."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    name = os.environ.get("TZ")
    if name is None:
        try:
            name = os.readlink("/etc/localtime")
        except OSError:
            return None
    name = name.lstrip(":")
    if "zoneinfo/" in name:
        name = name.rpartition("zoneinfo/")[2]
    if not name or name.startswith("/"):
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


def _in_zone(moment: datetime, zone: tzinfo) -> datetime:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(zone)


def local_time(moment: datetime, zone: tzinfo) -> str:
    """``2024-03-05 21:40 KST``: a stored moment (UTC; naive means UTC) in the page's zone."""
    moment = _in_zone(moment, zone)
    return f"{moment:%Y-%m-%d %H:%M} {moment.tzname() or moment.strftime('%z')}"


def local_clock(moment: datetime, zone: tzinfo) -> str:
    """``21:40 KST``: :func:`local_time` without its date, for a moment on a date shown."""
    moment = _in_zone(moment, zone)
    return f"{moment:%H:%M} {moment.tzname() or moment.strftime('%z')}"


def local_day(moment: datetime, zone: tzinfo) -> date:
    """The date a stored moment falls on in the page's zone."""
    return _in_zone(moment, zone).date()


def render(env: Environment, name: str | Template, template_dir: Optional[str | Path],
           **context: Any) -> str:
    """One template (a name, or one :func:`load_template` gave) rendered, its failures (a
    club's broken or forbidden template) as one line (:class:`TemplateError`)."""
    import jinja2

    try:
        template = env.get_template(name) if isinstance(name, str) else name
        if not getattr(env, "sandboxed", False):
            # The bundled templates: the project's own, whose pages are bounded by what they
            # show (paged lists), rendered in one piece and measured once.
            html = template.render(**context)
            if len(html) > PAGE_MAX_CHARACTERS:
                raise TemplateError(_("template {name}: the page grows beyond {size} "
                                      "MiB").format(name=template.name,
                                                    size=PAGE_MAX_CHARACTERS >> 20))
            return html
        parts, size = [], 0
        for part in template.generate(**context):  # a page that outgrows the bound stops
            size += len(part)
            if size > PAGE_MAX_CHARACTERS:
                raise TemplateError(_("template {name}: the page grows beyond {size} MiB").format(
                    name=template.name, size=PAGE_MAX_CHARACTERS >> 20))
            parts.append(part)
        return "".join(parts)
    except TemplateError:
        raise
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(_("template {name}, line {line}: {problem}").format(
                                name=exc.filename or exc.name or "template", line=exc.lineno,
                                problem=_first_line(exc.message))) from None
    except jinja2.TemplateNotFound as exc:
        raise TemplateError(_("template {name!r} not found (looked in {folders})").format(
                                name=exc.name,
                                folders=", ".join(folders_of(template_dir)))) from None
    except jinja2.TemplateError as exc:  # undefined names, the sandbox's refusals
        raise TemplateError(_("template error: {problem}").format(
                                problem=_first_line(exc.message))) from None
    except (ArithmeticError, LookupError, TypeError, ValueError) as exc:
        # A club's template is code of its own: its mistakes are the club's, in one line.
        raise TemplateError(_("template error: {kind}: {problem}").format(
                                kind=type(exc).__name__, problem=_first_line(str(exc)))) from None
    except (UnicodeDecodeError, OSError) as exc:
        raise TemplateError(_("template cannot be read: {problem}").format(
                                problem=_first_line(str(exc)))) from None
    except RecursionError:
        raise TemplateError(_("template error: templates include or extend each other without "
                              "end")) from None


def load_template(env: Environment, name: str, template_dir: Optional[str | Path]) -> Template:
    """A template compiled, with what it extends and imports: a broken or missing one stops
    here, as one line, before anything is written."""
    import jinja2

    try:
        template = env.get_template(name)  # refused without a loader: environment() sets one
        source = env.loader.get_source(env, name)[0] if env.loader is not None else ""
        for node in env.parse(source).find_all((jinja2.nodes.Extends, jinja2.nodes.Import,
                                                jinja2.nodes.FromImport,
                                                jinja2.nodes.Include)):
            target = getattr(node, "template", None)  # each of the four names one
            if isinstance(target, jinja2.nodes.Const):
                load_template(env, target.value, template_dir)
        return template
    except TemplateError:
        raise
    except RecursionError:
        raise TemplateError(_("template error: templates include or extend each other without "
                              "end")) from None
    except Exception:  # the same one line as rendering would give
        render(env, name, template_dir)
        raise


def folders_of(template_dir: Optional[str | Path]) -> list[str]:
    """Where templates are looked for, the club's folder first."""
    return ([str(template_dir)] if template_dir else []) + [str(bundled_dir("templates"))]


def _first_line(text: Optional[str]) -> str:
    return (str(text or "").strip().splitlines() or ["(no message)"])[0]
