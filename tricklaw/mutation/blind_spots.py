"""The statements of the model's rule functions that ``tricklaw verify`` never runs.

verify can only catch a bug in code it runs: a statement of a rule function that the
unmutated verify never executes is a blind spot, and any bug planted there survives
verify (the run is deterministic, so a mutated run is the unmutated one up to the first
time it reaches the changed statement, which it never does). This finds them for every
mutant there could be, not only those of a mutant set: verify is run on each ruleset
under coverage.py in one process (a child started with ``--verify-in-process``, which
runs verify with no worker pool: a pool's workers are not measured, and the command
line asks for one worker at least), and the statements of the rule functions
(:func:`~tricklaw.mutation.mutants.rule_functions`, in the ruleset's files and the
shared ones) that no run executed are listed, shared files counted over every ruleset
run.

Some are expected: the error a wrong player count raises (no legal input reaches it),
the loop that plays automatic seats in a game that has none. Each is listed with its
code, so a reader can tell those from a rule verify never asks.

Run as ``python -m tricklaw.mutation.blind_spots [RULESET...]`` (every ruleset when
none is named; a few minutes each, as verify under coverage.py).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from tricklaw.mutation.mutants import repo_root, rule_files, rule_functions
from tricklaw.mutation.reach import ran_lines, statements, under_coverage


def rule_statements(root: Path, path: str) -> set[int]:
    """The statements (first lines) of the rule functions of the repository file
    ``path``."""
    source = (root / path).read_text(encoding="utf-8")
    lines: set[int] = set()
    for _, fn in rule_functions(ast.parse(source)):
        lines.update(range(fn.body[0].lineno, (fn.end_lineno or fn.lineno) + 1))
        for node in ast.walk(fn):  # a docstring is no statement coverage.py runs
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and ast.get_docstring(node):
                doc = node.body[0]
                lines -= set(range(doc.lineno, (doc.end_lineno or doc.lineno) + 1))
    return statements(source, lines)


def measure(root: Path, ruleset: str, data: Path) -> str | None:
    """Run verify on ``ruleset`` under coverage.py, writing its measure to ``data``;
    None, or why verify did not pass."""
    command = [sys.executable, *under_coverage(data, root), "tricklaw.mutation.blind_spots"]
    command += [IN_PROCESS, ruleset]
    paths = [str(root), os.environ.get("PYTHONPATH", "")]  # the tree's sources first
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    proc = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        return (proc.stderr.strip().splitlines() or ["verify failed"])[-1][-300:]
    return None


IN_PROCESS = "--verify-in-process"
"""The child's flag: run verify on one ruleset in this process (what :func:`measure`
measures)."""


def verify_here(ruleset: str) -> int:
    """verify on ``ruleset`` in this process (``Scope.jobs`` 0; the command line asks
    for one worker at least): 0 when no row fails, else 1, naming the first."""
    from tricklaw.plugins import load_plugins
    from tricklaw.proofs.results import fails
    from tricklaw.verify.run import Scope, collect

    load_plugins()
    failing = [r for r in collect(Scope(ruleset, jobs=0)) if fails(r)]
    if failing:
        print(f"{failing[0].obligation}: {failing[0].status}", file=sys.stderr)
    return 1 if failing else 0


def blind_spots(
    root: Path,
    files: Mapping[str, Sequence[str]],
    rulesets: Sequence[str],
    ran: Mapping[str, frozenset[int]],
) -> list[tuple[str, int]]:
    """The rule-function statements (path, first line) of the ``files`` (path -> the
    rulesets whose rules it holds: :func:`~tricklaw.mutation.mutants.rule_files`) of
    ``rulesets`` that ``ran`` does not hold; a file shared by rulesets only when all of
    them ran."""
    out = []
    for path, owners in sorted(files.items()):
        if not set(owners) <= set(rulesets):
            continue
        out += [(path, line) for line in sorted(rule_statements(root, path) - ran.get(path, set()))]
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m tricklaw.mutation.blind_spots [RULESET...]``: print each blind spot."""
    import argparse

    from tricklaw.model.rulesets import RULESETS

    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == [IN_PROCESS]:
        return verify_here(argv[1])
    p = argparse.ArgumentParser(
        prog="python -m tricklaw.mutation.blind_spots",
        description="List the statements of the model's rule functions verify never runs.",
    )
    p.add_argument("rulesets", nargs="*", metavar="RULESET", help="default: every ruleset")
    args = p.parse_args(argv)
    unknown = [r for r in args.rulesets if r not in RULESETS]
    if unknown:
        p.error(f"unknown ruleset {unknown[0]!r} (rulesets: {', '.join(RULESETS)})")
    chosen = args.rulesets or list(RULESETS)
    root = repo_root()
    ran: dict[str, frozenset[int]] = {}
    with tempfile.TemporaryDirectory(prefix="tricklaw-reach-") as tmp:
        for rid in chosen:
            data = Path(tmp) / f"{rid}.coverage"
            problem = measure(root, rid, data)
            if problem is not None:
                p.exit(1, f"{p.prog}: error: verify {rid} did not pass: {problem}\n")
            for path, lines in ran_lines(data, root).items():
                ran[path] = ran.get(path, frozenset()) | lines
    spots = blind_spots(root, rule_files(root), chosen, ran)
    for path, line in spots:
        code = (root / path).read_text(encoding="utf-8").splitlines()[line - 1].strip()
        print(f"{path}:{line}\t{code}")
    print(f"{len(spots)} statements of rule functions verify never runs ({', '.join(chosen)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
