"""The model held to each round rule (:mod:`tricklaw.proofs.round_rules`) on sampled rounds.

For each rule of a ruleset at a player count where it applies, and each combination of
the readings it reads, finished rounds of seeded random games of the model are read:
:data:`ROUNDS` under the other options' defaults, then :data:`VARIANT_ROUNDS` under each
other value of every other option on its own
(:func:`~tricklaw.proofs.combinations.option_variants`; with the values it acts
with), since an option the rule does not read can still decide which of its cases a
round meets (Hund's Lead goes to no suit only when two designation sets may name one
suit). The rule's inputs become constraints, and one incremental Z3 solver checks that
the rule under them is satisfiable (so no check is vacuous) and that no outcome other
than the model's satisfies it (so the model's is the rule's one answer). A rule that
leaves a choice (:attr:`~tricklaw.proofs.round_rules.RoundRule.chooses`, a draw) is
checked to allow the model's outcome instead, and must forbid, in some sampled round, an
outcome the model gave in another round: a rule that allows every answer the model gives
checks nothing, and the row fails.

Each case of the rule (an assertion ``premise => ...`` whose premise is stated over the
inputs alone) must be met by some round: a case no round meets is left unchecked, and
the row says so and fails (``fail``, naming the clause and the premise), so that a rule
can never pass on a sample that never asks it the question.

The row (``rule NAME``) is ``pass`` (a sample, never ``proved``) when every round
agrees and every case is met, a ``counterexample`` naming the round (options, seed and
round), its inputs, and the model's answer when a round disagrees, ``unknown`` when Z3
does not answer.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import z3

from tricklaw.model.agents import play_random_game, random_states
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game, Phase, RoundLog
from tricklaw.proofs.combinations import option_variants, reading_combinations, with_deck_variants
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.equivalence import deck_difference
from tricklaw.proofs.plays import PLAYS
from tricklaw.proofs.results import Result
from tricklaw.proofs.round_rules import ROUND_RULES, RoundRule
from tricklaw.proofs.solver import COUNTEREXAMPLE, UNKNOWN, Tracked
from tricklaw.proofs.statuses import FAIL

ROUNDS = 24
"""Seeded random rounds per rule, player count and reading, under the defaults."""
VARIANT_ROUNDS = 4
"""Seeded random rounds under each other value of each other option
(:func:`~tricklaw.proofs.combinations.option_variants`)."""


def rounds(game: Game, count: int) -> Iterator[tuple[str, tuple[RoundLog, ...]]]:
    """``count`` finished rounds of seeded random games, each named by seed and round,
    with the game's rounds up to and including it (the round is the last)."""
    seed, given = 1, 0
    while given < count and seed <= 4 * count:
        history = play_random_game(game, seed, max_rounds=count - given).history
        for at, log in enumerate(history):
            yield f"seed {seed}, round {log.index + 1}", tuple(history[: at + 1])
            given += 1
        seed += 1


def values(rule: RoundRule, game: Game, logs: tuple[RoundLog, ...]) -> dict[str, int]:
    """The values ``rule`` is stated over in the last of ``logs`` (a game's rounds so far):
    the round's own, and those of the game's rounds (:attr:`RoundRule.history`)."""
    out = dict(rule.inputs(game, logs[-1]))
    if rule.history is not None:
        out |= rule.history(game, logs)
    return out


def sampled_rounds(
    variants: Sequence[tuple[str, Game]],
) -> Iterator[tuple[str, Game, tuple[RoundLog, ...]]]:
    """:data:`ROUNDS` rounds of the first of ``variants`` then :data:`VARIANT_ROUNDS` of
    each other, each named (options, seed and round) with its game and the game's rounds
    up to it."""
    for at, (label, game) in enumerate(variants):
        for name, logs in rounds(game, VARIANT_ROUNDS if at else ROUNDS):
            yield (f"{label}: {name}" if at else name), game, logs


Case = tuple[str, z3.BoolRef]
"""A case of a rule: the clause of an assertion ``premise => ...`` and its premise."""


def cases(tracked: Sequence[Tracked], inputs: Mapping[str, z3.ArithRef]) -> list[Case]:
    """The cases of a rule's assertions: each implication whose premise mentions only
    the rule's inputs (so each round meets it or not)."""
    known = {v.get_id() for v in inputs.values()}
    out = []
    for t in tracked:
        if not z3.is_implies(t.formula):
            continue
        premise = t.formula.arg(0)
        if all(c.get_id() in known for c in _constants(premise)):
            out.append((t.clause, premise))
    return out


def _constants(expr: z3.ExprRef) -> list[z3.ExprRef]:
    """The uninterpreted constants ``expr`` mentions."""
    seen: dict[int, z3.ExprRef] = {}
    todo = [expr]
    while todo:
        e = todo.pop()
        if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            seen[e.get_id()] = e
        todo.extend(e.children())
    return list(seen.values())


