"""Model = clauses for what may be played (tricklaw.proofs.equivalence_legal): proved
for small hands of a real game and of the plug-in Tiny, and a planted bug in the
model's play rule caught with a concrete hand and trick."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from tricklaw.model import get_ruleset
from tricklaw.model.cards import Card
from tricklaw.model.rulesets import lowhigh
from tricklaw.proofs import equivalence_legal, plain
from tricklaw.proofs.plays import PLAYS
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tiny


def test_lowhigh_play_rule_proved_for_small_hands() -> None:
    results = equivalence_legal.legal_results(get_ruleset("lowhigh"), 3, {}, 30_000)
    assert results and all(r.status == PROVED for r in results), results
    assert all("larger hands: not proved" in r.detail for r in results)


@pytest.fixture
def registered() -> Iterator[None]:
    tiny.register()
    try:
        yield
    finally:
        tiny.unregister()


def test_tinys_play_rule_proved_for_small_hands(registered: None) -> None:
    ruleset = get_ruleset("tiny")
    for players in ruleset.player_counts:
        results = equivalence_legal.legal_results(ruleset, players, {}, 30_000)
        assert results and all(r.status == PROVED for r in results), results


def test_a_planted_play_rule_bug_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # In a compiled install the executor runs the plain copy of the model: plant it there.
    module = plain.plain_module(lowhigh.__name__) if plain.compiled_install() else lowhigh
    real = module.playable

    def playable(hand: Sequence[Card], trick: Sequence[Card]) -> tuple[Card, ...]:
        if len(trick) == 2 and len(hand) == 3 and hand[2] & 31 == 7:
            return tuple(hand)  # the bug: no duty to follow for this hand
        return real(hand, trick)

    monkeypatch.setattr(module, "playable", playable)
    ruleset = get_ruleset("lowhigh")
    enc = PLAYS["lowhigh"](ruleset.make_game(3))
    out = equivalence_legal.legal_equivalence(enc, 2, 3, 30_000)
    assert out.status == COUNTEREXAMPLE, out
    assert out.witness["hand"][2].endswith("7") and len(out.witness["trick"]) == 2
    assert sorted(out.witness["model"]) != sorted(out.witness["encoding"])
