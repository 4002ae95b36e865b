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

Positions that the rule cannot tell apart are proved once: the trick is handed to the
rule as an :class:`ObservedTrick`, which records what the rule reads of it. A rule that,
after the lead, reads only whether the trick is empty and its first card (never its
length, never a later card) runs the very same way at every later position, so it builds
the very same formula there, and the proof at the second position covers them all. A
rule that reads more (The Last's last player reads the length) is proved at each.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

import z3

from tricklaw.model.state import Game
from tricklaw.proofs.plays import PLAYS, CardTerm, Legality, PlayEncoding, symbolic, term
from tricklaw.proofs.solver import PROVED, Outcome, Tracked, check


class ObservedTrick(Sequence[CardTerm]):
    """The cards of a trick, recording what a rule reads of them: ``whole`` once it asks
    the length, iterates or slices; ``indices``, the cards it reads one by one."""

    def __init__(self, cards: Sequence[CardTerm]) -> None:
        self.cards = list(cards)
        self.whole = False
        self.indices: set[int] = set()

    def __bool__(self) -> bool:
        return bool(self.cards)

    def __len__(self) -> int:
        self.whole = True
        return len(self.cards)

    @overload
    def __getitem__(self, i: int) -> CardTerm: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[CardTerm]: ...

    def __getitem__(self, i: int | slice) -> CardTerm | Sequence[CardTerm]:
        if isinstance(i, slice) or i < 0:
            self.whole = True
            return self.cards[i]
        self.indices.add(i)
        return self.cards[i]

    def __iter__(self) -> Iterator[CardTerm]:
        self.whole = True
        return iter(self.cards)

    def reads_only_first(self) -> bool:
        """Whether the rule read nothing but emptiness and the first card."""
        return not self.whole and self.indices <= {0}


def some_card_legal(
    enc: PlayEncoding, position: int, timeout_ms: int
) -> tuple[Outcome, ObservedTrick]:
    """At ``position`` in the trick (0: the lead), some card of any non-empty hand may be
    played; a counterexample names the hand and the trick. Also what the rule read of
    the trick."""
    held = enc.holding()
    colours, values, deck_clause = enc.deck_table()
    played = symbolic("played")
    trick = [symbolic(f"trick{i}") for i in range(position)]
    seen = ObservedTrick(trick)
    # PlayEncoding.legal, with the trick observed by the rule alone (legal's own guard
    # asks the length; the positions here are those of an unfinished trick).
    parts = [Tracked(enc.hold_clause, enc.held_card(held, played)), *enc.rule(held, seen, played)]
    rule = Legality(z3.And(*[p.formula for p in parts]), tuple(sorted({p.clause for p in parts})))
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
        return empty, seen

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
    return out, seen


def play_lemma(game: Game, context: dict[str, Any], timeout_ms: int) -> tuple[list[Outcome], int]:
    """:func:`some_card_legal` at every position of a trick of ``game``, in ``context``
    (once for all the positions after the lead when the rule reads only the first card);
    the outcomes and the number of positions proved one by one."""
    return positions(PLAYS[game.ruleset.id](game, context), timeout_ms)


def positions(enc: PlayEncoding, timeout_ms: int) -> tuple[list[Outcome], int]:
    """:func:`some_card_legal` at every position of a trick under ``enc`` (once for all
    those after the lead when the rule reads only the first card); the outcomes and the
    number of positions proved one by one."""
    outs: list[Outcome] = []
    for position in range(enc.size):
        out, seen = some_card_legal(enc, position, timeout_ms)
        outs.append(out)
        if position == 1 and seen.reads_only_first():
            return outs, position + 1
    return outs, enc.size
