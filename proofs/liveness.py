"""Liveness and progress, proved by induction over each game's counting machine.

Card conservation (:mod:`tricklaw.proofs.conservation`) follows *which* card is where;
liveness needs only *how many*: each game's **progress machine** (:class:`Progress`)
has integer state variables (each seat's hand size ``h0, h1, ...``, the cards in the
trick ``t``, the seat to act ``cur``, the leader ``lead``, the cards each seat held at
the trick's start ``k``, a phase ``ph``, and whatever else the game counts: picks,
points cards, decisions pending), an initial condition from the deal clause, an
invariant, and steps (a player's decision or a move of the rules: a trick closed, a
points card turned up, the ghost's card), each with its guard and effect, written from
the clause that states it. The obligations (each a :func:`~tricklaw.proofs.solver.check`
of tracked assertions, so an unsat core names the clauses it rests on):

* **action** (``liveness-action``): the deal satisfies the invariant (base); every step
  keeps it (step); and in every state satisfying it where the round is not over some
  step is enabled (enabled). A player's step is guarded by "the seat holds a card", so
  with the game's *lemmas* (:class:`Lemma`: a keep, a pick, a start player or a
  designation set is always there to choose, a face-up card for Hund's virtual player)
  and the play rule's (:mod:`tricklaw.proofs.play_lemma`: some card of every non-empty
  hand may be played) every non-terminal state has a legal action;
* **round** (``liveness-round``): a ranking function that every step decreases and the
  invariant keeps non-negative, so a round ends (checked in the same query as the
  step's invariant, the counterexample saying which part failed); its greatest value
  at the deal bounds the actions of a round, and a second count bounds the players'
  decisions, which must not exceed the model's ``max_decisions`` (the bound its
  episodes rely on);
* **non-vacuity**: the deal is satisfiable, the invariant holds in some state where the
  round is not over, and every step can fire from some state satisfying it; a lemma's
  premises are satisfiable. A proof over an empty set of states proves nothing, so each
  is checked. The tests also hold every state the model reaches in random games to the
  invariant (:attr:`Progress.observe`), so the machine is the model's game.

Whether the *game* ends is :mod:`tricklaw.proofs.game_end`'s part. Each game writes its
machine in its encoding module (:mod:`tricklaw.proofs.encodings`) and registers it in
:data:`LIVENESS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from tricklaw.model.registry import Registry
from tricklaw.model.state import Game
from tricklaw.proofs.solver import PROVED, Outcome, Tracked, check, optimum

Vars = dict[str, z3.ArithRef]
"""A state of a progress machine: variable name -> its Z3 integer."""
Effect = Callable[[Vars], tuple[z3.BoolRef, dict[str, z3.ArithRef]]]
"""A step: from the state, its guard and the new values of the variables it changes."""


def _true(v: Vars) -> z3.BoolRef:
    return z3.BoolVal(True)


@dataclass(frozen=True)
class Step:
    """One kind of step: its clause, its guard and effect, when a player decides it
    (else the rules make it: the ghost's card, a trick closed), and the range of any
    free choice it makes (the seat that wins a trick, the seat named to start), which
    the guard does not constrain: the step is enabled whatever the choice."""

    name: str
    clause: str
    decision: Callable[[Vars], z3.BoolRef]
    apply: Effect
    choice: Callable[[Vars], z3.BoolRef] = _true


@dataclass(frozen=True)
class Lemma:
    """A fact the machine's guards stand for, proved on its own: ``premises`` and the
    negated ``claim`` together are unsatisfiable; the premises alone are not."""

    name: str
    premises: Callable[[], list[Tracked]]
    claim: Callable[[], z3.BoolRef]


@dataclass(frozen=True)
class Progress:
    """One game's progress machine at one table under one reading."""

    ruleset: str
    names: tuple[str, ...]
    deal_clause: str
    init: Callable[[Vars], z3.BoolRef]
    invariant: Callable[[Vars], z3.BoolRef]
    over: Callable[[Vars], z3.BoolRef]
    """The round is over."""
    steps: tuple[Step, ...]
    rank: Callable[[Vars], z3.ArithRef]
    """Decreased by every step, never negative under the invariant."""
    decisions: Callable[[Vars], z3.ArithRef]
    """The players' decisions left: a decision decreases it, no step increases it."""
    lemmas: tuple[Lemma, ...] = ()
    hand: str = "h0"
    """The variable holding seat 0's hand at the deal (checked against the model)."""
    observe: Callable[[Any], dict[str, int]] | None = None
    """A model state (:class:`~tricklaw.model.state.State`) as the machine's variables, for
    the tests that hold the model's reachable states to the invariant."""


@dataclass(frozen=True)
class GameLiveness:
    """A game's part of the liveness layer: the options its machines read, and how to
    build the progress machine and the game's ending for one game."""

    readings: tuple[str, ...]
    """The options the progress machine (and its lemmas) read."""
    progress: Callable[[Game], Progress]
    end_readings: tuple[str, ...]
    """The options the game's end reads, and the scores a round can give."""
    ending: Callable[[Game], Any]
    """``game -> tricklaw.proofs.game_end.Ending``."""


LIVENESS: Registry[GameLiveness] = Registry("liveness machine", "tricklaw.proofs.encodings")
"""Ruleset id -> its liveness part, registered by each game's encoding module."""


# --- building blocks the games share ----------------------------------------------------


def state(names: Sequence[str], tag: str) -> Vars:
    """Fresh integers for ``names``, suffixed with ``tag``."""
    return {n: z3.Int(f"{n}_{tag}") for n in names}


def hands(seats: int) -> tuple[str, ...]:
    """The hand-size variables ``h0 .. h{seats-1}``."""
    return tuple(f"h{s}" for s in range(seats))


def offset(seat: int, v: Vars, seats: int) -> z3.ArithRef:
    """How many places clockwise ``seat`` sits from the leader (0 .. seats-1)."""
    d = seat - v["lead"]
    return z3.If(d >= 0, d, d + seats)


def after(seat: int, seats: int) -> int:
    """The seat clockwise after ``seat``."""
    return (seat + 1) % seats


def seat_of(v: Vars, name: str, seats: int) -> z3.BoolRef:
    """``v[name]`` is a seat."""
    return z3.And(v[name] >= 0, v[name] < seats)


def trick_invariant(v: Vars, seats: int, extra: int = 0) -> z3.BoolRef:
    """The hands in a trick: the seats that have played to it hold ``k + extra - 1``
    cards, the others ``k + extra``; the seat to act sits ``t`` places from the leader."""
    return z3.And(
        seat_of(v, "lead", seats),
        v["t"] >= 0,
        v["t"] <= seats,
        z3.Implies(v["t"] < seats, z3.And(seat_of(v, "cur", seats), offset_of_cur(v, seats))),
        *[
            v[f"h{s}"] == v["k"] + extra - z3.If(offset(s, v, seats) < v["t"], 1, 0)
            for s in range(seats)
        ],
    )


def offset_of_cur(v: Vars, seats: int, count: str = "t") -> z3.BoolRef:
    """The seat to act sits ``v[count]`` places clockwise from the leader."""
    return z3.Or(*[z3.And(v["cur"] == s, offset(s, v, seats) == v[count]) for s in range(seats)])


def held(v: Vars, seats: int, who: z3.ArithRef) -> z3.ArithRef:
    """The hand size of seat ``who`` (a symbolic seat)."""
    out: z3.ArithRef = v["h0"]
    for s in range(1, seats):
        out = z3.If(who == s, v[f"h{s}"], out)
    return out


def take_one(v: Vars, seats: int, who: z3.ArithRef) -> dict[str, z3.ArithRef]:
    """Every hand, seat ``who``'s one card fewer."""
    return {f"h{s}": z3.If(who == s, v[f"h{s}"] - 1, v[f"h{s}"]) for s in range(seats)}


def next_seat(x: z3.ArithRef, seats: int) -> z3.ArithRef:
    """The seat clockwise after the symbolic seat ``x``."""
    return z3.If(x == seats - 1, 0, x + 1)


def play_step(seats: int, players: int, clause: str, guard: Callable[[Vars], z3.BoolRef]) -> Step:
    """The seat to act plays a card of its hand to the trick (``clause``): a decision of
    a player, a move of the rules for an automatic seat (``seat >= players``). ``guard``
    adds the game's own conditions (its phase)."""

    def apply(v: Vars) -> tuple[z3.BoolRef, dict[str, z3.ArithRef]]:
        cur = v["cur"]
        pre = z3.And(guard(v), v["t"] < seats, held(v, seats, cur) >= 1)
        return pre, {**take_one(v, seats, cur), "t": v["t"] + 1, "cur": next_seat(cur, seats)}

    return Step("a card played", clause, lambda v: v["cur"] < players, apply)


# --- the obligations ---------------------------------------------------------------------


def _frame(before: Vars, after_: Vars, changed: dict[str, z3.ArithRef]) -> list[z3.BoolRef]:
    return [after_[n] == changed.get(n, before[n]) for n in before]


def _decode(v: Vars) -> Callable[[z3.ModelRef], dict[str, Any]]:
    return lambda m: {n: m.eval(x, model_completion=True).as_long() for n, x in v.items()}


def base(p: Progress, timeout_ms: int) -> Outcome:
    """The deal satisfies the invariant."""
    v = state(p.names, "deal")
    return check(
        [
            Tracked(p.deal_clause, p.init(v)),
            Tracked("claim:invariant-fails-at-deal", z3.Not(p.invariant(v))),
        ],
        timeout_ms,
        _decode(v),
    )


Memo = dict[tuple[tuple[str, int], ...], list[tuple[list[z3.BoolRef], Outcome]]]
"""Outcomes of checks already run, by their assertions (a machine that differs from
another only in its deal, such as Hund with more cards, repeats their steps)."""


def remembered(
    assertions: list[Tracked], timeout_ms: int, memo: Memo | None, decode: Any
) -> Outcome:
    """:func:`~tricklaw.proofs.solver.check`, or the outcome of the very same assertions
    (structurally equal formulas under the same names) checked before."""
    if memo is None:
        return check(assertions, timeout_ms, decode)
    key = tuple((a.clause, a.formula.hash()) for a in assertions)
    for formulas, outcome in memo.get(key, []):
        if all(f.eq(a.formula) for f, a in zip(formulas, assertions, strict=True)):
            return outcome
    outcome = check(assertions, timeout_ms, decode)
    memo.setdefault(key, []).append(([a.formula for a in assertions], outcome))
    return outcome


def step(p: Progress, s: Step, timeout_ms: int, memo: Memo | None = None) -> Outcome:
    """Step ``s`` keeps the invariant, lowers the rank (never negative before it) and the
    decisions left by one if it is a decision (never raises them). A counterexample's
    witness says which part failed (``invariant``, ``rank``)."""
    v, w = state(p.names, "before"), state(p.names, "after")
    pre, changed = s.apply(v)
    keeps = p.invariant(w)
    fall = z3.If(s.decision(v), 1, 0)
    ranks = z3.And(
        p.rank(v) >= 0,
        p.rank(w) < p.rank(v),
        p.decisions(v) >= 0,
        p.decisions(w) <= p.decisions(v) - fall,
    )

    def decode(m: z3.ModelRef) -> dict[str, Any]:
        out = _decode(v)(m)
        out["invariant"] = bool(z3.is_true(m.eval(keeps, model_completion=True)))
        out["rank"] = bool(z3.is_true(m.eval(ranks, model_completion=True)))
        return out

    return remembered(
        [
            Tracked("hypothesis:invariant", p.invariant(v)),
            Tracked("hypothesis:round-not-over", z3.Not(p.over(v))),
            Tracked(s.clause, z3.And(pre, s.choice(v), *_frame(v, w, changed))),
            Tracked("claim:invariant-broken-or-rank-not-decreasing", z3.Not(z3.And(keeps, ranks))),
        ],
        timeout_ms,
        memo,
        decode,
    )


def enabled(p: Progress, timeout_ms: int, memo: Memo | None = None) -> Outcome:
    """In every state of the invariant where the round is not over, some step can fire."""
    v = state(p.names, "now")
    guards = [s.apply(v)[0] for s in p.steps]
    return remembered(
        [
            Tracked("hypothesis:invariant", p.invariant(v)),
            Tracked("hypothesis:round-not-over", z3.Not(p.over(v))),
            Tracked("claim:no-step-enabled", z3.Not(z3.Or(*guards))),
        ],
        timeout_ms,
        memo,
        _decode(v),
    )


def satisfiable(assertions: list[Tracked], timeout_ms: int) -> bool:
    """Whether ``assertions`` have a model (a premise is not vacuous); unknown is no."""
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*[a.formula for a in assertions])
    return bool(solver.check() == z3.sat)


