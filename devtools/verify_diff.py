"""Compare ``tricklaw verify --json`` reports: the rows, and the time of each row family.

A developer's tool (not part of the installed package): a change that only makes
verify faster must leave every row as it was. ``verify_diff.py rows A.json B.json``
compares two reports row by row, every field but ``seconds`` (the identity of a row is
its obligation, ruleset, players and reading; rows in the same order), and prints each
difference; it exits 1 when there is one. ``verify_diff.py time A.json [B.json ...]``
prints the seconds the rows of each family (the obligation's first word, ``equivalence``
rows by their whole name) add up to, one column per report, and the run's wall time.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

KEY = ("obligation", "ruleset", "players", "reading")
"""The fields that name a row."""


def load(path: str) -> dict[str, Any]:
    """The report at ``path``."""
    report: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    return report


def without_seconds(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` without its ``seconds`` field."""
    return {k: v for k, v in row.items() if k != "seconds"}


def row_differences(one: dict[str, Any], two: dict[str, Any]) -> list[str]:
    """Every difference between the rows of two reports (ignoring ``seconds``), as text."""
    out: list[str] = []
    rows_a = [without_seconds(r) for r in one["results"]]
    rows_b = [without_seconds(r) for r in two["results"]]
    if len(rows_a) != len(rows_b):
        out.append(f"row count: {len(rows_a)} != {len(rows_b)}")
    for i, (a, b) in enumerate(zip(rows_a, rows_b, strict=False)):
        if a == b:
            continue
        name = " / ".join(str(a.get(k)) for k in KEY)
        fields = sorted(k for k in {*a, *b} if a.get(k) != b.get(k))
        for field in fields:
            out.append(f"row {i} ({name}) {field}: {a.get(field)!r} != {b.get(field)!r}")
    for key in ("counts", "failed"):
        if one.get(key) != two.get(key):
            out.append(f"{key}: {one.get(key)!r} != {two.get(key)!r}")
    return out


def family(obligation: str) -> str:
    """A row's family: ``equivalence-trick`` and the like whole, else the first word."""
    first = obligation.split(" ", 1)[0]
    return first


def family_seconds(report: dict[str, Any]) -> dict[str, float]:
    """The seconds of each row family in ``report``."""
    out: dict[str, float] = {}
    for row in report["results"]:
        name = family(row["obligation"])
        out[name] = out.get(name, 0.0) + float(row["seconds"])
    return out


def time_table(paths: Sequence[str]) -> str:
    """The seconds of each row family, one column per report (largest family first)."""
    tables = [family_seconds(load(p)) for p in paths]
    names = sorted({n for t in tables for n in t}, key=lambda n: -tables[0].get(n, 0.0))
    width = max(len(n) for n in names) if names else 10
    lines = [f"{'family':<{width}} " + " ".join(f"{Path(p).stem:>12}" for p in paths)]
    for n in names:
        lines.append(f"{n:<{width}} " + " ".join(f"{t.get(n, 0.0):>12.2f}" for t in tables))
    totals = [sum(t.values()) for t in tables]
    lines.append(f"{'(all rows)':<{width}} " + " ".join(f"{s:>12.2f}" for s in totals))
    walls = [float(load(p).get("seconds", 0.0)) for p in paths]
    lines.append(f"{'(wall)':<{width}} " + " ".join(f"{s:>12.2f}" for s in walls))
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    """``rows A B`` or ``time A [B ...]``; see the module's docstring."""
    if len(argv) == 3 and argv[0] == "rows":
        found = row_differences(load(argv[1]), load(argv[2]))
        print("\n".join(found) if found else "the same rows (seconds aside)")
        return 1 if found else 0
    if len(argv) >= 2 and argv[0] == "time":
        print(time_table(argv[1:]))
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
