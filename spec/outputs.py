"""Output paths, checked before the work starts: nothing an output writes is lost work or a
lost input.

Every command that writes a file (``play --record``, ``verify --json``/``--smt2``, ``check
--convert``, ``vectors --out``, ``bounds --out``, ``fuzz --out``) calls
:func:`check_output_file` or :func:`check_output_folder` on its path *before* it does its
work, so that an unwritable path is one line and exit 2 at once, not after minutes of
proofs. :func:`check_output_file` also refuses a path that is one of the command's inputs,
compared by device and inode (so a symbolic or hard link, and standard input redirected
from the file, ``tricklaw check - --convert g.json < g.json``, are caught too): opening the
output for writing would empty the input before it is read. :func:`fresh_file` creates a
new file under a name no earlier run used (``fuzz-3.json`` after ``fuzz-1``, ``fuzz-2``),
atomically (``O_EXCL``), so a second run never overwrites the first one's cases.

**Every file is written atomically** (:func:`write_atomically`, :func:`atomic_file` for a
file written as the work goes, such as a JSON Lines log): into a temporary file in the
same folder (``.NAME.XXXXXXXX.tmp``), flushed to disk (``fsync``), then renamed into
place, and the folder flushed too. Interrupted at any point, a run leaves the old file or
the new one, never half of either (a run killed outright may leave its hidden temporary
file behind; the target is untouched). Two runs writing one file leave one run's whole
file. A symbolic link is written through: the file it points to is replaced.
:func:`write_new` does the same for a name that must not exist yet (``O_EXCL``'s promise:
the temporary file is linked in under the name, which fails if it was taken).

**Folders of outputs** (``vectors --out``, ``page build``) hold a marker,
:data:`MARKER` (``.tricklaw-output``): what tricklaw wrote there and the SHA-256 of each
file (:class:`OwnFolder`). A command writes into a folder only when it is new, empty, or
tricklaw's own output, and overwrites only the files tricklaw wrote and nobody changed
since; anything else is refused in one line unless the command is given ``--force``.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TextIO

from tricklaw.spec.errors import TricklawError

STDIN = "-"
"""The input name that stands for standard input."""


def _identity(path: str) -> tuple[int, int] | None:
    """``(device, inode)`` of the file ``path`` (``-``: standard input), None if none."""
    try:
        info = os.fstat(sys.stdin.fileno()) if path == STDIN else os.stat(path)
    except (OSError, ValueError, AttributeError):  # no such file; stdin closed or replaced
        return None
    if path == STDIN and not stat.S_ISREG(info.st_mode):
        return None  # a pipe or a terminal is no file an output could overwrite
    return info.st_dev, info.st_ino


def check_output_file(path: str, flag: str, what: str, inputs: Sequence[str] = ()) -> None:
    """Raise :class:`TricklawError` (naming ``flag`` and ``what`` is written, e.g. ``the
    record``) unless ``path`` can be written and is none of ``inputs`` (file names, ``-``
    for standard input). The check opens ``path`` for appending, without emptying it, and
    removes it again if it created it."""
    if path == STDIN:
        return
    target = _identity(path)
    for name in inputs:
        if target is not None and _identity(name) == target:
            shown = "standard input" if name == STDIN else name
            raise TricklawError(
                f"{flag} {path} would overwrite the input ({shown}) before it is read"
            )
    if os.path.isdir(path):
        raise TricklawError(f"cannot write {what} to {path} ({flag}): it is a folder")
    existed = os.path.lexists(path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError as exc:
        raise TricklawError(f"cannot write {what} to {path} ({flag}): {exc.strerror}") from None
    os.close(fd)
    if not existed:
        os.unlink(path)


def check_output_folder(folder: str | Path, flag: str) -> None:
    """Raise :class:`TricklawError` (naming ``flag``) unless files can be created in
    ``folder``, or, when it does not exist yet, in the nearest folder above it that does
    (where it would be made). Nothing is left behind: a probe file is removed at once."""
    path = Path(folder)
    existing = path
    while not os.path.lexists(existing) and existing.parent != existing:
        existing = existing.parent
    if not existing.is_dir():
        raise TricklawError(f"cannot write to {folder} ({flag}): {existing} is not a folder")
    try:
        fresh_file(existing, ".tricklaw-probe", ".tmp").unlink()
    except OSError as exc:
        raise TricklawError(f"cannot write to {folder} ({flag}): {exc.strerror}") from None


def _first_free(folder: Path, stem: str, suffix: str) -> int:
    numbers = [p.name[len(stem) + 1 : -len(suffix)] for p in folder.glob(f"{stem}-*{suffix}")]
    used = [int(n) for n in numbers if n.isascii() and n.isdigit() and len(n) < 10]
    return max(used, default=0) + 1


def write_fresh(folder: Path, stem: str, suffix: str, text: str) -> Path:
    """Write ``text`` to a new file ``folder/STEM-N.SUFFIX`` (``N`` as in
    :func:`fresh_file`), atomically and never over an existing file; returns its path."""
    number = _first_free(folder, stem, suffix)
    while True:
        candidate = folder / f"{stem}-{number}{suffix}"
        try:
            write_new(candidate, text)
        except FileExistsError:
            number += 1
            continue
        return candidate


def fresh_file(folder: Path, stem: str, suffix: str) -> Path:
    """A new, empty file ``folder/STEM-N.SUFFIX`` with the smallest ``N`` (from 1) above
    every number already used there; created with ``O_EXCL``, so no file is overwritten."""
    number = _first_free(folder, stem, suffix)
    while True:
        candidate = folder / f"{stem}-{number}{suffix}"
        try:
            os.close(os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        except FileExistsError:
            number += 1
            continue
        return candidate


def _fsync_folder(folder: str) -> None:
    """Flush ``folder``'s entries to disk (a rename is durable once its folder is); where
    a folder cannot be opened (some systems), nothing."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def _mode_for(path: str) -> int:
    """The permissions a new file at ``path`` gets: the old file's if there is one, else
    what ``open`` would give (0o666 less the umask); ``mkstemp`` makes 0o600."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def _special(path: str | Path) -> bool:
    """Whether ``path`` is there and not a regular file: a device, a pipe, a socket."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


