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

MAX_PATH = 1024
"""The longest request path looked up, in characters (the page's own are far shorter)."""


def page_file(root: Path, path: str) -> tuple[bytes, str] | None:
    """The file the request ``path`` names in the page folder ``root`` (``/`` and a
    query string -> ``index.html``) and its content type, or ``None`` when there is no
    such file, the path leaves the folder, or no file could have it (a NUL byte, a name
    longer than the system takes: the system's refusal is a missing file, not an error)."""
    clean = path.split("?", 1)[0].split("#", 1)[0].lstrip("/") or "index.html"
    if "\x00" in clean or len(clean) > MAX_PATH:
        return None
    try:
        base = root.resolve()
        target = (base / clean).resolve()
        if base not in target.parents or not target.is_file():
            return None
        return target.read_bytes(), TYPES.get(target.suffix, "application/octet-stream")
    except (OSError, ValueError):
        return None
