"""``mighty referee``'s input loop, and the evening set up from its options (the table's
:func:`~mighty_cli.table.evening_opening.open_evening`: a new table, a saved record resumed, or
a league's table), its refusals turned into click's."""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from ..i18n import _
from ..table.evening import Evening
from ..table.evening_opening import open_evening as opened
from ..table.evening_options import EveningOptions
from ..table.table_errors import TableOptionError, TableUsageError
from .database import who_default
from .line_input import LineReader
from .resume_hints import command_line

# --- the loop ---------------------------------------------------------------------------------


def run_loop(evening: Evening, read: Callable[[str], str], echo: Callable[[str], None]) -> None:
    """Feed lines to the evening until it is done or input ends."""
    echo(_("type 'help' for the notation; 'table' draws the table; 'undo' takes back an "
           "entry"))
    while not evening.done:
        for out in evening.glance():
            echo(out)
        try:
            line = read(evening.prompt())
        except (EOFError, click.Abort):
            for out in evening.end_of_input():
                echo(out)
            break
        except KeyboardInterrupt:
            echo("")
            echo(_("(Ctrl-C) type 'quit' to end the evening"))
            continue
        for out in evening.handle(line):
            echo(out)


def open_evening(opts: EveningOptions, who: str = "") -> tuple[Evening, list[str]]:
    """The table's evening from the options (command lines quoted for a shell); what it
    cannot take is a usage error (exit 2), naming the option where it is one."""
    opts.command_line = command_line
    try:
        return opened(opts, who)
    except TableOptionError as exc:
        raise click.BadParameter(str(exc), param_hint=exc.option) from None
    except TableUsageError as exc:
        raise click.UsageError(str(exc)) from None


def run_evening(opts: EveningOptions) -> None:
    """``mighty referee``: set up, then the loop."""
    if opts.interactive is None:
        opts.interactive = sys.stdin.isatty()
    evening, lines = open_evening(opts, who=who_default(None) if opts.league else "")
    for line in lines:
        click.echo(line)
    reader = LineReader(complete=evening.completions, interactive=evening.interactive)
    try:
        run_loop(evening, reader.read, click.echo)
    finally:
        reader.close()
        if evening.book is not None:
            evening.book.close()
    if evening.taken_away:  # refused: the hand was no longer this window's (said on one line)
        raise click.exceptions.Exit(1)
