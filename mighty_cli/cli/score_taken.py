"""``--taken`` and ``--friend`` as ``mighty score``, ``mighty record`` and ``hand amend`` read
them from the command line: a count or a split (``10+8+2``, read and weighed by
:mod:`mighty_cli.table.taken`), and one friend or two."""

from __future__ import annotations

import click

from ..engine.errors import MightyError
from ..i18n import _
from ..table.taken import Taken, parse_taken


class TakenType(click.ParamType):
    """``--taken``: a count, or the declarer's and each friend's cards (``10+8+2``)."""

    name = "N|D+F[+F]"

    def convert(self, value, param, ctx):
        if isinstance(value, Taken):
            return value
        try:
            return parse_taken(value)
        except MightyError as exc:
            self.fail(str(exc), param, ctx)


def friends_given(values: tuple[str, ...]) -> list[str]:
    """``--friend`` given once, or twice (where two cards are called: friend.called_cards =
    2, 동대전 7마, which the league's ruleset says: :func:`~mighty_cli.table.score_entry.\
check_outcome`); a usage error for more."""
    if len(values) > 2:
        raise click.UsageError(
            _(
                "--friend: give one friend, or two where the ruleset calls two "
                "cards (friend.called_cards = 2)"
            )
        )
    return list(values)
