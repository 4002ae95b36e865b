"""The edition diff's game aspects, decided over every input: the number of rounds, game
end and the game winner, from the models' own code run symbolically.

``Ruleset.game_over(game, rounds_played, totals)`` and ``Ruleset.winners(game, totals)``
are functions of a round number and a vector of totals. For each side and player count,
the executor of :mod:`tricklaw.proofs.symbolic` runs the model's own function (the plain
copy of :mod:`tricklaw.proofs.plain` on a compiled install) on a symbolic round number
``round >= 1`` and symbolic integer totals ``total_0 ..``, unbounded, and the paths
become one Z3 term per side (:func:`~tricklaw.proofs.symbolic.decision_tree`). Z3 then
decides, for every round number and every vector of integer totals:

* ``rounds``: the first round after which the game is over with every total at zero
  (the least round at which either side is over is found exactly; the sides agree when
  both are over there, or when neither ever is);
* ``game-end``: whether the totals change that the game is over after a round (over
  with these totals, but not with zeros, or the reverse); a difference of the round
  count alone is the ``rounds`` aspect's;
* ``winner``: the seats that win from final totals.

``unsat`` is ``proved``; a difference is a counterexample whose witness is minimal (the
smallest round, then the smallest sum of the totals' sizes, then the totals in seat order)
and is run through both live models again, concretely: the report shows what they
answer, and a witness the models do not reproduce is ``unknown``, never a finding. A path
the executor cannot follow, a path budget run out, or a Z3 time-out is ``unknown``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from tricklaw.model.state import Game
from tricklaw.proofs import plain, symbolic
from tricklaw.proofs.edition_sides import Comparison, Side
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED, UNKNOWN, VACUOUS, Tracked, check, optimum
from tricklaw.proofs.symbolic import Path

ROUND = "round"
"""The name of the symbolic round number (the rounds played, ``>= 1``)."""

_PATHS: dict[tuple[Any, ...], tuple[Path, ...]] = {}
"""(ruleset class, the function explored, players, options) -> its paths: each function
is explored once per process (paths hold the executor's terms, no Z3 objects)."""

_ANSWERS: dict[tuple[Any, ...], Comparison | None] = {}
"""(aspect, players, rulesets, both sides' paths) -> the comparison at that player count
(None: they agree), so that a reading neither function reads is not compared again."""


def _total(seat: int) -> str:
    return f"total_{seat}"


@dataclass(frozen=True, slots=True)
class Answer:
    """One model function as Z3 terms over the round and the totals: ``kind`` 0 for a
    number or truth value (``value`` its term), 1 for any other answer (``value`` the
    code of that answer in :class:`Codes`), 2 for an exception (its code likewise)."""

    kind: z3.ArithRef
    value: z3.ArithRef
    paths: int


class Codes:
    """A code for each concrete non-numeric answer (a tuple of seats, an exception), shared
    by both sides so that equal answers get equal codes."""

    def __init__(self) -> None:
        self.known: dict[Any, int] = {}

    def of(self, answer: Any) -> int:
        return self.known.setdefault(answer, len(self.known))


class NotCoveredError(Exception):
    """The executor could not follow a path, or ran out of paths."""


def _leaf(path: Path, codes: Codes) -> tuple[int, Any]:
    """(kind, value) of one path's result (see :class:`Answer`)."""
    if path.unsupported:
        raise NotCoveredError(f"a path the executor cannot follow: {path.unsupported}")
    if path.error:
        return 2, codes.of(("raised", path.error))
    result = path.result
    if isinstance(result, tuple | list):
        if not all(isinstance(x, int) for x in result):
            raise NotCoveredError("a symbolic value inside an answer")
        return 1, codes.of(tuple(int(x) for x in result))
    if isinstance(result, symbolic.Sym | symbolic.SymBool | int):
        return 0, symbolic.z3_value(result)
    raise NotCoveredError(f"an answer of type {type(result).__name__}")


def paths_of(side: Side, n: int, what: str) -> tuple[Path, ...]:
    """Every path of the side's ``game_over`` (``what`` = "game_over") or ``winners`` at
    ``n`` players over ``round`` and ``total_<seat>`` (the game's seats), explored once
    per process. The function is looked up on the ruleset's class, so a replaced one is
    explored afresh."""
    game: Game = plain.game_for(side.game(n))
    ruleset: Any = game.ruleset  # called with proxy integers, not the ints it declares
    totals = [_total(s) for s in range(game.seats)]
    function = getattr(type(ruleset), what)
    key = (type(ruleset), function, n, tuple(sorted(game.options.as_dict().items())))
    if key not in _PATHS:

        def run() -> Any:
            tot = tuple(symbolic.variable(t) for t in totals)
            if what == "game_over":
                return ruleset.game_over(game, symbolic.variable(ROUND), tot)
            return ruleset.winners(game, tot)

        explorer = symbolic.Explorer([z3.Int(ROUND) >= 1], [ROUND, *totals])
        found = explorer.explore(run)
        if not found.complete:
            raise NotCoveredError(f"more than {explorer.max_paths} paths")
        _PATHS[key] = tuple(found.paths)
    return _PATHS[key]


def explore(side: Side, paths: Sequence[Path], what: str, codes: Codes) -> Answer:
    """The side's ``paths`` of ``what`` as Z3 terms (:class:`Answer`)."""
    leaves = {id(p): _leaf(p, codes) for p in paths}
    fresh = iter(range(10**9))

    def unknown() -> z3.ArithRef:  # a branch no path took: Z3 found it infeasible
        return z3.Int(f"unreached_{side.id}_{what}_{next(fresh)}")

    kind = symbolic.decision_tree(paths, lambda p: z3.IntVal(leaves[id(p)][0]), unknown)
    value = symbolic.decision_tree(paths, lambda p: _as_int(leaves[id(p)][1]), unknown)
    return Answer(kind, value, len(paths))


def _as_int(x: Any) -> z3.ArithRef:
    return z3.IntVal(x) if isinstance(x, int) else x


def _round() -> z3.ArithRef:
    return z3.Int(ROUND)


def _totals(seats: int) -> list[z3.ArithRef]:
    return [z3.Int(_total(s)) for s in range(seats)]


def _at_zero(answer: Answer, seats: int) -> tuple[z3.ArithRef, z3.ArithRef]:
    zero = [(t, z3.IntVal(0)) for t in _totals(seats)]
    return z3.substitute(answer.kind, *zero), z3.substitute(answer.value, *zero)


def _over(answer: tuple[z3.ArithRef, z3.ArithRef]) -> z3.BoolRef:
    """The game is over: a true truth value (an exception is not an end)."""
    return z3.And(answer[0] == 0, answer[1] != 0)


def _same(x: tuple[z3.ArithRef, z3.ArithRef], y: tuple[z3.ArithRef, z3.ArithRef]) -> z3.BoolRef:
    return z3.And(x[0] == y[0], x[1] == y[1])


class _Sides:
    """Both sides' answers at one player count, and the tracked assertions naming them."""

    def __init__(
        self, a: Side, b: Side, n: int, what: str, paths: tuple[Sequence[Path], ...]
    ) -> None:
        codes = Codes()
        self.a, self.b, self.n, self.what = a, b, n, what
        self.games = a.game(n), b.game(n)
        self.answers = explore(a, paths[0], what, codes), explore(b, paths[1], what, codes)
        self.codes = codes
        self.seats = max(g.seats for g in self.games)

    @property
    def paths(self) -> int:
        return sum(x.paths for x in self.answers)

    def named(
        self, tag: str, terms: Sequence[tuple[z3.ArithRef, z3.ArithRef]]
    ) -> tuple[list[Tracked], list[tuple[z3.ArithRef, z3.ArithRef]]]:
        """Tracked ``k == kind, v == value`` for each side's terms (``tag`` tells them
        apart), and the variables standing for them."""
        tracked, names = [], []
        for label, side, (kind, value) in zip("ab", (self.a, self.b), terms, strict=True):
            name = f"{label}:{side.id}:{self.what}{tag}"  # a, b: one ruleset on both sides
            k, v = z3.Int(f"{name}:kind"), z3.Int(name)
            tracked.append(Tracked(f"model:{side.id}:{self.what}", z3.And(k == kind, v == value)))
            names.append((k, v))
        return tracked, names


def _domain() -> Tracked:
    return Tracked("domain:round", _round() >= 1)


def _minimal(
    tracked: list[Tracked], seats: int, timeout_ms: int, with_round: bool
) -> z3.ModelRef | None:
    """The least witness: the smallest round (``with_round``), then the smallest sum of
    the totals' sizes, then the fewest points on the later seats (the size of the last
    seat's total first), then the totals themselves in seat order, least first."""
    fixed = list(tracked)
    totals = _totals(seats)
    sizes = [z3.If(t < 0, -t, t) for t in totals]
    objectives = [
        *([_round()] if with_round else []),
        z3.Sum(sizes),
        *reversed(sizes[1:]),
        *totals,
    ]
    model = None
    for k, goal in enumerate(objectives):
        status, best, model = optimum(fixed, goal, False, timeout_ms)
        if status != PROVED or best is None:
            return None
        fixed.append(Tracked(f"least:{k}", goal == best))
    return model


def _decide(
    tracked: list[Tracked], s: _Sides, how: str, timeout_ms: int, *, with_round: bool
) -> z3.ModelRef | Comparison | None:
    """Z3 on the claim of ``tracked``: None when it is proved impossible (the sides
    agree), else the least witness (:func:`_minimal`), or the unknown comparison."""
    out = check(tracked, timeout_ms)
    if out.status == PROVED:
        return None
    if out.status != COUNTEREXAMPLE:
        return _unknown(how, s.n, f"{out.status}: {out.detail}")
    model = _minimal(tracked, s.seats, timeout_ms, with_round)
    return _unknown(how, s.n, "no minimal witness") if model is None else model


def _value(model: z3.ModelRef, x: z3.ArithRef) -> int:
    return int(model.eval(x, model_completion=True).as_long())


def _unknown(how: str, n: int, why: str, spent: float = 0.0) -> Comparison:
    return Comparison(UNKNOWN, how, f"{n} players: {why}", seconds=spent)


def _run(
    a: Side,
    b: Side,
    counts: Sequence[int],
    *,
    how: str,
    what: str,
    step: Callable[[_Sides], Comparison | None],
) -> Comparison:
    """``step`` at each player count, fewest first: the first difference or unknown, or
    proved at every count (``how`` gets the number of paths explored). Two sides whose
    paths are those of a comparison made before (another reading that the functions do
    not read) get that comparison's answer again."""
    count = 0
    for n in counts:
        try:
            paths = paths_of(a, n, what), paths_of(b, n, what)
        except NotCoveredError as exc:
            return _unknown(how, n, f"not covered: {exc}")
        count += sum(len(p) for p in paths)
        key = (how, n, a.id, b.id, repr(paths))
        if key not in _ANSWERS:
            try:
                _ANSWERS[key] = step(_Sides(a, b, n, what, paths))
            except NotCoveredError as exc:
                _ANSWERS[key] = _unknown(how, n, f"not covered: {exc}")
        out = _ANSWERS[key]
        if out is not None:
            return Comparison(out.status, f"{how} ({count} paths)", out.summary, out.witness)
    return Comparison(PROVED, f"{how} ({count} paths)")


# --- rounds -----------------------------------------------------------------------------


def _first_end(
    sides: _Sides, ends: z3.BoolRef, tracked: list[Tracked], after: int, timeout_ms: int
) -> tuple[str, int | None]:
    """(status, the least round > ``after`` at which ``ends`` holds; None: never)."""
    base = [*tracked, _domain(), Tracked("claim:end", ends), Tracked("after", _round() > after)]
    status, best, _ = optimum(base, _round(), False, timeout_ms)
    if status == VACUOUS:
        out = check(base, timeout_ms)  # never: proved by an unsat (kept for --smt2)
        return (PROVED, None) if out.status == PROVED else (out.status, None)
    return status, best


def rounds(a: Side, b: Side, counts: Sequence[int], timeout_ms: int) -> Comparison:
    """The first round after which the game is over, every total at zero: the least round
    at which either is over, found exactly by Z3, then whether both are over there."""
    how = (
        "the models' game_over run symbolically and compared by Z3: the first round after "
        "which the game is over with every total at zero, every round number"
    )

    def step(s: _Sides) -> Comparison | None:
        tracked, (oa, ob) = s.named("@0", [_at_zero(x, s.seats) for x in s.answers])
        status, first = _first_end(s, z3.Or(_over(oa), _over(ob)), tracked, 0, timeout_ms)
        if status != PROVED:
            return _unknown(how, s.n, f"Z3: {status}")
        ends: list[int | None] = [first, first]
        if first is not None:
            for k, o in enumerate((oa, ob)):
                st, later = _first_end(s, _over(o), tracked, first - 1, timeout_ms)
                if st != PROVED:
                    return _unknown(how, s.n, f"Z3: {st}")
                ends[k] = later
        ra, rb = ends
        if ra == rb:
            return None
        upto = max(r or 0 for r in ends)
        concrete = [_concrete_rounds(x, s.n, upto) for x in (a, b)]
        if concrete != ends:
            why = f"the models do not reproduce Z3's rounds {ends} (they give {concrete})"
            return _unknown(how, s.n, why)
        return Comparison(
            COUNTEREXAMPLE,
            how,
            f"{s.n} players: {ra or 'no end'} rounds in {a.id}, {rb or 'no end'} in {b.id}",
            {"players": s.n, a.id: ra, b.id: rb},
        )

    return _run(a, b, counts, how=how, what="game_over", step=step)


def _concrete_rounds(side: Side, n: int, upto: int) -> int | None:
    """The live model's first round (up to ``upto``) after which the game is over."""
    game = side.game(n)
    zeros = (0,) * game.seats
    return next((r for r in range(1, upto + 1) if side.ruleset.game_over(game, r, zeros)), None)


# --- game end ---------------------------------------------------------------------------


def game_end(a: Side, b: Side, counts: Sequence[int], timeout_ms: int) -> Comparison:
    """Whether the totals change that the game is over after a round (e.g. a target
    score ends it early, or a tie prolongs it), every round number and every vector of
    integer totals."""
    how = (
        "the models' game_over run symbolically and compared by Z3: whether the totals "
        "change that the game is over, every round number and every vector of integer totals"
    )

    def step(s: _Sides) -> Comparison | None:
        t_now, (oa, ob) = s.named("", [(x.kind, x.value) for x in s.answers])
        t_zero, (za, zb) = s.named("@0", [_at_zero(x, s.seats) for x in s.answers])
        ea, eb = z3.Not(_same(oa, za)), z3.Not(_same(ob, zb))
        tracked = [*t_now, *t_zero, _domain(), Tracked("claim:diff:game-end", ea != eb)]
        model = _decide(tracked, s, how, timeout_ms, with_round=True)
        if not isinstance(model, z3.ModelRef):
            return model
        r = _value(model, _round())
        tot = [[_value(model, t) for t in _totals(g.seats)] for g in s.games]
        changes = []  # per side: (over with these totals, whether the totals changed it)
        for side, g, t in zip((a, b), s.games, tot, strict=True):
            over = side.ruleset.game_over(g, r, tuple(t))
            changes.append((over, over != side.ruleset.game_over(g, r, (0,) * g.seats)))
        if changes[0][1] == changes[1][1]:
            return _unknown(how, s.n, f"the models do not reproduce Z3's witness {tot}")
        x, (over, _) = (a, changes[0]) if changes[0][1] else (b, changes[1])
        return Comparison(
            COUNTEREXAMPLE,
            how,
            f"{s.n} players, after round {r} with totals {tot[0]}: the totals "
            f"{'end' if over else 'prolong'} the game in {x.id} only",
            {
                "players": s.n,
                "round": r,
                "totals": tot[0],
                a.id: changes[0][1],
                b.id: changes[1][1],
            },
        )

    return _run(a, b, counts, how=how, what="game_over", step=step)


# --- the winner ---------------------------------------------------------------------------


def winner(a: Side, b: Side, counts: Sequence[int], timeout_ms: int) -> Comparison:
    """Who wins from final totals: every vector of integer totals."""
    how = (
        "the models' winners run symbolically and compared by Z3 on every vector of "
        "integer totals at every player count"
    )

    def step(s: _Sides) -> Comparison | None:
        tracked, (wa, wb) = s.named("", [(x.kind, x.value) for x in s.answers])
        tracked = [*tracked, Tracked("claim:diff:winner", z3.Not(_same(wa, wb)))]
        model = _decide(tracked, s, how, timeout_ms, with_round=False)
        if not isinstance(model, z3.ModelRef):
            return model
        tot = [_value(model, t) for t in _totals(s.seats)]
        won_a, won_b = (
            list(side.ruleset.winners(g, tuple(tot[: g.seats])))
            for side, g in zip((a, b), s.games, strict=True)
        )
        if won_a == won_b:
            return _unknown(how, s.n, f"the models do not reproduce Z3's witness {tot}")
        return Comparison(
            COUNTEREXAMPLE,
            how,
            f"{s.n} players, totals {tot}: {a.id} names {won_a}, {b.id} {won_b}",
            {"players": s.n, "totals": tot, a.id: won_a, b.id: won_b},
        )

    return _run(a, b, counts, how=how, what="winners", step=step)
