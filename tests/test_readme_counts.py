"""The table of who found the disputes matches the registries' ``found_by``. It was the
README's; it is in docs/verify.md since the README was cut to a newcomer's read (issue 46)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tricklaw.model.rulesets import RULESETS
from tricklaw.spec import DETECTORS, load_registry

PAGE = Path(__file__).resolve().parent.parent / "docs" / "verify.md"


def _table() -> dict[str, int]:
    text = PAGE.read_text(encoding="utf-8")
    block = text.split("<!-- found-by-counts -->")[1].split("<!-- /found-by-counts -->")[0]
    out: dict[str, int] = {}
    for row in block.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[1].isdigit():
            continue  # the heading and its rule
        for name in re.findall(r"`([^`]+)`", cells[0]) or [cells[0]]:
            out[name] = int(cells[1])
    return out


def test_the_verify_page_counts_each_detector_s_disputes() -> None:
    counts: Counter[str] = Counter()
    disputes = [d for r in RULESETS for d in load_registry(r).disputes]
    for d in disputes:
        counts.update(d.found_by or ["written by hand"])
    table = _table()
    assert set(table) == {*DETECTORS, "written by hand"}
    assert table == {name: counts.get(name, 0) for name in table}
    assert f"of {len(disputes)} disputes" in PAGE.read_text(encoding="utf-8")
