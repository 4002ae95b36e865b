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
SOURCE_DIRS = ["tricklaw", "model", "spec", "proofs", "tests", "docs/_ext", "setup.py", "devtools"]


@pytest.mark.slow
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
    for target in (["-p", "tricklaw"], [str(ROOT / "setup.py"), str(ROOT / "devtools")]):
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


def test_every_package_folder_is_installed() -> None:
    """``pyproject.toml`` lists the packages to install one by one (its folders map onto
    ``tricklaw``): a new subpackage missing from the list would be left out of a normal
    install while an editable one still found it."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = set()
    for init in (ROOT / "tricklaw").rglob("__init__.py"):
        parts = init.parent.relative_to(ROOT).parts
        found.add(".".join(parts))
    for name in ("model", "spec", "proofs"):
        for init in (ROOT / name).rglob("__init__.py"):
            found.add(".".join(("tricklaw", *init.parent.relative_to(ROOT).parts)))
    assert found == listed, f"missing: {sorted(found - listed)}; extra: {sorted(listed - found)}"
