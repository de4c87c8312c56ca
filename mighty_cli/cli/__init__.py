"""The ``mighty`` command line: a thin click group that loads each command when it is used.

Commands parse their input, call the engine (or the store), and print. A project error becomes a
one-line message and exit status 1; click's usage errors exit 2; no traceback reaches a user.
Heavy modules (SQLModel, Jinja2) are imported inside the commands that need them, so ``mighty
--help`` and the engine commands start fast.
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from .. import __version__
from ..engine.errors import MightyError

#: command name -> "module:attribute", imported only when the command runs or help lists it.
COMMANDS = {
    "ruleset": "mighty_cli.cli.ruleset:ruleset",
    "score": "mighty_cli.cli.score:score",
    "replay": "mighty_cli.cli.hands:replay",
    "deal": "mighty_cli.cli.hands:deal",
    "referee": "mighty_cli.cli.referee:referee",
    "league": "mighty_cli.cli.league:league",
    "player": "mighty_cli.cli.league:player",
    "session": "mighty_cli.cli.league:session",
    "standings": "mighty_cli.cli.league:standings",
    "import": "mighty_cli.cli.league:import_",
    "export": "mighty_cli.cli.league:export",
    "record": "mighty_cli.cli.league_hands:record",
    "hand": "mighty_cli.cli.league_hands:hand",
    "where": "mighty_cli.cli.where:where",
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def __init__(self, *args, lazy_commands: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy_commands = lazy_commands or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy_commands))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy_commands:
            module_name, attribute = self.lazy_commands[name].split(":")
            return getattr(importlib.import_module(module_name), attribute)
        return super().get_command(ctx, name)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except MightyError as exc:
            raise click.ClickException(str(exc)) from None


@click.group(cls=LazyGroup, lazy_commands=COMMANDS,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mighty")
def cli() -> None:
    """Run Mighty (마이티) card tables and leagues.

    \b
    Rulesets:  mighty ruleset list | show NAME | check FILE | diff A B
    Scoring:   mighty score --ruleset standard --bid 15 --trump D --taken 16
    Database:  mighty where   (the league file to back up; --db URL or MIGHTY_DB for another)
    """


def main() -> None:
    """Entry point of the ``mighty`` script."""
    try:
        cli.main(prog_name="mighty")
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # a bug, not bad input: keep the user's screen clean
        if os.environ.get("MIGHTY_DEBUG"):
            raise
        click.echo(f"Error: internal error ({type(exc).__name__}: {exc}); "
                   f"set MIGHTY_DEBUG=1 to see the traceback", err=True)
        sys.exit(3)
