"""A mutation run's journal: each mutant's result kept as it is decided, so that a run of
hours can stop (a session ends, the machine restarts) and go on later where it stopped.

The journal is a JSON Lines file. Its first line says what the results hold for: the
digest of the source tree the mutants are planted in (:func:`source_digest`) and the
settings that change a verdict (:data:`BINDING`); the unmutated verify's times
(``{"baseline": RULESET, "seconds": S}``), the unmutated model's fingerprint of each
ruleset (``{"fingerprint": RULESET, "keys": {...}}``: minutes to compute, the same for the
same tree) and the mutants' results (``{"result": ...,
"patch": DIGEST}``) follow, one per line, each written whole and flushed to disk before
the next mutant starts.

Opening a journal for a run (:meth:`Journal.open`):

* no file yet: a new journal is started with that first line;
* a file for the same source and settings: its results are taken as they are (a mutant
  is not run again when its id and patch are both in the journal) and new ones are
  appended; a last line cut short by a stop mid-write is dropped (the mutant is run
  again), never read as a result;
* a file for another source or other settings, or one that is no journal: refused in one
  line (:class:`JournalError`), the file left untouched; a journal's results say nothing
  of a different source.

A run too long for one sitting is checked in as a *record* (``python -m
tricklaw.mutation.journal JOURNAL RECORD``, :func:`write_record`): the journal without the
unmutated fingerprints, which a run on the same source and settings goes on from like the
journal itself (it computes the fingerprints again, a minute). The docs' mutation page
reads the records in ``docs/mutation/``, each named for the commit it was run at.

Hand-written: the standard library's ``json`` and ``os.fsync`` do the work; no library
keeps an append-only result log keyed by a source digest.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TextIO

from tricklaw.mutation.verdicts import Settings
from tricklaw.spec.errors import TricklawError
from tricklaw.spec.outputs import atomic_file

VERSION = 1
"""The journal format's version (the first line's ``journal``)."""
BINDING = (
    "timeout_ms",
    "verify_limit",
    "behaviour_limit",
    "extra_path",
    "verify_equivalent",
    "fail_fast",
)
"""The settings a result depends on: a journal is resumed only with the same ones
(verify's number of workers is not among them: its results do not depend on it)."""


class JournalError(TricklawError):
    """A journal that cannot be resumed by this run (another source, other settings, not
    a journal)."""


def source_digest(root: Path, ignore: Any) -> str:
    """SHA-256 of the tree at ``root`` as the mutants' copies hold it: every file's path
    and bytes, in path order, leaving out what ``ignore`` (a ``shutil.copytree``
    ignore function) leaves out; a symbolic link counts by its target's name."""
    digest = hashlib.sha256()
    todo = [root]
    found: list[Path] = []
    while todo:
        folder = todo.pop()
        names = sorted(os.listdir(folder))
        skipped = ignore(str(folder), names) if ignore else set()
        for name in names:
            if name in skipped:
                continue
            path = folder / name
            if path.is_dir() and not path.is_symlink():
                todo.append(path)
            else:
                found.append(path)
    for path in sorted(found, key=lambda p: p.relative_to(root).as_posix()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        data = os.readlink(path).encode() if path.is_symlink() else path.read_bytes()
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()


def patch_digest(patch: str) -> str:
    """SHA-256 of a mutant's patch: the same id with another patch is another mutant."""
    return hashlib.sha256(patch.encode()).hexdigest()


@dataclass(frozen=True)
class Contents:
    """What a journal file holds (:func:`read`)."""

    head: dict[str, Any]
    """The first line: the format's version, the source's digest, the settings."""
    results: dict[tuple[str, str], dict[str, Any]]
    """Each recorded result (as :func:`dataclasses.asdict` gave it), by (id, patch digest)."""
    baseline: dict[str, float]
    """The unmutated verify's seconds, by ruleset."""
    fingerprint: dict[str, dict[str, str]]
    """The unmutated model's fingerprint, by ruleset."""
    whole: int
    """The bytes of its whole lines (a last line cut short by a stop follows them)."""


def read(path: Path) -> Contents:
    """The journal at ``path``; raises :class:`JournalError` for a file that is no
    journal or holds a line that is no entry (a last line cut short is left out), and
    ``OSError`` or ``UnicodeDecodeError`` for one that cannot be read."""
    text = path.read_text(encoding="utf-8")
    whole = text[: text.rfind("\n") + 1]
    lines = whole.splitlines()
    try:
        first = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        first = None
    if not isinstance(first, dict) or first.get("journal") != VERSION:
        raise JournalError(f"--journal {path}: not a mutation journal (version {VERSION})")
    results: dict[tuple[str, str], dict[str, Any]] = {}
    baseline: dict[str, float] = {}
    fingerprint: dict[str, dict[str, str]] = {}
    for number, line in enumerate(lines[1:], start=2):
        try:
            entry = json.loads(line)
            if "baseline" in entry:
                baseline[str(entry["baseline"])] = float(entry["seconds"])
            elif "fingerprint" in entry:
                fingerprint[str(entry["fingerprint"])] = dict(entry["keys"])
            else:
                results[(str(entry["result"]["id"]), str(entry["patch"]))] = entry["result"]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            raise JournalError(f"--journal {path}: line {number} is no journal entry") from None
    return Contents(first, results, baseline, fingerprint, len(whole.encode()))


@dataclass
class Journal:
    """An open journal: the results and baseline times read back, and the file that new
    ones are appended to."""

    path: Path
    results: dict[tuple[str, str], dict[str, Any]]
    """Each recorded result (as :func:`dataclasses.asdict` gave it), by (id, patch digest)."""
    baseline: dict[str, float]
    """The unmutated verify's seconds, by ruleset."""
    fingerprint: dict[str, dict[str, str]]
    """The unmutated model's fingerprint, by ruleset."""
    handle: TextIO

    @classmethod
    def open(cls, path: Path, source: str, settings: Settings) -> Journal:
        """The journal at ``path`` for the tree with digest ``source`` run with
        ``settings`` (see the module docstring); raises :class:`JournalError`, also when
        the file cannot be read or written."""
        try:
            return cls._open(path, source, settings)
        except OSError as exc:
            raise JournalError(f"--journal {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise JournalError(f"--journal {path}: not a mutation journal (not UTF-8)") from None

    @classmethod
    def _open(cls, path: Path, source: str, settings: Settings) -> Journal:
        head = {"journal": VERSION, "source": source} | _binding(settings)
        if not path.exists() or path.stat().st_size == 0:
            handle = path.open("a", encoding="utf-8")
            _write(handle, head)
            return cls(path, {}, {}, {}, handle)
        got = read(path)
        if got.head.get("source") != source:
            raise JournalError(
                f"--journal {path}: written for another source tree (digest "
                f"{str(got.head.get('source'))[:12]}, this one {source[:12]}); start a new "
                "journal"
            )
        for name, value in _binding(settings).items():
            if got.head.get(name) != value:
                raise JournalError(
                    f"--journal {path}: written with {name} = {got.head.get(name)!r}, this "
                    f"run has {value!r}; start a new journal"
                )
        if got.whole != path.stat().st_size:  # a line cut short by a stop is not kept
            with path.open("r+", encoding="utf-8") as cut:
                cut.truncate(got.whole)
        handle = path.open("a", encoding="utf-8")
        return cls(path, got.results, got.baseline, got.fingerprint, handle)

    def result(self, mutant_id: str, patch: str) -> dict[str, Any] | None:
        """The recorded result of the mutant ``mutant_id`` with ``patch``, if any."""
        return self.results.get((mutant_id, patch_digest(patch)))

    def add_result(self, entry: dict[str, Any], patch: str) -> None:
        """Record a mutant's result (its fields, as :func:`dataclasses.asdict` gives them)
        on disk before going on."""
        self.results[(entry["id"], patch_digest(patch))] = entry
        _write(self.handle, {"result": entry, "patch": patch_digest(patch)})

    def add_baseline(self, ruleset: str, seconds: float) -> None:
        """Record the unmutated verify's time on ``ruleset``."""
        self.baseline[ruleset] = seconds
        _write(self.handle, {"baseline": ruleset, "seconds": seconds})

    def add_fingerprint(self, fingerprint: Mapping[str, Mapping[str, str]]) -> None:
        """Record the unmutated model's fingerprint of each ruleset not yet recorded."""
        for ruleset, keys in fingerprint.items():
            if ruleset not in self.fingerprint:
                self.fingerprint[ruleset] = dict(keys)
                _write(self.handle, {"fingerprint": ruleset, "keys": keys})

    def close(self) -> None:
        """Close the file."""
        self.handle.close()


RECORD_FAILURES = 5
"""A record keeps a kill's first this many failures (a whole run can list a hundred)."""
RECORD_TRACE = 600
"""A record keeps the last this many characters of a failure's traceback or stderr."""


def write_record(journal: Path, out: Path) -> Contents:
    """Write ``journal`` to ``out`` without the unmutated fingerprints (megabytes, and a
    minute to compute again), each kill's failures cut to the first
    :data:`RECORD_FAILURES` and their tracebacks to the last :data:`RECORD_TRACE`
    characters (where they were raised): the record of a run to check in, which a run on
    the same source and settings goes on from like the journal itself. Returns what was
    written (its ``fingerprint`` empty)."""
    got = read(journal)
    results = {key: _trimmed(entry) for key, entry in got.results.items()}
    with atomic_file(out) as handle:
        _write(handle, got.head)
        for ruleset, seconds in got.baseline.items():
            _write(handle, {"baseline": ruleset, "seconds": seconds})
        for (_, patch), entry in results.items():
            _write(handle, {"result": entry, "patch": patch})
    return Contents(got.head, results, got.baseline, {}, out.stat().st_size)


def _trimmed(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A result as a record keeps it (:func:`write_record`)."""
    failures = [
        {k: v[-RECORD_TRACE:] if k in {"traceback", "stderr"} else v for k, v in f.items()}
        for f in entry.get("killed_by", [])[:RECORD_FAILURES]
    ]
    return {**entry, "killed_by": failures}


def main(argv: list[str] | None = None) -> int:
    """``python -m tricklaw.mutation.journal JOURNAL RECORD``: :func:`write_record`."""
    import argparse

    from tricklaw.spec.outputs import check_output_file

    p = argparse.ArgumentParser(
        prog="python -m tricklaw.mutation.journal",
        description="Write a mutation run's journal without its fingerprints (a record to "
        "check in, that a run on the same source goes on from).",
    )
    p.add_argument("journal", type=Path, help="the journal (--journal of the run)")
    p.add_argument("record", type=Path, help="the record to write")
    args = p.parse_args(argv)
    try:
        check_output_file(str(args.record), "RECORD", "the record", [str(args.journal)])
        got = write_record(args.journal, args.record)
    except OSError as exc:  # the file it names: the journal read, or the record written
        p.error(f"{exc.filename or args.journal}: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        p.error(f"{args.journal}: not text ({exc.reason})")
    except TricklawError as exc:
        p.error(str(exc))
    print(f"{args.record}: {len(got.results)} results, {len(got.baseline)} baseline times")
    return 0


def _binding(settings: Settings) -> dict[str, Any]:
    values = asdict(settings)
    return {name: _plain(values[name]) for name in BINDING}


def _plain(value: Any) -> Any:
    """A setting as JSON reads it back (a tuple as a list)."""
    return list(value) if isinstance(value, tuple) else value


def _write(handle: TextIO, entry: Mapping[str, Any]) -> None:
    handle.write(json.dumps(entry, sort_keys=True) + "\n")
    handle.flush()
    os.fsync(handle.fileno())


if __name__ == "__main__":
    raise SystemExit(main())
