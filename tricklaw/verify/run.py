"""What ``tricklaw verify`` runs and where: the :class:`Scope` asked for, the steps per
ruleset and player count (:data:`PLAYER_STEPS`, :data:`PARTED_STEPS`), the :class:`Unit`
each process runs (each step in a fresh Z3 context; heaviest first on a pool of workers,
lightest first under ``--fail-fast``,
:mod:`tricklaw.verify.pool`) and
:func:`collect`, which gathers every result in a fixed order."""

from __future__ import annotations

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
from tricklaw.proofs.obligations import Result, fails
from tricklaw.proofs.recorder import labelled, prepare, recording, write_index
from tricklaw.proofs.solver import fresh_context
from tricklaw.proofs.statuses import FAIL, INFO
from tricklaw.spec.errors import OptionError
from tricklaw.spec.proved_bounds import load_bounds
from tricklaw.verify.checks import (
    example_results,
    registry_checks,
    self_check,
    shuffle_check,
    vector_results,
)
from tricklaw.verify.pool import Workers, run_each, run_until


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

RULESET_CHECKS = (
    "registry",
    "worked examples",
    "example-z3",
    "example-legality",
    "ties",
    "vectors",
)
"""The names of a ruleset's own checks, in the order they run (``_ruleset_checks``)."""

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


def _ruleset_checks(
    scope: Scope, ruleset: Ruleset[Any], options: Mapping[str, str], only: str = ""
) -> list[Result]:
    """A ruleset's checks over all its player counts (``only``: that one), each guarded
    on its own (:func:`guarded`) and in a fresh Z3 context: the registry, the worked
    examples (by the model, by Z3 on the trick rule and by a Z3 search for legal hands),
    the tie and gap detector and the published conformance vectors (with
    ``scope.fail_fast``, up to the first that fails)."""
    counts = [n for n in ruleset.player_counts if scope.players in (None, n)]
    whole = scope.players is None and not scope.options
    ms = scope.timeout_ms
    parts: tuple[Callable[[], list[Result]], ...] = (
        lambda: registry_checks(ruleset),
        lambda: example_results(ruleset),
        lambda: example_constraints.example_results(ruleset, ms),
        lambda: example_legality.sequence_results(ruleset, ms),
        lambda: ties.ties(ruleset, counts, options, ms, complete=whole),
        lambda: vector_results(ruleset),
    )
    results: list[Result] = []
    for name, call in zip(RULESET_CHECKS, parts, strict=True):
        if name in scope.skip or only not in ("", name):
            continue
        with labelled(obligation=name), fresh_context():
            results += guarded(name, ruleset.id, None, call)
        if scope.fail_fast and any(map(scope.stops, results)):
            break
    return results


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


def _run_unit(
    scope: Scope, unit: Unit, progress: Callable[[str], None] = lambda _: None
) -> tuple[list[Result], list[dict[str, Any]]]:
    """The results of ``unit``, and the SMT-LIB files it wrote (with ``scope.smt2``)."""
    with ExitStack() as stack:
        recorder = stack.enter_context(recording(Path(scope.smt2))) if scope.smt2 else None
        stack.enter_context(labelled(ruleset=unit.ruleset, players=str(unit.players or "")))
        stack.enter_context(fresh_context())
        if unit == EDITIONS:
            progress("edition diff")
            rulesets = [get_ruleset(scope.ruleset)] if scope.ruleset else list(RULESETS.values())
            with labelled(obligation="edition-diff"):
                results = guarded(
                    EDITION_DIFF,
                    "",
                    None,
                    lambda: edition_diff.diff_results(rulesets, scope.players, scope.timeout_ms),
                )
            return results, recorder.entries if recorder else []
        ruleset = get_ruleset(unit.ruleset)
        options = _fixed(scope, ruleset)
        parted_names = [s.name for s in PARTED_STEPS]
        if unit.step in parted_names:
            parted = PARTED_STEPS[parted_names.index(unit.step)]
            progress(f"{ruleset.id} {unit.players}p: {parted.name} part {unit.part + 1}")
            with labelled(obligation=parted.name):
                n = unit.players
                assert n is not None
                results = guarded(
                    parted.name,
                    ruleset.id,
                    n,
                    lambda: parted.run(ruleset, n, options, scope.timeout_ms, unit.part),
                )
        elif unit.players is None:
            progress(f"{ruleset.id}: {unit.step or 'registry, worked examples, ties'}")
            results = _ruleset_checks(scope, ruleset, options, unit.step)
        else:
            results = []
            for name, step in PLAYER_STEPS:
                if name in scope.skip or unit.step not in ("", name):
                    continue
                progress(f"{ruleset.id} {unit.players}p: {name}")
                # the steps name their own queries better; a fresh context per step
                with labelled(obligation=name), fresh_context():
                    call = partial(step, ruleset, unit.players, options, scope.timeout_ms)
                    results += guarded(name, ruleset.id, unit.players, call)
                if scope.fail_fast and any(map(scope.stops, results)):
                    break
    return results, recorder.entries if recorder else []


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


def _finished(progress: Callable[[str], None], unit: Unit) -> None:
    """Say that ``unit`` is done."""
    progress(f"{unit.ruleset} {unit.players or ''}: done")


def _run_units(scope: Scope, units: list[Unit], progress: Callable[[str], None]) -> list[Outputs]:
    """Every unit's outputs, in the order of ``units``; with ``scope.jobs`` workers
    (:func:`~tricklaw.verify.pool.run_each`), the heaviest units start first."""
    if scope.jobs < 1:
        return [_run_unit(scope, unit, progress) for unit in units]
    heaviest = sorted(units, key=lambda u: -u.weight)  # stable: ties keep their order
    work = partial(_run_unit, scope)
    done = run_each(_workers(scope), work, heaviest, _lost, done=partial(_finished, progress))
    return [done[unit] for unit in units]


def _run_until_failure(
    scope: Scope, units: list[Unit], progress: Callable[[str], None]
) -> dict[Unit, Outputs]:
    """``--fail-fast``: the units (one step each) run step by step over every table, in
    the order :data:`FAIL_FAST_ORDER` (:attr:`Unit.rank`), and the run stops as soon as
    a finished unit has a failing row: units not yet started are not run, and running
    ones are stopped (:func:`~tricklaw.verify.pool.run_until`). The outputs of the units
    that finished, by unit."""
    lightest = sorted(units, key=lambda u: u.rank)  # stable: ties keep their order
    if scope.jobs >= 1:
        work = partial(_run_unit, scope)
        finished = partial(_finished, progress)
        failed = partial(_failed, scope)
        return run_until(_workers(scope), work, lightest, _lost, failed=failed, done=finished)
    done: dict[Unit, Outputs] = {}
    for unit in lightest:
        done[unit] = _run_unit(scope, unit, progress)
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


def collect(scope: Scope, progress: Callable[[str], None] = lambda _: None) -> list[Result]:
    """Every check and proof in ``scope``, in a fixed order.

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
    if scope.fail_fast:
        failed = any(map(scope.stops, results))
        done = {} if failed else _run_until_failure(scope, units, progress)
        outputs = [done[unit] for unit in units if unit in done]
    else:
        outputs = _run_units(scope, units, progress)
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


def _info_row(scope: Scope, name: str, detail: str) -> Result:
    """An ``info`` row of the run itself (``fail-fast``, ``skipped``): what the run left
    out, so that a partial run says so."""
    return Result(name, scope.ruleset or "", str(scope.players or ""), "", INFO, 0.0, detail=detail)
