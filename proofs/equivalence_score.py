"""Model = clauses for the round score: the model's own score function, executed
symbolically on every pile at once, proved equal to the score encoding
(:mod:`tricklaw.proofs.scores`).

For one ruleset, player count, reading of the score rules and seat:

* the pile (the cards the seat ends the round with) is the whole deck as a
  :class:`~tricklaw.proofs.merged.GuardedList`: card ``c`` present exactly when the
  integer ``pile_<colour>_<value>`` is 1, so one run covers every pile of 0 .. ``P``
  cards (every subset of the deck; ``P`` the encoding's ``pile_limit``, the deck by
  default: more piles than a round can give, so the proof covers every real one); the
  pile is in deck order;
* the encoding's single cards (Sticheln's misery card) are symbolic cards within the
  encoding's ``card_domain``;
* the model's score function, through the encoding's ``model_score`` hook, runs on the
  *merged copy* of the model (:mod:`tricklaw.proofs.merge_rewrite`), whose per-card
  conditionals and filters become ``ite`` terms and guarded lists instead of ``2**k``
  forks; Z3 proves, path by path, that its result equals the encoding's score, and that
  every branch the executor found infeasible is infeasible.

What is proved: agreement for every pile in deck order (the order of the pile's cards is
not varied: a model whose score depends on it is not covered). A disagreement is a
counterexample whose pile is run through the merged copy again, concretely.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

import z3

from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.model.ruleset import Ruleset
from tricklaw.proofs import merge_rewrite, merged, symbolic
from tricklaw.proofs.combinations import reading_combinations
from tricklaw.proofs.equivalence import MACHINE, SEVERITY, path_count, prove_paths
from tricklaw.proofs.equivalence_legal import legal_results
from tricklaw.proofs.recorder import labelled
from tricklaw.proofs.results import Result
from tricklaw.proofs.scores import SCORES, ScoreEncoding
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED, UNKNOWN, Outcome, Tracked
from tricklaw.proofs.symbolic import Path
from tricklaw.proofs.symbolic_terms import const, make

OBLIGATION = "equivalence-score"


def _pile_name(card: Card) -> str:
    return f"pile_{colour_of(card)}_{value_of(card)}"


def score_equivalence(enc: ScoreEncoding, timeout_ms: int) -> Outcome:
    """The model's score of ``enc.seat`` equals the encoding's for every pile."""
    start = time.perf_counter()
    deck = enc.deck()
    colours, values, deck_clause = enc.deck_table()
    pile = {c: z3.Int(_pile_name(c)) for c in deck}
    cards = {n: (z3.Int(f"{n}_colour"), z3.Int(f"{n}_value")) for n in enc.cards}
    numbers = {n: z3.Int(n) for n in enc.numbers()}
    seats = range(enc.game.seats)
    if enc.every_pile:  # pile_<card> is the seat whose pile holds it, -1 for none
        domain: list[z3.BoolRef] = [z3.And(h >= -1, h < len(seats)) for h in pile.values()]
        piles = [{c: pile[c] == s for c in deck} for s in seats]  # the guards' very atoms
    else:  # pile_<card> is 1 when the seat's pile holds it
        domain = [z3.And(h >= 0, h <= 1) for h in pile.values()]
        domain.append(z3.Sum(list(pile.values())) <= enc.pile_limit())
        own = {c: pile[c] != 0 for c in deck}  # the very atoms of the guards below
        piles = [own if s == enc.seat else {} for s in seats]
    holding = piles[enc.seat]
    domain += [
        z3.And(c >= 0, c < colours, v >= values.start, v < values.stop) for c, v in cards.values()
    ]
    domain += enc.card_domain(holding, cards)
    domain += enc.number_domain(numbers)
    stated, score_clauses = enc.score_of_all(piles, cards, numbers)
    output = z3.Int("score")
    background = [*domain, output == stated]
    fits = values.start >= 0 and values.stop <= 32
    game = merge_rewrite.merged_game(enc.game)
    module = sys.modules[type(game.ruleset).__module__]
    names = {n: (str(c), str(v)) for n, (c, v) in cards.items()}

    def guard(card: Card, seat: int) -> Any:
        v = ("v", _pile_name(card))
        return make("==", v, const(seat)) if enc.every_pile else make("!=", v, const(0))

    def run() -> dict[str, Any]:
        taken = [
            merged.GuardedList.of(deck, [guard(c, s) for c in deck])
            if enc.every_pile or s == enc.seat
            else ()
            for s in seats
        ]
        singles = {
            n: symbolic.card(c, v) if fits else symbolic.variable(c) * 32 + symbolic.variable(v)
            for n, (c, v) in names.items()
        }
        ints = {n: symbolic.variable(n) for n in numbers}
        return {"score": enc.model_score_of_all(module, game, taken, singles, ints)}

    inputs = [
        *(_pile_name(c) for c in deck),
        *(x for pair in names.values() for x in pair),
        *numbers,
    ]
    explorer = symbolic.Explorer(domain, inputs)
    try:
        found = explorer.explore(run)
    finally:
        merge_rewrite.clear_caches()

    def leaf(path: Path, name: str) -> Any:
        if not isinstance(path.result, dict):
            return None
        value = path.result.get(name)
        if not (merged.is_symbolic(value) or isinstance(value, int)):
            return None
        return symbolic.z3_value(value)

    named = [Tracked(deck_clause, f) for f in domain]
    named.append(Tracked("+".join(sorted(score_clauses)) or "score", background[-1]))
    proof = prove_paths(named, {"score": output}, found.paths, leaf, timeout_ms)
    seconds = time.perf_counter() - start
    figures = f"{len(found.paths)} paths"
    ids = tuple(sorted({deck_clause, *score_clauses}))
    if proof.status == PROVED:
        return Outcome(PROVED, seconds, ids, detail=figures)
    if proof.model is None:
        return Outcome(UNKNOWN, seconds, ids, detail=f"Z3: {proof.reason}; {figures}")
    model = proof.model

    def value(x: z3.ArithRef) -> int:
        return int(model.eval(x, model_completion=True).as_long())

    fmt = enc.game.ruleset.palette.format
    owner = {c: value(pile[c]) for c in deck}
    concrete_piles = tuple(
        tuple(c for c in deck if owner[c] == (s if enc.every_pile else 1))
        if enc.every_pile or s == enc.seat
        else ()
        for s in seats
    )
    singles = {n: Card(value(c) * 32 + value(v)) for n, (c, v) in cards.items()}
    ints = {n: value(x) for n, x in numbers.items()}
    try:  # the copy the executor ran, concretely
        concrete: Any = enc.model_score_of_all(module, game, concrete_piles, singles, ints)
    except Exception as exc:  # the model raising on a valid pile is a disagreement
        concrete = f"raised {exc!r}"
    encoded = value(output)
    shown = {f"pile {s}": [fmt(c) for c in p] for s, p in enumerate(concrete_piles) if p}
    witness = {
        "seat": enc.seat,
        **({"pile": shown.get(f"pile {enc.seat}", [])} if not enc.every_pile else shown),
        **{n: fmt(c) for n, c in singles.items()},
        **ints,
        "model": concrete,
        "encoding": encoded,
    }
    if concrete != encoded:
        return Outcome(
            COUNTEREXAMPLE,
            seconds,
            ids,
            witness,
            f"model and encoding disagree; {figures}",
            MACHINE,
        )
    return Outcome(UNKNOWN, seconds, ids, witness, f"not covered ({proof.reason}); {figures}")


def score_results(
    ruleset: Ruleset[Any],
    players: int,
    chosen: Mapping[str, str],
    timeout_ms: int,
    progress: Callable[[str], None] = lambda _: None,
) -> list[Result]:
    """``equivalence-score`` for every reading of the score rules of ``ruleset`` at
    ``players``: every seat, every pile."""
    if ruleset.id not in SCORES:
        return [
            Result(
                OBLIGATION,
                ruleset.id,
                str(players),
                "default",
                "pass",
                0.0,
                detail="NOT PROVED: no score encoding is registered for this ruleset"
                " (tricklaw.proofs.scores); the score bounds and sampled checks stand",
            )
        ]
    cls = SCORES[ruleset.id]
    out: list[Result] = []
    for readings in reading_combinations(ruleset, cls.readings, chosen):
        game = ruleset.make_game(players, {**chosen, **readings})
        label = ", ".join(f"{k}={v}" for k, v in readings.items()) or "default"
        progress(f"{ruleset.id} {players}p {label}: score equivalence")
        first = cls(game, 0)
        with labelled(obligation="equivalence-score", reading=label):
            outcomes = [
                score_equivalence(cls(game, s, ctx), timeout_ms)
                for ctx in cls.contexts(game)
                for s in first.seats()
            ]
        shown = max(outcomes, key=lambda o: SEVERITY.index(o.status))
        paths = sum(path_count(o.detail) for o in outcomes)
        detail = shown.detail
        if shown.status == PROVED:
            piles = (
                "every split of the deck among the seats' piles (each pile in deck order)"
                if first.every_pile
                else f"every pile of 0-{first.pile_limit()} cards (every subset of the deck,"
                " in deck order)"
            )
            contexts = cls.contexts(game)
            detail = (
                f"{piles}, seats {first.seats().start}-{first.seats().stop - 1}"
                + (f", {len(contexts)} contexts" if len(contexts) > 1 else "")
                + f": {paths} paths"
            )
        out.append(
            Result(
                OBLIGATION,
                ruleset.id,
                str(players),
                label,
                shown.status,
                sum(o.seconds for o in outcomes),
                tuple(sorted({c for o in outcomes for c in o.clauses})),
                detail,
                shown.witness,
                shown.machine if shown.status != PROVED else "",
            )
        )
    return out


def merged_results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """verify's step for the merged copy: ``equivalence-legal``
    (:func:`~tricklaw.proofs.equivalence_legal.legal_results`) and
    ``equivalence-score`` (:func:`score_results`) of ``ruleset`` at ``players``."""
    return [
        *legal_results(ruleset, players, chosen, timeout_ms),
        *score_results(ruleset, players, chosen, timeout_ms),
    ]
