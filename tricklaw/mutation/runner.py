"""Run mutants: plant each in a copy of the source, judge it, run verify on it.

For each :class:`~tricklaw.mutation.mutants.Mutant`:

1. copy the repository (:func:`copy_tree`) and apply the mutant's patch (``patch -p1``);
   a patch that does not apply is ``not-applied``;
2. fingerprint the mutated model (:mod:`tricklaw.mutation.behaviour`, in a process with
   the copy first on ``PYTHONPATH``) for the rulesets the changed files hold rules of, and
   compare with the unmutated model's fingerprint. No difference: ``equivalent`` (no
   behaviour change on any legal input tried; verify is not asked unless
   ``verify_equivalent``). A difference is the mutant's witness;
3. run ``tricklaw verify RULESET --jobs N --fail-fast --json ...`` (:data:`VERIFY`) on the
   copy for each ruleset whose behaviour changed, until one fails: ``killed``,
   ``survived``, ``timeout`` or ``error`` (a kill outside the strict score is settled by
   further runs, :func:`settle`).

Every child process has a hard time limit, so that the harness always ends (a mutant
whose game never ends, or a loop that never stops): the unmutated model's own runs are
timed first (:func:`baseline_verify`, which must also pass, else every mutant would be
"killed" by a failure that is not its own), and a mutant's run is cut at
:func:`time_limit` (:data:`LIMIT_FACTOR` times the unmutated run plus
:data:`LIMIT_SLACK`, at most ``Settings.verify_limit``).

How a killed mutant was killed (:attr:`MutantResult.kind`, :data:`KINDS`):

* ``obligation``: a row of verify's report failed (``fail``, ``unknown``, an
  undocumented ``vacuous`` or ``trivial``: as :func:`tricklaw.proofs.obligations.fails`
  decides); ``counterexample``: a row gave a counterexample; the row's
  obligation name is in :attr:`MutantResult.killed_by`;
* ``check-exception``: verify died of a :class:`~tricklaw.spec.errors.TricklawError`,
  the error a check or the model's own consistency checks (deal checks, the replay,
  ``make_game``) raise;
* ``model-exception``: verify died because the model raised (the frame that raised is
  in the model's folder or in a file the mutant patched, such as a plug-in's model) on
  an input verify gave it: the mutated model crashes on a legal input, which verify's
  exit status and traceback report;
* ``step-exception``: a step of verify fell over in verify's own code on the mutated
  model's answers (an exception that is not a
  :class:`~tricklaw.spec.errors.TricklawError`); verify reports such a step as a ``fail``
  row with its traceback (:func:`tricklaw.verify.run.guarded`) and goes on, so the
  failure is verify's report of the mutant, though not one naming the broken rule. The
  same traceback in the model, or a ``TricklawError``, is a ``model-exception`` or
  ``check-exception`` as above;
* ``vectors``: only the ``vectors KIND`` rows failed: the model no longer gives its own
  published conformance vectors (a regression against its past answers, not a rule's
  proof or check);
* ``timeout``: verify did not finish within :func:`time_limit`, while the unmutated run
  finished in at most a third of it (a cut run whose baseline is not well inside the
  limit is status ``timeout``, undecided, never a kill).

Not kills (status ``error``, outside the score, listed): verify dying outside its steps
of an exception raised in its own code that is not a
:class:`~tricklaw.spec.errors.TricklawError`, or of a harness failure (an import or
syntax error, a broken process pool, memory, no traceback at all).

The score is killed / (killed + survived + timeout); ``strict-score`` counts only kills
by an obligation, a counterexample, a check's exception or a timeout (not the mutated
code's own exceptions, nor a step's fall, nor the published vectors alone). verify
alone must kill every mutant that changes a rule's behaviour.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from tricklaw.mutation.behaviour import differences
from tricklaw.mutation.journal import Journal, source_digest
from tricklaw.mutation.mutants import Mutant, patched_files, repo_root, rule_files
from tricklaw.proofs.statuses import BAD, HOLLOW

KILLED = "killed"
SURVIVED = "survived"
EQUIVALENT = "equivalent"
NOT_APPLIED = "not-applied"
TIMEOUT = "timeout"
ERROR = "error"
"""A run that ended in a harness failure or verify's own code falling over: no kill."""
KINDS = (
    "obligation",
    "counterexample",
    "check-exception",
    "model-exception",
    "step-exception",
    "vectors",
    "timeout",
)
"""The ways a mutant is killed (see the module docstring)."""
VECTORS_STEP = "vectors"
"""verify's step that gives the published conformance vectors again (``--skip`` names it)."""
VECTORS = "vectors "
"""The obligation names of verify's conformance-vector rows (``vectors KIND``)."""
STRICT_KINDS = frozenset({"obligation", "counterexample", "check-exception", "timeout"})
"""The kinds the strict score counts: not the mutated code's own exceptions."""
HARNESS_ERRORS = frozenset(
    {
        "ImportError",
        "ModuleNotFoundError",
        "SyntaxError",
        "IndentationError",
        "MemoryError",
        "OSError",
        "KeyboardInterrupt",
        "BrokenProcessPool",
        "PicklingError",
    }
)
"""Exceptions that say the harness failed, not that verify detected the mutant."""
LIMIT_FACTOR = 3.0
"""A mutant's run is cut at this many times the unmutated run's time, plus
:data:`LIMIT_SLACK` (:func:`time_limit`)."""
LIMIT_SLACK = 60.0
"""Seconds added to a mutant's time limit (:func:`time_limit`)."""
FAILING = BAD
"""verify's statuses that fail it; a vacuous or trivial row fails it unless the row
documents it as expected (``expected``, :func:`tricklaw.proofs.obligations.fails`)."""
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
    """The first inputs (fingerprint keys) on which the mutant's behaviour differs."""
    killed_by: tuple[dict[str, str], ...] = ()
    """The verify results that failed (obligation, ruleset, players, reading, status,
    detail), or a ``crash`` entry."""
    seconds: float = 0.0
    verify_seconds: dict[str, float] = field(default_factory=dict)
    kind: str = ""
    """How a killed mutant was killed (:data:`KINDS`); for ``error``, what failed."""

    @classmethod
    def from_dict(cls, entry: Mapping[str, Any]) -> MutantResult:
        """The result that :func:`dataclasses.asdict` gave ``entry`` (a journal's line)."""
        tuples = {"rulesets", "witness", "killed_by"}
        values: dict[str, Any] = {k: tuple(v) if k in tuples else v for k, v in entry.items()}
        return cls(**values)


