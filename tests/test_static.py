"""Static checks over the package: ruff, and mypy --strict.

mypy cannot follow the folder mapping of ``pyproject.toml`` (``model/`` is
``tricklaw.model`` ...), so the test copies the mapped folders into a
``tricklaw`` tree laid out as installed (as ``setup.py`` does for mypyc), checks
that and ``setup.py``, and reports errors with the repository paths.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE_DIRS = ["tricklaw", "model", "spec", "proofs", "tests", "docs/_ext", "setup.py"]


def stage_package(tree: Path) -> dict[str, str]:
    """The package staged in ``tree`` as installed, by ``setup.py``'s own function."""
    spec = importlib.util.spec_from_file_location("tricklaw_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    staged: dict[str, str] = build.stage_package(ROOT, tree)
    return staged


def test_ruff_is_clean() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", *SOURCE_DIRS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_strict_is_clean(tmp_path: Path) -> None:
    tree = tmp_path / "typecheck"
    back = stage_package(tree)
    for target in (["-p", "tricklaw"], [str(ROOT / "setup.py")]):
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "mypy",
                "--strict",
                "--no-incremental",
                "--config-file",
                str(ROOT / "pyproject.toml"),
                *target,
            ],
            cwd=tree,
            capture_output=True,
            text=True,
            check=False,
        )
        report = run.stdout + run.stderr
        for copied, original in back.items():
            report = report.replace(copied.removeprefix(str(tree) + "/"), original)
        assert run.returncode == 0, report