def meets(premise: z3.BoolRef, pairs: Sequence[tuple[z3.ArithRef, z3.ArithRef]]) -> bool:
    """Whether the round whose inputs are ``pairs`` (variable, value) meets ``premise``."""
    return bool(z3.is_true(z3.simplify(z3.substitute(premise, *pairs))))


Checked = tuple[str, str, dict[str, Any], tuple[str, ...]]


def check_rule(rule: RoundRule, games: Sequence[tuple[str, Game]], timeout_ms: int) -> Checked:
    """(status, detail, witness, the rule's clauses) of ``rule`` on the rounds of
    ``games`` (:func:`sampled_rounds`); a model that raises while playing them is a
    counterexample."""
    try:
        return _check_rounds(rule, games, timeout_ms)
    except Exception as exc:  # the model failing to play its own game
        witness = {"raised": repr(exc)}
        return COUNTEREXAMPLE, f"the model raised {exc!r} in a seeded game", witness, ()


def _check_rounds(rule: RoundRule, games: Sequence[tuple[str, Game]], timeout_ms: int) -> Checked:
    """:func:`check_rule`, without catching the model's exceptions."""
    game = games[0][1]
    out = z3.Int(f"{rule.name}_outcome")
    names = sorted(values(rule, game, next(rounds(game, 1))[1]))
    inputs = {n: z3.Int(f"{rule.name}_{n}") for n in names}
    tracked = rule.rule(game, inputs, out)
    clauses = tuple(sorted({t.clause for t in tracked}))
    unmet = cases(tracked, inputs)
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*[t.formula for t in tracked])
    seen: list[tuple[str, dict[str, int], int]] = []
    for name, game, logs in sampled_rounds(games):
        given = values(rule, game, logs)
        pairs = [(inputs[k], z3.IntVal(v)) for k, v in given.items()]
        unmet = [(c, p) for c, p in unmet if not meets(p, pairs)]
        want = rule.model(game, logs[-1])
        seen.append((name, given, want))
        solver.push()
        solver.add(*[inputs[k] == v for k, v in given.items()])
        some = solver.check()
        # a choice rule's counterexample names an outcome the rule would allow
        allowed = solver.model().eval(out, True) if rule.chooses and some == z3.sat else None
        solver.push()
        solver.add(out == want if rule.chooses else out != want)
        other = solver.check() if some == z3.sat else some
        found = solver.model().eval(out, True) if other == z3.sat else None
        solver.pop()
        solver.pop()
        if z3.unknown in (some, other):
            return UNKNOWN, f"{name}: Z3 did not answer", {"round": name}, clauses
        # a choice rule must allow the model's answer; any other rule, no answer but it
        disagrees = other == (z3.unsat if rule.chooses else z3.sat)
        if some == z3.unsat or disagrees:
            says = allowed if rule.chooses else found
            rule_says = "nothing" if says is None else says.as_long()
            witness = {"round": name, "inputs": given, "model": want, "rule": rule_says}
            why = (
                "the rule allows no outcome"
                if some == z3.unsat
                else "the model's answer is not the rule's"
            )
            return COUNTEREXAMPLE, f"{name}: {why}", witness, clauses
    sample = f"{len(seen)} seeded random rounds under {len(games)} sets of options"
    if unmet:
        told = "; ".join(f"{c}: {p}" for c, p in unmet)
        detail = f"{sample}: no round meets the case {told}, so the rule is unchecked there"
        return FAIL, detail, {"unmet": [f"{c}: {p}" for c, p in unmet]}, clauses
    if not rule.chooses:
        return (
            "pass",
            f"{sample}: the model's answer is the rule's only one, in every case",
            {},
            clauses,
        )
    return _choice_discriminates(solver, inputs, out, seen, sample=sample, clauses=clauses)


def _choice_discriminates(
    solver: z3.Solver,
    inputs: Mapping[str, z3.ArithRef],
    out: z3.ArithRef,
    seen: Sequence[tuple[str, dict[str, int], int]],
    *,
    sample: str,
    clauses: tuple[str, ...],
) -> Checked:
    """The end of a choice rule's check, every round's answer being allowed: ``pass``
    naming a round where the rule forbids an answer the model gave in another round, or
    ``fail`` when there is none (the rule is true of every answer the model gives)."""
    answers = sorted({want for _, _, want in seen})
    for name, given, want in seen:
        for answer in answers:
            if answer == want:
                continue
            solver.push()
            solver.add(*[inputs[k] == v for k, v in given.items()], out == answer)
            verdict = solver.check()
            solver.pop()
            if verdict == z3.unknown:
                return UNKNOWN, f"{name}: Z3 did not answer", {"round": name}, clauses
            if verdict == z3.unsat:
                detail = (
                    f"{sample}: the model's answer is one the rule allows, in every case; "
                    f"the rule is no blank cheque: in {name} it forbids {answer}, an answer "
                    "the model gives in other rounds"
                )
                return "pass", detail, {"forbids": {"round": name, "outcome": answer}}, clauses
    detail = (
        f"{sample}: the rule allows every answer the model gave ({answers}) in every round, "
        "so it checks nothing"
    )
    return FAIL, detail, {"answers": answers}, clauses


