"""Model = clauses for every trick: the model's own trick code, executed symbolically,
proved equal to the clause encoding on every input.

For a :class:`~tricklaw.proofs.tricks.TrickEncoding` (one ruleset, player count,
combination of readings and trick context), :func:`trick_equivalence`

1. runs the encoding's :meth:`~tricklaw.proofs.tricks.TrickEncoding.model_answer`,
   which calls the model's ``judge_trick``, on symbolic cards
   ``colour_i * 32 + value_i`` over the encoding's own variables, with the executor of
   :mod:`tricklaw.proofs.symbolic` (no ruleset-specific code: any game's model runs);
   each path gives a path condition and the model's answer on it: the outcome, and for
   each clause of the encoding's
   :meth:`~tricklaw.proofs.tricks.TrickEncoding.citations` whether the model names it
   among the clauses that decided the trick;
2. proves with Z3, path by path (one incremental solver holding the deck clause and the
   rule under the readings), that ``domain & path condition & resolution(outcome)``
   implies ``outcome == the path's outcome``, and that the path names exactly the
   clauses whose cases hold (:meth:`~tricklaw.proofs.tricks.TrickEncoding.answer_terms`);
   and that every branch the executor found infeasible is infeasible, so the paths cover
   the domain;
3. checks that the model's deck is the encoding's (the domain is the same set of cards).

A disagreement is a counterexample whose witness trick is run through the model again,
concretely: the report shows the model's and the encoding's outcomes. A path the executor
could not follow (:class:`~tricklaw.proofs.symbolic.Unsupported`) that is reachable
leaves the obligation *unknown*, never proved.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from tricklaw.model.cards import Card, make_card
from tricklaw.model.ruleset import Ruleset
from tricklaw.proofs import plain, recorder, symbolic, z3_direct
from tricklaw.proofs.combinations import reading_combinations
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.results import Result
from tricklaw.proofs.smt2 import Command
from tricklaw.proofs.solver import (
    COUNTEREXAMPLE,
    PROVED,
    UNKNOWN,
    Outcome,
    Tracked,
    check,
    labelled,
)
from tricklaw.proofs.symbolic import Path
from tricklaw.proofs.symbolic_terms import Term, make, to_z3
from tricklaw.proofs.tricks import CITES, TrickEncoding

MACHINE = "equivalence"
PATH_BUDGET = 20_000
"""verify's default: explore at most this many paths per trick proof (the largest
table today, six players of Sticheln, needs about 7,000). Beyond it the proof is not
attempted to its end and the result says so (status ``pass``, detail "NOT PROVED");
the sampled agreement check stands for it. Once a reading and context
is over the budget at one player count, larger counts (longer tricks, more paths) are
not attempted. The environment variable ``TRICKLAW_EQUIVALENCE_PATHS`` sets another
budget (0: no limit, every proof runs)."""

_OVER: dict[tuple[str, str, str, int], int] = {}
"""(ruleset, reading, context, budget) -> the player count at which the proof went over
the budget (only to save exploring larger tables: it never decides a status)."""


SEVERITY = (PROVED, "pass", UNKNOWN, COUNTEREXAMPLE)
"""Statuses from best to worst: a reading's result shows its worst context."""


def path_budget() -> int:
    """The path budget in force (:data:`PATH_BUDGET`, or the environment's)."""
    text = os.environ.get("TRICKLAW_EQUIVALENCE_PATHS", "")
    budget = int(text) if text.strip().isdigit() else PATH_BUDGET
    return budget or 10**9


@dataclass
class PathProof:
    """What proving every path gave: the first failure (status, Z3 model, the path)."""

    status: str
    checks: int
    model: z3.ModelRef | None = None
    path: Path | None = None
    reason: str = ""


