"""Model = clauses for what may be played: the model's own ``playable``, executed
symbolically on every hand at once, proved equal to the play-rule encoding
(:mod:`tricklaw.proofs.plays`).

For one ruleset, player count, reading of the play rule and trick context, and every
position in the trick (0 = the lead .. seats - 1):

* the hand is the whole deck as a :class:`~tricklaw.proofs.merged.GuardedList`: card
  ``c`` present exactly when the integer ``held_<colour>_<value>`` is 1, so one run
  covers every hand (every subset of the deck) of 1 .. ``H`` cards, ``H`` the cards a
  hand holds at the round's first play (the encoding's ``first_hand``, else the deck
  less the trick); the hand is in deck order;
* the trick so far is ``position`` symbolic cards of the deck, all distinct and none
  held (the deck clause: each card exists once);
* the model's ``ruleset.playable(game, hand, trick)`` runs on the *merged copy* of the
  model (:mod:`tricklaw.proofs.merge_rewrite`), whose filters and conditionals become
  guarded lists and ``ite`` terms instead of ``2**k`` forks; on each path, for each deck
  card, whether the result holds it, and whether the result holds anything the hand
  does not (``stray``, must be 0);
* Z3 proves, path by path, that card ``c`` is in the result exactly when the encoding's
  :meth:`~tricklaw.proofs.plays.PlayEncoding.legality` allows it, and that every branch
  the executor found infeasible is infeasible.

What is proved: agreement for every hand the game can hold and every trick prefix, in
deck order (the order of a hand's cards is not varied: the proof says nothing about a
model whose answer depends on it). A disagreement is a counterexample whose hand and
trick are run through the merged copy again, concretely.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import z3

from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.model.ruleset import Ruleset
from tricklaw.proofs import merge_rewrite, merged, symbolic
from tricklaw.proofs.combinations import reading_combinations
from tricklaw.proofs.equivalence import MACHINE, SEVERITY, path_count, prove_paths
from tricklaw.proofs.plays import PLAYS, PlayEncoding, is_card, term
from tricklaw.proofs.plays import symbolic as symbolic_card
from tricklaw.proofs.recorder import labelled
from tricklaw.proofs.results import Result
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED, UNKNOWN, Outcome, Tracked
from tricklaw.proofs.symbolic import Path
from tricklaw.proofs.symbolic_terms import FALSE, const, make

OBLIGATION = "equivalence-legal"


def _cards(prefix: str, count: int) -> list[tuple[z3.ArithRef, z3.ArithRef]]:
    return [(z3.Int(f"{prefix}{i}_colour"), z3.Int(f"{prefix}{i}_value")) for i in range(count)]


def _held_name(card: Card) -> str:
    return f"held_{colour_of(card)}_{value_of(card)}"


def hand_limit(enc: PlayEncoding, position: int) -> tuple[int, str]:
    """The most cards a hand holds (and the clause saying so, or ``""``)."""
    first = enc.first_hand()
    if first is None:
        return len(enc.deck()) - position, ""
    return first


Apart = dict[tuple[int, Card], z3.BoolRef]
"""The deck facts "no hand holds the card the ``i``-th trick card is", by ``(i, card)``,
built once for every position and reading of one :func:`legal_results` call (one Z3
context): the same terms over the same variables (``trick<i>_colour``, ``held_<card>``),
which took an eighth of the step to build again for each."""


def _apart(
    i: int,
    trick_card: tuple[z3.ArithRef, z3.ArithRef],
    card: Card,
    held: z3.ArithRef,
    built: Apart | None,
) -> z3.BoolRef:
    """If the ``i``-th trick card (``trick_card``) is ``card``, no hand holds it
    (``held``, its variable): from ``built`` when it was made before."""
    if built is None:
        return z3.Implies(is_card(trick_card, card), held == 0)
    found = built.get((i, card))
    if found is None:
        found = built[(i, card)] = z3.Implies(is_card(trick_card, card), held == 0)
    return found


def legal_equivalence(
    enc: PlayEncoding, position: int, timeout_ms: int, built: Apart | None = None
) -> Outcome:
    """The model's ``playable`` equals the encoding for every hand the game can hold
    played onto every trick of ``position`` cards (``built``: see :data:`Apart`)."""
    start = time.perf_counter()
    deck = enc.deck()
    colours, values, deck_clause = enc.deck_table()
    trick_cards = _cards("trick", position)
    held = {c: z3.Int(_held_name(c)) for c in deck}
    limit, limit_clause = hand_limit(enc, position)
    domain: list[z3.BoolRef] = [z3.And(h >= 0, h <= 1) for h in held.values()]
    domain += [z3.Sum(list(held.values())) >= 1, z3.Sum(list(held.values())) <= limit]
    domain += [
        z3.And(c >= 0, c < colours, v >= values.start, v < values.stop) for c, v in trick_cards
    ]
    domain += [
        z3.Or(a[0] != b[0], a[1] != b[1])
        for i, a in enumerate(trick_cards)
        for b in trick_cards[i + 1 :]
    ]
    domain += [_apart(i, t, c, held[c], built) for i, t in enumerate(trick_cards) for c in deck]
    holding = {c: held[c] != 0 for c in deck}  # the very atoms of the guards below
    flags = {f"legal_{j}": z3.Int(f"legal_{j}") for j in range(len(deck))}
    flags["stray"] = z3.Int("stray")
    rules: list[z3.BoolRef] = [flags["stray"] == 0]
    clauses = {deck_clause} | ({limit_clause} if limit_clause else set())
    played = symbolic_card("played")  # the rule stated once, then instantiated per card
    legality = enc.legality(holding, trick_cards, played)
    clauses.update(legality.clauses)
    for j, card in enumerate(deck):
        colour, value = term(card)
        formula = z3.substitute(legality.formula, (played[0], colour), (played[1], value))
        rules.append(flags[f"legal_{j}"] == z3.If(formula, 1, 0))
    fits = values.start >= 0 and values.stop <= 32
    game = merge_rewrite.merged_game(enc.game)
    names = [(str(c), str(v)) for c, v in trick_cards]

    def run() -> dict[str, Any]:
        guards = [make("!=", ("v", _held_name(c)), const(0)) for c in deck]
        hand = merged.GuardedList.of(deck, guards)
        trick = tuple(
            symbolic.card(c, v) if fits else symbolic.variable(c) * 32 + symbolic.variable(v)
            for c, v in names
        )
        result = game.ruleset.playable(game, hand, trick)
        if not isinstance(result, tuple | list | merged.GuardedList):
            raise TypeError(f"playable gave a {type(result).__name__}")
        items = merged.GuardedList(merged.iterate(result)).items
        concrete: dict[int, Any] = {}  # a concrete card: the disjunction of its guards
        for e, g in items:
            if not merged.is_symbolic(e):
                concrete[e] = merged.disj(concrete.get(e, FALSE), g)
        symbolic_items = [(e, g) for e, g in items if merged.is_symbolic(e)]
        out = {
            f"legal_{j}": merged.ite_value(
                merged.any_of(
                    [
                        concrete.get(c, FALSE),
                        *(merged.conj(g, merged.equal(e, c)) for e, g in symbolic_items),
                    ]
                ),
                1,
                0,
            )
            for j, c in enumerate(deck)
        }
        holds = dict(hand.items)  # each deck card's guard in the hand

        def held(e: Any) -> Any:
            return hand.has(e) if merged.is_symbolic(e) else holds.get(e, FALSE)

        stray = merged.any_of(merged.conj(g, merged.negation(held(e))) for e, g in items)
        out["stray"] = merged.ite_value(stray, 1, 0)
        return out

    inputs = [*(_held_name(c) for c in deck), *(x for pair in names for x in pair)]
    explorer = symbolic.Explorer(domain, inputs)
    try:
        found = explorer.explore(run)
    finally:
        merge_rewrite.clear_caches()

    def leaf(path: Path, name: str) -> Any:
        return symbolic.z3_value(path.result.get(name)) if isinstance(path.result, dict) else None

    rule_name = "+".join(sorted(legality.clauses)) or "legality"
    background = [Tracked(deck_clause, f) for f in domain] + [Tracked(rule_name, f) for f in rules]
    proof = prove_paths(background, flags, found.paths, leaf, timeout_ms)
    seconds = time.perf_counter() - start
    figures = f"{len(found.paths)} paths"
    ids = tuple(sorted(clauses))
    if proof.status == PROVED:
        return Outcome(PROVED, seconds, ids, detail=figures)
    if proof.model is None:
        return Outcome(UNKNOWN, seconds, ids, detail=f"Z3: {proof.reason}; {figures}")
    return _witness(
        enc,
        proof.model,
        deck=deck,
        held=held,
        trick_cards=trick_cards,
        flags=flags,
        reason=proof.reason,
        seconds=seconds,
        ids=ids,
        figures=figures,
    )


def _witness(
    enc: PlayEncoding,
    model: z3.ModelRef,
    *,
    deck: tuple[Card, ...],
    held: Mapping[Card, z3.ArithRef],
    trick_cards: list[tuple[z3.ArithRef, z3.ArithRef]],
    flags: Mapping[str, z3.ArithRef],
    reason: str,
    seconds: float,
    ids: tuple[str, ...],
    figures: str,
) -> Outcome:
    """A failed path proof, confirmed (or not) by running the merged copy on the witness."""
    fmt = enc.game.ruleset.palette.format

    def value(x: z3.ArithRef) -> int:
        return int(model.eval(x, model_completion=True).as_long())

    hand = tuple(c for c in deck if value(held[c]) == 1)
    trick = tuple(Card(value(c) * 32 + value(v)) for c, v in trick_cards)
    try:
        game = merge_rewrite.merged_game(enc.game)  # the copy the executor ran
        allowed = sorted({fmt(c) for c in game.ruleset.playable(game, hand, trick)})
    except Exception as exc:  # the model raising on a valid position is a disagreement
        allowed = [f"raised {exc!r}"]
    encoded = sorted(fmt(c) for j, c in enumerate(deck) if value(flags[f"legal_{j}"]) == 1)
    witness = {
        "hand": [fmt(c) for c in hand],
        "trick": [fmt(c) for c in trick],
        "model": allowed,
        "encoding": encoded,
    }
    status = COUNTEREXAMPLE if allowed != encoded else UNKNOWN
    why = "model and encoding disagree" if status == COUNTEREXAMPLE else reason
    return Outcome(
        status,
        seconds,
        ids,
        witness,
        f"{why}; {figures}",
        MACHINE if status == COUNTEREXAMPLE else "",
    )


def legal_results(
    ruleset: Ruleset[Any],
    players: int,
    chosen: Mapping[str, str],
    timeout_ms: int,
    progress: Callable[[str], None] = lambda _: None,
) -> list[Result]:
    """``equivalence-legal`` for every reading of the play rule of ``ruleset`` at
    ``players``: every trick context and position, every hand the game can hold."""
    cls = PLAYS[ruleset.id]
    out: list[Result] = []
    built: Apart = {}
    for readings in reading_combinations(ruleset, cls.readings, chosen):
        game = ruleset.make_game(players, {**chosen, **readings})
        label = ", ".join(f"{k}={v}" for k, v in readings.items()) or "default"
        progress(f"{ruleset.id} {players}p {label}: legal equivalence")
        outcomes = []
        for ctx in cls.contexts(game):
            enc = cls(game, ctx)
            with labelled(obligation="equivalence-legal", reading=label):
                outcomes += [
                    legal_equivalence(enc, p, timeout_ms, built) for p in range(game.seats)
                ]
        shown = max(outcomes, key=lambda o: SEVERITY.index(o.status))
        paths = sum(path_count(o.detail) for o in outcomes)
        seconds = sum(o.seconds for o in outcomes)
        limit, _ = hand_limit(cls(game, cls.contexts(game)[0]), 0)
        detail = shown.detail
        if shown.status == PROVED:
            detail = (
                f"every hand of 1-{limit} cards (every subset of the deck, in deck order),"
                f" every trick position 0-{game.seats - 1}: {paths} paths"
            )
        out.append(
            Result(
                OBLIGATION,
                ruleset.id,
                str(players),
                label,
                shown.status,
                seconds,
                tuple(sorted({c for o in outcomes for c in o.clauses})),
                detail,
                shown.witness,
                shown.machine if shown.status != PROVED else "",
            )
        )
    return out
