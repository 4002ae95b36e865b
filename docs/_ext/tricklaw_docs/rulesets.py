"""The ruleset pages (``generated/rulesets/<id>.md``): for any ruleset of
:data:`tricklaw.model.rulesets.RULESETS`, its options, every clause of its registry with
the code, proofs and tests that cite it, and its worked examples judged by the model.

:func:`ruleset_page` is a pure function of the ruleset id (no Sphinx application), so a
plug-in game's page can be generated and checked on its own."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import tricklaw_trace as trace

from tricklaw.model.rulesets import get_ruleset
from tricklaw.spec import CLAUSE_KIND_ORDER, load_examples, load_registry

from .links import label
from .markdown import code_link, lines_text, linkify, md_escape, write
from .trick_intro import trick_intro


def palette_line(ruleset_id: str) -> str:
    """The ruleset's colours as card glyphs in canonical order, with their letters."""
    p = get_ruleset(ruleset_id).palette
    cards = " ".join(f"{letter}0" for letter in p.letters)
    names = ", ".join(f"`{ltr}` {n}" for ltr, n in zip(p.letters, p.names, strict=True))
    return f"{{cards}}`{ruleset_id} {cards}` ({names})"


def option_table(ruleset_id: str) -> list[str]:
    """The ruleset's options as a table: default, values, dispute, meaning."""
    r = get_ruleset(ruleset_id)
    out = ["| option | default | values | dispute | meaning |", "|---|---|---|---|---|"]
    for s in r.option_specs:
        values = ", ".join(f"`{c}`" for c in s.choices) or f"{s.minimum}..{s.maximum}"
        dispute = f"{{clause}}`{s.dispute}`" if s.dispute else ""
        trick = " (can change a trick)" if s.affects_trick else ""
        out.append(
            f"| `{s.name}` | `{s.default}` | {values} | {dispute} | {md_escape(s.help)}{trick} |"
        )
    return out


def example_blocks(ruleset_id: str) -> list[str]:
    """The worked tricks of the ruleset's examples file as ``{trick}`` directives, each
    with what the text says of it."""
    data = load_examples(ruleset_id)
    out: list[str] = []
    for seq in data.get("sequence", []):
        opts = ",".join(f"{k}={v[0]}" for k, v in seq.get("holds_under", {}).items() if v)
        out += [f"### Worked tricks {seq.get('id', '')}", ""]
        if "seats" in seq:
            out += [f"Seats (clockwise): {', '.join(seq['seats'])}.", ""]
        for t in seq.get("trick", []):
            local = {**seq.get("holds_under", {}), **t.get("holds_under", {})}
            topts = ",".join(f"{k}={v[0]}" for k, v in local.items() if v) or opts
            caption = t.get("clause", "")
            out += [
                f"```{{trick}} {ruleset_id} {' '.join(t['cards'])}",
                f":players: {seq['players']}",
            ]
            if topts:
                out.append(f":option: {topts}")
            if caption:
                out.append(f":caption: {caption}")
            out += ["```", ""]
            if "winner" in t:
                out += [
                    f"The text: {md_escape(str(t.get('leader', '')))} leads; "
                    f"the winner is {md_escape(str(t['winner']))}"
                    + (f" (worth {t['points']} to them)" if "points" in t else "")
                    + (f" ({{clause}}`{caption}`)." if caption else "."),
                    "",
                ]
    return out


def citations(t: trace.Trace) -> list[str]:
    """The code, Z3 and test citations of one clause, folded in an HTML ``<details>``
    whose summary counts them (a missing one is shown outside the fold)."""
    inside: list[str] = []
    missing: list[str] = []
    counts: list[str] = []
    for title, cites, needed in (
        ("Code", t.code, t.needs_code),
        ("Z3", t.proof, t.needs_proof),
        ("Tests", t.test, t.needs_test),
    ):
        if cites:
            links = ", ".join(code_link(x, 1) for x in cites)
            inside += [f"{title}: {links}", ""]
            counts.append(f"{len(cites)} {title.lower()}")
        elif needed:
            missing += [f'{title}: <span class="tl-gap">missing</span>', ""]
    if not inside:
        return missing
    summary = f"Cited by {', '.join(counts)}"
    head = f'<details class="tl-cites"><summary>{summary}</summary>'
    folded = [head, "", *inside, "</details>", ""]
    return missing + folded


