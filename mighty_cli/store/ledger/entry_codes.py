"""A table's entry code: the few digits a phone at the table types (or scans from the table's
slip) to write there through ``mighty serve``.

Every table gets one when it opens: each table of a round at ``round start`` and ``round
reseat``, a lone ``session start``; a round's table keeps its code across the seatings
``round seat`` gives it (the phones at the table go on). The code is stored with the table's
session (:attr:`..models.LeagueSession.entry_code`), shown to those who run the night (``round
show``, the slips, the director's page) and never on a page anyone may read. Five digits: quick
to type on a phone's keypad, and with the server slowing wrong codes down per client (one
attempt in 100,000; :mod:`mighty_cli.web.guard`), not worth guessing.
"""

from __future__ import annotations

import re
import secrets

from ...engine.translation import _

#: How many digits a code has.
CODE_DIGITS = 5
_CODE = re.compile(rf"[0-9]{{{CODE_DIGITS}}}")


def new_entry_code() -> str:
    """A fresh code, from the operating system's randomness (never a seed)."""
    return f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"


def entry_code_problem(value: str) -> str | None:
    """What is wrong with a stored code (a restore lets in only what a command makes), or
    None."""
    if not isinstance(value, str) or not _CODE.fullmatch(value):
        return _("{value!r} is not an entry code ({digits} digits)").format(
            value=str(value)[:20], digits=CODE_DIGITS
        )
    return None
