"""``tricklaw bounds``: prove every score bound once and write them down, or check them.

``tricklaw bounds`` proves the least and the greatest round score of one player for every
ruleset, player count and reading (:mod:`tricklaw.proofs.bounds`) and writes them,
deterministically, to ``spec/bounds/v1.json`` (checked in, and installed with the
package; :mod:`tricklaw.spec.proved_bounds` describes it); ``--out FILE`` writes elsewhere.
``tricklaw bounds --check`` proves them again and exits 1 with one line naming the first
difference from the file. What needs only the values reads the file, without Z3; ``tricklaw
verify`` compares the bounds it proves with it (check ``bounds-artifact``).

Given ruleset ids, it proves only theirs: a plug-in's game keeps its own file in its spec
folder (``tricklaw bounds tiny --out tests/tiny/spec/bounds/v1.json``), and
:func:`~tricklaw.spec.proved_bounds.load_bounds` reads every folder's.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from importlib import resources
from pathlib import Path

from tricklaw.spec.errors import TricklawError
from tricklaw.spec.outputs import check_output_file, check_output_folder, write_output
from tricklaw.spec.proved_bounds import PATH


def _default_file() -> Path | None:
    """``spec/bounds/v1.json`` under the current folder, when it is the repository root."""
    return Path("spec") / PATH if Path("spec").is_dir() else None


def cmd_bounds(args: argparse.Namespace) -> int:
    """Write the score bounds file, or (``--check``) compare it with a fresh proof."""
    from tricklaw.model.rulesets import get_ruleset
    from tricklaw.proofs.bounds import artifact

    ids = [get_ruleset(rid).id for rid in args.ruleset] or None
    target = Path(args.out) if args.out else _default_file()
    if args.check:
        if target is None:
            target = Path(str(resources.files("tricklaw.spec").joinpath(PATH)))
        try:
            text = target.read_text(encoding="utf-8")
        except OSError as exc:
            raise TricklawError(f"cannot read {target}: {exc.strerror}") from None
        problem = artifact.check_text(text, str(target), ids)
        if args.json:
            answer = {"status": "differs" if problem else "agrees", "file": str(target)}
            _json(answer | {"problem": problem} if problem else answer)
        elif problem:
            sys.stderr.write(f"tricklaw: bounds: {target}: {problem} (run 'tricklaw bounds')\n")
        else:
            sys.stdout.write(f"bounds agree: {target}\n")
        return 1 if problem else 0
    if target is None:
        raise TricklawError("no spec/ folder here: run from the repository root or give --out FILE")
    check_output_folder(target.parent, "--out")
    check_output_file(str(target), "--out", "the bounds")
    text = artifact.generate(ids)
    if ids is not None and target.is_file():  # the other rulesets' bounds stay in the file
        text = artifact.merged(target.read_text(encoding="utf-8"), text, ids)
    write_output(target, text, "the bounds (--out)")
    size = len(text.encode("utf-8"))
    if args.json:
        _json({"status": "written", "file": str(target), "bytes": size})
    else:
        sys.stdout.write(f"wrote {size} bytes to {target}\n")
    return 0


def _json(answer: Mapping[str, object]) -> None:
    sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``bounds`` subcommand (``tricklaw bounds [--out FILE] [--check]``)."""
    p = subparsers.add_parser(
        "bounds", help="prove every score bound and write them (spec/bounds/v1.json), or check"
    )
    p.add_argument("ruleset", nargs="*", help="only these rulesets (default: every ruleset)")
    p.add_argument(
        "--out",
        metavar="FILE",
        help="the bounds file (default: spec/bounds/v1.json under the current folder, the "
        "repository root)",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="prove again and exit 1 naming the first difference from the file",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print the result as one JSON object (status, file; with --check the first "
        "difference as 'problem')",
    )
    p.set_defaults(func=cmd_bounds)