def prove_paths(
    background: Sequence[Tracked | z3.BoolRef],
    outputs: Mapping[str, z3.ArithRef],
    paths: Sequence[Path],
    leaf: Callable[[Path, str], Any],
    timeout_ms: int,
) -> PathProof:
    """Under ``background``, every path's result equals ``outputs`` (``leaf(path, name)``
    is the path's value of output ``name``, None when the path has none), and every
    branch no path took is infeasible. Walks the paths' decision tree with one
    incremental solver. (A background formula given bare is named ``background``.)

    This is also how the paths are known to cover the domain: the walk visits both
    branches of every decision (a branch no path took must be infeasible), so the
    leaves' path conditions split the whole background. With ``verify --smt2`` the walk
    is written as one incremental script (:func:`~tricklaw.proofs.smt2.tree_script`):
    the background named by clause id, then per decision ``(push 1) (assert C) ...
    (pop 1) (push 1) (assert (not C)) ... (pop 1)``, per leaf a named claim "the outputs
    differ from the path's" and a ``check-sat``, per infeasible branch a ``check-sat``:
    all ``unsat``, the coverage side included."""
    tracked = [t if isinstance(t, Tracked) else Tracked("background", t) for t in background]
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*[t.formula for t in tracked])
    trie: dict[Any, Any] = {}
    for path in paths:
        node = trie
        for cond, taken in path.steps:
            if node.setdefault("cond", cond) != cond:  # the code is not a function of its input
                return PathProof(UNKNOWN, 0, None, path, "two paths decide different conditions")
            node = node.setdefault(taken, {})
        node["leaf"] = path
    checks = 0
    rec = recorder.current()
    script: list[Command] = []
    log = script.append if rec is not None else (lambda _: None)

    def fail(answer: z3.CheckSatResult, path: Path | None, reason: str) -> PathProof:
        if answer == z3.unknown:
            return PathProof(UNKNOWN, checks, None, path, solver.reason_unknown())
        return PathProof(COUNTEREXAMPLE, checks, solver.model(), path, reason)

    def walk(node: dict[Any, Any]) -> PathProof | None:
        nonlocal checks
        if "leaf" in node:
            path: Path = node["leaf"]
            values = {k: leaf(path, k) for k in outputs}
            missing = path.error or path.unsupported
            claim = (
                None
                if missing or any(v is None for v in values.values())
                else z3_direct.any_differs([(outputs[k], v) for k, v in values.items()])
            )
            checks += 1
            if claim is None:
                log(("check", None))
                answer = solver.check()
            else:
                for step in (("push", None), ("claim", claim), ("check", None), ("pop", None)):
                    log(step)
                answer = solver.check(claim)
            if answer == z3.unsat:
                return None
            why = f"the model raised {path.error}" if path.error else path.unsupported
            return fail(answer, path, why or "the model's outcome differs")
        if "cond" not in node:  # no path at all: the domain is empty
            checks += 1
            log(("check", None))
            answer = solver.check()
            return None if answer == z3.unsat else fail(answer, None, "no path covers")
        cond = to_z3(node["cond"])
        for branch in (True, False):
            z3_direct.push(solver)
            chosen = cond if branch else z3.Not(cond)
            z3_direct.add(solver, chosen)
            log(("push", None))
            log(("assert" if branch else "assert-not", cond))
            if branch in node:
                found = walk(node[branch])
            else:
                checks += 1
                log(("check", None))
                answer = solver.check()
                found = None if answer == z3.unsat else fail(answer, None, "a branch not covered")
            z3_direct.pop(solver)
            if found is not None:
                return found
            log(("pop", None))
        return None

    found = walk(trie)
    if rec is not None:
        named = [(name, t.formula) for name, t in labelled(tracked)]
        last = "unsat" if found is None else "sat" if found.model is not None else "unknown"
        rec.write_tree(named, script, last)
    return found if found is not None else PathProof(PROVED, checks)


def symbolic_trick(enc: TrickEncoding) -> Callable[[], tuple[symbolic.Sym, ...]]:
    """A maker of the symbolic cards of the encoding's trick (``make_card`` of its
    variables: ``colour * 32 + value``)."""
    _, values, _ = enc.deck_table()
    fits = values.start >= 0 and values.stop <= 32  # then the value is the low 5 bits
    names = [(str(c), str(v)) for c, v in zip(enc.colour, enc.value, strict=True)]

    def make() -> tuple[symbolic.Sym, ...]:
        if fits:
            return tuple(symbolic.card(c, v, 5) for c, v in names)
        return tuple(symbolic.variable(c) * 32 + symbolic.variable(v) for c, v in names)

    return make


def distinct(cards: Sequence[symbolic.Sym]) -> list[Term]:
    """The facts "card i is not card j" (the deck clause: no card twice), both ways round,
    for the explorer to decide without forking (it proves them from the domain first)."""
    terms = [c.term for c in cards]
    return [make("!=", a, b) for a in terms for b in terms if a is not b]


