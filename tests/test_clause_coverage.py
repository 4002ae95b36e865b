"""Every normative clause and every dispute of every ruleset is cited by some test.

Tests cite clause ids with the ``clause`` marker used as a decorator with string literals;
this module finds the citations by scanning the text of ``tests/*.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tricklaw.model.rulesets import RULESETS
from tricklaw.spec import load_registry

TESTS = Path(__file__).resolve().parent
CITATION = re.compile(r"@clause\(([^)]*)\)")
LITERAL = re.compile(r"""["']([^"']+)["']""")
UNCITED_KINDS = {"advice", "info"}


def cited_ids() -> dict[str, set[str]]:
    """Clause id -> the test files that cite it."""
    out: dict[str, set[str]] = {}
    for path in sorted(TESTS.glob("*.py")):
        if path.name == Path(__file__).name:
            continue
        for args in CITATION.findall(path.read_text(encoding="utf-8")):
            for cid in LITERAL.findall(args):
                out.setdefault(cid, set()).add(path.name)
    return out


def test_the_scanner_finds_citations() -> None:
    cited = cited_ids()
    assert len(cited) > 50
    assert "test_sticheln_clauses.py" in cited["STI93-TRICK-3"]
    assert CITATION.findall('@clause("A-1", "B-2")\n') == ['"A-1", "B-2"']
    assert LITERAL.findall('"A-1",\n    "B-2"') == ["A-1", "B-2"]


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_every_normative_clause_is_cited(ruleset_id: str) -> None:
    registry = load_registry(ruleset_id)
    cited = cited_ids()
    normative = [c.id for c in registry.clauses if c.kind not in UNCITED_KINDS]
    assert normative
    missing = [cid for cid in normative if cid not in cited]
    assert missing == [], f"{ruleset_id}: no test cites {', '.join(missing)}"


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_every_dispute_is_cited(ruleset_id: str) -> None:
    registry = load_registry(ruleset_id)
    cited = cited_ids()
    missing = [d.id for d in registry.disputes if d.id not in cited]
    assert missing == [], f"{ruleset_id}: no test cites {', '.join(missing)}"


def test_every_cited_id_exists() -> None:
    known: set[str] = set()
    for ruleset_id in RULESETS:
        known |= load_registry(ruleset_id).ids
    unknown = {cid: sorted(files) for cid, files in cited_ids().items() if cid not in known}
    assert unknown == {}


def test_advice_and_info_clauses_are_not_counted_as_normative() -> None:
    registry = load_registry("sticheln-1993")
    kinds = {c.id: c.kind for c in registry.clauses}
    assert kinds["STI93-ADVICE-1"] == "advice"
    assert kinds["STI93-INFO-1"] == "info"