def ruleset_page(ruleset_id: str) -> str:
    """The MyST text of the page of ``ruleset_id``."""
    reg = load_registry(ruleset_id)
    r = get_ruleset(ruleset_id)
    traces = {t.clause_id: t for t in trace.trace(ruleset_id)}
    disputes_of: dict[str, list[str]] = {}
    for d in reg.disputes:
        for cid in d.clauses:
            disputes_of.setdefault(cid, []).append(d.id)
    counts = r.player_counts
    out = [
        f"(ruleset-{ruleset_id})=",
        f"# {md_escape(reg.title)}",
        "",
        f"Ruleset id `{ruleset_id}` · players {counts[0]}-{counts[-1]} · clause prefix "
        f"`{reg.prefix}` · source text `{reg.source.file}` ({reg.source.lines} lines, "
        f"SHA-256 `{reg.source.sha256[:16]}…`).",
        "",
        f"Palette (canonical deck order): {palette_line(ruleset_id)}.",
        "",
        *trick_intro(ruleset_id),
        "## About this page",
        "",
        "This page is generated at build time from "
        f"`spec/{ruleset_id}.toml`. For each clause it lists the model code that cites it "
        "(`model/`), the Z3 encodings and checks that name it (`proofs/`; *mention* marks a "
        "citation outside a tracked assertion or text case, *hollow* one on an always-true "
        "assertion: neither is a proof) and the tests that exercise it "
        "(`@clause` markers in `tests/`). See also the "
        "[traceability matrix](../matrix.md) and the [disputes register](../disputes.md).",
        "",
        "## Options",
        "",
        *option_table(ruleset_id),
        "",
        "## Clauses",
        "",
    ]
    kinds: dict[str, int] = {}
    for c in reg.clauses:
        kinds[c.kind] = kinds.get(c.kind, 0) + 1
    out += [
        f"{len(reg.clauses)} clauses: "
        + ", ".join(f"{kinds[k]} {k}" for k in CLAUSE_KIND_ORDER if k in kinds)
        + f"; {len(reg.disputes)} disputes.",
        "",
    ]
    for c in reg.clauses:
        t = traces[c.id]
        src = c.source or reg.source.file
        out += [f"({label(c.id)})=", f"### {c.id}", ""]
        meta = [f"**{c.kind}**", f"`{src}` {lines_text(c.lines)}"]
        if c.players:
            meta.append(f"players {', '.join(map(str, c.players))} only")
        out += [" · ".join(meta), "", f"> {linkify(c.summary)}", ""]
        if c.note:
            out += [f"*Note:* {linkify(c.note)}", ""]
        if c.id in disputes_of:
            out += [
                "Disputed in: " + ", ".join(f"{{clause}}`{d}`" for d in disputes_of[c.id]),
                "",
            ]
        out += citations(t)
        if t.needs_proof and not t.asserted:
            out += [
                f"Z3 assertion: none; {linkify(t.unasserted)}"
                if t.unasserted
                else 'Z3 assertion: <span class="tl-gap">missing</span>',
                "",
            ]
    examples = example_blocks(ruleset_id)
    if examples:
        out += ["## Worked examples, judged by the model", "", *examples]
    return "\n".join(out) + "\n"


def gen_ruleset(gen: Path, ruleset_id: str) -> None:
    """Write the page of ``ruleset_id`` (:func:`ruleset_page`)."""
    write(gen / "rulesets" / f"{ruleset_id}.md", ruleset_page(ruleset_id))


def gen_ruleset_toctree(gen: Path, ruleset_ids: Sequence[str]) -> None:
    """Write ``rulesets.inc``, the table of contents of the ruleset pages in the order of
    the model's registry, which the index includes: a new ruleset's page joins it with no
    edit to the index."""
    lines = ["```{toctree}", ":maxdepth: 1", ":caption: Rulesets", ""]
    lines += [f"generated/rulesets/{rid}" for rid in ruleset_ids]
    write(gen / "rulesets.inc", "\n".join([*lines, "```"]) + "\n")