def rule_results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """``rule NAME`` for every round rule of ``ruleset`` at ``players`` and reading."""
    out = []
    names = {s.name for s in ruleset.option_specs if s.choices}
    for rule in ROUND_RULES.get(ruleset.id, ()):
        if rule.players is not None and players not in rule.players:
            continue
        for readings in reading_combinations(ruleset, rule.readings, chosen):
            start = time.perf_counter()
            game = ruleset.make_game(players, {**chosen, **rule.options, **readings})
            games = option_variants(ruleset, game, {*chosen, *rule.options, *readings})
            status, detail, witness, clauses = check_rule(rule, games, timeout_ms)
            named = {**{k: v for k, v in rule.options.items() if k in names}, **readings}
            out.append(
                Result(
                    f"rule {rule.name}",
                    ruleset.id,
                    str(players),
                    ", ".join(f"{k}={v}" for k, v in named.items()) or "default",
                    status,
                    time.perf_counter() - start,
                    clauses,
                    detail,
                    witness,
                )
            )
    return out


FIRST_HAND_GAMES = 6
"""Seeded random games whose first round's first play is read, per reading."""


def first_hands(game: Game, games: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """For each of ``games`` seeded games: the seed and each player's number of cards
    when the first card of the first round is played."""
    for seed in range(1, games + 1):
        for state in random_states(game, seed, max_rounds=1):
            if state.phase is Phase.PLAY and not state.tricks and not state.trick:
                yield seed, tuple(len(state.hands[s]) for s in range(game.players))
                break


def first_hand_results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """``rule first-hand``: the hand each player holds at the round's first play, as the
    play encoding states it (:meth:`~tricklaw.proofs.plays.PlayEncoding.first_hand`), on
    the model's seeded games under every reading of the play rule."""
    cls = PLAYS.get(ruleset.id)
    out: list[Result] = []
    if cls is None:
        return out
    for readings in reading_combinations(ruleset, cls.readings, chosen):
        start = time.perf_counter()
        game = ruleset.make_game(players, {**chosen, **readings})
        stated = cls(game).first_hand()
        if stated is None:
            continue
        size, clause = stated
        status, detail, witness = "pass", "", {}
        for seed, sizes in first_hands(game, FIRST_HAND_GAMES):
            if any(n != size for n in sizes):
                status = COUNTEREXAMPLE
                detail = f"seed {seed}: hands of {list(sizes)} at the first play, not {size}"
                witness = {"seed": seed, "hands": list(sizes), "rule": size}
                break
        else:
            detail = f"{FIRST_HAND_GAMES} seeded games: {size} cards each at the first play"
        label = ", ".join(f"{k}={v}" for k, v in readings.items()) or "default"
        out.append(
            Result(
                "rule first-hand",
                ruleset.id,
                str(players),
                label,
                status,
                time.perf_counter() - start,
                (clause,),
                detail,
                witness,
            )
        )
    return out


def deck_results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """``rule deck``: the model's deck in play is the trick encoding's deck clause
    (:meth:`~tricklaw.proofs.tricks.TrickEncoding.deck_table`), under every reading and
    deck the encoding declares."""
    cls = ENCODINGS.get(ruleset.id)
    if cls is None:
        return []
    start = time.perf_counter()
    checked, clauses, wrong = 0, set(), []
    for readings in with_deck_variants(ruleset, cls.readings, cls.deck_readings, chosen):
        enc = cls(ruleset.make_game(players, {**chosen, **readings}))
        clauses.add(enc.deck_table()[2])
        checked += 1
        extra = deck_difference(enc)
        if extra:
            wrong.append({"reading": dict(readings), "cards": extra[:6]})
    status = COUNTEREXAMPLE if wrong else "pass"
    detail = (
        f"the model's deck is not the deck clause's under {len(wrong)} of {checked} readings"
        if wrong
        else f"the model's deck is the deck clause's, card for card, under all {checked} readings"
    )
    return [
        Result(
            "rule deck",
            ruleset.id,
            str(players),
            "every reading",
            status,
            time.perf_counter() - start,
            tuple(sorted(clauses)),
            detail,
            wrong[0] if wrong else {},
        )
    ]
