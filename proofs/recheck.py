"""Reading back an incremental script of ``verify --smt2`` (a model = clauses proof,
:func:`~tricklaw.proofs.smt2.tree_script`) and checking it again with a second solver.

:func:`tree_checks` trusts nothing of the writer: it parses the script and demands a
complete decision tree after the named background assertions::

    node := (check-sat)                                       ; a branch no path took
          | (push 1) (assert (! F :named |claim:outputs-differ|)) (check-sat) (pop 1)
          | (push 1) (assert C) node (pop 1) (push 1) (assert (not C)) node (pop 1)

with the very same text ``C`` on both sides of a decision. When every ``check-sat`` is
``unsat``, the background implies, by induction over the tree, that on every input the
encoding's outputs equal those of the path taken: the paths cover the domain, and each
agrees. (That a path's values are the model's on that path is the symbolic executor's
part, :mod:`tricklaw.proofs.symbolic`; it is not an SMT question.)

:func:`cvc5_answers` runs such a script in cvc5 (an optional dependency, installed with
the ``test`` extra) and gives its answer to every ``check-sat``.
"""

from __future__ import annotations

from typing import Any

from tricklaw.proofs.smt2 import CLAIM, symbol

LEAF = f":named {symbol(CLAIM)}))"
"""How a leaf's claim line ends."""

CVC5_UNITS = 20_000_000
"""cvc5's limit per ``check-sat`` (its ``rlimit-per`` option), in cvc5's resource units: a
count of the solver's own steps, so the answer is the same on every machine and under any
load, as a time limit's is not (a re-check that passes on a quiet machine must not fail
on a busy one). About 50 s of one core on the project's VM (about 400,000 units a
second); the hardest proof of verify takes about 1.2 million."""


TREE_OPTIONS = {"simplification": "none"}
"""cvc5's options for a decision tree's script besides the budget: no preprocessing
simplification. A tree is thousands of small ``check-sat`` under ``push``/``pop``, and
cvc5 simplifies the whole assertion stack again at every one of them, which grows with
the background: on the Sticheln 6-player ``zero-lead=first-nonzero`` tree (12,451
checks, where the lead colour is a nested ``ite`` in every condition) the first 1,500
checks took 43.5 s with it and 5.8 s without; the whole tree 109 s without, and with
it unfinished after 14 CPU-minutes (its CI shard took 700 s; measured 2026-11-27 on the
loaded 2-core VM). A large Hund 5-player tree: 30.6 s with, 18.7 s without. The option
changes how long cvc5 takes, not what it answers: every answer is still compared with
Z3's."""


class ShapeError(ValueError):
    """The script is not a complete decision tree."""


def tree_checks(text: str) -> int:
    """The number of ``check-sat`` of the script ``text``, which must be a complete
    decision tree (see the module's docstring); raises :class:`ShapeError` otherwise."""
    lines = [x for x in text.splitlines() if x and not x.startswith(";")]
    start = next((i for i, x in enumerate(lines) if x in ("(push 1)", "(check-sat)")), len(lines))
    if any(x.startswith(("(push", "(pop", "(check")) for x in lines[:start]):
        raise ShapeError("a command before the tree")
    checks = 0

    def expect(i: int, line: str) -> None:
        if i >= len(lines) or lines[i] != line:
            found = lines[i] if i < len(lines) else "the end"
            raise ShapeError(f"line {i}: {line} expected, not {found[:80]}")

    def node(i: int) -> int:
        nonlocal checks
        if i < len(lines) and lines[i] == "(check-sat)":
            checks += 1
            return i + 1
        expect(i, "(push 1)")
        first = lines[i + 1] if i + 1 < len(lines) else ""
        if not first.startswith("(assert "):
            raise ShapeError(f"line {i + 1}: an assertion expected")
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
        raise ShapeError("commands after the tree")
    return checks


def cvc5_answers(text: str, units: int = CVC5_UNITS) -> list[str]:
    """cvc5's answer (``sat``, ``unsat``, ``unknown``) to every ``check-sat`` of the
    script ``text``, each within ``units`` (:data:`CVC5_UNITS`); an error ends the list
    with ``error: ...``."""
    import cvc5

    tm: Any = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("rlimit-per", str(units))
    for option, value in TREE_OPTIONS.items():
        solver.setOption(option, value)
    symbols = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "query")
    answers: list[str] = []
    try:
        while True:
            command = parser.nextCommand()
            if command.isNull():
                break
            out = str(command.invoke(solver, symbols)).strip()
            if out.startswith("(error"):
                return [*answers, f"error: {out}"]
            if out.split(" ")[0] in ("sat", "unsat", "unknown"):
                answers.append(out.split(" ")[0])
    except RuntimeError as exc:
        return [*answers, f"error: {exc}"]
    return answers


def tree_verdict(text: str, query: dict[str, Any], units: int = CVC5_UNITS) -> tuple[str, int]:
    """``""`` (agreement) or what went wrong, for the tree script ``text`` of the
    ``index.json`` entry ``query``: its shape (:func:`tree_checks`), then cvc5's answer
    to every check (``unsat`` to all when Z3 proved it, ``expected`` "unsat"); and the
    number of checks cvc5 answered."""
    try:
        checks = tree_checks(text)
    except ShapeError as exc:
        return f"{query['file']}: not a complete tree: {exc}", 0
    answers = cvc5_answers(text, units)
    want = ["unsat"] * (checks - 1) + [query["expected"]]
    if query["expected"] != "unsat" or checks != query["checks"] or answers != want:
        bad = [a for a in answers if a != "unsat"][:3]
        return f"{query['file']}: Z3 {query['expected']}, cvc5 {bad}", len(answers)
    return "", len(answers)
