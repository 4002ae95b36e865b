"""The edition diff's ``score`` aspect, decided over every round: the two editions' Z3
score encodings (:data:`~tricklaw.proofs.scores.SCORES`) on one shared symbolic round.

For each common player count, score context and seat, both encodings state the seat's
round score over the same variables:

* the pile: one integer per card of the cards both decks have (the seat's pile holds it;
  or, when either encoding scores from every seat's pile, which seat's pile holds it,
  -1 for none), within both encodings' pile limits;
* the single cards the scores depend on (Sticheln's picked card), a shared pair of
  integers per name, within both encodings' card domains, and the integers of
  :meth:`~tricklaw.proofs.scores.ScoreEncoding.numbers` likewise. The model's cards are
  the same colour indices in both notations (the palettes only name them), so the
  round needs no renaming; a fact is the same fact when the encodings give it the same
  name.

Z3 looks for a round on which the two scores differ. Each encoding is proved equal to
its own model's score on its whole domain by
:func:`~tricklaw.proofs.equivalence_score.score_equivalence`, which this aspect runs
again for every encoding it compares (once per process): the shared round lies in both
domains, so "the encodings agree" is a theorem about the two models, and an encoding not
proved equal to its model leaves the aspect ``unknown``. A difference is minimised (the
fewest cards, then the smallest values) and the models' own score functions are run on
it. Cards in one deck only are the ``deck`` aspect's: no round of the other edition
holds them.

As a second line, the seeded random rounds of each ruleset are recounted from their logs
by both rulesets' ``recount_scores`` (the log's card names put into the other's
notation): a difference there is reported with its round even when the encodings agree.
A ruleset without a score encoding gets that sample only (``pass``, never proved).
"""

from __future__ import annotations

import dataclasses
import itertools
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import z3

from tricklaw.model.agents import play_random_game
from tricklaw.model.cards import Card, Palette, colour_of, value_of
from tricklaw.model.state import Game, RoundLog
from tricklaw.proofs.edition_sides import SAMPLED, Comparison, Side, differ
from tricklaw.proofs.equivalence_score import score_equivalence
from tricklaw.proofs.scores import SCORES, CardTerm, ScoreEncoding
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED, UNKNOWN, Tracked, check, optimum
from tricklaw.spec.errors import TricklawError

SCORE_SEEDS = range(1, 5)
"""Seeded random rounds of each ruleset whose logs both rulesets recount."""

_PROVED: dict[tuple[Any, ...], tuple[str, str]] = {}
"""(encoding class, ruleset, players, options, seat, context) -> (status, detail) of its
score equivalence: each is proved once per process (Z3 terms are not kept)."""


def equivalent(enc: ScoreEncoding, timeout_ms: int) -> tuple[str, str]:
    """(status, detail) of ``enc``'s proof that it equals its model's score."""
    key = (
        type(enc),
        enc.game.ruleset.id,
        enc.game.players,
        tuple(sorted(enc.game.options.as_dict().items())),
        enc.seat,
        repr(sorted(enc.context.items())),
    )
    if key not in _PROVED:
        out = score_equivalence(enc, timeout_ms)
        _PROVED[key] = (out.status, out.detail)
    return _PROVED[key]


def _name(card: Card) -> str:
    return f"pile_{colour_of(card)}_{value_of(card)}"


