"""A baseline commit checked out for a benchmark: the shared step of the bench scripts.

``with baseline_tree("aa525a9") as tree:`` gives a temporary git worktree of that commit
(removed afterwards, also on an error), inside a temporary folder of its own that the
caller may use for its outputs (``tree.parent``). ``beside=True`` puts that folder next
to this checkout, so that ``../shared`` (the seed texts) is found from the baseline too.

A developer's tool: it is not part of the package.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def baseline_tree(revision: str, *, beside: bool = False) -> Iterator[Path]:
    """A worktree of ``revision`` in a fresh temporary folder, removed on exit."""
    parent = ROOT.parent if beside else None
    with tempfile.TemporaryDirectory(dir=parent, prefix="tricklaw-bench-") as folder:
        tree = Path(folder) / "baseline"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(tree), revision],
            check=True,
            capture_output=True,
        )
        try:
            yield tree
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                check=False,
                capture_output=True,
            )
