"""Whether the unmutated model's fingerprint ran the statements a mutant changes.

A mutant whose fingerprint equals the unmutated one's is ``equivalent`` only if the
fingerprint ran what it changed: a statement the fingerprint never ran (an error
message for an input no legal game gives, a branch no fingerprinted reading reaches)
shows nothing by being unchanged. The runner asks this module which of a mutant's
statements the unmutated fingerprint never ran (:func:`unreached`); such a mutant is
given to verify, and is ``unreached`` (not ``equivalent``) when verify does not kill it.

What ran is measured by coverage.py (``python -m coverage run`` around the unmutated
fingerprint's process, so that the lines run at import time count too), read back by
:func:`ran_lines`. A statement is named by its first line, as coverage.py names a
statement that spans lines; a changed line is mapped to the innermost statement holding
it (:func:`statements`): the ``if`` whose multi-line test it is part of, the ``def``
whose default it is.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Collection, Mapping
from pathlib import Path

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@")


def changed_lines(patch: str) -> dict[str, set[int]]:
    """Per file a unified diff changes (``-p1`` paths), the lines of the old file it
    removes or replaces, and for lines it only adds, the old line they follow (the first
    line, at the top of the file)."""
    out: dict[str, set[int]] = {}
    path, old, before = "", 0, " "
    for line in patch.splitlines():
        if line.startswith("+++ "):
            name = line[4:].split("\t")[0].strip()
            path = name[2:] if name.startswith("b/") else name
            out.setdefault(path, set())
        elif line.startswith("--- "):
            continue
        elif hunk := HUNK.match(line):
            old, before = int(hunk.group(1)), " "
        elif path and old:
            kind = line[:1] or " "
            if kind == "-":
                out[path].add(old)
            elif kind == "+" and before == " ":  # an insertion, not a replacement
                out[path].add(max(1, old - 1))
            if kind != "+":
                old += 1
            before = kind if kind in "-+" else " "
    return out


def statements(source: str, lines: Collection[int]) -> set[int]:
    """The first line of the innermost statement of ``source`` holding each of
    ``lines``; a decorated definition starts at its first decorator, as coverage.py
    names it. A line outside every statement (a comment, a blank line) changes nothing
    that runs and is left out."""
    spans = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.stmt):
            decorators = getattr(node, "decorator_list", [])
            first = min([node.lineno, *(d.lineno for d in decorators)])
            spans.append((first, node.end_lineno or node.lineno))
    text = source.splitlines()
    out = set()
    for line in lines:
        code = text[line - 1].strip() if line <= len(text) else ""
        if not code or code.startswith("#"):
            continue
        holding = [first for first, last in spans if first <= line <= last]
        if holding:
            out.add(max(holding))  # the innermost statement starts last
    return out


def mutated_statements(root: Path, patch: str) -> dict[str, set[int]]:
    """Per Python file of ``root`` that ``patch`` changes, the statements it changes
    (their first lines); files that are not Python sources of ``root`` are left out."""
    out = {}
    for path, lines in changed_lines(patch).items():
        file = root / path
        if file.suffix != ".py" or not file.is_file():
            continue
        out[path] = statements(file.read_text(encoding="utf-8"), lines)
    return out


def under_coverage(data_file: Path, tree: Path) -> list[str]:
    """The interpreter arguments that run a module (named next) under coverage.py,
    measuring the files of ``tree`` into ``data_file``: what :func:`ran_lines` reads.
    ``[sys.executable, *under_coverage(data, tree), "pkg.module", ...]``."""
    where = os.path.realpath(tree)
    return ["-m", "coverage", "run", f"--data-file={data_file}", f"--include={where}/*", "-m"]


def ran_lines(data_file: Path, tree: Path) -> dict[str, frozenset[int]]:
    """The statements (first lines) coverage.py's data file ``data_file`` says ran, per
    file of ``tree`` (paths relative to it, as in a patch). coverage.py's analysis names
    a statement by its first line, as :func:`statements` does, though the interpreter
    may report only later ones (an ``if (`` whose test is on the lines below)."""
    import coverage

    cov = coverage.Coverage(data_file=str(data_file))
    cov.load()
    base = os.path.realpath(tree)
    out = {}
    for name in cov.get_data().measured_files():
        real = os.path.realpath(name)
        if real.startswith(base + os.sep):
            _, lines, _, missing, _ = cov.analysis2(name)
            out[os.path.relpath(real, base)] = frozenset(lines) - frozenset(missing)
    return out


def unreached(root: Path, patch: str, ran: Mapping[str, frozenset[int]]) -> list[str]:
    """The statements ``patch`` changes (``path:line``) that the run measured in ``ran``
    never ran; a Python file of the tree it never ran at all counts whole."""
    return [
        f"{path}:{line}"
        for path, lines in sorted(mutated_statements(root, patch).items())
        for line in sorted(lines)
        if line not in ran.get(path, frozenset())
    ]