@dataclasses.dataclass
class _Round:
    """The shared symbolic round of two encodings of one seat."""

    encodings: tuple[ScoreEncoding, ScoreEncoding]
    deck: list[Card]
    every: bool
    owner: dict[Card, z3.ArithRef]
    piles: list[dict[Card, z3.BoolRef]]
    cards: dict[str, CardTerm]
    numbers: dict[str, z3.ArithRef]

    @classmethod
    def of(cls, ea: ScoreEncoding, eb: ScoreEncoding) -> _Round:
        deck = sorted(set(ea.deck()) & set(eb.deck()))
        every = ea.every_pile or eb.every_pile
        owner = {c: z3.Int(_name(c)) for c in deck}
        seats = max(ea.game.seats, eb.game.seats)
        if every:  # the seat whose pile holds the card, -1 for none
            piles = [{c: owner[c] == s for c in deck} for s in range(seats)]
        else:  # 1 when the seat's pile holds it
            own = {c: owner[c] != 0 for c in deck}
            piles = [own if s == ea.seat else {} for s in range(seats)]
        names = dict.fromkeys([*ea.cards, *eb.cards])
        cards = {n: (z3.Int(f"{n}_colour"), z3.Int(f"{n}_value")) for n in names}
        numbers = {n: z3.Int(n) for n in dict.fromkeys([*ea.numbers(), *eb.numbers()])}
        return cls((ea, eb), deck, every, owner, piles, cards, numbers)

    def present(self, card: Card) -> z3.BoolRef:
        return self.owner[card] != (-1 if self.every else 0)

    def domain(self) -> list[Tracked]:
        """Both encodings' domains on the shared variables."""
        low = -1 if self.every else 0
        high = len(self.piles) - 1 if self.every else 1
        out = [
            Tracked(
                "domain:pile", z3.And(*[z3.And(low <= h, h <= high) for h in self.owner.values()])
            )
        ]
        for enc in self.encodings:
            colours, values, deck_clause = enc.deck_table()
            mine = {n: self.cards[n] for n in enc.cards}
            pile = self.piles[enc.seat]
            parts = [
                z3.And(c >= 0, c < colours, v >= values.start, v < values.stop)
                for c, v in mine.values()
            ]
            parts += enc.card_domain(pile, mine)
            parts += enc.number_domain({n: self.numbers[n] for n in enc.numbers()})
            if not enc.every_pile:
                parts.append(z3.Sum([z3.If(h, 1, 0) for h in pile.values()]) <= enc.pile_limit())
            out.append(Tracked(deck_clause, z3.And(*parts)))
        return out

    def score(self, enc: ScoreEncoding) -> tuple[z3.ArithRef, tuple[str, ...]]:
        cards = {n: self.cards[n] for n in enc.cards}
        numbers = {n: self.numbers[n] for n in enc.numbers()}
        seats = enc.game.seats
        return enc.score_of_all(self.piles[:seats], cards, numbers)

    def smallest(self, tracked: list[Tracked], timeout_ms: int) -> z3.ModelRef | None:
        """The least witness: the fewest cards, then the smallest values (and numbers);
        among those, the least by a code over the cards' owners and the single cards."""
        count = z3.Sum([z3.If(self.present(c), 1, 0) for c in self.deck] or [z3.IntVal(0)])
        size = z3.Sum(
            [
                *[z3.If(self.present(c), value_of(c), 0) for c in self.deck],
                *[v for _, v in self.cards.values()],
                *[z3.If(x < 0, -x, x) for x in self.numbers.values()],
                z3.IntVal(0),
            ]
        )
        status, least, _ = optimum(tracked, count * 4096 + size, False, timeout_ms)
        if status != PROVED or least is None:
            return None
        base = len(self.piles) + 2
        code = z3.Sum(
            [
                *[(h + 1) * base**i for i, h in enumerate(self.owner.values())],
                *[
                    (c * 32 + v) * 4096 ** (k + 1) * base ** len(self.deck)
                    for k, (c, v) in enumerate(self.cards.values())
                ],
                z3.IntVal(0),
            ]
        )
        fixed = [*tracked, Tracked("least", count * 4096 + size == least)]
        status, _, model = optimum(fixed, code, False, timeout_ms)
        return model if status == PROVED else None


def _model_score(
    enc: ScoreEncoding,
    piles: Sequence[tuple[Card, ...]],
    cards: Mapping[str, Card],
    numbers: Mapping[str, int],
) -> Any:
    """The live model's score of ``enc``'s seat, concretely (what raised, if it did)."""
    module = sys.modules[type(enc.game.ruleset).__module__]
    try:
        return enc.model_score_of_all(module, enc.game, piles[: enc.game.seats], cards, numbers)
    except Exception as exc:  # the model raising on a valid round is a difference
        return f"raised {exc!r}"


