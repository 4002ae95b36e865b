"""The play-rule encodings (proofs/plays.py), sampled against the model's ``playable``.

A second line only: another check proves the agreement for every input. Here, on random
hands and random unfinished tricks, for every ruleset (Tiny too), player count and
reading of the options the rule depends on, the encoding allows exactly the cards the
model's ``Ruleset.playable`` returns, and no card outside the hand.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import z3

from tricklaw.model.cards import Card
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.proofs.combinations import reading_combinations
from tricklaw.proofs.plays import PLAYS, PlayEncoding, symbolic, term

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tiny  # (the example plug-in, beside this file)

SAMPLES = 12


@pytest.fixture
def with_tiny() -> Iterator[None]:
    """Tiny, registered for the test and removed after it."""
    tiny.register()
    try:
        yield
    finally:
        tiny.unregister()


class Rule:
    """One game's play rule built once per trick length, over symbolic hand, trick and
    card; each sample substitutes its concrete values (building z3 terms is the slow part)."""

    def __init__(self, enc: PlayEncoding) -> None:
        self.enc = enc
        self.held = enc.holding()
        self.card = symbolic("card")
        self.tricks = [[symbolic(f"t{i}") for i in range(n)] for n in range(enc.size)]
        self.formulas = [
            enc.legality(self.held, trick, self.card).formula for trick in self.tricks
        ]

    def allowed(self, hand: set[Card], trick: list[Card]) -> set[Card]:
        """The deck cards the encoding lets a player holding ``hand`` play to ``trick``."""
        pairs: list[tuple[Any, Any]] = [
            (h, z3.BoolVal(c in hand)) for c, h in self.held.items()
        ]
        for (colour, value), card in zip(self.tricks[len(trick)], trick, strict=True):
            pairs += [(colour, term(card)[0]), (value, term(card)[1])]
        fixed = z3.substitute(self.formulas[len(trick)], *pairs)
        out = set()
        for card in self.enc.deck():
            colour, value = term(card)
            verdict = z3.simplify(
                z3.substitute(fixed, (self.card[0], colour), (self.card[1], value))
            )
            assert z3.is_true(verdict) or z3.is_false(verdict), verdict
            if z3.is_true(verdict):
                out.add(card)
        return out


def games(ruleset_id: str) -> Iterator[Any]:
    """Every player count and reading combination the play rule depends on."""
    ruleset = get_ruleset(ruleset_id)
    cls = PLAYS[ruleset_id]
    for players in ruleset.player_counts:
        for readings in reading_combinations(ruleset, cls.readings):
            yield ruleset.make_game(players, readings)


def agree(ruleset_id: str, seed: int) -> None:
    rng = random.Random(seed)
    cls = PLAYS[ruleset_id]
    ruleset = get_ruleset(ruleset_id)
    for game in games(ruleset_id):
        enc = cls(game, {})
        rule = Rule(enc)
        deck = list(enc.deck())
        assert set(deck) == set(ruleset.deck(game.players, game.options)), "deck"
        for _ in range(SAMPLES):
            shuffled = rng.sample(deck, len(deck))
            length = rng.randrange(game.seats)
            # Lead-colour-heavy hands make the follow rules bite.
            trick = shuffled[:length]
            rest = shuffled[length:]
            if trick and rng.random() < 0.5:
                lead = trick[0] >> 5
                rest = [c for c in rest if c >> 5 != lead or rng.random() < 0.2]
            hand = rest[: rng.randrange(1, min(len(rest), 12) + 1)]
            expected = set(ruleset.playable(game, tuple(sorted(hand)), tuple(trick)))
            got = rule.allowed(set(hand), trick)
            assert got == expected, (game.players, dict(game.options.items()), hand, trick)


@pytest.mark.parametrize("ruleset_id", RULESETS.ids())
def test_the_play_encoding_agrees_with_the_model_on_samples(ruleset_id: str) -> None:
    agree(ruleset_id, seed=13)


def test_tiny_has_a_play_encoding_that_agrees(with_tiny: None) -> None:
    assert PLAYS.lookup("tiny").ruleset == "tiny"
    agree("tiny", seed=13)


def test_a_symbolic_card_and_hand_can_be_solved_for() -> None:
    """(a) the interface finds a hand: the 1993 literal reading forbids an off-colour zero
    only while the hand holds a start-colour card or a trump card."""
    ruleset = get_ruleset("sticheln-1993")
    game = ruleset.make_game(4, {"follow": "follow-or-trump"})
    enc = PLAYS["sticheln-1993"](game, {})
    held = enc.holding()
    card = symbolic("card")
    lead = term(enc.deck()[0])  # R0 leads: red is the start colour
    solver = z3.Solver()
    for item in enc.legal(held, [lead], card):
        solver.add(item.formula)
    solver.add(card[0] != lead[0], card[1] == 0, z3.PbGe([(h, 1) for h in held.values()], 2))
    assert solver.check() == z3.sat
    model = solver.model()
    hand = [c for c, h in held.items() if z3.is_true(model.eval(h, model_completion=True))]
    assert all(c & 31 == 0 and c >> 5 != 0 for c in hand), hand


def test_a_card_not_held_is_never_legal_and_the_rule_names_its_clauses() -> None:
    for ruleset_id in RULESETS.ids():
        game = get_ruleset(ruleset_id).make_game(get_ruleset(ruleset_id).player_counts[-1])
        enc = PLAYS[ruleset_id](game, {})
        held = {c: z3.BoolVal(False) for c in enc.deck()}
        legality = enc.legality(held, [], symbolic("c"))
        assert enc.hold_clause in legality.clauses
        solver = z3.Solver()
        solver.add(legality.formula)
        assert solver.check() == z3.unsat, ruleset_id
