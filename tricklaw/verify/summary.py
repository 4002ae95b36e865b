"""The 80-column summary that ``tricklaw verify`` prints by default (the full table is
``--table``, and every row is in the JSON report).

It is written for a person at a terminal: the counts of each status by ruleset and by
kind of obligation, then every failure in full, then every finding (a recorded dispute)
with its witness, grouped where the same dispute is found again at other player counts
or readings, then the status legend and the closing line. Text is wrapped at
:data:`WIDTH` columns between words only, so a clause id such as ``STI93-EX-TRICK-1`` is
never broken.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence

from tricklaw.proofs.results import Result, fails
from tricklaw.proofs.statuses import (
    FINDING,
    HOLLOW,
    INFO,
    ORDER,
    PASS,
    PROVED,
    STATUSES,
    UNKNOWN,
)
from tricklaw.verify.witness_text import witness_lines

WIDTH = 80
"""The summary's width in columns."""

COLUMNS: tuple[tuple[str, str], ...] = (
    ("proved", PROVED),
    ("pass", PASS),
    ("info", INFO),
    ("finding", FINDING),
    ("hollow", "hollow"),
    ("unknown", UNKNOWN),
    ("failed", "failed"),
)
"""The count columns, disjoint: a status, or ``hollow`` (a vacuous or trivial row
documented as expected) and ``failed`` (a counterexample, a failed check, or a vacuous or
trivial row not documented). ``unknown`` and ``failed`` rows both fail verify."""

_CELL = 8


def _column(result: Result) -> str:
    """The count column a row adds to."""
    if result.status == UNKNOWN:
        return UNKNOWN
    if fails(result):
        return "failed"
    if result.status in HOLLOW:
        return "hollow"
    return result.status


