"""Reading a file or stream: a JSON Lines log line by line, or a JSON record whole.

The first line tells them apart: a log's header is a whole JSON object with
``"format": "tricklaw-log"`` (:mod:`~tricklaw.check.lines` reads the rest as it
streams); anything else is read whole as a JSON record
(:mod:`~tricklaw.model.replay.records`). A file that cannot be opened or decoded, or is
empty, is unreadable, and so is a log line longer than :data:`MAX_LINE_CHARS` or a
record longer than :data:`MAX_RECORD_CHARS` (read no further than that).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from tricklaw.check.lines import check_lines
from tricklaw.check.log_format import FORMAT
from tricklaw.model.record import FORMAT as RECORD_FORMAT
from tricklaw.model.record import loads_record
from tricklaw.model.replay.checker import verdict
from tricklaw.model.replay.declaration import Declaration
from tricklaw.model.replay.records import Emit, check_record
from tricklaw.model.replay.verdict import UNREADABLE, UnreadableError, Verdict
from tricklaw.spec.errors import RecordError

MAX_LINE_CHARS = 1 << 20
"""The longest line of a log, in characters (1 Mi: a log's longest line, a deal or a
round's facts, is a few kilobytes); a longer one makes the log unreadable."""
MAX_RECORD_CHARS = 1 << 28
"""The longest JSON record, in characters (256 Mi)."""
CASE_FORMAT = "tricklaw-fuzz-case"
"""The ``format`` of the fuzzer's case files (:mod:`tricklaw.fuzz.report`), which ``check``
does not read but names, with the command that replays one. Defined here, below the
fuzzer, because the log checker is compiled (mypyc) without the fuzzer's libraries."""


def _bounded(stream: TextIO, number: int) -> Iterator[str]:
    """The lines of ``stream`` after line ``number``, each read up to
    :data:`MAX_LINE_CHARS`: a longer line raises, naming it, before more is read."""
    while True:
        line = stream.readline(MAX_LINE_CHARS + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_CHARS:
            raise UnreadableError(
                f"longer than {MAX_LINE_CHARS:,} characters, the most a log line may hold",
                line=number,
            )
        yield line


def check_stream(
    stream: TextIO,
    *,
    own_shuffle: bool = False,
    emit: Emit | None = None,
    declaration: Declaration | None = None,
) -> Verdict:
    """Check an open text stream: a JSON Lines log (read line by line) or a JSON record
    (read whole). The first line tells them apart: a log's header is a whole JSON object
    with ``"format": "tricklaw-log"``."""
    try:
        blank: list[str] = []
        first = stream.readline(MAX_LINE_CHARS + 1)
        while first and first.isspace() and len(blank) < MAX_LINE_CHARS:
            blank.append(first)
            first = stream.readline(MAX_LINE_CHARS + 1)
    except UnicodeDecodeError as exc:
        return verdict(UNREADABLE, f"not UTF-8 text ({exc.reason})", None, line=1)
    if not first:
        return verdict(UNREADABLE, "the file is empty", None)
    try:
        head: Any = json.loads(first)
    except (ValueError, RecursionError):  # not JSON, too deep, a number of too many digits
        head = None
    if isinstance(head, dict) and head.get("format") != RECORD_FORMAT:
        rest = _bounded(stream, len(blank) + 1)
        return _lines_then(blank, first, rest, own_shuffle, emit, declaration=declaration)
    if head is None and FORMAT in first and first.lstrip().startswith("{"):
        # A broken header line of a log: report it, without reading the rest.
        return _lines_then(blank, first, iter(()), own_shuffle, emit, declaration=declaration)
    try:  # a record (a line longer than a log's is one too): read whole, within a bound
        head = "".join(blank) + first  # already read: it counts against the cap
        text = head + stream.read(MAX_RECORD_CHARS - len(head))
        if stream.read(1):
            return verdict(
                UNREADABLE, f"the record is longer than {MAX_RECORD_CHARS:,} characters", None
            )
    except UnicodeDecodeError as exc:
        return verdict(UNREADABLE, f"not UTF-8 text ({exc.reason})", None)
    try:
        record = loads_record(text)
    except RecordError as unreadable:
        return verdict(UNREADABLE, str(unreadable), None)
    if hint := _case_file_hint(record):
        return verdict(UNREADABLE, hint, None)
    return check_record(record, own_shuffle=own_shuffle, emit=emit, declaration=declaration)


def _case_file_hint(document: Any) -> str | None:
    """What to do with a fuzz case file (``tricklaw-fuzz-case``) given to ``check``: its
    ``record`` is the rules' own game up to the disagreement, so checking it would say
    nothing about the engine; the case is replayed against the engine instead."""
    if not isinstance(document, dict) or document.get("format") != CASE_FORMAT:
        return None
    return (
        "format: this is a fuzz case file (tricklaw-fuzz-case), not a record or log: "
        "replay it against the engine with 'tricklaw fuzz --engine CMD --replay FILE'"
    )


def _lines_then(
    blank: list[str],
    first: str,
    rest: Iterable[str],
    own_shuffle: bool,
    emit: Emit | None,
    *,
    declaration: Declaration | None = None,
) -> Verdict:
    def lines() -> Iterator[str]:
        yield from blank
        yield first
        yield from rest

    return check_lines(lines(), own_shuffle=own_shuffle, emit=emit, declaration=declaration)


def check_path(
    path: str,
    *,
    own_shuffle: bool = False,
    emit: Emit | None = None,
    declaration: Declaration | None = None,
) -> Verdict:
    """Check the log or record in the file ``path`` (``-``: standard input)."""
    if path == "-":
        return check_stream(sys.stdin, own_shuffle=own_shuffle, emit=emit, declaration=declaration)
    try:
        with open(path, encoding="utf-8-sig") as fh:  # a byte order mark is skipped
            return check_stream(fh, own_shuffle=own_shuffle, emit=emit, declaration=declaration)
    except OSError as exc:
        return verdict(UNREADABLE, f"cannot read {path}: {exc.strerror}", None)
