"""Static checks over the package: ruff, and mypy --strict.

The repository's ``tricklaw/`` folder is the whole package as installed: its
``model``, ``spec`` and ``proofs`` are links to the top-level folders. So mypy
checks ``-p tricklaw`` from the repository root, as an editor resolves it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE_DIRS = ["tricklaw", "model", "spec", "proofs", "tests", "docs/_ext", "setup.py"]


def test_ruff_is_clean() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", *SOURCE_DIRS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.slow
def test_mypy_strict_is_clean() -> None:
    for target in (["-p", "tricklaw"], [str(ROOT / "setup.py")]):
        run = subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *target],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert run.returncode == 0, run.stdout + run.stderr


def test_the_package_folder_links_the_layers() -> None:
    """``tricklaw/model``, ``tricklaw/spec`` and ``tricklaw/proofs`` are links to the
    top-level folders, so imports resolve from the file tree (editors, ``python -m``)."""
    for name in ("model", "spec", "proofs"):
        link = ROOT / "tricklaw" / name
        assert link.is_symlink(), f"tricklaw/{name} is not a link"
        assert link.resolve() == (ROOT / name).resolve()
