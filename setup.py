"""Build hook: the model's hot path and the log checker, compiled with mypyc.

``pyproject.toml`` holds the project's metadata and its folder -> package mapping; this
file only adds the compiled modules. They are the same Python sources, type-checked by
mypy --strict and compiled to C extensions, which import in place of the ``.py`` files
(installed beside them). The results are the same; the speed is about twice (the
README gives the figures).

``TRICKLAW_PURE=1 pip install .`` builds without compiling: every module stays plain
Python (for a machine without a C compiler, or to step through the code). An editable
install (``pip install -e .``) is always plain Python: compiled extensions beside the
sources would shadow them, so that an edit to a ``.py`` file had no effect.

Which modules: those on the path of every action (cards, actions, the trick and the
state, the shared flow, the rulesets that run automatic seats) and the log checker.
Sticheln stays interpreted: its editions are plain subclasses of its ruleset class, and
the fuzzer's tests patch its rules to make wrong engines. The shuffle (``model/rng.py``)
stays interpreted too: its 64-bit arithmetic runs on Python's big integers, which the
interpreter does faster (a 30-card shuffle: 13 microseconds, compiled 18).
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from setuptools import setup  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent

COMPILED = (
    "tricklaw/check/lines.py",
    "tricklaw/check/log_format.py",
    "tricklaw/check/validation.py",
    "tricklaw/model/actions.py",
    "tricklaw/model/cards.py",
    "tricklaw/model/flow.py",
    "tricklaw/model/options.py",
    "tricklaw/model/record.py",
    "tricklaw/model/replay/checker.py",
    "tricklaw/model/replay/deals.py",
    "tricklaw/model/replay/ends.py",
    "tricklaw/model/replay/records.py",
    "tricklaw/model/replay/tricks.py",
    "tricklaw/model/replay/verdict.py",
    "tricklaw/model/ruleset.py",
    "tricklaw/model/state.py",
    "tricklaw/model/trick.py",
    "tricklaw/model/rulesets/hund/__init__.py",
    "tricklaw/model/rulesets/hund/options.py",
    "tricklaw/model/rulesets/hund/rules.py",
    "tricklaw/model/rulesets/hund/ruleset.py",
    "tricklaw/model/rulesets/lowhigh.py",
    "tricklaw/model/rulesets/the_last/__init__.py",
    "tricklaw/model/rulesets/the_last/rules.py",
    "tricklaw/model/rulesets/the_last/ruleset.py",
)
"""The compiled modules, as paths in the installed layout."""


def stage_package(root: Path, tree: Path) -> dict[str, str]:
    """Copy every folder mapped in ``pyproject.toml`` into ``tree`` in the installed layout
    (``model/flow.py`` -> ``tricklaw/model/flow.py``), data files included: mypyc names a
    module by its path, and the build compiles a copy that holds no links.
    Returns staged path -> repository path, for each file copied."""
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    mapping: dict[str, str] = data["tool"]["setuptools"]["package-dir"]
    staged: dict[str, str] = {}
    for package, folder in sorted(mapping.items(), key=lambda kv: kv[0].count(".")):
        source, target = root / folder, tree / package.replace(".", "/")
        for item in sorted(source.rglob("*")):
            if item.is_file() and "__pycache__" not in item.parts:
                copy = target / item.relative_to(source)
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(item, copy)
                staged[str(copy)] = str(item.relative_to(root))
    return staged


def plain_build() -> bool:
    """Whether this build installs plain Python: ``TRICKLAW_PURE`` is set, or the build is
    an editable install (setuptools' PEP 660 hook runs this file as ``editable_wheel``)."""
    return os.environ.get("TRICKLAW_PURE", "") not in ("", "0") or "editable_wheel" in sys.argv


def build_folder() -> Path:
    """A fresh folder for this build's intermediate files, outside the source folder and
    removed when the build ends. Nothing is written into the checkout: an install from it
    leaves it as it was (``build/page``, where the README builds the page, included), two
    installs from one checkout at once do not share a folder, and no extension left by an
    earlier build can be packed into this one (a module no longer compiled, or any in a
    plain build)."""
    folder = Path(tempfile.mkdtemp(prefix="tricklaw-build-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def ext_modules(folder: Path) -> list[Any]:
    """The mypyc extensions, built in ``folder``, or none for a plain build
    (:func:`plain_build`)."""
    if plain_build():
        return []
    from mypyc.build import mypycify

    tree = folder / "mypyc-src"
    stage_package(ROOT, tree)
    paths = [str(tree / path) for path in COMPILED]
    modules: list[Any] = mypycify(
        ["--config-file", str(ROOT / "pyproject.toml"), *paths],
        opt_level="3",
        group_name="tricklaw",
        target_dir=str(folder / "mypyc"),
    )
    return modules


if __name__ == "__main__":
    FOLDER = build_folder()
    setup(
        ext_modules=ext_modules(FOLDER),
        # setuptools' own intermediate files (build/, *.egg-info) go there too.
        options={"build": {"build_base": str(FOLDER)}, "egg_info": {"egg_base": str(FOLDER)}},
    )
