"""Time the docs build against a baseline commit, measured in the same run.

Usage, from the repository root, with the docs' packages installed (the test or the
``docs`` extra)::

    python devtools/bench_docs.py                 # against HEAD~1, one build each
    python devtools/bench_docs.py aa525a9 --runs 2

The baseline is checked out into a temporary git worktree beside this checkout (so that
``../shared``, the seed texts, is found from both); each build is the README's command,
``python -m sphinx -q -W -n -b html docs OUT``, run in its own tree (``docs/conf.py`` puts
that tree's sources first on the import path), into a fresh output folder. The builds
alternate, baseline first, and each prints its wall time and the CPU time of the build
and everything it started: on a shared machine the wall time moves with the load, the
CPU time much less. A failed build prints its last lines and ends the script with 1.

A developer's tool: it is not part of the package.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from baseline import baseline_tree

ROOT = Path(__file__).resolve().parent.parent


def build(tree: Path, out: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one docs build of ``tree`` into ``out``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-W", "-n", "-b", "html", "docs", str(out)],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-2000:])
        raise SystemExit(f"bench_docs: the build of {tree} failed")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", nargs="?", default="HEAD~1", help="the commit to compare")
    parser.add_argument("--runs", type=int, default=1, help="builds of each tree (default 1)")
    args = parser.parse_args(argv)
    with baseline_tree(args.baseline, beside=True) as old:
        seen: dict[str, list[tuple[float, float]]] = {"baseline": [], "this": []}
        for run in range(args.runs):
            for who, tree in (("baseline", old), ("this", ROOT)):
                wall, cpu = build(tree, old.parent / f"html-{who}-{run}")
                seen[who].append((wall, cpu))
                print(f"docs build [{who}] run {run + 1}: {wall:.1f} s wall, {cpu:.1f} s CPU")
        for who, times in seen.items():
            wall = statistics.median(t[0] for t in times)
            cpu = statistics.median(t[1] for t in times)
            print(f"docs build [{who}]: median {wall:.1f} s wall, {cpu:.1f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
