"""Options shared by several commands, as decorators."""

from __future__ import annotations

import json
from typing import Any

import click

from ..engine.limits import SEED_LIMIT, SEED_MAX_DIGITS
from ..i18n import N_, _
from . import completion

# Deferred imports: the store (SQLModel), the pages (Jinja2) and the engine's heavier parts load
# inside the commands that use them, so `mighty --help`, a command's --help, a usage error and
# the commands that need none of them start quickly (benchmarks/startup.py, tests/test_imports.py).

json_option = click.option(
    "--json", "as_json", is_flag=True, help=N_("Print one JSON object instead of text.")
)


def ruleset_option(required: bool = True, default: str | None = None):
    """``--ruleset NAME|FILE``: a bundled ruleset name (or alias) or a ruleset file."""
    return click.option(
        "--ruleset",
        "-r",
        "ruleset_name",
        required=required and default is None,
        default=default,
        metavar="NAME|FILE",
        shell_complete=completion.rulesets,
        help=N_("A bundled ruleset (see 'mighty ruleset list') or a .toml file."),
    )


#: ``--ruleset`` for commands that read a hand record: the record names its own ruleset, which
#: may only be a bundled one or a file in the record's folder; a path given here may be anywhere.
record_ruleset_option = click.option(
    "--ruleset",
    "-r",
    "ruleset_name",
    default=None,
    metavar="NAME|FILE",
    shell_complete=completion.rulesets,
    help=N_(
        "Use this ruleset instead of the one the record names (a record may only name a "
        "bundled ruleset or a file in its own folder)."
    ),
)


def echo_json(data: Any) -> None:
    """Print JSON the same way everywhere: UTF-8 text, not escapes, so Korean names read."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


#: The largest hand, session or count a command accepts: what every database stores in an
#: INTEGER column (a larger number would overflow before it could be looked up).
NUMBER_MAX = 2_147_483_647


def number_type(low: int = 1) -> click.IntRange:
    """A whole-number argument from ``low`` to :data:`NUMBER_MAX` (hand and session numbers,
    counts); anything else is a usage error (exit 2)."""
    return click.IntRange(low, NUMBER_MAX)


def write_output(path: str, text: str, *, newline: str | None = None) -> None:
    """Write a command's output file; a folder that does not exist, a read-only file or a full
    disk is one line (exit 1), and a file this call created is not left half-written."""
    from ..engine.outputs import replaced_file

    with replaced_file(path, newline=newline) as out:
        out.write(text)


class SeedType(click.ParamType):
    """A seed (``--seed``): a whole number of at most :data:`~mighty_cli.engine.limits.
    SEED_MAX_DIGITS` digits, the same bound on every command and database (a league stores a
    seed as text of at most 40 characters); anything else is a usage error (exit 2)."""

    name = "integer"

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = int(str(value).strip())
            except ValueError:
                self.fail(_("{value!r} is not a whole number").format(value=value), param, ctx)
        if abs(number) > SEED_LIMIT:
            self.fail(
                _("{start}...: a seed has at most {digits} digits").format(
                    start=str(number)[:12], digits=SEED_MAX_DIGITS
                ),
                param,
                ctx,
            )
        return number


#: The type of every ``--seed`` option.
SEED = SeedType()
