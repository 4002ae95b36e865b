"""The Z3 encodings of every ruleset's trick rule, by ruleset id."""

from __future__ import annotations

from tricklaw.proofs.encodings.hund import HundTrick
from tricklaw.proofs.encodings.lowhigh import LowHighTrick
from tricklaw.proofs.encodings.sticheln import StichelnTrick
from tricklaw.proofs.encodings.the_last import TheLastTrick
from tricklaw.proofs.tricks import TrickEncoding

ENCODINGS: dict[str, type[TrickEncoding]] = {
    "sticheln-1993": StichelnTrick,
    "sticheln": StichelnTrick,
    "the-last": TheLastTrick,
    "lowhigh": LowHighTrick,
    "hund": HundTrick,
}
"""Ruleset id -> its trick encoding."""