def _wrap(text: str, indent: str = "  ", first: str | None = None, hang: str = "  ") -> list[str]:
    """``text`` wrapped at :data:`WIDTH`, breaking between words only (never inside a
    clause id, a hyphenated reading or a long token)."""
    return textwrap.wrap(
        text,
        width=WIDTH,
        initial_indent=indent if first is None else first,
        subsequent_indent=indent + hang,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [indent.rstrip()]


def _count_table(title: str, groups: dict[str, list[Result]]) -> list[str]:
    """One line per group with a count per column (blank for zero), then the total."""
    label_width = WIDTH - _CELL * len(COLUMNS)
    head = title[: label_width - 1].ljust(label_width)
    lines = [head + "".join(name.rjust(_CELL) for name, _ in COLUMNS)]
    everything = [r for rows in groups.values() for r in rows]
    for label, rows in [*groups.items(), ("total", everything)]:
        counts = {key: 0 for _, key in COLUMNS}
        for r in rows:
            counts[_column(r)] = counts.get(_column(r), 0) + 1
        name = label if len(label) < label_width - 2 else label[: label_width - 4] + ".."
        cells = "".join(
            (str(counts[key]) if counts[key] else "").rjust(_CELL) for _, key in COLUMNS
        )
        lines.append((f"  {name}".ljust(label_width) + cells).rstrip())
    return lines


def _by_ruleset(results: Iterable[Result]) -> dict[str, list[Result]]:
    """Rows by ruleset (a row about no single ruleset, such as the edition diff's
    registry checks, under ``all``), in report order."""
    groups: dict[str, list[Result]] = {}
    for r in results:
        groups.setdefault(r.ruleset or "all", []).append(r)
    return groups


def _by_kind(results: Iterable[Result]) -> dict[str, list[Result]]:
    """Rows by kind of obligation: the first word of the obligation's name (so
    ``tie STI93-TRICK-3 highest`` and ``tie STI93-GAME-3 highest`` are both ``tie``)."""
    groups: dict[str, list[Result]] = {}
    for r in results:
        groups.setdefault(r.obligation.split(" ", 1)[0], []).append(r)
    return groups


def _where(rows: Sequence[Result]) -> str:
    """The player counts and readings a group of rows covers, e.g. ``players 3, 4; reading
    default, follow=strict``."""
    players = list(dict.fromkeys(r.players for r in rows if r.players))
    readings = list(dict.fromkeys(r.reading for r in rows if r.reading))
    parts = []
    if players:
        parts.append("players " + ", ".join(players))
    if readings == ["every reading"]:
        parts.append("every reading")
    elif readings:
        parts.append(("reading " if len(readings) == 1 else "readings ") + "; ".join(readings))
    return " | ".join(parts)


def _entry(rows: Sequence[Result]) -> list[str]:
    """One failure or finding in full: what, where, the detail, the clauses and the
    witness of its first row (the others are the same dispute elsewhere)."""
    r = rows[0]
    who = f"{r.ruleset} " if r.ruleset else ""
    found = f" [{r.machine} found {r.dispute}]" if r.status == FINDING else ""
    lines = _wrap(f"{r.status}: {who}{r.obligation}{found}", first="* ")
    where = _where(rows)
    if where:
        lines += _wrap(where, indent="    ")
    if r.detail:
        lines += _wrap(r.detail, indent="    ")
    if r.expected:
        lines += _wrap(f"documented as expected: {r.expected}", indent="    ")
    clauses = [c for c in r.clauses if ":" not in c]
    if clauses:
        lines += _wrap("clauses: " + ", ".join(clauses), indent="    ")
    for line in witness_lines(r.witness, r.ruleset):  # whole in the JSON report
        depth = len(line) - len(line.lstrip(" "))
        lines += _wrap(line.lstrip(" "), indent="    " + " " * depth, hang="    ")
    if len(rows) > 1:
        lines += _wrap(f"({len(rows)} rows; the detail above is the first's)", indent="    ")
    return lines


def _finding_groups(findings: Iterable[Result]) -> list[list[Result]]:
    """Findings grouped by ruleset, obligation, machine and dispute, in report order."""
    groups: dict[tuple[str, str, str, str], list[Result]] = {}
    for r in findings:
        groups.setdefault((r.ruleset, r.obligation, r.machine, r.dispute), []).append(r)
    return list(groups.values())


def legend_lines() -> list[str]:
    """Every status and its meaning, wrapped at :data:`WIDTH`."""
    lines = []
    for name in ORDER:
        lines += textwrap.wrap(
            STATUSES[name],
            width=WIDTH,
            initial_indent=f"  {name:<15} ",
            subsequent_indent=" " * 18,
            break_long_words=False,
            break_on_hyphens=False,
        )
    lines += _wrap(
        "In the counts, hollow is a vacuous or trivial row documented as expected (its "
        "reason is in the full table and the JSON report), and failed is a "
        "counterexample, a failed check, or a vacuous or trivial row not documented; "
        "unknown and failed rows fail verify.",
        indent="  ",
    )
    return lines


def summary_lines(results: Sequence[Result], seconds: float) -> list[str]:
    """The report's closing lines: every status counted (in the order of
    :data:`~tricklaw.proofs.statuses.ORDER`), then what passes and what fails, findings,
    informational and documented hollow rows counted apart from the passes (unwrapped:
    :func:`summary` wraps them; the full table prints them as they are)."""
    counts = {status: 0 for status in ORDER}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    listed = ", ".join(f"{n} {status}" for status, n in counts.items() if n)
    failed = [r for r in results if fails(r)]
    hollow = sum(counts[s] for s in HOLLOW) - sum(r.status in HOLLOW for r in failed)
    parts = [
        f"{counts[PROVED]} proved",
        f"{counts[PASS]} passed checks",
        f"{counts[FINDING]} findings (recorded disputes)",
        f"{counts[INFO]} informational",
        f"{hollow} vacuous or trivial as documented",
        f"{len(failed)} failed",
    ]
    lines = [f"{len(results)} obligations in {seconds:.1f}s: {listed}", "; ".join(parts)]
    runs = sorted({r.cached_from for r in results if r.cached_from})
    if runs:
        cached = sum(bool(r.cached_from) for r in results)
        when = runs[0] if len(runs) == 1 else f"{len(runs)} runs, the latest {runs[-1]}"
        lines.append(
            f"{cached} of {len(results)} rows taken from the cache (computed in {when}), "
            f"{len(results) - cached} computed now"
        )
    return lines


def summary(results: Sequence[Result], seconds: float, *, legend: bool = True) -> str:
    """The whole default report of ``tricklaw verify``, every line at most :data:`WIDTH`
    columns (a single token longer than that, such as a long witness value, may exceed it;
    it is never broken)."""
    lines = _count_table("by ruleset", _by_ruleset(results))
    lines.append("")
    lines += _count_table("by kind of obligation", _by_kind(results))
    failures = [r for r in results if fails(r)]
    lines.append("")
    lines.append(f"failures ({len(failures)}):" if failures else "failures: none")
    for r in failures:
        lines += _entry([r])
    findings = _finding_groups(r for r in results if r.status == FINDING and not fails(r))
    count = sum(len(g) for g in findings)
    lines.append("")
    lines.append(
        f"findings ({count} rows, {len(findings)} distinct; each is a recorded dispute):"
        if findings
        else "findings: none"
    )
    for group in findings:
        lines += _entry(group)
    if legend:
        lines.append("")
        lines.append("statuses:")
        lines += legend_lines()
    lines.append("")
    lines += _wrap(_hint(failures), indent="")
    lines.append("")
    for line in summary_lines(results, seconds):
        lines += _wrap(line, indent="", hang="")
    return "\n".join(lines) + "\n"


def _hint(failures: Sequence[Result]) -> str:
    tail = "" if not failures else "; rerun one ruleset with: tricklaw verify RULESET -n N"
    return f"(every row: tricklaw verify --table, or --json FILE{tail})"