def premises_live(p: Progress, timeout_ms: int) -> list[str]:
    """The premises found empty: the deal; each step's choice on its own (a choice must
    range over the step's own variables, never constrain the state: then the step is
    enabled whenever its guard holds, as :func:`enabled` assumes); the invariant with
    the round under way; each step's guard (and choice) under it; each lemma's premises.
    An empty list: none is vacuous."""
    v = state(p.names, "now")
    empty = []
    if not satisfiable([Tracked(p.deal_clause, p.init(state(p.names, "deal")))], timeout_ms):
        empty.append("the deal")
    for s in p.steps:  # a choice ranges over its own variables, whatever the state
        if not satisfiable([Tracked(s.clause, s.choice(v))], timeout_ms):
            empty.append(f"the choice of {s.name!r}")
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(p.invariant(v), z3.Not(p.over(v)))
    if solver.check() != z3.sat:
        empty.append("the invariant (round under way)")
    for s in p.steps:
        solver.push()
        solver.add(s.apply(v)[0], s.choice(v))
        if solver.check() != z3.sat:
            empty.append(f"the guard of {s.name!r}")
        solver.pop()
    for lemma in p.lemmas:
        if not satisfiable(lemma.premises(), timeout_ms):
            empty.append(f"the premises of lemma {lemma.name!r}")
    return empty


