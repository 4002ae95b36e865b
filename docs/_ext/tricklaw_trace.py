"""Traceability of tricklaw's clauses: which code, proof and test cites each clause id.

This module has no Sphinx dependency: the docs extension (``tricklaw_docs``) renders
what it finds, and ``tests/test_docs.py`` checks it. It reads the *repository* sources
(``model/``, ``proofs/``, ``tests/``), found relative to this file, and the clause
registries through :func:`tricklaw.spec.load_registry`.

How a citation is found
-----------------------

* **code** (``model/**/*.py``) and **proof** (``proofs/**/*.py``): any occurrence of a
  clause id in the text of the file (docstring, comment, string literal). The compact
  forms the sources use are expanded: ``STI93-SELECT-1..3`` cites ``STI93-SELECT-1``,
  ``-2`` and ``-3``, and ``STI93-TRICK-5/6`` cites ``STI93-TRICK-5`` and ``-6``. A proof
  citation on a line holding ``Tracked(`` or ``Case(`` is an *assertion* (the clause is
  a tracked Z3 assertion or a text case), unless the line also holds ``BoolVal(True)``:
  a citation on an always-true assertion is *hollow* (it names the clause in an unsat
  core without constraining anything); any other is a *mention*.
* **test** (``tests/*.py``): the string literals of a ``@clause(...)`` decorator (the
  ``pytest.mark.clause`` marker), as ``tests/test_clause_coverage.py`` counts them.

The rules of the traceability check
-----------------------------------

* A clause is **normative** unless its kind is in :data:`NON_NORMATIVE`
  (``advice``, ``info``, ``example``).
* Every normative clause needs a **code** citation and a **test**, except the clauses
  of kind ``game`` whose id contains ``-AIM-`` (:func:`exempt_from_code`): those are
  the texts' overviews of the aim of the game, restated in detail by other clauses;
  they still need a test.
* Every clause of kind ``trick`` needs a **proof**: an *assertion* citation (a mention
  or a hollow citation does not count), unless its ruleset's trick encoding declares it
  carried by no assertion of its own, with the reason
  (:attr:`~tricklaw.proofs.tricks.TrickEncoding.unasserted`): the matrix then shows the
  reason instead of a proof.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository root (``docs/_ext/`` is two levels down)."""

NON_NORMATIVE = frozenset({"advice", "info", "example"})
"""Clause kinds that state no rule: tips, credits and headings, worked examples."""

PROOF_REQUIRED = frozenset({"trick"})
"""Clause kinds that a Z3 trick obligation must cover."""

TOKEN = re.compile(r"\b([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)(?:(\.\.|/)(\d+))?")
"""A clause-id-shaped token, optionally followed by ``..N`` (a range) or ``/N``."""


@dataclass(frozen=True, slots=True)
class Citation:
    """One place in the sources that cites a clause id."""

    path: str
    """The file, relative to the repository root (``model/rulesets/sticheln.py``)."""
    line: int
    where: str
    """The innermost enclosing function or class (dotted), or ``module``."""
    how: str = ""
    """Proofs: ``assertion``, ``hollow`` or ``mention``. Tests: empty."""


@dataclass
class Trace:
    """The citations of one clause."""

    clause_id: str
    kind: str
    code: list[Citation] = field(default_factory=list)
    proof: list[Citation] = field(default_factory=list)
    test: list[Citation] = field(default_factory=list)
    unasserted: str = ""
    """Why no Z3 assertion states this clause, as its ruleset's trick encoding declares
    (empty when it declares nothing)."""

    @property
    def asserted(self) -> list[Citation]:
        """The proof citations that are real Z3 assertions or text cases."""
        return [c for c in self.proof if c.how == "assertion"]

    @property
    def normative(self) -> bool:
        """Whether the clause states a rule (its kind is not advice, info or example)."""
        return self.kind not in NON_NORMATIVE

    @property
    def needs_code(self) -> bool:
        """Whether the check requires a citation in ``model/``."""
        return self.normative and not exempt_from_code(self.clause_id, self.kind)

    @property
    def needs_test(self) -> bool:
        """Whether the check requires a ``@clause`` test."""
        return self.normative

    @property
    def needs_proof(self) -> bool:
        """Whether the check requires a citation in ``proofs/``."""
        return self.kind in PROOF_REQUIRED

    def gaps(self) -> list[str]:
        """What the check finds missing: ``code``, ``test`` and/or ``proof``."""
        out = []
        if self.needs_code and not self.code:
            out.append("code")
        if self.needs_proof and not self.asserted and not self.unasserted:
            out.append("proof")
        if self.needs_test and not self.test:
            out.append("test")
        return out


def exempt_from_code(clause_id: str, kind: str) -> bool:
    """Overviews of a game's aim (kind ``game``, id ``*-AIM-*``) need no code citation."""
    return kind == "game" and "-AIM-" in clause_id


def expand(token: str, sep: str | None, last: str | None) -> list[str]:
    """The ids a token cites: ``X-1..3`` -> X-1, X-2, X-3; ``X-5/6`` -> X-5, X-6."""
    if not sep or not last:
        return [token]
    head, _, first = token.rpartition("-")
    if not first.isdigit():
        return [token]
    if sep == "/":
        return [token, f"{head}-{last}"]
    lo, hi = int(first), int(last)
    if hi < lo or hi - lo > 20:
        return [token]
    return [f"{head}-{n}" for n in range(lo, hi + 1)]


