"""``tricklaw verify``: run every check and report each one.

For each ruleset (every player count, every reading where it matters):

* ``registry``: the clause registry loads and validates (ids, kinds, line
  ranges against ``spec/sources.toml``);
* ``model-cites-spec``: every clause id the model cites exists;
* ``options-are-disputes``: each dispute option of the model is a dispute in
  the registry with the same readings and default, and vice versa;
* ``example ID``: each worked example holds exactly under the readings
  its data names (see :mod:`tricklaw.proofs.examples`);
* ``shuffle-vectors``: SplitMix64 gives the published reference outputs and
  the shuffle and deals give ``spec/shuffle-vectors.json``;
* ``self-check``: sampled random games per player count keep every invariant
  after every action (:mod:`tricklaw.model.invariants`), replay from their
  JSON record to the same state, repeat exactly from the same seed, and score
  every round as recomputed from the tricks' cards;
* ``bounds-artifact``: the score bounds proved here are those checked in
  (``spec/bounds/v1.json``, :mod:`tricklaw.proofs.bounds.artifact`), readings and
  witnesses included.

the worked tricks as Z3 constraints (:mod:`tricklaw.proofs.example_constraints`),
and the Z3 obligations of :mod:`tricklaw.proofs.obligations` (trick rules,
model-encoding agreement, card conservation) and the score bounds of
:mod:`tricklaw.proofs.bounds` under every reading that can change them
(:mod:`tricklaw.proofs.bounds.readings`; each proved on a sound relaxation and met by
a witness the model replays).

Each row has one of the statuses of :data:`~tricklaw.proofs.statuses.STATUSES`
(``proved``, ``pass``, ``info``, ``finding``, ``trivial``, ``vacuous``, ``unknown``,
``counterexample``, ``fail``), listed with their meanings at the head of the report and
in ``tricklaw verify --help``. ``proved`` is a theorem about the rules: an unsat whose
premises are satisfiable and whose claim is not true on its own (else ``vacuous`` or
``trivial``, :func:`~tricklaw.proofs.solver.classify`). The command exits 1 if any row
fails (:func:`~tricklaw.proofs.obligations.fails`): a failed check, a counterexample,
an unknown (a time-out is never counted as proved), or a vacuous or trivial row that
its ruleset does not document as expected. The summary counts every status, then what
passed apart from the findings, the informational rows and the documented hollow ones.

Each ruleset's own checks, and each (ruleset, player count) (:data:`PLAYER_STEPS`, the
one list of per-table steps), is a :class:`Unit`, run in a fresh Z3 context
(:func:`~tricklaw.proofs.solver.fresh_context`) and, with ``--jobs N``, in a pool of
``N`` worker processes; the results keep their order, and are the same for every ``N``.
With ``--smt2 DIR`` every solver query is written as an SMT-LIB 2 file
(:mod:`tricklaw.proofs.recorder`) for a second solver to check again.
"""

from __future__ import annotations

import json
import multiprocessing
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from tricklaw.model.agents import random_states
from tricklaw.model.invariants import violations
from tricklaw.model.record import to_record
from tricklaw.model.replay.records import replay
from tricklaw.model.rng import SplitMix64, round_seed, shuffled
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.model.state import Game, State
from tricklaw.proofs import (
    edition_diff,
    equivalence,
    equivalence_score,
    example_constraints,
    example_legality,
    liveness_checks,
    model_held,
    obligations,
    rule_coverage,
    ties,
)
from tricklaw.proofs.bounds import bounds_results, not_varied
from tricklaw.proofs.bounds.artifact import artifact_check
from tricklaw.proofs.examples import check_examples
from tricklaw.proofs.findings import register_check
from tricklaw.proofs.obligations import Result, fails
from tricklaw.proofs.recorder import labelled, prepare, recording, write_index
from tricklaw.proofs.solver import fresh_context
from tricklaw.proofs.statuses import BAD as STATUS_BAD
from tricklaw.proofs.statuses import (
    FINDING,
    HOLLOW,
    INFO,
    ORDER,
    PASS,
    PROVED,
    STATUSES,
    UNKNOWN,
    legend,
)
from tricklaw.spec import load_registry
from tricklaw.spec.errors import OptionError, TricklawError
from tricklaw.spec.proved_bounds import MAX, MIN, bound_cells, load_bounds

