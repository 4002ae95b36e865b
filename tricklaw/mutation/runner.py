"""Run mutants: plant each in a copy of the source, judge it, run verify on it.

For each :class:`~tricklaw.mutation.mutants.Mutant`:

1. copy the repository (:func:`copy_tree`) and apply the mutant's patch (``patch -p1``);
   a patch that does not apply is ``not-applied``;
2. fingerprint the mutated model (:mod:`tricklaw.mutation.behaviour`, in a process with
   the copy first on ``PYTHONPATH``) for the rulesets the changed files hold rules of,
   comparing it with the unmutated model's fingerprint as it goes (:func:`differing`:
   it stops at the first few inputs that differ). No difference: ``equivalent`` (no
   behaviour change on any legal input tried; verify is asked all the same unless
   ``verify_equivalent`` is off, and a kill makes it ``killed``), but only when the
   unmutated fingerprint runs every statement the mutant changes
   (:mod:`tricklaw.mutation.reach`, measured once a run); else verify is asked, and a
   mutant it does not kill is ``unreached``: not shown equivalent, not a
   survivor, named in the report. The differences are the mutant's witness;
3. run ``tricklaw verify RULESET --jobs N --fail-fast --json ...``
   (:data:`~tricklaw.mutation.verdicts.VERIFY`) on the copy for each ruleset whose
   behaviour changed, the one whose unmutated verify is quickest first, until one kills
   it in a way the strict score counts: ``killed``, ``survived``, ``timeout`` or
   ``error``, the strongest outcome of the rulesets run
   (:func:`~tricklaw.mutation.verdicts.strength`; a kill outside the strict score is
   settled by further runs of its ruleset,
   :func:`~tricklaw.mutation.verdicts.settle`, and then looked for on the next).

How a run is judged, how a kill is named, and the time limits of the child processes
are in :mod:`tricklaw.mutation.verdicts`.

The score is killed / (killed + survived + timeout); ``strict-score`` counts only kills
by an obligation, a counterexample, a check's exception or a timeout (not the mutated
code's own exceptions, nor a step's fall, nor the published vectors alone). verify
alone must kill every mutant that changes a rule's behaviour.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from tricklaw.mutation.journal import Journal, source_digest
from tricklaw.mutation.mutants import Mutant, patched_files, repo_root, rule_files
from tricklaw.mutation.reach import ran_lines, under_coverage, unreached
from tricklaw.mutation.verdicts import (
    EQUIVALENT,
    ERROR,
    KILLED,
    NOT_APPLIED,
    STRICT_KILL,
    STRICT_KINDS,
    SURVIVED,
    TIMEOUT,
    UNREACHED,
    Outcome,
    Settings,
    call,
    judge,
    settle,
    strength,
    verify,
)
from tricklaw.spec.outputs import write_atomically

IGNORE = shutil.ignore_patterns(".*", "docs", "__pycache__", "*.egg-info", "build", "node_modules")
"""What a mutant's copy leaves out: hidden folders (git, the virtual environment, caches),
the docs, byte code and build output; the copies run the sources with the harness's own
interpreter."""


@dataclass(frozen=True)
class MutantResult:
    """What became of one mutant."""

    id: str
    description: str
    status: str
    rulesets: tuple[str, ...] = ()
    """The rulesets whose behaviour the mutant changed."""
    witness: tuple[str, ...] = ()
    """The first inputs (fingerprint keys) on which the mutant's behaviour differs; for
    an ``unreached`` one, the changed statements the unmutated fingerprint never runs."""
    killed_by: tuple[dict[str, str], ...] = ()
    """The verify results that failed (obligation, ruleset, players, reading, status,
    detail), or a ``crash`` entry."""
    seconds: float = 0.0
    verify_seconds: dict[str, float] = field(default_factory=dict)
    kind: str = ""
    """How a killed mutant was killed (:data:`~tricklaw.mutation.verdicts.KINDS`); for
    ``error``, what failed."""

    @classmethod
    def from_dict(cls, entry: Mapping[str, Any]) -> MutantResult:
        """The result that :func:`dataclasses.asdict` gave ``entry`` (a journal's line)."""
        tuples = {"rulesets", "witness", "killed_by"}
        values: dict[str, Any] = {k: tuple(v) if k in tuples else v for k, v in entry.items()}
        return cls(**values)


def copy_tree(root: Path, into: Path) -> Path:
    """A copy of the repository ``root`` (its symlinks kept; docs, caches and git left
    out) at ``into``/src."""
    target = into / "src"
    shutil.copytree(root, target, symlinks=True, ignore=IGNORE)
    return target


def apply_patch(tree: Path, patch: str) -> str | None:
    """Apply ``patch`` to ``tree``; None, or why it did not apply."""
    proc = subprocess.run(
        ["patch", "-p1", "--batch", "--forward", "--no-backup-if-mismatch", "-d", str(tree)],
        input=patch,
        text=True,
        capture_output=True,
        check=False,
    )
    return None if proc.returncode == 0 else (proc.stdout + proc.stderr).strip()[-500:]


def behaviour(
    tree: Path, rulesets: Sequence[str], settings: Settings
) -> dict[str, dict[str, str]] | str:
    """The fingerprint of the model in ``tree`` for ``rulesets``, or why there is none."""
    got = _behaviour_run(tree, rulesets, settings)
    return got if isinstance(got, str) else {rid: dict(keys) for rid, keys in got.items()}


def differing(
    tree: Path, baseline: Mapping[str, Mapping[str, str]], settings: Settings
) -> dict[str, list[str]] | str:
    """The inputs on which the model in ``tree`` differs from ``baseline`` (each of its
    rulesets: :func:`tricklaw.mutation.behaviour.differing`, the first few only), or why
    there are none to tell."""
    against = tree.parent / "baseline.json"
    write_atomically(against, json.dumps(baseline))
    got = _behaviour_run(tree, list(baseline), settings, against)
    return got if isinstance(got, str) else {rid: list(keys) for rid, keys in got.items()}


def _behaviour_run(
    tree: Path,
    rulesets: Sequence[str],
    settings: Settings,
    against: Path | None = None,
    lines: Path | None = None,
) -> dict[str, Any] | str:
    """``python -m tricklaw.mutation.behaviour [--against BASE] OUT RULESET...`` on
    ``tree``: what it wrote, or why it wrote nothing; with ``lines``, run under
    coverage.py, which writes there the lines of ``tree`` that ran."""
    out = tree.parent / "behaviour.json"
    command = [sys.executable]
    command += under_coverage(lines, tree) if lines is not None else ["-m"]
    command += ["tricklaw.mutation.behaviour"]
    command += ["--against", str(against)] if against else []
    command += [str(out), *rulesets]
    try:
        code, err = call(command, tree, settings, settings.behaviour_limit)
    except TimeoutError:
        return "the fingerprint run timed out"
    if code != 0 or not out.exists():
        return "the model failed: " + (err.strip().splitlines() or [""])[-1][-300:]
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


def affected(mutant: Mutant, files: Mapping[str, list[str]], every: Sequence[str]) -> list[str]:
    """The rulesets whose rules the files ``mutant`` changes hold (all for other files)."""
    out: list[str] = []
    for path in patched_files(mutant.patch):
        for rid in files.get(path, every):
            if rid not in out:
                out.append(rid)
    return out or list(every)


def run_mutant(
    mutant: Mutant,
    root: Path,
    baseline: Mapping[str, Mapping[str, str]],
    settings: Settings,
    files: Mapping[str, list[str]],
    *,
    base_seconds: Callable[[str], float] = lambda _: 0.0,
    ran: Callable[[], Mapping[str, frozenset[int]]] | None = None,
) -> MutantResult:
    """Plant, judge and verify one mutant (see the module docstring); ``base_seconds``
    gives the unmutated verify's time on a ruleset (0: not timed, the settings' limit);
    ``ran`` the lines the unmutated fingerprint runs (:func:`baseline_ran`), asked only
    when the mutant's fingerprint is unchanged (None: not measured, such a mutant is
    ``equivalent``)."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tricklaw-mutant-") as tmp:
        tree = copy_tree(root, Path(tmp))
        problem = apply_patch(tree, mutant.patch)
        if problem is not None:
            return MutantResult(mutant.id, mutant.description, NOT_APPLIED, witness=(problem,))
        scope = [rid for rid in affected(mutant, files, list(baseline)) if rid in baseline]
        got = differing(tree, {rid: baseline[rid] for rid in scope}, settings)
        if isinstance(got, str):
            changed, witness = scope, [got]
        else:
            changed = [rid for rid in scope if got.get(rid)]
            witness = [key for rid in changed for key in got[rid]]
        missed = unreached(root, mutant.patch, ran()) if ran and not changed else []
        if missed:  # unchanged where it never ran: no evidence, so verify is asked
            witness = [f"the unmutated fingerprint never runs {where}" for where in missed]
        status = SURVIVED if changed else UNREACHED if missed else EQUIVALENT
        killed_by: list[dict[str, str]] = []
        seconds: dict[str, float] = {}
        kind = ""
        asked = changed or (scope if missed or settings.verify_equivalent else [])
        best: Outcome = (SURVIVED, [], "")
        for rid in sorted(asked, key=base_seconds):  # the quickest verify first
            base = base_seconds(rid)
            began = time.perf_counter()
            one_run = partial(judge, tree, rid, mutant, settings, base)
            outcome = settle(one_run, fast=settings.fail_fast)
            seconds[rid] = round(time.perf_counter() - began, 1)
            if strength(outcome) > strength(best):
                best = outcome
            if strength(best) == STRICT_KILL:
                break
        if best[0] != SURVIVED:
            if changed or missed:
                status = best[0]
            elif best[0] == KILLED:  # verify saw a change the fingerprint's games did not
                status = KILLED
                witness = ["the fingerprint's games show no change; verify's rows do"]
            killed_by, kind = best[1], best[2]
    return MutantResult(
        mutant.id,
        mutant.description,
        status,
        tuple(changed),
        tuple(witness),
        tuple(killed_by),
        round(time.perf_counter() - start, 1),
        seconds,
        kind,
    )


def baseline_fingerprint(
    root: Path, rulesets: Sequence[str], settings: Settings
) -> dict[str, dict[str, str]]:
    """The unmutated model's fingerprint, computed the same way as a mutant's."""
    with tempfile.TemporaryDirectory(prefix="tricklaw-mutant-") as tmp:
        got = behaviour(copy_tree(root, Path(tmp)), rulesets, settings)
    if isinstance(got, str):
        raise RuntimeError(f"the unmutated model: {got}")
    return got


def baseline_ran(
    root: Path, rulesets: Sequence[str], settings: Settings
) -> dict[str, frozenset[int]]:
    """The lines of ``root`` the unmutated model's fingerprint of ``rulesets`` runs (per
    repository path; :mod:`tricklaw.mutation.reach`), measured by coverage.py."""
    if importlib.util.find_spec("coverage") is None:
        raise RuntimeError("coverage.py tells which mutants are equivalent: pip install coverage")
    with tempfile.TemporaryDirectory(prefix="tricklaw-mutant-") as tmp:
        tree = copy_tree(root, Path(tmp))
        data = Path(tmp) / "ran.coverage"
        got = _behaviour_run(tree, rulesets, settings, lines=data)
        if isinstance(got, str):
            raise RuntimeError(f"the unmutated model, measured: {got}")
        return ran_lines(data, tree)


def baseline_verify(root: Path, ruleset: str, settings: Settings) -> float:
    """The unmutated verify's time on ``ruleset`` (seconds), run the same way as a
    mutant's, within the settings' limit; it must pass, else ``RuntimeError``: a mutant
    would be "killed" by a failure that is not its own."""
    with tempfile.TemporaryDirectory(prefix="tricklaw-mutant-") as tmp:
        tree = copy_tree(root, Path(tmp))
        began = time.perf_counter()
        outcome, failures, _ = verify(tree, ruleset, settings)
        took = time.perf_counter() - began
    if outcome != SURVIVED:
        what = failures[0]["obligation"] + ": " + failures[0].get("detail", "") if failures else ""
        raise RuntimeError(f"the unmutated verify of {ruleset} does not pass: {outcome} {what}")
    return took


def _fingerprint(
    root: Path, every: Sequence[str], settings: Settings, kept: Journal | None
) -> dict[str, dict[str, str]]:
    """The unmutated model's fingerprint of ``every`` ruleset: the journal's, when it
    holds all of them, else computed (:func:`baseline_fingerprint`) and kept there."""
    if kept and all(rid in kept.fingerprint for rid in every):
        return {rid: kept.fingerprint[rid] for rid in every}
    got = baseline_fingerprint(root, every, settings)
    if kept:
        kept.add_fingerprint(got)
    return got


DEFAULT = Settings()
"""The settings of a run that names none."""


def run(
    mutants: Sequence[Mutant],
    settings: Settings = DEFAULT,
    rulesets: Sequence[str] = (),
    progress: Callable[[MutantResult], None] = lambda _: None,
    journal: Path | None = None,
) -> list[MutantResult]:
    """Every mutant's result, in order; ``rulesets`` limits the rulesets fingerprinted
    and verified (default: all those the mutants' files hold rules of). The unmutated
    verify of each ruleset a mutant needs is run once first (:func:`baseline_verify`).
    With a ``journal`` (:mod:`tricklaw.mutation.journal`) each result is kept there as it
    is decided, and a mutant (or the unmutated fingerprint or verify time) the journal
    already holds is not run again: a stopped run goes on where it stopped."""
    from tricklaw.model.rulesets import RULESETS

    root = repo_root()
    files = rule_files(root)
    every = list(rulesets or RULESETS)
    kept = Journal.open(journal, source_digest(root, IGNORE), settings) if journal else None
    timed: dict[str, float] = dict(kept.baseline) if kept else {}
    base: dict[str, dict[str, str]] = {}
    measured: list[dict[str, frozenset[int]]] = []

    def ran() -> dict[str, frozenset[int]]:
        if not measured:  # once a run, when a mutant's fingerprint is first unchanged
            measured.append(baseline_ran(root, every, settings))
        return measured[0]

    def base_seconds(rid: str) -> float:
        if rid not in timed:
            timed[rid] = round(baseline_verify(root, rid, settings), 1)
            if kept:
                kept.add_baseline(rid, timed[rid])
        return timed[rid]

    out = []
    try:
        for mutant in mutants:
            recorded = kept.result(mutant.id, mutant.patch) if kept else None
            if recorded is not None:
                result = MutantResult.from_dict(recorded)
            else:
                base = base or _fingerprint(root, every, settings, kept)
                result = run_mutant(
                    mutant, root, base, settings, files, base_seconds=base_seconds, ran=ran
                )
                if kept:
                    kept.add_result(asdict(result), mutant.patch)
            progress(result)
            out.append(result)
    finally:
        if kept:
            kept.close()
    BASELINE_SECONDS.update(timed)
    return out


BASELINE_SECONDS: dict[str, float] = {}
"""The unmutated verify's time per ruleset in the last :func:`run` (for the report)."""


def summary(results: Sequence[MutantResult]) -> dict[str, Any]:
    """Counts by status; the killed mutants by kind
    (:data:`~tricklaw.mutation.verdicts.KINDS`) and by the first failing obligation's
    name; the score (killed / behaviour-changing mutants), the strict score (kills of
    :data:`~tricklaw.mutation.verdicts.STRICT_KINDS` only); the survivors (and timeouts),
    the errors (not kills, outside the score) and the unreached mutants (outside it too:
    no evidence that they change a behaviour)."""
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    changing = counts.get(KILLED, 0) + counts.get(SURVIVED, 0) + counts.get(TIMEOUT, 0)
    killers: dict[str, int] = {}
    kinds: dict[str, int] = {}
    for r in results:
        if r.status == KILLED:
            kinds[r.kind] = kinds.get(r.kind, 0) + 1
            first = r.killed_by[0]["obligation"] if r.killed_by else "exit status"
            name = first.split(" ")[0]  # "example LH-EX-1" -> "example"
            killers[name] = killers.get(name, 0) + 1
    strict = sum(1 for r in results if r.status == KILLED and r.kind in STRICT_KINDS)
    return {
        "mutants": len(results),
        "counts": counts,
        "kinds": dict(sorted(kinds.items())),
        "killed-by": dict(sorted(killers.items())),
        "behaviour-changing": changing,
        "score": round(counts.get(KILLED, 0) / changing, 4) if changing else None,
        "strict-score": round(strict / changing, 4) if changing else None,
        "baseline-seconds": dict(BASELINE_SECONDS),
        "survivors": [asdict(r) for r in results if r.status in {SURVIVED, TIMEOUT}],
        "errors": [asdict(r) for r in results if r.status == ERROR],
        "unreached": [asdict(r) for r in results if r.status == UNREACHED],
    }
