"""``mighty ruleset``: list, show, check and compare club rulesets."""

from __future__ import annotations

import click

from ..engine.ruleset import (bundled_names, diff_rulesets, format_value, iter_options,
                              load_ruleset, load_ruleset_with_origins, option_docs)
from ..render.text import table
from .options import echo_json, json_option


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
        rows.append({"name": name, "title": rules.meta.title, "min_bid": e.min_bid,
                     "formula": rules.scoring.formula, "source": rules.meta.source})
    if as_json:
        echo_json({"rulesets": rows})
        return
    click.echo(table(["name", "title", "min", "formula", "source"],
                     [[r["name"], r["title"], r["min_bid"], r["formula"], r["source"]]
                      for r in rows], align="<<><<"))


@ruleset.command()
@click.argument("name", metavar="NAME|FILE")
@click.option("--docs", is_flag=True, help="Also print what each option means.")
@json_option
def show(name: str, docs: bool, as_json: bool) -> None:
    """Print every option of a ruleset, its value and the file it came from.

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
    for key, _ in iter_options():
        value = plain
        for part in key.split("."):
            value = value[part]
        options.append((key, value, loaded.origins.get(key, "default")))
    if as_json:
        echo_json({"name": rules.name, "chain": list(loaded.chain),
                   "options": {k: {"value": v, "from": o} for k, v, o in options}})
        return
    click.echo(f"{rules.meta.title} ({rules.name}); extends: {' → '.join(loaded.chain)}")
    rows = []
    for key, value, origin in options:
        rows.append([key, format_value(value), origin])
        if docs:
            rows.append(["", "  " + documentation[key]["doc"], ""])
    click.echo(table(["option", "value", "from"], rows, align="<<<"))


@ruleset.command()
@click.argument("path", metavar="FILE")
def check(path: str) -> None:
    """Load and validate a ruleset file; print what it changes from what it extends.

    \b
    Example:
      mighty ruleset check ./our-club.toml
    """
    loaded = load_ruleset_with_origins(path)
    own = [k for k, origin in loaded.origins.items()
           if origin == loaded.chain[0] and not k.startswith("meta.")]
    click.echo(f"ok: {path} ({loaded.ruleset.meta.title}) extends "
               f"{' → '.join(loaded.chain[1:]) or 'nothing'}; sets {len(own)} option(s)")


@ruleset.command()
@click.argument("first", metavar="A")
@click.argument("second", metavar="B")
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
        echo_json({"a": a.name, "b": b.name,
                   "differences": [{"option": k, "a": va, "b": vb} for k, va, vb in differences]})
        return
    if not differences:
        click.echo(f"{a.name} and {b.name} have the same rules")
        return
    click.echo(table(["option", a.name, b.name],
                     [[k, format_value(va), format_value(vb)] for k, va, vb in differences],
                     align="<<<"))