SPLITMIX64_SEED0 = (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC)
"""The first outputs of SplitMix64 from state 0, as published with the reference C code."""

SELF_CHECK_SEEDS = range(1, 9)


def _timed(fn: Callable[[], tuple[bool, str]]) -> tuple[str, float, str]:
    start = time.perf_counter()
    try:
        ok, detail = fn()
    except TricklawError as exc:
        ok, detail = False, str(exc)
    return ("pass" if ok else "fail"), time.perf_counter() - start, detail


def _registry_checks(ruleset: Ruleset[Any]) -> list[Result]:
    out = []
    status, secs, detail = _timed(lambda: (True, _describe_registry(ruleset.id)))
    out.append(Result("registry", ruleset.id, "all", "all", status, secs, (), detail))
    if status == "fail":
        return out

    def cites() -> tuple[bool, str]:
        ids = load_registry(ruleset.id).ids
        missing = [c for c in ruleset.implements if c not in ids]
        if missing:
            return False, f"the model cites unknown ids {', '.join(missing)}"
        return True, f"{len(ruleset.implements)} cited ids exist"

    status, secs, detail = _timed(cites)
    out.append(Result("model-cites-spec", ruleset.id, "all", "all", status, secs, (), detail))

    def options_match() -> tuple[bool, str]:
        registry = load_registry(ruleset.id)
        problems = []
        for spec in ruleset.option_specs:
            if spec.dispute is None:
                continue
            d = registry.dispute(spec.dispute)
            readings = tuple(r.value for r in d.readings)
            if d.option != spec.name:
                problems.append(f"{d.id} names option {d.option!r}, the model {spec.name!r}")
            if not spec.is_integer and set(readings) != set(spec.choices):
                problems.append(f"{d.id} readings {readings} != model choices {spec.choices}")
            if d.default != str(spec.default):
                problems.append(f"{d.id} default {d.default!r} != model {spec.default!r}")
        model_options = {s.name for s in ruleset.option_specs}
        for d in registry.disputes:
            if d.option and d.option not in model_options:
                problems.append(f"{d.id}: the model has no option {d.option!r}")
        if problems:
            return False, "; ".join(problems)
        return True, f"{sum(1 for d in registry.disputes if d.option)} disputes with switches"

    status, secs, detail = _timed(options_match)
    out.append(Result("options-are-disputes", ruleset.id, "all", "all", status, secs, (), detail))
    return out


def _describe_registry(ruleset_id: str) -> str:
    registry = load_registry(ruleset_id)
    return f"{len(registry.clauses)} clauses, {len(registry.disputes)} disputes"


def _example_results(ruleset: Ruleset[Any]) -> list[Result]:
    start = time.perf_counter()
    checks = check_examples(ruleset.id)
    per_example: dict[str, list[Any]] = {}
    for c in checks:
        per_example.setdefault(c.example, []).append(c)
    secs = (time.perf_counter() - start) / max(1, len(per_example))
    defaults = {s.name: s.default for s in ruleset.option_specs}
    out = []
    for name, cs in per_example.items():
        bad = [c for c in cs if not c.ok]
        at_default = next(c for c in cs if all(defaults[k] == v for k, v in c.readings))
        holds = sum(c.holds for c in cs)
        if bad:
            b = bad[0]
            detail = (
                f"{'holds' if b.holds else 'fails'} under {dict(b.readings)}, "
                f"its data says it {'holds' if b.expected else 'fails'} there: "
                + "; ".join(b.failures)
            )
        else:
            detail = f"holds under {holds} of {len(cs)} reading combinations, as its data says"
            if not at_default.holds:
                detail += (
                    "; under the defaults it fails (a recorded dispute): " + at_default.failures[0]
                )
        out.append(
            Result(
                f"example {name}",
                ruleset.id,
                "",
                "every reading",
                "fail" if bad else "pass",
                secs,
                cs[0].clauses,
                detail,
            )
        )
    return out


