"""What ``tricklaw verify`` runs and where: the :class:`Scope` asked for, the steps per
ruleset and player count (:data:`PLAYER_STEPS`, :data:`PARTED_STEPS`), the :class:`Unit`
each process runs (each step in a fresh Z3 context; heaviest first on a pool of workers,
lightest first under ``--fail-fast``,
:mod:`tricklaw.verify.pool`) and
:func:`collect`, which gathers every result in a fixed order."""

from __future__ import annotations

import sys
import time
import traceback
from collections.abc import Callable, Mapping
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.proofs import (
    edition_diff,
    equivalence,
    equivalence_score,
    example_constraints,
    example_legality,
    liveness_checks,
    model_held,
    model_rule_checks,
    obligations,
    rule_coverage,
    ties,
)
from tricklaw.proofs.bounds import bounds_results
from tricklaw.proofs.bounds.artifact import artifact_check
from tricklaw.proofs.findings import register_check
from tricklaw.proofs.recorder import labelled, prepare, recording, write_index
from tricklaw.proofs.results import Result, fails
from tricklaw.proofs.solver import fresh_context
from tricklaw.proofs.statuses import FAIL, INFO
from tricklaw.spec.errors import OptionError
from tricklaw.spec.proved_bounds import load_bounds
from tricklaw.verify.cache import ResultCache, StepCall
from tricklaw.verify.cache.keys import roots
from tricklaw.verify.checks import (
    example_results,
    registry_checks,
    self_check,
    shuffle_check,
    vector_results,
)
from tricklaw.verify.pool import Workers, run_each, run_until
from tricklaw.verify.wrong_logs import checker_rejects


@dataclass(frozen=True)
class Scope:
    """What ``verify`` is asked to cover: a ruleset, a player count, fixed readings; and how:
    on ``jobs`` worker processes (0: in this process), writing every solver query into
    ``smt2`` (a directory); ``setup`` is called first in each worker process (the command
    line loads the plug-ins there). ``fail_fast``: stop at the first failing row;
    ``skip``: steps left out, by name (:data:`STEP_NAMES`; see :func:`collect`)."""

    ruleset: str | None = None
    players: int | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    timeout_ms: int = 30_000
    jobs: int = 0
    smt2: str | None = None
    setup: Callable[[], object] | None = None
    fail_fast: bool = False
    skip: tuple[str, ...] = ()
    past_falls: bool = False
    """With ``fail_fast``: go on past a step that fell over (raised, :func:`guarded`),
    and stop at the first row a step reported (:meth:`stops`): the mutation harness
    asks this of a mutated model that raises in one step, to learn whether a proof or
    check fails on it."""
    cache: str | None = None
    """The result cache's folder (:mod:`tricklaw.verify.cache`), or None: compute every
    row. Not used with ``smt2`` (a cached row writes no query)."""

    def stops(self, row: Result) -> bool:
        """Whether ``row`` stops a ``fail_fast`` run: it fails, and is not a fallen
        step's row where the run goes on past those (``past_falls``)."""
        return fails(row) and not (self.past_falls and fell(row))


Step = Callable[[Ruleset[Any], int, Mapping[str, str], int], list[Result]]
"""One part of verify for a ruleset at a player count: ``(ruleset, players, the fixed
readings, time-out in ms) -> results``."""


def _bounds(ruleset: Ruleset[Any], n: int, options: Mapping[str, str], ms: int) -> list[Result]:
    proved = bounds_results(ruleset, n, ms, options)
    return [*proved, artifact_check(ruleset, n, proved, load_bounds())]


PLAYER_STEPS: tuple[tuple[str, Step], ...] = (
    ("self-check", lambda rs, n, options, ms: [self_check(rs, n, options)]),
    ("trick obligations", obligations.trick_results),
    ("equivalence of play and score", equivalence_score.merged_results),
    ("conservation", lambda rs, n, options, ms: obligations.conservation_results(rs, n, ms)),
    ("liveness", liveness_checks.results),
    ("score bounds", _bounds),
    ("declared readings", model_held.readings_results),
    ("symmetries", model_held.symmetry_results),
    ("the model in the relaxations", model_held.bound_results),
    ("round rules", model_held.round_results),
    ("the table, automatic moves and the winners", model_rule_checks.results),
    (
        "the log checker rejects wrong logs",
        lambda rs, n, options, ms: [checker_rejects(rs, n, options)],
    ),
)
"""What verify runs for each ruleset and player count, in this order: the one place to
add a step."""


