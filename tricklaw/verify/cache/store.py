"""The cache's folder: one file per step's rows, named by its key, written atomically and
read back only when whole and untouched.

An entry is a JSON object: the key, the run that computed the rows, the rows, and a
SHA-256 over the three. :meth:`Store.get` returns rows only when the file parses, names
the key it is filed under, and its digest matches: a damaged, truncated or edited entry
is taken for a miss (and overwritten by the rows computed again). The digest guards
against damage and careless edits, not against someone who can write the folder and
recompute it (they could as well edit tricklaw's own code).

Entries are written to a temporary file in the same folder, flushed to disk and renamed
into place (:func:`tricklaw.spec.outputs.write_atomically`, which every file tricklaw
writes goes through), so a reader sees the old entry or the new one, never half of one,
and two runs at once can share the folder: both compute the same rows for the same key.
The scans of module sources (:mod:`.graph`) are kept beside the entries the same way.
Only the :data:`KEEP` entries used last are kept (:meth:`Store.prune`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from tricklaw.proofs.results import Result
from tricklaw.spec.outputs import write_atomically
from tricklaw.verify.cache.graph import Scan
from tricklaw.verify.cache.keys import FORMAT

KEEP = 20_000
"""The entries kept at most, those used last (a whole run makes about 300, some 3 MB)."""

SCANS = "scans.json"
"""The file of module scans, by the SHA-256 of each module's source."""


def _digest(key: str, run: str, rows: list[dict[str, Any]]) -> str:
    text = json.dumps([key, run, rows], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def row_from(data: Mapping[str, Any]) -> Result:
    """A :class:`Result` from its JSON form (``asdict``), exactly its fields; raises
    ``TypeError`` or ``ValueError`` on anything else."""
    names = {f.name for f in fields(Result)}
    if set(data) != names:
        raise ValueError("the row's fields are not a result's")
    row = dict(data)
    if not isinstance(row["clauses"], list) or not isinstance(row["witness"], dict):
        raise ValueError("the row's clauses or witness have the wrong type")
    row["clauses"] = tuple(row["clauses"])
    return Result(**row)


def json_rows(rows: Iterable[Result]) -> list[dict[str, Any]]:
    """``rows`` as the cache and the JSON report hold them (a round trip through JSON:
    tuples become lists)."""
    loaded: list[dict[str, Any]] = json.loads(json.dumps([asdict(r) for r in rows]))
    return loaded


class Store:
    """The entries under ``folder`` (format :data:`~tricklaw.verify.cache.keys.FORMAT`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder / f"v{FORMAT}"

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> tuple[str, list[Result]] | None:
        """The run and the rows filed under ``key``, or None: no entry, or one that is not
        whole and untouched."""
        try:
            entry = json.loads(self._path(key).read_text(encoding="utf-8"))
            if not isinstance(entry, dict) or entry.get("key") != key:
                return None
            run, rows = entry["run"], entry["rows"]
            if not isinstance(run, str) or not isinstance(rows, list):
                return None
            if entry.get("digest") != _digest(key, run, rows):
                return None
            found = run, [row_from(r) for r in rows]
            os.utime(self._path(key))  # used now: the last to be pruned
            return found
        except (OSError, ValueError, TypeError, KeyError, UnicodeDecodeError):
            return None

    def put(self, key: str, run: str, rows: Iterable[Result]) -> None:
        """File ``rows`` under ``key``, as computed by ``run``."""
        data = json_rows(rows)
        entry = {"key": key, "run": run, "rows": data, "digest": _digest(key, run, data)}
        write_atomically(self._path(key), json.dumps(entry, separators=(",", ":")))

    def prune(self, keep: int = KEEP) -> int:
        """Remove all but the ``keep`` entries used last (a hit marks an entry used);
        how many were removed. Another run may remove the same file: that is no error."""
        entries = []
        for path in self.folder.glob("??/*.json"):
            with contextlib.suppress(OSError):
                entries.append((path.stat().st_mtime, path))
        entries.sort(reverse=True)
        removed = 0
        for _, path in entries[keep:]:
            with contextlib.suppress(OSError):
                path.unlink()
                removed += 1
        return removed

    def scans(self) -> dict[str, Scan]:
        """The module scans kept from earlier runs (none if the file is not whole)."""
        try:
            data = json.loads((self.folder / SCANS).read_text(encoding="utf-8"))
            return {
                digest: Scan(tuple(str(m) for m in value["imports"]), bool(value["registry"]))
                for digest, value in data.items()
            }
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return {}

    def keep_scans(self, scans: Mapping[str, Scan]) -> None:
        """Keep ``scans`` for the next run."""
        data = {
            d: {"imports": list(s.imports), "registry": s.makes_registry} for d, s in scans.items()
        }
        write_atomically(self.folder / SCANS, json.dumps(data, sort_keys=True))
