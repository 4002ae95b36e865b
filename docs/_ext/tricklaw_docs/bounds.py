"""The score-bounds page (``generated/bounds.md``): the least and greatest round score of
every ruleset, player count and reading, as proved once and checked in
(``spec/bounds/v1.json``, read without Z3)."""

from __future__ import annotations

import time
from pathlib import Path

from .markdown import md_escape, write


def gen_bounds(gen: Path) -> float:
    """The score bounds of every ruleset, player count and reading, as proved once and
    checked in (``spec/bounds/v1.json``; read without Z3)."""
    from tricklaw.spec.proved_bounds import MAX, MIN, bound_cells, load_bounds

    start = time.perf_counter()
    proved = load_bounds()
    out = [
        "(bounds)=",
        "# Score bounds",
        "",
        "The least and the greatest score one player can make in a round, for every ruleset, "
        "player count and reading of the rules that can change them. Each bound is proved by "
        "Z3 on a sound relaxation of the round and met by a witness (a deal and its actions) "
        "that the model replays under that reading to exactly that score; a bound that is "
        "not both is shown with its status and details, never as a number alone. Read from "
        "`spec/bounds/v1.json`, which `tricklaw bounds` writes and `tricklaw verify` checks "
        "(see {py:mod}`tricklaw.proofs.bounds` and {py:mod}`tricklaw.proofs.bounds.readings`).",
        "",
        "Each option that can change a round's score range is varied on its own, one value at "
        "a time from the defaults, at the player counts where it can matter; the combinations "
        "listed under each ruleset are varied together. The Last scores penalty points (lower "
        "is better).",
        "",
    ]
    rows = bound_cells(proved.rows)
    for ruleset_id in dict.fromkeys(key[0] for key in rows):
        out += [f"## {ruleset_id}", "", "| players | reading | least | greatest |"]
        out.append("|---|---|---|---|")
        for (rid, players, reading), cells in rows.items():
            if rid != ruleset_id:
                continue
            out.append(
                f"| {players} | {md_escape(reading)} | {cells.get(MIN, '')} "
                f"| {cells.get(MAX, '')} |"
            )
        out.append("")
        part = proved.rulesets.get(ruleset_id, {})
        combos = part.get("combinations", [])
        if combos:
            out += ["Varied together:", ""]
            out += [f"- {md_escape(c['reading'])}: {c['why']}" for c in combos]
            out.append("")
        skipped = part.get("not_varied", [])
        if skipped:
            out += ["Not varied:", ""]
            out += [f"- `{s['option']}`: {md_escape(s['why'])}" for s in skipped]
            out.append("")
    write(gen / "bounds.md", "\n".join(out) + "\n")
    return time.perf_counter() - start
