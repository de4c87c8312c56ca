"""Extract, update, compile and check the translation catalogs (Babel: a development tool only).

    python tools/i18n.py extract   # mighty_cli/locale/mighty.pot from the code and the templates
    python tools/i18n.py update    # merge it into every language's .po (new entries empty)
    python tools/i18n.py compile   # .po -> .mo, the files the wheel ships
    python tools/i18n.py check     # what tests/i18n asserts (exit 1 with one line per problem)

Messages are found in every module of mighty_cli (``SOURCES``) (calls of ``_``, ``N_``, ``gettext``,
``ngettext``, and the docstrings of click commands, which are their ``--help``), in the
templates (Jinja2's i18n extension: ``_()`` and ``{% trans %}``), and in the ruleset schema
(every option's ``doc``, shown by ``ruleset show --docs``). ``update`` drops entries whose
message is gone from the code and prints them, so a changed message is translated afresh rather
than matched fuzzily. Install Babel with ``pip install -e '.[test]'``.
"""

from __future__ import annotations

import ast
import gettext
import inspect
import io
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "mighty_cli" / "locale"
DOMAIN = "mighty"
TRANSLATED = ("ko",)

#: The modules whose messages are in the catalog: every module of mighty_cli.
SOURCES = ("mighty_cli/**/*.py",)
TEMPLATES = ("templates/*.html",)
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2)}
#: Placeholders a translation must keep: {name} for str.format, %(name)s in templates.
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}|%\([a-z_]+\)[sd]")
#: A Korean particle in pair notation (이(가), 을(를), (으)로, (이)라...): only right after a
#: placeholder, or its quote or bracket, where the word is known once filled in
#: (mighty_cli/engine/particles.py chooses the form); after a fixed word, write the form.
PAIR = re.compile(r"이\(가\)|가\(이\)|은\(는\)|는\(은\)|을\(를\)|를\(을\)|와\(과\)|과\(와\)|아\(야\)"
                  r"|야\(아\)|\(으\)로|\(이\)")
AFTER_PLACEHOLDER = re.compile(r"(?:\}|%\([a-z_]+\)[sd])['\"’”)\]]*$")
#: A particle that depends on the word written in one form after a placeholder ("{card}를",
#: "{seed}로"): which form is right depends on what fills it, so write the pair. A particle
#: after a bracketed placeholder belongs to the word before the brackets ("마이티({card})는").
FIXED = re.compile(r"(?:\}|%\([a-z_]+\)[sd])['\"’”\]]*(이|가|은|는|을|를|와|과|로|으로|이라|라|이라는|라는|"
                   r"이어야|여야|이에요|예요|였|이었)(?=[\s,.:;!?)'\"]|$)")
#: A particle standing apart from the placeholder it belongs to ("{name} 는", "{card} 는
#: {player} 에게"): Korean writes a particle against its word.
APART = re.compile(r"(?:\}|%\([a-z_]+\)[sd])['\"’”)\]]* +(이|가|은|는|을|를|와|과|의|에|에게|에게는|에서|"
                   r"에서는|에는|도|만|로|으로|라는|이라는|이어|이어야|여야|입니다|이다)(?=[\s,.:;!?)'\"]|$)")


def _files(patterns) -> list[Path]:
    found: list[Path] = []
    for pattern in patterns:
        matches = sorted(ROOT.glob(pattern))
        if not matches:
            raise SystemExit(f"tools/i18n.py: {pattern} matches no file")
        found.extend(matches)
    return found


def _command_docstrings(source: bytes):
    """The docstrings of functions decorated as click commands or groups: their --help."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if name in ("command", "group"):
                doc = ast.get_docstring(node, clean=False)
                if doc:  # click's \b (no rewrap) marker, spelled so a .po file can hold it
                    yield node.lineno, inspect.cleandoc(doc).replace("\b", "\\b")
                break


def extract_python(fileobj, keywords, comment_tags, options):
    """Babel's Python extractor plus the help texts of click commands."""
    from babel.messages.extract import extract_python as babel_python

    source = fileobj.read()
    yield from babel_python(io.BytesIO(source), keywords, comment_tags, options)
    for lineno, doc in _command_docstrings(source):
        yield lineno, None, doc, ["command help"]


#: Where the ruleset schema lives: each option's documentation (its ``doc`` metadata, shown
#: by ``mighty ruleset show --docs``) is a message too, translated where it is shown.
SCHEMA = "mighty_cli/engine/ruleset/schema.py"


