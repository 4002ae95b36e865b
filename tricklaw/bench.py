"""The simulation benchmark behind ``tricklaw bench``, and the command itself
(:func:`add_command`, :func:`cmd_bench`).

By default the batch engine (:mod:`tricklaw.batch`) plays the rounds, in chunks of games in
lockstep, and the reference engine is timed in the same run for comparison
(:func:`bench_both`); ``--engine reference`` times the reference alone (:func:`bench_rounds`).

Random agents play whole games (seeds ``seed``, ``seed+1``, ...) through the
reference model's ordinary state API until the requested number of rounds is
done; with ``jobs > 1`` (at most the CPUs available) the rounds are split over worker
processes (:func:`timed`). The clock includes dealing, every legality computation and
every state built; it starts once every process is warm (started, its first round
played: imports, and numba's kernels loaded or compiled), and that warm-up is reported
apart (``warmup_seconds``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing.synchronize import Barrier
from threading import BrokenBarrierError
from typing import Any

from tricklaw.batch import engine_for
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


def cores() -> int:
    """The CPUs this process may use (its affinity where the system has one, else the
    machine's count): the most jobs a benchmark runs on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


Play = Callable[[Game, int, int], int]
"""Plays random rounds: ``play(game, rounds, seed)`` plays games from ``seed`` on until
``rounds`` rounds are done and returns the rounds played (:func:`play_rounds`,
:func:`batch_rounds`). A module-level function, so that worker processes can be sent it."""

GameSpec = tuple[str, int, dict[str, OptionValue]]
"""A game as a worker process is sent it: ruleset id, players, options."""

WARMUP_ROUNDS = 1
"""Rounds each process plays before the clock starts: the first game's first round, which
imports the engine and loads (or, on a fresh numba cache, compiles) the batch kernels."""


@dataclass(frozen=True)
class Timing:
    """One timed run of :func:`timed`."""

    rounds: int
    """The rounds played on the clock."""
    jobs: int
    """The processes that played them: the jobs asked for, at most :func:`cores`."""
    seconds: float
    """The clock: from the start of the first share (sent to the workers, with several
    jobs) to the last one's result, every process already warm."""
    warmup_seconds: float
    """Before the clock: starting the worker processes and each one's warm-up
    (:data:`WARMUP_ROUNDS`), until the slowest is ready."""


_READY: Barrier | None = None
"""In a worker process: the pool's barrier, which every warm-up reaches before any returns
(so that each worker warms up once, not one worker twice)."""


def _join(ready: Barrier) -> None:
    """A worker's start (the pool's initializer): keep the pool's barrier."""
    global _READY  # noqa: PLW0603 (one per worker process, set once at its start)
    _READY = ready


def _share(play: Play, spec: GameSpec, rounds: int, seed: int) -> int:
    """A worker's task: ``play`` the game of ``spec`` for ``rounds`` rounds from ``seed``."""
    ruleset, players, options = spec
    return play(get_ruleset(ruleset).make_game(players, options), rounds, seed)


def _warm_up(play: Play, spec: GameSpec, seed: int) -> None:
    """A worker's warm-up: :data:`WARMUP_ROUNDS` rounds from ``seed``, then wait at the
    barrier until every worker has played them (a failed warm-up breaks the barrier, so
    none waits for it)."""
    assert _READY is not None, "a warm-up runs in a worker of timed's pool"
    try:
        _share(play, spec, WARMUP_ROUNDS, seed)
    except BaseException:
        _READY.abort()
        raise
    _READY.wait()


def timed(
    play: Play,
    game: Game,
    rounds: int,
    jobs: int,
    seed: int,
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> Timing:
    """Time ``play`` for ``rounds`` rounds of ``game`` from ``seed`` on ``jobs`` processes,
    at most :func:`cores` (one job plays in this process; several split the rounds into
    one share per worker process, seeds ``seed + j * 10**9``).

    Every process warms up before the clock starts: it plays :data:`WARMUP_ROUNDS`, and
    the workers of a pool all do so (a barrier holds each warm-up until all have played)
    before the first share is sent. ``clock`` is read three times: before the warm-up,
    when the clock starts and when it stops."""
    jobs = max(1, min(jobs, cores()))
    if jobs == 1:
        begin = clock()
        play(game, WARMUP_ROUNDS, seed)
        start = clock()
        done = play(game, rounds, seed)
        end = clock()
        return Timing(done, jobs, end - start, start - begin)
    spec: GameSpec = (game.ruleset.id, game.players, game.options.as_dict())
    shares = [rounds // jobs + (1 if j < rounds % jobs else 0) for j in range(jobs)]
    context = multiprocessing.get_context()
    begin = clock()
    with ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_join, initargs=(context.Barrier(jobs),)
    ) as pool:
        warm_ups = [pool.submit(_warm_up, play, spec, seed) for _ in range(jobs)]
        wait(warm_ups)
        failed = [e for f in warm_ups if (e := f.exception()) is not None]
        if failed:  # the warm-up that failed, rather than the others' broken barrier
            raise next((e for e in failed if not isinstance(e, BrokenBarrierError)), failed[0])
        start = clock()
        futures = [
            pool.submit(_share, play, spec, share, seed + j * 10**9)
            for j, share in enumerate(shares)
        ]
        done = sum(f.result() for f in futures)
        end = clock()
    return Timing(done, jobs, end - start, start - begin)


def bench_rounds(
    game: Game, rounds: int, jobs: int, seed: int, *, batch: bool = False
) -> dict[str, Any]:
    """Time ``rounds`` random rounds on ``jobs`` processes (:func:`timed`: at most the CPUs
    available, each process warmed up before the clock), by the reference engine (or the
    batch engine with ``batch``); a JSON-ready report. ``vectorised`` says whether the batch
    engine played this game in lockstep or fell back to the reference (:meth:`kernel_plays
    <tricklaw.batch.engine.BatchEngine.kernel_plays>`: a ruleset or table without a kernel,
    or no numba); the reference never does. ``warmup_seconds`` is the time before the
    clock: the worker processes' start, and each process's first round (imports; for the
    batch engine numba's import and cache, or its compilation on the very first run).
    ``jobs`` is the number of processes that played, ``jobs_asked`` the number asked for
    and ``cpus`` the CPUs available."""
    timing = timed(batch_rounds if batch else play_rounds, game, rounds, jobs, seed)
    return {
        "ruleset": game.ruleset.id,
        "players": game.players,
        "options": game.options.as_dict(),
        "engine": "batch" if batch else "reference",
        "vectorised": batch and engine_for(game.ruleset.id).kernel_plays(game),
        "rounds": timing.rounds,
        "jobs": timing.jobs,
        "jobs_asked": jobs,
        "cpus": cores(),
        "seconds": round(timing.seconds, 4),
        "rounds_per_s": round(timing.rounds / timing.seconds, 1),
        "warmup_seconds": round(timing.warmup_seconds, 4),
        "python": platform.python_version(),
        "compiled": compiled(),
    }


BATCH_EXTRA = (
    "the batch engine needs the 'batch' extra (numpy, numba: pip install 'tricklaw[batch]')"
)
"""What the batch engine needs, as the note and the error without numpy say it."""


def batch_missing() -> str | None:
    """Why the batch engine cannot run in this install (numpy, of the ``batch`` extra, does
    not import: the import error); None when it can. Without numba it runs, and plays in
    lockstep only what :meth:`kernel_plays <tricklaw.batch.engine.BatchEngine.kernel_plays>`
    allows (Low-High)."""
    try:
        import numpy  # noqa: F401  (the batch engine's arrays)
    except ImportError as missing:
        return str(missing)
    return None


def bench_both(game: Game, rounds: int, jobs: int, seed: int) -> dict[str, Any]:
    """The batch engine's report (:func:`bench_rounds` with ``batch``), with the reference
    engine timed in the same run on the same rounds and seeds: ``reference_rounds_per_s``
    (and its ``reference_rounds``, ``reference_seconds``, ``reference_warmup_seconds``), and
    ``speedup`` (batch over reference). Without numpy (the ``batch`` extra) a
    TricklawError says so."""
    missing = batch_missing()
    if missing is not None:
        raise TricklawError(
            f"{BATCH_EXTRA}, not installed here ({missing}); "
            "time the reference alone with --engine reference"
        )
    report = bench_rounds(game, rounds, jobs, seed, batch=True)
    reference = bench_rounds(game, rounds, jobs, seed)
    for key in ("rounds", "seconds", "rounds_per_s", "warmup_seconds"):
        report[f"reference_{key}"] = reference[key]
    report["speedup"] = round(report["rounds_per_s"] / reference["rounds_per_s"], 2)
    return report


# --- the command --------------------------------------------------------------------------


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
        help=f"worker processes, at most the CPUs available (here {cores()}; more are capped, "
        "and the JSON line's jobs says how many played, jobs_asked how many were asked for); "
        "default: all of them; 1 = one core",
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
    time the log checker instead (``actions_per_s``). Without numpy (the ``batch`` extra)
    the default engine cannot run: one note on stderr says so, and the reference engine
    is timed alone (``vectorised: false``)."""
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
    elif (missing := batch_missing()) is not None:  # the base install: the reference runs
        sys.stderr.write(
            f"tricklaw: bench: note: {BATCH_EXTRA}, not installed here ({missing}): "
            "running the reference engine alone\n"
        )
        report = bench_rounds(game, args.bench_rounds, args.jobs, args.seed)
    else:
        report = bench_both(game, args.bench_rounds, args.jobs, args.seed)
    sys.stdout.write(json.dumps(report) + "\n")
    return 0
