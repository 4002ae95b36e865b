"""``python -m tricklaw.kernel_engine``: the batch engine's kernels as an engine under
test, speaking the live oracle's stdio protocol (:mod:`tricklaw.oracle`) well enough for
``tricklaw fuzz --engine "python -m tricklaw.kernel_engine"`` (issue 18).

A thin adapter: every answer comes from the kernels, not from the reference model. On
``new_game`` it keeps the deals (rounds after them are dealt from the seed by the batch
engine's own portable shuffle); on each ``apply`` it plays the round in progress again
through the ruleset's kernel with the round's actions so far forced
(:mod:`tricklaw.batch.forced`), the new one last, and answers from the kernel's outputs:
the new action refused when it is not among the kernel's own legal actions, the tricks it
completed (leader, cards, winner, who takes what, what is set aside), the scores of a
round it finished, the totals, the seat to act and its legal actions (the kernel's, at the
next decision), and the end of the game (the batch engine's own
:meth:`~tricklaw.batch.engine.Lockstep.game_over`). Two things are the project's shared
code rather than the kernels': the notation (cards and actions read and written,
:mod:`tricklaw.model.actions`) and, once a game is over, the **winners**, named from the
kernel's totals by the reference's :meth:`~tricklaw.model.ruleset.Ruleset.winners`, as the
batch engine's logs name them (:mod:`tricklaw.batch.trace`).

``hello`` answers with ``implements`` (:mod:`tricklaw.model.replay.declaration`): the
tables the kernels play (each ruleset's :class:`~tricklaw.batch.forced.ForcedGame`: every
built-in table, The Last's ghost, Hund's virtual player and designation sets included), so
the fuzzer keeps to them; ``new_game`` refuses any other. Without numba (or with
``TRICKLAW_BATCH_JIT=0``) the kernels do not run and the adapter exits with status 2.

The numba kernels compile on first use (cached on disk afterwards); a first run may want
``tricklaw fuzz --timeout 60``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import IO, Any

import numpy as np

from tricklaw.batch import BATCH, jit
from tricklaw.batch.engine import Lockstep, Table
from tricklaw.batch.forced import FORCED, ForcedRound, Trick, dealt
from tricklaw.model.actions import ActionKind, action_to_string, kind_of, string_to_action
from tricklaw.model.cards import Card
from tricklaw.model.record import parse_deal
from tricklaw.model.replay.declaration import parse_declaration
from tricklaw.model.state import Deal, Game
from tricklaw.oracle.envelope import check_envelope, encode, error_response, parse
from tricklaw.oracle.params import game_params
from tricklaw.oracle.protocol import (
    ILLEGAL_ACTION,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PROTOCOL,
    UNKNOWN_GAME,
    VERSION,
    OracleError,
)
from tricklaw.spec.errors import TricklawError

ANSWERED = ("hello", "new_game", "state", "apply", "close")
"""The methods the adapter answers."""

PHASES = {ActionKind.SELECT: "select", ActionKind.PLAY: "play"}
"""The view's phase by the kind of the legal actions (any other kind: ``choose``)."""


def implements() -> dict[str, Any]:
    """The adapter's declaration: every ruleset with a kernel, as far as it covers it."""
    return {"rulesets": {rid: dict(FORCED[rid].declared) for rid in FORCED}}


@dataclass(frozen=True, slots=True)
class KernelGame:
    """One open game as the kernels play it: the deals and seed, the round in progress
    (``index``), the totals before it, the ruleset's memory, the round's actions so far
    and the kernel's round played with them (its stop: the seat to act, its legal
    actions); ``over`` once the batch engine's end rule says so."""

    game: Game
    deals: tuple[Deal, ...]
    seed: int
    index: int
    totals: tuple[int, ...]
    memory: Any
    actions: tuple[int, ...]
    played: ForcedRound
    over: bool = False


def _play(
    game: Game, deals: Sequence[Deal], seed: int, *, index: int, memory: Any, actions: Sequence[int]
) -> ForcedRound:
    """Round ``index`` played by the ruleset's kernel with ``actions`` forced."""
    return FORCED[game.ruleset.id].play(
        game, index, dealt(game, deals, seed, index), memory, actions
    )


