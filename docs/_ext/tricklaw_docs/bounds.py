"""The score-bounds page (``generated/bounds.md``): the least and greatest round score of
every ruleset, player count and reading, as proved once and checked in
(``spec/bounds/v1.json``, read without Z3), drawn as one range plot per ruleset
(:mod:`.range_plot`, ``generated/img/bounds-<id>.svg``) with the table folded below."""

from __future__ import annotations

import time
from pathlib import Path

from .markdown import md_escape, write
from .range_plot import range_rows, range_svg


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
        bars, unproved = range_rows(rows, ruleset_id, MIN, MAX)
        out += [f"## {ruleset_id}", ""]
        if bars:
            svg = range_svg(f"{ruleset_id}: round score range", bars, "round score of one player")
            write(gen / "img" / f"bounds-{ruleset_id}.svg", svg)
            out += [
                f"![The least and greatest round score of {ruleset_id} per player count and "
                f"reading](img/bounds-{ruleset_id}.svg)",
                "",
                "Readings with the same range share a bar; a bar's tooltip names them.",
                "",
            ]
        if unproved:
            out += ["Not proved (no bar):", ""]
            out += [f"- {md_escape(u)}" for u in unproved]
            out.append("")
        out += [
            '<details class="tl-cites"><summary>The bounds as a table</summary>',
            "",
            "| players | reading | least | greatest |",
            "|---|---|---|---|",
        ]
        for (rid, players, reading), cells in rows.items():
            if rid != ruleset_id:
                continue
            out.append(
                f"| {players} | {md_escape(reading)} | {cells.get(MIN, '')} "
                f"| {cells.get(MAX, '')} |"
            )
        out += ["", "</details>", ""]
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
