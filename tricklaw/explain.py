"""``tricklaw explain ID`` (also ``tricklaw dispute ID`` and ``tricklaw clause ID``): what a
clause or a dispute says, for a player at the table.

A clause gives its paraphrase, where it stands in the text, its note, and the disputes
that turn on it; a dispute gives its question, every reading with the ``--option`` that
selects it, the default and why, and the clauses it touches. The id is looked up in every
ruleset's clauses (``STI93-TRICK-3``, ``LH-D-FIRSTLEAD``), case aside; an unknown id is
one error line naming the nearest ids. ``--json`` prints what the oracle's ``explain``
method answers for a clause (:mod:`tricklaw.oracle.rules`).
"""

from __future__ import annotations

import argparse
import difflib
import json
import textwrap
from typing import Any

from tricklaw.model.rulesets import RULESETS
from tricklaw.spec import Clause, Dispute, Registry, load_registry
from tricklaw.spec.errors import TricklawError

WIDTH = 88
"""Lines are wrapped to this width."""


def find(identifier: str) -> tuple[str, Registry]:
    """The id as the registry spells it, and the registry of the ruleset that holds it."""
    wanted = identifier.strip().upper()
    known: list[str] = []
    for ruleset_id in RULESETS.ids():
        registry = load_registry(ruleset_id)
        if wanted in registry.ids:
            return wanted, registry
        known += registry.ids
    near = difflib.get_close_matches(wanted, sorted(set(known)), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(near)}?" if near else " (tricklaw rulesets lists them)"
    raise TricklawError(f"ID {identifier!r}: no clause or dispute has that id{hint}")


def _wrap(label: str, text: str) -> list[str]:
    return textwrap.wrap(
        text, WIDTH, initial_indent=f"{label}: " if label else "", subsequent_indent="  "
    )


def _lines(lines: Any) -> str:
    spans = [f"{a}" if a == b else f"{a}-{b}" for a, b in lines]
    single = len(spans) == 1 and "-" not in spans[0]
    return ("line " if single else "lines ") + ", ".join(spans)


def dispute_text(registry: Registry, dispute: Dispute) -> list[str]:
    """A dispute in words."""
    out = [f"{dispute.id} ({registry.ruleset}): {dispute.title}"]
    out += _wrap("question", dispute.question)
    out.append("readings:")
    for reading in dispute.readings:
        mark = " (default)" if reading.value == dispute.default else ""
        select = f"--option {dispute.option}={reading.value}" if dispute.option else reading.value
        out += textwrap.wrap(
            f"{select}{mark}: {reading.summary}",
            WIDTH,
            initial_indent="  ",
            subsequent_indent="    ",
        )
    if not dispute.option:
        out += _wrap("no option", "the model follows the default reading only")
    out += _wrap("why the default", dispute.reason)
    out.append(f"text: {registry.source.file}, {_lines(dispute.lines)}")
    if dispute.clauses:
        out += _wrap("clauses", ", ".join(dispute.clauses))
    return out


def clause_text(registry: Registry, clause: Clause) -> list[str]:
    """A clause in words, with the disputes that turn on it."""
    out = [f"{clause.id} ({registry.ruleset}, {clause.kind}):"]
    out += textwrap.wrap(clause.summary, WIDTH, initial_indent="  ", subsequent_indent="  ")
    source = clause.source or registry.source.file
    out.append(f"text: {source}, {_lines(clause.lines)}")
    if clause.players:
        out.append(f"players: {', '.join(map(str, clause.players))} only")
    if clause.note:
        out += _wrap("note", clause.note)
    disputes = [d.id for d in registry.disputes if clause.id in d.clauses]
    if disputes:
        out += _wrap("disputes", ", ".join(disputes) + " (tricklaw explain ID)")
    return out


def cmd_explain(args: argparse.Namespace) -> int:
    """Print what the clause or dispute ``args.id`` says."""
    from tricklaw.oracle.rules import clause_json

    found, registry = find(args.id)
    if args.json:
        print(json.dumps({"ruleset": registry.ruleset, **clause_json(registry.ruleset, found)}))
        return 0
    disputes = {d.id: d for d in registry.disputes}
    if found in disputes:
        lines = dispute_text(registry, disputes[found])
    else:
        lines = clause_text(registry, registry.clause(found))
    print("\n".join(lines))
    return 0


def add_command(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``explain`` subcommand (aliases ``dispute`` and ``clause``)."""
    p = subparsers.add_parser(
        "explain",
        aliases=["dispute", "clause"],
        help="what a clause or dispute says: its paraphrase, readings and options",
        description="Print what a clause (e.g. STI93-TRICK-3) or a dispute (e.g. "
        "STI-D-ZEROOFF) says: the paraphrase and where it stands in the text, or the "
        "question, every reading with the --option that selects it, and the default.",
    )
    p.add_argument("id", help="a clause or dispute id, e.g. LH-D-FIRSTLEAD")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_explain)
