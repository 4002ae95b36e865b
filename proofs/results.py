"""One row of ``tricklaw verify``: :class:`Result`, and what its status means for the run
(:func:`fails`, :func:`worst`). Apart from the obligations that make rows, so that code
which only reads or keeps rows (the report, the result cache) imports no solver."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tricklaw.proofs.statuses import BAD, HOLLOW, ORDER

STATUS_ORDER = ORDER
"""The statuses from the least to the most serious (see
:data:`~tricklaw.proofs.statuses.STATUSES`)."""


@dataclass
class Result:
    """One obligation or check, as the verify table and JSON report show it."""

    obligation: str
    ruleset: str
    players: str
    reading: str
    status: str
    seconds: float
    clauses: tuple[str, ...] = ()
    detail: str = ""
    witness: dict[str, Any] = field(default_factory=dict)
    machine: str = ""
    """For a *finding*: the detector that found it (one of :data:`~tricklaw.spec.DETECTORS`)."""
    dispute: str = ""
    """For a *finding*: the id of the recorded dispute it is."""
    expected: str = ""
    """For a *vacuous* or *trivial* row: why that is expected (the documentation in the
    ruleset's encoding, :attr:`~tricklaw.proofs.tricks.TrickEncoding.hollow`); such a
    row without it fails verify."""
    cached_from: str = ""
    """The run this row was computed in, when ``verify`` took it from its result cache
    (:mod:`tricklaw.verify.cache`); empty when it was computed in this run."""


def fails(result: Result) -> bool:
    """Whether ``result`` fails verify: a failed check, a counterexample, an unknown,
    or a vacuous or trivial row not documented as expected."""
    return result.status in BAD or (result.status in HOLLOW and not result.expected)


def worst(statuses: list[str]) -> str:
    """The most serious of ``statuses``."""
    return max(statuses, key=STATUS_ORDER.index)
