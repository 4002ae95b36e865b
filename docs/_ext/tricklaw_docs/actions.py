"""The table of every action kind (``generated/actions.inc``) for the format pages: each
:class:`~tricklaw.model.actions.ActionKind`, its notation, what it does and the rulesets
whose players take it (each ruleset's ``action_kinds``, a plug-in's included)."""

from __future__ import annotations

from pathlib import Path

from tricklaw.model.actions import ActionKind

from .markdown import write

NOTATION: dict[ActionKind, tuple[str, str]] = {
    ActionKind.PLAY: ("R5", "play card R5 to the current trick"),
    ActionKind.SELECT: ("select R5", "choose R5 as a hidden, later revealed, card"),
    ActionKind.KEEP: ("keep", "keep the card just won face down"),
    ActionKind.SWAP: ("swap R5", "take the card just won into hand and lay R5 face down"),
    ActionKind.LEADER: ("leader 2", "name seat 2 to start the round"),
    ActionKind.DESIGNATE: ("designate R5", "choose the designation: suit of R5, number 5"),
}
"""Notation and meaning of each kind, as in :mod:`tricklaw.model.actions`."""


def actions_table() -> list[str]:
    """Every action kind as a Markdown table row; raises KeyError for a kind this page
    does not describe, so that a new kind cannot be left out silently."""
    from tricklaw.model.rulesets import RULESETS

    out = ["| action | notation | what it does | rulesets |", "|---|---|---|---|"]
    for kind in ActionKind:
        notation, meaning = NOTATION[kind]
        users = [f"`{rid}`" for rid, r in RULESETS.items() if kind in r.action_kinds]
        out.append(
            f"| {kind.name.lower()} | `{notation}` | {meaning} | {', '.join(users) or '-'} |"
        )
    return out


def gen_actions(gen: Path) -> None:
    """Write ``actions.inc`` (:func:`actions_table`)."""
    write(gen / "actions.inc", "\n".join(actions_table()) + "\n")
