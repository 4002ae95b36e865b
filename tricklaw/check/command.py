"""The ``tricklaw check`` subcommand: its arguments, and the verdict printed.

``tricklaw/cli.py`` adds it to the ``tricklaw`` parser with :func:`add_command`. The
verdict is one line (``agrees: ...``, ``diverges: ...``), or with ``--json`` one JSON
object; an unreadable input prints ``tricklaw: error: check: ...`` to standard error.
The exit status is the verdict's: 0 agrees, 1 diverges, 2 unreadable.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from tricklaw.check.convert import log_line
from tricklaw.check.reading import check_path
from tricklaw.model.replay.declaration import read_declaration
from tricklaw.model.replay.records import Emit
from tricklaw.model.replay.verdict import UNREADABLE
from tricklaw.spec.errors import TricklawError
from tricklaw.spec.outputs import check_output_file


def cmd_check(args: argparse.Namespace) -> int:
    """``tricklaw check``: print the verdict; return 0 agrees, 1 diverges, 2 unreadable."""
    out: TextIO | None = None
    emit: Emit | None = None
    if args.convert:
        check_output_file(args.convert, "check: --convert", "the log", [args.record])
        try:
            out = open(args.convert, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as exc:
            raise TricklawError(f"check: cannot write {args.convert}: {exc.strerror}") from None
        sink = out

        def emit(obj: dict[str, Any]) -> None:
            sink.write(log_line(obj) + "\n")

    try:
        declaration = read_declaration(args.declare, "check: --declare") if args.declare else None
        verdict = check_path(
            args.record, own_shuffle=args.own_shuffle, emit=emit, declaration=declaration
        )
    finally:
        if out is not None:
            out.close()
    if args.json:
        sys.stdout.write(json.dumps(verdict.as_json(), ensure_ascii=False) + "\n")
    elif verdict.status == UNREADABLE:
        sys.stderr.write(f"tricklaw: error: check: {verdict.message}\n")
    else:
        sys.stdout.write(f"{verdict.status}: {verdict.message}\n")
    return verdict.exit_status


def add_command(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``check`` subcommand to the ``tricklaw`` parser's ``subparsers``."""
    p = subparsers.add_parser(
        "check",
        help="check a game log or record from any implementation against the rules",
        description=(
            "Replay a JSON game record or a JSON Lines log (spec/log.schema.json) through "
            "the reference model and report the first divergence with its clause ids and "
            "the expected value. Exit status: 0 agrees, 1 diverges, 2 unreadable."
        ),
    )
    p.add_argument(
        "record", metavar="RECORD", help="a JSON record or JSON Lines log ('-': standard input)"
    )
    p.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    p.add_argument(
        "--own-shuffle",
        action="store_true",
        help="the deals come from the implementation's own shuffle: check that each is a "
        "legal deal, not that the seed gives it",
    )
    p.add_argument(
        "--convert",
        metavar="FILE",
        help="also write the events checked, as a JSON Lines log, to FILE",
    )
    p.add_argument(
        "--declare",
        metavar="FILE",
        help="what the engine that wrote the log implements (JSON, as the oracle "
        "protocol's hello 'implements'): its readings fill in the options, and a "
        "divergence on a dispute it settles by its own rule is a departure (exit 0) when "
        "a reading of the dispute gives the log's answer and the whole log agrees under "
        "that reading",
    )
    p.set_defaults(func=cmd_check)
