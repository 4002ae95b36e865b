"""Serving a built page (:mod:`tricklaw.page.build`) over HTTP: the small separate piece
that ``tricklaw serve --http`` uses at ``/`` (a later server can call the same function).

:func:`page_file` maps a request path to a file of the page's folder, never outside it,
with its content type (``application/wasm`` for Pyodide's runtime: browsers compile it
only with that type).
"""

from __future__ import annotations

from pathlib import Path

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}
"""Content types by file suffix; other files are ``application/octet-stream``."""


def page_file(root: Path, path: str) -> tuple[bytes, str] | None:
    """The file the request ``path`` names in the page folder ``root`` (``/`` and a
    query string -> ``index.html``) and its content type, or ``None`` when there is no
    such file or the path leaves the folder."""
    clean = path.split("?", 1)[0].split("#", 1)[0].lstrip("/") or "index.html"
    base = root.resolve()
    target = (base / clean).resolve()
    if base not in target.parents or not target.is_file():
        return None
    return target.read_bytes(), TYPES.get(target.suffix, "application/octet-stream")
