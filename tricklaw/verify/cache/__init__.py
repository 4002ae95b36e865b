"""The result cache of ``tricklaw verify``: each step's rows, kept under a key of
everything they depend on, so that a run after an edit computes only what the edit can
change, and a run after no edit computes nothing.

A step (one check or proof family of one ruleset at one player count, or one part of
one) is keyed by :mod:`.keys`: its arguments, the source of every module its import
closure reaches (:mod:`.graph`: computed from the sources, each registry followed to the
step's own games only), the spec files it can read (its games' and the shared ones),
and the versions of Python, tricklaw and its libraries. Editing one game's module in any
layer, or its clause file, changes the keys of that game's steps only; editing shared
code changes the keys of the steps whose closure holds it. A planted change (the
mutation harness writes each mutant into a tree of its own) changes the source, so it is
never answered from the unchanged code's entries.

:class:`ResultCache` is one run's use of the folder (:mod:`.store`): it looks each step
up, marks a row taken from the cache with the run that computed it
(:attr:`~tricklaw.proofs.results.Result.cached_from`), and keeps the rows computed
now when the run ends, but only:

* rows of a step that decided: no ``unknown`` (a time-out depends on the machine's load),
  and no step that fell over (an exception may be the machine's, such as memory);
* when no file it hashed has changed while the run went on (an edit saved during a run
  may have been read by one worker and not another): then nothing is kept.

What it cannot see: a change made in memory, not on disk (a test that patches a function
in the process that runs the steps). :func:`~tricklaw.verify.run.collect` uses no cache
unless asked (``Scope.cache``); the command line asks by default, and ``--no-cache`` (or
``TRICKLAW_VERIFY_CACHE=off``) turns it off.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from tricklaw.proofs.results import Result
from tricklaw.proofs.statuses import UNKNOWN
from tricklaw.verify.cache.keys import ENV, FORMAT, Keys, StepCall
from tricklaw.verify.cache.store import Store

__all__ = ["ENV", "FORMAT", "ResultCache", "StepCall", "default_folder"]


def default_folder() -> Path | None:
    """The folder ``verify`` caches in when not told: :data:`ENV`, else the user's cache
    folder as the platform names it (``~/.cache/tricklaw/verify`` on Linux, through
    ``platformdirs``); None when :data:`ENV` is ``off``."""
    chosen = os.environ.get(ENV, "")
    if chosen.lower() == "off":
        return None
    if chosen:
        return Path(chosen)
    from platformdirs import user_cache_path

    return user_cache_path("tricklaw") / "verify"


def run_name() -> str:
    """This run's name, as a cached row names the run that computed it: the UTC time it
    started and the process."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()) + f"/{os.getpid()}"


def decided(rows: Iterable[Result]) -> bool:
    """Whether a step's rows may be kept: none is ``unknown`` and none is a step that
    fell over (its witness holds a traceback)."""
    return all(
        r.status != UNKNOWN and not (isinstance(r.witness, dict) and "traceback" in r.witness)
        for r in rows
    )


class ResultCache:
    """One run's use of the cache ``folder``. ``home`` is the module that wires the steps
    together and ``shared`` the modules every step runs (see
    :class:`~tricklaw.verify.cache.keys.Keys`; the cache's own modules are keyed like
    ``home``)."""

    def __init__(self, folder: Path, home: str, shared: Iterable[str]) -> None:
        self.store = Store(folder)
        own = [m for m in sys.modules if m == __name__ or m.startswith(__name__ + ".")]
        self.keys = Keys(self.store.scans(), home, own, shared)
        self.run = run_name()
        self._kept: dict[str, list[Result]] = {}
        self.hits = 0

    def key(self, call: StepCall) -> str | None:
        """``call``'s key; None when it is not cached (a plug-in's code, or its key could
        not be made: a module that fails to import, whose step then reports it)."""
        try:
            return self.keys.key(call)
        except Exception:  # the step runs, and reports what failed
            return None

    def get(self, key: str | None) -> list[Result] | None:
        """The rows kept under ``key``, each marked with the run that computed it; None
        when there are none (or ``key`` is None)."""
        if key is None:
            return None
        found = self.store.get(key)
        if found is None:
            return None
        run, rows = found
        self.hits += 1
        return [replace(r, cached_from=run) for r in rows]

    def keep(self, key: str | None, rows: list[Result]) -> None:
        """Keep ``rows`` under ``key`` when the run ends, if they decided
        (:func:`decided`)."""
        if key is not None and decided(rows):
            self._kept[key] = rows

    def close(self) -> int:
        """Write the rows kept, unless a file this run hashed has changed since (then
        nothing); how many steps were written."""
        if not self.keys.unchanged():
            return 0
        for key, rows in self._kept.items():
            self.store.put(key, self.run, rows)
        self.store.keep_scans(self.keys.scans)
        if self._kept:
            self.store.prune()
        return len(self._kept)
