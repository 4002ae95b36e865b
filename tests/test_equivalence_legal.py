"""Model = clauses for what may be played (tricklaw.proofs.equivalence_legal): proved on
every hand a game can hold, by the merged copy of the model (tricklaw.proofs.merged,
tricklaw.proofs.merge_rewrite), for a real game and the plug-in Tiny; planted bugs in
the model's play rule caught with a concrete hand and trick the model confirms; the
merged copy computes what the model computes."""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from tricklaw.model import get_ruleset
from tricklaw.model.cards import Card
from tricklaw.model.rulesets import lowhigh
from tricklaw.proofs import equivalence_legal, merge_rewrite
from tricklaw.proofs.plays import PLAYS
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED

sys.path.insert(0, str(Path(__file__).resolve().parent))


clause = pytest.mark.clause


@pytest.mark.slow
@clause("LH-PLAY-1", "LH-PLAY-2", "LH-DEAL-1")
def test_lowhigh_play_rule_proved_for_every_hand() -> None:
    results = equivalence_legal.legal_results(get_ruleset("lowhigh"), 3, {}, 30_000)
    assert results and all(r.status == PROVED for r in results), results
    assert all("every hand of 1-15 cards" in r.detail for r in results)


@pytest.mark.slow
@clause("STI93-D-FOLLOW")
def test_every_follow_reading_of_sticheln_1993_is_proved() -> None:
    results = equivalence_legal.legal_results(
        get_ruleset("sticheln-1993"), 3, {"deck": "table"}, 30_000
    )
    follows = {r.reading for r in results}
    assert len(follows) == 3 and all(r.status == PROVED for r in results), results


@pytest.mark.slow
def test_tinys_play_rule_proved_for_every_hand(registered: None) -> None:
    ruleset = get_ruleset("tiny")
    for players in ruleset.player_counts:
        results = equivalence_legal.legal_results(ruleset, players, {}, 30_000)
        assert results and all(r.status == PROVED for r in results), results


def _plant(monkeypatch: pytest.MonkeyPatch, bug: object) -> None:
    """Put ``bug`` in place of lowhigh's ``playable`` in the merged copy (the code the
    executor runs)."""
    monkeypatch.setattr(merge_rewrite.merged_module(lowhigh.__name__), "playable", bug)


def _caught(position: int) -> dict[str, list[str]]:
    enc = PLAYS["lowhigh"](get_ruleset("lowhigh").make_game(3))
    out = equivalence_legal.legal_equivalence(enc, position, 30_000)
    assert out.status == COUNTEREXAMPLE, out
    assert out.machine == "equivalence"
    assert out.witness["model"] != out.witness["encoding"]
    return out.witness


@pytest.mark.slow
@clause("LH-PLAY-2")
def test_a_follow_rule_reading_the_wrong_card_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = merge_rewrite.merged_module(lowhigh.__name__).playable

    def playable(hand: Sequence[Card], trick: Sequence[Card]) -> object:
        return real(hand, tuple(reversed(trick)))  # the bug: follows the latest card

    _plant(monkeypatch, playable)
    witness = _caught(2)
    # the concrete model (the same copy, run again on the witness) confirms it
    ruleset = get_ruleset("lowhigh")
    fmt, parse = ruleset.palette.format, ruleset.palette.parse_all
    hand, trick = tuple(parse(witness["hand"])), tuple(parse(witness["trick"]))
    assert sorted(fmt(c) for c in playable(hand, trick)) == witness["model"]  # type: ignore[attr-defined]
    assert sorted(fmt(c) for c in lowhigh.playable(hand, trick)) == witness["encoding"]


@pytest.mark.slow
@clause("LH-PLAY-2")
def test_a_play_rule_bug_on_one_lead_colour_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = merge_rewrite.merged_module(lowhigh.__name__).playable

    def playable(hand: Sequence[Card], trick: Sequence[Card]) -> object:
        if trick and trick[0] >> 5 == 3:
            return hand  # the bug: no duty to follow a lead of the fourth colour
        return real(hand, trick)

    _plant(monkeypatch, playable)
    witness = _caught(1)
    assert get_ruleset("lowhigh").palette.parse(witness["trick"][0]) >> 5 == 3


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", ["lowhigh", "sticheln-1993", "sticheln", "the-last", "hund"])
def test_the_merged_copy_plays_as_the_model(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    rng = random.Random(ruleset_id)
    for players in ruleset.player_counts:
        options = {s.name: rng.choice(s.choices) for s in ruleset.option_specs if s.choices}
        game = ruleset.make_game(players, options)
        copy = merge_rewrite.merged_game(game)
        deck = list(ruleset.deck(players, game.options))
        for _ in range(60):
            rng.shuffle(deck)
            hand, trick = (
                tuple(deck[: rng.randint(1, 15)]),
                tuple(deck[15 : 15 + rng.randrange(game.seats)]),
            )
            assert copy.ruleset.playable(copy, hand, trick) == ruleset.playable(game, hand, trick)


@pytest.mark.slow
def test_no_symbolic_key_is_left_in_the_copys_caches() -> None:
    enc = PLAYS["the-last"](get_ruleset("the-last").make_game(3))
    assert equivalence_legal.legal_equivalence(enc, 2, 30_000).status == PROVED
    for name, module in list(sys.modules.items()):
        if name.startswith(merge_rewrite.PREFIX + "."):
            for value in vars(module).values():
                info = getattr(value, "cache_info", None)
                assert info is None or info().currsize == 0, f"{name}.{value}"
