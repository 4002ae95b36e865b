"""``tricklaw page build OUT``: assemble the page for players into the folder ``OUT``.

What goes in:

* the page's own files (``static/``: ``index.html``, ``app.js``, ``style.css``, the
  service worker ``sw.js``, the web app manifest), installed with the package;
* ``pyodide/``: Pyodide's runtime from the npm ``pyodide`` package (``npm ci`` at the
  repository root puts it in ``node_modules/pyodide``; ``--pyodide DIR`` or
  ``TRICKLAW_PYODIDE`` names another copy). No CDN: the page loads nothing from elsewhere;
* ``tricklaw.zip``: the plain-Python sources of the installed ``tricklaw`` package (the
  ``.py`` files and the spec's data, never a compiled extension, so a mypyc install builds
  the same page) without the parts that need z3 or the source tree, plus
  ``mypy_extensions`` (the model imports it); Pyodide unpacks it and imports
  :mod:`tricklaw.page.api`;
* ``config.json``: the docs' address for clause links and the build's identity; the
  service worker's cache is named after a hash of every file, so a new build replaces the
  old cache;
* ``.tricklaw-output``: the marker of tricklaw's output (the files written and their
  SHA-256), so that a later build overwrites only its own files.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import io
import json
import os
import shutil
import zipfile
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import tricklaw
from tricklaw.spec.errors import TricklawError
from tricklaw.spec.outputs import OwnFolder

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""The files of the npm ``pyodide`` package the page loads (the runtime and its
standard library; no other Pyodide package is needed)."""

LEFT_OUT = ("proofs", "mutation", "verify", "fuzz", "oracle", "vectors", "check")
"""Subpackages the page never imports (z3, the source tree, the server): not packed."""

PACKED_SUFFIXES = (".py", ".toml", ".json", ".typed")
"""The files of the package that are packed (sources and the spec's data)."""


def find_pyodide(explicit: str | None = None) -> Path | None:
    """The folder of the npm ``pyodide`` package: ``explicit``, else ``TRICKLAW_PYODIDE``,
    else ``node_modules/pyodide`` in the working folder or one above it, or in the
    checkout the package was installed from (an editable install). ``None`` if none."""
    named = explicit or os.environ.get("TRICKLAW_PYODIDE")
    if named:
        return Path(named)
    starts = [Path.cwd(), Path(tricklaw.__file__).resolve().parent]
    for start in starts:
        for folder in (start, *start.parents):
            candidate = folder / "node_modules" / "pyodide"
            if (candidate / PYODIDE_FILES[0]).is_file():
                return candidate
    return None


def _package_files(root: Path) -> Iterator[tuple[Path, str]]:
    """Each packed file of the package at ``root`` and its name in the zip."""
    for folder, dirs, files in os.walk(root, followlinks=True):
        here = Path(folder)
        rel = here.relative_to(root)
        if not rel.parts:
            dirs[:] = [d for d in dirs if d not in LEFT_OUT]
        dirs[:] = sorted(d for d in dirs if d not in {"__pycache__", "static"})
        for name in sorted(files):
            if name.endswith(PACKED_SUFFIXES):
                yield here / name, str(Path("tricklaw") / rel / name)


def pack_sources() -> bytes:
    """The zip of the plain-Python package (see the module docstring), byte for byte the
    same for the same sources (fixed timestamps)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        root = Path(tricklaw.__file__).resolve().parent
        extras = importlib.util.find_spec("mypy_extensions")
        entries = list(_package_files(root))
        if extras and extras.origin:
            entries.append((Path(extras.origin), "mypy_extensions.py"))
        for path, name in entries:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


def static_files() -> dict[str, bytes]:
    """The page's own files (``static/``), by name."""
    folder = resources.files("tricklaw.page") / "static"
    return {item.name: item.read_bytes() for item in folder.iterdir() if item.is_file()}


def page_names() -> list[str]:
    """The names of the files a build writes (paths under the folder)."""
    fixed = ["tricklaw.zip", "config.json", *(f"pyodide/{n}" for n in PYODIDE_FILES)]
    return [*static_files(), *fixed]


