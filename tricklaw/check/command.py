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

from tricklaw.check.convert import LogWriter
from tricklaw.check.reading import check_path, check_stream
from tricklaw.model.replay.checker import verdict as verdict_of
from tricklaw.model.replay.declaration import Declaration, read_declaration
from tricklaw.model.replay.verdict import AGREES, UNREADABLE, Verdict
from tricklaw.spec.errors import TricklawError
from tricklaw.spec.outputs import STDIN, atomic_file, check_output_file


def cmd_check(args: argparse.Namespace) -> int:
    """``tricklaw check``: print the verdict; return 0 agrees, 1 diverges, 2 unreadable.

    With ``--convert FILE`` the output path is checked first (not an input: neither the
    record nor the ``--declare`` file), then every input is read or opened, and only then
    is the log written: to a temporary file beside ``FILE``, renamed into place once the
    input agrees and the log is whole (:func:`~tricklaw.spec.outputs.atomic_file`).
    Otherwise ``FILE`` is left as it was."""
    inputs = [args.record, *([args.declare] if args.declare else [])]
    if args.convert:
        check_output_file(args.convert, "check: --convert", "the log", inputs)
    declaration = read_declaration(args.declare, "check: --declare") if args.declare else None
    if not args.convert:
        verdict = check_path(args.record, own_shuffle=args.own_shuffle, declaration=declaration)
    else:
        verdict = _converted(args, declaration)
    if args.json:
        sys.stdout.write(json.dumps(verdict.as_json(), ensure_ascii=False) + "\n")
    elif verdict.status == UNREADABLE:
        sys.stderr.write(f"tricklaw: error: check: {verdict.message}\n")
    else:
        status = f"{verdict.status} ({verdict.game})" if verdict.game else verdict.status
        sys.stdout.write(f"{status}: {verdict.message}\n")
    return verdict.exit_status


def _converted(args: argparse.Namespace, declaration: Declaration | None) -> Verdict:
    """The verdict on ``args.record``, written as a log to ``args.convert`` when it agrees
    (atomically); when it does not, or the input cannot be read, nothing is written."""
    try:
        source = _open_input(args.record)
    except OSError as exc:  # before any output is opened
        return verdict_of(UNREADABLE, f"cannot read {args.record}: {exc.strerror}", None)
    try:
        with atomic_file(args.convert) as sink:
            writer = LogWriter(sink)
            found = check_stream(
                source, own_shuffle=args.own_shuffle, emit=writer, declaration=declaration
            )
            if found.status != AGREES:
                raise _NotConvertedError(found)
            writer.end()
    except _NotConvertedError as left:
        sys.stderr.write(f"tricklaw: note: check: --convert {args.convert} is not written\n")
        return left.verdict
    except OSError as exc:
        raise TricklawError(f"check: cannot write {args.convert}: {exc.strerror}") from None
    finally:
        if source is not sys.stdin:
            source.close()
    return found


class _NotConvertedError(Exception):
    """The input did not agree: the temporary log is dropped (raised through
    :func:`~tricklaw.spec.outputs.atomic_file`)."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(verdict.message)
        self.verdict = verdict


def _open_input(path: str) -> TextIO:
    """The input ``path`` (``-``: standard input), open for reading. Raises ``OSError``."""
    if path == STDIN:
        return sys.stdin
    return open(path, encoding="utf-8-sig")


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
        help="also write the events checked, as a JSON Lines log (version 2, with its "
        "end line), to FILE: written whole once the input agrees, else FILE is left as it "
        "was",
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
