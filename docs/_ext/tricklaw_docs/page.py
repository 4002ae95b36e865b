"""The page for players in the docs site (``page/`` beside the HTML pages): built at the
end of an HTML build by :func:`tricklaw.page.build.build_page`, with links from its
deciding clauses (e.g. STI93-TRICK-1) to the ruleset pages. Pyodide comes from the
checkout's ``node_modules`` (``npm ci``); without it the page is left out and the build
says so (as information, not a warning: the docs are whole without it)."""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

LOG = logging.getLogger(__name__)


def build_site_page(app: Sphinx, exception: Exception | None) -> None:
    """Write ``page/`` into the HTML output (``build-finished``)."""
    if exception is not None or app.builder.format != "html":
        return
    from tricklaw.page.build import PYODIDE_FILES, build_page, find_pyodide

    local = Path(app.srcdir).parent / "node_modules" / "pyodide"
    pyodide = local if (local / PYODIDE_FILES[0]).is_file() else find_pyodide()
    if pyodide is None:
        LOG.info("tricklaw: the page for players is left out: Pyodide is missing (npm ci)")
        return
    # The docs build's own output folder: an earlier build there may predate the marker.
    summary = build_page(Path(app.outdir) / "page", pyodide, docs_url="../", force=True)
    LOG.info(f"tricklaw: the page for players is in page/ (build {summary['build']})")
