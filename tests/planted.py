"""Planted bugs that every install sees: a plain Python copy of the installed package.

A compiled install (``pip install .``, mypyc) does not see a monkeypatch of the live
model: compiled callers hold direct references. So a planted-bug test runs its script
in a child process against a copy of the installed ``tricklaw`` package with the
compiled extensions left out (the ``.py`` sources are installed beside them), where
the whole of tricklaw is interpreted and a monkeypatch reaches every caller. The same
holds on an editable install (the copy resolves the repository's symlinks).

:func:`run_planted` runs ``script`` there and returns what it printed as JSON.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import tricklaw

HERE = Path(__file__).resolve().parent
SKIP = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.c", "*.h")


def plain_copy(into: Path) -> Path:
    """A wholly interpreted copy of the installed ``tricklaw`` package in ``into``."""
    source = Path(tricklaw.__file__).resolve().parent
    target = into / "plain"
    if not (target / "tricklaw").exists():
        shutil.copytree(source, target / "tricklaw", symlinks=False, ignore=SKIP)
    return target


def run_planted(into: Path, script: str, timeout: float = 600) -> Any:
    """Run ``script`` (Python source; it prints one JSON value last) against the plain
    copy, with the tests' folder on the path (the plug-in Tiny); its JSON output."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(plain_copy(into)), str(HERE)])
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        env=env,
        cwd=into,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run_patched(into: Path, file: str, was: str, now: str, script: str) -> Any:
    """:func:`run_planted` with a bug planted in the source: in the copy's ``file`` (a path
    inside the ``tricklaw`` package), the one occurrence of ``was`` becomes ``now`` before
    ``script`` runs (a replacement that does not find exactly one occurrence fails)."""
    patch = f"""
        from pathlib import Path as _Path
        import tricklaw as _tricklaw
        _path = _Path(_tricklaw.__file__).parent / {file!r}
        _text = _path.read_text()
        assert _text.count({was!r}) == 1, {was!r}
        _path.write_text(_text.replace({was!r}, {now!r}))
        """
    return run_planted(into, textwrap.dedent(patch) + textwrap.dedent(script))


CHECK_PLAIN = """
import json, tricklaw
from tricklaw.proofs import plain
print(json.dumps([tricklaw.__file__, plain.compiled_install()]))
"""
"""A script that says where tricklaw came from and whether any module is compiled."""
