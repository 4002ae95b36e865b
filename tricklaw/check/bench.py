"""The checker's benchmark, behind ``tricklaw bench RULESET --check``: actions per second."""

from __future__ import annotations

import time
from typing import Any

from tricklaw.check.convert import state_to_log
from tricklaw.check.lines import check_lines
from tricklaw.model.replay.verdict import AGREES
from tricklaw.model.rulesets import get_ruleset
from tricklaw.spec.errors import RecordError


def bench_check(
    ruleset_id: str,
    players: int,
    options: dict[str, Any] | None = None,
    *,
    min_actions: int = 50_000,
    seed: int = 1,
    repeat: int = 3,
) -> float:
    """Actions per second that :func:`~tricklaw.check.lines.check_lines` checks, on JSON
    Lines logs of random games of ``ruleset_id`` for ``players`` (seeds ``seed``,
    ``seed + 1``, ...) holding ``min_actions`` actions or more; the best of ``repeat``
    timings. The logs are made first and held in memory as text lines, so the time is
    JSON parsing, validation and checking: every line of the log (header, rounds with
    their deals, actions, tricks, scores, totals), divided by the actions. ``options``
    default to long games, of 50 rounds where the ruleset has a ``rounds`` option (the
    checker is for long logs; a short game adds the set-up of a game)."""
    from tricklaw.model.agents import play_random_game

    ruleset = get_ruleset(ruleset_id)
    if options is None:
        has_rounds = any(spec.name == "rounds" for spec in ruleset.option_specs)
        options = {"rounds": 50} if has_rounds else {}
    game = ruleset.make_game(players, options)
    logs: list[list[str]] = []
    actions = 0
    while actions < min_actions:
        state = play_random_game(game, seed + len(logs), 100)
        lines = state_to_log(state, seed + len(logs))
        actions += sum(1 for line in lines if line.startswith('{"seat"'))
        logs.append(lines)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for lines in logs:
            verdict = check_lines(lines)
            if verdict.status != AGREES:
                raise RecordError(f"bench: a generated log does not agree: {verdict.message}")
        best = min(best, time.perf_counter() - start)
    return actions / best