@dataclass(frozen=True)
class PartedStep:
    """A step for each ruleset and player count that is split into independent parts
    (one :class:`Unit` each), so that the largest tables' work spreads over the workers:
    ``parts(ruleset, fixed readings)`` is the number of parts, and ``run`` is a
    :data:`Step` with the part's index last."""

    name: str
    parts: Callable[[Ruleset[Any], Mapping[str, str]], int]
    run: Callable[[Ruleset[Any], int, Mapping[str, str], int, int], list[Result]]


PARTED_STEPS: tuple[PartedStep, ...] = (
    PartedStep(
        "equivalence",
        lambda rs, options: len(equivalence.reading_parts(rs, options)),
        lambda rs, n, options, ms, part: equivalence.equivalence_results(
            rs, n, options, ms, part=part
        ),
    ),
)
"""The steps run part by part, after :data:`PLAYER_STEPS` (the model = clauses proofs:
one part per combination of readings)."""

PARTED_NAMES = frozenset(step.name for step in PARTED_STEPS)
"""The names of :data:`PARTED_STEPS`."""


RulesetCheck = Callable[[Scope, Ruleset[Any], Mapping[str, str]], list[Result]]
"""One of a ruleset's own checks: ``(scope, ruleset, the fixed readings) -> results``."""


def _counts(scope: Scope, ruleset: Ruleset[Any]) -> list[int]:
    return [n for n in ruleset.player_counts if scope.players in (None, n)]


@dataclass(frozen=True)
class RulesetStep:
    """One of a ruleset's own checks: its name, the call, and what it reads of the
    :class:`Scope` beyond the ruleset, its fixed readings and the time-out (``reads``,
    part of its key in the result cache)."""

    name: str
    run: RulesetCheck
    reads: Callable[[Scope, Ruleset[Any]], dict[str, Any]] = lambda scope, ruleset: {}


RULESET_STEPS: tuple[RulesetStep, ...] = (
    RulesetStep("registry", lambda scope, rs, options: registry_checks(rs)),
    RulesetStep("worked examples", lambda scope, rs, options: example_results(rs)),
    RulesetStep(
        "example-z3",
        lambda scope, rs, options: example_constraints.example_results(rs, scope.timeout_ms),
    ),
    RulesetStep(
        "example-legality",
        lambda scope, rs, options: example_legality.sequence_results(rs, scope.timeout_ms),
    ),
    RulesetStep(
        "ties",
        lambda scope, rs, options: ties.ties(
            rs, _counts(scope, rs), options, scope.timeout_ms, complete=_whole(scope)
        ),
        lambda scope, rs: {"players": _counts(scope, rs), "whole": _whole(scope)},
    ),
    RulesetStep("vectors", lambda scope, rs, options: vector_results(rs)),
)
"""A ruleset's own checks over all its player counts, in the order they run: the
registry, the worked examples (by the model, by Z3 on the trick rule and by a Z3 search
for legal hands), the tie and gap detector (which reads the player counts asked for and
whether the run is whole) and the published conformance vectors."""

RULESET_CHECKS = tuple(step.name for step in RULESET_STEPS)
"""The names of a ruleset's own checks, in the order they run."""


def _whole(scope: Scope) -> bool:
    """Whether ``scope`` asks for every player count under every reading."""
    return scope.players is None and not scope.options


