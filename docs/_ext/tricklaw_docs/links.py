"""Clause and dispute ids in the docs: their Sphinx labels, the ids the registries know,
and the link node to an id's entry (on its ruleset page or in the disputes register)."""

from __future__ import annotations

import tricklaw_trace as trace
from docutils import nodes
from sphinx.addnodes import pending_xref


def label(cid: str) -> str:
    """The Sphinx label of a clause or dispute id."""
    return ("dispute-" if "-D-" in cid else "clause-") + cid.lower()


def known() -> dict[str, str]:
    """Every clause and dispute id -> its ruleset."""
    return trace.known_ids()


def xref(cid: str, text: str | None = None) -> pending_xref:
    """A link node to the entry of ``cid`` (resolved by the std domain)."""
    node = pending_xref(
        "", refdomain="std", reftype="ref", reftarget=label(cid), refexplicit=True, refwarn=True
    )
    node.append(nodes.literal(text or cid, text or cid, classes=["tl-clause"]))
    return node
