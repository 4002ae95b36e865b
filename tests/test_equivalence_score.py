"""Model = clauses for the round score (tricklaw.proofs.equivalence_score): proved on
every pile for lowhigh, both Sticheln editions, The Last (the ghost included) and the
plug-in Tiny; planted scoring bugs caught with a concrete pile the model confirms."""

from __future__ import annotations

import dataclasses
import random
import sys
from pathlib import Path

import pytest

from tricklaw.model import get_ruleset
from tricklaw.model.rulesets import lowhigh, sticheln
from tricklaw.model.rulesets.the_last import ruleset as the_last
from tricklaw.proofs import equivalence_score, merge_rewrite
from tricklaw.proofs.scores import SCORES
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED

sys.path.insert(0, str(Path(__file__).resolve().parent))


clause = pytest.mark.clause


@pytest.mark.slow
@clause("LH-SCORE-1", "LH-SCORE-2", "LH-SCORE-3", "LH-SCORE-4")
def test_lowhigh_score_proved_for_every_pile() -> None:
    results = equivalence_score.score_results(get_ruleset("lowhigh"), 3, {}, 30_000)
    assert [r.status for r in results] == [PROVED], results
    assert "every pile of 0-45 cards" in results[0].detail


@pytest.mark.slow
@clause("STI-SCORE-1", "STI-SCORE-2", "STI-SCORE-3", "STI-SCORE-4", "STI93-SCORE-3")
@pytest.mark.parametrize("ruleset_id", ["sticheln", "sticheln-1993"])
def test_sticheln_score_proved_for_every_pile(ruleset_id: str) -> None:
    results = equivalence_score.score_results(get_ruleset(ruleset_id), 4, {}, 30_000)
    assert results and all(r.status == PROVED for r in results), results


@clause("LAST-SCORE-1", "LAST-GHOST-6")
def test_the_lasts_score_and_ghost_proved_for_every_pile() -> None:
    results = equivalence_score.score_results(get_ruleset("the-last"), 2, {}, 30_000)
    assert [r.status for r in results] == [PROVED], results
    assert "seats 0-2" in results[0].detail  # the ghost's seat too


@pytest.mark.slow
def test_tinys_score_proved(registered: None) -> None:
    ruleset = get_ruleset("tiny")
    for players in ruleset.player_counts:
        results = equivalence_score.score_results(ruleset, players, {}, 30_000)
        assert [r.status for r in results] == [PROVED], results


def _plant(module_name: str, name: str, source: str, monkeypatch: pytest.MonkeyPatch) -> object:
    """Define ``name`` from ``source`` as the merged copy would and put it in the merged
    copy of ``module_name`` (the code the executor runs)."""
    module = merge_rewrite.merged_module(module_name)
    space = merge_rewrite.compile_merged(source, dict(vars(module)))
    monkeypatch.setattr(module, name, space[name])
    return space[name]


def _caught(ruleset_id: str, players: int, seat: int = 0) -> dict[str, object]:
    game = get_ruleset(ruleset_id).make_game(players)
    out = equivalence_score.score_equivalence(SCORES[ruleset_id](game, seat), 30_000)
    assert out.status == COUNTEREXAMPLE, out
    assert out.machine == "equivalence" and out.witness["model"] != out.witness["encoding"]
    return out.witness


@pytest.mark.slow
@clause("LH-SCORE-3")
def test_a_shifted_scoring_threshold_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    bug = _plant(
        lowhigh.__name__,
        "score",
        """
def score(cards):
    total = 0
    for colour in {c >> 5 for c in cards}:
        values = [c & 31 for c in cards if c >> 5 == colour]
        total += sum(values) if len(values) <= 3 else len(values)
    return total
""",
        monkeypatch,
    )
    witness = _caught("lowhigh", 3)
    pile = get_ruleset("lowhigh").palette.parse_all(witness["pile"])
    assert bug(tuple(pile)) == witness["model"]  # type: ignore[operator]
    assert lowhigh.score(pile) == witness["encoding"]  # the real model agrees with the clauses


@clause("STI-SCORE-3")
def test_a_misery_card_left_out_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    _plant(
        sticheln.__name__,
        "score",
        """
def score(picked, taken):
    return card_points(colour_of(picked), taken)
""",
        monkeypatch,
    )
    witness = _caught("sticheln", 3)
    palette = get_ruleset("sticheln").palette
    picked, pile = palette.parse(witness["picked"]), palette.parse_all(witness["pile"])
    assert sticheln.score(picked, pile) == witness["encoding"]


@clause("LAST-GHOST-6")
def test_a_ghost_scored_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    _plant(
        the_last.__name__,
        "_scores",
        """
def _scores(game, taken):
    return tuple(penalty(cards) for seat, cards in enumerate(taken))
""",
        monkeypatch,
    )
    _caught("the-last", 2, seat=2)
    game = get_ruleset("the-last").make_game(2)
    assert equivalence_score.score_equivalence(SCORES["the-last"](game, 0), 30_000).status == PROVED


@pytest.mark.parametrize("ruleset_id", ["lowhigh", "sticheln-1993", "sticheln", "the-last"])
def test_the_merged_copy_scores_as_the_model(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    rng = random.Random(ruleset_id)
    for players in ruleset.player_counts:
        game = ruleset.make_game(players)
        copy = merge_rewrite.merged_game(game)
        module = sys.modules[type(copy.ruleset).__module__]
        deck = list(ruleset.deck(players, game.options))
        for seat in range(game.seats):
            enc = SCORES[ruleset_id](game, seat)
            for _ in range(40):
                rng.shuffle(deck)
                pile, singles = tuple(deck[1 : rng.randint(1, 30)]), {"picked": deck[0]}
                model_module = sys.modules[type(ruleset).__module__]
                assert enc.model_score(module, copy, pile, singles) == enc.model_score(
                    model_module, game, pile, singles
                )


@pytest.mark.slow
@clause("HUND-POWER-2", "HUND-POWER-3", "HUND-POWER-4", "HUND-FACT-2", "HUND-FACT-3")
@clause("HUND-D-HUNDTIE", "HUND-D-VIRTUALHUND")
def test_hunds_score_proved_for_every_split_and_reading() -> None:
    results = equivalence_score.score_results(get_ruleset("hund"), 2, {}, 30_000)
    assert len(results) == 4 and all(r.status == PROVED for r in results), results
    assert all("every split of the deck" in r.detail for r in results)


@clause("HUND-D-HUNDTIE")
def test_a_hund_tie_rule_reversed_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from tricklaw.model.rulesets.hund import ruleset as hund

    module = merge_rewrite.merged_module(hund.__name__)
    real = module.round_score

    def round_score(taken: object, holders: object, rules: object, virtual: object) -> object:
        flip = not rules.hund_tie_excludes  # type: ignore[attr-defined]
        return real(taken, holders, dataclasses.replace(rules, hund_tie_excludes=flip), virtual)

    monkeypatch.setattr(module, "round_score", round_score)
    game = get_ruleset("hund").make_game(3)
    out = equivalence_score.score_equivalence(SCORES["hund"](game, 0, {"powers": 3}), 30_000)
    assert out.status == COUNTEREXAMPLE and out.witness["model"] != out.witness["encoding"]
    assert isinstance(out.witness["model"], int)  # a wrong score, not an exception