def lemma(item: Lemma, timeout_ms: int) -> Outcome:
    """``item``'s claim follows from its premises."""
    return check(
        [*item.premises(), Tracked(f"claim:{item.name}", z3.Not(item.claim()))], timeout_ms
    )


def bound(p: Progress, of: Callable[[Vars], z3.ArithRef], timeout_ms: int) -> int | None:
    """The greatest value of ``of`` at a deal (None if unknown or unbounded): the value
    at some deal, proved greatest by one more check (a deal fixes nearly everything),
    else found by :func:`~tricklaw.proofs.solver.optimum`."""
    v = state(p.names, "deal")
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(p.init(v))
    if solver.check() != z3.sat:
        return None
    value = solver.model().eval(of(v), model_completion=True)
    if z3.is_int_value(value):
        solver.add(of(v) > value)
        if solver.check() == z3.unsat:
            return int(value.as_long())
    status, best, _ = optimum([Tracked(p.deal_clause, p.init(v))], of(v), True, timeout_ms)
    return best if status == PROVED else None


# --- the round of a trick-taking game ----------------------------------------------------

PLAY, SELECT, CHOOSE, TURN, NAME, SETS = range(6)
"""Phases of the machines: play a card, pick a hidden card, decide on a won card, turn
up a card (the rules), name the start player, choose designation sets."""


