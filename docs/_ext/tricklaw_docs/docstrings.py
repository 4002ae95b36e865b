"""autodoc's docstrings: plain clause ids become ``:clause:`` links, and a Python reference
by a short or re-exported name resolves to the one documented object it can mean."""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.domains.python import ObjectEntry, PythonDomain
from sphinx.util.nodes import make_refnode

from .links import known

TABLE_BORDER = re.compile(r"^\s*(=+\s+)+=+\s*$|^\s*\+(-+\+)+\s*$")
"""A border line of a reST table (simple or grid)."""

ID_TOKEN = re.compile(r"(?<![\w`:-])([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)(?![\w`-])")
"""A clause-id-shaped token that is not already inside a role or a literal."""


def link_docstring_ids(  # noqa: PLR0917 (Sphinx autodoc-process-docstring signature)
    app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    """Turn plain clause ids in docstrings into ``:clause:`` links (outside literals)."""
    ids = known()
    in_literal_block = False
    block_indent = 0
    borders = [i for i, line in enumerate(lines) if TABLE_BORDER.match(line)]
    for i, line in enumerate(lines):
        if borders and borders[0] <= i <= borders[-1]:
            continue  # inside a table: a longer cell would break its columns
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if in_literal_block:
            if stripped and indent <= block_indent:
                in_literal_block = False
            else:
                continue
        if stripped.endswith("::"):
            in_literal_block, block_indent = True, indent
        parts = line.split("``")
        for j in range(0, len(parts), 2):  # outside double-backtick literals
            parts[j] = ID_TOKEN.sub(
                lambda m: f":clause:`{m.group(1)}`" if m.group(1) in ids else m.group(1),
                parts[j],
            )
        lines[i] = "``".join(parts)


_INDEX: dict[str, Any] = {}


def _by_last_name(objects: dict[str, Any]) -> dict[str, list[str]]:
    """Every documented Python object's name, by the last part of that name (in the
    domain's order), made once per set of objects: references that do not resolve at
    once ask (tens of thousands of short names in signatures), and a scan of every
    object each time took about a tenth of the docs build. The objects do not change
    while references are resolved; a new count of them makes the index again."""
    key = (id(objects), len(objects))
    if _INDEX.get("key") != key:
        index: dict[str, list[str]] = {}
        for name in objects:
            index.setdefault(name.rsplit(".", 1)[-1], []).append(name)
        _INDEX.update(key=key, index=index)
    found: dict[str, list[str]] = _INDEX["index"]
    return found


class IndexedPythonDomain(PythonDomain):
    """Sphinx's Python domain, answering at once a reference no object can match.

    A reference from a signature (``int``, ``Sequence``) is looked up in the domain's
    "fuzzy" mode, which scans every object's name for one ending in ``.NAME`` when no
    exact name matches: 23,735 scans of about 13,000 names, 11 % of the build's time,
    nearly all for builtins that no page documents. Every name the lookup can return,
    exact or fuzzy, ends with the last part of ``NAME``; where no documented object's
    name does, the answer is no match, returned without the scan. Any other lookup is
    Sphinx's own, unchanged."""

    def find_obj(  # noqa: PLR0917 (Sphinx's signature)
        self,
        env: Any,
        modname: str,
        classname: str,
        name: str,
        type: str | None,
        searchmode: int = 0,
    ) -> list[tuple[str, ObjectEntry]]:
        """:meth:`PythonDomain.find_obj`, but no match at once where none can be."""
        tail = name.removesuffix("()").rsplit(".", 1)[-1]
        if tail and tail not in _by_last_name(self.objects):
            return []
        return super().find_obj(env, modname, classname, name, type, searchmode)


def resolve_short_py_names(app: Sphinx, env: Any, node: Any, contnode: nodes.Node) -> Any:
    """Resolve a Python reference that names an object by a short or re-exported name
    (``Game`` for ``tricklaw.model.state.Game``) when exactly one documented object of this
    project ends with that name."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip("~.")
    domain = env.get_domain("py")
    tail = target.rsplit(".", 1)[-1]
    candidates = [
        name
        for name in _by_last_name(domain.objects).get(tail, ())
        if name.startswith("tricklaw.")
        and (
            name.endswith("." + target)
            or (
                name.rsplit(".", 1)[-1] == tail
                and name.startswith(target.rsplit(".", 1)[0] + ".")
                and "." in target
            )
        )
    ]
    if len(candidates) != 1:
        return None
    entry = domain.objects[candidates[0]]
    return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode)