def schema_messages():
    """``(message, option keys)`` for every option's documentation in the ruleset schema, read
    from the schema itself (importing the stdlib-only engine), so an option added to the schema
    is in the catalog, and untranslated until someone translates it."""
    sys.path.insert(0, str(ROOT))
    try:
        from mighty_cli.engine.ruleset.schema import option_docs
    finally:
        sys.path.pop(0)
    docs: dict[str, list[str]] = {}
    for key, entry in option_docs().items():
        if entry["doc"]:
            docs.setdefault(entry["doc"], []).append(key)
    return list(docs.items())


def ruleset_descriptions():
    """``(file, description)`` of every bundled ruleset: ``ruleset show`` prints a bundled
    ruleset's description in the user's language."""
    from mighty_cli.engine import safe_toml  # tomllib, or tomli before Python 3.11

    for path in sorted((ROOT / "rulesets").glob("*.toml")):
        description = safe_toml.loads(path.read_text(encoding="utf-8")).get("meta", {}).get(
            "description")
        if description:
            yield str(path.relative_to(ROOT)), description


def extract_catalog():
    """Every message of the listed modules and templates, as a Babel catalog template."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract

    catalog = Catalog(project="mighty-cli", domain=DOMAIN, charset="utf-8")
    jobs = [(path, extract_python, {}) for path in _files(SOURCES)]
    jobs += [(path, "jinja2", {"extensions": "jinja2.ext.i18n", "trimmed": "true",
                               "newstyle_gettext": "true"}) for path in _files(TEMPLATES)]
    for path, method, options in jobs:
        with open(path, "rb") as handle:
            for lineno, message, comments, context in extract(
                    method, handle, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
                    options=options, strip_comment_tags=True):
                catalog.add(message, None, [(str(path.relative_to(ROOT)), lineno)],
                            auto_comments=comments, context=context)
    for message, keys in schema_messages():
        catalog.add(message, None, [(SCHEMA, 0)],
                    auto_comments=["ruleset option " + ", ".join(keys)])
    for path, description in ruleset_descriptions():
        catalog.add(description, None, [(path, 0)],
                    auto_comments=["a bundled ruleset's one-line description (ruleset show)"])
    return catalog


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(language: str) -> Path:
    return po_path(language).with_suffix(".mo")


def read_po(language: str):
    from babel.messages.pofile import read_po as babel_read_po

    with open(po_path(language), "rb") as handle:
        return babel_read_po(handle, locale=language, domain=DOMAIN)


def write_po(catalog, path: Path) -> None:
    from babel.messages.pofile import write_po as babel_write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    babel_write_po(buffer, catalog, width=100, sort_output=True, include_lineno=False,
                   ignore_obsolete=True)
    path.write_bytes(buffer.getvalue())


def extract_command() -> None:
    write_po(extract_catalog(), LOCALE_DIR / f"{DOMAIN}.pot")
    print(f"wrote {LOCALE_DIR / (DOMAIN + '.pot')}")


def update_command() -> None:
    from babel.messages.catalog import Catalog

    template = extract_catalog()
    for language in TRANSLATED:
        path = po_path(language)
        catalog = read_po(language) if path.exists() else Catalog(locale=language, domain=DOMAIN)
        catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
        catalog.project, catalog.version = "mighty-cli", "0"
        catalog.header_comment = (f"# The {language} catalog of mighty-cli: translate here, then "
                                  f"run python tools/i18n.py compile.\n"
                                  f"# Conventions: mighty_cli/i18n.py.")
        catalog.last_translator = catalog.language_team = "mighty-cli"
        catalog.msgid_bugs_address = ""
        catalog.fuzzy = False
        for message in catalog.obsolete.values():
            print(f"{path}: dropped (no longer in the code): {message.id!r}")
        write_po(catalog, path)
        missing = sum(1 for m in catalog if m.id and not _translated(m))
        print(f"{path}: {len(catalog)} messages, {missing} to translate")


def compile_command() -> None:
    from babel.messages.mofile import write_mo

    for language in TRANSLATED:
        catalog = read_po(language)
        with open(mo_path(language), "wb") as handle:
            write_mo(handle, catalog, use_fuzzy=False)
        print(f"wrote {mo_path(language)}")


def _translated(message) -> bool:
    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return all(strings) and bool(strings)


def _key(message_id) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


def problems(language: str) -> list[str]:
    """Everything wrong with a language's catalog, one line each (empty: all good)."""
    found: list[str] = []
    where = _shown(po_path(language))
    catalog = read_po(language)
    in_code = {_key(m.id): m for m in extract_catalog() if m.id}
    in_po = {_key(m.id): m for m in catalog if m.id}
    for key, message in in_code.items():
        entry = in_po.get(key)
        if entry is None or not _translated(entry):
            found.append(f"{where}: no translation of {key!r} ({_origin(message)})")
        elif entry.fuzzy:
            found.append(f"{where}: fuzzy translation of {key!r}")
        elif isinstance(message.id, tuple) != isinstance(entry.id, tuple) or (
                isinstance(message.id, tuple) and tuple(message.id) != tuple(entry.id)):
            found.append(f"{where}: {key!r} is plural in one place and not the other")
        else:
            found.extend(_placeholder_problems(where, key, message.id, entry.string))
            found.extend(_particle_problems(where, key, entry.string))
    for key in in_po.keys() - in_code.keys():
        found.append(f"{where}: stale entry {key!r} (no longer in the code)")
    for message in catalog.obsolete.values():
        found.append(f"{where}: obsolete entry {_key(message.id)!r} (#~): remove it")
    found.extend(_compiled_problems(language, catalog))
    return found


