"""A short example log for the oracle page (``generated/log-example.inc``): the first
lines of the JSON Lines log of one seeded random round, as ``tricklaw check`` reads it,
written by the checker's own converter so that it always agrees with the format."""

from __future__ import annotations

from pathlib import Path

from .markdown import write

SHOWN = 12
"""How many lines of the log the page shows."""


def example_log(ruleset_id: str, players: int, seed: int) -> list[str]:
    """The whole log of one random round of ``ruleset_id`` from ``seed``."""
    from tricklaw.check.convert import state_to_log
    from tricklaw.model.agents import play_random_game
    from tricklaw.model.rulesets import get_ruleset

    game = get_ruleset(ruleset_id).make_game(players)
    return state_to_log(play_random_game(game, seed, max_rounds=1), seed)


def gen_log_example(gen: Path) -> None:
    """Write ``log-example.inc``: the first :data:`SHOWN` lines of the example log of the
    first ruleset of the registry (3 players where it allows them)."""
    from tricklaw.model.rulesets import RULESETS

    ruleset_id, ruleset = next(iter(RULESETS.items()))
    players = 3 if 3 in ruleset.player_counts else ruleset.player_counts[0]
    lines = example_log(ruleset_id, players, seed=1)
    out = [
        f"The first {SHOWN} of the {len(lines)} lines of the log of one random round of "
        f"`{ruleset_id}` ({players} players, seed 1):",
        "",
        "```json",
        *lines[:SHOWN],
        "```",
    ]
    write(gen / "log-example.inc", "\n".join(out) + "\n")
