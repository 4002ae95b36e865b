"""Verify's units on a pool of worker processes: every unit (:func:`run_each`), or until
one fails (:func:`run_until`), with the pool then stopped at once and no worker left.

Generic over what a unit is and gives: :mod:`tricklaw.verify.run` says what runs
(``work``, a picklable function of one unit), in which order, and what counts as a
failure. Each unit runs in a process of its own, forked from a fork server that has only
imported ``preload``: what Z3 answers (a witness, an unsat core) then cannot depend on
what else a process solved before, or on where its memory lies, so the results are the
same for every number of workers.

A pool breaks when a worker is killed from outside (the system kills a process that takes
all the memory); each unit not done then gets ``lost(unit, error)`` instead of its
outputs, so that verify still reports every other unit rather than end in a traceback.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TypeVar

U = TypeVar("U", bound=Hashable)
"""A unit of work."""
T = TypeVar("T")
"""What a unit gives."""


@dataclass(frozen=True)
class Workers:
    """How many worker processes, what each calls first (``setup``: a picklable
    callable, or None), and the module the fork server imports (``preload``)."""

    jobs: int
    setup: Callable[[], object] | None
    preload: str


def _pool(workers: Workers, units: int) -> ProcessPoolExecutor:
    """``workers.jobs`` processes (no more than there are ``units``), each running one
    unit, forked from a fork server that has only imported ``workers.preload``."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([workers.preload])
    return ProcessPoolExecutor(
        max_workers=min(workers.jobs, units),
        mp_context=context,
        initializer=workers.setup,
        max_tasks_per_child=1,
    )


def _submit(
    pool: ProcessPoolExecutor, work: Callable[[U], T], units: Sequence[U]
) -> dict[Future[T], U]:
    """Each unit's future on ``pool``, submitted in the order of ``units``. A pool that
    broke while the units were handed over (a worker dead already) refuses the rest: each
    of those gets a future failed with that error, read like the others."""
    out: dict[Future[T], U] = {}
    for unit in units:
        try:
            future = pool.submit(work, unit)
        except BrokenProcessPool as exc:
            future = Future()
            future.set_exception(exc)
        out[future] = unit
    return out


def _outputs(future: Future[T], unit: U, lost: Callable[[U, BrokenProcessPool], T]) -> T:
    """``future``'s outputs for ``unit``, or ``lost(unit, error)`` when the pool broke."""
    try:
        return future.result()
    except BrokenProcessPool as exc:
        return lost(unit, exc)


def run_each(
    workers: Workers,
    work: Callable[[U], T],
    units: Sequence[U],
    lost: Callable[[U, BrokenProcessPool], T],
    *,
    done: Callable[[U], None] = lambda _: None,
) -> dict[U, T]:
    """Every unit's outputs, by unit; the units start in the order of ``units``, and
    ``done(unit)`` is called as each one is read."""
    out: dict[U, T] = {}
    with _pool(workers, len(units)) as pool:
        futures = _submit(pool, work, units)
        for future in as_completed(futures):
            unit = futures[future]
            out[unit] = _outputs(future, unit, lost)
            done(unit)
    return out


def run_until(
    workers: Workers,
    work: Callable[[U], T],
    units: Sequence[U],
    lost: Callable[[U, BrokenProcessPool], T],
    *,
    failed: Callable[[T], bool],
    done: Callable[[U], None] = lambda _: None,
) -> dict[U, T]:
    """The outputs of the units that finished, by unit, stopping as soon as a finished
    unit ``failed``: units not yet started are not run, and running ones are stopped
    (their worker processes killed, ``_stop``). The units start in the order of
    ``units``; no worker process is left afterwards (``_reap``)."""
    out: dict[U, T] = {}
    before = set(multiprocessing.active_children())
    with _pool(workers, len(units)) as pool:
        threads = set(threading.enumerate())
        futures = _submit(pool, work, units)
        # The pool's manager thread, started by the first submit (not a daemon: the
        # interpreter waits for it at exit).
        manager = {t for t in set(threading.enumerate()) - threads if not t.daemon}
        for future in as_completed(futures):
            unit = futures[future]
            out[unit] = _outputs(future, unit, lost)
            done(unit)
            if failed(out[unit]):
                _stop(pool, before, manager)
                break
    _reap(before)
    return out


def _stop(
    pool: ProcessPoolExecutor,
    before: set[multiprocessing.process.BaseProcess],
    threads: set[threading.Thread],
) -> None:
    """Stop ``pool`` at once: no unit starts, every worker is killed, and the pool's
    manager ``threads`` have ended (else the interpreter waits for them at exit, for ever).

    A worker is killed until none is left, because killing one can leave another stuck:
    killed while it held the lock of the queue the results go back on, it leaves the
    next worker to send a result waiting for that lock for ever, and the pool's manager
    thread waiting for that worker. And the pool starts a worker in place of one that
    finished its unit, which can happen after a first round of killing. A killed worker
    breaks the pool; its manager thread then fails every future not yet done (none of
    them is read) and ends.

    The pool is shut down only when no worker has been left for two rounds, to wake a
    manager thread that has no worker to wait for: shut down while a worker that finished
    its unit is being replaced, the manager thread of Python 3.11 fails with a
    ``TypeError`` printed on stderr (CPython issue 119592; a replacement starts within
    a round)."""
    idle = 0
    while any(t.is_alive() for t in threads):
        workers = set(multiprocessing.active_children()) - before
        for worker in workers:
            worker.kill()
        idle = 0 if workers else idle + 1
        if idle == 2:
            pool.shutdown(wait=False, cancel_futures=True)
        for thread in threads:
            thread.join(0.1)
    pool.shutdown(wait=False, cancel_futures=True)  # the manager ended: nothing starts now


def _reap(before: set[multiprocessing.process.BaseProcess]) -> None:
    """Make sure no worker of a stopped pool is left: the pool replaces a worker that
    finished its one unit, and a replacement can start after the others were terminated.
    Each child not in ``before`` is terminated and waited for (killed if it does not
    stop within seconds)."""
    for worker in set(multiprocessing.active_children()) - before:
        worker.terminate()
        worker.join(10)
        if worker.is_alive():
            worker.kill()
            worker.join()
