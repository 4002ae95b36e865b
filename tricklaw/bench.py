"""The simulation benchmark behind ``tricklaw bench``.

Random agents play whole games (seeds ``seed``, ``seed+1``, ...) through the
reference model's ordinary state API until the requested number of rounds is
done; with ``jobs > 1`` the rounds are split over worker processes. The wall
time includes dealing, every legality computation and every state built, and,
with several jobs, starting the worker processes.
"""

from __future__ import annotations

import platform
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tricklaw.model.agents import play_random_game
from tricklaw.model.options import OptionValue
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Game


def compiled() -> bool:
    """Whether the model's hot path runs as compiled extensions (mypyc; ``setup.py``) or,
    built with ``TRICKLAW_PURE=1``, as plain Python. Every benchmark report says which."""
    from tricklaw.model import flow

    return not flow.__file__.endswith(".py")


def play_rounds(game: Game, rounds: int, seed: int) -> int:
    """Play random games from ``seed`` on until ``rounds`` rounds are done; the rounds played."""
    done = 0
    while done < rounds:
        state = play_random_game(game, seed, max_rounds=rounds - done)
        done += len(state.history)
        seed += 1
    return done


def _worker(
    ruleset: str, players: int, options: dict[str, OptionValue], rounds: int, seed: int
) -> int:
    return play_rounds(get_ruleset(ruleset).make_game(players, options), rounds, seed)


def bench_rounds(game: Game, rounds: int, jobs: int, seed: int) -> dict[str, Any]:
    """Time ``rounds`` random rounds on ``jobs`` processes; a JSON-ready report."""
    start = time.perf_counter()
    if jobs == 1:
        done = play_rounds(game, rounds, seed)
    else:
        shares = [rounds // jobs + (1 if j < rounds % jobs else 0) for j in range(jobs)]
        options = game.options.as_dict()
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [
                pool.submit(
                    _worker, game.ruleset.id, game.players, options, share, seed + j * 10**9
                )
                for j, share in enumerate(shares)
            ]
            done = sum(f.result() for f in futures)
    seconds = time.perf_counter() - start
    return {
        "ruleset": game.ruleset.id,
        "players": game.players,
        "options": game.options.as_dict(),
        "rounds": done,
        "jobs": jobs,
        "seconds": round(seconds, 4),
        "rounds_per_s": round(done / seconds, 1),
        "python": platform.python_version(),
        "compiled": compiled(),
    }
