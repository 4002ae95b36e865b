"""A JSON game record, checked: validated by its schema, then replayed event by event.

A record (``spec/record.schema.json``) is one document and is read whole; its top level
is validated against the record schema first and each round just before it is replayed
(the first field that breaks it makes the record unreadable; a long record is not
validated whole before a divergence in an early round is seen), and each round is
replayed through the :class:`Checker`: the round
begins with its deal, each action is applied, the recorded tricks are compared as the
actions complete them, then the round's scores and facts; last the totals, winners and
whether the game is complete.

:func:`check_record` is ``tricklaw check RECORD``; :func:`replay` is
:func:`tricklaw.model.replay.records.replay` (``tricklaw replay``, loading a serialized state):
the same check, with any deal that the rules allow (``--own-shuffle``), ending in the
state the record reaches.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tricklaw.model.options import OptionValue
from tricklaw.model.record import loads_record, record_problem, round_problem
from tricklaw.model.replay.checker import Checker, game_of, verdict
from tricklaw.model.replay.declaration import Declaration, declared_options
from tricklaw.model.replay.departure import settle
from tricklaw.model.replay.verdict import (
    AGREES,
    DIVERGES,
    UNREADABLE,
    DivergenceError,
    UnreadableError,
    Verdict,
)
from tricklaw.model.schemas import integral
from tricklaw.model.state import Game, State
from tricklaw.spec.errors import RecordDivergesError, RecordError

Emit = Callable[[dict[str, Any]], None]
"""Receives each event once it is checked, as a JSON Lines log object."""
LOG_FORMAT, LOG_VERSION = "tricklaw-log", 2
"""The header of the JSON Lines log that ``emit`` receives (:mod:`tricklaw.check`). Version
2 logs end with an end line (``{"end": {"lines": N}}``), which the writer of the log adds
once every event is written (:class:`tricklaw.check.convert.LogWriter`); ``emit`` never
receives it."""


def check_record(
    record: Any,
    *,
    own_shuffle: bool = False,
    emit: Emit | None = None,
    declaration: Declaration | None = None,
) -> Verdict:
    """Check a JSON game record (parsed). ``emit`` receives the record's events as JSON
    Lines log objects, each once it has been checked. Under a ``declaration`` (what the
    engine that wrote it implements) its declared readings fill in the options, and a
    divergence on a dispute it settles by its own rule is a departure when a reading of
    that dispute gives the record's answer; the record is then checked to its end under
    that reading (:func:`~tricklaw.model.replay.departure.settle`)."""
    once = EmitOnce(emit) if emit is not None else None

    def attempt(
        fixed: Mapping[str, OptionValue],
    ) -> tuple[Verdict, DivergenceError | None, Game | None]:
        if once is not None:
            once.again()
        found, checker, diverged = _replayed(record, own_shuffle, once, declaration, fixed)
        return found, diverged, None if checker is None else checker.game

    return settle(declaration, attempt, "the record")


class EmitOnce:
    """``emit`` for an input checked more than once
    (:func:`~tricklaw.model.replay.departure.settle`): each event goes to ``emit`` once,
    the first time a check gets past it (every check reads the same events in the same
    order)."""

    def __init__(self, emit: Emit) -> None:
        self.emit = emit
        self.sent = 0
        self.seen = 0

    def again(self) -> None:
        """A new check of the input begins."""
        self.seen = 0

    def __call__(self, obj: dict[str, Any]) -> None:
        self.seen += 1
        if self.seen > self.sent:
            self.sent = self.seen
            self.emit(obj)


def replay(record: Any) -> State[Any]:
    """The state a record ends in, every recorded result checked on the way; each deal
    need only be a legal deal (the seed's or not). Raises
    :class:`~tricklaw.spec.errors.RecordError` with the verdict's one line, and when the
    record stops at the end of a round with no seed to deal the next, or has no round."""
    found, checker, _ = _replayed(record, True, None)
    if found.status == DIVERGES:
        raise RecordDivergesError(found.message)
    if found.status != AGREES:
        raise RecordError(found.message)
    if checker is None or checker.state is None:
        raise RecordError("rounds: the record has no round, so no state to replay to")
    if checker.awaits_deal():
        raise RecordError(f"no deal is given for round {checker.state.info.index}")
    return checker.state


def _replayed(
    record: Any,
    own_shuffle: bool,
    emit: Emit | None,
    declaration: Declaration | None = None,
    fixed: Mapping[str, OptionValue] | None = None,
) -> tuple[Verdict, Checker | None, DivergenceError | None]:
    """The verdict on ``record`` (its options, the declared readings, then ``fixed``), the
    checker that has replayed it, and the divergence that ended it, if one did."""
    checker: Checker | None = None
    path = ""
    try:
        # The top level first, each round as it comes: a record is read up to its first
        # problem, not validated whole before a divergence in an early round is seen.
        rounds = record.get("rounds") if isinstance(record, dict) else None
        if isinstance(rounds, list):
            record = {**record, "rounds": []}
        problem = record_problem(record)
        if problem is not None:
            path = problem[0]
            raise UnreadableError(problem[1])
        record = integral(record)
        options = declared_options(
            declaration, record["ruleset"], record["players"], record["options"]
        )
        options.update(fixed or {})
        game = game_of(record["ruleset"], record["players"], options)
        seed = record.get("seed")
        checker = Checker(game, seed, own_shuffle, "record", trim=False, named=options)
        if emit is not None:
            emit(
                {
                    "format": LOG_FORMAT,
                    "version": LOG_VERSION,
                    "ruleset": game.ruleset.id,
                    "players": game.players,
                    "options": game.options.as_dict(),
                    "seed": seed,
                }
            )
        running = [0] * game.seats
        for r_index, raw in enumerate(rounds or ()):
            path = f"rounds[{r_index}]"
            problem = round_problem(raw, r_index)
            if problem is not None:
                path = problem[0]
                raise UnreadableError(problem[1])
            rnd = integral(raw)
            start = {k: rnd[k] for k in ("dealer", "seating") if k in rnd}
            checker.begin_round(rnd.get("index", r_index), rnd["deal"], start, path)
            if emit is not None:
                emit({"round": r_index, "deal": rnd["deal"], **start})
            tricks = rnd.get("tricks", [])
            for a_index, entry in enumerate(rnd["actions"]):
                path = f"rounds[{r_index}].actions[{a_index}]"
                seat, action = entry["seat"], entry["action"]
                checker.action(seat, action, path)
                if emit is not None:
                    emit({"seat": seat, "action": action})
                while checker.pending:
                    t_index = checker.pending[0][0]
                    if t_index >= len(tricks):
                        checker.skip_trick()
                        continue
                    path = f"rounds[{r_index}].tricks[{t_index}]"
                    checker.trick(tricks[t_index], path)
                    if emit is not None:
                        emit({"trick": tricks[t_index]})
            path = f"rounds[{r_index}]"
            if len(tricks) > checker.tricks_done:
                checker.at, checker.at_trick = "trick", checker.tricks_done + 1
                raise DivergenceError(
                    f"the record lists {len(tricks)} tricks for the round",
                    checker.tricks_done,
                    len(tricks),
                    expected_text=f"{checker.tricks_done}, the tricks its actions complete",
                )
            fields = {k: rnd[k] for k in ("scores", "first_leader", "facts") if k in rnd}
            if "scores" in rnd or checker.round_over():
                checker.end_round(fields, path)
                if emit is not None and "scores" in rnd:
                    running = [t + s for t, s in zip(running, rnd["scores"], strict=False)]
                    emit({**fields, "totals": running})
        path = ""
        final = {k: record[k] for k in ("totals", "winners", "complete") if k in record}
        if final:
            checker.end_game(final)
            if emit is not None:
                emit(final)
    except UnreadableError as unreadable:
        return verdict(UNREADABLE, str(unreadable), checker, path=path or None), checker, None
    except DivergenceError as diverged:
        found = verdict(DIVERGES, diverged.problem, checker, path=path or None, divergence=diverged)
        return found, checker, diverged
    assert checker is not None
    return verdict(AGREES, checker.summary(), checker), checker, None


def deserialize(text: str) -> State[Any]:
    """The state that :meth:`State.serialize <tricklaw.model.state.State.serialize>` wrote
    (its record so far), each recorded result checked on the way (:func:`replay`)."""
    return replay(loads_record(text))
