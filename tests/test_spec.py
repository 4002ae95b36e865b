"""The clause registries: the loader's checks, and the registries against the seed texts.

The seed texts live outside the repository (``../shared/seeds`` beside it); the
tests that read them are skipped when that folder is absent.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tricklaw.model.rulesets import RULESETS
from tricklaw.spec import load_registry, parse_registry, sources
from tricklaw.spec.errors import SpecError

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"
needs_seeds = pytest.mark.skipif(
    not SEEDS.is_dir(), reason="the seed texts are not beside the repo"
)


def seed_text(name: str) -> str:
    return (SEEDS / name).read_text(encoding="utf-8")


@needs_seeds
@pytest.mark.parametrize("name", sorted(sources()))
def test_each_seed_text_is_the_one_the_registries_cite(name: str) -> None:
    source = sources()[name]
    data = (SEEDS / name).read_bytes()
    assert hashlib.sha256(data).hexdigest() == source.sha256
    assert len(data.decode("utf-8").splitlines()) == source.lines


@needs_seeds
@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_dispute_quote_is_verbatim_and_short(ruleset: str) -> None:
    registry = load_registry(ruleset)
    text = " ".join(seed_text(registry.source.file).split())
    for dispute in registry.disputes:
        for quote in dispute.quotes:
            assert len(quote.split()) <= 6, (dispute.id, quote)
            assert " ".join(quote.split()).lower() in text.lower(), (dispute.id, quote)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


@needs_seeds
@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_no_paraphrase_copies_seven_words_of_the_text(ruleset: str) -> None:
    registry = load_registry(ruleset)
    words = _words(seed_text(registry.source.file))
    runs = {tuple(words[i : i + 7]) for i in range(len(words) - 6)}
    prose = [c.summary for c in registry.clauses] + [c.note for c in registry.clauses]
    prose += [d.question for d in registry.disputes] + [d.reason for d in registry.disputes]
    prose += [r.summary for d in registry.disputes for r in d.readings]
    for text in prose:
        mine = _words(text)
        copied = [mine[i : i + 7] for i in range(len(mine) - 6) if tuple(mine[i : i + 7]) in runs]
        assert not copied, (ruleset, " ".join(copied[0]))


@needs_seeds
@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_content_line_of_the_text_is_in_some_clause(ruleset: str) -> None:
    registry = load_registry(ruleset)
    lines = seed_text(registry.source.file).splitlines()
    covered = {
        n
        for c in registry.clauses
        if not c.source
        for first, last in c.lines
        for n in range(first, last + 1)
    }
    uncovered = [n for n, line in enumerate(lines, 1) if line.strip() and n not in covered]
    assert not uncovered, (ruleset, uncovered[:5])


# --- the loader's own checks --------------------------------------------------------------


def _minimal(**changes: Any) -> dict[str, Any]:
    data = tomllib.loads((ROOT / "spec" / "sticheln.toml").read_text(encoding="utf-8"))
    data.update(changes)
    return data


def test_a_duplicate_id_is_rejected() -> None:
    data = _minimal()
    data["clause"].append(dict(data["clause"][0]))
    with pytest.raises(SpecError, match="duplicate ids"):
        parse_registry(data, "sticheln.toml")


def test_a_line_range_outside_the_text_is_rejected() -> None:
    data = _minimal()
    data["clause"][0] = {**data["clause"][0], "lines": [[1, 999]]}
    with pytest.raises(SpecError, match="outside 1-112"):
        parse_registry(data, "sticheln.toml")


def test_an_unknown_kind_is_rejected() -> None:
    data = _minimal()
    data["clause"][0] = {**data["clause"][0], "kind": "poetry"}
    with pytest.raises(SpecError, match="unknown kind 'poetry'"):
        parse_registry(data, "sticheln.toml")


def test_a_dispute_default_must_be_one_of_its_readings() -> None:
    data = _minimal()
    data["dispute"][0] = {**data["dispute"][0], "default": "nonsense"}
    with pytest.raises(SpecError, match="default 'nonsense' is not one of its readings"):
        parse_registry(data, "sticheln.toml")


def test_a_dispute_citing_an_unknown_clause_is_rejected() -> None:
    data = _minimal()
    data["dispute"][0] = {**data["dispute"][0], "clauses": ["STI-NOPE-1"]}
    with pytest.raises(SpecError, match="cites unknown clauses STI-NOPE-1"):
        parse_registry(data, "sticheln.toml")


def test_an_id_without_the_prefix_is_rejected() -> None:
    data = _minimal()
    data["clause"][0] = {**data["clause"][0], "id": "XYZ-1"}
    with pytest.raises(SpecError, match="does not start with the prefix STI-"):
        parse_registry(data, "sticheln.toml")