def deck_difference(enc: TrickEncoding) -> list[str]:
    """The cards in the model's deck but not the encoding's, or the other way round."""
    colours, values, _ = enc.deck_table()
    game = enc.game
    model = set(game.ruleset.deck(game.players, game.options))
    encoded = {make_card(c, v) for c in range(colours) for v in values}
    fmt = game.ruleset.palette.format
    return [f"model only: {fmt(c)}" for c in sorted(model - encoded)] + [
        f"encoding only: {c >> 5}/{c & 31}" for c in sorted(encoded - model)
    ]


def named_answer(enc: TrickEncoding) -> tuple[dict[str, z3.ArithRef], list[Tracked]]:
    """The encoding's answer (:meth:`~TrickEncoding.answer_terms`) with each cited
    clause's term given a variable of its own, and the definitions of those variables,
    each tracked by its clause, so that the proof's background (and its SMT-LIB export,
    ``verify --smt2``) names every condition by the clause it states."""
    answer = dict(enc.outcome)
    defined: list[Tracked] = []
    for i, (name, term) in enumerate(enc.answer_terms(enc.outcome).items()):
        if name in answer:
            continue
        var = z3.Int(f"cites_{i}")
        answer[name] = var
        defined.append(Tracked(name.removeprefix(CITES), var == term))
    return answer, defined


def trick_equivalence(enc: TrickEncoding, timeout_ms: int, budget: int | None = None) -> Outcome:
    """The model's trick outcome equals the encoding's on every trick of the domain
    (at most ``budget`` paths, :func:`path_budget` by default)."""
    start = time.perf_counter()
    domain = [t.formula for t in enc.domain()]
    rules = enc.resolution(enc.outcome)
    clauses = tuple(sorted({t.clause for t in (*enc.domain(), *rules)}))
    extra = deck_difference(enc)
    if extra:
        return Outcome(
            COUNTEREXAMPLE,
            time.perf_counter() - start,
            clauses,
            {"cards": extra[:6]},
            "the model's deck is not the encoding's",
            MACHINE,
        )
    runner = plain.runner(enc)
    names = [str(x) for x in (*enc.colour, *enc.value)]
    cards = symbolic_trick(enc)
    facts = distinct(cards())
    explorer = symbolic.Explorer(domain, names, budget or path_budget(), facts)
    found = explorer.explore(lambda: runner(cards()))
    if recorder.active():  # the explorer's facts, proved from the domain: written too
        claim = z3.Not(z3.And(*[to_z3(f) for f in facts]))
        check([*enc.domain(), Tracked("claim:two-cards-alike", claim)], timeout_ms, hollow=False)
    if not found.complete:
        return Outcome(
            "pass",
            time.perf_counter() - start,
            clauses,
            detail=f"NOT PROVED: over the budget of {explorer.max_paths} paths"
            " (TRICKLAW_EQUIVALENCE_PATHS=0 proves it); the sampled agreement stands",
        )

    def leaf(path: Path, name: str) -> Any:
        return symbolic.z3_value(path.result.get(name)) if isinstance(path.result, dict) else None

    answer, defined = named_answer(enc)
    proof = prove_paths([*enc.domain(), *rules, *defined], answer, found.paths, leaf, timeout_ms)
    seconds = time.perf_counter() - start
    figures = f"{len(found.paths)} paths, {found.checks} + {proof.checks} Z3 checks"
    named = len(enc.citations())
    if named:
        figures += f"; the outcome and the {named} clauses a trick may name"
    if proof.status == PROVED:
        return Outcome(PROVED, seconds, clauses, detail=f"every trick: {figures}")
    if proof.model is None:
        return Outcome(UNKNOWN, seconds, clauses, detail=f"Z3: {proof.reason}; {figures}")
    return _witness(enc, proof, seconds, clauses, figures)


