"""``verify --smt2`` writes the model = clauses proofs (trick, legality, score) as
incremental SMT-LIB 2 scripts, and cvc5 checks them again (issue 13, part 6).

A proof's script (:func:`~tricklaw.proofs.smt2.tree_script`) is the executor's decision
tree: the background assertions named by clause id; per decision ``(push 1) (assert C)``
<subtree> ``(pop 1) (push 1) (assert (not C))`` <subtree> ``(pop 1)``; per path a
``(push 1)``, the named claim "the encoding's outputs differ from the path's", a
``(check-sat)`` and ``(pop 1)``; per branch no path took, a bare ``(check-sat)``.

The re-check trusts nothing of the writer: :func:`~tricklaw.proofs.recheck.tree_checks`
parses the script and demands exactly that shape (both sides of every decision, the same
``C`` on each), and cvc5 must answer ``unsat`` to every ``check-sat``: the coverage of
the paths is then proved by the second solver too (see :mod:`tricklaw.proofs.recheck`).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tricklaw.model.rulesets import RULESETS
from tricklaw.proofs import equivalence, equivalence_score
from tricklaw.proofs.recheck import (
    CVC5_UNITS,
    LEAF,
    ShapeError,
    cvc5_answers,
    tree_checks,
    tree_verdict,
)
from tricklaw.proofs.recorder import labelled, recording, write_index
from tricklaw.proofs.solver import PROVED, fresh_context


def recheck_trees(directory: Path, units: int = CVC5_UNITS) -> dict[str, Any]:
    """Every tree script of ``directory``'s index (:func:`tree_verdict`). Returns the files
    by verdict and the figures (checks, bytes, cvc5's seconds)."""
    index = json.loads((directory / "index.json").read_text(encoding="utf-8"))
    out: dict[str, Any] = {"agree": [], "disagree": [], "checks": 0, "bytes": 0, "seconds": 0.0}
    for query in index["queries"]:
        if query.get("kind") != "tree":
            continue
        text = (directory / query["file"]).read_text(encoding="utf-8")
        out["bytes"] += len(text)
        start = time.perf_counter()
        wrong, checks = tree_verdict(text, query, units)
        out["seconds"] += time.perf_counter() - start
        out["checks"] += checks
        out["disagree" if wrong else "agree"].append(wrong or query["file"])
    return out


def export(directory: Path, ruleset: str, players: int) -> list[Any]:
    """The three model = clauses proofs of ``ruleset`` at ``players``, recorded."""
    rs = RULESETS[ruleset]
    label = labelled(ruleset=ruleset, players=str(players))
    with recording(directory) as rec, fresh_context(), label:
        results = [
            *equivalence.equivalence_results(rs, players, {}, 30_000),
            *equivalence_score.merged_results(rs, players, {}, 30_000),
        ]
    write_index(directory, rec.entries)
    return results


@pytest.fixture(scope="module")
def the_last_2p(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    """The three proofs of The Last at 2 players, written once for this module's tests."""
    directory = tmp_path_factory.mktemp("smt2")
    return directory, export(directory, "the-last", 2)


@pytest.mark.slow
def test_the_equivalence_proofs_are_written_and_cvc5_confirms_every_check(
    the_last_2p: tuple[Path, list[Any]],
) -> None:
    directory, results = the_last_2p
    assert results and all(r.status == PROVED for r in results)
    index = json.loads((directory / "index.json").read_text(encoding="utf-8"))
    trees = [q for q in index["queries"] if q.get("kind") == "tree"]
    kinds = {q["obligation"] for q in trees}
    assert kinds == {"equivalence-trick", "equivalence-legal", "equivalence-score"}
    named = {n for q in trees for n in q["names"]}
    assert "LAST-DECK-1" in named and any(n.startswith("LAST-TRICK") for n in named)
    verdicts = recheck_trees(directory)
    assert not verdicts["disagree"], verdicts["disagree"][:5]
    assert len(verdicts["agree"]) == len(trees)
    assert verdicts["checks"] == sum(q["checks"] for q in trees)
    facts = [q for q in index["queries"] if not q.get("kind")]  # the executor's facts
    assert [q["expected"] for q in facts] == ["unsat"]
    assert "claim:two-cards-alike" in facts[0]["names"]
    text = (directory / facts[0]["file"]).read_text(encoding="utf-8")
    assert cvc5_answers(text) == ["unsat"]


@pytest.mark.slow
def test_a_missing_branch_or_a_wrong_leaf_is_caught(the_last_2p: tuple[Path, list[Any]]) -> None:
    """No test that cannot fail: a script with one side of a decision cut out is not a
    complete tree; a leaf that claims a wrong output is answered sat by cvc5."""
    directory, _ = the_last_2p
    index = json.loads((directory / "index.json").read_text(encoding="utf-8"))
    trees = [q for q in index["queries"] if q.get("kind") == "tree"]
    query = next(q for q in trees if q["obligation"] == "equivalence-trick")
    text = (directory / query["file"]).read_text(encoding="utf-8")
    assert tree_checks(text) == query["checks"] > 2
    lines = text.splitlines()
    i = next(
        k
        for k, x in enumerate(lines)
        if x.startswith("(assert (not ") and lines[k + 1] == "(check-sat)"
    )
    cut = "\n".join([*lines[: i - 1], *lines[i + 3 :]]) + "\n"  # an infeasible side gone
    with pytest.raises(ShapeError):
        tree_checks(cut)
    assert tree_verdict(cut, query)[0]
    leaf = next(k for k, x in enumerate(lines) if x.endswith(LEAF))
    claim = f"(assert (! true {LEAF}"  # "the outputs differ" stated as true: never refuted
    wrong = [*lines[:leaf], claim, *lines[leaf + 1 :]]
    wrong_text = "\n".join(x.replace(":status unsat", ":status unknown") for x in wrong) + "\n"
    assert tree_checks(wrong_text) == query["checks"]
    assert "sat" in cvc5_answers(wrong_text)
    assert "cvc5 ['sat']" in tree_verdict(wrong_text, query)[0]


def _smallest_tables() -> list[tuple[str, int]]:
    return [(r, min(RULESETS[r].player_counts)) for r in sorted(RULESETS)]


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "players"), _smallest_tables())
def test_cvc5_confirms_every_equivalence_proof(ruleset: str, players: int, tmp_path: Path) -> None:
    """Each ruleset at its smallest table: every check of every proof, by cvc5, with the
    figures (Z3's time includes the executor's and the writing). Every table of every
    ruleset is re-checked by ``tests/test_smt2.py``'s slow test, which reads every
    script ``verify --smt2`` writes, these included."""
    start = time.perf_counter()
    results = export(tmp_path, ruleset, players)
    z3_seconds = time.perf_counter() - start
    assert all(r.status == PROVED for r in results), [r for r in results if r.status != PROVED]
    verdicts = recheck_trees(tmp_path)
    assert not verdicts["disagree"], verdicts["disagree"][:5]
    assert verdicts["agree"]
    index = json.loads((tmp_path / "index.json").read_text(encoding="utf-8"))
    for query in index["queries"]:
        if not query.get("kind"):  # the executor's facts ("two cards of a trick differ")
            text = (tmp_path / query["file"]).read_text(encoding="utf-8")
            assert cvc5_answers(text) == [query["expected"]] == ["unsat"], query
    print(
        f"{ruleset} {players}p: cvc5 confirms {len(verdicts['agree'])} proofs,"
        f" {verdicts['checks']} checks, {verdicts['bytes'] / 1e6:.1f} MB,"
        f" cvc5 {verdicts['seconds']:.1f} s, Z3 (with the executor) {z3_seconds:.1f} s"
    )
