"""The report of ``tricklaw verify``: the full table and the score bounds table (``--table``;
the default is :mod:`tricklaw.verify.summary`), the JSON report and the exit status
(:func:`run_verify`)."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict
from typing import Any, TextIO

from tricklaw.proofs.bounds import not_varied
from tricklaw.proofs.results import Result, fails
from tricklaw.proofs.statuses import BAD as STATUS_BAD
from tricklaw.proofs.statuses import (
    FINDING,
    INFO,
    PASS,
    PROVED,
    STATUSES,
    UNKNOWN,
    legend,
)
from tricklaw.spec.outputs import write_output
from tricklaw.spec.proved_bounds import MAX, MIN, bound_cells
from tricklaw.verify.run import Scope, collect
from tricklaw.verify.summary import summary, summary_lines

BAD = STATUS_BAD
"""Statuses that make ``verify`` exit non-zero whatever the row: a failed check, a
counterexample, and ``unknown`` (a time-out is never counted as proved). A *vacuous* or
*trivial* row fails it too unless documented as expected
(:func:`~tricklaw.proofs.results.fails`)."""


def render(results: list[Result], out: TextIO) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=out, width=200 if not out.isatty() else None)
    table = Table(title="tricklaw verify", show_lines=False)
    for heading in ("obligation", "ruleset", "players", "reading", "status", "time", "clauses"):
        table.add_column(heading, overflow="fold")
    colours = {
        PROVED: "green",
        PASS: "green",
        INFO: "cyan",
        FINDING: "yellow",
        UNKNOWN: "magenta",
    }
    for r in results:
        colour = colours.get(r.status, "blue" if not fails(r) else "red")
        table.add_row(
            r.obligation,
            r.ruleset,
            r.players,
            r.reading,
            f"[{colour}]{r.status}[/{colour}]",
            f"{r.seconds:.3f}s",
            ", ".join(c for c in r.clauses if ":" not in c),
        )
    console.print(table)
    bounds_table = _bounds_table(results)
    if bounds_table is not None:
        console.print(bounds_table)
    for r in results:
        if r.status not in {PROVED, PASS}:
            shown = {k: v for k, v in r.witness.items() if k != "traceback"}  # JSON only
            witness = f" witness: {json.dumps(shown)}" if shown else ""
            expected = f" (expected: {r.expected})" if r.expected else ""
            console.print(
                f"{r.status}: {r.obligation} {r.ruleset} {r.players} [{r.reading}]: "
                f"{r.detail}{expected}{witness}",
                markup=False,
                highlight=False,
            )


def _bounds_table(results: list[Result]) -> Any:
    """The score bounds, one row per ruleset, player count and reading (None when there
    are none), with a caption naming the options no bound is varied over, and why."""
    from rich.table import Table

    rows = bound_cells(asdict(r) for r in results)
    if not rows:
        return None
    caption = "; ".join(
        f"{rid} {name}: {why}"
        for rid in dict.fromkeys(key[0] for key in rows)
        for name, why in not_varied(rid).items()
    )
    table = Table(
        title="round score of one player: proved bounds met by replayed witnesses",
        caption=f"not varied: {caption}" if caption else None,
    )
    for heading in ("ruleset", "players", "reading", "least", "greatest"):
        table.add_column(heading, overflow="fold")
    for (ruleset, players, reading), cells in rows.items():
        table.add_row(ruleset, players, reading, cells.get(MIN, ""), cells.get(MAX, ""))
    return table


def run_verify(scope: Scope, json_path: str | None, out: TextIO, *, table: bool = False) -> int:
    """Run :func:`collect`, print the 80-column :func:`~tricklaw.verify.summary.summary`
    (or, with ``table``, the status legend, every row and the score bounds), write the
    JSON report; the exit status."""
    from rich.progress import Progress

    start = time.perf_counter()
    if out.isatty():
        with Progress(transient=True) as bar:
            task = bar.add_task("verifying", total=None)
            results = collect(scope, lambda text: bar.update(task, description=text))
    else:  # piped into a file or a pager: one line per finished unit on standard error
        results = collect(scope, finished=lambda line: print(line, file=sys.stderr, flush=True))
    seconds = time.perf_counter() - start
    if table:
        out.write("statuses:\n" + legend() + "\n")
        render(results, out)
        out.write("".join(f"{line}\n" for line in summary_lines(results, seconds)))
    else:
        out.write(summary(results, seconds))
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    bad = sum(fails(r) for r in results)
    if json_path:
        report = {
            "format": "tricklaw-verify",
            "version": 1,
            "scope": {
                "ruleset": scope.ruleset,
                "players": scope.players,
                "options": dict(scope.options),
                "timeout_ms": scope.timeout_ms,
                "fail_fast": scope.fail_fast,
                "past_falls": scope.past_falls,
                "skip": list(scope.skip),
            },
            "seconds": round(seconds, 3),
            "counts": counts,
            "statuses": STATUSES,
            "failed": bad,
            "cached": sum(bool(r.cached_from) for r in results),
            "results": [asdict(r) | {"cached": bool(r.cached_from)} for r in results],
        }
        write_output(json_path, json.dumps(report, indent=1), "the report (--json)")
    return 1 if bad else 0