@contextlib.contextmanager
def _temporary(path: str | Path, exclusive: bool) -> Iterator[int]:
    """The descriptor of a temporary file in ``path``'s folder, which becomes ``path``
    (flushed, renamed or, if ``exclusive``, linked into place) when the block ends
    normally, and is removed when it raises. A ``path`` that is not a regular file (a
    device such as ``/dev/stdout``, a named pipe) is opened and written instead: a rename
    would put a file in its place."""
    target = os.path.realpath(path)  # a symbolic link is written through
    folder, name = os.path.split(target)
    if exclusive and os.path.lexists(path):
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path))
    if _special(path):  # /dev/stdout, a pipe: written to, never replaced by a file
        fd = os.open(path, os.O_WRONLY)  # (/dev/stdout's real path may be no path)
        try:
            yield fd
        finally:
            os.close(fd)
        return
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    try:
        try:
            os.fchmod(fd, _mode_for(target))
            yield fd
            os.fsync(fd)
        finally:
            os.close(fd)
        if exclusive:
            os.link(temporary, target)  # fails if the name was taken meanwhile
            os.unlink(temporary)
        else:
            os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_folder(folder)


@contextlib.contextmanager
def atomic_file(path: str | Path, *, exclusive: bool = False) -> Iterator[TextIO]:
    """A text file (UTF-8) to write ``path`` through: the handle is a temporary file in
    ``path``'s folder, which becomes ``path`` when the ``with`` block ends normally
    (flushed and renamed into place) and is removed when it raises; ``path`` is untouched
    until then. ``exclusive``: ``path`` must not exist (:class:`FileExistsError`, as
    ``open(path, "x")``). Raises ``OSError``."""
    with (
        _temporary(path, exclusive) as fd,
        os.fdopen(fd, "w", encoding="utf-8", closefd=False) as fh,
    ):
        yield fh


def write_atomically(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8, or bytes) to ``path`` atomically (see
    :func:`atomic_file`), creating its folder if need be. Raises ``OSError``."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with _temporary(path, False) as fd, os.fdopen(fd, "wb", closefd=False) as fh:
        fh.write(raw)


def write_output(path: str | Path, data: str | bytes, what: str) -> None:
    """:func:`write_atomically`, an ``OSError`` raised as :class:`TricklawError` in one
    line (``cannot write WHAT to PATH: ...``, ``what`` such as ``the record (--record)``)."""
    try:
        write_atomically(path, data)
    except OSError as exc:
        raise TricklawError(f"cannot write {what} to {path}: {exc.strerror}") from None


def write_new(path: str | Path, text: str) -> None:
    """Write ``text`` atomically to ``path``, which must not exist
    (:class:`FileExistsError`: an earlier file is never overwritten). Raises ``OSError``."""
    with atomic_file(path, exclusive=True) as handle:
        handle.write(text)


MARKER = ".tricklaw-output"
"""The marker file of a folder of tricklaw's output: JSON, ``{"format":
"tricklaw-output", "version": 1, "command": ..., "files": {NAME: SHA-256}}`` (while a run
writes, a file's value is the list of its old and new SHA-256: either is tricklaw's)."""
MARKER_FORMAT = "tricklaw-output"


