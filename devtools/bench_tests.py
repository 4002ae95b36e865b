"""Time the fast test tier (``pytest -m "not slow"``) and print one line.

Usage, from the repository root::

    python devtools/bench_tests.py            # the fast tier, as the README runs it
    python devtools/bench_tests.py -- -x      # anything after ``--`` goes to pytest

The line gives the wall time, the CPU time of pytest and everything it started (its
xdist workers, the subprocesses the tests run), the outcome counts and the machine's
load when the run started: on a shared machine the wall time moves with the load, the
CPU time much less, so compare runs by both (issue 42's goal: under 60 s of wall time on
a quiet 2-core machine).
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import time


def children_cpu() -> float:
    """User and system seconds of the finished children of this process."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str]) -> int:
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    command = [sys.executable, "-m", "pytest", "-m", "not slow", *extra]
    load = os.getloadavg()[0]
    cpu, start = children_cpu(), time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu
    counts = re.findall(r"(\d+) (passed|failed|skipped|deselected|errors?)", proc.stdout)
    outcome = ", ".join(f"{n} {word}" for n, word in counts) or f"exit {proc.returncode}"
    print(
        f"fast tier: {wall:.1f} s wall, {cpu:.1f} s CPU, {outcome}, "
        f"load {load:.2f} on {os.cpu_count()} cores at the start"
    )
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-2000:])
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