def observed(state: Any, ph: int, **extra: int) -> dict[str, int]:
    """The variables every trick machine has, read off a model state (one decision
    awaited, so the round is under way): the hands, the trick, the seat to act, the
    leader, the phase ``ph``; ``k`` is the hand of the seat to act, which has not played
    yet; ``extra`` adds the game's own."""
    hands_now = {f"h{s}": len(hand) for s, hand in enumerate(state.hands)}
    return {
        **hands_now,
        "t": len(state.trick),
        "cur": state.current,
        "lead": state.leader,
        "k": len(state.hands[state.current]),
        "ph": ph,
        "over": 0,
        **extra,
    }


def holds_at(p: Progress, values: Mapping[str, int]) -> bool:
    """Whether the invariant of ``p`` holds at the concrete ``values``."""
    v = state(p.names, "seen")
    pairs = [(v[n], z3.IntVal(values[n])) for n in p.names]
    return bool(z3.is_true(z3.simplify(z3.substitute(p.invariant(v), *pairs))))


def trick_names(seats: int, *extra: str) -> tuple[str, ...]:
    """The variables every trick machine has, and ``extra``."""
    return (*hands(seats), "t", "cur", "lead", "k", "ph", "over", *extra)


def leads(v: Vars, seats: int, first: int | None) -> z3.BoolRef:
    """The leader at the deal: seat ``first``, or any seat when None."""
    return seat_of(v, "lead", seats) if first is None else v["lead"] == first