@dataclass(frozen=True)
class Settings:
    """How to run: verify's worker processes, its per-obligation time-out, the time
    limits of the child processes, extra ``PYTHONPATH`` entries (plug-ins; ``{tree}`` in
    an entry stands for the mutated copy, e.g. ``{tree}/tests`` for a plug-in kept in the
    repository), whether to run verify on equivalent mutants too, and whether verify
    stops at its first failure (``fail_fast``, ``tricklaw verify --fail-fast``: a killed
    mutant's run ends at the first failing row instead of running every obligation;
    a kill the strict score does not count is then settled, :func:`settle`)."""

    jobs: int = 2
    timeout_ms: int = 30_000
    verify_limit: float = 600.0
    behaviour_limit: float = 600.0
    extra_path: tuple[str, ...] = ()
    verify_equivalent: bool = False
    fail_fast: bool = True


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


def _env(tree: Path, settings: Settings) -> dict[str, str]:
    env = dict(os.environ)
    extra = [p.replace("{tree}", str(tree)) for p in settings.extra_path]
    env["PYTHONPATH"] = os.pathsep.join([str(tree), *extra])
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _call(command: list[str], tree: Path, settings: Settings, limit: float) -> tuple[int, str]:
    """Run ``command`` on ``tree`` in a session of its own: (exit status, stderr); on
    ``limit`` seconds the whole session (verify's worker processes too) is killed and
    ``TimeoutError`` raised."""
    proc = subprocess.Popen(
        command,
        env=_env(tree, settings),
        cwd=tree.parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise TimeoutError(" ".join(command[-8:])) from None
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)  # worker processes left behind by a crash
    return proc.returncode, err


