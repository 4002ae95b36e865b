"""Capturing every solver query as an SMT-LIB 2 file (``tricklaw verify --smt2 DIR``).

While :func:`recording` is active (a context variable, so each worker process of verify
records its own queries), every query the solver module runs
(:func:`~tricklaw.proofs.solver.check`, each step of
:func:`~tricklaw.proofs.solver.optimum`) and the proofs' own incremental solvers
(:func:`record` in :mod:`~tricklaw.proofs.trick_obligations` and
:mod:`~tricklaw.proofs.example_constraints`) is written as one script of
:func:`~tricklaw.proofs.smt2.script`, with Z3's answer as the expected one: ``unsat`` for
a proved claim, ``sat`` for a counterexample, a finding, or a satisfiable example.
The model = clauses proofs (:func:`~tricklaw.proofs.equivalence.prove_paths`) are written
by :meth:`Recorder.write_tree` as one incremental script per proof (index entry
``"kind": "tree"``, with its number of ``checks``; :mod:`tricklaw.proofs.recheck` reads it
back).

File names are deterministic: ``RULESET-PLAYERSp-OBLIGATION-READING-INDEX.smt2`` from
the :func:`labelled` context (verify labels each (ruleset, players) step, the proofs
their obligation and reading) and the query's index among those of the same label. A
file is created, never overwritten, and written whole
(:func:`tricklaw.spec.outputs.write_new`). :func:`write_index` lists
every file with its expected answer in ``index.json``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import z3

from tricklaw.proofs.smt2 import Command, script, tree_script
from tricklaw.spec.errors import TricklawError
from tricklaw.spec.outputs import write_new

LABEL_KEYS = ("ruleset", "players", "obligation", "reading")
"""The parts of a file name, in order."""


@dataclass
class Recorder:
    """Writes queries into ``directory`` and keeps the list of what it wrote."""

    directory: Path
    entries: list[dict[str, Any]] = field(default_factory=list)
    _counts: dict[str, int] = field(default_factory=dict)
    _texts: dict[int, tuple[z3.ExprRef, str]] = field(default_factory=dict)
    context: z3.Context = field(default_factory=z3.Context)
    """The recorder's own Z3 context: every formula is translated into it before it is
    written, so that recording creates no term in the context the proofs run in. Z3's
    answers there stay the same; its incidental choices need not (which model of a
    satisfiable query, which unsat core): they depend on the process's memory, which
    recording changes. Cores are made canonical (``minimal_core``); a model shown as a
    witness may differ with and without ``--smt2`` (seen on Hund's order-type rows)."""

    def translated(self, formulas: Sequence[z3.BoolRef]) -> list[z3.BoolRef]:
        """``formulas`` in :attr:`context`."""
        return [f if f.ctx is self.context else f.translate(self.context) for f in formulas]

    def write(self, named: Sequence[tuple[str, z3.BoolRef]], answer: str) -> None:
        """Write the query ``named`` (name, formula pairs), whose Z3 answer was ``answer``."""
        formulas = self.translated([f for _, f in named])
        named = list(zip([n for n, _ in named], formulas, strict=True))
        name, comments, extra = self._name()
        text = script(named, answer, [f"tricklaw query {name}", *comments], self._texts)
        self._file(name, text, answer, [n for n, _ in named], extra)

    def write_tree(
        self, named: Sequence[tuple[str, z3.BoolRef]], commands: Sequence[Command], answer: str
    ) -> None:
        """Write an incremental query (:func:`~tricklaw.proofs.smt2.tree_script`): the
        ``named`` assertions, then ``commands``; Z3 answered ``unsat`` to every
        ``check-sat`` but the last, and ``answer`` to the last. Its index entry has
        ``"kind": "tree"`` and the number of ``checks``."""
        formulas = self.translated([f for _, f in named])
        moved = self.translated([f for _, f in commands if f is not None])
        it = iter(moved)
        steps = [(k, None if f is None else next(it)) for k, f in commands]
        named = list(zip([n for n, _ in named], formulas, strict=True))
        name, comments, extra = self._name()
        text = tree_script(named, steps, answer, [f"tricklaw query {name}", *comments])
        checks = sum(k == "check" for k, _ in commands)
        names = [n for n, _ in named]
        self._file(name, text, answer, names, {**extra, "kind": "tree", "checks": checks})

    def _name(self) -> tuple[str, list[str], dict[str, Any]]:
        """The next file name under the current label, its comment lines, its index keys."""
        label = dict(LABEL.get())
        parts = [label.get(k, "") for k in LABEL_KEYS]
        if parts[1]:
            parts[1] = f"{parts[1]}p"
        stem = _slug("-".join(p for p in parts if p)) or "query"
        index = self._counts.get(stem, 0)
        self._counts[stem] = index + 1
        name = f"{stem}-{index:04d}.smt2"
        comments = [f"{k}: {label[k]}" for k in LABEL_KEYS if label.get(k)]
        return name, comments, {**{k: label.get(k, "") for k in LABEL_KEYS}, "index": index}

    def _file(
        self, name: str, text: str, answer: str, names: list[str], extra: dict[str, Any]
    ) -> None:
        try:
            write_new(self.directory / name, text)
        except OSError as exc:
            raise TricklawError(f"cannot write {self.directory / name}: {exc.strerror}") from None
        self.entries.append({"file": name, "expected": answer, **extra, "names": names})


RECORDER: ContextVar[Recorder | None] = ContextVar("tricklaw_smt2_recorder", default=None)
LABEL: ContextVar[tuple[tuple[str, str], ...]] = ContextVar("tricklaw_smt2_label", default=())


def active() -> bool:
    """Whether queries are being recorded."""
    return RECORDER.get() is not None


@contextmanager
def recording(directory: Path) -> Iterator[Recorder]:
    """Record every query run inside the block into ``directory`` (which must exist)."""
    recorder = Recorder(directory)
    token = RECORDER.set(recorder)
    try:
        yield recorder
    finally:
        RECORDER.reset(token)


@contextmanager
def labelled(**parts: str) -> Iterator[None]:
    """Name the queries run inside the block (keys of :data:`LABEL_KEYS`)."""
    token = LABEL.set((*((k, v) for k, v in LABEL.get() if k not in parts), *parts.items()))
    try:
        yield
    finally:
        LABEL.reset(token)


def answer_name(answer: z3.CheckSatResult) -> str:
    """``sat``, ``unsat`` or ``unknown``."""
    if answer == z3.sat:
        return "sat"
    return "unsat" if answer == z3.unsat else "unknown"


def current() -> Recorder | None:
    """The active recorder, if any."""
    return RECORDER.get()


def record(named: Sequence[tuple[str, z3.BoolRef]], answer: z3.CheckSatResult) -> None:
    """Write the query ``named`` with Z3's ``answer`` when recording; else nothing."""
    recorder = RECORDER.get()
    if recorder is not None:
        recorder.write(named, answer_name(answer))


def prepare(directory: str) -> Path:
    """``directory``, created if missing; a one-line error if it is not a directory or
    not empty (``--smt2`` never mixes its files with, or overwrites, existing ones)."""
    path = Path(directory)
    try:
        path.mkdir(parents=True, exist_ok=True)
        if any(path.iterdir()):
            raise TricklawError(f"--smt2 {directory}: the directory is not empty")
    except FileExistsError:
        raise TricklawError(f"--smt2 {directory}: not a directory") from None
    except OSError as exc:
        raise TricklawError(f"--smt2 {directory}: {exc.strerror}") from None
    return path


def write_index(directory: Path, entries: Sequence[dict[str, Any]]) -> None:
    """``index.json``: every file written, with its expected answer, in verify's order."""
    index = {"format": "tricklaw-smt2", "version": 1, "queries": list(entries)}
    try:
        write_new(directory / "index.json", json.dumps(index, indent=1))
    except OSError as exc:
        raise TricklawError(f"cannot write {directory / 'index.json'}: {exc.strerror}") from None


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.=_+-]+", "_", text).strip("_")
