"""Reading the referee's and score-keeper's lines: line editing, history and completion with
Python's ``readline`` on a terminal; plain lines from a pipe, so an evening can be scripted.

The history is kept in the user's mighty folder (``history``), one line per entry, and the
completer offers what makes sense at the prompt (names, cards, bids, commands), supplied by the
caller as a function.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import click

HISTORY_LINES = 2000


def history_path() -> Path | None:
    """``history`` in the user's mighty folder (None when it cannot be made)."""
    try:
        folder = Path(click.get_app_dir("mighty"))
        folder.mkdir(parents=True, exist_ok=True)
        return folder / "history"
    except OSError:
        return None


class LineReader:
    """Reads one line per call; raises EOFError at the end of input."""

    def __init__(
        self,
        complete: Callable[[], Iterable[str]] | None = None,
        interactive: bool | None = None,
        history: Path | None = None,
    ):
        self.interactive = sys.stdin.isatty() if interactive is None else interactive
        self.complete = complete
        self.readline = None
        self.history = history
        self._matches: list[str] = []
        if self.interactive:
            self._set_up_readline()

    def _set_up_readline(self) -> None:
        try:
            import readline
        except ImportError:  # Windows without pyreadline: plain input() still edits a line
            return
        self.readline = readline
        readline.set_completer_delims(" \t\n")
        readline.set_completer(self._completer)
        if "libedit" in (readline.__doc__ or ""):
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")
        if self.history is None:
            self.history = history_path()
        if self.history is not None and self.history.exists():
            try:
                readline.read_history_file(str(self.history))
            except OSError:
                pass
        readline.set_history_length(HISTORY_LINES)

    def _completer(self, text: str, state: int) -> str | None:
        if state == 0:
            words = list(self.complete()) if self.complete else []
            low = text.lower()
            seen: dict[str, None] = {}
            for word in words:
                if word.lower().startswith(low):
                    seen.setdefault(word)
            self._matches = list(seen)
        return self._matches[state] if state < len(self._matches) else None

    def read(self, prompt: str) -> str:
        """One line, without its newline. EOFError at the end of input."""
        if self.interactive:
            return input(f"{prompt}: ")
        click.echo(f"{prompt}: ", nl=False)
        line = sys.stdin.readline()
        if not line:
            click.echo("")
            raise EOFError
        return line.rstrip("\r\n")

    def close(self) -> None:
        """Keep the history for the next evening."""
        if self.readline is not None and self.history is not None:
            try:
                self.readline.write_history_file(str(self.history))
                os.chmod(self.history, 0o600)
            except OSError:
                pass


def ask(
    reader: LineReader,
    prompt: str,
    check: Callable[[str], object],
    echo: Callable[[str], None] = click.echo,
    default: str | None = None,
    attempts: int = 1000,
):
    """Ask until ``check`` accepts the answer (it returns the value, or raises with the reason);
    the reason is shown and the question asked again. EOFError when input ends."""
    shown = f"{prompt} [{default}]" if default is not None else prompt
    for _ in range(attempts):
        answer = reader.read(shown).strip()
        if not answer and default is not None:
            answer = default
        try:
            return check(answer)
        except EOFError:
            raise
        except (ValueError, click.ClickException) as exc:
            message = exc.format_message() if isinstance(exc, click.ClickException) else str(exc)
            echo(f"✗ {message}")
    raise EOFError
