"""The edition diff's Z3 aspects: trick resolution, the no-winner cases and the play rule,
each compared on one shared symbolic input.

* ``trick``: the two trick encodings (:data:`~tricklaw.proofs.encodings.ENCODINGS`) over
  the same trick variables (``colour_i``, ``value_i``), the second's outcome renamed; Z3
  looks for a trick of both decks on which the outcomes differ;
* ``no-winner``: a trick that one encoding's no-winner condition holds for and the
  other's not;
* ``play``: the two play-rule encodings (:data:`~tricklaw.proofs.plays.PLAYS`) over the
  same held cards, unfinished trick and card played; Z3 looks for a card one allows and
  the other forbids, for every length of trick.

Each runs the fewest players first; a difference is then minimised (the smallest values,
then the fewest held cards, then the cards in play order) with
:func:`~tricklaw.proofs.solver.optimum`. ``unsat`` at every player count is ``proved``;
a time-out is ``unknown``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import z3

from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.proofs.edition_sides import Comparison, Side
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.plays import PLAYS, CardTerm, Legality, PlayEncoding, symbolic
from tricklaw.proofs.scores import SCORES
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED, UNKNOWN, Tracked, check, optimum
from tricklaw.proofs.tricks import TrickEncoding


def _encodings(a: Side, b: Side, n: int) -> list[tuple[TrickEncoding, TrickEncoding]]:
    """The two encodings at ``n`` players for every trick context the two share."""
    game_a, game_b = a.game(n), b.game(n)
    cls_a, cls_b = ENCODINGS[a.id], ENCODINGS[b.id]
    contexts_b = cls_b.contexts(game_b)
    return [
        (cls_a(game_a, ctx), cls_b(game_b, ctx))
        for ctx in cls_a.contexts(game_a)
        if ctx in contexts_b
    ]


def _z3_compare(
    a: Side,
    b: Side,
    counts: Sequence[int],
    timeout_ms: int,
    *,
    name: str,
    claim: Callable[[TrickEncoding, TrickEncoding], tuple[list[Tracked], z3.BoolRef]],
) -> Comparison:
    """Z3 looks for a trick, in both decks, on which ``claim``'s difference holds; the
    fewest players first, and the witness with the smallest values, then colours."""
    how = "Z3, every trick at every player count"
    spent, clauses = 0.0, set[str]()
    for n in counts:
        for enc_a, enc_b in _encodings(a, b, n):
            rules, difference = claim(enc_a, enc_b)
            tracked = [
                *enc_a.domain(),
                *enc_b.domain(),
                *rules,
                Tracked(f"diff:{name}", difference),
            ]
            out = check(tracked, timeout_ms)
            spent += out.seconds
            if out.status == UNKNOWN:
                return Comparison(UNKNOWN, how, f"{n} players: {out.detail}", seconds=spent)
            if out.status == PROVED:
                clauses |= set(out.clauses)
                continue
            size = _smallness(enc_a)
            status, _, model = optimum(tracked, size, False, timeout_ms)
            if status != PROVED or model is None:
                return Comparison(UNKNOWN, how, f"{n} players: no minimal witness", seconds=spent)
            wa, wb = enc_a.decode(model), enc_b.decode(model)
            witness = {
                "players": n,
                "trick": wa["trick"],
                **({"trick_b": wb["trick"]} if wb["trick"] != wa["trick"] else {}),
                **({"context": enc_a.context} if enc_a.context else {}),
                a.id: {k: v for k, v in wa.items() if k != "trick"},
                b.id: {k: v for k, v in _outcome_b(enc_b, model).items()},
            }
            return Comparison(
                COUNTEREXAMPLE,
                how,
                f"{n} players, trick {' '.join(wa['trick'])}: "
                f"{a.id} {_said(witness[a.id], wa['trick'])}, "
                f"{b.id} {_said(witness[b.id], wb['trick'])}",
                witness,
                tuple(sorted(out.clauses)),
                spent,
            )
    return Comparison(PROVED, how, clauses=tuple(sorted(clauses)), seconds=spent)


_B_TAG = "b"


def _smallness(enc: TrickEncoding) -> z3.ArithRef:
    """What the witness minimises: the sum of the values first, then the cards in play
    order (value, then colour index), so that the witness is the smallest trick."""
    weight = 128  # above value * 8 + colour for every card of a deck of 15 values, 8 colours
    order = [
        (v * 8 + c) * weight ** (enc.size - 1 - i)
        for i, (v, c) in enumerate(zip(enc.value, enc.colour, strict=True))
    ]
    return z3.Sum(enc.value) * weight**enc.size + z3.Sum(order)


def _outcome_b(enc_b: TrickEncoding, model: z3.ModelRef) -> dict[str, Any]:
    out = enc_b.fresh_outcome(_B_TAG)
    return {k: model.eval(v, model_completion=True).as_long() for k, v in out.items()}


def _said(outcome: Mapping[str, Any], cards: Sequence[str]) -> str:
    """An edition's outcome of the witness trick ``cards`` as a player says it: who takes
    the trick, by seat from the leader and card, as ``tricklaw trick`` does."""
    parts = []
    for key, value in outcome.items():
        if key in {"winner", "nobody"}:
            who = "the leader" if value == 0 else f"seat +{value}"
            parts.append(
                "gives it to nobody" if value == -1 else f"gives it to {who} ({cards[value]})"
            )
        else:
            parts.append(f"{key}={value}")
    return ", ".join(parts)


def trick(a: Side, b: Side, counts: Sequence[int], timeout_ms: int) -> Comparison:
    """A trick on which the two trick rules give different outcomes."""

    def claim(enc_a: TrickEncoding, enc_b: TrickEncoding) -> tuple[list[Tracked], z3.BoolRef]:
        out_b = enc_b.fresh_outcome(_B_TAG)
        keys = [k for k in enc_a.outcome if k in out_b]
        rules = [*enc_a.resolution(enc_a.outcome), *enc_b.resolution(out_b)]
        return rules, z3.Or(*[enc_a.outcome[k] != out_b[k] for k in keys])

    return _z3_compare(a, b, counts, timeout_ms, name="trick", claim=claim)


def no_winner(a: Side, b: Side, counts: Sequence[int], timeout_ms: int) -> Comparison:
    """A trick that one text gives to nobody and the other does not."""

    def claim(enc_a: TrickEncoding, enc_b: TrickEncoding) -> tuple[list[Tracked], z3.BoolRef]:
        nobody_a = z3.Bool("nobody_a")
        nobody_b = z3.Bool("nobody_b")
        rules = [
            Tracked(f"{a.id}:no-winner", nobody_a == enc_a.no_winner_condition()),
            Tracked(f"{b.id}:no-winner", nobody_b == enc_b.no_winner_condition()),
            # the outcome variables, so that the witness can show them
            *enc_a.resolution(enc_a.outcome),
            *enc_b.resolution(enc_b.fresh_outcome(_B_TAG)),
        ]
        return rules, nobody_a != nobody_b

    return _z3_compare(a, b, counts, timeout_ms, name="no-winner", claim=claim)


# --- the play rule ------------------------------------------------------------------------


def _in_deck(card: CardTerm, deck: Sequence[Card]) -> z3.BoolRef:
    """``card`` is one of ``deck``: per colour, its values (a range where they run on)."""
    by_colour: dict[int, list[int]] = {}
    for c in deck:
        by_colour.setdefault(colour_of(c), []).append(value_of(c))
    parts = []
    for colour, values in sorted(by_colour.items()):
        low, high = min(values), max(values)
        if sorted(values) == list(range(low, high + 1)):
            allowed = z3.And(low <= card[1], card[1] <= high)
        else:
            allowed = z3.Or(*[card[1] == v for v in values])
        parts.append(z3.And(card[0] == colour, allowed))
    return z3.Or(*parts)


def _play_case(
    pa: PlayEncoding, pb: PlayEncoding, deck: Sequence[Card], length: int
) -> tuple[list[Tracked], dict[Card, z3.BoolRef], list[CardTerm], CardTerm, Legality, Legality]:
    """The shared symbolic input (held cards, a trick of ``length`` cards, the card
    played) and the claim that the two rules disagree on it, as tracked assertions."""
    held = {c: z3.Bool(f"held_{colour_of(c)}_{value_of(c)}") for c in deck}
    trick = [symbolic(f"trick_{i}") for i in range(length)]
    card = symbolic("card")
    # "held at (colour, value)" as a function, so that "a trick card is not held" is one
    # term per card instead of one per card of the deck
    held_at = z3.Function("held_at", z3.IntSort(), z3.IntSort(), z3.BoolSort())
    holding = [held_at(colour_of(c), value_of(c)) == h for c, h in held.items()]
    in_deck = [_in_deck(t, deck) for t in (*trick, card)]
    distinct = [
        z3.Or(s[0] != t[0], s[1] != t[1]) for i, s in enumerate(trick) for t in trick[i + 1 :]
    ]
    not_held = [z3.Not(held_at(t[0], t[1])) for t in trick]
    la, lb = pa.legality(held, trick, card), pb.legality(held, trick, card)
    tracked = [
        Tracked(pa.deck_clause, z3.And(*holding, *in_deck, *distinct, *not_held)),
        Tracked("diff:play", la.formula != lb.formula),
    ]
    return tracked, held, trick, card, la, lb


def _allowed(
    model: z3.ModelRef, legality: Legality, card: CardTerm, hand: Sequence[Card]
) -> list[Card]:
    """The cards of ``hand`` that ``legality`` allows in ``model``."""
    out = []
    for c in hand:
        formula = z3.substitute(
            legality.formula, (card[0], z3.IntVal(colour_of(c))), (card[1], z3.IntVal(value_of(c)))
        )
        if z3.is_true(model.eval(formula, model_completion=True)):
            out.append(c)
    return out


def _play_witness(
    a: Side, b: Side, n: int, model: z3.ModelRef, case: tuple[Any, ...]
) -> dict[str, Any]:
    _, held, trick, card, la, lb = case
    hand = [c for c, h in held.items() if z3.is_true(model.eval(h, model_completion=True))]
    cards = [
        (model.eval(t[0], model_completion=True).as_long() << 5)
        | model.eval(t[1], model_completion=True).as_long()
        for t in trick
    ]
    fmt = a.ruleset.palette.format_all
    return {
        "players": n,
        "trick": fmt(cards),
        "hand": fmt(hand),
        a.id: fmt(_allowed(model, la, card, hand)),
        b.id: fmt(_allowed(model, lb, card, hand)),
    }


def _smallest_play(case: tuple[Any, ...], timeout_ms: int) -> z3.ModelRef | None:
    """The smallest witness of a play difference, the same whatever Z3 solved before:
    the fewest held cards, then the smallest sum of values held and in the trick; among
    those, the unique least by a code that orders the held cards (each its own bit) and
    the trick's cards in play order."""
    tracked, held, trick = case[0], case[1], case[2]
    count = z3.Sum([z3.If(h, 1, 0) for h in held.values()])
    values = z3.Sum([*[z3.If(h, value_of(c), 0) for c, h in held.items()], *[t[1] for t in trick]])
    status, least, _ = optimum(tracked, count * 4096 + values, False, timeout_ms)
    if status != PROVED or least is None:
        return None
    code = z3.Sum(
        [
            *[z3.If(h, 2**i, 0) * 128 ** len(trick) for i, h in enumerate(held.values())],
            *[(t[1] * 8 + t[0]) * 128 ** (len(trick) - 1 - i) for i, t in enumerate(trick)],
        ]
    )
    fixed = [*tracked, Tracked("smallest", count * 4096 + values == least)]
    status, _, model = optimum(fixed, code, False, timeout_ms)
    return model if status == PROVED else None


