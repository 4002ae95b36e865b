"""The trick-level obligations, for any :class:`~tricklaw.proofs.tricks.TrickEncoding`.

* **coverage**: every trick the deck allows matches some case of the text;
* **overlap**: no trick matches two cases, unless the overlap is a recorded
  dispute (then a *finding*, reported with its witness trick);
* **outcome exists** and **outcome unique**: under the chosen readings every
  trick has an outcome, and only one (exactly one recipient per card, or
  nobody);
* **no-winner exact**: nobody wins exactly when the text's no-winner
  condition holds;
* **ties**: whether the deck allows the ties the tie rule must break (an
  informational answer, *info*, with a witness if so), and that the winner is the
  one the tie rule names (*vacuous* where no tie is possible);
* **agreement**: the model's result equals the encoding's on every trick of
  an enumeration (see :func:`agreement`).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

import z3

from tricklaw.model.cards import Card, make_card
from tricklaw.proofs import recorder
from tricklaw.proofs.solver import (
    COUNTEREXAMPLE,
    FINDING,
    INFO,
    PROVED,
    UNKNOWN,
    VACUOUS,
    Outcome,
    Tracked,
    check,
    labelled,
)
from tricklaw.proofs.tricks import NOBODY, TrickEncoding


def _all(formulas: Sequence[Tracked]) -> z3.BoolRef:
    return z3.And(*[t.formula for t in formulas])


def coverage(enc: TrickEncoding, timeout_ms: int) -> Outcome:
    """Every trick matches at least one case of the text.

    When the cases exhaust every trick by their form alone (one unguarded case, or "X"
    and "otherwise"), the claim is true whatever the deck and the clauses say: the solver
    reports it as *trivial*, not proved (:func:`~tricklaw.proofs.solver.classify`)."""
    cases = enc.text_cases()
    guards = z3.Or(*[c.guard for c in cases])
    claim = Tracked("claim:some-case-applies", z3.Not(guards))
    out = check([*enc.domain(), claim], timeout_ms, enc.decode)
    out.clauses = tuple(sorted({*out.clauses, *(c.clause for c in cases)}))
    gap = enc.recorded().get(frozenset({"gap"}))
    if out.status == COUNTEREXAMPLE and gap:
        out.status, out.detail = FINDING, f"gap recorded as {gap}"
        out.machine, out.dispute = "gap", gap
    return out


def overlaps(enc: TrickEncoding, timeout_ms: int) -> list[tuple[str, Outcome]]:
    """Each pair of text cases: disjoint (proved), or overlapping (finding / counterexample).

    A pair with a case that no trick of the deck matches is disjoint only vacuously: it is
    reported *vacuous* (such as Hund's trump case before any suit is trump)."""
    cases = enc.text_cases()
    dead = {c.clause for c in cases if _never_applies(enc, c.guard, timeout_ms)}
    results = []
    for a, b in itertools.combinations(cases, 2):
        out = check(
            [*enc.domain(), Tracked(a.clause, a.guard), Tracked(b.clause, b.guard)],
            timeout_ms,
            enc.decode,
        )
        never = [c for c in (a.clause, b.clause) if c in dead]
        if out.status == PROVED and never:
            out.status = VACUOUS
            out.detail = f"{never[0]} applies to no trick of the deck here: disjoint vacuously"
        recorded = enc.recorded().get(frozenset({a.clause, b.clause}))
        if out.status == COUNTEREXAMPLE:
            if recorded:
                out.status, out.detail = FINDING, f"overlap recorded as {recorded}"
                out.machine, out.dispute = "overlap", recorded
            else:
                out.detail = "the two cases overlap and no dispute records it"
        results.append((f"{a.clause} / {b.clause}", out))
    return results


def _never_applies(enc: TrickEncoding, guard: z3.BoolRef, timeout_ms: int) -> bool:
    """Whether no trick of the deck matches ``guard`` (Z3 answers unsat)."""
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*[t.formula for t in enc.domain()], guard)
    return bool(solver.check() == z3.unsat)


def outcome_values(enc: TrickEncoding) -> Iterator[dict[str, int]]:
    """Every value the outcome variables can take (``winner``: nobody or a card)."""
    ranges = [range(NOBODY, enc.size) for _ in enc.outcome]
    for values in itertools.product(*ranges):
        yield dict(zip(enc.outcome, values, strict=True))


