"""Time the fast test tier (``pytest -m "not slow"``) and print one line a run.

Usage, from the repository root::

    python devtools/bench_tests.py                    # the fast tier, as the README runs it
    python devtools/bench_tests.py --baseline 920a32f # and that commit's, alternately
    python devtools/bench_tests.py -- -x              # anything after ``--`` goes to pytest

Each line gives the wall time, the CPU time of pytest and everything it started (its
xdist workers, the subprocesses the tests run), the outcome counts and the machine's
load when the run started: on a shared machine the wall time moves with the load, the
CPU time much less, so compare runs by both (issue 42's goal: under 60 s of wall time on
a quiet 2-core machine).

``--baseline REV`` runs the fast tier of that commit too, from a temporary worktree,
before this tree's and again after it when ``--rounds`` asks for more than one: the two
are measured in one sitting, on one machine's load. The baseline's tests import the
baseline's package (``PYTHONPATH`` names its worktree first), and the ``tricklaw``
commands they start are the installed script's, run by the same Python with that path.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

from baseline import baseline_tree

REPO = Path(__file__).resolve().parent.parent


def children_cpu() -> float:
    """User and system seconds of the finished children of this process."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def fast_tier(tree: Path, extra: list[str], label: str) -> int:
    """Run the fast tier of the tests in ``tree`` and print its line; pytest's status."""
    command = [sys.executable, "-m", "pytest", "-m", "not slow", *extra]
    env = {**os.environ, "PYTHONPATH": str(tree)} if tree != REPO else None
    load = os.getloadavg()[0]
    cpu, start = children_cpu(), time.perf_counter()
    proc = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu
    counts = re.findall(r"(\d+) (passed|failed|skipped|deselected|errors?)", proc.stdout)
    outcome = ", ".join(f"{n} {word}" for n, word in counts) or f"exit {proc.returncode}"
    print(
        f"{label}: {wall:.1f} s wall, {cpu:.1f} s CPU, {outcome}, "
        f"load {load:.2f} on {os.cpu_count()} cores at the start",
        flush=True,
    )
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-2000:])
    return proc.returncode


def main(argv: list[str]) -> int:
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    own = argv[: argv.index("--")] if "--" in argv else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="REV", help="also time this commit's fast tier")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each (alternating)")
    args = parser.parse_args(own)
    if not args.baseline:
        return max(fast_tier(REPO, extra, "fast tier") for _ in range(args.rounds))
    status = 0
    with baseline_tree(args.baseline, beside=True) as base:
        for _ in range(args.rounds):
            status |= fast_tier(base, extra, f"fast tier of {args.baseline}")
            status |= fast_tier(REPO, extra, "fast tier of this tree")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
