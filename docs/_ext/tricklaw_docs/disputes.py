"""The disputes register (``generated/disputes.md``): an index of every dispute, then every
dispute of every ruleset with its readings, default, quotes and clauses, the worked
examples it concerns, how often its readings matter (:mod:`.simulation`) and a trick on
which they differ, drawn under each reading side by side. :func:`dispute_section` is one
ruleset's part."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import tricklaw_trace as trace

from tricklaw.model.rulesets import get_ruleset
from tricklaw.proofs.examples import ExampleCheck, check_examples
from tricklaw.spec import Dispute, load_examples, load_registry

from .editions import edition_section
from .impact_figures import figure, pooled
from .links import known, label
from .markdown import lines_text, linkify, md_escape, write
from .simulation import reading_value, simulate_dispute

INTRO = [
    "(disputes)=",
    "# Disputes register",
    "",
    "Every point where a rule text contradicts itself, is silent, or disagrees with "
    "another edition is a named **dispute** in `spec/<ruleset>.toml`: the question, the "
    "competing readings, the default and the reason for it, the verbatim quotes and their "
    "lines, and the `--option` that selects each reading. This page is generated from the "
    "registries at build time.",
    "",
    "**How often does a reading matter?** For each dispute with an option, the build "
    "measures it by simulation:",
    "",
    "- *tricks*: for options that can change who takes a trick, the same uniformly random "
    "complete tricks (about 2000, spread over the player counts) are judged under every "
    "reading with `ruleset.judge_trick`; the column gives the share judged differently "
    "from the default reading;",
    "- *winner changes*: the checked-in `tricklaw impact` study (`docs/impact.json`): "
    "paired games (the same deals and agent seeds, at most 12 rounds) under each reading "
    "and under the default, at every player count, by random agents and by each "
    "ruleset's heuristic agent (`tricklaw.model.strategies`); the columns give the "
    "share of pairs whose winner differs, pooled over the player counts, with its 95 % "
    "Wilson interval; each ruleset's figure shows every player count. A reading that "
    "changes what may be played changes the agents' choices, so such games almost always "
    "differ in their tricks. Rerun it with `tricklaw impact --games 50 --json "
    "docs/impact.json`, or with more games for narrower intervals (its JSON also gives "
    "the trick and round-score changes).",
    "",
    "Neither agent is expert play: the numbers say how often a reading can matter, "
    "not how often it decides a real game.",
    "",
    "**Who found it.** Each dispute says which machine found it (its `found_by` in the "
    "registry) or that it was written by hand. `tricklaw verify` holds the two together "
    "(its `findings-register` check): every finding of a detector must be a dispute that "
    "names that detector, and a dispute may name only a detector that finds it.",
    "",
]
"""The register's heading and its account of the simulation."""

_EXAMPLE_CHECKS: dict[str, list[ExampleCheck]] = {}


def _dispute_examples(ruleset_id: str, dispute: Dispute) -> list[str]:
    """The text's worked examples a dispute cites: under which readings each holds
    (checked against the model by ``tricklaw.proofs.examples``), and its tricks drawn."""
    data = load_examples(ruleset_id)
    cited = set(dispute.clauses)
    related: list[tuple[str, dict[str, Any]]] = []
    for seq in data.get("sequence", []):
        ids = set(seq["clauses"]) | {t["clause"] for t in seq["trick"]}
        if ids & cited:
            related.append((seq["id"], seq))
    related += [(ex["clause"], ex) for ex in data.get("score", []) if ex["clause"] in cited]
    if not related:
        return []
    if ruleset_id not in _EXAMPLE_CHECKS:
        _EXAMPLE_CHECKS[ruleset_id] = check_examples(ruleset_id)
    out = [
        "**The worked examples it concerns** (checked against the model under every "
        "combination of readings):",
        "",
    ]
    for name, ex in related:
        checks = [c for c in _EXAMPLE_CHECKS[ruleset_id] if c.example == name]
        holds = [c for c in checks if c.holds]
        shown_name = f"{{clause}}`{name}`" if name in known() else f"`{name}`"
        where = "; ".join(
            ", ".join(f"{k}={v}" for k, v in c.readings if k == dispute.option) or "any"
            for c in holds[:1]
        )
        line = f"- {shown_name}: holds under {len(holds)} of {len(checks)} combinations"
        if holds and dispute.option:
            line += f" (e.g. {where})"
        failing = [c for c in checks if not c.holds]
        if holds:
            # Prefer a failure that differs from a holding combination only in this
            # dispute's reading: its message is this dispute's reason.
            ref = {k: v for k, v in holds[0].readings if k != dispute.option}
            own = [
                c for c in failing if {k: v for k, v in c.readings if k != dispute.option} == ref
            ]
            failing = own or failing
        if failing:
            shown = ", ".join(f"{k}={v}" for k, v in failing[0].readings if k == dispute.option)
            line += (
                f". Where it fails{f' ({shown})' if shown else ''}, the model says: "
                f"{md_escape(failing[0].failures[0])}"
            )
        out += [line, ""]
        for trick in ex.get("trick", []):
            caption = (
                f"{trick['clause']}: {trick['leader']} leads, "
                f"the text gives it to {trick['winner']}."
            )
            out += [
                f"```{{trick}} {ruleset_id} {' '.join(trick['cards'])}",
                f":players: {ex['players']}",
                f":caption: {caption}",
                "```",
                "",
            ]
    return out