@dataclass(frozen=True)
class Unit:
    """The work of one process: a ruleset's own checks (``players`` None), the
    :data:`PLAYER_STEPS` of a ruleset at one player count, one part of a
    :data:`PARTED_STEPS` step there (``step``, ``part``), or (``ruleset`` empty) the
    edition diff of every family among the rulesets in scope. Under ``--fail-fast``
    a unit is one step (``step`` names one of :data:`RULESET_CHECKS` or
    :data:`PLAYER_STEPS`), so that a quick step of every table runs before the slow
    proofs of any (:func:`fail_fast_units`)."""

    ruleset: str
    players: int | None
    step: str = ""
    part: int = 0

    @property
    def weight(self) -> int:
        """A rough, fixed order of cost (work grows steeply with the table): the
        workers start the heaviest units first."""
        if not self.ruleset:  # the edition diff: about as heavy as a 4-player table
            return 8**4
        players = self.players or 0
        weight: int = 8**players * (4 if self.step else 1)
        return weight

    @property
    def rank(self) -> tuple[int, int]:
        """Where ``--fail-fast`` runs this unit: its step's place in
        :data:`FAIL_FAST_ORDER`, then the player count (smallest table first)."""
        step = self.step if self.ruleset else EDITION_DIFF
        return FAIL_FAST_ORDER.index(step), self.players or 0


EDITIONS = Unit("", None)
"""The unit that compares the editions of each game family (see
:mod:`~tricklaw.proofs.edition_diff`)."""
EDITION_DIFF = "edition diff"
"""The name of the :data:`EDITIONS` step."""

STEP_NAMES = (
    EDITION_DIFF,
    *RULESET_CHECKS,
    *(name for name, _ in PLAYER_STEPS),
    *(step.name for step in PARTED_STEPS),
)
"""Every step's name: what ``--skip`` may name."""

FAIL_FAST_ORDER = (
    "registry",
    "worked examples",
    "example-z3",
    "self-check",
    "the log checker rejects wrong logs",
    "conservation",
    "round rules",
    "the table, automatic moves and the winners",
    "declared readings",
    "the model in the relaxations",
    "liveness",
    "ties",
    "vectors",
    "example-legality",
    "score bounds",
    "equivalence of play and score",
    "trick obligations",
    "symmetries",
    EDITION_DIFF,
    *(step.name for step in PARTED_STEPS),
)
"""The order of the steps under ``--fail-fast``, step by step over every table: the
checks that take well under a second a table first, then those of a few seconds (the
self-check early: it plays every reading's games through the model, and finds most
planted bugs), the model = clauses proofs last. Measured on Hund and Sticheln 1993, one
process (the steps' seconds at 3 players: self-check 1.5-3.3, ties 3.4-5.1, trick
obligations 0.7-8.7, symmetries 1.1-4.1; conservation, round rules, the table's rules
0.1-0.3). It only orders the work: the rows, and whether verify fails, are the same in
every order."""


def _units(scope: Scope, rulesets: list[Ruleset[Any]]) -> list[Unit]:
    """The units of ``scope``, in the order of their rows: per ruleset its own checks,
    then per player count its steps and the parts of the parted ones (one unit per step
    under ``scope.fail_fast``, :func:`fail_fast_units`)."""
    out = []
    for ruleset in rulesets:
        out += fail_fast_units(scope, Unit(ruleset.id, None))
        options = _fixed(scope, ruleset)
        for n in ruleset.player_counts:
            if scope.players not in (None, n):
                continue
            out += fail_fast_units(scope, Unit(ruleset.id, n))
            for step in (s for s in PARTED_STEPS if s.name not in scope.skip):
                out += [
                    Unit(ruleset.id, n, step.name, k) for k in range(step.parts(ruleset, options))
                ]
    return out if EDITION_DIFF in scope.skip else [EDITIONS, *out]


def fail_fast_units(scope: Scope, unit: Unit) -> list[Unit]:
    """``unit`` (a ruleset's own checks, or its steps at a player count) as one unit per
    step not skipped under ``scope.fail_fast``, else itself. Each step runs in a fresh Z3
    context either way (as each unit runs it), so a step's rows are the same alone or in
    its table's unit."""
    if not scope.fail_fast:
        return [unit]
    names = RULESET_CHECKS if unit.players is None else [name for name, _ in PLAYER_STEPS]
    return [replace(unit, step=name) for name in names if name not in scope.skip]


