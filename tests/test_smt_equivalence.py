"""``verify --smt2`` writes the model = clauses proofs (trick, legality, score) as
incremental SMT-LIB 2 scripts, and cvc5 checks them again (issue 13, part 6).

A proof's script (:func:`~tricklaw.proofs.smt2.tree_script`) is the executor's decision
tree: the background assertions named by clause id; per decision ``(push 1) (assert C)``
<subtree> ``(pop 1) (push 1) (assert (not C))`` <subtree> ``(pop 1)``; per path a
``(push 1)``, the named claim "the encoding's outputs differ from the path's", a
``(check-sat)`` and ``(pop 1)``; per branch no path took, a bare ``(check-sat)``.

The re-check trusts nothing of the writer: :func:`tree_shape` parses the script and
demands exactly that shape (both sides of every decision, the same ``C`` on each), and
cvc5 must answer ``unsat`` to every ``check-sat``. By induction over the tree, the
background then implies that the encoding's outputs equal some path's on every input:
the coverage of the paths is proved by the second solver too. (What the paths' results
are is the executor's run of the model; that part is not an SMT question.)
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import cvc5
import pytest

from tricklaw.model.rulesets import RULESETS
from tricklaw.proofs import equivalence, equivalence_score
from tricklaw.proofs.recorder import labelled, recording, write_index
from tricklaw.proofs.smt2 import CLAIM, symbol
from tricklaw.proofs.solver import PROVED, fresh_context

LEAF = f":named {symbol(CLAIM)}))"


class Shape(Exception):
    """The script is not a complete decision tree."""


def tree_shape(text: str) -> int:
    """The number of ``check-sat`` of the script ``text``, which must be a complete
    decision tree (see the module's docstring); raises :class:`Shape` otherwise."""
    lines = [x for x in text.splitlines() if x and not x.startswith(";")]
    start = next(
        (i for i, x in enumerate(lines) if x in ("(push 1)", "(check-sat)")), len(lines)
    )
    if any(x.startswith(("(push", "(pop", "(check")) for x in lines[:start]):
        raise Shape("a command before the tree")
    checks = 0

    def expect(i: int, line: str) -> None:
        if i >= len(lines) or lines[i] != line:
            raise Shape(f"line {i}: {line} expected, not {lines[i] if i < len(lines) else 'EOF'}")

    def node(i: int) -> int:
        nonlocal checks
        if i < len(lines) and lines[i] == "(check-sat)":
            checks += 1
            return i + 1
        expect(i, "(push 1)")
        first = lines[i + 1] if i + 1 < len(lines) else ""
        if not first.startswith("(assert "):
            raise Shape(f"line {i + 1}: an assertion expected")
        if first.endswith(LEAF):
            expect(i + 2, "(check-sat)")
            expect(i + 3, "(pop 1)")
            checks += 1
            return i + 4
        cond = first[len("(assert ") : -1]
        j = node(i + 2)
        expect(j, "(pop 1)")
        expect(j + 1, "(push 1)")
        expect(j + 2, f"(assert (not {cond}))")
        k = node(j + 3)
        expect(k, "(pop 1)")
        return k + 1

    end = node(start)
    expect(end, "(exit)")
    if end + 1 != len(lines):
        raise Shape("commands after the tree")
    return checks


def cvc5_answers(text: str, ms: int = 10_000) -> list[str]:
    """cvc5's answer to every ``check-sat`` of the incremental script ``text``."""
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("tlimit-per", str(ms))
    symbols = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "query")
    answers = []
    while True:
        command = parser.nextCommand()
        if command.isNull():
            break
        out = command.invoke(solver, symbols).strip()
        if out.startswith("(error"):
            return [f"error: {out}"]
        if out.split(" ")[0] in ("sat", "unsat", "unknown"):
            answers.append(out.split(" ")[0])
    return answers


def recheck_trees(directory: Path, ms: int = 10_000) -> dict[str, Any]:
    """Every tree script of ``directory``'s index: its shape, then cvc5 on every check.
    Returns the files by verdict and the figures (checks, bytes, cvc5's seconds)."""
    index = json.loads((directory / "index.json").read_text(encoding="utf-8"))
    out: dict[str, Any] = {"agree": [], "disagree": [], "checks": 0, "bytes": 0, "seconds": 0.0}
    for query in index["queries"]:
        if query.get("kind") != "tree":
            continue
        text = (directory / query["file"]).read_text(encoding="utf-8")
        out["bytes"] += len(text)
        try:
            checks = tree_shape(text)
        except Shape as exc:
            out["disagree"].append(f"{query['file']}: not a complete tree: {exc}")
            continue
        start = time.perf_counter()
        answers = cvc5_answers(text, ms)
        out["seconds"] += time.perf_counter() - start
        out["checks"] += len(answers)
        want = ["unsat"] * (checks - 1) + [query["expected"]]
        if query["expected"] != "unsat" or checks != query["checks"] or answers != want:
            bad = [a for a in answers if a != "unsat"][:3]
            out["disagree"].append(f"{query['file']}: Z3 {query['expected']}, cvc5 {bad}")
        else:
            out["agree"].append(query["file"])
    return out


