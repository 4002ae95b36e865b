"""A play function for :func:`tricklaw.bench.timed` that records each of its calls, with a
slow warm-up (``tests/test_bench.py``).

It runs in the benchmark's worker processes, so it is a module of its own (importable by
name in a worker however it was started) and writes what it did to files: one JSON line
per call, in ``<folder>/<pid>.jsonl`` with the folder named by :data:`FOLDER_ENV` (set
before the pool starts, so every worker sees it). Its first call in a process sleeps
:data:`SLOW` seconds first: a warm-up far slower than the rounds it plays.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from tricklaw.bench import play_rounds
from tricklaw.model.state import Game

FOLDER_ENV = "TRICKLAW_TEST_RECORDED_PLAY"
"""The environment variable that names the folder of the records."""

SLOW = 0.3
"""Seconds the first call in each process sleeps before it plays."""

_warm_in: int | None = None
"""The process whose first call has been made (a forked worker inherits its parent's)."""


def recorded_play(game: Game, rounds: int, seed: int) -> int:
    """:func:`tricklaw.bench.play_rounds`, the first call in a process :data:`SLOW` seconds
    slower; records the process, the rounds asked and played, whether it slept, and
    ``time.perf_counter()`` (one clock for every process of the machine) at its start and end."""
    global _warm_in  # noqa: PLW0603 (once per process)
    start = time.perf_counter()
    slept = _warm_in != os.getpid()
    if slept:
        time.sleep(SLOW)
        _warm_in = os.getpid()
    done = play_rounds(game, rounds, seed)
    call = {"rounds": rounds, "done": done, "slept": slept, "start": start}
    call["end"] = time.perf_counter()
    folder = Path(os.environ[FOLDER_ENV])
    with (folder / f"{os.getpid()}.jsonl").open("a", encoding="utf-8") as out:
        out.write(json.dumps(call) + "\n")
    return done


def calls(folder: Path) -> dict[int, list[dict[str, Any]]]:
    """Process id -> its calls in the order made, as :func:`recorded_play` recorded them."""
    return {
        int(path.stem): [json.loads(line) for line in path.read_text("utf-8").splitlines()]
        for path in sorted(folder.glob("*.jsonl"))
    }


def fails_once(game: Game, rounds: int, seed: int) -> int:
    """Raise ValueError in the first process to call it (the one that creates the file
    ``failed`` in the records' folder); elsewhere :func:`tricklaw.bench.play_rounds`."""
    try:
        (Path(os.environ[FOLDER_ENV]) / "failed").touch(exist_ok=False)
    except FileExistsError:
        return play_rounds(game, rounds, seed)
    raise ValueError(f"a warm-up failed in process {os.getpid()}")
