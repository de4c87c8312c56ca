"""The ``mighty`` command line: a thin click group that loads each command when it is used.

Commands parse their input, call the engine (or the store), and print. A project error becomes a
one-line message and exit status 1, and so does a file or stream the system refuses (a missing
folder, a full disk); click's usage errors exit 2; no traceback reaches a user. A transaction
PostgreSQL rolls back to keep concurrent writers consistent (a serialization failure or a
deadlock) runs the command again, a few times, before it is reported.
Heavy modules (SQLModel, Jinja2) are imported inside the commands that need them, so ``mighty
--help`` and the engine commands start fast.
"""

from __future__ import annotations

import importlib
import os
import random
import sys
import time

import click

from .. import __version__
from ..engine.errors import MightyError

#: command name -> "module:attribute", imported only when the command runs or help lists it.
COMMANDS = {
    "ruleset": "mighty_cli.cli.ruleset:ruleset",
    "score": "mighty_cli.cli.score:score",
    "replay": "mighty_cli.cli.hands:replay",
    "deal": "mighty_cli.cli.hands:deal",
    "simulate": "mighty_cli.cli.simulate:simulate",
    "referee": "mighty_cli.cli.referee:referee",
    "league": "mighty_cli.cli.league:league",
    "player": "mighty_cli.cli.league:player",
    "session": "mighty_cli.cli.league:session",
    "standings": "mighty_cli.cli.league:standings",
    "import": "mighty_cli.cli.interchange:import_",
    "export": "mighty_cli.cli.interchange:export",
    "backup": "mighty_cli.cli.interchange:backup",
    "restore": "mighty_cli.cli.interchange:restore",
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

    #: How many times a command whose transaction the database rolled back runs again.
    RETRIES = 6
    #: Commands that read a person's answers run once: their input cannot be read again.
    INTERACTIVE = ("referee",)

    def invoke(self, ctx: click.Context):
        protected, args = list(ctx._protected_args), list(ctx.args)
        for attempt in range(self.RETRIES + 1):
            try:
                return super().invoke(ctx)
            except MightyError as exc:
                raise click.ClickException(str(exc)) from None
            except RecursionError:
                raise click.ClickException("input nested too deeply to read") from None
            except BrokenPipeError:
                raise  # click's main leaves quietly when the reader has gone
            except OSError as exc:
                raise click.ClickException(os_message(exc)) from None
            except click.ClickException as exc:
                from .league import RetryTransaction  # only database commands raise it

                if not isinstance(exc, RetryTransaction) or attempt == self.RETRIES \
                        or (protected[:1] and protected[0] in self.INTERACTIVE):
                    raise
                time.sleep(random.uniform(0.01, 0.05) * 2 ** attempt)
                ctx._protected_args, ctx.args = list(protected), list(args)


def os_message(exc: OSError) -> str:
    """An operating-system error as one line: what failed, and on which file."""
    what = exc.strerror or str(exc) or type(exc).__name__
    name = exc.filename if exc.filename is not None else None
    return f"{what}: {click.format_filename(name)}" if name else what


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
        try:
            cli.main(prog_name="mighty")
        finally:
            sys.stdout.flush()  # a full or closed standard output fails here, not at exit
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(1)
    except OSError as exc:
        _silence_stdout()
        click.echo(f"Error: {os_message(exc)}", err=True)
        sys.exit(1)
    except Exception as exc:  # a bug, not bad input: keep the user's screen clean
        if os.environ.get("MIGHTY_DEBUG"):
            raise
        click.echo(f"Error: internal error ({type(exc).__name__}: {exc}); "
                   f"set MIGHTY_DEBUG=1 to see the traceback", err=True)
        sys.exit(3)


def _silence_stdout() -> None:
    """Point standard output at the null device, so the interpreter's last flush of what could
    not be written does not print a second error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
