"""Running a study: its chunks on local processes (every core by default) or on Ray, the
results combined in seed order, a progress bar, and the JSON report.

**The same seed gives the same result whatever runs it.** The work is cut into chunks by
seed (:data:`CHUNK` seeds of one case each, never by worker count); every pair of games
is a pure function of (case, seed); the chunks' results are put back in their order
before anything is counted. One process, many, or a Ray cluster: the same report.

The report (:func:`report`, the JSON written by ``--json``) holds, for each case, the
number of pairs and, for each measure (``trick``, ``score``, ``winner``), how many pairs
differ, their share, and its 95 % Wilson interval; ``seconds`` and ``games_per_second``
(two games a pair) describe the run and are the only fields that vary between runs.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from typing import Any, TextIO

from tricklaw.impact.stats import wilson
from tricklaw.impact.study import AGENTS, MAX_ROUNDS, MEASURES, Case, Step, play_chunk
from tricklaw.spec.errors import TricklawError

CHUNK = 25
"""Seeds per chunk of work."""
Chunk = tuple[int, int, int]
"""(index of the case, first seed, number of seeds)."""
Outcome = list[tuple[bool, bool, bool]]


def chunks(n_cases: int, games: int, seed: int) -> list[Chunk]:
    """The chunks of a study of ``games`` pairs per case from seed ``seed``."""
    return [
        (index, seed + start, min(CHUNK, games - start))
        for index in range(n_cases)
        for start in range(0, games, CHUNK)
    ]


def _run_chunk(case: Case, first: int, count: int, step: Step, engine: str) -> Outcome:
    return play_chunk(case, first, count, step, engine)


def local(
    cases: Sequence[Case],
    work: Sequence[Chunk],
    jobs: int,
    steps: Sequence[Step],
    engine: str = "batch",
) -> Iterator[Outcome]:
    """The chunks' outcomes in order: in this process (``jobs`` 1) or a process pool;
    ``steps[i]`` is case ``i``'s agent; ``engine`` plays them (see
    :data:`~tricklaw.impact.study.ENGINES`)."""
    if jobs <= 1:
        for index, first, count in work:
            yield play_chunk(cases[index], first, count, steps[index], engine)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(
            _run_chunk,
            [cases[i] for i, _, _ in work],
            [first for _, first, _ in work],
            [count for _, _, count in work],
            [steps[i] for i, _, _ in work],
            [engine] * len(work),
        )


def on_ray(
    cases: Sequence[Case],
    work: Sequence[Chunk],
    address: str,
    steps: Sequence[Step],
    engine: str = "batch",
) -> Iterator[Outcome]:
    """The chunks' outcomes in order, each chunk a Ray task; ``address`` is a cluster's
    address, or ``local`` for a Ray started here (on every local core)."""
    try:
        import ray
    except ImportError:
        raise TricklawError("--ray needs Ray: pip install 'tricklaw[ray]'") from None
    started = not ray.is_initialized()
    if started:
        if address == "local":
            ray.init(num_cpus=os.cpu_count() or 1, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    try:
        task = ray.remote(_run_chunk)
        refs = [task.remote(cases[i], first, count, steps[i], engine) for i, first, count in work]
        for ref in refs:
            yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def progress(total: int, stream: TextIO) -> Callable[[int], None]:
    """A progress bar of ``total`` pairs on ``stream``, drawn only on a terminal."""
    if not stream.isatty():
        return lambda done: None
    start = time.perf_counter()

    def draw(done: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        rate = 2 * done / max(time.perf_counter() - start, 1e-9)
        stream.write(
            f"\rimpact [{'#' * filled}{'.' * (width - filled)}] {done}/{total} pairs, "
            f"{rate:.0f} games/s"
        )
        if done >= total:
            stream.write("\n")
        stream.flush()

    return draw


def combine(
    cases: Sequence[Case],
    outcomes: Iterable[Outcome],
    work: Sequence[Chunk],
    tick: Callable[[int], None],
) -> list[Outcome]:
    """Each case's pairs' outcomes, in seed order (``outcomes`` follow ``work``)."""
    per_case: list[Outcome] = [[] for _ in cases]
    done = 0
    for (index, _, count), outcome in zip(work, outcomes, strict=True):
        per_case[index].extend(outcome)
        done += count
        tick(done)
    return per_case


def study(
    cases: Sequence[Case],
    games: int,
    seed: int = 0,
    *,
    jobs: int | None = None,
    ray_address: str | None = None,
    stream: TextIO | None = None,
    agents: Mapping[str, Step] = AGENTS,
    engine: str = "batch",
) -> dict[str, Any]:
    """Play ``games`` pairs of every case, from seeds ``seed ..``, and report
    (:func:`report`). ``jobs`` defaults to every local core; ``agents`` name the cases'
    agents; ``engine`` plays the games (:data:`~tricklaw.impact.study.ENGINES`: the same
    report either way, faster with the batch engine)."""
    work = chunks(len(cases), games, seed)
    steps = [agents[case.agent] for case in cases]
    tick = progress(len(work) and len(cases) * games, stream or sys.stderr)
    start = time.perf_counter()
    if ray_address is not None:
        outcomes: Iterable[Outcome] = on_ray(cases, work, ray_address, steps, engine)
    else:
        cores = jobs if jobs is not None else (os.cpu_count() or 1)
        outcomes = local(cases, work, cores, steps, engine)
    per_case = combine(cases, outcomes, work, tick)
    seconds = time.perf_counter() - start
    return report(cases, per_case, games, seed, seconds)


def report(
    cases: Sequence[Case], per_case: Sequence[Outcome], games: int, seed: int, seconds: float
) -> dict[str, Any]:
    """The JSON-ready report (see the module docstring)."""
    rows = []
    for case, outcome in zip(cases, per_case, strict=True):
        row: dict[str, Any] = {**asdict(case), "pairs": len(outcome)}
        for k, measure in enumerate(MEASURES):
            n = sum(o[k] for o in outcome)
            low, high = wilson(n, len(outcome))
            row[measure] = {
                "differ": n,
                "share": n / len(outcome) if outcome else 0.0,
                "ci95": [round(low, 6), round(high, 6)],
            }
        rows.append(row)
    pairs = sum(len(o) for o in per_case)
    return {
        "study": "tricklaw impact",
        "seed": seed,
        "games": games,
        "max_rounds": MAX_ROUNDS,
        "agents": list(dict.fromkeys(c.agent for c in cases)),
        "measures": list(MEASURES),
        "cases": rows,
        "seconds": round(seconds, 3),
        "games_per_second": round(2 * pairs / seconds, 1) if seconds > 0 else None,
    }
