"""The simulation benchmark behind ``tricklaw bench``, and the command itself
(:func:`add_command`, :func:`cmd_bench`).

By default the batch engine (:mod:`tricklaw.batch`) plays the rounds, in chunks of games in
lockstep, and the reference engine is timed in the same run for comparison
(:func:`bench_both`); ``--engine reference`` times the reference alone (:func:`bench_rounds`).

Random agents play whole games (seeds ``seed``, ``seed+1``, ...) through the
reference model's ordinary state API until the requested number of rounds is
done; with ``jobs > 1`` the rounds are split over worker processes. The wall
time includes dealing, every legality computation and every state built, and,
with several jobs, starting the worker processes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tricklaw.game_args import add_game_args, make_game
from tricklaw.model.agents import play_random_game
from tricklaw.model.options import OptionValue
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Game
from tricklaw.spec.errors import TricklawError

CHUNK = 2048
"""Games per batch chunk: large enough that numpy's per-call cost is spread thin, small
enough that a chunk's arrays stay in a few megabytes."""


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


def batch_rounds(game: Game, rounds: int, seed: int, chunk: int = CHUNK) -> int:
    """Play random games from ``seed`` on with the batch engine, ``chunk`` games at a time
    (memory stays flat), until ``rounds`` rounds are done; the rounds played. The rounds
    counted are those :func:`play_rounds` plays: game by game in seed order, the last one
    cut off at the rounds still wanted (a chunk's games all play on in lockstep, so a few
    rounds beyond those are played inside the clock, and not counted)."""
    import numpy as np

    from tricklaw.batch import engine_for

    engine = engine_for(game.ruleset.id)
    if not engine.kernel_plays(game):
        return play_rounds(game, rounds, seed)
    done = 0
    while done < rounds:
        wanted = rounds - done
        games = max(1, min(chunk, -(-wanted // max(1, game.players))))
        played = engine.play(game, tuple(range(seed, seed + games)), wanted)
        before = np.concatenate(([0], np.cumsum(played.rounds)[:-1]))
        done += int(np.clip(wanted - before, 0, played.rounds).sum())
        seed += games
    return done


def _batch_worker(
    ruleset: str, players: int, options: dict[str, OptionValue], rounds: int, seed: int
) -> int:
    return batch_rounds(get_ruleset(ruleset).make_game(players, options), rounds, seed)


def _worker(
    ruleset: str, players: int, options: dict[str, OptionValue], rounds: int, seed: int
) -> int:
    return play_rounds(get_ruleset(ruleset).make_game(players, options), rounds, seed)


def bench_rounds(
    game: Game, rounds: int, jobs: int, seed: int, *, batch: bool = False
) -> dict[str, Any]:
    """Time ``rounds`` random rounds on ``jobs`` processes, by the reference engine (or the
    batch engine with ``batch``); a JSON-ready report. On one job the batch engine's
    kernels are loaded first, outside the clock (``warmup_seconds``: numba's import and
    cache, or its compilation on the very first run); with several jobs each worker's
    start-up is inside the clock, as the reference's process start is."""
    play, worker = (batch_rounds, _batch_worker) if batch else (play_rounds, _worker)
    warmup = 0.0
    if batch and jobs == 1:  # load the kernels (numba's cache, or compile) before the clock
        start = time.perf_counter()
        batch_rounds(game, 1, seed)
        warmup = time.perf_counter() - start
    start = time.perf_counter()
    if jobs == 1:
        done = play(game, rounds, seed)
    else:
        shares = [rounds // jobs + (1 if j < rounds % jobs else 0) for j in range(jobs)]
        options = game.options.as_dict()
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [
                pool.submit(worker, game.ruleset.id, game.players, options, share, seed + j * 10**9)
                for j, share in enumerate(shares)
            ]
            done = sum(f.result() for f in futures)
    seconds = time.perf_counter() - start
    extra = {"warmup_seconds": round(warmup, 4)} if batch else {}
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
        **extra,
    }


def bench_both(game: Game, rounds: int, jobs: int, seed: int) -> dict[str, Any]:
    """The batch engine's report (:func:`bench_rounds` with ``batch``), with the reference
    engine timed in the same run on the same rounds and seeds: ``reference_rounds_per_s``,
    and ``speedup`` (batch over reference). ``vectorised`` says whether the batch engine plays
    this game in lockstep or falls back to the reference (:meth:`kernel_plays
    <tricklaw.batch.engine.BatchEngine.kernel_plays>`: a ruleset or table without a kernel,
    or no numba). Without numpy (the ``batch`` extra) a TricklawError says so."""
    try:
        from tricklaw.batch import engine_for
    except ImportError as missing:
        raise TricklawError(
            f"the batch engine needs numpy ({missing}): pip install 'tricklaw[batch]', "
            "or time the reference alone with --engine reference"
        ) from None

    report = bench_rounds(game, rounds, jobs, seed, batch=True)
    reference = bench_rounds(game, rounds, jobs, seed)
    report["engine"] = "batch"
    report["vectorised"] = engine_for(game.ruleset.id).kernel_plays(game)
    report["reference_rounds"] = reference["rounds"]
    report["reference_seconds"] = reference["seconds"]
    report["reference_rounds_per_s"] = reference["rounds_per_s"]
    report["speedup"] = round(report["rounds_per_s"] / reference["rounds_per_s"], 2)
    return report


# --- the command --------------------------------------------------------------------------


def cores() -> int:
    """The CPUs this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``bench`` subcommand (``tricklaw bench RULESET --players N [--rounds R]
    [--jobs J] [--seed S] [--engine batch|reference] [--check [--actions A]]``)."""
    p = subparsers.add_parser("bench", help="measure random rounds per second")
    add_game_args(p)
    p.add_argument(
        "--rounds",
        dest="bench_rounds",
        type=int,
        default=5000,
        help="rounds to play, over as many games as needed (default 5000)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=cores(),
        help=f"worker processes (default: the CPUs available, here {cores()}; 1 = one core)",
    )
    p.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    p.add_argument(
        "--engine",
        choices=("batch", "reference"),
        default="batch",
        help="batch (default): the numpy lockstep engine, with the reference timed in the same "
        "run (reference_rounds_per_s); reference: the reference engine alone",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="time the log checker instead: actions per second on JSON Lines logs of random "
        "games (one core, best of three; 50 rounds a game where the ruleset has --rounds)",
    )
    p.add_argument(
        "--actions",
        type=int,
        default=50_000,
        help="with --check: actions to check, over as many games as needed (default 50000)",
    )
    p.set_defaults(func=cmd_bench)


def cmd_bench(args: argparse.Namespace) -> int:
    """Play random rounds and print one JSON line with rounds_per_s; with ``--check``,
    time the log checker instead (``actions_per_s``)."""
    game = make_game(args)
    if args.check:
        from tricklaw.check import bench_check

        if args.actions < 1:
            raise TricklawError(f"--actions must be at least 1, not {args.actions}")
        options = game.options.as_dict() if args.option else None
        rate = bench_check(
            game.ruleset.id, game.players, options, min_actions=args.actions, seed=args.seed
        )
        report = {
            "ruleset": game.ruleset.id,
            "players": game.players,
            "actions_per_s": round(rate),
            "compiled": compiled(),
        }
    elif args.engine == "reference":
        report = bench_rounds(game, args.bench_rounds, args.jobs, args.seed)
    else:
        report = bench_both(game, args.bench_rounds, args.jobs, args.seed)
    sys.stdout.write(json.dumps(report) + "\n")
    return 0
