"""``tricklaw verify --watch``: verify again on every save, and say what changed.

Each run is a fresh ``tricklaw verify`` process with the same arguments and the result
cache (:mod:`tricklaw.verify.cache`), so that it runs only what the edit can change, and
with code that is the code on disk: a process that stayed up would run its worker
processes from the modules it imported at its start. After each run the watcher prints
the rows that now fail and those that pass again since the run before, and the run's
closing lines; then it waits for the next save in the package's source and spec folders
(``watchfiles``: the operating system's file events, polling where there are none).
Saves are gathered from before the first run on, so that one made while a run goes on
starts the next. Ctrl-C stops it; its exit status is the last run's.
"""

from __future__ import annotations

import contextlib
import json
import queue
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

Row = tuple[str, str, str, str]
"""A row's identity: obligation, ruleset, players, reading."""

FAILING = frozenset({"fail", "counterexample", "unknown"})
"""Statuses that fail a run whatever the row (a vacuous or trivial row fails only when not
documented: the report's ``expected`` says)."""


def failing(report: Any) -> dict[Row, str]:
    """The failing rows of a JSON report, each with its status and detail."""
    out: dict[Row, str] = {}
    for r in report.get("results", []):
        hollow = r["status"] in ("vacuous", "trivial") and not r.get("expected")
        if r["status"] in FAILING or hollow:
            key = (r["obligation"], r["ruleset"], str(r["players"]), r["reading"])
            out[key] = f"{r['status']}: {r.get('detail', '')}"[:300]
    return out


def changes(before: Any, after: Any) -> list[str]:
    """What changed from report ``before`` to ``after``: the rows that now fail, then
    those that pass again, a line each."""
    old, new = failing(before), failing(after)
    lines = [f"  now fails: {_name(k)}: {new[k]}" for k in new if k not in old]
    lines += [f"  passes again: {_name(k)}" for k in old if k not in new]
    return lines or ["  no row changed its verdict"]


def _name(row: Row) -> str:
    obligation, ruleset, players, reading = row
    where = " ".join(p for p in (ruleset, f"{players}p" if players else "") if p)
    return f"{obligation} {where} [{reading}]" if reading else f"{obligation} {where}"


def folders() -> list[Path]:
    """The folders whose files a run can depend on: the package's source (each of its
    linked folders resolved) and the spec folders."""
    import tricklaw
    from tricklaw.spec import folders as spec_folders

    package = Path(tricklaw.__file__).parent
    found = {package.resolve()}
    found |= {child.resolve() for child in package.iterdir() if child.is_symlink()}
    found |= {Path(str(f)).resolve() for f in spec_folders()}
    return sorted(f for f in found if f.is_dir())


def run_once(argv: Sequence[str], report: Path) -> tuple[int, Any, str]:
    """One ``tricklaw verify`` run with ``argv`` writing its JSON report to ``report``:
    its exit status, the report (None if it wrote none) and its printed summary.
    Its progress goes to this process's standard error as it comes."""
    report.unlink(missing_ok=True)
    command = [sys.executable, "-m", "tricklaw", "verify", *argv, "--json", str(report)]
    proc = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
    data = json.loads(report.read_text(encoding="utf-8")) if report.exists() else None
    return proc.returncode, data, proc.stdout


class Saves:
    """The saves under some folders, as batches, gathered by a thread from its start on,
    so that a save made while a run goes on is not lost (it starts the next run)."""

    def __init__(self, where: Sequence[Path]) -> None:
        self._batches: queue.Queue[set[str]] = queue.Queue()
        self._ready = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, args=(where,), daemon=True)
        self._thread.start()
        self._ready.wait(timeout=30)  # the folders are watched from here on

    def _listen(self, where: Sequence[Path]) -> None:
        from watchfiles import watch as file_events

        for batch in file_events(
            *where, stop_event=self._stop, yield_on_timeout=True, rust_timeout=200
        ):
            self._ready.set()
            if batch:
                self._batches.put({path for _, path in batch})

    def next(self) -> set[str]:
        """The paths saved since the last call: waits for a save, then takes every batch
        that came with it."""
        saved: set[str] = set()
        while not saved:
            with contextlib.suppress(queue.Empty):
                saved |= self._batches.get(timeout=0.5)
        while not self._batches.empty():
            saved |= self._batches.get_nowait()
        return saved

    def close(self) -> None:
        """Stop watching."""
        self._stop.set()


def watch(argv: Sequence[str], out: TextIO, paths: Iterable[Path] | None = None) -> int:
    """Run verify with ``argv``, then again after every batch of saves under ``paths``
    (default :func:`folders`), printing to ``out`` what changed each time; the last
    run's exit status once stopped (Ctrl-C)."""
    where = list(paths) if paths is not None else folders()
    saves = Saves(where)
    with tempfile.TemporaryDirectory(prefix="tricklaw-watch-") as temporary:
        report = Path(temporary) / "report.json"
        code, previous, printed = run_once(argv, report)
        out.write(printed)
        out.write(f"watching {len(where)} folders for saves (Ctrl-C stops)\n")
        out.flush()
        try:
            while True:
                saved = sorted({Path(p).name for p in saves.next()})
                out.write(f"\nsaved: {', '.join(saved[:8])}{' ...' if len(saved) > 8 else ''}\n")
                out.flush()
                code, now, printed = run_once(argv, report)
                if previous is not None and now is not None:
                    out.write("\n".join(changes(previous, now)) + "\n")
                closing = [line for line in printed.splitlines() if line.strip()][-3:]
                out.write("\n".join(closing) + "\n")
                out.flush()
                previous = now if now is not None else previous
        except KeyboardInterrupt:
            out.write("stopped\n")
        finally:
            saves.close()
    return code
