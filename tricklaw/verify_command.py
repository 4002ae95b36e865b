"""The ``tricklaw verify`` command: its arguments (``verify [RULESET] [--players N]
[--option NAME=VALUE] [--timeout MS] [--json FILE] [--table] [--jobs N] [--fail-fast]
[--skip STEP] [--smt2 DIR] [--cache DIR | --no-cache] [--watch]``), checked before any
work, and the run (:func:`~tricklaw.verify.report.run_verify`; with ``--watch``,
:func:`~tricklaw.verify.watch.watch`). Apart from :mod:`tricklaw.verify`, which
imports the solver: the command line builds its parser without it."""

from __future__ import annotations

import argparse
import os
import sys

from tricklaw.model.options import parse_option_args
from tricklaw.plugins import load_plugins
from tricklaw.proofs.statuses import legend
from tricklaw.spec.errors import TricklawError
from tricklaw.spec.outputs import check_output_file, check_output_folder


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``verify`` subcommand."""
    p = subparsers.add_parser(
        "verify",
        help="run every check and proof",
        description="Run every check and proof, and report each with its status.",
        epilog="statuses (the command exits 1 if any row fails):\n" + legend(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("ruleset", nargs="?", help="only this ruleset")
    p.add_argument("--players", "-n", type=int, help="only this player count")
    p.add_argument(
        "--option",
        "-o",
        action="append",
        metavar="NAME=VALUE",
        help="fix an option's reading instead of proving every reading (repeatable)",
    )
    p.add_argument(
        "--timeout",
        type=int,
        default=30_000,
        metavar="MS",
        help="time-out per obligation in milliseconds (default 30000); a time-out is unknown",
    )
    p.add_argument("--json", dest="json_path", metavar="FILE", help="write a JSON report")
    p.add_argument(
        "--table",
        action="store_true",
        help="print every row in a table (default: an 80-column summary with every finding "
        "and failure in full; every row is also in the --json report)",
    )
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        metavar="N",
        help="worker processes, one (ruleset, player count) at a time (default: every core)",
    )
    p.add_argument(
        "--fail-fast",
        action="store_true",
        help="stop at the first failing row: the exit status is the full run's, the report "
        "has the rows run until then (one step over every table at a time, quick steps "
        "first)",
    )
    p.add_argument(
        "--past-falls",
        action="store_true",
        help="with --fail-fast: go on past a step that fell over (raised an exception), "
        "and stop at the first failing row a step reported",
    )
    p.add_argument(
        "--skip",
        action="append",
        metavar="STEP",
        help="leave out a step by name, e.g. 'vectors' or 'equivalence' (repeatable; the "
        "report names it, and the run is partial)",
    )
    p.add_argument(
        "--smt2",
        metavar="DIR",
        help="write every solver query as an SMT-LIB 2 file into DIR (new or empty), "
        "with index.json giving each file's expected answer",
    )
    cache = p.add_mutually_exclusive_group()
    cache.add_argument(
        "--cache",
        metavar="DIR",
        help="keep each step's rows in DIR and take them from there while nothing they "
        "depend on has changed (default: the user's cache folder, e.g. "
        "~/.cache/tricklaw/verify; TRICKLAW_VERIFY_CACHE sets another, 'off' none)",
    )
    cache.add_argument(
        "--no-cache",
        action="store_true",
        help="compute every row; neither read nor write the cache",
    )
    p.add_argument(
        "--watch",
        action="store_true",
        help="verify again on every save of the package's source or spec files (only what "
        "the edit can change, through the cache), and say which rows now fail or pass "
        "again; Ctrl-C stops it",
    )
    p.set_defaults(func=cmd_verify)


def _child_argv(args: argparse.Namespace, jobs: int) -> list[str]:
    """The arguments of one run under ``--watch``: these, less ``--watch``."""
    argv = [args.ruleset] if args.ruleset else []
    argv += ["--players", str(args.players)] if args.players is not None else []
    argv += [arg for option in args.option or [] for arg in ("--option", option)]
    argv += ["--timeout", str(args.timeout), "--jobs", str(jobs)]
    argv += ["--fail-fast"] * args.fail_fast + ["--past-falls"] * args.past_falls
    argv += [f"--skip={step}" for step in args.skip or []]
    argv += ["--table"] * args.table
    argv += ["--no-cache"] if args.no_cache else ["--cache", args.cache] if args.cache else []
    return argv


def cmd_verify(args: argparse.Namespace) -> int:
    """Run every check and proof of the scope the arguments give, print the report, and
    return the exit status (1 when a row fails)."""
    from tricklaw.verify import Scope, run_verify  # the solver's import, only when run
    from tricklaw.verify.cache import default_folder

    if args.players is not None and args.players < 1:
        raise TricklawError(f"--players must be at least 1, not {args.players}")
    if args.timeout < 1:
        raise TricklawError(f"--timeout must be at least 1 millisecond, not {args.timeout}")
    jobs = (os.cpu_count() or 1) if args.jobs is None else args.jobs
    if jobs < 1:
        raise TricklawError(f"--jobs must be at least 1, not {jobs}")
    if args.past_falls and not args.fail_fast:
        raise TricklawError("--past-falls goes with --fail-fast: a whole run goes past every fall")
    if args.json_path:
        check_output_file(args.json_path, "--json", "the JSON report")
    if args.cache == "":
        raise TricklawError("--cache needs a folder (or --no-cache for none)")
    cache = None if args.no_cache else args.cache or default_folder()
    if args.cache:
        check_output_folder(args.cache, "--cache")
    elif cache is not None:
        try:
            check_output_folder(cache, "the result cache")
        except TricklawError as exc:
            print(f"tricklaw: verify: note: {exc}; running without the cache", file=sys.stderr)
            cache = None
    if args.watch:
        if args.json_path or args.smt2:
            raise TricklawError("--watch writes no --json report or --smt2 queries: run without it")
        from tricklaw.verify.watch import watch

        return watch(_child_argv(args, jobs), sys.stdout)
    scope = Scope(
        args.ruleset,
        args.players,
        parse_option_args(args.option or []),
        args.timeout,
        jobs,
        args.smt2,
        load_plugins,
        args.fail_fast,
        tuple(args.skip or ()),
        args.past_falls,
        None if cache is None else str(cache),
    )
    return run_verify(scope, args.json_path, sys.stdout, table=args.table)
