"""A correction as the pages' forms send it: a hand's outcome told again (declarer, contract,
friend, points taken, or a deal miss), read into what :func:`mighty_cli.store.ledger.corrections.
amend_hand` takes; only what differs from the hand as stored is changed.

The form is filled with the hand as stored, so a person changes one field and sends it. Names
are chosen from the hand's players; the contract is read as the keepers type it (``15D``,
``스페이드 15``: :func:`mighty_cli.table.words.contract_text`); the store checks the rest as
it checks ``hand amend``.
"""

from __future__ import annotations

from typing import Any

from ..engine.errors import MightyError
from ..engine.translation import _
from ..store.ledger.hand_reads import HandView
from ..table.words import contract_text, friend_value
from .forms import RequestError, number, text

#: The "no friend" value of the friend field.
NO_FRIEND = "none"


def amendment(fields: dict[str, str], hand: HandView) -> dict[str, Any]:
    """What the form changes of ``hand``, as ``amend_hand``'s keywords (an empty field keeps
    what the hand holds); one line when it changes nothing."""
    deal_miss = text(fields, "deal_miss", _("deal miss"))
    if deal_miss:
        if hand.status == "deal_miss" and deal_miss == hand.deal_miss:
            raise RequestError(400, _("nothing to change: the form says what the hand holds"))
        return {"deal_miss": deal_miss}
    contract = text(fields, "contract", _("contract"), longest=40)
    try:
        contract = contract_text(contract)
    except MightyError as exc:
        raise RequestError(400, _("contract: {problem}").format(problem=exc)) from None
    given = {
        "declarer": text(fields, "declarer", _("declarer")),
        "contract": contract,
        "friend": friend_value(text(fields, "friend", _("friend"))),
        "taken": number(fields, "taken", _("taken"), low=0, high=1000),
    }
    given = {key: value for key, value in given.items() if value is not None}
    if hand.status == "scored":
        stored = {
            "declarer": hand.declarer,
            "contract": hand.contract,
            "friend": hand.friend or NO_FRIEND,
            "taken": hand.taken,
        }
        given = {key: value for key, value in given.items() if value != stored[key]}
    if not given:
        raise RequestError(400, _("nothing to change: the form says what the hand holds"))
    return given
