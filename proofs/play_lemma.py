"""The play rule allows some card of every non-empty hand: liveness's second lemma.

The progress machines (:mod:`tricklaw.proofs.liveness`) guard a card played by "the seat
to act holds a card". That stands for a legal action only if the play rule never forbids
every card of a non-empty hand. For each ruleset, player count, reading of the play rule
and context of its play encoding (:data:`~tricklaw.proofs.plays.PLAYS`, written from the
clauses), and for **every position in the trick** (the leader's, each follower's, the
last player's), Z3 checks that

    the hand holds some card  and  the cards already played are cards of the deck
    and  no card of the deck is legal

is unsatisfiable, over every hand (each card of the deck held or not: all hands at
once). The premises are satisfiable (checked: a hand and a trick exist), so the proof is
not vacuous. The legality of each card of the deck is the encoding's own formula for a
symbolic card, instantiated by substitution.
"""

from __future__ import annotations

from typing import Any

import z3

from tricklaw.model.state import Game
from tricklaw.proofs.plays import PLAYS, PlayEncoding, symbolic, term
from tricklaw.proofs.solver import PROVED, Outcome, Tracked, check


def some_card_legal(
    enc: PlayEncoding, position: int, timeout_ms: int, before: z3.BoolRef | None = None
) -> tuple[Outcome, z3.BoolRef]:
    """At ``position`` in the trick (0: the lead), some card of any non-empty hand may be
    played; a counterexample names the hand and the trick. Also the rule's formula at this
    position: when it is the very formula ``before`` (the previous position's, which then
    reads no card this position adds), the previous proof covers this one and is not
    repeated."""
    held = enc.holding()
    colours, values, deck_clause = enc.deck_table()
    played = symbolic("played")
    trick = [symbolic(f"trick{i}") for i in range(position)]
    rule = enc.legality(held, trick, played)
    if before is not None and rule.formula.eq(before):
        same = Outcome(PROVED, 0.0, rule.clauses, detail="as the position before")
        return same, rule.formula
    legal = [
        z3.substitute(rule.formula, (played[0], colour), (played[1], value))
        for colour, value in (term(c) for c in enc.deck())
    ]
    premises = [
        Tracked("hypothesis:hand-not-empty", z3.Or(*held.values())),
        *[
            Tracked(
                deck_clause,
                z3.And(c >= 0, c < colours, v >= values.start, v < values.stop),
            )
            for c, v in trick
        ],
    ]
    if check(premises, timeout_ms).status == PROVED:  # no hand and trick at all: vacuous
        empty = Outcome("fail", 0.0, (), detail=f"position {position}: premises unsatisfiable")
        return empty, rule.formula

    def decode(m: z3.ModelRef) -> dict[str, Any]:
        fmt = enc.game.ruleset.palette.format
        hand = [fmt(c) for c, h in held.items() if z3.is_true(m.eval(h, model_completion=True))]
        cards = [
            (m.eval(c, model_completion=True).as_long(), m.eval(v, model_completion=True).as_long())
            for c, v in trick
        ]
        return {"position": position, "hand": hand, "trick": cards}

    out = check(
        [*premises, Tracked("claim:no-card-legal", z3.Not(z3.Or(*legal)))], timeout_ms, decode
    )
    out.clauses = tuple(sorted({*out.clauses, *rule.clauses}))
    return out, rule.formula


def play_lemma(game: Game, context: dict[str, Any], timeout_ms: int) -> tuple[list[Outcome], int]:
    """:func:`some_card_legal` at every position of a trick of ``game``, in ``context``;
    the outcomes and the number of positions."""
    enc = PLAYS[game.ruleset.id](game, context)
    outs: list[Outcome] = []
    formula: z3.BoolRef | None = None
    for position in range(enc.size):
        out, formula = some_card_legal(enc, position, timeout_ms, formula)
        outs.append(out)
    return outs, enc.size