def dispute_section(ruleset_id: str, gen: Path | None = None) -> list[str]:
    """The register's section of ``ruleset_id``: each dispute, simulated where an option
    selects its readings."""
    reg = load_registry(ruleset_id)
    r = get_ruleset(ruleset_id)
    out = [
        f"## {md_escape(reg.title)}",
        "",
        f"Ruleset `{ruleset_id}`: [clauses](rulesets/{ruleset_id}.md).",
        "",
        *(figure(gen, ruleset_id) if gen is not None else []),
    ]
    for d in reg.disputes:
        out += [f"({label(d.id)})=", f"### {d.id}: {md_escape(d.title)}", ""]
        found = (
            "found by " + ", ".join(f"the {m} detector" for m in d.found_by)
            if d.found_by
            else "written by hand"
        )
        out += [f"**{d.kind}** · {found} · `{reg.source.file}` {lines_text(d.lines)}", ""]
        if d.editions:
            out += [
                f"**Edition difference** from `{'`, `'.join(d.editions)}` "
                f"({lines_text(d.edition_lines)} of its text) in: {', '.join(d.aspects)}; "
                "see [the edition differences](#edition-differences).",
                "",
            ]
        out += [f"**Question.** {linkify(d.question)}", ""]
        spec = next((s for s in r.option_specs if s.name == d.option), None) if d.option else None
        sim = None
        if spec is not None:
            values = [rd.value for rd in d.readings if reading_value(spec, rd.value) is not None]
            if len(values) > 1:
                sim = simulate_dispute(ruleset_id, d.option, values)
        head = "| reading | option | meaning |"
        rule = "|---|---|---|"
        if sim:
            if sim["tricks"]:
                head += " tricks differing |"
                rule += "---|"
            head += " winner changes (random agents) | winner changes (heuristic agents) |"
            rule += "---|---|"
        out += [head, rule]
        for rd in d.readings:
            mark = " **(default)**" if rd.value == d.default else ""
            opt = f"`--option {d.option}={rd.value}`" if d.option else "(no option)"
            stand_in = dict(spec.stand_ins).get(rd.value) if spec is not None else None
            if stand_in is not None:
                opt += f" (a number; the study plays `{d.option}={stand_in}`)"
            row = f"| `{rd.value}`{mark} | {opt} | {linkify(rd.summary)} |"
            if sim:
                if sim["tricks"]:
                    n = sim["trick"].get(rd.value)
                    row += f" {100 * n / sim['tricks']:.1f} % |" if n is not None else " - |"
                for agent in ("random", "heuristic"):
                    shown = (
                        "(default)"
                        if rd.value == d.default
                        else pooled(ruleset_id, d.id, rd.value, agent, "winner")
                    )
                    row += f" {shown} |"
            out.append(row)
        out.append("")
        if not d.option:
            out += ["No option selects a reading: no rule of the model depends on it.", ""]
        out += [f"**Default: `{d.default}`.** {linkify(d.reason)}", ""]
        if d.quotes:
            out += ["**Quotes** (verbatim, from the lines above):", ""]
            out += [f"- \u201c{md_escape(q)}\u201d" for q in d.quotes]
            out.append("")
        if d.clauses:
            out += [
                "**Clauses:** " + ", ".join(f"{{clause}}`{c}`" for c in d.clauses),
                "",
            ]
        out += _dispute_examples(ruleset_id, d)
        if sim and sim["witness"]:
            players, cards, ctx = sim["witness"]
            out += [
                "**A trick on which the readings differ** (found by the simulation), "
                "judged under each reading side by side:",
                "",
                *side_by_side(ruleset_id, d, players, cards, ctx),
            ]
    return out


def side_by_side(
    ruleset_id: str, d: Dispute, players: int, cards: list[str], ctx: dict[str, str]
) -> list[str]:
    """One trick drawn once per reading of ``d``, in a row that wraps on a narrow screen."""
    out = ["````{container} tl-side", ""]
    for rd in d.readings:
        mark = " (default)" if rd.value == d.default else ""
        out += [
            f"```{{trick}} {ruleset_id} {' '.join(cards)}",
            f":players: {players}",
            f":option: {d.option}={rd.value}",
            f":caption: {d.option}={rd.value}{mark}",
            ":compact:",
        ]
        if ctx:
            out.append(":context: " + "; ".join(f"{k}={v}" for k, v in ctx.items()))
        out += ["```", ""]
    return [*out, "````", ""]


def dispute_index(ruleset_ids: list[str]) -> list[str]:
    """The register's index: one row per dispute of every ruleset, linked to its entry."""
    out = [
        "## Index",
        "",
        "| ruleset | dispute | kind | question | option | found by |",
        "|---|---|---|---|---|---|",
    ]
    for ruleset_id in ruleset_ids:
        for d in load_registry(ruleset_id).disputes:
            option = f"`{d.option}`" if d.option else "-"
            found = ", ".join(d.found_by) or "hand"
            out.append(
                f"| `{ruleset_id}` | {{clause}}`{d.id}` | {d.kind} | {md_escape(d.title)} "
                f"| {option} | {found} |"
            )
    return [*out, ""]


def gen_disputes(gen: Path) -> float:
    """Write the register; the seconds it took (mostly the simulation)."""
    start = time.perf_counter()
    out = [*INTRO, *dispute_index(list(trace.ruleset_ids()))]
    for ruleset_id in trace.ruleset_ids():
        out += dispute_section(ruleset_id, gen)
    out += edition_section()
    write(gen / "disputes.md", "\n".join(out) + "\n")
    return time.perf_counter() - start
