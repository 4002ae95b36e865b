"""The JSON Lines reader: a log checked line by line as it streams (the hot path).

Each line is parsed, told by its key (:func:`~tricklaw.check.log_format.kind_of`),
validated (:mod:`~tricklaw.check.validation`: a fast plain test, else the log schema)
and handed to the :class:`~tricklaw.model.replay.checker.Checker` as one event. The
usual action line, ``{"seat": 2, "action": "R5"}``, is read without the JSON parser
(:data:`ACTION_LINE`), and the usual trick line is compared as written
(:meth:`~tricklaw.model.replay.checker.Checker.trick_as_written`). The checker keeps
the round in play and only the rounds the rules look back at: memory stays flat
however long the log. Problems are found in log order: the first one, a divergence or a
line that cannot be read, decides the verdict.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from tricklaw.check.log_format import (
    ACTION,
    END,
    FORMAT,
    HEADER,
    ROUND,
    SCORES,
    TOTALS,
    TRICK,
    VERSION,
    kind_of,
)
from tricklaw.check.validation import problem, require
from tricklaw.model.options import OptionValue
from tricklaw.model.replay.checker import CACHE_LIMIT, Checker, game_of, verdict
from tricklaw.model.replay.declaration import Declaration, declared_options
from tricklaw.model.replay.departure import own_disputes, settle
from tricklaw.model.replay.records import Emit, EmitOnce
from tricklaw.model.replay.verdict import (
    AGREES,
    DIVERGES,
    UNREADABLE,
    DivergenceError,
    UnreadableError,
    Verdict,
    show,
)
from tricklaw.model.state import Game
from tricklaw.spec import json_text

ACTION_LINE = re.compile(
    r'\{[ \t]*"seat"[ \t]*:[ \t]*(0|[1-9][0-9]?)[ \t]*,[ \t]*"action"[ \t]*:[ \t]*'
    r'"([^"\\\x00-\x1f]+)"[ \t]*\}[ \t\n\r]*'
)
"""A well-formed action line in its usual spelling, read without the JSON parser (a fast
path: every line it matches is JSON that parses to the same two fields)."""
SEAT_NUMBERS = {str(seat): seat for seat in range(16)}
_DECODE = json.JSONDecoder().raw_decode
"""The decoder behind ``json.loads``, without its wrapping: a JSON value and where it
ends (a log line is one object, so the checker decodes it directly)."""
_ACTION_LINES: dict[str, tuple[int, str]] = {}
"""Action lines read before, by their text: ``(seat, action text)`` as :data:`ACTION_LINE`
reads them (a log repeats the same few hundred lines)."""


def check_lines(
    lines: Iterable[str],
    *,
    own_shuffle: bool = False,
    emit: Emit | None = None,
    declaration: Declaration | None = None,
) -> Verdict:
    """Check a JSON Lines log given line by line (any iterable of text lines, such as an
    open file); only the round in play is held in memory. ``emit`` receives each line's
    object once it is checked. ``declaration``: what the engine that wrote the log
    implements (:func:`~tricklaw.model.replay.records.check_record`). When it declares a
    dispute as its own rule, a departure that a reading explains is followed by a check
    of the whole log again under that reading
    (:func:`~tricklaw.model.replay.departure.settle`): the lines are then kept in a
    :class:`Spool` (a temporary file), so memory still stays flat."""
    if not own_disputes(declaration):
        return _checked(iter(lines), own_shuffle, emit, declaration, {})[0]
    once = EmitOnce(emit) if emit is not None else None
    with Spool(lines) as spool:

        def attempt(
            fixed: Mapping[str, OptionValue],
        ) -> tuple[Verdict, DivergenceError | None, Game | None]:
            if once is not None:
                once.again()
            found, diverged, checker = _checked(
                spool.lines(), own_shuffle, once, declaration, fixed
            )
            return found, diverged, None if checker is None else checker.game

        return settle(declaration, attempt, "the log")


class Spool:
    """The lines of a log read from ``source`` as a check asks for them and kept in a
    temporary file, so that the log can be read again from its first line
    (:meth:`lines`) however long it is; each line is kept as a JSON string on a line of
    its own (its line end, or none, kept exactly)."""

    def __init__(self, source: Iterable[str]) -> None:
        self.source = iter(source)
        self.file = tempfile.TemporaryFile()  # noqa: SIM115 (closed by __exit__)
        self.end = 0

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.file.close()

    def lines(self) -> Iterator[str]:
        """Every line of the log from the first: those kept, then the source's."""
        at = 0
        while True:
            if at < self.end:
                self.file.seek(at)
                kept = self.file.readline()
                at = self.file.tell()
                yield json.loads(kept)
                continue
            text = next(self.source, None)
            if text is None:
                return
            self.file.seek(self.end)
            self.file.write(json.dumps(text).encode("ascii") + b"\n")
            self.end = at = self.file.tell()
            yield text


