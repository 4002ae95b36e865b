"""Every rule of the model held to some obligation: the rule functions and who checks them.

:func:`rule_functions` lists, for any ruleset, the functions of its model that state a
rule: the public functions of its model modules, and the public methods its class (and
the classes between it and :class:`~tricklaw.model.ruleset.Ruleset`) defines, whose
docstring cites a clause id of the ruleset's registry; each with the clause ids it
cites. (On a compiled install the plain copy of the model is read,
:mod:`tricklaw.proofs.plain`.)

:func:`coverage_results` holds each of them to the results of the same verify run: a rule
function is *covered* when some obligation of :data:`MODEL_CHECKS` (one that runs the
model and compares it with something written from the clauses: an encoding, a
relaxation, a worked example) about the same ruleset passed, proved or found, and cites
one of the function's clauses. One ``rule-coverage`` row per ruleset lists every rule
function with the obligations covering it; an uncovered one fails the row (on a complete
run; a partial run, ``-n`` or ``--option``, reports it without failing).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from tricklaw.model.ruleset import Ruleset
from tricklaw.proofs import plain
from tricklaw.proofs.results import Result
from tricklaw.proofs.solver import FINDING, PROVED
from tricklaw.spec import load_registry

OBLIGATION = "rule-coverage"
MODEL_CHECKS = (
    "agreement",
    "equivalence-trick",
    "equivalence-legal",
    "equivalence-score",
    "example ",
    "score-max",
    "score-min",
    "bound-holds-on-model",
    "liveness-game",
    "liveness-round",
    "rule ",
)
"""Prefixes of the obligations that run the model against a statement written from the
clauses (an encoding, a relaxation, a worked example; ``liveness-game`` asks the model's
``game_over``, ``liveness-round`` its ``max_decisions``; ``equivalence-legal`` and
``equivalence-score`` prove the play rule and the round score equal to their encodings)."""
STRICT = True
"""Whether an uncovered rule function fails a complete run (on: any uncovered function
fails verify; off, the row would only list them as UNCOVERED)."""
GOOD = frozenset({PROVED, "pass", FINDING})
CLAUSE_ID = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+(?:\.\.\d+)?")
"""A clause id (``LH-SCORE-2``), or a range of them (``LH-SCORE-1..4``)."""


@dataclass(frozen=True)
class RuleFunction:
    """A function of the model that states a rule, and the clause ids its docstring cites."""

    name: str
    clauses: tuple[str, ...]


def model_modules(ruleset: Ruleset[Any]) -> list[ModuleType]:
    """The modules of ``ruleset``'s model: the module of its class, and, when that module
    lies in a package of its own under ``tricklaw.model.rulesets``, every module of that
    package (read from the plain copy on a compiled install)."""
    name = type(ruleset).__module__
    package = name.rsplit(".", 1)[0]
    names = [name]
    if package.rsplit(".", 1)[0] == "tricklaw.model.rulesets":
        found = importlib.import_module(package)
        names = [f"{package}.{m.name}" for m in pkgutil.iter_modules(found.__path__)]
    if plain.compiled_install() and name.startswith("tricklaw."):
        return [plain.plain_module(n) for n in names]
    return [importlib.import_module(n) for n in names]


def _cited(doc: str | None, ids: set[str]) -> tuple[str, ...]:
    found = []
    for token in CLAUSE_ID.findall(doc or ""):
        head, _, last = token.partition("..")
        stem, _, first = head.rpartition("-")
        if last and first.isdigit():
            found += [f"{stem}-{k}" for k in range(int(first), int(last) + 1)]
        else:
            found.append(head)
    return tuple(dict.fromkeys(c for c in found if c in ids))


def rule_functions(ruleset: Ruleset[Any]) -> list[RuleFunction]:
    """The rule functions of ``ruleset``'s model (see the module docstring), in source
    order of their modules."""
    ids = set(load_registry(ruleset.id).ids)
    modules = model_modules(ruleset)
    out: dict[str, RuleFunction] = {}
    for module in modules:
        for name, fn in vars(module).items():
            if name.startswith("_") or not inspect.isroutine(fn):
                continue
            if getattr(fn, "__module__", None) != module.__name__:
                continue
            cited = _cited(fn.__doc__, ids)
            if cited:
                out[name] = RuleFunction(name, cited)
    names = {m.__name__ for m in modules}
    root = type(ruleset)
    if plain.compiled_install() and root.__module__.startswith("tricklaw."):
        # a compiled class keeps no docstrings: read the plain copy's class
        root = getattr(plain.plain_module(root.__module__), root.__name__)
    for cls in root.__mro__:
        if cls.__module__ not in names and not cls.__module__.endswith(root.__module__):
            continue
        for name, fn in vars(cls).items():
            if name.startswith("_") or not inspect.isroutine(fn):
                continue
            cited = _cited(fn.__doc__, ids)
            if cited and f"{cls.__name__}.{name}" not in out:
                out[f"{cls.__name__}.{name}"] = RuleFunction(f"{cls.__name__}.{name}", cited)
    return list(out.values())


def covering(fn: RuleFunction, ruleset_id: str, results: Iterable[Result]) -> list[str]:
    """The obligations (by name) of ``results`` that cover ``fn``."""
    wanted = set(fn.clauses)
    return list(
        dict.fromkeys(
            r.obligation
            for r in results
            if r.ruleset == ruleset_id
            and r.status in GOOD
            and r.obligation.startswith(MODEL_CHECKS)
            and wanted.intersection(r.clauses)
        )
    )


def coverage_results(
    rulesets: Sequence[Ruleset[Any]],
    results: Sequence[Result],
    complete: bool,
    strict: bool = STRICT,
) -> list[Result]:
    """One ``rule-coverage`` row per ruleset: every rule function and the obligations
    that cover it; ``fail`` when one is uncovered on a ``complete`` run with ``strict``
    (``pass``, naming them UNCOVERED, otherwise)."""
    out = []
    for ruleset in rulesets:
        start = time.perf_counter()
        table = {fn.name: covering(fn, ruleset.id, results) for fn in rule_functions(ruleset)}
        bare = [name for name, by in table.items() if not by]
        status = "fail" if bare and complete and strict else "pass"
        head = (
            f"UNCOVERED ({len(bare)} of {len(table)}): {', '.join(bare)}; "
            if bare
            else f"all {len(table)} rule functions covered; "
        )
        detail = head + "; ".join(f"{n} <- {', '.join(by) or 'NOTHING'}" for n, by in table.items())
        out.append(
            Result(
                OBLIGATION,
                ruleset.id,
                "all",
                "all",
                status,
                time.perf_counter() - start,
                (),
                detail,
                {"functions": {n: by for n, by in table.items()}},
            )
        )
    return out
