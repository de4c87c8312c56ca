"""The command lines a message gives to go on (``'mighty referee --league cup --table 2'
resumes it``): whatever the command needs to find the same table again, so the line can be
typed as shown. A round's table by ``--table``, a session chosen by number by ``--session``, a
database named on the command line (not by ``MIGHTY_DB``) by ``--db``, its password masked."""

from __future__ import annotations

import os
import shlex

#: Characters a shell reads as more than a word's letters.
_SHELL = set(" \t\n'\"\\$`!*?[]{}()<>|&;#~")


def shell_word(text: str) -> str:
    """``text`` as one shell word: as it is where nothing in it needs quoting (Korean names
    stay readable), else in double quotes (the messages quote a whole command in single
    ones), or as the shell's own quoting writes it."""
    if text and not _SHELL & set(text):
        return text
    if not set('"$`\\!') & set(text):
        return f'"{text}"'
    return shlex.quote(text)


def command_line(
    words: list[str],
    league: str,
    *,
    table: int | None = None,
    session: int | None = None,
    db: str | None = None,
) -> str:
    """``mighty WORDS --league L`` with what finds the same table: ``--table T`` (a round's
    table), else ``--session N`` (a session chosen by number), and ``--db URL`` when the
    database was named on the command line rather than by ``MIGHTY_DB``."""
    parts = ["mighty", *words, "--league", league]
    if table is not None:
        parts += ["--table", str(table)]
    elif session is not None:
        parts += ["--session", str(session)]
    if db and db != os.environ.get("MIGHTY_DB"):
        from ..store import masked_url  # the store's package only: no SQLAlchemy

        parts += ["--db", masked_url(db)]
    return " ".join(shell_word(part) for part in parts)
