"""How often a dispute's reading changes a game, from the checked-in study
``docs/impact.json`` (written by ``tricklaw impact --games 50 --json docs/impact.json``,
:mod:`tricklaw.impact`): the register's columns per reading and agent (pooled over the
player counts, with Wilson's 95 % interval) and one figure per ruleset
(``generated/img/impact-<id>.svg``, drawn by :func:`tricklaw.impact.plot.write_svg` with
matplotlib). The study takes minutes, so the build reads it instead of playing games;
``tests/test_impact.py`` checks that it still covers every case of the registries."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from tricklaw.impact.stats import wilson

STUDY = Path(__file__).resolve().parents[2] / "impact.json"
"""The checked-in study."""


@cache
def study() -> dict[str, Any] | None:
    """The checked-in study's report (``None`` when there is none)."""
    if not STUDY.is_file():
        return None
    report: dict[str, Any] = json.loads(STUDY.read_text(encoding="utf-8"))
    return report


def pooled(ruleset_id: str, dispute_id: str, reading: str, agent: str, measure: str) -> str:
    """``x.x % [lo, hi]`` of the pairs (over every player count) whose ``measure``
    differs under ``reading``, or ``-`` where the study has no such case."""
    report = study()
    rows = [
        r
        for r in (report or {}).get("cases", [])
        if (r["ruleset"], r["dispute"], r["reading"], r["agent"])
        == (ruleset_id, dispute_id, reading, agent)
    ]
    pairs = sum(r["pairs"] for r in rows)
    if not pairs:
        return "-"
    differ = sum(r[measure]["differ"] for r in rows)
    low, high = wilson(differ, pairs)
    return f"{100 * differ / pairs:.1f} % [{100 * low:.0f}, {100 * high:.0f}]"


def figure(gen: Path, ruleset_id: str) -> list[str]:
    """The ruleset's figure (winner changes per case), as MyST lines (none without a
    study or cases)."""
    report = study()
    if report is None:
        return []
    rows = [r for r in report["cases"] if r["ruleset"] == ruleset_id]
    if not rows:
        return []
    from tricklaw.impact.plot import write_svg

    (gen / "img").mkdir(parents=True, exist_ok=True)
    write_svg({**report, "cases": rows}, gen / "img" / f"impact-{ruleset_id}.svg")
    return [
        f"```{{figure}} img/impact-{ruleset_id}.svg",
        f":alt: how often each reading of {ruleset_id}'s disputes changes the winner",
        "",
        f"How often each reading changes the winner ({report['games']} paired games per "
        "reading, player count and agent; bars: 95 % Wilson intervals).",
        "```",
        "",
    ]