def export(directory: Path, ruleset: str, players: int) -> list[Any]:
    """The three model = clauses proofs of ``ruleset`` at ``players``, recorded."""
    rs = RULESETS[ruleset]
    with recording(directory) as rec, fresh_context(), labelled(ruleset=ruleset):
        with labelled(players=str(players)):
            results = [
                *equivalence.equivalence_results(rs, players, {}, 30_000),
                *equivalence_score.merged_results(rs, players, {}, 30_000),
            ]
    write_index(directory, rec.entries)
    return results


def test_the_equivalence_proofs_are_written_and_cvc5_confirms_every_check(
    tmp_path: Path,
) -> None:
    results = export(tmp_path, "the-last", 2)
    assert results and all(r.status == PROVED for r in results)
    index = json.loads((tmp_path / "index.json").read_text(encoding="utf-8"))
    kinds = {q["obligation"] for q in index["queries"] if q.get("kind") == "tree"}
    assert kinds == {"equivalence-trick", "equivalence-legal", "equivalence-score"}
    named = {n for q in index["queries"] for n in q["names"]}
    assert "LAST-DECK-1" in named and any(n.startswith("LAST-TRICK") for n in named)
    verdicts = recheck_trees(tmp_path)
    assert not verdicts["disagree"], verdicts["disagree"][:5]
    assert len(verdicts["agree"]) == len([q for q in index["queries"] if q.get("kind")])


def _one_tree(directory: Path) -> tuple[Path, str]:
    export(directory, "the-last", 2)
    index = json.loads((directory / "index.json").read_text(encoding="utf-8"))
    name = next(q["file"] for q in index["queries"] if q["obligation"] == "equivalence-trick")
    return directory / name, (directory / name).read_text(encoding="utf-8")


def test_a_missing_branch_or_a_wrong_leaf_is_caught(tmp_path: Path) -> None:
    """No test that cannot fail: a script with one side of a decision cut out is not a
    complete tree; a leaf that claims a wrong output is answered sat by cvc5."""
    _, text = _one_tree(tmp_path)
    assert tree_shape(text) > 2
    lines = text.splitlines()
    i = next(k for k, x in enumerate(lines) if x.startswith("(assert (not "))
    cut = "\n".join([*lines[: i - 1], *lines[i + 3 :]]) + "\n"  # one infeasible side gone
    with pytest.raises(Shape):
        tree_shape(cut)
    leaf = next(k for k, x in enumerate(lines) if x.endswith(LEAF))
    claim = f"(assert (! true {LEAF}"  # "the outputs differ" stated as true: never refuted
    wrong = "\n".join([*lines[:leaf], claim, *lines[leaf + 1 :]]) + "\n"
    assert tree_shape(wrong) == tree_shape(text)
    assert "sat" in cvc5_answers(wrong)


TREES_ENV = "TRICKLAW_SMT2_ALL_EQUIVALENCE"
"""Set to 1: the slow test exports and re-checks every ruleset at every player count."""


def _tables() -> list[tuple[str, int]]:
    every = [(r, n) for r in sorted(RULESETS) for n in RULESETS[r].player_counts]
    if os.environ.get(TREES_ENV) == "1":
        return every
    return [(r, min(RULESETS[r].player_counts)) for r in sorted(RULESETS)]


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "players"), _tables())
def test_cvc5_confirms_every_equivalence_proof(ruleset: str, players: int, tmp_path: Path) -> None:
    """The slow tier: each ruleset at its smallest table (every table with
    ``TRICKLAW_SMT2_ALL_EQUIVALENCE=1``), every check of every proof, by cvc5."""
    start = time.perf_counter()
    results = export(tmp_path, ruleset, players)
    z3_seconds = time.perf_counter() - start
    assert all(r.status == PROVED for r in results), [r for r in results if r.status != PROVED]
    verdicts = recheck_trees(tmp_path, 60_000)
    assert not verdicts["disagree"], verdicts["disagree"][:5]
    assert verdicts["agree"]
    print(
        f"{ruleset} {players}p: cvc5 confirms {len(verdicts['agree'])} proofs,"
        f" {verdicts['checks']} checks, {verdicts['bytes'] / 1e6:.1f} MB,"
        f" cvc5 {verdicts['seconds']:.1f} s, Z3 (with the executor) {z3_seconds:.1f} s"
    )
