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


class CheckFailedError(TricklawError):
    """Input that reads, but a check on it fails (it disagrees with the rules): the command
    line prints its one line, ``tricklaw: failed: ...``, and exits 1, not 2."""


class RecordDivergesError(RecordError, CheckFailedError):
    """A game record that reads, but whose results or actions disagree with the rules."""


class SpecError(TricklawError):
    """A clause registry in ``spec/`` that is malformed or inconsistent."""


MESSAGE_LIMIT = 400
"""The longest error line tricklaw prints, in characters: a message that quotes a huge
input (a 50 MB record, a card of thousands of digits) is cut in the middle."""


def clip(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """``message`` on one line and at most ``limit`` characters: a longer one keeps its
    head and tail (the field it names is at one end or the other) and says how much of
    the middle it leaves out. Every error line the command line prints passes here."""
    text = " ".join(message.split()) if "\n" in message or "\r" in message else message
    if len(text) <= limit:
        return text
    cut = len(text) - limit + 40
    head = (limit - 40) * 2 // 3
    tail = len(text) - head - cut
    return f"{text[:head]} ...[{cut:,} characters left out]... {text[len(text) - tail :]}"