def _shuffle_check() -> Result:
    def run() -> tuple[bool, str]:
        rng = SplitMix64(0)
        got = tuple(rng.next_u64() for _ in SPLITMIX64_SEED0)
        if got != SPLITMIX64_SEED0:
            return False, "SplitMix64(0) does not give the published reference outputs"
        vectors = json.loads(
            resources.files("tricklaw.spec").joinpath("shuffle-vectors.json").read_text("utf-8")
        )
        for case in vectors["shuffles"]:
            out = shuffled(list(range(case["n"])), SplitMix64(case["seed"]))
            if out != case["permutation"]:
                return False, f"shuffle of {case['n']} with seed {case['seed']} differs"
        for case in vectors["round_seeds"]:
            if round_seed(case["seed"], case["round"]) != int(case["round_seed"], 16):
                return False, f"round_seed({case['seed']}, {case['round']}) differs"
        for case in vectors["deals"]:
            game = get_ruleset(case["ruleset"]).make_game(case["players"], case["options"])
            hands = [
                game.ruleset.palette.format_all(h)
                for h in game.new_initial_state(case["seed"]).info.deal.hands
            ]
            if hands != case["hands"]:
                return False, f"deal of {case['ruleset']} seed {case['seed']} differs"
        return True, (
            f"{len(vectors['shuffles'])} shuffles, {len(vectors['round_seeds'])} round seeds, "
            f"{len(vectors['deals'])} deals"
        )

    status, secs, detail = _timed(run)
    return Result("shuffle-vectors", "all", "", "", status, secs, (), detail)


def walk_random_game(game: Game, seed: int, check: bool = True) -> State[Any]:
    """A random game from ``seed``; with ``check``, every invariant after every action."""
    for step, state in enumerate(random_states(game, seed, max_rounds=None)):
        problems = violations(state) if check and step else []
        if problems:
            raise TricklawError(f"seed {seed}, after action {step}: {'; '.join(problems)}")
    return state


def _self_check(ruleset: Ruleset[Any], players: int) -> Result:
    def run() -> tuple[bool, str]:
        game = ruleset.make_game(players)
        rounds = 0
        for seed in SELF_CHECK_SEEDS:
            state = walk_random_game(game, seed)
            record = to_record(state)
            if to_record(walk_random_game(game, seed, check=False)) != record:
                return False, f"seed {seed}: the same seed gave a different game"
            again = replay(json.loads(json.dumps(record)))
            if to_record(again, seed) != record:
                return False, f"seed {seed}: the replayed record differs from the original"
            for log in state.history:
                if log.scores != ruleset.recount_scores(game, log):
                    return False, f"seed {seed}, round {log.index + 1}: scores differ from recount"
            rounds += len(state.history)
        return True, f"{len(SELF_CHECK_SEEDS)} games, {rounds} rounds"

    status, secs, detail = _timed(run)
    return Result("self-check", ruleset.id, str(players), "default", status, secs, (), detail)


@dataclass(frozen=True)
class Scope:
    """What ``verify`` is asked to cover: a ruleset, a player count, fixed readings; and how:
    on ``jobs`` worker processes (0: in this process), writing every solver query into
    ``smt2`` (a directory); ``setup`` is called first in each worker process (the command
    line loads the plug-ins there)."""

    ruleset: str | None = None
    players: int | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    timeout_ms: int = 30_000
    jobs: int = 0
    smt2: str | None = None
    setup: Callable[[], object] | None = None


