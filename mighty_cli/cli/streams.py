"""The process's standard streams, as ``mighty`` runs: what reaches a terminal is made safe
there, in one place, and a reader that goes away does not undo a command's work.

- Every string the tool prints may come from a file or the database (a note, a ruleset's
  description, a file's name, a league's name). A control character in it (``ESC ] … BEL`` sets
  a terminal's title or writes its clipboard; a carriage return hides what came before) or a
  bidirectional override (which reverses a score on screen) would act on the terminal, so on a
  terminal, and always on standard error, each is written visibly as its code (``\\x1b``).
  Output to a file or a pipe stays exact: an export is data.
- Once a pipe's reader has gone (``mighty session start ... | head -1``), what is written is
  dropped, so the command finishes and commits what it began instead of dying at its next line
  of output and rolling its work back.
"""

from __future__ import annotations

import os
import re
import sys

#: C0 and C1 controls but tab and newline, DEL, and the bidirectional embeddings, overrides
#: and isolates.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: str) -> str:
    """``text`` with every character that would act on a terminal written as its code."""
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    return _UNSAFE.sub(
        lambda m: (
            f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}"
        ),
        text,
    )


class TerminalText:
    """A text stream whose writes are made :func:`terminal_safe`."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(terminal_safe(text))
        return len(text)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


class ReaderGoneStdout:
    """Standard output that outlives its reader: once a write finds the pipe closed, what is
    written is dropped (the command's exit status is its own)."""

    def __init__(self, stream):
        self._stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._reader_gone()
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._reader_gone()

    def _reader_gone(self) -> None:
        self.gone = True
        silence_stdout()  # what the buffer still holds now flushes to the null device

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def guard_standard_streams() -> None:
    """Wrap the process's standard output and error as this module describes (once)."""
    if sys.stdout is not None and not isinstance(sys.stdout, ReaderGoneStdout):
        shown = _isatty(sys.stdout)
        sys.stdout = ReaderGoneStdout(TerminalText(sys.stdout) if shown else sys.stdout)
    if sys.stderr is not None and not isinstance(sys.stderr, TerminalText):
        sys.stderr = TerminalText(sys.stderr)


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def silence_stdout() -> None:
    """Point standard output at the null device, so the interpreter's last flush of what could
    not be written does not print a second error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
