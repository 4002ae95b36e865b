"""The traceability matrix (``generated/matrix.md``): for every clause of every ruleset,
the model code, the Z3 encodings and checks, and the tests that cite it, as
``tricklaw_trace`` finds them; a required cell left empty is shown as a gap."""

from __future__ import annotations

import html
from pathlib import Path

import tricklaw_trace as trace

from .markdown import source_page, write

INTRO = [
    "(matrix)=",
    "# Traceability matrix",
    "",
    "For every clause: the model code that cites it, the Z3 encodings and checks that "
    "name it, and the tests that exercise it. Generated at build time by scanning the "
    "sources (`docs/_ext/tricklaw_trace.py`); `tests/test_docs.py` fails when a required "
    "cell is empty.",
    "",
    "## The rules",
    "",
    "- **Normative** clauses are all clauses except the kinds `advice` (tips), `info` "
    "(credits, headings) and `example` (worked examples; these are checked against the "
    "model and Z3 by `tricklaw verify` instead).",
    '- Every normative clause needs a **test** (a `@clause("ID")` marker in `tests/`) '
    "and a **code** citation (the id in a docstring, comment or clause table in `model/`).",
    "- **Exemption:** clauses of kind `game` whose id contains `-AIM-` are the texts' "
    "overviews of the aim of the game. They are restated in detail by the deal, trick and "
    "score clauses, so they need a test but no code citation of their own.",
    "- Every clause of kind `trick` (the trick-resolution clauses that the Z3 trick "
    "obligations should cover) needs a **proof**: a Z3 assertion or text case in "
    "`proofs/` that cites it, unless its ruleset's trick encoding declares it carried by "
    "no assertion of its own (`unasserted`), with the reason, which the cell then shows.",
    "- A citation is the id itself; the compact forms `X-1..3` (a range) and `X-5/6` "
    "are expanded. In `proofs/`, a citation on a line with `Tracked(` or `Case(` is a Z3 "
    "assertion or text case, unless the line holds `BoolVal(True)`: an always-true "
    "assertion is *hollow* and proves nothing of its clause; any other citation is a "
    "*mention*. Mentions and hollow citations are counted, but never as a proof.",
    "",
    "A cell shows the number of citations (linked to the first) and the files; "
    '<span class="tl-gap">✗ missing</span> is a gap the check fails on, '
    '<span class="tl-na">-</span> means nothing is required.',
    "",
]
"""The matrix's heading and the rules of the check."""


def matrix_summary() -> dict[str, dict[str, int]]:
    """Per ruleset: clauses, normative, with code, proof, test, trick clauses with proof."""
    out: dict[str, dict[str, int]] = {}
    for ruleset_id in trace.ruleset_ids():
        ts = trace.trace(ruleset_id)
        out[ruleset_id] = {
            "clauses": len(ts),
            "normative": sum(t.normative for t in ts),
            "code": sum(bool(t.code) for t in ts),
            "proof": sum(bool(t.asserted) for t in ts),
            "test": sum(bool(t.test) for t in ts),
            "trick": sum(t.needs_proof for t in ts),
            "trick_proved": sum(t.needs_proof and bool(t.asserted) for t in ts),
            "gaps": sum(bool(t.gaps()) for t in ts),
        }
    return out


def _proof_cell(t: trace.Trace) -> str:
    """The proof cell: the citations when one is an assertion; else the declared reason
    (``unasserted``), or the mentions marked as no proof (a gap where one is needed)."""
    if t.asserted:
        return _cell(t.proof, t.needs_proof)
    if t.unasserted:
        return f"<small>no assertion: {html.escape(t.unasserted)}</small>"
    if t.proof and t.needs_proof:
        return '<span class="tl-gap">✗ mentions only</span>'
    return _cell(t.proof, t.needs_proof)


def _cell(cites: list[trace.Citation], needed: bool) -> str:
    if cites:
        files = sorted({c.path.rsplit("/", 1)[-1] for c in cites})
        first = next((c for c in cites if c.how == "assertion"), cites[0])
        href = f"sources/{source_page(first.path)}.html#L-{first.line}"
        shown = ", ".join(files[:2]) + (f" +{len(files) - 2}" if len(files) > 2 else "")
        return f'<a href="{href}">{len(cites)}</a> <small>{html.escape(shown)}</small>'
    if needed:
        return '<span class="tl-gap">✗ missing</span>'
    return '<span class="tl-na">-</span>'


def matrix_section(ruleset_id: str) -> list[str]:
    """The matrix's table of ``ruleset_id``: one row per clause."""
    out = [
        f"## {ruleset_id}",
        "",
        "| clause | kind | code | proof | test |",
        "|---|---|---|---|---|",
    ]
    for t in trace.trace(ruleset_id):
        kind = t.kind + (" (exempt from code)" if t.normative and not t.needs_code else "")
        out.append(
            f"| {{clause}}`{t.clause_id}` | {kind} "
            f"| {_cell(t.code, t.needs_code)} "
            f"| {_proof_cell(t)} "
            f"| {_cell(t.test, t.needs_test)} |"
        )
    out.append("")
    return out


def gen_matrix(gen: Path) -> None:
    """Write the matrix: the rules, a summary per ruleset, then each ruleset's table."""
    out = [
        *INTRO,
        "## Summary",
        "",
        "| ruleset | clauses | normative | with code | trick clauses with proof "
        "| with a Z3 assertion | with test | gaps |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for ruleset_id, s in matrix_summary().items():
        out.append(
            f"| [{ruleset_id}](rulesets/{ruleset_id}.md) | {s['clauses']} | {s['normative']} "
            f"| {s['code']} | {s['trick_proved']} / {s['trick']} | {s['proof']} | {s['test']} "
            f"| {s['gaps']} |"
        )
    out.append("")
    for ruleset_id in trace.ruleset_ids():
        out += matrix_section(ruleset_id)
    write(gen / "matrix.md", "\n".join(out) + "\n")
