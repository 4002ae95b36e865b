"""Converting a record to a JSON Lines log (``tricklaw check RECORD --convert FILE``).

A record converts by being checked: the checker hands each event, once checked, to
``emit`` as a log line's object (:func:`~tricklaw.model.replay.records.check_record`);
:func:`log_line` writes it. The log has trick lines after the actions that complete
them and running totals on the scores lines, and ends with its end line
(:class:`LogWriter`); a record that does not agree with the rules does not convert.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from tricklaw.check.log_format import VERSION
from tricklaw.model.record import to_record
from tricklaw.model.replay.records import check_record
from tricklaw.model.replay.verdict import AGREES
from tricklaw.model.state import State
from tricklaw.spec.errors import RecordError


def log_line(obj: dict[str, Any]) -> str:
    """One line of a log: the compact JSON text of ``obj``, without the line end."""
    return json.dumps(obj, separators=(",", ":"))


class LogWriter:
    """An ``emit`` that writes each log object as a line to ``sink`` and counts them;
    :meth:`end` writes the end line. A header is written as
    :data:`~tricklaw.check.log_format.VERSION` (a version 1 log checked and converted
    comes out as version 2, with its end line)."""

    def __init__(self, sink: TextIO) -> None:
        self.sink = sink
        self.lines = 0

    def __call__(self, obj: dict[str, Any]) -> None:
        if self.lines == 0 and "format" in obj:
            obj = {**obj, "version": VERSION}
        self.sink.write(log_line(obj) + "\n")
        self.lines += 1

    def end(self) -> None:
        """Write the end line: the log is whole."""
        self.sink.write(end_line(self.lines) + "\n")


def end_line(lines: int) -> str:
    """The end line of a log of ``lines`` lines (without its line end)."""
    return log_line({"end": {"lines": lines}})


def record_to_log(record: dict[str, Any], *, own_shuffle: bool = False) -> list[str]:
    """The JSON Lines log of a JSON record: one compact JSON text per line (without line
    ends), trick lines placed after the actions that complete them and running totals on
    the scores lines, and the end line last. Raises
    :class:`~tricklaw.spec.errors.RecordError` unless the record agrees with the rules."""
    lines: list[str] = []

    def emit(obj: dict[str, Any]) -> None:
        lines.append(log_line(obj))

    verdict = check_record(record, own_shuffle=own_shuffle, emit=emit)
    if verdict.status != AGREES:
        raise RecordError(f"the record does not convert: {verdict.message}")
    return [*lines, end_line(len(lines))]


def state_to_log(state: State[Any], seed: int | None = None) -> list[str]:
    """The JSON Lines log of the game up to ``state`` (see :func:`record_to_log`)."""
    return record_to_log(json.loads(json.dumps(to_record(state, seed))))
