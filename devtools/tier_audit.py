"""Which fast-tier tests are too slow for the inner loop: read a ``--durations`` log.

Usage, from the repository root::

    python -m pytest -m "not slow" --durations=0 --durations-min=0 > fast.log
    python devtools/tier_audit.py fast.log                  # list what is over budget
    python devtools/tier_audit.py fast.log --mark           # and mark it slow in place

The fast tier (``pytest -m "not slow"``) is the loop a developer runs after every edit;
issue 42 asks for it to end within a minute on the 2-core VM. The rule this script
applies: a test function whose tests take :data:`BUDGET` seconds or more each on average
(setup, call and teardown together, as pytest reports them) belongs to the slow tier,
which CI runs whole. A parametrized function whose tests are each cheap but many (a
total of :data:`FAMILY` seconds or more) is listed too but never marked: keep a few of
its cases fast by hand (``pytest.param(..., marks=pytest.mark.slow)`` on the rest), so
that the fast tier still reaches the code it tests.

``--mark`` puts ``@pytest.mark.slow`` above each listed function's decorators (found
with :mod:`ast`, so a method of a test class is found too). Run the tier again after
marking: a session fixture's cost is charged to the first test that uses it, and moves
to the next one when that test is marked. ``--durations-min=0`` lists every test, however
short: without it a function's cheap tests are left out of its count, and its average
looks higher than it is.

A developer's tool: it is not part of the package.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BUDGET = 0.25
"""Seconds per test, on average over a function's tests, at which the function is slow."""

FAMILY = 3.0
"""Seconds over all of a function's tests at which a cheap-per-test family is listed."""

LINE = re.compile(r"^(\d+(?:\.\d+)?)s (setup|call|teardown)\s+(.+?)\s*$")


def function_of(nodeid: str) -> str:
    """A test's function: the node id without its parameters or ``@group`` suffix."""
    return re.sub(r"@[\w-]+$", "", re.sub(r"\[.*", "", nodeid))


def read_durations(log: str) -> tuple[dict[str, float], Counter[str]]:
    """Seconds per test function, and its number of tests, from a ``--durations`` log."""
    seconds: dict[str, float] = defaultdict(float)
    tests: Counter[str] = Counter()
    for line in log.splitlines():
        found = LINE.match(line)
        if not found:
            continue
        duration, phase, nodeid = found.groups()
        seconds[function_of(nodeid)] += float(duration)
        if phase == "call":
            tests[function_of(nodeid)] += 1
    return seconds, tests


def decorator_line(path: Path, function: str) -> tuple[int, str] | None:
    """The line (1-based) where ``function`` (``name`` or ``Class::name``) starts,
    decorators included, and its indentation; None when it is not found."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    *owners, name = function.split("::")
    body: list[ast.stmt] = tree.body
    for owner in owners:
        found = [n for n in body if isinstance(n, ast.ClassDef) and n.name == owner]
        if not found:
            return None
        body = found[0].body
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            return first, " " * node.col_offset
    return None


def mark_slow(nodeid: str) -> bool:
    """Put ``@pytest.mark.slow`` above the function ``nodeid`` names; whether it could."""
    file, _, function = nodeid.partition("::")
    path = ROOT / file
    found = decorator_line(path, function)
    if found is None:
        return False
    line, indent = found
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(line - 1, f"{indent}@pytest.mark.slow\n")
    path.write_text("".join(lines), encoding="utf-8")
    return True


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path, help="the output of pytest --durations=0")
    parser.add_argument("--budget", type=float, default=BUDGET, help="seconds per test")
    parser.add_argument("--mark", action="store_true", help="mark the slow functions in place")
    args = parser.parse_args(argv)
    seconds, tests = read_durations(args.log.read_text(encoding="utf-8"))
    total = sum(seconds.values())
    slow = {f for f in seconds if seconds[f] / max(tests[f], 1) >= args.budget}
    families = {f for f in seconds if f not in slow and seconds[f] >= FAMILY}
    for function in sorted(slow | families, key=lambda f: -seconds[f]):
        kind = "slow" if function in slow else "family"
        print(f"{seconds[function]:7.1f} s {tests[function]:4d} tests  {kind:6}  {function}")
    kept = total - sum(seconds[f] for f in slow)
    print(
        f"{len(slow)} functions ({sum(tests[f] for f in slow)} tests) over {args.budget} s a "
        f"test; the fast tier's tests took {total:.1f} s, {kept:.1f} s without them"
    )
    if args.mark:
        missed = [f for f in sorted(slow) if not mark_slow(f)]
        for function in missed:
            print(f"not found, mark it by hand: {function}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
