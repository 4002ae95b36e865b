"""``python -m tricklaw.mutation``: the mutation score of ``tricklaw verify``.

Examples::

    python -m tricklaw.mutation --list                      # the project's own mutants
    python -m tricklaw.mutation --sample 8 --seed 1 --json out.json
    python -m tricklaw.mutation --mutants held-back.toml    # a mutant set (see mutants.py)
    python -m tricklaw.mutation --only lowhigh.judge.L73.cmp-boundary
    python -m tricklaw.mutation --journal all.jsonl --json all.json   # stop, run again: resumes

Exits 1 when a behaviour-changing mutant survives verify (or times out undecided), or
a run ends in a harness error, else 0. Every child process has a hard time limit (see
:mod:`tricklaw.mutation.runner`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import asdict
from pathlib import Path

from tricklaw.mutation.mutants import Mutant, generate, load_mutants
from tricklaw.mutation.runner import run, summary
from tricklaw.mutation.verdicts import Settings
from tricklaw.spec.outputs import write_atomically


def select(
    mutants: list[Mutant], sample: int | None, seed: int, only: list[str], ruleset_files: set[str]
) -> list[Mutant]:
    """The mutants asked for: by id (``only``), in ``ruleset_files`` when given, then a
    seeded sample of ``sample`` of them (in id order)."""
    chosen = [m for m in mutants if not only or m.id in only]
    if ruleset_files:
        chosen = [m for m in chosen if m.file in ruleset_files]
    if sample is not None and sample < len(chosen):
        chosen = sorted(random.Random(seed).sample(chosen, sample), key=lambda m: m.id)
    return chosen


def _check_outputs(json_path: str | None, journal: Path | None, settings: Settings) -> None:
    """Raise :class:`~tricklaw.spec.errors.TricklawError` if the results cannot be
    written to ``json_path`` (or it is the journal), or ``journal`` cannot be resumed by
    a run with ``settings`` (:class:`~tricklaw.mutation.journal.Journal`)."""
    from tricklaw.mutation.journal import Journal, source_digest
    from tricklaw.mutation.mutants import repo_root
    from tricklaw.mutation.runner import IGNORE
    from tricklaw.spec.outputs import check_output_file

    if json_path:
        check_output_file(json_path, "--json", "the results", [str(journal)] if journal else [])
    if journal:
        Journal.open(journal, source_digest(repo_root(), IGNORE), settings).close()


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    from tricklaw.model.rulesets import get_ruleset
    from tricklaw.mutation.mutants import repo_root, ruleset_files
    from tricklaw.plugins import load_plugins
    from tricklaw.spec.errors import TricklawError

    load_plugins()
    p = argparse.ArgumentParser(prog="python -m tricklaw.mutation", description=__doc__)
    p.add_argument("--mutants", type=Path, help="a mutant set (TOML file or folder of diffs)")
    p.add_argument("--list", action="store_true", help="list the mutants and stop")
    p.add_argument("--sample", type=int, help="run a seeded sample of this many mutants")
    p.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    p.add_argument("--only", action="append", default=[], metavar="ID", help="this mutant")
    p.add_argument("--ruleset", help="only mutants of this ruleset's own files")
    p.add_argument("--jobs", "-j", type=int, default=2, help="verify's --jobs (default 2)")
    p.add_argument("--timeout", type=int, default=30_000, help="verify's --timeout in ms")
    p.add_argument(
        "--limit", type=float, default=600.0, help="hard time limit of each child run (s)"
    )
    p.add_argument("--path", action="append", default=[], help="extra PYTHONPATH (plug-ins)")
    p.add_argument(
        "--verify-equivalent",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="verify the mutants whose fingerprint is unchanged too, a kill making them "
        "killed (default: yes; the fingerprint samples games)",
    )
    p.add_argument(
        "--whole",
        action="store_true",
        help="run every verify whole (default: --fail-fast, with a whole run to settle a kill "
        "the strict score does not count)",
    )
    p.add_argument("--json", dest="json_path", help="write the results as JSON")
    p.add_argument(
        "--journal",
        type=Path,
        help="keep each result in this file as it is decided, and go on from it: a mutant "
        "it holds is not run again (see tricklaw.mutation.journal)",
    )
    args = p.parse_args(argv)
    settings = Settings(
        jobs=args.jobs,
        timeout_ms=args.timeout,
        verify_limit=args.limit,
        behaviour_limit=args.limit,
        extra_path=tuple(args.path),
        verify_equivalent=args.verify_equivalent,
        fail_fast=not args.whole,
    )
    if not args.list:  # the outputs are checked before hours of work, not after
        try:
            _check_outputs(args.json_path, args.journal, settings)
        except TricklawError as exc:
            p.error(str(exc))

    mutants = load_mutants(args.mutants) if args.mutants else generate(ids=args.only)
    files = set(ruleset_files(get_ruleset(args.ruleset), repo_root())) if args.ruleset else set()
    unknown = sorted(set(args.only) - {m.id for m in mutants})
    if unknown:  # a run of nothing would pass while checking nothing
        p.error(f"--only {unknown[0]}: no such mutant (see --list; ids name the line)")
    chosen = select(mutants, args.sample, args.seed, args.only, files)
    if not chosen:
        p.error("no mutant is selected (see --list)")
    if args.list:
        for m in chosen:
            print(f"{m.id}\t{m.description}")
        print(f"{len(chosen)} of {len(mutants)} mutants")
        return 0

    def show(r: object) -> None:
        d = asdict(r)  # type: ignore[call-overload]
        why = d["killed_by"][0]["obligation"] if d["killed_by"] else ""
        kind = f"[{d['kind']}] " if d["kind"] else ""
        print(f"{d['status']:<11} {d['seconds']:>6.1f}s {d['id']}  {kind}{why}", flush=True)

    try:
        results = run(chosen, settings, progress=show, journal=args.journal)
    except RuntimeError as exc:  # the unmutated model itself fails: no mutant is judged
        p.exit(2, f"{p.prog}: error: {exc}\n")
    report = summary(results)
    lists = {"survivors", "errors", "unreached"}
    print(json.dumps({k: v for k, v in report.items() if k not in lists}))
    for s in report["survivors"]:
        print(f"SURVIVOR {s['id']}: {s['description']}; differs on {s['witness'][:1]}")
    for u in report["unreached"]:
        print(f"UNREACHED {u['id']}: {u['description']}; {u['witness'][:1]}")
    for e in report["errors"]:
        print(f"ERROR {e['id']}: {e['killed_by'][0]['detail'] if e['killed_by'] else ''}")
    if args.json_path:
        write_atomically(
            args.json_path,
            json.dumps({**report, "results": [asdict(r) for r in results]}, indent=1),
        )
    return 1 if report["survivors"] or report["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
