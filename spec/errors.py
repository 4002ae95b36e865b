"""The errors tricklaw reports for bad input (the bottom of the layers: spec, model, proofs
and the applications all raise them).

Every error the user can cause is a :class:`TricklawError` whose message is one
line naming the problem (the field, the card, the rule clause). The command
line prints that line and exits with status 2; it never shows a traceback.
"""

from __future__ import annotations


class TricklawError(Exception):
    """Bad input: the message names what is wrong."""


class CardError(TricklawError):
    """A card that is unknown, malformed, or not in the deck in use."""


class OptionError(TricklawError):
    """An unknown ruleset, option, option value, or an unsupported player count."""


class IllegalActionError(TricklawError):
    """An action that the rules do not allow in the current state.

    ``clause`` is the id of the rule clause that forbids it.
    """

    def __init__(self, message: str, clause: str) -> None:
        super().__init__(f"{message} [{clause}]")
        self.message = message
        self.clause = clause

    def __reduce__(self) -> tuple[type[IllegalActionError], tuple[str, str]]:
        """Picklable (verify's worker processes send it to the parent)."""
        return type(self), (self.message, self.clause)


class RecordError(TricklawError):
    """A game record that cannot be read, or does not match the format."""


class SpecError(TricklawError):
    """A clause registry in ``spec/`` that is malformed or inconsistent."""