def game_over(game: Game, totals: Sequence[int], rounds: int) -> bool:
    """The batch engine's end rule for one game after ``rounds`` rounds at ``totals``."""
    table = Table(
        game,
        np.zeros(1, dtype=np.uint64),
        np.zeros(1, dtype=np.uint64),
        np.array([list(totals)], dtype=np.int64),
        None,
    )
    engine = BATCH[game.ruleset.id]
    assert isinstance(engine, Lockstep)  # every ruleset with a kernel
    return bool(engine.game_over(table, rounds)[0])


def start(game: Game, deals: Sequence[Deal], seed: int) -> KernelGame:
    """A new game at its first decision."""
    played = _play(game, deals, seed, index=0, memory=None, actions=())
    opened = KernelGame(game, tuple(deals), seed, 0, (0,) * game.seats, None, (), played)
    return settle(opened)[0]


def settle(table: KernelGame) -> tuple[KernelGame, list[dict[str, Any]]]:
    """``table`` moved past every round its kernel run has finished (the round's scores
    added, the end rule asked, the next round played to its first decision), with the
    finished rounds as ``apply`` reports them."""
    finished: list[dict[str, Any]] = []
    while not table.over and table.played.stop is None:
        played = table.played
        totals = tuple(t + s for t, s in zip(table.totals, played.scores, strict=True))
        finished.append(
            {"index": table.index, "scores": list(played.scores), "facts": played.facts}
        )
        index = table.index + 1
        over = game_over(table.game, totals, index)
        table = replace(
            table,
            index=index,
            totals=totals,
            memory=played.memory,
            actions=(),
            played=played
            if over
            else _play(
                table.game, table.deals, table.seed, index=index, memory=played.memory, actions=()
            ),
            over=over,
        )
    return table, finished


def step(table: KernelGame, action: int) -> tuple[KernelGame, list[Trick], list[dict[str, Any]]]:
    """``action`` taken: the game after it, the tricks it completed and the rounds it
    finished; raises an ``ILLEGAL_ACTION`` error when the kernel refuses it."""
    palette = table.game.ruleset.palette
    text = action_to_string(action, palette)
    if table.over:
        raise OracleError(ILLEGAL_ACTION, f"{text}: the game is over")
    at = len(table.actions)
    played = _play(
        table.game,
        table.deals,
        table.seed,
        index=table.index,
        memory=table.memory,
        actions=(*table.actions, action),
    )
    stop = played.stop
    if stop is not None and stop.refused:
        legal = [action_to_string(a, palette) for a in stop.legal]
        raise OracleError(
            ILLEGAL_ACTION,
            f"{text} is not among seat {stop.seat}'s legal actions (the kernel's: "
            f"{', '.join(legal)})",
            legal_actions=legal,
        )
    tricks = [t for t in played.tricks if t.at == at]
    after, finished = settle(replace(table, actions=(*table.actions, action), played=played))
    return after, tricks, finished


def view(table: KernelGame) -> dict[str, Any]:
    """The state view (``$defs/view``) the kernel gives: no hands (the fuzzer compares
    them only when given)."""
    stop = table.played.stop
    palette = table.game.ruleset.palette
    if table.over or stop is None:
        phase, seat, legal = "over", -1, []
    else:
        phase = PHASES.get(kind_of(stop.legal[0]), "choose")
        seat, legal = stop.seat, [action_to_string(a, palette) for a in stop.legal]
    return {
        "round": table.index,
        "phase": phase,
        "current_player": seat,
        "legal_actions": legal,
        "totals": list(table.totals),
        "terminal": table.over,
    }


def trick_json(trick: Trick, game: Game) -> dict[str, Any]:
    """A trick as ``apply`` reports it (the record's trick, without clauses)."""
    fmt = game.ruleset.palette.format_all
    taken: dict[str, list[Card]] = {}
    for card, seat in zip(trick.cards, trick.receivers, strict=True):
        if seat >= 0:
            taken.setdefault(str(seat), []).append(card)
    return {
        "leader": trick.leader,
        "cards": fmt(trick.cards),
        "winner": None if trick.winner < 0 else trick.winner,
        "taken": {seat: fmt(cards) for seat, cards in taken.items()},
        "aside": fmt([c for c, s in zip(trick.cards, trick.receivers, strict=True) if s < 0]),
    }


