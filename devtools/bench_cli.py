"""Time the command line's start against a baseline commit, measured in the same run.

Usage, from the repository root, with tricklaw installed (editable or not)::

    python devtools/bench_cli.py            # against HEAD~1
    python devtools/bench_cli.py 4808e2f    # against any commit

The baseline is checked out into a temporary git worktree and put first on
``PYTHONPATH``; each command runs alternately from the baseline and from this checkout,
``RUNS`` times each, from a neutral folder (the current folder would come first on
``sys.path``). It prints each command's median wall time and the modules it loaded, for
both: on a shared machine the load moves both alike.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from baseline import baseline_tree

ROOT = Path(__file__).resolve().parent.parent
RUNS = 9
COMMANDS = (["trick", "lowhigh", "-n", "4", "R1", "B2", "Y3", "G4"], ["--help"])
COUNT = (
    "import sys, io, contextlib\nfrom tricklaw.cli import main\n"
    "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
    "    main(sys.argv[1:])\nprint(len(sys.modules))"
)


def _run(source: Path, command: list[str], folder: str) -> subprocess.CompletedProcess[str]:
    """``command`` (after the interpreter) with ``source`` first on the import path."""
    env = {"PYTHONPATH": str(source), "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, *command], env=env, cwd=folder, capture_output=True, text=True, check=False
    )


def timed(source: Path, args: list[str], folder: str) -> float:
    start = time.perf_counter()
    _run(source, ["-m", "tricklaw", *args], folder)
    return time.perf_counter() - start


def modules(source: Path, args: list[str], folder: str) -> int:
    return int(_run(source, ["-c", COUNT, *args], folder).stdout.split()[-1])


def main(argv: list[str]) -> int:
    baseline = argv[0] if argv else "HEAD~1"
    with baseline_tree(baseline) as old:
        folder = str(old.parent)  # a neutral folder: not this checkout
        for args in COMMANDS:
            times: dict[str, list[float]] = {"baseline": [], "this": []}
            for _ in range(RUNS):
                times["baseline"].append(timed(old, args, folder))
                times["this"].append(timed(ROOT, args, folder))
            for who, source in (("baseline", old), ("this", ROOT)):
                print(
                    f"tricklaw {' '.join(args)} [{who}]: median "
                    f"{statistics.median(times[who]):.3f} s, "
                    f"{modules(source, args, folder)} modules"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