def _fixed(scope: Scope, ruleset: Ruleset[Any]) -> dict[str, str]:
    """The readings ``scope`` fixes that are options of ``ruleset``."""
    return {k: v for k, v in scope.options.items() if k in {s.name for s in ruleset.option_specs}}


def fell(row: Result) -> bool:
    """Whether ``row`` is a step that fell over (:func:`guarded`'s row, with the
    traceback)."""
    return isinstance(row.witness, dict) and "traceback" in row.witness


def guarded(
    name: str, ruleset: str, players: int | None, call: Callable[[], list[Result]]
) -> list[Result]:
    """``call()``'s results; if it raises, one ``fail`` row for the step ``name`` instead,
    naming the exception and where it was raised (``witness``: ``exception``, ``frame``
    and the ``traceback``), so that one step falling over (a model that crashes on an
    input the step gave it, or a check that raises) fails verify with a report of every
    other step, rather than ending it. That includes :class:`OptionError`: the options
    the user fixed are checked before any step runs (:func:`collect`), so a step that
    meets one has had the model refuse an input the step made from the clauses (a
    designation card, a reading), a finding, not the user's error."""
    start = time.perf_counter()
    try:
        return call()
    except Exception as exc:  # any fall is reported as the step's failure
        frames = traceback.extract_tb(exc.__traceback__)
        frame = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else ""
        what = f"{type(exc).__name__}: {exc}"
        return [
            Result(
                name,
                ruleset,
                str(players or ""),
                "",
                FAIL,
                round(time.perf_counter() - start, 3),
                detail=f"the step stopped: {what} (at {frame})"[:400],
                witness={
                    "exception": what[:400],
                    "frame": frame,
                    "traceback": _clipped("".join(traceback.format_exception(exc))),
                },
            )
        ]


TRACEBACK_CHARS = 4000
"""How much of a fallen step's traceback its row keeps: the innermost frames."""


def _clipped(text: str) -> str:
    """A traceback cut to its last :data:`TRACEBACK_CHARS` characters, its first line
    (``Traceback (most recent call last):``) kept, so that it still reads as one."""
    if len(text) <= TRACEBACK_CHARS:
        return text
    head = text.splitlines(keepends=True)[0]
    tail = text[-TRACEBACK_CHARS:]
    return head + "  ...\n" + tail[tail.find("\n") + 1 :]


@dataclass(frozen=True)
class UnitStep:
    """One step of a unit, ready to run: its ``name`` (what ``--skip`` names), the
    ``label`` its solver queries are filed under, where its rows belong, what to say
    when it starts, the call, and the step as the result cache keys it (``cached``)."""

    name: str
    label: str
    ruleset: str
    players: int | None
    says: str
    run: Callable[[], list[Result]]
    cached: StepCall


def _unit_steps(scope: Scope, unit: Unit) -> list[UnitStep]:
    """The steps of ``unit`` that ``scope`` asks for, in the order of their rows."""
    ms = scope.timeout_ms
    if unit == EDITIONS:
        rulesets = [get_ruleset(scope.ruleset)] if scope.ruleset else list(RULESETS.values())
        ids = tuple(r.id for r in rulesets)
        args: dict[str, Any] = {"rulesets": ids, "players": scope.players, "timeout_ms": ms}
        return [
            UnitStep(
                EDITION_DIFF,
                "edition-diff",
                "",
                None,
                "edition diff",
                lambda: edition_diff.diff_results(rulesets, scope.players, ms),
                StepCall(EDITION_DIFF, args, ids, (edition_diff.diff_results,)),
            )
        ]
    ruleset = get_ruleset(unit.ruleset)
    options = _fixed(scope, ruleset)
    games = (ruleset.id,)
    parted = {s.name: s for s in PARTED_STEPS}
    n = unit.players
    if unit.step in parted and n is not None:
        part = parted[unit.step]
        args = {"ruleset": ruleset.id, "players": n, "options": options, "timeout_ms": ms}
        return [
            UnitStep(
                part.name,
                part.name,
                ruleset.id,
                n,
                f"{ruleset.id} {n}p: {part.name} part {unit.part + 1}",
                partial(part.run, ruleset, n, options, ms, unit.part),
                StepCall(part.name, args | {"part": unit.part}, games, (part.run,)),
            )
        ]
    if n is None:
        args = {"ruleset": ruleset.id, "options": options, "timeout_ms": ms}
        return [
            UnitStep(
                name,
                name,
                ruleset.id,
                None,
                f"{ruleset.id}: {name}",
                partial(check.run, scope, ruleset, options),
                StepCall(name, args | check.reads(scope, ruleset), games, (check.run,)),
            )
            for name, check in ((c.name, c) for c in RULESET_STEPS)
            if name not in scope.skip and unit.step in ("", name)
        ]
    args = {"ruleset": ruleset.id, "players": n, "options": options, "timeout_ms": ms}
    return [
        UnitStep(
            name,
            name,
            ruleset.id,
            n,
            f"{ruleset.id} {n}p: {name}",
            partial(step, ruleset, n, options, ms),
            StepCall(name, args, games, (step,)),
        )
        for name, step in PLAYER_STEPS
        if name not in scope.skip and unit.step in ("", name)
    ]


