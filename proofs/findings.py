"""Which machine found which dispute: the register's ``found_by`` against verify's findings.

Every *finding* verify reports names the detector that made it (``Result.machine``: an
unsat core, an overlap, a gap, a tie, an edition diff, liveness, example legality or
model-encoding equivalence) and the dispute it is (``Result.dispute``). Each dispute of a
registry declares the detectors that find it (``found_by`` in ``spec/<ruleset>.toml``); a
dispute that declares none was written by hand.

:func:`register_check` holds the two to each other, so that the register cannot claim a
machine found what it did not, nor hide what a machine found:

* a finding with no detector, or naming no dispute of the registry, fails;
* a finding whose dispute does not list its detector fails;
* on a complete run (every player count and reading), a dispute listing a detector that
  made no finding of it fails.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from tricklaw.proofs.results import Result
from tricklaw.proofs.solver import FINDING
from tricklaw.spec import load_registry


def found(results: Iterable[Result], ruleset_id: str) -> dict[str, set[str]]:
    """The detectors behind the findings of ``ruleset_id`` in ``results``, by dispute id
    (a result may name several disputes, comma-separated)."""
    out: dict[str, set[str]] = {}
    for r in results:
        if r.ruleset == ruleset_id and r.status == FINDING:
            for dispute in filter(None, r.dispute.split(",")):
                out.setdefault(dispute, set()).add(r.machine)
    return out


def register_check(ruleset_id: str, results: list[Result], complete: bool) -> Result:
    """``findings-register``: every finding is a recorded dispute whose ``found_by`` names
    its detector, and (on a ``complete`` run) every declared detector made a finding."""
    start = time.perf_counter()
    registry = load_registry(ruleset_id)
    declared = {d.id: set(d.found_by) for d in registry.disputes}
    problems = []
    for r in results:
        if r.ruleset == ruleset_id and r.status == FINDING and not (r.machine and r.dispute):
            problems.append(f"{r.obligation} [{r.reading}]: a finding without detector or dispute")
    made = found(results, ruleset_id)
    for dispute, machines in sorted(made.items()):
        if dispute not in declared:
            problems.append(f"a finding names {dispute}, which is not a dispute of the register")
            continue
        for machine in sorted(machines - declared[dispute]):
            problems.append(f"{dispute}: found by {machine}, but its found_by does not say so")
    if complete:
        for dispute, machines in sorted(declared.items()):
            for machine in sorted(machines - made.get(dispute, set())):
                problems.append(f"{dispute}: found_by names {machine}, which found nothing")
    by_machine = sum(1 for d in registry.disputes if d.found_by)
    detail = "; ".join(problems) or (
        f"{by_machine} of {len(registry.disputes)} disputes found by machine, "
        f"{len(registry.disputes) - by_machine} written by hand"
    )
    return Result(
        "findings-register",
        ruleset_id,
        "all",
        "all",
        "fail" if problems else "pass",
        time.perf_counter() - start,
        (),
        detail,
    )
