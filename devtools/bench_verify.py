"""How long ``tricklaw verify`` makes a user wait: cold, again with nothing changed, and
after a one-line edit to one game's model, each against a baseline measured in the same
run (the machine is noisy: compare within a run, never across runs).

    python devtools/bench_verify.py                      # this tree
    python devtools/bench_verify.py --baseline ffca829   # and a cold run of that commit
    python devtools/bench_verify.py --game hund --jobs 2 --out bench.json

Every run is ``python -m tricklaw verify`` on a copy of the package's source (so an edit
touches no file of yours), with a cache folder of its own. It prints a table and one
JSON line (``--out FILE`` writes the line to FILE too):

* ``cold``: an empty cache (the run fills it);
* ``warm``: the same run again, nothing changed;
* ``edit``: after appending a comment line to ``model/rulesets/GAME.py``: which rulesets
  had rows computed again (only GAME's, and the edition diff if GAME has an edition);
* ``baseline``: with ``--baseline REV``, a cold run of that commit (its own tree, no
  cache), the figure to beat.
A developer's tool: it is not part of the package.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from baseline import baseline_tree

from tricklaw.spec.outputs import write_atomically

REPO = Path(__file__).resolve().parents[1]
SOURCE = ("tricklaw", "model", "proofs", "spec")
RUN = ("shuffle-vectors", "findings-register", "rule-coverage", "skipped", "fail-fast")
"""Rows of the run itself, computed every time from the others (never cached)."""


def copy_source(root: Path, into: Path) -> Path:
    """The package's source of ``root`` copied into ``into`` (its links kept)."""
    for folder in SOURCE:
        shutil.copytree(
            root / folder,
            into / folder,
            symlinks=True,
            ignore=shutil.ignore_patterns("__pycache__", "*.so"),
        )
    return into


def verify(tree: Path, cache: Path | None, jobs: int, report: Path) -> dict[str, Any]:
    """One ``tricklaw verify`` of the code in ``tree``: wall seconds, exit status, rows,
    rows from the cache, and the rulesets of the rows computed."""
    command = [sys.executable, "-m", "tricklaw", "verify", "--jobs", str(jobs)]
    command += ["--json", str(report)]
    command += ["--cache", str(cache)] if cache is not None else ["--no-cache"]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    proc = subprocess.run(
        command, cwd=report.parent, env=env, capture_output=True, text=True, check=False
    )
    seconds = time.perf_counter() - start
    if not report.exists():
        raise SystemExit(f"verify wrote no report (exit {proc.returncode}): {proc.stderr[-500:]}")
    data = json.loads(report.read_text(encoding="utf-8"))
    computed = [r for r in data["results"] if not r.get("cached") and r["obligation"] not in RUN]
    return {
        "seconds": round(seconds, 1),
        "exit": proc.returncode,
        "rows": len(data["results"]),
        "cached": data.get("cached", 0),
        "computed_rulesets": sorted({r["ruleset"] for r in computed if r["ruleset"]}),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", metavar="REV", help="also a cold run of this commit")
    parser.add_argument("--game", default="lowhigh", help="the game whose model is edited")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", metavar="FILE", help="write the JSON line here too")
    args = parser.parse_args()
    figures: dict[str, Any] = {"jobs": args.jobs, "game": args.game}
    with tempfile.TemporaryDirectory(prefix="bench-verify-") as temporary:
        work = Path(temporary)
        if args.baseline:
            with baseline_tree(args.baseline) as base:
                figures["baseline"] = verify(base, None, args.jobs, work / "baseline.json")
        tree = copy_source(REPO, work / "tree")
        cache = work / "cache"
        figures["cold"] = verify(tree, cache, args.jobs, work / "cold.json")
        figures["warm"] = verify(tree, cache, args.jobs, work / "warm.json")
        model = tree / "model" / "rulesets" / f"{args.game}.py"
        if not model.exists():
            model = tree / "model" / "rulesets" / args.game.replace("-", "_") / "__init__.py"
        model.write_text(model.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
        figures["edit"] = verify(tree, cache, args.jobs, work / "edit.json")
    for name in ("baseline", "cold", "warm", "edit"):
        if name in figures:
            f = figures[name]
            print(
                f"{name:9} {f['seconds']:7.1f} s  exit {f['exit']}  {f['rows']} rows, "
                f"{f['cached']} from the cache; computed: {', '.join(f['computed_rulesets'])}"
            )
    line = json.dumps(figures)
    print(line)
    if args.out:
        write_atomically(args.out, line + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