StepRows = list[tuple[str, list[Result]]]
"""A unit's rows, step by step (the step's name, its rows)."""


def _run_steps(
    scope: Scope,
    unit: Unit,
    progress: Callable[[str], None] = lambda _: None,
    skip: frozenset[str] = frozenset(),
) -> tuple[StepRows, list[dict[str, Any]]]:
    """The rows of ``unit``'s steps but those in ``skip`` (taken from the cache), each
    step guarded (:func:`guarded`) and run in a fresh Z3 context, with ``scope.fail_fast``
    up to the first that fails; and the SMT-LIB files it wrote (with ``scope.smt2``)."""
    out: StepRows = []
    with ExitStack() as stack:
        recorder = stack.enter_context(recording(Path(scope.smt2))) if scope.smt2 else None
        stack.enter_context(labelled(ruleset=unit.ruleset, players=str(unit.players or "")))
        stack.enter_context(fresh_context())
        for step in _unit_steps(scope, unit):
            if step.name in skip:
                continue
            progress(step.says)
            # the steps name their own queries better; a fresh context per step
            with labelled(obligation=step.label), fresh_context():
                out.append((step.name, guarded(step.name, step.ruleset, step.players, step.run)))
            if scope.fail_fast and any(map(scope.stops, out[-1][1])):
                break
    return out, recorder.entries if recorder else []


def _run_unit(
    scope: Scope, unit: Unit, progress: Callable[[str], None] = lambda _: None
) -> tuple[list[Result], list[dict[str, Any]]]:
    """The results of ``unit``, and the SMT-LIB files it wrote (with ``scope.smt2``)."""
    rows, entries = _run_steps(scope, unit, progress)
    return [r for _, step in rows for r in step], entries


Job = tuple[Unit, frozenset[str]]
"""A unit to run and the steps of it to leave out (their rows come from the cache)."""


def _run_job(scope: Scope, job: Job) -> tuple[StepRows, list[dict[str, Any]]]:
    """:func:`_run_steps` of one :data:`Job` (a worker's task)."""
    unit, skip = job
    return _run_steps(scope, unit, skip=skip)


Outputs = tuple[list[Result], list[dict[str, Any]]]
"""What a unit gives: its results and the SMT-LIB files it wrote."""


def _workers(scope: Scope) -> Workers:
    """The worker processes of ``scope`` (:mod:`tricklaw.verify.pool`)."""
    return Workers(scope.jobs, scope.setup, "tricklaw.verify")


def _lost(unit: Unit, exc: BrokenProcessPool) -> Outputs:
    """The outputs of a unit whose pool broke (a worker was killed from outside, as the
    system does to a process that takes all the memory, and the pool then fails every
    unit not done): one ``fail`` row for the unit, instead of ending verify with no
    report: its rows are missing."""
    row = Result(
        "worker",
        unit.ruleset,
        str(unit.players or ""),
        unit.step,
        FAIL,
        0.0,
        detail="the worker pool broke while this unit ran or waited (a worker was "
        "killed from outside: out of memory, or a signal); its rows are missing",
        witness={"exception": f"{type(exc).__name__}: {exc}"[:400]},
    )
    return [row], []


