"""Sphinx configuration of the tricklaw documentation.

Build: ``python -m sphinx -W -n -b html docs docs/_build/html`` (after
``pip install '.[test]'``). The pages under ``generated/`` are written at build time by
the project's extension, the package ``_ext/tricklaw_docs/``.
"""

from __future__ import annotations

import sys
from importlib.util import find_spec
from pathlib import Path

DOCS = Path(__file__).resolve().parent
# The repository root is the package's source tree (``tricklaw/model``, ``spec`` and
# ``proofs`` link to the top-level folders), so it comes first on sys.path: autodoc reads
# signatures and annotations from these sources, which an installed build compiles (mypyc).
sys.path[:0] = [str(DOCS.parent), str(DOCS / "_ext")]

project = "tricklaw"
author = "the tricklaw authors"
copyright = "tricklaw authors, MIT licence"
try:
    from tricklaw import __version__ as release
except ImportError:  # pragma: no cover - the package must be installed to build the docs
    release = "unknown"
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "tricklaw_docs",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", ".gitignore"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = f"tricklaw {release}"
html_static_path = ["_static"]
html_show_sourcelink = False

# The docs extra (pip install '.[docs]') builds the docs without OpenSpiel: autodoc then
# imports tricklaw's OpenSpiel modules against a stand-in for pyspiel. Where OpenSpiel is
# installed (the test extra), the real one is read.
autodoc_mock_imports = [m for m in ("pyspiel", "open_spiel") if find_spec(m) is None]

autodoc_member_order = "bysource"
# The API page's sidebar lists its 232 modules, not also their 2,182 members: furo copies
# the whole table of contents for every page's navigation, and the members made that
# copy a third of the build (docs build 333 -> 195 CPU-seconds with the short-name index
# of tricklaw_docs.docstrings, measured side by side in one run).
toc_object_entries = False
autodoc_typehints = "signature"
autodoc_default_options = {"show-inheritance": True}

# Rounds per (ruleset, player count) in the score-distribution plot, and the engine that
# plays them: "batch" (tricklaw.batch, equal to the reference game by game) or
# "reference" (sphinx-build -D tricklaw_plot_engine=reference).
tricklaw_plot_rounds = 5000
tricklaw_plot_engine = "batch"

# Nitpicky mode (-n): references to types outside this project cannot resolve without
# intersphinx (the build must work offline), so they are ignored by module.
nitpick_ignore_regex = [
    (
        r"py:.*",
        r"(z3|collections|typing|argparse|enum|dataclasses|types|pathlib|abc|io|http|subprocess"
        r"|importlib|ast)"
        r"(\..*)?",
    ),
    # The HTTP oracle's stack (tricklaw.http): Starlette, uvicorn, h11, anyio, asyncio, and
    # its ASGI type aliases.
    (
        r"py:.*",
        r"(starlette|uvicorn|h11|anyio|asyncio|socket|logging|threading|_thread)(\..*)?",
    ),
    (
        r"py:.*",
        r"(tricklaw\.http\.guards\.)?(Scope|Message|Receive|Send|ASGIApp)|Request|Response"
        r"|Starlette|Config|ServerState|H11Protocol|LogRecord|Formatter|TimerHandle"
        r"|BaseTransport|AbstractEventLoop|TracebackType",
    ),
    # The OpenSpiel adapter's numpy tensors and pyspiel base classes; numpy's types as
    # written where numpy is imported for the type checker only (tricklaw.impact.lockstep).
    (r"py:.*", r"(numpy|pyspiel|np|npt)(\..*)?"),
    (r"py:.*", r"(int|str|bool|float|bytes|object|None|type|dict|list|tuple|set|frozenset)"),
    (r"py:.*", r"(Any|Callable|Iterable|Iterator|Mapping|Sequence|TextIO|NoReturn|Generic)"),
    (r"py:.*", r"(ABC|IntEnum|NamedTuple|Exception|ValueError|TypeVar|NewType)"),
    (r"py:.*", r"(tuple|dict|list|set|frozenset|type)\[.*"),
    # The type variables of generic classes and functions (``Ruleset[X]``, ``State[X]``,
    # ``shuffled``, ``Game.rules_as``, the batch engine's ``njit`` decorator).
    (r"py:.*", r"(tricklaw\..*\.)?(T|X|R|F)"),
]
# An attribute set in ``__init__`` (no docstring of its own), named in a module docstring.
# ``Obligation`` is a type alias of ``tricklaw.proofs.trick_obligations`` (no docstring, so
# autodoc does not document it), named in ``tricklaw.proofs.solver``'s module docstring.
nitpick_ignore = [("py:attr", "TrickEncoding.outcome"), ("py:class", "Obligation")]