def relevant(aspect: str, side: Side) -> tuple[str, ...] | None:
    """The options a Z3 aspect of ``side`` depends on: the readings its encoding declares
    (None for an aspect that is not one of these)."""
    if aspect in {"trick", "no-winner"}:
        return ENCODINGS[side.id].readings
    if aspect == "play" and side.id in PLAYS:
        return PLAYS[side.id].readings
    if aspect == "score" and side.id in SCORES:
        return SCORES[side.id].readings
    return None


def play(a: Side, b: Side, counts: Sequence[int], timeout_ms: int) -> Comparison:
    """A hand, an unfinished trick and a card that one play rule allows and the other
    forbids: the fewest players, then the shortest trick, then the fewest held cards and
    the smallest values."""
    how = "Z3, every hand and every unfinished trick at every player count"
    spent, clauses = 0.0, set[str]()
    for n in counts:
        game_a, game_b = a.game(n), b.game(n)
        cls_a, cls_b = PLAYS[a.id], PLAYS[b.id]
        contexts_b = cls_b.contexts(game_b)
        for ctx in [c for c in cls_a.contexts(game_a) if c in contexts_b]:
            pa, pb = cls_a(game_a, ctx), cls_b(game_b, ctx)
            deck = sorted(set(pa.deck()) & set(pb.deck()))
            for length in range(min(pa.size, pb.size)):
                case = _play_case(pa, pb, deck, length)
                out = check(case[0], timeout_ms)
                spent += out.seconds
                if out.status == UNKNOWN:
                    return Comparison(UNKNOWN, how, f"{n} players: {out.detail}", seconds=spent)
                if out.status == PROVED:
                    clauses |= {*case[4].clauses, *case[5].clauses, pa.deck_clause}
                    continue
                model = _smallest_play(case, timeout_ms)
                if model is None:
                    return Comparison(
                        UNKNOWN, how, f"{n} players: no minimal witness", seconds=spent
                    )
                w = _play_witness(a, b, n, model, case)
                led = " ".join(w["trick"]) or "nothing (leading)"
                allow_a, allow_b = (" ".join(w[s.id]) or "nothing" for s in (a, b))
                return Comparison(
                    COUNTEREXAMPLE,
                    how,
                    f"{n} players, hand {' '.join(w['hand'])} to {led}: {a.id} allows "
                    f"{allow_a}, {b.id} allows {allow_b}",
                    w,
                    tuple(sorted({*case[4].clauses, *case[5].clauses})),
                    spent,
                )
    return Comparison(PROVED, how, clauses=tuple(sorted(clauses)), seconds=spent)