def _placeholder_problems(where, key: str, message_id, string) -> list[str]:
    """A translation keeps the placeholders of its message: all of them for a singular; for a
    plural, each form uses only the message's and still has every one of the plural's (so a
    one-form language like Korean reads the plural's)."""
    def names(text: str) -> set[str]:
        return set(PLACEHOLDER.findall(text))

    if isinstance(message_id, (list, tuple)):
        allowed = names(message_id[0]) | names(message_id[1])
        required = names(message_id[1])
        forms = list(string)
    else:
        allowed = required = names(message_id)
        forms = [string]
    return [f"{where}: the translation of {key!r} has placeholders {sorted(names(form))}, "
            f"expected {sorted(required)}" for form in forms
            if not required <= names(form) <= allowed]


def _particle_problems(where, key: str, string) -> list[str]:
    """A Korean particle is written against its word: in pair notation right after a
    placeholder (chosen when the message is filled in), never in one fixed form there, never
    apart from it, never as a pair after a fixed word (write the form that word takes)."""
    found = []
    for form in (string if isinstance(string, (list, tuple)) else [string]):
        for match in PAIR.finditer(form):
            if not AFTER_PLACEHOLDER.search(form[:match.start()]):
                seen = form[max(0, match.start() - 12):match.end()]
                found.append(f"{where}: the translation of {key!r} writes {match.group(0)!r} "
                             f"after a fixed word ({seen!r}): write the particle that word takes")
        for match in FIXED.finditer(form):
            found.append(f"{where}: the translation of {key!r} writes {match.group(1)!r} after a "
                         f"placeholder ({match.group(0)!r}): the form depends on the word, write "
                         f"the pair (이(가), 을(를), (으)로...)")
        for match in APART.finditer(form):
            found.append(f"{where}: the translation of {key!r} writes the particle "
                         f"{match.group(1)!r} apart from its placeholder ({match.group(0)!r}): "
                         f"attach it, in pair notation where it depends on the word")
    return found


def _shown(path: Path) -> Path:
    """A path as the messages show it: relative to the repository when inside it."""
    try:
        return path.relative_to(ROOT)
    except ValueError:
        return path


def _origin(message) -> str:
    return ", ".join(f"{path}:{line}" for path, line in message.locations) or "?"


def _compiled_problems(language: str, catalog) -> list[str]:
    """The .mo must say exactly what the .po says (it is compiled from it, not edited)."""
    path = mo_path(language)
    if not path.exists():
        return [f"{_shown(path)}: missing; run python tools/i18n.py compile"]
    with open(path, "rb") as handle:
        compiled = dict(gettext.GNUTranslations(handle)._catalog)  # type: ignore[attr-defined]
    compiled.pop("", None)
    expected: dict = {}
    for message in catalog:
        if not message.id or message.fuzzy or not _translated(message):
            continue
        if isinstance(message.id, (list, tuple)):
            for index, string in enumerate(message.string):
                expected[(message.id[0], index)] = string
        else:
            expected[message.id] = message.string
    if compiled != expected:
        return [f"{_shown(path)} is not the compilation of {_shown(po_path(language))}; "
                f"run python tools/i18n.py compile"]
    return []


def check_command() -> int:
    lines = [line for language in TRANSLATED for line in problems(language)]
    for line in lines:
        print(line)
    if not lines:
        print("catalogs complete and compiled")
    return 1 if lines else 0


def main(argv: list[str]) -> int:
    commands = {"extract": extract_command, "update": update_command,
                "compile": compile_command, "check": check_command}
    if len(argv) != 1 or argv[0] not in commands:
        print(__doc__.strip().splitlines()[0])
        print("usage: python tools/i18n.py extract|update|compile|check")
        return 2
    return commands[argv[0]]() or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
