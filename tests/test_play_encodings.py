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


class Rule:
    """One game's play rule built once per trick length, over symbolic hand, trick and
    card; each sample substitutes its concrete values (building z3 terms is the slow part)."""

    def __init__(self, enc: PlayEncoding) -> None:
        self.enc = enc
        self.held = enc.holding()
        self.card = symbolic("card")
        self.tricks = [[symbolic(f"t{i}") for i in range(n)] for n in range(enc.size)]
        self.formulas = [enc.legality(self.held, trick, self.card).formula for trick in self.tricks]

    def allowed(self, hand: set[Card], trick: list[Card]) -> set[Card]:
        """The cards the encoding lets a player holding ``hand`` play to ``trick``, of his
        hand and a spread of the other cards of the deck."""
        pairs: list[tuple[Any, Any]] = [
            (h, z3.BoolVal(c in hand)) for c, h in self.held.items()
        ]
        for (colour, value), card in zip(self.tricks[len(trick)], trick, strict=True):
            pairs += [(colour, term(card)[0]), (value, term(card)[1])]
        fixed = z3.substitute(self.formulas[len(trick)], *pairs)
        out = set()
        # Every hand card, and a few others (which are never legal).
        others = [c for c in self.enc.deck() if c not in hand]
        for card in [*hand, *others[:: max(1, len(others) // 4)]]:
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
            assert got == expected, (game.players, game.options, hand, trick)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", RULESETS.ids())
def test_the_play_encoding_agrees_with_the_model_on_samples(ruleset_id: str) -> None:
    agree(ruleset_id, seed=13)


def test_tiny_has_a_play_encoding_that_agrees() -> None:
    with tiny.registered() as tiny_id:
        assert PLAYS.lookup(tiny_id).ruleset == tiny_id
        agree(tiny_id, seed=13)


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


def test_the_sampled_check_catches_a_wrong_rule() -> None:
    """A mutant that forgets lowhigh's duty to follow is caught by the samples."""
    right = PLAYS["lowhigh"]

    class Forgetful(right):  # type: ignore[valid-type,misc]
        def rule(self, held: Any, trick: Any, card: Any) -> list[Any]:
            return []

    PLAYS.unregister("lowhigh")
    PLAYS.register("lowhigh", Forgetful)
    try:
        with pytest.raises(AssertionError):
            agree("lowhigh", seed=13)
    finally:
        PLAYS.unregister("lowhigh")
        PLAYS.register("lowhigh", right)


@pytest.mark.slow
def test_in_deck_is_the_deck() -> None:
    for ruleset_id in RULESETS.ids():
        for game in games(ruleset_id):
            enc = PLAYS[ruleset_id](game, {})
            inside = {
                c
                for c in range(6 * 32)
                if z3.is_true(z3.simplify(enc.in_deck(term(Card(c)))))
            }
            assert inside == set(enc.deck()), (ruleset_id, game.players)


SLOW_NEGATION = {"sticheln-1993"}
"""The rulesets whose negation test is minutes (every reading of Sticheln 1993): the slow
tier's; the fast tier checks the others."""


@pytest.mark.slow
@pytest.mark.parametrize(
    "ruleset_id",
    [pytest.param(r, marks=pytest.mark.slow) if r in SLOW_NEGATION else r for r in RULESETS.ids()],
)
def test_the_negation_is_usable_a_nonempty_hand_has_a_legal_card(ruleset_id: str) -> None:
    """(b) of the interface: with ``legality`` negated for every card, a non-empty hand
    and a symbolic unfinished trick (cards of the deck, distinct, not held) admit no
    model, under every reading, for every trick length; the premises alone do (so the
    proof is not vacuous)."""
    ruleset = get_ruleset(ruleset_id)
    for game in games(ruleset_id):
        if game.players != ruleset.player_counts[0]:
            continue
        enc = PLAYS[ruleset_id](game, {})
        held = enc.holding()
        for length in range(game.seats):
            trick = [symbolic(f"t{i}") for i in range(length)]
            premises = [z3.Or(*held.values())]
            for i, card in enumerate(trick):
                premises.append(enc.in_deck(card))
                premises += [z3.Or(card[0] != o[0], card[1] != o[1]) for o in trick[:i]]
                premises += [
                    z3.Implies(h, z3.Or(card[0] != (c >> 5), card[1] != (c & 31)))
                    for c, h in held.items()
                ]
            solver = z3.Solver()
            solver.add(*premises)
            assert solver.check() == z3.sat
            legal = [enc.legality(held, trick, term(c)).formula for c in enc.deck()]
            solver.add(z3.Not(z3.Or(*legal)))
            assert solver.check() == z3.unsat, (ruleset_id, game.options, length)
