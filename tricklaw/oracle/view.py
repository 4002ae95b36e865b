"""The whole state of an open game as the oracle shows it (``$defs/view``): every hand,
the trick so far, the seat to act and its legal actions, the totals."""

from __future__ import annotations

from typing import Any

from tricklaw.model.state import State


def view(state: State[Any]) -> dict[str, Any]:
    """The whole state (``$defs/view``)."""
    fmt = state.game.ruleset.palette.format_all
    over = state.is_terminal()
    return {
        "round": state.round_index,
        "phase": state.phase.name.lower(),
        "current_player": state.current_player(),
        "leader": state.leader,
        "trick": fmt(state.trick),
        "hands": [fmt(hand) for hand in state.hands],
        "legal_actions": [state.action_to_string(a) for a in state.legal_actions()],
        "tricks_played": 0 if over else len(state.tricks),
        "totals": list(state.returns()),
        "terminal": over,
    }
