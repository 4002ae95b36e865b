"""The errors tricklaw reports for bad input, under their public name.

They are defined in :mod:`tricklaw.spec.errors`, at the bottom of the layers (spec, model
and proofs raise them); this module keeps the name ``tricklaw.errors`` for programs that
catch them.
"""

from tricklaw.spec.errors import (
    CardError,
    CheckFailedError,
    IllegalActionError,
    OptionError,
    RecordDivergesError,
    RecordError,
    SpecError,
    TricklawError,
)

__all__ = [
    "CardError",
    "CheckFailedError",
    "IllegalActionError",
    "OptionError",
    "RecordDivergesError",
    "RecordError",
    "SpecError",
    "TricklawError",
]