def _witness(a: Side, b: Side, n: int, shared: _Round, model: z3.ModelRef) -> dict[str, Any]:
    def value(x: z3.ArithRef) -> int:
        return int(model.eval(x, model_completion=True).as_long())

    ea, eb = shared.encodings
    owners = {c: value(h) for c, h in shared.owner.items()}
    seats = len(shared.piles)
    piles = tuple(
        tuple(c for c in shared.deck if owners[c] == (s if shared.every else 1))
        if shared.every or s == ea.seat
        else ()
        for s in range(seats)
    )
    cards = {k: Card(value(c) * 32 + value(v)) for k, (c, v) in shared.cards.items()}
    numbers = {k: value(x) for k, x in shared.numbers.items()}
    fmt = a.ruleset.palette.format
    shown = (
        {f"pile {s}": [fmt(c) for c in p] for s, p in enumerate(piles) if p}
        if shared.every
        else {"pile": [fmt(c) for c in piles[ea.seat]]}
    )
    return {
        "players": n,
        "seat": ea.seat,
        **({"context": ea.context} if ea.context else {}),
        **shown,
        **{k: fmt(c) for k, c in cards.items()},
        **numbers,
        a.id: _model_score(ea, piles, {k: cards[k] for k in ea.cards}, numbers),
        b.id: _model_score(eb, piles, {k: cards[k] for k in eb.cards}, numbers),
    }


def _pairs(a: Side, b: Side, n: int) -> list[tuple[ScoreEncoding, ScoreEncoding]]:
    """The two encodings of each seat, for every score context the two share."""
    game_a, game_b = a.game(n), b.game(n)
    cls_a, cls_b = SCORES[a.id], SCORES[b.id]
    contexts_b = cls_b.contexts(game_b)
    out = []
    for ctx in [c for c in cls_a.contexts(game_a) if c in contexts_b]:
        seats = [s for s in cls_a(game_a, 0, ctx).seats() if s in cls_b(game_b, 0, ctx).seats()]
        out += [(cls_a(game_a, s, ctx), cls_b(game_b, s, ctx)) for s in seats]
    return out


def proved(a: Side, b: Side, counts: Sequence[int], timeout_ms: int) -> Comparison:
    """The encodings compared by Z3 on every shared round, each proved equal to its model."""
    how = (
        "Z3 on the two score encodings, every pile of the cards both decks have and every "
        "seat at every player count (each encoding proved equal to its model's score on "
        "every pile in deck order, so the models agree there)"
    )
    clauses: set[str] = set()
    for n in counts:
        for ea, eb in _pairs(a, b, n):
            for enc, side in ((ea, a), (eb, b)):
                status, detail = equivalent(enc, timeout_ms)
                if status != PROVED:
                    why = (
                        f"{n} players, seat {enc.seat}: the score encoding of {side.id} is not "
                        f"proved equal to its model ({status}: {detail})"
                    )
                    return Comparison(UNKNOWN, how, why)
            shared = _Round.of(ea, eb)
            (sa, ids_a), (sb, ids_b) = shared.score(ea), shared.score(eb)
            out_a, out_b = z3.Int(f"score_a_{a.id}"), z3.Int(f"score_b_{b.id}")
            tracked = [
                *shared.domain(),
                Tracked(f"{a.id}:score", out_a == sa),
                Tracked(f"{b.id}:score", out_b == sb),
                Tracked("claim:diff:score", out_a != out_b),
            ]
            out = check(tracked, timeout_ms)
            if out.status == PROVED:
                clauses |= {*ids_a, *ids_b, *out.clauses}
                continue
            if out.status != COUNTEREXAMPLE:
                return Comparison(UNKNOWN, how, f"{n} players, seat {ea.seat}: {out.status}")
            model = shared.smallest(tracked, timeout_ms)
            if model is None:
                return Comparison(UNKNOWN, how, f"{n} players: no minimal witness")
            w = _witness(a, b, n, shared, model)
            if w[a.id] == w[b.id]:
                why = f"{n} players: the models do not reproduce Z3's witness {w}"
                return Comparison(UNKNOWN, how, why)
            facts = " ".join(
                f"{k} {' '.join(v) if isinstance(v, list) else v}"
                for k, v in w.items()
                if k not in {"players", "seat", a.id, b.id}
            )
            return Comparison(
                COUNTEREXAMPLE,
                how,
                f"{n} players, seat {ea.seat}, {facts}: scores {w[a.id]} in {a.id}, "
                f"{w[b.id]} in {b.id}",
                w,
                tuple(sorted({*ids_a, *ids_b})),
            )
    return Comparison(PROVED, how, clauses=tuple(sorted(clauses)))