def behaviour(
    tree: Path, rulesets: Sequence[str], settings: Settings
) -> dict[str, dict[str, str]] | str:
    """The fingerprint of the model in ``tree`` for ``rulesets``, or why there is none."""
    out = tree.parent / "behaviour.json"
    command = [sys.executable, "-m", "tricklaw.mutation.behaviour", str(out), *rulesets]
    try:
        code, err = _call(command, tree, settings, settings.behaviour_limit)
    except TimeoutError:
        return "the fingerprint run timed out"
    if code != 0 or not out.exists():
        return "the model failed: " + (err.strip().splitlines() or [""])[-1][-300:]
    data: dict[str, dict[str, str]] = json.loads(out.read_text(encoding="utf-8"))
    return data


def time_limit(baseline: float, settings: Settings) -> float:
    """The time limit of a mutant's run whose unmutated run took ``baseline`` seconds:
    :data:`LIMIT_FACTOR` times it plus :data:`LIMIT_SLACK`, at most the settings' limit."""
    return min(settings.verify_limit, LIMIT_FACTOR * baseline + LIMIT_SLACK)


def timeout_is_kill(baseline: float, limit: float) -> bool:
    """A run cut at ``limit`` counts as a kill only when the unmutated run finished well
    inside it (in at most a third of it)."""
    return baseline * LIMIT_FACTOR <= limit


def _first_traceback(err: str) -> tuple[list[str], str]:
    """The files of the frames, innermost last, and the exception line of the first
    traceback in ``err`` (a worker's remote traceback comes first: the cause)."""
    lines = err.splitlines()
    try:
        at = next(i for i, line in enumerate(lines) if line.startswith("Traceback ("))
    except StopIteration:
        return [], (lines[-1].strip() if lines else "")
    files: list[str] = []
    for line in lines[at + 1 :]:
        stripped = line.strip()
        if stripped.startswith('File "'):
            files.append(stripped[6:].split('"', 1)[0])
        elif line and not line.startswith(" ") and not stripped.startswith("^"):
            return files, stripped
    return files, ""


def _error_names() -> frozenset[str]:
    from tricklaw.spec.errors import TricklawError

    names, todo = set(), [TricklawError]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo += cls.__subclasses__()
    return frozenset(names)


def crash_kind(
    err: str, tree: Path, patched: Sequence[str], stepped: bool = False
) -> tuple[str, str]:
    """(kind, what) of verify dying with stderr ``err`` on the copy ``tree`` where the
    mutant patched the files ``patched``: ``check-exception``, ``model-exception`` (raised in
    the model's folder or a patched file), or
    ``error`` (verify's own code or the harness failed; see the module docstring).
    ``stepped``: the traceback is a step's ``fail`` row (verify reported the fall and
    went on), so verify's own code falling over is ``step-exception``, a kill."""
    files, line = _first_traceback(err)
    name = line.split(":", 1)[0].rsplit(".", 1)[-1].strip()
    where = files[-1] if files else ""
    model = {str(tree / f) for f in patched}
    model |= {str((tree / f).resolve()) for f in patched}
    if not files or name in HARNESS_ERRORS:
        return ERROR, f"harness: {line[-300:] or 'no traceback'}"
    if name in _error_names():
        return "check-exception", f"{line[-300:]} (at {where})"
    inside = [str(tree / "tricklaw" / "model"), str(tree / "model")]
    if where in model or any(where.startswith(folder + "/") for folder in inside):
        return "model-exception", f"{line[-300:]} (at {where})"
    if stepped:
        return "step-exception", f"a step of verify fell over: {line[-300:]} (at {where})"
    return ERROR, f"verify's own code fell over: {line[-300:]} (at {where})"


VERIFY = (
    "import sys; from tricklaw.plugins import load_plugins; from tricklaw.cli import "
    "build_parser; load_plugins(); a = build_parser().parse_args(sys.argv[1:]); "
    "sys.exit(a.func(a))"
)
"""``tricklaw verify`` as the command line runs it, less its last-resort handler (which
prints an error in one line): a crash leaves its whole traceback for :func:`crash_kind`."""


def failed_rows(report: Mapping[str, Any]) -> list[dict[str, str]]:
    """The rows of a verify JSON report that fail it: a bad status, or a hollow one
    (vacuous, trivial) the row does not document as expected."""
    return [
        {k: str(r[k]) for k in ("obligation", "ruleset", "players", "reading", "status")}
        | {"detail": str(r.get("detail", ""))[:300]}
        | ({"traceback": str(r["witness"]["traceback"])} if _stopped(r) else {})
        for r in report["results"]
        if r["status"] in FAILING or (r["status"] in HOLLOW and not r.get("expected"))
    ]