def ids_in(text: str) -> list[str]:
    """Every id-shaped token of ``text``, ranges expanded (not checked against a registry)."""
    out: list[str] = []
    for m in TOKEN.finditer(text):
        out.extend(expand(m.group(1), m.group(2), m.group(3)))
    return out


def _scopes(tree: ast.AST) -> list[tuple[int, int, str]]:
    """(first line, last line, dotted name) of every function and class, outer first."""
    out: list[tuple[int, int, str]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                out.append((first, child.end_lineno or child.lineno, name))
                walk(child, name + ".")
            else:
                walk(child, prefix)

    walk(tree, "")
    return out


def _where(scopes: list[tuple[int, int, str]], line: int) -> str:
    best = "module"
    for first, last, name in scopes:
        if first <= line <= last:
            best = name  # later entries are nested deeper
    return best


def source_files(folder: str) -> list[Path]:
    """The Python files under ``folder`` of the repository, sorted."""
    return sorted(p for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def scan_text_citations(folder: str, proofs: bool = False) -> dict[str, list[Citation]]:
    """Clause id -> every line of ``folder``'s sources that names it."""
    out: dict[str, list[Citation]] = {}
    for path in source_files(folder):
        text = path.read_text(encoding="utf-8")
        scopes = _scopes(ast.parse(text))
        rel = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(text.splitlines(), 1):
            ids = ids_in(line)
            if not ids:
                continue
            how = citation_kind(line) if proofs else ""
            for cid in dict.fromkeys(ids):
                out.setdefault(cid, []).append(Citation(rel, number, _where(scopes, number), how))
    return out


def citation_kind(line: str) -> str:
    """How a line of ``proofs/`` cites a clause: ``assertion`` (a tracked Z3 assertion or
    a text case), ``hollow`` (one whose formula is ``BoolVal(True)``: an assertion that
    constrains nothing, or a text case with no guard, neither of which proves anything
    of the clause) or ``mention``."""
    if "Tracked(" not in line and "Case(" not in line:
        return "mention"
    return "hollow" if "BoolVal(True)" in line else "assertion"


def _is_clause_marker(node: ast.expr) -> bool:
    func = node.func if isinstance(node, ast.Call) else None
    return (isinstance(func, ast.Name) and func.id == "clause") or (
        isinstance(func, ast.Attribute) and func.attr == "clause"
    )


def scan_test_citations() -> dict[str, list[Citation]]:
    """Clause id -> every test (function or class) whose ``@clause(...)`` names it."""
    out: dict[str, list[Citation]] = {}
    for path in sorted((ROOT / "tests").glob("*.py")):
        if path.name in {"test_clause_coverage.py", "test_docs.py"}:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        scopes = _scopes(tree)
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            for deco in node.decorator_list:
                if not _is_clause_marker(deco):
                    continue
                assert isinstance(deco, ast.Call)
                for arg in deco.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        cite = Citation(rel, node.lineno, _where(scopes, node.lineno))
                        out.setdefault(arg.value, []).append(cite)
    return out


@cache
def all_citations() -> tuple[
    dict[str, list[Citation]], dict[str, list[Citation]], dict[str, list[Citation]]
]:
    """(code, proof, test) citations, each clause id -> citations."""
    return (
        scan_text_citations("model"),
        scan_text_citations("proofs", proofs=True),
        scan_test_citations(),
    )


def ruleset_ids() -> list[str]:
    """The ruleset ids, in the order of the seed texts."""
    from tricklaw.model.rulesets import RULESETS

    return list(RULESETS)


def trace(ruleset: str) -> list[Trace]:
    """The trace of every clause of ``ruleset``, in registry order."""
    from tricklaw.spec import load_registry

    code, proof, test = all_citations()
    unasserted = unasserted_clauses(ruleset)
    out = []
    for c in load_registry(ruleset).clauses:
        cites = (code.get(c.id, []), proof.get(c.id, []), test.get(c.id, []))
        out.append(Trace(c.id, c.kind, *cites, unasserted=unasserted.get(c.id, "")))
    return out


def unasserted_clauses(ruleset: str) -> dict[str, str]:
    """The clauses ``ruleset``'s trick encoding declares carried by no assertion of their
    own, each with the reason (none when it has no encoding)."""
    from tricklaw.proofs.encodings import ENCODINGS

    if ruleset not in ENCODINGS:
        return {}
    return dict(ENCODINGS[ruleset].unasserted)


def known_ids(rulesets: Iterable[str] | None = None) -> dict[str, str]:
    """Every clause and dispute id -> its ruleset."""
    from tricklaw.spec import load_registry

    out: dict[str, str] = {}
    for r in rulesets or ruleset_ids():
        for cid in load_registry(r).ids:
            out[cid] = r
    return out


def gaps() -> dict[str, dict[str, list[str]]]:
    """Ruleset -> clause id -> what it lacks (only clauses with gaps)."""
    out: dict[str, dict[str, list[str]]] = {}
    for r in ruleset_ids():
        for t in trace(r):
            missing = t.gaps()
            if missing:
                out.setdefault(r, {})[t.clause_id] = missing
    return out