# --- the second line: recounted rounds -----------------------------------------------------


def _renamed(value: Any, source: Palette, target: Palette) -> Any:
    """``value`` (JSON-ready facts) with each card name of ``source`` in ``target``'s."""
    if isinstance(value, list | tuple):
        return [_renamed(v, source, target) for v in value]
    if isinstance(value, dict):
        return {k: _renamed(v, source, target) for k, v in value.items()}
    if isinstance(value, str):
        try:
            return target.format(source.parse(value))
        except (TricklawError, KeyError, IndexError):
            return value
    return value


def _in_notation(log: RoundLog, source: Game, target: Game) -> RoundLog:
    """``log`` of a round of ``source`` with the card names of its facts in ``target``'s
    notation (the facts name cards; the cards themselves are the same colour indices)."""
    pa, pb = source.ruleset.palette, target.ruleset.palette
    if pa == pb:
        return log
    facts = tuple((k, _renamed(v, pa, pb)) for k, v in log.facts)
    return dataclasses.replace(log, facts=facts)


def sampled(a: Side, b: Side, counts: Sequence[int], timeout_ms: int) -> Comparison:
    """Each round log of :data:`SCORE_SEEDS` seeded random rounds of either ruleset,
    recounted by both (a round of one deck that the other cannot score is a difference)."""
    how = (
        f"{len(SCORE_SEEDS)} seeded random rounds of each ruleset recounted by both, "
        "at each player count"
    )
    for n in counts:
        game_a, game_b = a.game(n), b.game(n)
        for seed, source in itertools.product(SCORE_SEEDS, (game_a, game_b)):
            history = play_random_game(source, seed, max_rounds=1).history
            if not history:
                continue
            log = history[0]
            try:
                sa = a.ruleset.recount_scores(game_a, _in_notation(log, source, game_a))
                sb = b.ruleset.recount_scores(game_b, _in_notation(log, source, game_b))
            except (TricklawError, KeyError, ValueError, IndexError) as exc:
                why = f"{n} players: one ruleset cannot score the other's round: {exc}"
                return differ(how, why, {"players": n})
            if sa != sb:
                seat = next(s for s in range(len(sa)) if sa[s] != sb[s])
                witness = {
                    "players": n,
                    "seed": seed,
                    "played by": source.ruleset.id,
                    "seat": seat,
                    "facts": dict(log.facts),
                    a.id: sa[seat],
                    b.id: sb[seat],
                }
                return differ(
                    how,
                    f"{n} players, seed {seed}: seat {seat} scores {sa[seat]} in {a.id}, "
                    f"{sb[seat]} in {b.id}",
                    witness,
                )
    return Comparison(SAMPLED, how)


def score(a: Side, b: Side, counts: Sequence[int], timeout_ms: int) -> Comparison:
    """A round's score: :func:`proved` where both rulesets have a score encoding, then
    :func:`sampled` as a second line (the only line without encodings)."""
    if a.id not in SCORES or b.id not in SCORES:
        out = sampled(a, b, counts, timeout_ms)
        if out.status == SAMPLED:
            return dataclasses.replace(
                out, how=f"NOT PROVED (no score encoding for both rulesets): {out.how}"
            )
        return out
    first = proved(a, b, counts, timeout_ms)
    second = sampled(a, b, counts, timeout_ms)
    if second.status == COUNTEREXAMPLE:
        return dataclasses.replace(
            second, how=f"{second.how}, beside the encodings' comparison ({first.status})"
        )
    if first.status != PROVED:
        return first
    return dataclasses.replace(first, how=f"{first.how}; and {second.how}")