def _failed(scope: Scope, outputs: Outputs) -> bool:
    """Whether a unit's outputs have a row that stops ``scope`` (:meth:`Scope.stops`)."""
    return any(map(scope.stops, outputs[0]))


@dataclass
class Plan:
    """What the run does with each unit: the key of each of its steps in the result
    cache (None: not cached), and the rows found there. A unit whose every step was found
    is not run at all."""

    scope: Scope
    cache: ResultCache | None
    keys: dict[Unit, list[tuple[str, str | None]]] = field(default_factory=dict)
    found: dict[Unit, dict[str, list[Result]]] = field(default_factory=dict)

    def look_up(self, units: list[Unit]) -> None:
        """Look every step of ``units`` up in the cache."""
        if self.cache is None:
            return
        for unit in units:
            steps = _unit_steps(self.scope, unit)
            keys = [(s.name, self.cache.key(s.cached)) for s in steps]
            self.keys[unit] = keys
            found = {name: self.cache.get(key) for name, key in keys}
            self.found[unit] = {name: rows for name, rows in found.items() if rows is not None}

    def whole(self, unit: Unit) -> bool:
        """Whether every step of ``unit`` was found in the cache."""
        return unit in self.keys and len(self.found[unit]) == len(self.keys[unit])

    def job(self, unit: Unit) -> Job:
        """``unit``, and the steps of it found in the cache (the worker leaves them out)."""
        return unit, frozenset(self.found.get(unit, {}))

    def outputs(self, unit: Unit, ran: tuple[StepRows, list[dict[str, Any]]]) -> Outputs:
        """``unit``'s rows in the order of its steps, from the cache or from ``ran``
        (keeping those for the cache), up to the first step that stops a ``fail_fast``
        run."""
        computed, entries = ran
        if unit not in self.keys:  # not planned: as it ran
            return [r for _, rows in computed for r in rows], entries
        by_name = dict(computed)
        found = self.found[unit]
        results: list[Result] = []
        for name, key in self.keys[unit]:
            rows = found.get(name)
            if rows is None:
                rows = by_name.get(name)
                if rows is None:  # not run: the run stopped before it
                    break
                if self.cache is not None:
                    self.cache.keep(key, rows)
            results += rows
            if self.scope.fail_fast and any(map(self.scope.stops, rows)):
                break
        return results, entries


@dataclass
class Finished:
    """Says, as each unit finishes, which it was and how many of ``total`` are done
    (``say``: one line each), and whether its rows came from the cache."""

    say: Callable[[str], None]
    total: int
    plan: Plan
    count: int = 0
    start: float = field(default_factory=time.perf_counter)

    def __call__(self, unit: Unit) -> None:
        self.count += 1
        where = f"{unit.ruleset or 'editions'} {f'{unit.players}p' if unit.players else ''}"
        what = f" {unit.step}" + (f" part {unit.part + 1}" if unit.step in PARTED_NAMES else "")
        found = len(self.plan.found.get(unit, ()))
        steps = len(self.plan.keys.get(unit, ()))
        cached = ""
        if found:
            cached = ", from the cache" if found == steps else f", {found} of {steps} steps cached"
        seconds = time.perf_counter() - self.start
        self.say(
            f"[{self.count}/{self.total}] {where.strip()}{what if unit.step else ''}: done "
            f"at {seconds:.1f}s{cached}"
        )


