"""Run mutants: plant each in a copy of the source, judge it, run verify on it.

For each :class:`~tricklaw.mutation.mutants.Mutant`:

1. copy the repository (:func:`copy_tree`) and apply the mutant's patch (``patch -p1``);
   a patch that does not apply is ``not-applied``;
2. fingerprint the mutated model (:mod:`tricklaw.mutation.behaviour`, in a process with
   the copy first on ``PYTHONPATH``) for the rulesets the changed files hold rules of, and
   compare with the unmutated model's fingerprint. No difference: ``equivalent`` (no
   behaviour change on any legal input tried; verify is not asked unless
   ``verify_equivalent``). A difference is the mutant's witness;
3. run ``python -m tricklaw verify RULESET --jobs N --json ...`` on the copy for each
   ruleset whose behaviour changed, until one fails: ``killed`` (with the obligations that
   failed, or ``crash`` when verify itself died), ``survived``, or ``timeout``.

The score is killed / (killed + survived + timeout): verify alone must kill every mutant
that changes a rule's behaviour.
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
from pathlib import Path
from typing import Any

from tricklaw.mutation.behaviour import differences
from tricklaw.mutation.mutants import Mutant, patched_files, repo_root, rule_files

KILLED = "killed"
SURVIVED = "survived"
EQUIVALENT = "equivalent"
NOT_APPLIED = "not-applied"
TIMEOUT = "timeout"
FAILING = frozenset({"fail", "counterexample", "unknown"})
"""verify's statuses that fail it (``tricklaw.verify.BAD``, plus ``vacuous`` when set)."""
IGNORE = shutil.ignore_patterns(
    ".git", "docs", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", "*.egg-info"
)


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


@dataclass(frozen=True)
class Settings:
    """How to run: verify's worker processes, its per-obligation time-out, the time
    limits of the child processes, extra ``PYTHONPATH`` entries (plug-ins; ``{tree}`` in
    an entry stands for the mutated copy, e.g. ``{tree}/tests`` for a plug-in kept in the
    repository), and whether to run verify on equivalent mutants too."""

    jobs: int = 2
    timeout_ms: int = 30_000
    verify_limit: float = 600.0
    behaviour_limit: float = 600.0
    extra_path: tuple[str, ...] = ()
    verify_equivalent: bool = False


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
        raise TimeoutError(command[2]) from None
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


def verify(tree: Path, ruleset: str, settings: Settings) -> tuple[str, list[dict[str, str]]]:
    """verify on ``ruleset`` in ``tree``: (KILLED, failures), (SURVIVED, []) or
    (TIMEOUT, [])."""
    out = tree.parent / f"verify-{ruleset}.json"
    command = [sys.executable, "-m", "tricklaw", "verify", ruleset, "--jobs", str(settings.jobs)]
    command += ["--timeout", str(settings.timeout_ms), "--json", str(out)]
    try:
        code, err = _call(command, tree, settings, settings.verify_limit)
    except TimeoutError:
        return TIMEOUT, []
    if out.exists():
        report = json.loads(out.read_text(encoding="utf-8"))
        failed = [
            {k: str(r[k]) for k in ("obligation", "ruleset", "players", "reading", "status")}
            | {"detail": str(r.get("detail", ""))[:300]}
            for r in report["results"]
            if r["status"] in FAILING or r["status"] == "vacuous"
        ]
        if failed or code != 0:
            return KILLED, failed or [{"obligation": "exit status", "status": "fail"}]
        return SURVIVED, []
    tail = (err.strip().splitlines() or ["no output"])[-1][-300:]
    return KILLED, [{"obligation": "crash", "ruleset": ruleset, "status": "fail", "detail": tail}]


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
) -> MutantResult:
    """Plant, judge and verify one mutant (see the module docstring)."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tricklaw-mutant-") as tmp:
        tree = copy_tree(root, Path(tmp))
        problem = apply_patch(tree, mutant.patch)
        if problem is not None:
            return MutantResult(mutant.id, mutant.description, NOT_APPLIED, witness=(problem,))
        scope = affected(mutant, files, list(baseline))
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
        for rid in changed or (scope if settings.verify_equivalent else []):
            began = time.perf_counter()
            outcome, failures = verify(tree, rid, settings)
            seconds[rid] = round(time.perf_counter() - began, 1)
            if outcome != SURVIVED:
                if changed:
                    status = outcome
                killed_by = failures
                break
    return MutantResult(
        mutant.id,
        mutant.description,
        status,
        tuple(changed),
        tuple(witness),
        tuple(killed_by),
        round(time.perf_counter() - start, 1),
        seconds,
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


def run(
    mutants: Sequence[Mutant],
    settings: Settings = Settings(),
    rulesets: Sequence[str] = (),
    progress: Callable[[MutantResult], None] = lambda _: None,
) -> list[MutantResult]:
    """Every mutant's result, in order; ``rulesets`` limits the rulesets fingerprinted
    and verified (default: all those the mutants' files hold rules of)."""
    from tricklaw.model.rulesets import RULESETS

    root = repo_root()
    files = rule_files(root)
    every = list(rulesets or RULESETS)
    base = baseline_fingerprint(root, every, settings)
    out = []
    for mutant in mutants:
        result = run_mutant(mutant, root, base, settings, files)
        progress(result)
        out.append(result)
    return out


def summary(results: Sequence[MutantResult]) -> dict[str, Any]:
    """Counts by status, the kind of verify result that killed each killed mutant (its
    first failing obligation's name, ``crash`` when verify died of an exception), the
    score (killed / behaviour-changing mutants) and the survivors."""
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    changing = counts.get(KILLED, 0) + counts.get(SURVIVED, 0) + counts.get(TIMEOUT, 0)
    killers: dict[str, int] = {}
    for r in results:
        if r.status == KILLED:
            first = r.killed_by[0]["obligation"] if r.killed_by else "exit status"
            kind = first.split(" ")[0]  # "example LH-EX-1" -> "example"
            killers[kind] = killers.get(kind, 0) + 1
    return {
        "mutants": len(results),
        "counts": counts,
        "killed-by": dict(sorted(killers.items())),
        "behaviour-changing": changing,
        "score": round(counts.get(KILLED, 0) / changing, 4) if changing else None,
        "survivors": [asdict(r) for r in results if r.status in {SURVIVED, TIMEOUT}],
    }