def _digest_of(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _sha256(data: str | bytes) -> str:
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


class OwnFolder:
    """A folder tricklaw writes a set of files into, knowing its own from a user's.

    A file is tricklaw's when the marker (:data:`MARKER`) lists it with its present
    SHA-256, or when ``recognise`` (optional: the command's own test of a file's content,
    such as a ``format`` field) says so. :meth:`claim` (before any work) refuses, unless
    ``force``, a folder that is not new, empty or marked, and any file tricklaw would
    overwrite that is not its own. :meth:`write` writes the files, each atomically, and
    the marker; :meth:`stale` and :meth:`remove` remove only files the marker lists,
    unchanged, that a run no longer writes: a user's file is never removed."""

    def __init__(
        self,
        folder: Path,
        command: str,
        flag: str,
        *,
        force: bool = False,
        recognise: Callable[[Path], bool] | None = None,
    ) -> None:
        self.folder = folder
        self.command = command
        self.flag = flag
        self.force = force
        self.recognise = recognise
        self.marked: dict[str, frozenset[str]] = {}
        """The files the marker lists, and the SHA-256 sums each may have."""

    def _read_marker(self) -> dict[str, frozenset[str]] | None:
        """The files the marker lists (name -> SHA-256 sums); None without a valid one."""
        try:
            data = json.loads((self.folder / MARKER).read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            return None
        files = data.get("files") if isinstance(data, dict) else None
        if data.get("format") != MARKER_FORMAT or not isinstance(files, dict):
            return None
        listed: dict[str, frozenset[str]] = {}
        for name, value in files.items():
            sums = [value] if isinstance(value, str) else value
            if isinstance(sums, list):
                listed[str(name)] = frozenset(str(v) for v in sums)
        return listed

    def _is_own(self, name: str) -> bool:
        path = self.folder / name
        if name in self.marked and _digest_of(path) in self.marked[name]:
            return True
        return self.recognise is not None and path.is_file() and self.recognise(path)

    def _present(self) -> list[str]:
        """Every file (or link, or empty folder) under the folder, as a path under it."""
        found: list[str] = []
        for folder, dirs, files in os.walk(self.folder):
            here = Path(folder).relative_to(self.folder)
            found += [(here / name).as_posix() for name in files]
            found += [(here / d).as_posix() for d in dirs if os.path.islink(Path(folder, d))]
            if not dirs and not files and here != Path("."):
                found.append(here.as_posix())
        return sorted(found)

    def claim(self, names: Sequence[str] = ()) -> None:
        """Check, before the work, that the files ``names`` (paths under the folder) may
        be written. Raises :class:`TricklawError` in one line, naming the flag."""
        where = f"{self.command}: {self.flag} {self.folder}"
        if self.folder.exists() and not self.folder.is_dir():
            raise TricklawError(f"{where} is a file, not a folder")
        check_output_folder(self.folder, self.flag)
        if not self.folder.is_dir():
            return
        marker = self._read_marker()
        self.marked = marker or {}
        if self.force:
            return
        present = [name for name in self._present() if name != MARKER]
        if marker is None and present and not all(self._is_own(n) for n in present):
            raise TricklawError(
                f"{where} holds files that tricklaw did not write (it has no {MARKER}): "
                "give a new or empty folder, or --force to write into it anyway"
            )
        for name in names:
            if os.path.lexists(self.folder / name) and not self._is_own(name):
                how = "was not written by tricklaw"
                if name in self.marked:
                    how = "was changed since tricklaw wrote it"
                raise TricklawError(
                    f"{where}: {name} {how}; it is kept (move it, or give --force to overwrite it)"
                )

    def write(self, files: Mapping[str, str | bytes]) -> None:
        """Write ``files`` (name -> content) into the folder, each atomically, and the
        marker listing them (and what it listed before that is still there). Before the
        first file is written the marker lists each file's old and new SHA-256, so that a
        run cut short leaves files that are all tricklaw's. Raises ``OSError``."""
        self.folder.mkdir(parents=True, exist_ok=True)
        new = {name: _sha256(data) for name, data in files.items()}
        kept = {
            name: sums
            for name, sums in self.marked.items()
            if name not in new and (self.folder / name).is_file()
        }
        old = {name: _digest_of(self.folder / name) for name in new}
        writing = {
            name: frozenset(d for d in (digest, old[name]) if d is not None)
            for name, digest in new.items()
        }
        self._write_marker({**kept, **writing})
        for name, data in files.items():
            write_atomically(self.folder / name, data)
        self._write_marker({**kept, **{n: frozenset({d}) for n, d in new.items()}})

    def _write_marker(self, listed: Mapping[str, frozenset[str]]) -> None:
        self.marked = dict(listed)
        files = {
            name: next(iter(sums)) if len(sums) == 1 else sorted(sums)
            for name, sums in sorted(listed.items())
        }
        marker = {"format": MARKER_FORMAT, "version": 1, "command": self.command, "files": files}
        write_atomically(self.folder / MARKER, json.dumps(marker, indent=1) + "\n")

    def stale(self, keep: Sequence[str]) -> list[str]:
        """The files the marker lists, unchanged since tricklaw wrote them, that are not
        in ``keep``: an earlier run's output that this run no longer writes."""
        return sorted(
            name
            for name, sums in self.marked.items()
            if name not in keep and _digest_of(self.folder / name) in sums
        )

    def remove(self, names: Sequence[str]) -> None:
        """Remove the files ``names`` (from :meth:`stale`) and drop them from the marker."""
        if not names:
            return
        for name in names:
            with contextlib.suppress(FileNotFoundError):
                (self.folder / name).unlink()
        self._write_marker({n: s for n, s in self.marked.items() if n not in names})