def _run_units(
    scope: Scope,
    units: list[Unit],
    progress: Callable[[str], None],
    plan: Plan,
    finished: Finished,
) -> list[Outputs]:
    """Every unit's outputs, in the order of ``units``: those found whole in the cache
    (``plan``) at once, the others run; with ``scope.jobs`` workers
    (:func:`~tricklaw.verify.pool.run_each`), the heaviest units start first."""
    done: dict[Unit, Outputs] = {}
    for unit in units:
        if plan.whole(unit):
            done[unit] = plan.outputs(unit, ([], []))
            finished(unit)
    todo = [unit for unit in units if unit not in done]
    if scope.jobs < 1 or not todo:
        for unit in todo:
            done[unit] = plan.outputs(unit, _run_steps(scope, unit, progress, plan.job(unit)[1]))
            finished(unit)
        return [done[unit] for unit in units]
    heaviest = sorted(todo, key=lambda u: -u.weight)  # stable: ties keep their order
    ran = run_each(
        _workers(scope),
        partial(_run_job, scope),
        [plan.job(u) for u in heaviest],
        _lost_job,
        done=lambda job: finished(job[0]),
    )
    done.update({job[0]: plan.outputs(job[0], out) for job, out in ran.items()})
    return [done[unit] for unit in units]


def _lost_job(job: Job, exc: BrokenProcessPool) -> tuple[StepRows, list[dict[str, Any]]]:
    """:func:`_lost` for a :data:`Job`: the unit's one ``fail`` row, as a step's."""
    rows, entries = _lost(job[0], exc)
    return [("worker", rows)], entries


def _run_until_failure(
    scope: Scope,
    units: list[Unit],
    progress: Callable[[str], None],
    plan: Plan,
    finished: Finished,
) -> dict[Unit, Outputs]:
    """``--fail-fast``: the units (one step each) run step by step over every table, in
    the order :data:`FAIL_FAST_ORDER` (:attr:`Unit.rank`), and the run stops as soon as
    a finished unit has a failing row: units not yet started are not run, and running
    ones are stopped (:func:`~tricklaw.verify.pool.run_until`). The outputs of the units
    that finished, by unit (those found whole in the cache first: a failing one among
    them stops the run before any other starts)."""
    lightest = sorted(units, key=lambda u: u.rank)  # stable: ties keep their order
    done: dict[Unit, Outputs] = {}
    for unit in lightest:
        if plan.whole(unit):
            done[unit] = plan.outputs(unit, ([], []))
            finished(unit)
            if _failed(scope, done[unit]):
                return done
    todo = [unit for unit in lightest if unit not in done]
    if scope.jobs >= 1 and todo:
        ran = run_until(
            _workers(scope),
            partial(_run_job, scope),
            [plan.job(u) for u in todo],
            _lost_job,
            failed=lambda out: any(scope.stops(r) for _, rows in out[0] for r in rows),
            done=lambda job: finished(job[0]),
        )
        done.update({job[0]: plan.outputs(job[0], out) for job, out in ran.items()})
        return done
    for unit in todo:
        done[unit] = plan.outputs(unit, _run_steps(scope, unit, progress, plan.job(unit)[1]))
        finished(unit)
        if _failed(scope, done[unit]):
            break
    return done


def _check_selection(scope: Scope, rulesets: list[Ruleset[Any]]) -> None:
    """Refuse a selection that matches no configuration (a run that would check nothing
    for any player count yet pass): a player count no ruleset has, an option no ruleset
    knows. Raises :class:`OptionError` naming the valid choices."""
    if scope.players is not None and not any(scope.players in r.player_counts for r in rulesets):
        counts = sorted({n for r in rulesets for n in r.player_counts})
        raise OptionError(
            f"--players {scope.players} matches no ruleset (player counts: "
            f"{', '.join(map(str, counts))})"
        )
    for name in scope.skip:
        if name not in STEP_NAMES:
            raise OptionError(f"--skip {name!r}: no such step (steps: {', '.join(STEP_NAMES)})")
    known = {s.name for r in rulesets for s in r.option_specs}
    for name in scope.options:
        if name not in known:
            raise OptionError(
                f"unknown option {name!r}: no ruleset has it (options: {', '.join(sorted(known))})"
            )