def dealt(v: Vars, seats: int, hand: int, lead: z3.BoolRef, ph: int) -> z3.BoolRef:
    """At the deal: every seat holds ``hand`` cards, nothing is played, the leader as
    ``lead`` says and to act, in phase ``ph``."""
    return z3.And(
        *[v[f"h{s}"] == hand for s in range(seats)],
        v["t"] == 0,
        lead,
        v["cur"] == v["lead"],
        v["ph"] == ph,
        v["over"] == 0,
    )


def in_play(v: Vars, seats: int) -> z3.BoolRef:
    """The invariant of the play phase, and of the round's end: hands as
    :func:`trick_invariant` says; under way, a trick left to play (``k >= 1``); over,
    every hand empty."""
    return z3.And(
        trick_invariant(v, seats),
        v["k"] >= 0,
        z3.Implies(v["over"] == 0, v["k"] >= 1),
        z3.Implies(v["over"] != 0, z3.And(v["k"] == 0, v["t"] == 0)),
        z3.Or(v["over"] == 0, v["over"] == 1),
    )


def _winner() -> z3.ArithRef:
    """The seat that takes a closed trick: any seat (made in the current Z3 context)."""
    return z3.Int("winner")


def close_step(
    seats: int, clause: str, then: Callable[[Vars, z3.ArithRef], dict[str, z3.ArithRef]]
) -> Step:
    """A full trick is closed (``clause``): any seat (``winner``) leads next, each
    seat now holding one card fewer than at the trick's start; ``then(v, w)`` adds what
    the game does next (the round's end, a decision)."""
    winner = _winner()

    def apply(v: Vars) -> tuple[z3.BoolRef, dict[str, z3.ArithRef]]:
        pre = z3.And(v["ph"] == PLAY, v["t"] == seats)
        changed = {"t": z3.IntVal(0), "lead": winner, "cur": winner, "k": v["k"] - 1}
        return pre, {**changed, **then(v, winner)}

    def choice(v: Vars) -> z3.BoolRef:
        return z3.And(winner >= 0, seats > winner)

    return Step("a trick closed", clause, lambda v: z3.BoolVal(False), apply, choice)


def end_when_empty(
    seats: int, seat: Callable[[z3.ArithRef], z3.ArithRef]
) -> Callable[[Vars, z3.ArithRef], dict[str, z3.ArithRef]]:
    """After a trick: the round is over when the hand of ``seat(w)`` is empty (``w`` the
    new leader): the model's own test."""
    return lambda v, w: {"over": z3.If(held(v, seats, seat(w)) == 0, 1, 0)}


def plain_round(
    ruleset: str,
    seats: int,
    players: int,
    hand: int,
    clause: Mapping[str, str],
    *,
    first: int | None = None,
) -> Progress:
    """The round of a game with no decision but the cards played: seat ``first`` (or any
    seat) leads, each plays in turn, the trick's winner leads next; over when seat 0's
    hand is empty."""
    names = trick_names(seats)
    return Progress(
        ruleset,
        names,
        clause["deal"],
        lambda v: z3.And(dealt(v, seats, hand, leads(v, seats, first), PLAY), v["k"] == hand),
        lambda v: z3.And(v["ph"] == PLAY, in_play(v, seats)),
        lambda v: v["over"] != 0,
        (
            play_step(seats, players, clause["turn"], lambda v: v["ph"] == PLAY),
            close_step(seats, clause["collect"], end_when_empty(seats, lambda w: z3.IntVal(0))),
        ),
        lambda v: z3.Sum(*[v[f"h{s}"] for s in range(seats)]) + v["k"],
        lambda v: z3.Sum(*[v[f"h{s}"] for s in range(players)]),
        observe=lambda st: observed(st, PLAY),
    )