def _witness(
    enc: TrickEncoding, proof: PathProof, seconds: float, clauses: tuple[str, ...], figures: str
) -> Outcome:
    """A failed path proof, confirmed (or not) by running the model on the witness."""
    assert proof.model is not None
    model = proof.model
    witness = enc.decode(model)
    cards = tuple(
        Card(
            model.eval(c, model_completion=True).as_long() * 32
            + model.eval(v, model_completion=True).as_long()
        )
        for c, v in zip(enc.colour, enc.value, strict=True)
    )
    encoded = {k: v for k, v in witness.items() if k != "trick"}
    for name, term in enc.answer_terms(enc.outcome).items():
        encoded[name] = model.eval(term, model_completion=True).as_long()
    try:
        concrete: Any = plain.runner(enc)(cards)  # the code the executor ran
    except Exception as exc:  # the model raising on a valid trick is a disagreement
        concrete = f"raised {exc!r}"
    record = {"trick": witness["trick"], "model": concrete, "encoding": encoded}
    if concrete != encoded:
        return Outcome(
            COUNTEREXAMPLE,
            seconds,
            clauses,
            record,
            f"model and encoding disagree; {figures}",
            MACHINE,
        )
    return Outcome(
        UNKNOWN,
        seconds,
        clauses,
        record,
        f"not covered ({proof.reason}); the model agrees on the witness; {figures}",
    )


def trick_readings(ruleset: Ruleset[Any], cls: type[TrickEncoding]) -> tuple[str, ...]:
    """The options to prove every reading of: the encoding's readings and every option
    the model says can change a trick (``affects_trick``)."""
    model_side = [s.name for s in ruleset.option_specs if s.affects_trick and s.choices]
    return tuple(dict.fromkeys((*cls.readings, *model_side)))


def _bounded(enc: TrickEncoding, label: str, timeout_ms: int) -> Outcome:
    """:func:`trick_equivalence`, not attempted when a smaller table of the same reading
    and context was already over the path budget."""
    budget = path_budget()
    key = (enc.game.ruleset.id, label, repr(sorted(enc.context.items())), budget)
    over = _OVER.get(key)
    if over is not None and over < enc.game.players:
        return Outcome(
            "pass",
            0.0,
            detail=f"NOT PROVED: over the budget of {budget} paths at {over} players already"
            " (TRICKLAW_EQUIVALENCE_PATHS=0 proves it); the sampled agreement stands",
        )
    out = trick_equivalence(enc, timeout_ms, budget)
    if out.status == "pass":
        _OVER[key] = min(enc.game.players, _OVER.get(key, enc.game.players))
    return out


def reading_parts(ruleset: Ruleset[Any], chosen: Mapping[str, str]) -> list[dict[str, str]]:
    """The combinations of readings the trick proof runs over (one verify unit each)."""
    return reading_combinations(ruleset, trick_readings(ruleset, ENCODINGS[ruleset.id]), chosen)


def equivalence_results(
    ruleset: Ruleset[Any],
    players: int,
    chosen: Mapping[str, str],
    timeout_ms: int,
    *,
    progress: Callable[[str], None] = lambda _: None,
    part: int | None = None,
) -> list[Result]:
    """``equivalence-trick`` for every reading (or only the ``part``-th of
    :func:`reading_parts`) and every trick context of ``ruleset`` at ``players``: one
    result per reading, its detail summing the contexts."""
    cls = ENCODINGS[ruleset.id]
    combinations = reading_parts(ruleset, chosen)
    if part is not None:
        combinations = combinations[part : part + 1]
    out: list[Result] = []
    for readings in combinations:
        game = ruleset.make_game(players, {**chosen, **readings})
        label = ", ".join(f"{k}={v}" for k, v in readings.items()) or "default"
        progress(f"{ruleset.id} {players}p {label}: equivalence")
        with recorder.labelled(obligation="equivalence-trick", reading=label):
            outcomes = [_bounded(cls(game, ctx), label, timeout_ms) for ctx in cls.contexts(game)]
        shown = max(outcomes, key=lambda o: SEVERITY.index(o.status))
        paths = sum(path_count(o.detail) for o in outcomes)
        detail = shown.detail
        if shown.status == PROVED and len(outcomes) > 1:
            detail = f"every trick, {len(outcomes)} contexts, {paths} paths in all"
        elif len(outcomes) > 1:
            done = sum(o.status == PROVED for o in outcomes)
            detail = f"{done} of {len(outcomes)} contexts proved; worst: {detail}"
        out.append(
            Result(
                "equivalence-trick",
                ruleset.id,
                str(players),
                label,
                shown.status,
                sum(o.seconds for o in outcomes),
                tuple(sorted({c for o in outcomes for c in o.clauses})),
                detail,
                shown.witness,
                shown.machine,
                shown.dispute,
            )
        )
    return out


def path_count(detail: str) -> int:
    """The number of paths an equivalence result's ``detail`` reports (0 if none)."""
    head = detail.split(" paths", 1)[0].rsplit(" ", 1)[-1]
    return int(head) if head.isdigit() else 0