def collect(
    scope: Scope,
    progress: Callable[[str], None] = lambda _: None,
    finished: Callable[[str], None] | None = None,
) -> list[Result]:
    """Every check and proof in ``scope``, in a fixed order. ``progress`` is told what
    starts (in this process) and ``finished`` (default ``progress``) each unit that
    finishes, in one line.

    With ``scope.fail_fast`` the run stops at the first failure
    (``_run_until_failure``): it fails exactly when the whole run would (a run with
    no failure runs everything and gives the same rows), but which rows a failing run
    has then depends on timing; a ``fail-fast`` row says how many units did not finish,
    and the checks of completeness (every detector made a finding, every rule is
    covered) judge it as a partial run. The steps ``scope.skip`` names are left out: a
    ``skipped`` row names them, and the run is partial too."""
    rulesets = [get_ruleset(scope.ruleset)] if scope.ruleset else list(RULESETS.values())
    for ruleset in rulesets:
        known = {s.name for s in ruleset.option_specs}
        unknown = [k for k in scope.options if k not in known]
        if unknown and scope.ruleset:
            raise OptionError(f"{ruleset.id}: unknown option {unknown[0]!r}")
        if scope.ruleset and scope.players is not None:
            ruleset.make_game(scope.players)  # a bad count raises the usual one-line error
    _check_selection(scope, rulesets)
    for ruleset in rulesets:  # a bad option value raises its one-line error here, not in a step
        for n in ruleset.player_counts:
            if scope.players in (None, n):
                ruleset.make_game(n, _fixed(scope, ruleset))
    directory = prepare(scope.smt2) if scope.smt2 else None
    progress("shuffle vectors")
    results = guarded("shuffle-vectors", "all", None, lambda: [shuffle_check()])
    entries: list[dict[str, Any]] = []
    units = _units(scope, rulesets)
    plan = Plan(scope, _open_cache(scope))
    plan.look_up(units)
    said = Finished(finished or progress, len(units), plan)
    if scope.fail_fast:
        failed = any(map(scope.stops, results))
        done = {} if failed else _run_until_failure(scope, units, progress, plan, said)
        outputs = [done[unit] for unit in units if unit in done]
    else:
        outputs = _run_units(scope, units, progress, plan, said)
    if plan.cache is not None:
        try:
            plan.cache.close()
        except OSError as exc:  # the rows are right; only keeping them failed
            print(
                f"tricklaw: verify: note: the result cache could not be written "
                f"({exc.strerror or exc}): no rows of this run were kept",
                file=sys.stderr,
            )
    for unit_results, unit_entries in outputs:
        results += unit_results
        entries += unit_entries
    if directory is not None:
        write_index(directory, entries)
    stopped = scope.fail_fast and any(map(scope.stops, results))
    complete = scope.players is None and not scope.options and not stopped and not scope.skip
    if stopped:
        left = len(units) - len(outputs)
        results.append(
            _info_row(
                scope,
                "fail-fast",
                f"stopped at the first failure: {left} of {len(units)} units (a step of a "
                "table each) did not finish (run without --fail-fast for every row)",
            )
        )
    if scope.skip:
        skipped = f"left out by --skip: {', '.join(scope.skip)} (a partial run)"
        results.append(_info_row(scope, "skipped", skipped))
    results += [register_check(r.id, results, complete) for r in rulesets]
    results += rule_coverage.coverage_results(rulesets, results, complete)
    return results


def _open_cache(scope: Scope) -> ResultCache | None:
    """The result cache ``scope`` asks for (None without one, and with ``smt2``: a row
    from the cache writes no query)."""
    if scope.cache is None or scope.smt2:
        return None
    # every step runs in a fresh context, labelled, guarded, and is given its games'
    # rulesets from the model's registry (so their modules are in its closure)
    shared = {fresh_context.__module__, labelled.__module__, get_ruleset.__module__}
    return ResultCache(Path(scope.cache), __name__, sorted(shared | roots(guarded, __name__)))


def _info_row(scope: Scope, name: str, detail: str) -> Result:
    """An ``info`` row of the run itself (``fail-fast``, ``skipped``): what the run left
    out, so that a partial run says so."""
    return Result(name, scope.ruleset or "", str(scope.players or ""), "", INFO, 0.0, detail=detail)
