"""Sound reductions: the symmetries each trick judge declares, proved.

An enumeration of tricks may take one trick per class of a symmetry only if the rule
really has it (:func:`~tricklaw.proofs.trick_obligations.tricks`). Each trick encoding
declares its judge's symmetries (:class:`~tricklaw.proofs.tricks.TrickEncoding`):

* ``symmetric``: renaming colours changes no outcome, for the renamings that fix
  :meth:`~tricklaw.proofs.tricks.TrickEncoding.fixed_colours` (Hund: the suit already
  trump);
* ``order_only``: replacing the values by others in the same order (zero kept zero, for
  rules that single out a zero) changes no outcome.

For every reading, deck and trick context of the encoding, this module proves each
declared symmetry of the **encoding** with Z3 on every trick of the deck: the colour
renamings through a symbolic permutation of the free colours (every renaming that keeps
the fixed colours at once); the order type through a second trick whose values are any
others with the same order, equalities and zeros. The premises (both tricks in the deck,
both resolved, the image relation) are checked satisfiable first, so no proof is
vacuous. The **model's** judge is tested against the same symmetries on the tricks of a
small table (:func:`model_check`: every colour with the two lowest and two highest
values), exhaustively where it is small enough, else on a seeded sample of it; the row
says which. A symmetry that is not declared is looked for as well and the row says
whether it holds (no reduction may use it).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import z3

from tricklaw.model.cards import Card, colour_of, make_card, value_of
from tricklaw.model.rng import SplitMix64, shuffled
from tricklaw.model.ruleset import Ruleset
from tricklaw.proofs.combinations import with_deck_variants
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.results import Result
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED, UNKNOWN, Tracked, check
from tricklaw.proofs.tricks import TrickEncoding

OBLIGATION = "symmetry"
SMALL_TABLE = 100
"""At most this many tricks of the small table per reading and context for the model's
test (more are sampled)."""
COLOUR, ORDER = "colour-renaming", "order-type"


def copy_of(enc: TrickEncoding, tag: str) -> TrickEncoding:
    """A second encoding of the same game and context over fresh variables."""
    other = type(enc)(enc.game, enc.context)
    other.colour = [z3.Int(f"colour_{i}_{tag}") for i in range(enc.size)]
    other.value = [z3.Int(f"value_{i}_{tag}") for i in range(enc.size)]
    other.outcome = {name: z3.Int(f"{name}_{tag}") for name in enc.outcome}
    return other


def free_colours(enc: TrickEncoding) -> list[int]:
    """The colours a renaming may move (every colour but the fixed ones)."""
    colours, _, _ = enc.deck_table()
    fixed = set(enc.fixed_colours())
    return [c for c in range(colours) if c not in fixed]


def transpositions(enc: TrickEncoding) -> list[tuple[int, int]]:
    """The swaps of neighbouring free colours: they generate every renaming of the free
    colours."""
    free = free_colours(enc)
    return list(itertools.pairwise(free))


def swapped(colour: z3.ArithRef, a: int, b: int) -> z3.ArithRef:
    """``colour`` with colours ``a`` and ``b`` exchanged."""
    return z3.If(colour == a, b, z3.If(colour == b, a, colour))


def same_order(one: Sequence[z3.ArithRef], two: Sequence[z3.ArithRef]) -> z3.BoolRef:
    """``two`` has the order type of ``one`` (each pair in the same order, equal pairs
    equal) and the same zeros."""
    n = len(one)
    return z3.And(
        *[(one[i] < one[j]) == (two[i] < two[j]) for i in range(n) for j in range(n) if i != j],
        *[(one[i] == one[j]) == (two[i] == two[j]) for i in range(n) for j in range(i + 1, n)],
        *[(one[i] == 0) == (two[i] == 0) for i in range(n)],
    )


def prove_invariant(
    enc: TrickEncoding, image: Callable[[TrickEncoding], z3.BoolRef], timeout_ms: int
) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    """Whether every trick and its image (``image(second)`` relates the second copy's
    trick to the first's) have one outcome: (status, witness, the clauses of the unsat
    core). The premises are checked satisfiable first (``vacuous`` otherwise)."""
    other = copy_of(enc, "image")
    premises = [
        *enc.domain(),
        *enc.resolution(enc.outcome),
        *[Tracked(t.clause, t.formula) for t in other.domain()],
        *other.resolution(other.outcome),
        Tracked("claim:image", image(other)),
    ]
    sat = check(premises, timeout_ms)
    if sat.status == UNKNOWN:
        return UNKNOWN, {}, ()
    if sat.status == PROVED:  # unsat premises: the claim would hold vacuously
        return "vacuous", {}, ()
    differ = z3.Or(*[enc.outcome[k] != other.outcome[k] for k in enc.outcome])

    def decode(model: z3.ModelRef) -> dict[str, Any]:
        return {"trick": enc.decode(model), "image": other.decode(model)}

    out = check([*premises, Tracked("claim:outcome-differs", differ)], timeout_ms, decode)
    core = tuple(c for c in out.clauses if ":" not in c) if out.status == PROVED else ()
    return out.status, out.witness, core


def colour_images(enc: TrickEncoding) -> list[tuple[str, Callable[[TrickEncoding], Any]]]:
    """One image: the trick under any renaming of the free colours (a symbolic
    permutation ``rename_c`` of them; the fixed colours kept)."""
    free = free_colours(enc)
    perm = {c: z3.Int(f"rename_{c}") for c in free}

    def apply(colour: z3.ArithRef) -> z3.ArithRef:
        out: z3.ArithRef = colour
        for c, target in perm.items():
            out = z3.If(colour == c, target, out)
        return out

    def image(other: TrickEncoding) -> z3.BoolRef:
        return z3.And(
            *[z3.Or(*[t == c for c in free]) for t in perm.values()],
            z3.Distinct(*perm.values()) if len(perm) > 1 else z3.BoolVal(True),
            *[c2 == apply(c1) for c1, c2 in zip(enc.colour, other.colour, strict=True)],
            *[v2 == v1 for v1, v2 in zip(enc.value, other.value, strict=True)],
        )

    return [("any renaming", image)] if len(free) > 1 else []


def order_image(enc: TrickEncoding) -> Callable[[TrickEncoding], z3.BoolRef]:
    """Any trick of the same colours whose values have the same order type."""
    return lambda other: z3.And(
        *[c2 == c1 for c1, c2 in zip(enc.colour, other.colour, strict=True)],
        same_order(enc.value, other.value),
    )


# --- the model's judge on a small table ------------------------------------------------


def small_table(enc: TrickEncoding) -> list[Card]:
    """Every colour with the two lowest and two highest values of the deck (and zero
    and one where the deck has them)."""
    colours, values, _ = enc.deck_table()
    vals = list(values)
    chosen = sorted({*vals[:2], *vals[-2:]})
    return [make_card(c, v) for c in range(colours) for v in chosen]


def table_tricks(enc: TrickEncoding, seed: int) -> tuple[list[tuple[Card, ...]], str]:
    """Every trick of the small table when there are at most :data:`SMALL_TABLE`, else a
    seeded sample of that many; and which."""
    table = small_table(enc)
    total = math.perm(len(table), enc.size)
    if total <= SMALL_TABLE:
        return list(itertools.permutations(table, enc.size)), f"all {total}"
    rng = SplitMix64(seed)
    return [tuple(shuffled(table, rng)[: enc.size]) for _ in range(SMALL_TABLE)], (
        f"{SMALL_TABLE} sampled of {total}"
    )


def rename(cards: Sequence[Card], a: int, b: int) -> tuple[Card, ...]:
    """``cards`` with colours ``a`` and ``b`` exchanged."""
    swap = {a: b, b: a}
    return tuple(make_card(swap.get(colour_of(c), colour_of(c)), value_of(c)) for c in cards)


def remap_values(cards: Sequence[Card], values: range) -> Iterator[tuple[Card, ...]]:
    """``cards`` with their values moved, order and zeros kept, to the lowest and to the
    highest values of ``values`` that allow it."""
    used = sorted({value_of(c) for c in cards})
    pool = [v for v in values if v != 0]
    nonzero = [v for v in used if v != 0]
    if len(nonzero) > len(pool):
        return
    for target in (pool[: len(nonzero)], pool[len(pool) - len(nonzero) :]):
        move = dict(zip(nonzero, target, strict=True)) | ({0: 0} if 0 in used else {})
        yield tuple(make_card(colour_of(c), move[value_of(c)]) for c in cards)


def model_check(
    enc: TrickEncoding, symmetry: str, seed: int
) -> tuple[dict[str, Any] | None, str, int]:
    """The model's judge under ``symmetry`` on the small table's tricks: the first trick
    whose image the model judges otherwise (None if none), what was enumerated, and how
    many pairs were compared."""
    cases, how = table_tricks(enc, seed)
    _, values, _ = enc.deck_table()
    palette = enc.game.ruleset.palette
    pairs = 0
    for cards in cases:
        if symmetry == COLOUR:
            images = [rename(cards, a, b) for a, b in transpositions(enc)]
        else:
            images = list(remap_values(cards, values))
        want = enc.model_outcome(cards)
        for image in images:
            if len(set(image)) != len(image):
                continue
            pairs += 1
            got = enc.model_outcome(image)
            if got != want:
                found = {"trick": palette.format_all(cards), "image": palette.format_all(image)}
                return {**found, "model": [want, got]}, how, pairs
    return None, how, pairs


# --- the results --------------------------------------------------------------------------


def _declared(enc: TrickEncoding, symmetry: str) -> bool:
    return enc.symmetric if symmetry == COLOUR else enc.order_only


def _what(enc: TrickEncoding, symmetry: str) -> str:
    if symmetry == ORDER:
        return "values replaced by any of the same order type (zeros kept)"
    fixed = enc.fixed_colours()
    keep = f", fixing colour {', '.join(map(str, fixed))}" if fixed else ""
    return f"colours renamed{keep}"


def symmetry_results(
    ruleset: Ruleset[Any],
    players: int,
    chosen: Mapping[str, str],
    timeout_ms: int,
) -> list[Result]:
    """One ``symmetry`` row per symmetry (colour renaming, order type) of ``ruleset``'s
    trick judge at ``players``, over every reading, deck and context of its encoding:
    a declared symmetry ``proved`` on the encoding (Z3, every trick) and tested on the
    model (the small table), else ``counterexample`` with the trick and its image; an
    undeclared one ``pass``, its detail saying whether it holds."""
    cls = ENCODINGS[ruleset.id]
    encs = [
        cls(game, ctx)
        for readings in with_deck_variants(ruleset, cls.readings, cls.deck_readings, chosen)
        for game in [ruleset.make_game(players, {**chosen, **readings})]
        for ctx in cls.contexts(game)
    ]
    out = []
    for symmetry in (COLOUR, ORDER):
        start = time.perf_counter()
        statuses: list[str] = []
        witness: dict[str, Any] = {}
        proofs = pairs = 0
        hows: set[str] = set()
        clauses: set[str] = set()
        fixing = sorted({_what(e, symmetry) for e in encs})
        declared = all(_declared(e, symmetry) for e in encs)
        for n, enc in enumerate(encs):
            if not declared and COUNTEREXAMPLE in statuses:
                break  # an undeclared symmetry shown not to hold: no reduction uses it
            images = colour_images(enc) if symmetry == COLOUR else [("order", order_image(enc))]
            for name, image in images:
                status, found, core = prove_invariant(enc, image, timeout_ms)
                clauses.update(core)
                proofs += 1
                statuses.append(status)
                if found and not witness:
                    witness = {"context": str(enc.context), "image": name, **found}
            if declared:
                found_m, how, compared = model_check(enc, symmetry, seed=players * 100 + n)
                pairs += compared
                hows.add(how)
                if found_m is not None and not witness:
                    statuses.append(COUNTEREXAMPLE)
                    witness = {"context": str(enc.context), "model": found_m}
        holds = all(s == PROVED for s in statuses)
        scope = f"{len(encs)} reading/deck/context cases, {proofs} Z3 proofs over every trick"
        if declared:
            status = PROVED if holds else _worst(statuses)
            detail = (
                f"declared: {'; '.join(fixing)}; {scope}; the model on the small table"
                f" ({', '.join(sorted(hows))} tricks per case): {pairs} pairs agree"
                if holds
                else f"declared but does not hold: {'; '.join(fixing)}; {scope}"
            )
        else:
            status = "pass"
            verdict = "holds" if holds else "does not hold (witness attached)"
            detail = f"not declared (no reduction may use it): it {verdict}; {scope}"
        out.append(
            Result(
                f"{OBLIGATION} {symmetry}",
                ruleset.id,
                str(players),
                "every reading",
                status,
                time.perf_counter() - start,
                tuple(sorted(clauses)),
                detail,
                witness,
            )
        )
    return out


def _worst(statuses: Sequence[str]) -> str:
    """A failed symmetry's status: ``fail`` for a vacuous proof (premises unsatisfiable),
    else a counterexample, else unknown (a time-out)."""
    for bad, status in (("vacuous", "fail"), (COUNTEREXAMPLE, COUNTEREXAMPLE)):
        if bad in statuses:
            return status
    return UNKNOWN
