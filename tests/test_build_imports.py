"""The compiled build's imports stay inside what its isolated build environment holds.

``pip install .`` compiles the modules of ``setup.py``'s ``COMPILED`` with mypyc, whose
mypy (``--strict``) follows every import of those modules, at any depth (an import inside
a function, or under ``TYPE_CHECKING``, too), into every ``tricklaw`` module it reaches. A
library that the build environment lacks (``[build-system] requires``: setuptools, mypy,
the stubs of jsonschema) then fails the install, after three minutes, with an error the
``-q`` of the README's command hides. This test reads the same closure from the sources
with :mod:`ast` in a second: every library imported there must be the standard library's
or the build's. (A module that must not be followed is loaded with
``importlib.import_module``, as ``model/schemas.py`` loads ``jsonschema_rs``.)
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DIRS = {"tricklaw": "tricklaw", "tricklaw.model": "model", "tricklaw.proofs": "proofs"}
PACKAGE_DIRS["tricklaw.spec"] = "spec"

BUILD_LIBRARIES = {"jsonschema", "mypy_extensions", "typing_extensions", "setuptools", "mypy"}
"""What the build environment can type-check: its requirements and what they bring."""


def source(module: str) -> Path | None:
    """The repository file of ``tricklaw`` module ``module`` (a package's ``__init__``)."""
    for package, folder in sorted(PACKAGE_DIRS.items(), key=lambda kv: -len(kv[0])):
        if module == package or module.startswith(package + "."):
            rest = module[len(package) :].lstrip(".").split(".") if module != package else []
            base = ROOT / folder / Path(*rest) if rest else ROOT / folder
            for path in (base.with_suffix(".py"), base / "__init__.py"):
                if path.is_file():
                    return path
    return None


def imports(module: str, path: Path) -> set[str]:
    """Every module name ``path`` imports, at any depth, made absolute."""
    is_package = path.name == "__init__.py"
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - (node.level - 1)])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def compiled_modules() -> list[str]:
    text = (ROOT / "setup.py").read_text(encoding="utf-8")
    block = text[text.index("COMPILED = (") : text.index(")\n", text.index("COMPILED = ("))]
    paths = re.findall(r'"(tricklaw/[\w/]+)\.py"', block)
    return [p.removesuffix("/__init__").replace("/", ".") for p in paths]


def libraries_reached(roots: list[str]) -> dict[str, str]:
    """Top-level library name -> a tricklaw module that imports it, over the closure."""
    seen: set[str] = set()
    queue = list(roots)
    libraries: dict[str, str] = {}
    while queue:
        module = queue.pop()
        path = source(module)
        if module in seen or path is None:
            continue
        seen.add(module)
        for name in imports(module, path):
            if name == "tricklaw" or name.startswith("tricklaw."):
                queue.append(name)
                # a package above: mypy reads tricklaw.a when it reads tricklaw.a.b
                queue += [name.rsplit(".", n)[0] for n in range(1, name.count("."))]
            else:
                libraries.setdefault(name.split(".")[0], module)
    return libraries


@pytest.mark.slow
def test_the_compiled_closure_is_found() -> None:
    """Not vacuous: the roots are setup.py's list, and the closure reaches the model's
    libraries (the standard library at least)."""
    roots = compiled_modules()
    assert "tricklaw.model.flow" in roots and len(roots) >= 20
    assert all(source(m) for m in roots), [m for m in roots if source(m) is None]
    assert "dataclasses" in libraries_reached(roots)


@pytest.mark.slow
def test_the_compiled_modules_import_no_library_the_build_lacks() -> None:
    reached = libraries_reached(compiled_modules())
    outside = {
        name: module
        for name, module in reached.items()
        if name not in sys.stdlib_module_names and name not in BUILD_LIBRARIES
    }
    assert not outside, (
        f"the mypyc build would not find these (library: importing module) {outside}"
    )


def test_a_library_import_is_caught(tmp_path: Path) -> None:
    """The scan sees an import inside a function."""
    path = tmp_path / "m.py"
    path.write_text("def f():\n    import rich.console\n", encoding="utf-8")
    assert "rich.console" in imports("tricklaw.m", path)
