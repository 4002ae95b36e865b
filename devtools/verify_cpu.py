"""Run every verify step in this one process, each row's seconds being CPU seconds.

A developer's tool (not part of the installed package), for comparing what verify costs
in two trees on a machine whose load varies: ``PYTHONPATH=TREE python
devtools/verify_cpu.py OUT.json [RULESET [PLAYERS]]`` runs :func:`tricklaw.verify.run.
collect` with no worker processes (``Scope(jobs=0)``) after replacing
``time.perf_counter`` by ``time.process_time``, so that the ``seconds`` verify measures
for each row are this process's CPU time, which other processes on the machine barely
change (wall time under a shared machine's load varies by half). It writes the rows as
``verify --json`` does (``results``, and the run's CPU ``seconds``), for
``devtools/verify_diff.py``.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict


def main(argv: list[str]) -> int:
    """``OUT.json [RULESET [PLAYERS]]``; see the module's docstring."""
    if not 1 <= len(argv) <= 3:
        print(__doc__)
        return 2
    time.perf_counter = time.process_time  # before tricklaw reads the clock
    from tricklaw.verify.run import Scope, collect

    ruleset = argv[1] if len(argv) > 1 else None
    players = int(argv[2]) if len(argv) > 2 else None
    start = time.process_time()
    results = collect(Scope(ruleset=ruleset, players=players, jobs=0))
    report = {
        "format": "tricklaw-verify-cpu",
        "seconds": round(time.process_time() - start, 3),
        "results": [asdict(r) for r in results],
    }
    with open(argv[0], "w", encoding="utf-8") as fh:
        json.dump(report, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
