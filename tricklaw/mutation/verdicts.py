"""How one verify run of a mutated source tree is judged: killed (and how), survived,
timed out, or a harness error.

Every child process has a hard time limit, so that the harness always ends (a mutant
whose game never ends, or a loop that never stops): the unmutated model's own runs are
timed first (:func:`~tricklaw.mutation.runner.baseline_verify`, which must also pass,
else every mutant would be "killed" by a failure that is not its own), and a mutant's
run is cut at :func:`time_limit` (:data:`LIMIT_FACTOR` times the unmutated run plus
:data:`LIMIT_SLACK`, at most ``Settings.verify_limit``).

How a killed mutant was killed (:attr:`~tricklaw.mutation.runner.MutantResult.kind`, :data:`KINDS`):

* ``obligation``: a row of verify's report failed (``fail``, an undocumented
  ``vacuous`` or ``trivial``: as :func:`tricklaw.proofs.results.fails` decides);
  ``counterexample``: a row gave a counterexample; the row's obligation name is in
  :attr:`~tricklaw.mutation.runner.MutantResult.killed_by` (:func:`kill_kind`);
* ``unknown``: the only failing rows are ``unknown``: the solver did not finish within
  verify's time-out (verify fails, but a time-out is no proof of a bug, and on a busy
  machine no proof of the mutant either);
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
* ``worker-died``: only ``worker`` rows failed: a worker process of verify was killed
  from outside (the system's answer to a mutated model that takes all the memory), which
  verify reports as a ``fail`` row for each unit it lost;
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
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tricklaw.mutation.mutants import Mutant, patched_files
from tricklaw.proofs.statuses import BAD, HOLLOW, UNKNOWN

KILLED = "killed"
SURVIVED = "survived"
EQUIVALENT = "equivalent"
UNREACHED = "unreached"
"""A mutant whose fingerprint is unchanged but that changes a statement the unmutated
fingerprint never runs, and that verify does not kill: no evidence either way."""
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
    "worker-died",
    "vectors",
    "unknown",
    "timeout",
)
"""The ways a mutant is killed (see the module docstring)."""
VECTORS_STEP = "vectors"
"""verify's step that gives the published conformance vectors again (``--skip`` names it)."""
WORKER = "worker"
"""The obligation of verify's row for a unit whose worker process was killed."""
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
documents it as expected (``expected``, :func:`tricklaw.proofs.results.fails`)."""


@dataclass(frozen=True)
class Settings:
    """How to run: verify's worker processes, its per-obligation time-out, the time
    limits of the child processes, extra ``PYTHONPATH`` entries (plug-ins; ``{tree}`` in
    an entry stands for the mutated copy, e.g. ``{tree}/tests`` for a plug-in kept in the
    repository), whether to run verify on the mutants whose fingerprint is unchanged
    too (``verify_equivalent``, the default: the fingerprint plays sampled games under
    chosen readings, and missed a change that shows only under three options' readings
    together, Hund's ``round_score`` with two powers named; verify killed it), and whether verify
    stops at its first failure (``fail_fast``, ``tricklaw verify --fail-fast``: a killed
    mutant's run ends at the first failing row instead of running every obligation;
    a kill the strict score does not count is then settled, :func:`settle`)."""

    jobs: int = 2
    timeout_ms: int = 30_000
    verify_limit: float = 600.0
    behaviour_limit: float = 600.0
    extra_path: tuple[str, ...] = ()
    verify_equivalent: bool = True
    fail_fast: bool = True


def _env(tree: Path, settings: Settings) -> dict[str, str]:
    env = dict(os.environ)
    extra = [p.replace("{tree}", str(tree)) for p in settings.extra_path]
    env["PYTHONPATH"] = os.pathsep.join([str(tree), *extra])
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def call(command: list[str], tree: Path, settings: Settings, limit: float) -> tuple[int, str]:
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


def kill_kind(reported: Sequence[Mapping[str, str]]) -> str:
    """How the failing rows ``reported`` (:func:`failed_rows`, none a step that fell
    over) kill a mutant: by the first row that is not ``unknown``, a ``counterexample`` or
    else an ``obligation``; ``vectors`` or ``worker-died`` when those rows are all such;
    ``unknown`` when every row is a solver that did not finish (a time-out is no proof
    of a bug: outside the strict score, and settled by a whole run, :func:`settle`)."""
    decided = [r for r in reported if r["status"] != UNKNOWN]
    if reported and not decided:
        return "unknown"
    first = decided[0]["status"] if decided else ""
    kind = "counterexample" if first == "counterexample" else "obligation"
    if decided and all(r["obligation"].startswith(VECTORS) for r in decided):
        kind = "vectors"
    if decided and all(r["obligation"] == WORKER for r in decided):
        kind = "worker-died"
    return kind


def verify(
    tree: Path,
    ruleset: str,
    settings: Settings,
    limit: float | None = None,
    *,
    fail_fast: bool = False,
    skip: tuple[str, ...] = (),
    past_falls: bool = False,
) -> tuple[str, list[dict[str, str]], str]:
    """verify on ``ruleset`` in ``tree`` (with ``--fail-fast``, ``--past-falls`` and
    ``--skip`` if asked), cut
    at ``limit`` seconds (default the settings' limit): (KILLED, failures, kind),
    (SURVIVED, [], ""), (TIMEOUT, [], "") or (ERROR, [crash], kind); a crash's kind is left
    to :func:`crash_kind` (``crash``)."""
    out = tree.parent / f"verify-{ruleset}.json"
    out.unlink(missing_ok=True)  # a whole run after a fast one reads its own report
    command = [sys.executable, "-c", VERIFY, "verify", ruleset, "--jobs", str(settings.jobs)]
    # a mutant's tree has its own sources (so its own keys); the cache would only fill up
    command += ["--no-cache"]
    command += ["--timeout", str(settings.timeout_ms), "--json", str(out)]
    command += ["--fail-fast"] if fail_fast else []
    command += ["--past-falls"] if past_falls else []
    command += [arg for step in skip for arg in ("--skip", step)]
    try:
        code, err = call(command, tree, settings, settings.verify_limit if limit is None else limit)
    except TimeoutError:
        return TIMEOUT, [], ""
    if out.exists():
        failed = failed_rows(json.loads(out.read_text(encoding="utf-8")))
        reported = [r for r in failed if "traceback" not in r]
        if failed and not reported:  # only steps that fell over: judged as a crash
            crashed = dict(failed[0])
            return KILLED, [crashed | {"stderr": crashed.pop("traceback")}], "crash"
        if failed or code != 0:
            kind = kill_kind(reported)
            return KILLED, failed or [{"obligation": "exit status", "status": "fail"}], kind
        return SURVIVED, [], ""
    tail = (err.strip().splitlines() or ["no output"])[-1][-300:]
    crash = {"obligation": "crash", "ruleset": ruleset, "status": "fail", "detail": tail}
    return KILLED, [crash | {"stderr": err}], "crash"


Outcome = tuple[str, list[dict[str, str]], str]
"""A verify run judged: the status, the failures, the kind of kill (:func:`verify`)."""


STRICT_KILL = 3
"""The :func:`strength` of a kill the strict score counts."""


def strength(outcome: Outcome) -> int:
    """How much a verify outcome says of a mutant, to keep the strongest of several
    rulesets' runs: a kill the strict score counts (:data:`STRICT_KILL`), then another
    kill, then an undecided run (a time-out or an error: it might have killed), then a
    survival (0)."""
    status, _, kind = outcome
    if status == KILLED:
        return STRICT_KILL if kind in STRICT_KINDS else 2
    return 1 if status in {TIMEOUT, ERROR} else 0


def settle(one_run: Callable[..., Outcome], *, fast: bool) -> Outcome:
    """A mutant's verify outcome from ``one_run(fail_fast=..., skip=..., past_falls=...)``
    (one verify run, as :func:`judge` runs it): a ``fast`` run (``--fail-fast``) first;
    a kill the strict score does not count (the published vectors alone, the mutated
    model raising in a step, a solver's unknown) is then settled. A fast run that goes
    on past the steps that fell over and leaves the vectors out (``--past-falls --skip
    vectors``) settles it if a row fails that the strict score counts, as that row then
    fails in a whole run too (a step's rows are the same in every run); else a whole
    run, which alone also judges the checks of completeness."""
    first: Outcome = one_run(fail_fast=fast)
    if not fast or first[0] != KILLED or first[2] in STRICT_KINDS:
        return first
    again: Outcome = one_run(fail_fast=True, skip=(VECTORS_STEP,), past_falls=True)
    if again[0] == KILLED and again[2] in STRICT_KINDS:
        return again
    whole: Outcome = one_run(fail_fast=False)
    return whole


def judge(
    tree: Path,
    rid: str,
    mutant: Mutant,
    settings: Settings,
    base: float,
    *,
    fail_fast: bool,
    skip: tuple[str, ...] = (),
    past_falls: bool = False,
) -> Outcome:
    """One verify run of ``rid`` on the mutated ``tree`` (:func:`verify`), cut at the
    :func:`time_limit` of the unmutated run's ``base`` seconds (0: not timed), with a
    crash judged (:func:`crash_kind`) and a cut run judged (:func:`timeout_is_kill`)."""
    limit = time_limit(base, settings) if base else settings.verify_limit
    outcome, failures, kind = verify(
        tree, rid, settings, limit, fail_fast=fail_fast, skip=skip, past_falls=past_falls
    )
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
