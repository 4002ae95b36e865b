"""The score-bounds page (``generated/bounds.md``): the least and greatest round score of
every ruleset, player count and reading, as ``tricklaw verify`` computes them."""

from __future__ import annotations

import time
from pathlib import Path

from .markdown import md_escape, write


def gen_bounds(gen: Path) -> float:
    """The score bounds of every ruleset, player count and reading, computed as
    ``tricklaw verify`` computes them."""
    from tricklaw.proofs import bound_readings, bounds

    start = time.perf_counter()
    out = [
        "(bounds)=",
        "# Score bounds",
        "",
        "The least and the greatest score one player can make in a round, for every ruleset, "
        "player count and reading of the rules that can change them. Each bound is proved by "
        "Z3 on a sound relaxation of the round and met by a witness (a deal and its actions) "
        "that the model replays under that reading to exactly that score; a bound that is "
        "not both is shown with its status and details, never as a number alone. Computed "
        "while this page is built, as `tricklaw verify` computes them (see "
        "{py:mod}`tricklaw.proofs.bounds` and {py:mod}`tricklaw.proofs.bound_readings`).",
        "",
        "Each option that can change a round's score range is varied on its own, one value at "
        "a time from the defaults, at the player counts where it can matter; the combinations "
        "listed under each ruleset are varied together. The Last scores penalty points (lower "
        "is better).",
        "",
    ]
    rows = bounds.bound_cells(bounds.all_bounds_results())
    for ruleset_id in dict.fromkeys(key[0] for key in rows):
        out += [f"## {ruleset_id}", "", "| players | reading | least | greatest |"]
        out.append("|---|---|---|---|")
        for (rid, players, reading), cells in rows.items():
            if rid != ruleset_id:
                continue
            out.append(
                f"| {players} | {md_escape(reading)} | {cells.get(bounds.MIN, '')} "
                f"| {cells.get(bounds.MAX, '')} |"
            )
        out.append("")
        combos = bound_readings.COMBINATIONS.get(ruleset_id, ())
        if combos:
            out += ["Varied together:", ""]
            out += [f"- {md_escape(bound_readings.label(c.options))}: {c.why}" for c in combos]
            out.append("")
        skipped = bound_readings.not_varied(ruleset_id)
        if skipped:
            out += ["Not varied:", ""]
            out += [f"- `{name}`: {md_escape(why)}" for name, why in skipped.items()]
            out.append("")
    write(gen / "bounds.md", "\n".join(out) + "\n")
    return time.perf_counter() - start