def _checked(
    rest: Iterator[str],
    own_shuffle: bool,
    emit: Emit | None,
    declaration: Declaration | None,
    fixed: Mapping[str, OptionValue],
) -> tuple[Verdict, DivergenceError | None, Checker | None]:
    """One check of the log ``rest`` (the header's options, the declared readings, then
    ``fixed``): the verdict, the divergence that ended it (if one did), and the checker."""
    checker: Checker | None = None
    number = 0
    blank = 0  # blank lines, which the end line does not count
    version = VERSION
    closed = False  # the end line was read
    try:
        for text in rest:
            number += 1
            fast = _ACTION_LINES.get(text) or _action_line(text)
            if fast is not None and checker is not None and not checker.ended:
                seat, action = fast
                checker.action(seat, action, "")
                if emit is not None:
                    emit({"seat": seat, "action": action})
                continue
            if not text or text.isspace():
                blank += 1
                continue
            try:
                obj = _loads(text)
            except UnreadableError:
                if checker is None or not _cut_off(text, rest):
                    raise
                raise UnreadableError(
                    "the log stops mid-line (no line end, not JSON): it was cut short "
                    "or is still being written"
                ) from None
            if checker is None:
                checker = _header(obj, own_shuffle, declaration, fixed)
                version = int(obj["version"])
            elif "end" in obj:
                _end(obj, version, number - 1 - blank)
                for after in rest:  # the end line is the last
                    number += 1
                    if after and not after.isspace():
                        raise UnreadableError("the log goes on after its end line")
                closed = True
                break
            elif checker.ended:
                raise UnreadableError("the log goes on after its totals line")
            elif len(obj) != 1 or not checker.trick_as_written(obj.get("trick")):
                obj = _event(checker, obj)
            if emit is not None:
                emit(obj)
    # One name per exception type: the compiled build types an ``as`` name once.
    except UnreadableError as unreadable:
        at = unreadable.line or number or None
        return verdict(UNREADABLE, str(unreadable), checker, line=at), None, checker
    except DivergenceError as diverged:
        found = verdict(DIVERGES, diverged.problem, checker, line=number, divergence=diverged)
        return found, diverged, checker
    except UnicodeDecodeError as undecodable:
        reason = undecodable.reason
        found = verdict(UNREADABLE, f"not UTF-8 text ({reason})", checker, line=number + 1)
        return found, None, checker
    if checker is None:
        return verdict(UNREADABLE, "the log is empty: it has no header line", None), None, None
    if version >= 2 and not closed:
        return verdict(UNREADABLE, _no_end(number - blank), checker), None, checker
    return verdict(AGREES, checker.summary(), checker), None, checker


def _no_end(lines: int) -> str:
    """The message for a version 2 log without its end line (``lines``: its lines)."""
    return (
        f'end: the log has no end line ({{"end": {{"lines": {lines}}}}} after its {lines} '
        "lines): it was cut short or is still being written, so it is not checked"
    )


def _end(obj: dict[str, Any], version: int, before: int) -> None:
    """Check the end line ``obj`` of a log of ``version`` with ``before`` lines before it
    (blank lines not counted)."""
    if version < 2:
        raise UnreadableError(
            f"end: a version {version} log has no end line (its header says version "
            f'{version}; write "version": {VERSION})'
        )
    said = require(END, obj)["end"]["lines"]
    if said != before:
        raise UnreadableError(
            f"end.lines: the end line counts {said} lines before it, the log has {before}: "
            "lines were lost or added"
        )


