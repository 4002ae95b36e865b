"""Packaging as the ecosystem expects (issue 17's packaging bullets, in part):

* the licence is an SPDX expression with its file, and the installed metadata says so;
* the classifiers are PyPI's own and agree with ``requires-python``;
* a CHANGELOG lists the history, newest first;
* ``import tricklaw.openspiel`` without the ``openspiel`` extra fails with one line that
  names the extra;
* a build leaves the source folder as it was, so two builds from one checkout at once
  both succeed, and the page built into ``build/page`` survives a reinstall (issues 45
  and 46).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE = (ROOT / "pyproject.toml").is_file()
needs_source = pytest.mark.skipif(not SOURCE, reason="needs the source tree (pyproject.toml)")


def project() -> dict[str, object]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    table: dict[str, object] = data["project"]
    return table


@needs_source
def test_licence_is_an_spdx_expression_with_its_file() -> None:
    table = project()
    assert table["license"] == "MIT"
    assert table["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text
    assert not any("License ::" in c for c in table["classifiers"])  # type: ignore[attr-defined]


def test_installed_metadata_names_the_licence() -> None:
    """What pip and PyPI read: ``License-Expression`` and the licence file."""
    meta = metadata.metadata("tricklaw")
    assert meta["License-Expression"] == "MIT"
    assert "LICENSE" in (meta.get_all("License-File") or [])
    assert "Programming Language :: Python :: 3.11" in (meta.get_all("Classifier") or [])


@needs_source
def test_classifiers_are_pypis_and_match_the_python_versions() -> None:
    trove = pytest.importorskip("trove_classifiers")
    classifiers = project()["classifiers"]
    assert isinstance(classifiers, list) and classifiers
    unknown = [c for c in classifiers if c not in trove.classifiers]
    assert not unknown
    assert sorted(classifiers) == classifiers
    lowest = str(project()["requires-python"]).removeprefix(">=")
    versions = [c.rsplit(" :: ", 1)[1] for c in classifiers if re.search(r":: 3\.\d+$", c)]
    assert versions and min(versions, key=lambda v: tuple(map(int, v.split(".")))) == lowest


@needs_source
def test_changelog_is_newest_first_and_grouped_by_issue() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n")
    issues = [int(n) for n in re.findall(r"^### Issues? (\d+)", text, re.MULTILINE)]
    assert issues and issues == sorted(issues, reverse=True)
    dates = re.findall(r"\((\d{4}-\d{2}-\d{2})", text)
    assert dates == sorted(dates, reverse=True)


BLOCKER = """
import sys

class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == {module!r}:
            raise ImportError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Blocker())
sys.modules.pop({module!r}, None)
import tricklaw.openspiel
"""


@pytest.mark.slow
@pytest.mark.parametrize("module", ["numpy", "pyspiel"])
def test_openspiel_without_its_extra_fails_in_one_line(tmp_path: Path, module: str) -> None:
    """The extra's modules hidden by a ``sys.meta_path`` blocker: the error is one line
    naming the missing module and the extra, with no chained 'No module named' traceback."""
    run = subprocess.run(
        [sys.executable, "-c", BLOCKER.format(module=module)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last == (
        f"ImportError: tricklaw.openspiel needs the 'openspiel' extra ({module} is missing): "
        "pip install 'tricklaw[openspiel]'"
    )
    assert "No module named" not in run.stderr
    assert "During handling" not in run.stderr


def _tree(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if "__pycache__" not in p.parts}


@needs_source
@pytest.mark.slow(minutes=2)
def test_two_builds_at_once_leave_the_source_folder_as_it_was(tmp_path: Path) -> None:
    """Two wheel builds of one copy of the checkout, started together, both succeed and
    write nothing into it: no ``build/``, no ``*.egg-info``, and a page the user built
    into ``build/page`` is still there (setup.py once emptied ``build/``). Plain builds
    (``TRICKLAW_PURE=1``) keep it short; the compiled build uses the same folder."""
    files = (
        subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
        .stdout.decode()
        .split("\0")
    )
    source = tmp_path / "src"
    for name in filter(None, files):
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / name).is_symlink():
            target.symlink_to(os.readlink(ROOT / name))
        else:
            shutil.copy2(ROOT / name, target)
    page = source / "build" / "page" / "index.html"
    page.parent.mkdir(parents=True)
    page.write_text("the table's page", encoding="utf-8")
    before = _tree(source)
    env = {**os.environ, "TRICKLAW_PURE": "1"}
    builds = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--no-deps",
                "-q",
                "-w",
                str(tmp_path / f"w{i}"),
                ".",
            ],
            cwd=source,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for i in (1, 2)
    ]
    for build in builds:
        out, _ = build.communicate(timeout=600)
        assert build.returncode == 0, out[-3000:]
    assert all(list((tmp_path / f"w{i}").glob("tricklaw-*.whl")) for i in (1, 2))
    assert _tree(source) == before
    assert page.read_text(encoding="utf-8") == "the table's page"
