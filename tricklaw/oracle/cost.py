"""What a request may cost the oracle: an estimate, in bytes of response, of each call
(:func:`call_cost`), summed over a batch before any of its calls runs, so that no small
request amplifies into a huge response or a long hold of the oracle. A request or batch
whose estimate passes :data:`~tricklaw.oracle.protocol.MAX_COST` is refused whole, as one
``LIMIT`` error, with nothing done."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tricklaw.oracle.protocol import LIMIT, MAX_COST, OracleError

if TYPE_CHECKING:
    from tricklaw.oracle.session import Oracle

BASE_COST = 4096
"""Any call: a game's view, a verdict, an error (measured views are about 200 bytes)."""
TRICK_COST = 512
"""Each completed trick a whole-game answer (``record``) writes (measured: 260-400 bytes)."""
ROUND_COST = 2048
"""Each round a whole-game answer writes: its deal, scores and facts."""
WHOLE_GAME = frozenset({"record"})
"""The methods whose answer grows with the game's length."""
PER_ROUND = frozenset({"scores"})
"""The methods whose answer grows with the number of rounds played."""


def call_cost(oracle: Oracle, request: Any) -> int:
    """The estimated response bytes of one request (a malformed one costs the base)."""
    if not isinstance(request, dict):
        return BASE_COST
    method = request.get("method")
    params = request.get("params")
    if not isinstance(method, str) or method not in WHOLE_GAME | PER_ROUND:
        return BASE_COST
    if not isinstance(params, dict):
        return BASE_COST
    game_id = params.get("game")
    entry = oracle.games.get(game_id) if isinstance(game_id, str) else None
    if entry is None:
        return BASE_COST
    state = entry.state
    rounds = len(state.history) + 1
    if method in PER_ROUND:
        return BASE_COST + 64 * rounds
    tricks = sum(len(log.tricks) for log in state.history) + len(state.tricks)
    return BASE_COST + TRICK_COST * tricks + ROUND_COST * rounds


def check_cost(oracle: Oracle, requests: list[Any]) -> None:
    """Refuse ``requests`` (a batch, or one request) whose summed cost passes
    :data:`MAX_COST`, before any of them runs."""
    total = 0
    for request in requests:
        total += call_cost(oracle, request)
        if total > MAX_COST:
            raise OracleError(
                LIMIT,
                f"the request would answer more than {MAX_COST} bytes (estimated); "
                "ask for less at a time",
            )
