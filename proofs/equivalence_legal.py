"""Model = clauses for what may be played: the model's own ``playable``, executed
symbolically, proved equal to the play-rule encoding (:mod:`tricklaw.proofs.plays`).

For one ruleset, player count and reading of the play rule, every position in the trick
(0 = the lead .. seats - 1) and every hand size ``k`` up to :data:`HAND_LIMIT`:

* the hand is ``k`` symbolic cards and the trick so far ``t`` more, all distinct cards
  of the deck (the deck clause); ``held`` (the encoding's input) is "one of the hand's
  cards";
* the model's ``ruleset.playable(game, hand, trick)`` runs on them under the executor
  of :mod:`tricklaw.proofs.symbolic`; on each path, for each hand card, whether the
  result contains it, and that the result holds nothing but hand cards;
* Z3 proves, path by path, that hand card ``j`` is in the result exactly when the
  encoding's :meth:`~tricklaw.proofs.plays.PlayEncoding.legality` allows it.

What is proved: agreement for every hand of at most :data:`HAND_LIMIT` cards (in any
order: the hand is a sequence of symbolic cards) and every trick prefix. Hands of more
cards are *not* covered by the proof (a filter over ``k`` cards forks ``2**k`` ways);
the detail says so, and the play encodings' own sampled check covers real hands.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import z3

from tricklaw.model.ruleset import Ruleset
from tricklaw.proofs import plain, symbolic
from tricklaw.proofs.combinations import reading_combinations
from tricklaw.proofs.equivalence import MACHINE, SEVERITY, prove_paths
from tricklaw.proofs.obligations import Result
from tricklaw.proofs.plays import PLAYS, PlayEncoding
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED, UNKNOWN, Outcome
from tricklaw.proofs.symbolic import Path

HAND_LIMIT = 3
"""The largest hand the proof covers (its paths grow as ``2**k``)."""


def _cards(prefix: str, count: int) -> list[tuple[z3.ArithRef, z3.ArithRef]]:
    return [(z3.Int(f"{prefix}{i}_colour"), z3.Int(f"{prefix}{i}_value")) for i in range(count)]


def legal_equivalence(enc: PlayEncoding, position: int, hand: int, timeout_ms: int) -> Outcome:
    """The model's ``playable`` equals the encoding for every hand of ``hand`` cards
    played onto every trick of ``position`` cards."""
    start = time.perf_counter()
    colours, values, deck_clause = enc.deck_table()
    held_cards, trick_cards = _cards("hand", hand), _cards("trick", position)
    every = [*held_cards, *trick_cards]
    domain: list[z3.BoolRef] = [
        z3.And(c >= 0, c < colours, v >= values.start, v < values.stop) for c, v in every
    ]
    domain += [
        z3.Or(a[0] != b[0], a[1] != b[1]) for i, a in enumerate(every) for b in every[i + 1 :]
    ]
    held = {
        card: z3.Or(*[z3.And(c == card >> 5, v == card & 31) for c, v in held_cards])
        for card in enc.deck()
    }
    flags = {f"legal_{j}": z3.Int(f"legal_{j}") for j in range(hand)}
    rules: list[z3.BoolRef] = []
    clauses = {deck_clause}
    for j, card in enumerate(held_cards):
        legality = enc.legality(held, trick_cards, card)
        clauses.update(legality.clauses)
        rules.append(flags[f"legal_{j}"] == z3.If(legality.formula, 1, 0))
    fits = values.start >= 0 and values.stop <= 32
    game = plain.game_for(enc.game)

    def make(cards: list[tuple[z3.ArithRef, z3.ArithRef]]) -> tuple[Any, ...]:
        names = [(str(c), str(v)) for c, v in cards]
        if fits:
            return tuple(symbolic.card(c, v) for c, v in names)
        return tuple(symbolic.variable(c) * 32 + symbolic.variable(v) for c, v in names)

    def run() -> dict[str, Any]:
        hand_now, trick_now = make(held_cards), make(trick_cards)
        result = game.ruleset.playable(game, hand_now, trick_now)
        if any(all(r is not h for h in hand_now) for r in result):
            raise ValueError("the model allows a card that is not in the hand")
        return {f"legal_{j}": int(any(r is h for r in result)) for j, h in enumerate(hand_now)}

    names = [str(x) for card in every for x in card]
    explorer = symbolic.Explorer(domain, names)
    found = explorer.explore(run)

    def leaf(path: Path, name: str) -> Any:
        return symbolic.z3_value(path.result.get(name)) if isinstance(path.result, dict) else None

    proof = prove_paths([*domain, *rules], flags, found.paths, leaf, timeout_ms)
    seconds = time.perf_counter() - start
    figures = f"{len(found.paths)} paths"
    ids = tuple(sorted(clauses))
    if proof.status == PROVED:
        return Outcome(PROVED, seconds, ids, detail=figures)
    if proof.model is None:
        return Outcome(UNKNOWN, seconds, ids, detail=f"Z3: {proof.reason}; {figures}")
    model = proof.model
    fmt = enc.game.ruleset.palette.format

    def concrete(cards: list[tuple[z3.ArithRef, z3.ArithRef]]) -> list[Any]:
        return [
            model.eval(c, model_completion=True).as_long() * 32
            + model.eval(v, model_completion=True).as_long()
            for c, v in cards
        ]

    hand_c, trick_c = concrete(held_cards), concrete(trick_cards)
    try:
        game = plain.game_for(enc.game)  # the copy the executor ran (plain or compiled)
        allowed = [fmt(c) for c in game.ruleset.playable(game, tuple(hand_c), tuple(trick_c))]
    except Exception as exc:  # the model raising on a valid position is a disagreement
        allowed = [f"raised {exc!r}"]
    encoded = [
        fmt(c)
        for j, c in enumerate(hand_c)
        if model.eval(flags[f"legal_{j}"], model_completion=True).as_long() == 1
    ]
    witness = {
        "hand": [fmt(c) for c in hand_c],
        "trick": [fmt(c) for c in trick_c],
        "model": allowed,
        "encoding": encoded,
    }
    status = COUNTEREXAMPLE if sorted(allowed) != sorted(encoded) else UNKNOWN
    why = "model and encoding disagree" if status == COUNTEREXAMPLE else proof.reason
    return Outcome(status, seconds, ids, witness, f"{why}; {figures}", MACHINE)


def legal_results(
    ruleset: Ruleset[Any],
    players: int,
    chosen: Mapping[str, str],
    timeout_ms: int,
    progress: Callable[[str], None] = lambda _: None,
) -> list[Result]:
    """``equivalence-legal`` for every reading of the play rule of ``ruleset`` at
    ``players``: every trick position, hands of 1 .. :data:`HAND_LIMIT` cards."""
    cls = PLAYS[ruleset.id]
    out: list[Result] = []
    for readings in reading_combinations(ruleset, cls.readings, chosen):
        game = ruleset.make_game(players, {**chosen, **readings})
        label = ", ".join(f"{k}={v}" for k, v in readings.items()) or "default"
        progress(f"{ruleset.id} {players}p {label}: legal equivalence")
        outcomes = [
            legal_equivalence(cls(game, ctx), position, hand, timeout_ms)
            for ctx in cls.contexts(game)
            for position in range(game.seats)
            for hand in range(1, HAND_LIMIT + 1)
        ]
        shown = max(outcomes, key=lambda o: SEVERITY.index(o.status))
        paths = sum(
            int(o.detail.split(" paths")[0].rsplit(" ", 1)[-1])
            for o in outcomes
            if o.detail.split(" paths")[0].rsplit(" ", 1)[-1].isdigit()
        )
        detail = shown.detail
        if shown.status == PROVED:
            detail = (
                f"every trick position, hands of 1-{HAND_LIMIT} cards (larger hands: not"
                f" proved), {paths} paths in all"
            )
        out.append(
            Result(
                "equivalence-legal",
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