def _stopped(row: Mapping[str, Any]) -> bool:
    """Whether a verify row is a step that fell over (:func:`tricklaw.verify.run.guarded`)."""
    witness = row.get("witness")
    return isinstance(witness, dict) and "traceback" in witness


def verify(
    tree: Path,
    ruleset: str,
    settings: Settings,
    limit: float | None = None,
    *,
    fail_fast: bool = False,
    skip: tuple[str, ...] = (),
) -> tuple[str, list[dict[str, str]], str]:
    """verify on ``ruleset`` in ``tree`` (with ``--fail-fast`` and ``--skip`` if asked), cut
    at ``limit`` seconds (default the settings' limit): (KILLED, failures, kind),
    (SURVIVED, [], ""), (TIMEOUT, [], "") or (ERROR, [crash], kind); a crash's kind is left
    to :func:`crash_kind` (``crash``)."""
    out = tree.parent / f"verify-{ruleset}.json"
    out.unlink(missing_ok=True)  # a whole run after a fast one reads its own report
    command = [sys.executable, "-c", VERIFY, "verify", ruleset, "--jobs", str(settings.jobs)]
    command += ["--timeout", str(settings.timeout_ms), "--json", str(out)]
    command += ["--fail-fast"] if fail_fast else []
    command += [arg for step in skip for arg in ("--skip", step)]
    try:
        code, err = _call(
            command, tree, settings, settings.verify_limit if limit is None else limit
        )
    except TimeoutError:
        return TIMEOUT, [], ""
    if out.exists():
        failed = failed_rows(json.loads(out.read_text(encoding="utf-8")))
        reported = [r for r in failed if "traceback" not in r]
        if failed and not reported:  # only steps that fell over: judged as a crash
            crashed = dict(failed[0])
            return KILLED, [crashed | {"stderr": crashed.pop("traceback")}], "crash"
        if failed or code != 0:
            first = reported[0]["status"] if reported else ""
            kind = "counterexample" if first == "counterexample" else "obligation"
            if reported and all(r["obligation"].startswith(VECTORS) for r in reported):
                kind = "vectors"
            return KILLED, failed or [{"obligation": "exit status", "status": "fail"}], kind
        return SURVIVED, [], ""
    tail = (err.strip().splitlines() or ["no output"])[-1][-300:]
    crash = {"obligation": "crash", "ruleset": ruleset, "status": "fail", "detail": tail}
    return KILLED, [crash | {"stderr": err}], "crash"


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
) -> MutantResult:
    """Plant, judge and verify one mutant (see the module docstring); ``base_seconds``
    gives the unmutated verify's time on a ruleset (0: not timed, the settings' limit)."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tricklaw-mutant-") as tmp:
        tree = copy_tree(root, Path(tmp))
        problem = apply_patch(tree, mutant.patch)
        if problem is not None:
            return MutantResult(mutant.id, mutant.description, NOT_APPLIED, witness=(problem,))
        scope = [rid for rid in affected(mutant, files, list(baseline)) if rid in baseline]
        got = behaviour(tree, scope, settings)
        if isinstance(got, str):
            changed, witness = scope, [got]
        else:
            changed, witness = [], []
            for rid in scope:
                diff = differences(baseline.get(rid, {}), got.get(rid, {}))
                if diff:
                    changed.append(rid)
                    witness += diff[:3]
        status = EQUIVALENT if not changed else SURVIVED
        killed_by: list[dict[str, str]] = []
        seconds: dict[str, float] = {}
        kind = ""
        for rid in changed or (scope if settings.verify_equivalent else []):
            base = base_seconds(rid)
            began = time.perf_counter()
            judge = partial(_judge, tree, rid, mutant, settings, base)
            outcome, failures, kind = settle(judge, fast=settings.fail_fast)
            seconds[rid] = round(time.perf_counter() - began, 1)
            if outcome != SURVIVED:
                if changed:
                    status = outcome
                killed_by = failures
                break
            kind = ""
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


Outcome = tuple[str, list[dict[str, str]], str]
"""A verify run judged: the status, the failures, the kind of kill (:func:`verify`)."""


def settle(judge: Callable[..., Outcome], *, fast: bool) -> Outcome:
    """A mutant's verify outcome from ``judge(fail_fast=..., skip=...)`` (one run): a
    ``fast`` run (``--fail-fast``) first; a kill the strict score does not count is then
    settled. By the published vectors alone: a fast run without them (``--skip
    vectors``) settles it if another row fails that the strict score counts, as it then
    fails in a whole run too (a unit's rows are the same in every run); else, and for a
    crash, a whole run, which alone also judges the checks of completeness."""
    first: Outcome = judge(fail_fast=fast)
    if not fast or first[0] != KILLED or first[2] in STRICT_KINDS:
        return first
    if first[2] == "vectors":
        again: Outcome = judge(fail_fast=True, skip=(VECTORS_STEP,))
        if again[0] == KILLED and again[2] in STRICT_KINDS:
            return again
    whole: Outcome = judge(fail_fast=False)
    return whole


def _judge(
    tree: Path,
    rid: str,
    mutant: Mutant,
    settings: Settings,
    base: float,
    *,
    fail_fast: bool,
    skip: tuple[str, ...] = (),
) -> Outcome:
    """One verify run of ``rid`` on the mutated ``tree`` (:func:`verify`), cut at the
    :func:`time_limit` of the unmutated run's ``base`` seconds (0: not timed), with a
    crash judged (:func:`crash_kind`) and a cut run judged (:func:`timeout_is_kill`)."""
    limit = time_limit(base, settings) if base else settings.verify_limit
    outcome, failures, kind = verify(tree, rid, settings, limit, fail_fast=fail_fast, skip=skip)
    if kind == "crash":
        stepped = failures[0]["obligation"] != "crash"
        kind, what = crash_kind(
            failures[0].pop("stderr", ""), tree, patched_files(mutant.patch), stepped
        )
        failures[0]["detail"] = what
        outcome = KILLED if kind != ERROR else ERROR
    if outcome == TIMEOUT:
        failures = [
            {
                "obligation": "time limit",
                "ruleset": rid,
                "status": "timeout",
                "detail": f"cut at {limit:.0f}s; unmutated {base:.0f}s",
            }
        ]
        if base and timeout_is_kill(base, limit):
            outcome, kind = KILLED, "timeout"
    return outcome, failures, kind


def baseline_fingerprint(
    root: Path, rulesets: Sequence[str], settings: Settings
) -> dict[str, dict[str, str]]:
    """The unmutated model's fingerprint, computed the same way as a mutant's."""
    with tempfile.TemporaryDirectory(prefix="tricklaw-mutant-") as tmp:
        got = behaviour(copy_tree(root, Path(tmp)), rulesets, settings)
    if isinstance(got, str):
        raise RuntimeError(f"the unmutated model: {got}")
    return got


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


def run(
    mutants: Sequence[Mutant],
    settings: Settings = Settings(),
    rulesets: Sequence[str] = (),
    progress: Callable[[MutantResult], None] = lambda _: None,
    journal: Path | None = None,
) -> list[MutantResult]:
    """Every mutant's result, in order; ``rulesets`` limits the rulesets fingerprinted
    and verified (default: all those the mutants' files hold rules of). The unmutated
    verify of each ruleset a mutant needs is run once first (:func:`baseline_verify`).
    With a ``journal`` (:mod:`tricklaw.mutation.journal`) each result is kept there as it
    is decided, and a mutant (or baseline time) the journal already holds is not run
    again: a stopped run goes on where it stopped."""
    from tricklaw.model.rulesets import RULESETS

    root = repo_root()
    files = rule_files(root)
    every = list(rulesets or RULESETS)
    kept = Journal.open(journal, source_digest(root, IGNORE), settings) if journal else None
    timed: dict[str, float] = dict(kept.baseline) if kept else {}
    base: dict[str, dict[str, str]] = {}

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
                base = base or baseline_fingerprint(root, every, settings)
                result = run_mutant(mutant, root, base, settings, files, base_seconds=base_seconds)
                if kept:
                    kept.add_result(result, mutant.patch)
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
    """Counts by status; the killed mutants by kind (:data:`KINDS`) and by the first
    failing obligation's name; the score (killed / behaviour-changing mutants), the
    strict score (kills of :data:`STRICT_KINDS` only); the survivors (and timeouts) and
    the errors (not kills, outside the score)."""
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
    }
