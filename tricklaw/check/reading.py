"""Reading a file or stream: a JSON Lines log line by line, or a JSON record whole.

The first line tells them apart: a log's header is a whole JSON object with
``"format": "tricklaw-log"`` (:mod:`~tricklaw.check.lines` reads the rest as it
streams); anything else is read whole as a JSON record
(:mod:`~tricklaw.model.replay.records`). A file that cannot be opened or decoded, or is
empty, is unreadable.
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
from tricklaw.model.replay.verdict import UNREADABLE, Verdict
from tricklaw.spec.errors import RecordError


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
        first = stream.readline()
        while first and first.isspace():
            blank.append(first)
            first = stream.readline()
    except UnicodeDecodeError as exc:
        return verdict(UNREADABLE, f"not UTF-8 text ({exc.reason})", None, line=1)
    if not first:
        return verdict(UNREADABLE, "the file is empty", None)
    try:
        head: Any = json.loads(first)
    except (ValueError, RecursionError):  # not JSON, too deep, a number of too many digits
        head = None
    if isinstance(head, dict) and head.get("format") != RECORD_FORMAT:
        return _lines_then(blank, first, stream, own_shuffle, emit, declaration=declaration)
    if head is None and FORMAT in first and first.lstrip().startswith("{"):
        # A broken header line of a log: report it, without reading the rest.
        return _lines_then(blank, first, iter(()), own_shuffle, emit, declaration=declaration)
    try:
        text = "".join(blank) + first + stream.read()
    except UnicodeDecodeError as exc:
        return verdict(UNREADABLE, f"not UTF-8 text ({exc.reason})", None)
    try:
        record = loads_record(text)
    except RecordError as unreadable:
        return verdict(UNREADABLE, str(unreadable), None)
    return check_record(record, own_shuffle=own_shuffle, emit=emit, declaration=declaration)


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