def _cut_off(text: str, rest: Iterator[str]) -> bool:
    """Whether the unreadable line ``text`` is the log's last and has no line end: a log
    cut off mid-line (a crash while it was written), which the docs allow (the game so far
    is checked). ``rest`` is the lines after it; one more is read to tell."""
    return not text.endswith(("\n", "\r")) and next(rest, None) is None


def _header(
    obj: dict[str, Any],
    own_shuffle: bool,
    declaration: Declaration | None,
    fixed: Mapping[str, OptionValue],
) -> Checker:
    """The checker for the game the header line ``obj`` names (its options, the declared
    readings, then ``fixed``)."""
    if "format" not in obj:
        raise UnreadableError(
            f'the log has no header: its first line must be {{"format": "{FORMAT}", '
            f'"version": {VERSION}, "ruleset": ..., "players": ...}}'
        )
    obj = require(HEADER, obj)
    options = declared_options(declaration, obj["ruleset"], obj["players"], obj.get("options", {}))
    options.update(fixed)
    game = game_of(obj["ruleset"], obj["players"], options)
    return Checker(game, obj.get("seed"), own_shuffle, "log", trim=True, named=options)


def _event(checker: Checker, obj: dict[str, Any]) -> dict[str, Any]:
    """Hand the event line ``obj`` to ``checker`` (any but a trick line that the checker
    has taken as written); the line, as read. A line the checker cannot read is reported
    with the schema's message when the schema finds its fault."""
    kind = kind_of(obj)
    if kind is None:
        if "format" in obj:
            raise UnreadableError("a second header line")
        raise UnreadableError(
            "not a log line: expected a header, round, action (seat, action), trick, "
            f"scores or totals line, got keys {', '.join(map(repr, obj)) or 'none'}"
        )
    try:
        if kind == TRICK:
            obj = require(TRICK, obj)
            checker.trick(obj["trick"], "trick")
        elif kind == ACTION:
            obj = require(ACTION, obj)
            checker.action(obj["seat"], obj["action"], "")
        elif kind == ROUND:
            obj = require(ROUND, obj)
            checker.begin_round(obj["round"], obj.get("deal"), obj, "")
        elif kind == SCORES:
            obj = require(SCORES, obj)
            checker.end_round(obj, "")
        else:
            obj = require(TOTALS, obj)
            checker.end_game(obj)
    except UnreadableError:
        found = problem(kind, obj)
        if found is not None:
            raise UnreadableError(found) from None
        raise
    return obj


def _action_line(text: str) -> tuple[int, str] | None:
    """``(seat, action text)`` of a well-formed action line in its usual spelling (see
    :data:`ACTION_LINE`), else None; remembered in :data:`_ACTION_LINES`."""
    fast = ACTION_LINE.fullmatch(text)
    if fast is None:
        return None
    seat = SEAT_NUMBERS.get(fast.group(1))
    if seat is None:
        return None
    found = (seat, fast.group(2))
    if len(_ACTION_LINES) < CACHE_LIMIT:
        _ACTION_LINES[text] = found
    return found


def _loads(text: str) -> dict[str, Any]:
    """The JSON object on one line; unreadable unless it is one."""
    try:  # the fast path: the usual line, a JSON object from its first character
        obj, end = _DECODE(text)
        if type(obj) is dict and (end == len(text) or text[end:].isspace()):
            json_text.check_depth(text, obj)
            return obj
    except (ValueError, RecursionError):
        pass  # json_text.loads below says what is wrong
    try:
        obj = json_text.loads(text)
    except json_text.JsonTextError as exc:
        raise UnreadableError(str(exc).replace("(line 1, column ", "(column ")) from None
    if not isinstance(obj, dict):
        raise UnreadableError(f"expected a JSON object, got {_short(obj)}")
    return obj


def _short(value: Any) -> str:
    text = show(value)
    return text if len(text) <= 60 else text[:57] + "..."
