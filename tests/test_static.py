"""Static checks over the package: ruff, and mypy --strict.

mypy cannot follow the folder mapping of ``pyproject.toml`` (``model/`` is
``tricklaw.model`` ...), so the test copies the mapped folders into a
``tricklaw`` tree laid out as installed, checks that, and reports errors
with the repository paths.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE_DIRS = ["tricklaw", "model", "spec", "proofs", "tests", "docs/_ext"]


def package_dirs() -> dict[str, str]:
    """The package -> folder mapping declared in pyproject.toml."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mapping: dict[str, str] = data["tool"]["setuptools"]["package-dir"]
    return mapping


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
    back: dict[str, str] = {}
    for package, folder in sorted(package_dirs().items(), key=lambda kv: kv[0].count(".")):
        target = tree / package.replace(".", "/")
        target.mkdir(parents=True, exist_ok=True)
        for item in (ROOT / folder).iterdir():
            if item.suffix in {".py", ".typed"}:
                shutil.copy2(item, target / item.name)
                back[str(target / item.name)] = f"{folder}/{item.name}"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "-p",
            "tricklaw",
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