Step = Callable[[Ruleset[Any], int, Mapping[str, str], int], list[Result]]
"""One part of verify for a ruleset at a player count: ``(ruleset, players, the fixed
readings, time-out in ms) -> results``."""


def _bounds(ruleset: Ruleset[Any], n: int, options: Mapping[str, str], ms: int) -> list[Result]:
    proved = bounds_results(ruleset, n, ms, options)
    return [*proved, artifact_check(ruleset, n, proved, load_bounds())]


PLAYER_STEPS: tuple[tuple[str, Step], ...] = (
    ("self-check", lambda rs, n, options, ms: [_self_check(rs, n)]),
    ("trick obligations", obligations.trick_results),
    ("equivalence of play and score", equivalence_score.merged_results),
    ("conservation", lambda rs, n, options, ms: obligations.conservation_results(rs, n, ms)),
    ("liveness", liveness_checks.results),
    ("score bounds", _bounds),
    ("readings, symmetries, the model in the relaxations", model_held.results),
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
    edition diff of every family among the rulesets in scope."""

    ruleset: str
    players: int | None
    step: str = ""
    part: int = 0

    @property
    def weight(self) -> int:
        """A rough, fixed order of cost (work grows steeply with the table): the
        workers start the heaviest units first."""
        players = self.players or 0
        weight: int = 8**players * (4 if self.step else 1)
        return weight


EDITIONS = Unit("", None)
"""The unit that compares the editions of each game family (see
:mod:`~tricklaw.proofs.edition_diff`)."""


def _units(scope: Scope, rulesets: list[Ruleset[Any]]) -> list[Unit]:
    out = []
    for ruleset in rulesets:
        out.append(Unit(ruleset.id, None))
        options = _fixed(scope, ruleset)
        for n in ruleset.player_counts:
            if scope.players not in (None, n):
                continue
            out.append(Unit(ruleset.id, n))
            for step in PARTED_STEPS:
                out += [
                    Unit(ruleset.id, n, step.name, k) for k in range(step.parts(ruleset, options))
                ]
    return [EDITIONS, *out]


def _fixed(scope: Scope, ruleset: Ruleset[Any]) -> dict[str, str]:
    """The readings ``scope`` fixes that are options of ``ruleset``."""
    return {k: v for k, v in scope.options.items() if k in {s.name for s in ruleset.option_specs}}


def _ruleset_checks(
    scope: Scope, ruleset: Ruleset[Any], options: Mapping[str, str]
) -> list[Result]:
    """A ruleset's checks over all its player counts: the registry, the worked examples
    (by the model, by Z3 on the trick rule and by a Z3 search for legal hands) and the
    tie and gap detector."""
    results = _registry_checks(ruleset)
    results += _example_results(ruleset)
    with labelled(obligation="example-z3"):
        results += example_constraints.example_results(ruleset, scope.timeout_ms)
    with labelled(obligation="example-legality"):
        results += example_legality.sequence_results(ruleset, scope.timeout_ms)
    counts = [n for n in ruleset.player_counts if scope.players in (None, n)]
    whole = scope.players is None and not scope.options
    with labelled(obligation="ties"):
        results += ties.ties(ruleset, counts, options, scope.timeout_ms, complete=whole)
    return results


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
                results = edition_diff.diff_results(rulesets, scope.players, scope.timeout_ms)
            return results, recorder.entries if recorder else []
        ruleset = get_ruleset(unit.ruleset)
        options = _fixed(scope, ruleset)
        if unit.step:
            parted = next(s for s in PARTED_STEPS if s.name == unit.step)
            progress(f"{ruleset.id} {unit.players}p: {parted.name} part {unit.part + 1}")
            with labelled(obligation=parted.name):
                assert unit.players is not None
                results = parted.run(ruleset, unit.players, options, scope.timeout_ms, unit.part)
        elif unit.players is None:
            progress(f"{ruleset.id}: registry, worked examples, ties")
            results = _ruleset_checks(scope, ruleset, options)
        else:
            results = []
            for name, step in PLAYER_STEPS:
                progress(f"{ruleset.id} {unit.players}p: {name}")
                with labelled(obligation=name):  # the steps name their own queries better
                    results += step(ruleset, unit.players, options, scope.timeout_ms)
    return results, recorder.entries if recorder else []


def _run_units(
    scope: Scope, units: list[Unit], progress: Callable[[str], None]
) -> list[tuple[list[Result], list[dict[str, Any]]]]:
    """Every unit's results, in the order of ``units``.

    With ``scope.jobs`` workers, each unit runs in a process of its own, forked from a
    fork server that has only imported tricklaw: what Z3 answers (a witness, an unsat
    core) then cannot depend on what else a process solved before, or on where its
    memory lies, so the results are the same for every number of workers."""
    if scope.jobs < 1:
        return [_run_unit(scope, unit, progress) for unit in units]
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["tricklaw.verify"])
    with ProcessPoolExecutor(
        max_workers=min(scope.jobs, len(units)),
        mp_context=context,
        initializer=scope.setup,
        max_tasks_per_child=1,
    ) as pool:
        heaviest = sorted(units, key=lambda u: -u.weight)  # stable: ties keep their order
        futures = {unit: pool.submit(_run_unit, scope, unit) for unit in heaviest}
        out = []
        for unit in units:
            out.append(futures[unit].result())
            progress(f"{unit.ruleset} {unit.players or ''}: done")
        return out


def collect(scope: Scope, progress: Callable[[str], None] = lambda _: None) -> list[Result]:
    """Every check and proof in ``scope``."""
    rulesets = [get_ruleset(scope.ruleset)] if scope.ruleset else list(RULESETS.values())
    for ruleset in rulesets:
        known = {s.name for s in ruleset.option_specs}
        unknown = [k for k in scope.options if k not in known]
        if unknown and scope.ruleset:
            raise OptionError(f"{ruleset.id}: unknown option {unknown[0]!r}")
        if scope.ruleset and scope.players is not None:
            ruleset.make_game(scope.players)  # a bad count raises the usual one-line error
    directory = prepare(scope.smt2) if scope.smt2 else None
    progress("shuffle vectors")
    results = [_shuffle_check()]
    entries: list[dict[str, Any]] = []
    for unit_results, unit_entries in _run_units(scope, _units(scope, rulesets), progress):
        results += unit_results
        entries += unit_entries
    if directory is not None:
        write_index(directory, entries)
    complete = scope.players is None and not scope.options
    results += [register_check(r.id, results, complete) for r in rulesets]
    results += rule_coverage.coverage_results(rulesets, results, complete)
    return results


BAD = STATUS_BAD
"""Statuses that make ``verify`` exit non-zero whatever the row: a failed check, a
counterexample, and ``unknown`` (a time-out is never counted as proved). A *vacuous* or
*trivial* row fails it too unless documented as expected
(:func:`~tricklaw.proofs.obligations.fails`)."""


def summary_lines(results: list[Result], seconds: float) -> list[str]:
    """The report's closing lines: every status counted (in the order of
    :data:`~tricklaw.proofs.statuses.ORDER`), then what passes and what fails, findings,
    informational and documented hollow rows counted apart from the passes."""
    counts = {status: 0 for status in ORDER}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    listed = ", ".join(f"{n} {status}" for status, n in counts.items() if n)
    failed = [r for r in results if fails(r)]
    hollow = sum(counts[s] for s in HOLLOW) - sum(r.status in HOLLOW for r in failed)
    parts = [
        f"{counts[PROVED]} proved",
        f"{counts[PASS]} passed checks",
        f"{counts[FINDING]} findings (recorded disputes)",
        f"{counts[INFO]} informational",
        f"{hollow} vacuous or trivial as documented",
        f"{len(failed)} failed",
    ]
    return [f"{len(results)} obligations in {seconds:.1f}s: {listed}", "; ".join(parts)]


def _render(results: list[Result], out: TextIO) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=out, width=200 if not out.isatty() else None)
    table = Table(title="tricklaw verify", show_lines=False)
    for heading in ("obligation", "ruleset", "players", "reading", "status", "time", "clauses"):
        table.add_column(heading, overflow="fold")
    colours = {
        PROVED: "green",
        PASS: "green",
        INFO: "cyan",
        FINDING: "yellow",
        UNKNOWN: "magenta",
    }
    for r in results:
        colour = colours.get(r.status, "blue" if not fails(r) else "red")
        table.add_row(
            r.obligation,
            r.ruleset,
            r.players,
            r.reading,
            f"[{colour}]{r.status}[/{colour}]",
            f"{r.seconds:.3f}s",
            ", ".join(c for c in r.clauses if ":" not in c),
        )
    console.print(table)
    bounds_table = _bounds_table(results)
    if bounds_table is not None:
        console.print(bounds_table)
    for r in results:
        if r.status not in {PROVED, PASS}:
            witness = f" witness: {json.dumps(r.witness)}" if r.witness else ""
            expected = f" (expected: {r.expected})" if r.expected else ""
            console.print(
                f"{r.status}: {r.obligation} {r.ruleset} {r.players} [{r.reading}]: "
                f"{r.detail}{expected}{witness}",
                markup=False,
                highlight=False,
            )


def _bounds_table(results: list[Result]) -> Any:
    """The score bounds, one row per ruleset, player count and reading (None when there
    are none), with a caption naming the options no bound is varied over, and why."""
    from rich.table import Table

    rows = bound_cells(asdict(r) for r in results)
    if not rows:
        return None
    caption = "; ".join(
        f"{rid} {name}: {why}"
        for rid in dict.fromkeys(key[0] for key in rows)
        for name, why in not_varied(rid).items()
    )
    table = Table(
        title="round score of one player: proved bounds met by replayed witnesses",
        caption=f"not varied: {caption}" if caption else None,
    )
    for heading in ("ruleset", "players", "reading", "least", "greatest"):
        table.add_column(heading, overflow="fold")
    for (ruleset, players, reading), cells in rows.items():
        table.add_row(ruleset, players, reading, cells.get(MIN, ""), cells.get(MAX, ""))
    return table


def run_verify(scope: Scope, json_path: str | None, out: TextIO) -> int:
    """Run :func:`collect`, print the table, write the JSON report; the exit status."""
    from rich.progress import Progress

    start = time.perf_counter()
    if out.isatty():
        with Progress(transient=True) as bar:
            task = bar.add_task("verifying", total=None)
            results = collect(scope, lambda text: bar.update(task, description=text))
    else:
        results = collect(scope)
    seconds = time.perf_counter() - start
    out.write("statuses:\n" + legend() + "\n")
    _render(results, out)
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    bad = sum(fails(r) for r in results)
    out.write("".join(f"{line}\n" for line in summary_lines(results, seconds)))
    if json_path:
        report = {
            "format": "tricklaw-verify",
            "version": 1,
            "scope": {
                "ruleset": scope.ruleset,
                "players": scope.players,
                "options": dict(scope.options),
                "timeout_ms": scope.timeout_ms,
            },
            "seconds": round(seconds, 3),
            "counts": counts,
            "statuses": STATUSES,
            "failed": bad,
            "results": [asdict(r) for r in results],
        }
        try:
            with open(json_path, "w", encoding="utf-8") as fh:
                json.dump(report, fh, indent=1)
        except OSError as exc:
            raise TricklawError(f"cannot write {json_path}: {exc.strerror}") from None
    return 1 if bad else 0
