"""One error type per kind of failure, all under :class:`MightyError`.

Every message names the input that was wrong and the rule it broke, so the CLI can print it as
one line and exit 1.
"""


class MightyError(ValueError):
    """Base class of every error the project raises for bad input or a broken rule."""


class InvalidNotation(MightyError):
    """A card, card list or bid that cannot be parsed."""


class RulesetError(MightyError):
    """A ruleset file that is missing, malformed or inconsistent."""


class ScoringError(MightyError):
    """An outcome that the ruleset cannot score (bid out of range, impossible points...)."""


class IllegalAction(MightyError):
    """An action that breaks a rule of the hand (base of the per-phase errors)."""


class IllegalBid(IllegalAction):
    """A bid or pass that breaks the election rules."""


class IllegalDealMiss(IllegalAction):
    """A deal-miss declaration the ruleset does not allow for that hand."""


class IllegalExchange(IllegalAction):
    """A discard, trump change or friend call that breaks the rules."""


class IllegalPlay(IllegalAction):
    """A card play that breaks the rules of the trick."""

    #: A revoke caught in open-cards mode: the trick whose play showed the void (else None).
    proving_trick: int | None = None


class RecordError(MightyError):
    """A hand-record file that cannot be read or does not describe a valid hand."""