class Adapter:
    """The open games of one connection and the methods of :data:`ANSWERED`."""

    def __init__(self) -> None:
        self.games: dict[str, KernelGame] = {}
        self.opened = 0
        self.declaration = parse_declaration(implements(), "implements")

    def call(self, method: str, params: dict[str, Any]) -> Any:
        """The result of ``method``; raises
        :class:`~tricklaw.oracle.protocol.OracleError` for any refusal."""
        if method == "hello":
            return {
                "protocol": PROTOCOL,
                "version": VERSION,
                "methods": list(ANSWERED),
                "implements": implements(),
            }
        if method == "new_game":
            return self.new_game(params)
        if method not in ANSWERED:
            raise OracleError(METHOD_NOT_FOUND, f"no method {method!r}", field="method")
        game_id = params.get("game")
        if game_id not in self.games:
            raise OracleError(UNKNOWN_GAME, f"no open game {game_id!r}", field="params.game")
        if method == "close":
            del self.games[game_id]
            return {"closed": game_id}
        if method == "state":
            return view(self.games[game_id])
        return self.apply(game_id, params)

    def new_game(self, params: dict[str, Any]) -> dict[str, Any]:
        """Open a game the kernels play."""
        if not isinstance(params.get("ruleset"), str) or type(params.get("players")) is not int:
            raise OracleError(INVALID_PARAMS, "params: ruleset and players are required")
        game = game_params(params)
        declared = self.declaration.of(game.ruleset.id)
        outside = (
            f"the ruleset {game.ruleset.id}"
            if declared is None
            else declared.allows(game.players, game.options.as_dict())
        )
        if outside is not None:
            raise OracleError(INVALID_PARAMS, f"the batch kernels do not play {outside}")
        palette = game.ruleset.palette
        try:
            deals = [
                parse_deal(raw, palette, f"params.deals[{i}]")
                for i, raw in enumerate(params.get("deals", []))
            ]
        except TricklawError as exc:
            raise OracleError(INVALID_PARAMS, str(exc), field="params.deals") from None
        seed = params.get("seed", 0)
        self.opened += 1
        game_id = f"g{self.opened}"
        table = start(game, deals, seed)
        self.games[game_id] = table
        return {"game": game_id, "options": game.options.as_dict(), "state": view(table)}

    def apply(self, game_id: str, params: dict[str, Any]) -> dict[str, Any]:
        """Take ``params.action`` in the open game ``game_id``."""
        table = self.games[game_id]
        palette = table.game.ruleset.palette
        try:
            action = string_to_action(str(params.get("action")), palette)
        except TricklawError as exc:
            raise OracleError(
                INVALID_PARAMS, f"params.action: {exc}", field="params.action"
            ) from None
        seat = view(table)["current_player"]
        if "seat" in params and params["seat"] != seat:
            raise OracleError(ILLEGAL_ACTION, f"it is seat {seat}'s turn", field="params.seat")
        after, tricks, finished = step(table, action)
        self.games[game_id] = after
        out: dict[str, Any] = {
            "seat": seat,
            "action": action_to_string(action, palette),
            "tricks": [trick_json(t, table.game) for t in tricks],
            "rounds": finished,
            "state": view(after),
        }
        if after.over:
            game = table.game
            out["winners"] = list(game.ruleset.winners(game, after.totals))
        return out

    def answer(self, line: str) -> str | None:
        """The response line to one request line (None for a notification)."""
        request_id: Any = None
        try:
            request = parse(line)
            if not isinstance(request, dict):
                raise OracleError(INVALID_REQUEST, "a request must be a JSON object")
            request_id = request.get("id")
            check_envelope(request)
            result = self.call(request["method"], request.get("params", {}))
        except OracleError as exc:
            return encode(error_response(request_id, exc))
        except TricklawError as exc:
            return encode(error_response(request_id, OracleError(INVALID_PARAMS, str(exc))))
        if "id" not in request:
            return None
        return encode({"jsonrpc": "2.0", "id": request_id, "result": result})


def serve(lines: IO[str], out: IO[str]) -> int:
    """Answer each request line of ``lines`` on ``out`` until the input ends."""
    adapter = Adapter()
    for line in lines:
        if not line.strip():
            continue
        answer = adapter.answer(line)
        if answer is not None:
            out.write(answer + "\n")
            out.flush()
    return 0


def main() -> int:
    """The adapter on standard input and output; status 2 where the kernels cannot run."""
    if not jit.AVAILABLE:
        sys.stderr.write(
            "tricklaw.kernel_engine: the batch kernels need numba (the batch extra), "
            "and TRICKLAW_BATCH_JIT not 0\n"
        )
        return 2
    return serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