def outcome_exists(enc: TrickEncoding, timeout_ms: int) -> Outcome:
    """No trick is left without an outcome by the rule under the readings.

    The claim ("no outcome value fits the rule") states the rule itself, so it is not
    tested for holding on its own (:func:`~tricklaw.proofs.solver.classify`); the row's
    clauses are those of the rule it states."""
    none_fits = z3.And(
        *[
            z3.Not(_all(enc.resolution({k: z3.IntVal(v) for k, v in values.items()})))
            for values in outcome_values(enc)
        ]
    )
    tracked = [*enc.domain(), Tracked("claim:no-outcome", none_fits)]
    out = check(tracked, timeout_ms, enc.decode, claim_alone=False)
    rule = {t.clause for t in enc.resolution(enc.outcome)}
    out.clauses = tuple(sorted({*out.clauses, *rule}))
    return out


def outcome_unique(enc: TrickEncoding, timeout_ms: int) -> Outcome:
    """No trick has two different outcomes under the rule."""
    other = enc.fresh_outcome("other")
    differ = z3.Or(*[enc.outcome[k] != other[k] for k in enc.outcome])
    tracked = [
        *enc.domain(),
        *enc.resolution(enc.outcome),
        *enc.resolution(other),
        Tracked("claim:two-outcomes", differ),
    ]
    return check(tracked, timeout_ms, enc.decode)


def no_winner_exact(enc: TrickEncoding, timeout_ms: int) -> Outcome:
    """Nobody wins if and only if the text's no-winner condition holds."""
    mismatch = (enc.outcome["winner"] == NOBODY) != enc.no_winner_condition()
    tracked = [
        *enc.domain(),
        *enc.resolution(enc.outcome),
        Tracked("claim:no-winner-mismatch", mismatch),
    ]
    return check(tracked, timeout_ms, enc.decode)


def ties_possible(enc: TrickEncoding, timeout_ms: int) -> Outcome:
    """Whether the deck allows a tie the tie rule must break: an informational answer
    (*info*) either way, with the witness trick when ties are possible; *unknown* when Z3
    does not answer. (Whether the tie rule is followed is ``tie-rule``.)"""
    out = check([*enc.domain(), Tracked("tie", enc.tie_possible())], timeout_ms, enc.decode)
    if out.status == PROVED:
        out.status, out.detail = INFO, "no tie is possible with this deck"
    elif out.status == VACUOUS:
        out.detail = "the deck itself is unsatisfiable"
    elif out.status == COUNTEREXAMPLE:
        out.status, out.detail = INFO, "ties are possible; witness attached"
    return out


def tie_broken_as_written(enc: TrickEncoding, timeout_ms: int) -> Outcome:
    """In every tie the winner is the one the tie rule names. Where the deck allows no
    tie, the premises are unsatisfiable and the obligation is *vacuous* (expected only
    where the encoding says so, :attr:`~tricklaw.proofs.tricks.TrickEncoding.hollow`)."""
    tracked = [
        *enc.domain(),
        *enc.resolution(enc.outcome),
        Tracked("premise:tie", enc.tie_possible()),
        Tracked("claim:tie-rule-broken", z3.Not(enc.tie_winner(enc.outcome))),
    ]
    out = check(tracked, timeout_ms, enc.decode)
    out.detail = "; ".join(d for d in (enc.tie_rule, out.detail) if d)
    return out


# --- model and encoding agree ---------------------------------------------------------------


def colour_patterns(
    size: int, colours: int, fixed: Sequence[int] = ()
) -> Iterator[tuple[int, ...]]:
    """Colour sequences up to renaming the colours not in ``fixed``: a fixed colour keeps
    its number; the free colours are numbered in order of first appearance (restricted
    growth strings over the free colours)."""
    free = [c for c in range(colours) if c not in fixed]

    def grow(prefix: tuple[int, ...], used: int) -> Iterator[tuple[int, ...]]:
        if len(prefix) == size:
            yield prefix
            return
        for c in fixed:
            yield from grow((*prefix, c), used)
        for k in range(min(used + 1, len(free))):
            yield from grow((*prefix, free[k]), max(used, k + 1))

    yield from grow((), 0)


def tricks(
    size: int,
    colours: int,
    values: Sequence[int],
    symmetric: bool,
    fixed: Sequence[int] = (),
) -> Iterator[tuple[Card, ...]]:
    """Every trick of ``size`` distinct cards over ``colours`` and ``values``, or with
    ``symmetric`` one per class of renaming the colours not in ``fixed`` (sound only for
    a judge whose symmetry :mod:`tricklaw.proofs.symmetries` proves: pass the encoding's
    ``symmetric`` and ``fixed_colours()``)."""
    patterns = (
        colour_patterns(size, colours, fixed)
        if symmetric
        else itertools.product(range(colours), repeat=size)
    )
    for pattern in patterns:
        for vals in itertools.product(values, repeat=size):
            cards = tuple(make_card(c, v) for c, v in zip(pattern, vals, strict=True))
            if len(set(cards)) == size:
                yield cards


