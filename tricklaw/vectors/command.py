"""The ``tricklaw vectors`` command: generate the conformance vectors into
``spec/vectors/v1`` (or ``--out DIR``), or ``--check`` them against a fresh generation.
:func:`add_command` is the hook :mod:`tricklaw.cli` calls to add it."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from importlib import resources
from pathlib import Path

from tricklaw.vectors.cases import VectorError
from tricklaw.vectors.files import FOLDER, check, generate, own_folder, write


def _default_out() -> Path | None:
    here = Path("spec") / "vectors"
    return here if Path("spec").is_dir() else None


def cmd_vectors(args: argparse.Namespace) -> int:
    """Generate the conformance vectors, or (``--check``) compare them with the files."""
    out = Path(args.out) if args.out else _default_out()
    if args.check:
        if out is None:
            installed = resources.files("tricklaw.spec").joinpath("vectors")
            out = Path(str(installed))
        problem = check(out)
        count = len(generate())
        if args.json:
            status = "differs" if problem else "agrees"
            answer = {"status": status, "folder": str(out / FOLDER), "files": count}
            _json(answer | {"problem": problem} if problem else answer)
        elif problem:
            sys.stderr.write(f"tricklaw: vectors: {problem} (run 'tricklaw vectors')\n")
        else:
            sys.stdout.write(f"vectors agree: {count} files in {out / FOLDER}\n")
        return 1 if problem else 0
    if out is None:
        raise VectorError("no spec/ folder here: run from the repository root or give --out DIR")
    own = own_folder(out, force=args.force)  # before the work: a user's files are kept
    files = write(out, own)
    size = sum(len(t.encode("utf-8")) for t in files.values())
    if args.json:
        _json(
            {"status": "written", "folder": str(out / FOLDER), "files": len(files), "bytes": size}
        )
    else:
        sys.stdout.write(f"wrote {len(files)} files ({size} bytes) to {out / FOLDER}\n")
    return 0


def _json(answer: Mapping[str, object]) -> None:
    sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``vectors`` subcommand (``tricklaw vectors [--out DIR] [--check]``)."""
    p = subparsers.add_parser(
        "vectors", help="generate the conformance vectors (spec/vectors/v1), or check them"
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        help="the vectors folder; files go to DIR/v1 (default: spec/vectors under the "
        "current folder, the repository root)",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="write into DIR/v1 even if it holds files tricklaw did not write (or that "
        "were changed since), overwriting those with a vector file's name; other files "
        "are never removed",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="regenerate in memory and exit 1 naming the first file that differs",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print the result as one JSON object (status, folder, files; with --check "
        "the first difference as 'problem')",
    )
    p.set_defaults(func=cmd_vectors)
