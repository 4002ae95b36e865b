"""tricklaw's own Sphinx extension: clause links, rendered tricks, and the generated pages.

Roles and directives
--------------------

``{clause}`STI93-TRICK-3``` (reST: ``:clause:`STI93-TRICK-3```)
    A link to the clause's entry on its ruleset page, or, for a dispute id
    (``STI93-D-ALLZERO``), to its entry in the disputes register. An id that no
    registry knows is a build warning (an error under ``-W``).

``{cards}`sticheln-1993 R0 B0 Y0 G0```
    The cards as coloured glyphs in the ruleset's palette.

``{trick}`` directive
    A complete trick judged at build time by the model (``ruleset.judge_trick``):
    the cards as glyphs with the winner marked, the result, the deciding clauses as
    links, and the result under every other reading of the options that can change
    a trick. Argument: ``RULESET CARD...``; options ``:players:``, ``:option:``
    (``k=v``, comma-separated), ``:context:`` (``k=v``, ``;``-separated), ``:compact:``
    (leave out the other readings, for tricks drawn side by side).

Generated pages
---------------

On ``builder-inited`` the extension writes ``docs/generated/`` (ignored by git): one
page per ruleset, the disputes register (with a simulation), the traceability
matrix, the mutation score (from the checked-in runs), the CLI reference, the API
reference, highlighted source pages with line anchors, and the score-distribution plot.
Files are rewritten only when their content changes. Every per-ruleset part takes a
ruleset id and serves any ruleset of :data:`tricklaw.model.rulesets.RULESETS`, a
plug-in's included; a ruleset's page is a pure function of its id
(:func:`.rulesets.ruleset_page`), callable without Sphinx.

Modules
-------

``links``
    Clause and dispute ids: labels, the known ids, link nodes.
``roles``
    The ``{clause}`` and ``{cards}`` roles and the ``{trick}`` directive.
``docstrings``
    autodoc hooks: clause ids in docstrings as links, short Python names resolved; the
    Python domain with an index of its names.
``markdown``
    Writing files and the MyST helpers of every page.
``actions`` (every action kind), ``log_example`` (the oracle page's log), ``protocol``
(the oracle's methods and their schemas),
``trick_intro`` ("How a trick is won"), ``rulesets``, ``disputes`` (with ``simulation``),
``matrix``, ``bounds``, ``mutation``, ``reference`` (CLI and API), ``sources``, ``plot``
(and the palettes table)
    One generated page (or include) each.
``page``
    The page for players (:mod:`tricklaw.page`), built into ``page/`` of the HTML output.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import tricklaw_trace as trace
from sphinx.application import Sphinx
from sphinx.util import logging

from .actions import gen_actions
from .bounds import gen_bounds
from .disputes import gen_disputes
from .docstrings import IndexedPythonDomain, link_docstring_ids, resolve_short_py_names
from .log_example import gen_log_example
from .matrix import gen_matrix
from .mutation import gen_mutation
from .page import build_site_page
from .plot import gen_palettes, gen_plot
from .protocol import gen_protocol
from .reference import gen_api, gen_cli
from .roles import TrickDirective, cards_role, clause_role
from .rulesets import gen_ruleset, gen_ruleset_toctree
from .sources import gen_sources

LOG = logging.getLogger(__name__)
GEN = "generated"
"""The folder of the generated pages, under the docs' source folder."""


def generate(app: Sphinx) -> None:
    """Write every generated page (``builder-inited``)."""
    if not app.config.tricklaw_generate:
        return
    gen = Path(app.srcdir) / GEN
    t0 = time.perf_counter()
    for ruleset_id in trace.ruleset_ids():
        gen_ruleset(gen, ruleset_id)
    gen_ruleset_toctree(gen, trace.ruleset_ids())
    gen_matrix(gen)
    gen_cli(gen)
    gen_api(gen)
    gen_palettes(gen)
    gen_actions(gen)
    gen_log_example(gen)
    gen_protocol(gen)
    gen_sources(gen)
    gen_mutation(gen)
    t_disputes = gen_disputes(gen)
    t_bounds = gen_bounds(gen)
    t_plot = gen_plot(gen, app.config.tricklaw_plot_rounds, app.config.tricklaw_plot_engine)
    LOG.info(
        f"tricklaw: generated pages in {time.perf_counter() - t0:.1f} s "
        f"(disputes simulation {t_disputes:.1f} s, score bounds {t_bounds:.1f} s, "
        f"score plot {t_plot:.1f} s)"
    )


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the roles, the directive, the docstring hooks and the page generation."""
    app.setup_extension("sphinx.ext.autodoc")
    app.add_domain(IndexedPythonDomain, override=True)
    app.add_config_value("tricklaw_plot_rounds", 200, "env")
    app.add_config_value("tricklaw_plot_engine", "batch", "env")
    app.add_config_value("tricklaw_generate", True, "env")
    app.add_role("clause", clause_role)
    app.add_role("cards", cards_role)
    app.add_directive("trick", TrickDirective)
    app.connect("builder-inited", generate)
    app.connect("build-finished", build_site_page)
    app.connect("autodoc-process-docstring", link_docstring_ids)
    app.connect("missing-reference", resolve_short_py_names)
    app.add_css_file("tricklaw.css")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