def agreement(
    enc: TrickEncoding,
    cases: Iterable[Sequence[Card]],
    timeout_ms: int,
    stop_after: float | None = None,
) -> tuple[Outcome, int]:
    """Compare the model with the encoding on every trick of ``cases``.

    One incremental solver holds the deck and the rule; each trick is fixed
    under ``push``/``pop`` and its outcome read off Z3's model, with the clauses the
    encoding says the model must name (:meth:`TrickEncoding.answer_terms`). The first
    disagreement is a counterexample with the trick, the model's and the encoding's
    answers. Returns the outcome and the number of tricks compared.
    """
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    rule = [*enc.domain(), *enc.resolution(enc.outcome)]
    for t in rule:
        solver.add(t.formula)
    start = time.perf_counter()
    count = 0
    clauses = tuple(sorted({t.clause for t in enc.resolution(enc.outcome)}))
    palette = enc.game.ruleset.palette
    rec = recorder.current()
    compared: list[tuple[list[z3.BoolRef], dict[str, int]]] = []
    terms = enc.answer_terms(enc.outcome)
    for cards in cases:
        if stop_after is not None and time.perf_counter() - start > stop_after:
            break
        solver.push()
        fixed = enc.fix(cards)
        solver.add(*fixed)
        answer = solver.check()
        if answer != z3.sat:
            solver.pop()
            status = UNKNOWN if answer == z3.unknown else COUNTEREXAMPLE
            return Outcome(
                status,
                time.perf_counter() - start,
                clauses,
                {"trick": palette.format_all(cards)},
                "the encoding gives this trick no outcome",
            ), count
        got = {k: solver.model().eval(v, model_completion=True).as_long() for k, v in terms.items()}
        solver.pop()
        want = enc.model_answer(cards)
        count += 1
        if rec is not None:
            compared.append((rec.translated(fixed), want))
        if got != want:
            return Outcome(
                COUNTEREXAMPLE,
                time.perf_counter() - start,
                clauses,
                {"trick": palette.format_all(cards), "model": want, "encoding": got},
                "model and encoding disagree",
            ), count
    seconds = time.perf_counter() - start
    if rec is not None:
        _record_agreement(rec, enc, rule, compared, timeout_ms)
    return Outcome(PROVED, seconds, clauses, detail=f"{count} tricks agree"), count


AGREEMENT_CHUNK = 1000
"""Tricks per exported agreement query."""


def _record_agreement(
    rec: recorder.Recorder,
    enc: TrickEncoding,
    rule: Sequence[Tracked],
    compared: Sequence[tuple[list[z3.BoolRef], dict[str, int]]],
    timeout_ms: int,
) -> None:
    """For ``verify --smt2``: the agreement just found, restated as queries a second
    solver can check: "one of these tricks has an encoding outcome other than the
    model's" is unsat, per chunk of :data:`AGREEMENT_CHUNK` tricks (with outcome-unique,
    this is agreement). Each is checked by Z3 in the recorder's own context, and
    recorded with its answer."""
    names = [name for name, _ in labelled(rule)]
    formulas = rec.translated([t.formula for t in rule])
    terms = enc.answer_terms(enc.outcome)
    outcome = dict(zip(terms, rec.translated(list(terms.values())), strict=True))
    for first in range(0, len(compared), AGREEMENT_CHUNK):
        chunk = compared[first : first + AGREEMENT_CHUNK]
        differs = z3.Or(
            *[
                z3.And(*fixed, z3.Or(*[outcome[k] != v for k, v in want.items()]))
                for fixed, want in chunk
            ]
        )
        named = [*zip(names, formulas, strict=True), ("claim:model-outcome-differs", differs)]
        solver = z3.Solver(ctx=rec.context)
        solver.set("timeout", timeout_ms)
        solver.add(*[f for _, f in named])
        rec.write(named, recorder.answer_name(solver.check()))


Obligation = Callable[[TrickEncoding, int], Outcome]
TRICK_OBLIGATIONS: Mapping[str, Obligation] = {
    "coverage": coverage,
    "outcome-exists": outcome_exists,
    "outcome-unique": outcome_unique,
    "no-winner-exact": no_winner_exact,
    "ties-possible": ties_possible,
    "tie-rule": tie_broken_as_written,
}
"""The single-result trick obligations by name (``overlap`` and ``agreement`` report more)."""
