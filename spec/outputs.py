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
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path

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


def fresh_file(folder: Path, stem: str, suffix: str) -> Path:
    """A new, empty file ``folder/STEM-N.SUFFIX`` with the smallest ``N`` (from 1) above
    every number already used there; created with ``O_EXCL``, so no file is overwritten."""
    numbers = [p.name[len(stem) + 1 : -len(suffix)] for p in folder.glob(f"{stem}-*{suffix}")]
    used = [int(n) for n in numbers if n.isascii() and n.isdigit() and len(n) < 10]
    number = max(used, default=0) + 1
    while True:
        candidate = folder / f"{stem}-{number}{suffix}"
        try:
            os.close(os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        except FileExistsError:
            number += 1
            continue
        return candidate
