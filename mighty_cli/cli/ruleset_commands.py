"""``mighty ruleset``: list, show, check and compare club rulesets."""

from __future__ import annotations

import unicodedata

import click

from ..engine.ruleset import (
    bundled_names,
    diff_rulesets,
    format_value,
    iter_options,
    load_ruleset,
    load_ruleset_with_origins,
    option_docs,
)
from ..i18n import N_, _, ngettext
from ..i18n import gettext as translate
from ..render.text import table
from . import completion
from .options import echo_json, json_option

LIST_HEADERS = (N_("name"), N_("title"), N_("min"), N_("formula"), N_("source"))
DIFF_OPTION = N_("option")


@click.group()
def ruleset() -> None:
    """Club rulesets: one TOML file per club, every option documented and cited."""


@ruleset.command("list")
@json_option
def list_(as_json: bool) -> None:
    """List the bundled rulesets.

    \b
    Example:
      mighty ruleset list
    """
    rows = []
    for name in bundled_names():
        rules = load_ruleset(name)
        e = rules.election
        rows.append(
            {
                "name": name,
                "title": rules.meta.title,
                "min_bid": e.min_bid,
                "formula": rules.scoring.formula,
                "source": rules.meta.source,
            }
        )
    if as_json:
        echo_json({"rulesets": rows})
        return
    click.echo(
        table(
            [_(h) for h in LIST_HEADERS],
            [[r["name"], r["title"], r["min_bid"], r["formula"], r["source"]] for r in rows],
            align="<<><<",
        )
    )


@ruleset.command()
@click.argument("name", metavar="NAME|FILE", shell_complete=completion.rulesets)
@click.option("--docs", is_flag=True, help=N_("Also print what each option means and its source."))
@json_option
def show(name: str, docs: bool, as_json: bool) -> None:
    """Print every option of a ruleset, its value and the file it came from: one line per
    option within 100 columns, the doc and source wrapped beneath it with --docs.

    \b
    Examples:
      mighty ruleset show seoul-science
      mighty ruleset show ./our-club.toml --docs
    """
    loaded = load_ruleset_with_origins(name)
    rules = loaded.ruleset
    documentation = option_docs() if docs else {}
    plain = rules.to_dict()
    options = []
    for key, _field in iter_options():
        value = plain
        for part in key.split("."):
            value = value[part]
        options.append((key, value, loaded.origins.get(key, "default")))
    if as_json:
        echo_json(
            {
                "name": rules.name,
                "chain": list(loaded.chain),
                "options": {k: {"value": v, "from": o} for k, v, o in options},
            }
        )
        return
    meta = rules.meta
    # a bundled ruleset's description is in the catalog; a club's own is shown as written
    header = [
        f"{meta.title} ({rules.name})",
        _(meta.description) if meta.description else "",
        _("source: {source}").format(source=meta.source) if meta.source else "",
        _("extends: {chain}").format(chain=" → ".join(loaded.chain)),
    ]
    for text in header:
        if text:
            click.echo("\n".join(_wrap(text, WIDTH, indent="  ")))
    click.echo("")
    # the meta table is the header above; every other option takes one line
    options = [option for option in options if not option[0].startswith("meta.")]
    lines = [(f"{key} = {format_value(value)}", f"[{origin}]") for key, value, origin in options]
    longest_origin = max(_width(origin) for _, origin in lines)
    column = min(max(_width(left) for left, _ in lines), WIDTH - 2 - longest_origin)
    for (left, origin), (key, _value, _origin) in zip(lines, options):
        if _width(left) <= column:
            click.echo(left + " " * (column - _width(left)) + "  " + origin)
        elif _width(left) + 2 + _width(origin) <= WIDTH:
            click.echo(left + "  " + origin)
        else:  # a value too long for one line (a club's own formula): wrap it, origin after
            click.echo("\n".join(_wrap(left, WIDTH, indent="      ")))
            click.echo("      " + origin)
        if docs:
            entry = documentation[key]
            # the docs are the schema's (engine/ruleset/schema.py); tools/i18n.py puts each in the
            # catalog, so they are translated here, where they are shown
            doc = translate(entry["doc"]) if entry["doc"] else ""
            click.echo("\n".join(_wrap(doc, WIDTH, indent="    ", first="    ")))
            source = entry["source"] or _("the tool (no source covers it)")
            click.echo(
                "\n".join(
                    _wrap(
                        _("Source: {source}").format(source=source),
                        WIDTH,
                        indent="      ",
                        first="    ",
                    )
                )
            )


WIDTH = 100  # a terminal's columns: every line of `ruleset show` fits


def _width(text: str) -> int:
    """Columns a string takes in a terminal (Korean and Japanese characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _wrap(text: str, width: int, indent: str = "", first: str = "") -> list[str]:
    """Wrap text at spaces to ``width`` terminal columns (a word longer than a line is cut)."""
    lines: list[str] = []
    line = first
    for word in text.split():
        candidate = f"{line} {word}" if line.strip() else line + word
        if _width(candidate) <= width:
            line = candidate
            continue
        if line.strip():
            lines.append(line)
            line = indent + word
        else:
            line = candidate
        while _width(line) > width:  # a single word wider than the line
            cut = len(line)
            while _width(line[:cut]) > width:
                cut -= 1
            lines.append(line[:cut])
            line = indent + line[cut:]
    if line.strip():
        lines.append(line)
    return lines


@ruleset.command()
@click.argument("path", metavar="FILE")
def check(path: str) -> None:
    """Load and validate a ruleset file; print what it changes from what it extends.

    \b
    Example:
      mighty ruleset check ./our-club.toml
    """
    loaded = load_ruleset_with_origins(path)
    own = [
        k
        for k, origin in loaded.origins.items()
        if origin == loaded.chain[0] and not k.startswith("meta.")
    ]
    click.echo(
        ngettext(
            "ok: {path} ({title}) extends {chain}; sets {count} option",
            "ok: {path} ({title}) extends {chain}; sets {count} options",
            len(own),
        ).format(
            path=path,
            title=loaded.ruleset.meta.title,
            chain=" → ".join(loaded.chain[1:]) or _("nothing"),
            count=len(own),
        )
    )
    for key in sorted(own):  # what the club's file says, as it would write it
        click.echo(f"  {key} = {format_value(loaded.ruleset.get(key))}")


@ruleset.command()
@click.argument("first", metavar="A", shell_complete=completion.rulesets)
@click.argument("second", metavar="B", shell_complete=completion.rulesets)
@json_option
def diff(first: str, second: str, as_json: bool) -> None:
    """Compare two rulesets option by option.

    \b
    Example:
      mighty ruleset diff standard seoul-science
    """
    a, b = load_ruleset(first), load_ruleset(second)
    differences = diff_rulesets(a, b)
    if as_json:
        echo_json(
            {
                "a": a.name,
                "b": b.name,
                "differences": [{"option": k, "a": va, "b": vb} for k, va, vb in differences],
            }
        )
        return
    if not differences:
        click.echo(_("{a} and {b} have the same rules").format(a=a.name, b=b.name))
        return
    click.echo(
        table(
            [_(DIFF_OPTION), a.name, b.name],
            [[k, format_value(va), format_value(vb)] for k, va, vb in differences],
            align="<<<",
        )
    )
