"""The statuses of verify's rows, and what each means (no Z3 here: the command line's
``verify --help`` shows them without loading the solver).

A row is ``proved`` only when it is a theorem about the rules: the solver answered
``unsat``, the premises are satisfiable and the claim is not true on its own
(:func:`~tricklaw.proofs.solver.classify`). Statuses in :data:`BAD` always fail verify;
those in :data:`HOLLOW` fail it unless the row is documented as expected (a reason in
the ruleset's encoding, :attr:`~tricklaw.proofs.tricks.TrickEncoding.hollow`).
"""

from __future__ import annotations

import textwrap

PROVED = "proved"
"""A theorem about the rules (see the module's docstring)."""
COUNTEREXAMPLE = "counterexample"
"""The claim fails, with a witness."""
UNKNOWN = "unknown"
"""A solver time-out or unknown: never counted as proved."""
FINDING = "finding"
"""A counterexample the project expects: a recorded dispute, reported with its witness."""
VACUOUS = "vacuous"
"""Unsat, but the premises alone are unsatisfiable: the claim holds of nothing."""
TRIVIAL = "trivial"
"""Unsat, but the claim alone is unsatisfiable: true by construction, whatever the clauses
say (or, for a check with nothing to compare, nothing was asked of the solver)."""
INFO = "info"
"""An informational answer (such as whether a tie is possible): neither a proof nor a
failure, reported with its witness when the answer is yes."""
PASS = "pass"
"""A check that is not a proof found nothing wrong."""
FAIL = "fail"
"""A check that is not a proof failed."""

STATUSES: dict[str, str] = {
    PROVED: "a theorem: Z3 answered unsat, the premises are satisfiable (checked) and the "
    "claim is not true on its own",
    PASS: "a check that is not a proof (a sample, a replay, a comparison) found nothing wrong",
    FINDING: "a counterexample that is a recorded dispute: its machine and dispute are named, "
    "with the witness",
    INFO: "an informational answer (whether a tie is possible): neither proved nor failed",
    VACUOUS: "the premises are unsatisfiable, so the claim holds of nothing; fails unless "
    "the row is documented as expected (the reason is shown)",
    TRIVIAL: "the claim is true by construction, whatever the clauses say (or there is "
    "nothing to compare); fails unless documented as expected (the reason is shown)",
    UNKNOWN: "the solver timed out or answered unknown: never counted as proved",
    COUNTEREXAMPLE: "the claim fails: a witness shows where (a trick, a state, a round)",
    FAIL: "a check that is not a proof failed",
}
"""Every status a verify row can have, with its meaning, from the best to the worst
(``tricklaw verify --help``, the report header and the docs show this)."""

HOLLOW = frozenset({VACUOUS, TRIVIAL})
"""The statuses of an ``unsat`` that proves nothing about the rules."""

BAD = frozenset({FAIL, COUNTEREXAMPLE, UNKNOWN})
"""Statuses that always fail verify."""
ORDER = (PROVED, PASS, INFO, FINDING, TRIVIAL, VACUOUS, UNKNOWN, COUNTEREXAMPLE, FAIL)
"""The statuses from the least to the most serious."""


def legend() -> str:
    """Every status and its meaning, one line each (for ``--help`` and the report)."""
    lines = [
        textwrap.fill(
            STATUSES[name], width=88, initial_indent=f"  {name:<15} ", subsequent_indent=" " * 18
        )
        for name in ORDER
    ]
    return "\n".join(lines)