def build_page(
    out: Path, pyodide: Path | None = None, docs_url: str = "", *, force: bool = False
) -> dict[str, Any]:
    """Write the page into ``out`` (created; files of an earlier build are replaced, each
    atomically). ``docs_url``: the docs site's root, relative to the page or absolute, for
    the clause links (empty: no links). Returns the build's summary (files and sizes).
    ``out`` must be new, empty or an earlier build's (its marker ``.tricklaw-output``
    lists the files and their SHA-256): a file tricklaw did not write is never
    overwritten unless ``force`` (:class:`~tricklaw.spec.outputs.OwnFolder`)."""
    runtime = pyodide or find_pyodide()
    if runtime is None or not all((runtime / f).is_file() for f in PYODIDE_FILES):
        raise TricklawError(
            "page: Pyodide is missing: run 'npm ci' in the repository root (it installs the "
            "npm package pyodide into node_modules/), or give --pyodide DIR"
        )
    own = OwnFolder(out, "page", "OUT", force=force)
    own.claim(page_names())
    files: dict[str, bytes] = {name: data for name, data in static_files().items()}
    files["tricklaw.zip"] = pack_sources()
    for name in PYODIDE_FILES:
        files[f"pyodide/{name}"] = (runtime / name).read_bytes()
    digest = hashlib.sha256()
    for name in sorted(files):
        if name != "sw.js":
            digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    build_id = digest.hexdigest()[:16]
    files["config.json"] = json.dumps(
        {"docs": docs_url, "build": build_id, "version": tricklaw.__version__}
    ).encode()
    cached = sorted(name for name in files if name != "sw.js")
    files["sw.js"] = (
        files["sw.js"]
        .replace(b"__BUILD__", build_id.encode())
        .replace(b"__FILES__", json.dumps(["./", *cached]).encode())
    )
    try:
        own.write(files)
    except OSError as exc:
        raise TricklawError(f"page: cannot write the page to {out}: {exc.strerror}") from None
    return {"out": str(out), "build": build_id, "bytes": {k: len(v) for k, v in files.items()}}


def cmd_page(args: argparse.Namespace) -> int:
    """``tricklaw page build OUT``."""
    pyodide = Path(args.pyodide) if args.pyodide else None
    if pyodide is not None and not pyodide.is_dir():
        raise TricklawError(f"page: --pyodide {args.pyodide} is not a folder")
    summary = build_page(Path(args.out), pyodide, args.docs_url, force=args.force)
    total = sum(summary["bytes"].values())
    if args.json:
        answer = {"status": "built", "folder": summary["out"], "build": summary["build"]}
        print(json.dumps(answer | {"files": len(summary["bytes"]), "bytes": total}))
    else:
        print(f"page built in {summary['out']}: {len(summary['bytes'])} files, {total:,} bytes")
    return 0


def add_command(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``tricklaw page build`` to the ``tricklaw`` parser's ``subparsers``."""
    p = subparsers.add_parser(
        "page",
        help="build the page for players (the model in the browser, via Pyodide)",
        description="Assemble the static page that judges a trick with tricklaw's own model "
        "running in the browser; serve the folder with 'tricklaw serve --http PORT --page OUT'.",
    )
    actions = p.add_subparsers(dest="page_command", required=True)
    b = actions.add_parser("build", help="write the page into a folder")
    b.add_argument("out", help="the folder to write (created)")
    b.add_argument("--pyodide", help="the npm pyodide package's folder (default: node_modules)")
    b.add_argument(
        "--docs-url", default="", help="the docs site's root, for the clause links (default none)"
    )
    b.add_argument(
        "--force",
        action="store_true",
        help="write into OUT even if it holds files tricklaw did not write (or that were "
        "changed since), overwriting those with a page file's name; others are kept",
    )
    b.add_argument(
        "--json",
        action="store_true",
        help="print the result as one JSON object (status, folder, build, files, bytes)",
    )
    b.set_defaults(func=cmd_page)


def copy_tree(source: Path, target: Path) -> None:
    """Copy a built page (``source``) into ``target`` (the docs build does this)."""
    shutil.copytree(source, target, dirs_exist_ok=True)
