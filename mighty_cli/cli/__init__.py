"""The ``mighty`` command line: a thin click group that loads each command when it is used.

Commands parse their input, call the engine (or the store), and print. A project error becomes a
one-line message and exit status 1, and so does a file or stream the system refuses (a missing
folder, a full disk); click's usage errors exit 2; no traceback reaches a user. A transaction
PostgreSQL rolls back to keep concurrent writers consistent (a serialization failure or a
deadlock) runs the command again, a few times, before it is reported.
Heavy modules (SQLModel, Jinja2) are imported inside the commands that need them, so ``mighty
--help`` and the engine commands start fast.

The language (``--lang``, ``MIGHTY_LANG``, the locale: ``mighty_cli/i18n.py``) is chosen before
the group parses its arguments, and each command's help is translated when the group loads it,
so every help text, prompt and message of one invocation speaks one language.
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
from ..i18n import (
    N_,
    _,
    choose_language,
    language_from_args,
    localize,
    set_language,
    translate_click,
)
from .streams import guard_standard_streams, silence_stdout

#: command name -> "module:attribute", imported only when the command runs or help lists it.
COMMANDS = {
    "ruleset": "mighty_cli.cli.ruleset_commands:ruleset",
    "score": "mighty_cli.cli.score:score",
    "replay": "mighty_cli.cli.replay:replay",
    "deal": "mighty_cli.cli.deal:deal",
    "simulate": "mighty_cli.cli.simulate:simulate",
    "referee": "mighty_cli.cli.referee:referee",
    "league": "mighty_cli.cli.league_commands:league",
    "player": "mighty_cli.cli.league_players:player",
    "session": "mighty_cli.cli.league_sessions:session",
    "round": "mighty_cli.cli.round_commands:round_",
    "standings": "mighty_cli.cli.league_standings:standings",
    "site": "mighty_cli.cli.site_command:site",
    "import": "mighty_cli.cli.import_export:import_",
    "export": "mighty_cli.cli.import_export:export",
    "backup": "mighty_cli.cli.import_export:backup",
    "restore": "mighty_cli.cli.import_export:restore",
    "record": "mighty_cli.cli.record_command:record",
    "hand": "mighty_cli.cli.league_hands:hand",
    "where": "mighty_cli.cli.where:where",
    "serve": "mighty_cli.cli.serve:serve",
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def __init__(self, *args, lazy_commands: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy_commands = lazy_commands or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy_commands))

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # Before click reads anything: --help is eager and may come before --lang.
        set_language(choose_language(language_from_args(args)))
        translate_click()
        localize(self)
        return super().parse_args(ctx, args)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy_commands:
            module_name, attribute = self.lazy_commands[name].split(":")
            command = getattr(importlib.import_module(module_name), attribute)
        else:
            command = super().get_command(ctx, name)
        if command is not None:
            localize(command)
        return command

    def _main_shell_completion(self, ctx_args, prog_name: str, complete_var=None) -> None:
        # click calls this when _MIGHTY_COMPLETE is set: the shells' scripts of our own first.
        from .completion import use_shell_scripts  # start-up time: only completion needs it

        use_shell_scripts()
        super()._main_shell_completion(ctx_args, prog_name, complete_var)

    #: How many times a command whose transaction the database rolled back runs again.
    RETRIES = 6
    #: Commands that read a person's answers run once: their input cannot be read again.
    INTERACTIVE = ("referee",)

    def invoke(self, ctx: click.Context):
        # Where click keeps the command's own arguments (renamed in click 8.2), to run it again.
        slot = "_protected_args" if hasattr(ctx, "_protected_args") else "protected_args"
        protected, args = list(getattr(ctx, slot)), list(ctx.args)
        for attempt in range(self.RETRIES + 1):
            try:
                return super().invoke(ctx)
            except MightyError as exc:
                raise click.ClickException(str(exc)) from None
            except RecursionError:
                raise click.ClickException(_("input nested too deeply to read")) from None
            except BrokenPipeError:
                raise  # click's main leaves quietly when the reader has gone
            except OSError as exc:
                raise click.ClickException(os_message(exc)) from None
            except click.ClickException as exc:
                from .database import RetryTransaction  # only database commands raise it

                if (
                    not isinstance(exc, RetryTransaction)
                    or attempt == self.RETRIES
                    or (protected[:1] and protected[0] in self.INTERACTIVE)
                ):
                    raise
                time.sleep(random.uniform(0.01, 0.05) * 2**attempt)
                setattr(ctx, slot, list(protected))
                ctx.args = list(args)


def os_message(exc: OSError) -> str:
    """An operating-system error as one line: what failed, and on which file."""
    what = exc.strerror or str(exc) or type(exc).__name__
    name = exc.filename if exc.filename is not None else None
    return f"{what}: {click.format_filename(name)}" if name else what


@click.group(
    cls=LazyGroup, lazy_commands=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=lambda ctx, param, value: _print_version(ctx) if value else None,
    help=N_("Show the version and exit."),
)
@click.option(
    "--lang",
    type=click.Choice(["ko", "en"]),
    expose_value=False,
    is_eager=True,
    help=N_("Language: ko (한국어) or en; default MIGHTY_LANG, then the locale."),
)
def cli() -> None:
    """Run Mighty (마이티) card tables and leagues.

    \b
    Rulesets:  mighty ruleset list | show NAME | check FILE | diff A B
    Scoring:   mighty score --ruleset standard --bid 15 --trump D --taken 16
    Database:  mighty where   (the league file to back up; --db URL or MIGHTY_DB for another)
    """


def _print_version(ctx: click.Context) -> None:
    # click.version_option words its line when the module is imported, before --lang is read
    click.echo(_("%(prog)s, version %(version)s") % {"prog": "mighty", "version": __version__})
    ctx.exit()


def main() -> None:
    """Entry point of the ``mighty`` script."""
    guard_standard_streams()
    try:
        try:
            cli.main(prog_name="mighty")
        finally:
            sys.stdout.flush()  # a full or closed standard output fails here, not at exit
    except KeyboardInterrupt:
        click.echo(_("interrupted"), err=True)
        sys.exit(130)
    except BrokenPipeError:
        silence_stdout()
        sys.exit(1)
    except OSError as exc:
        silence_stdout()
        click.echo(_("Error: {message}").format(message=os_message(exc)), err=True)
        sys.exit(1)
    except Exception as exc:  # a bug, not bad input: keep the user's screen clean
        if os.environ.get("MIGHTY_DEBUG"):
            raise
        click.echo(
            _(
                "Error: internal error ({kind}: {error}); set MIGHTY_DEBUG=1 to see the traceback"
            ).format(kind=type(exc).__name__, error=exc),
            err=True,
        )
        sys.exit(3)
