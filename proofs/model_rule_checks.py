"""The model held to its set-up and automatic moves as the clauses state them
(:mod:`tricklaw.proofs.model_rules`), in verify's rows ``rule table``, ``rule NAME``.

For one ruleset at one player count:

* ``rule table``: the model's seats (``seat_count``) and cards per hand (``hand_size``)
  are the table's the clauses state, under every reading of the options the game says
  change the table, and the hands of seeded deals have that many cards. Exhaustive (a
  finite domain: the player count and the readings), so ``proved``; an option the game
  does not declare that changes the model's table (tried mechanically, each choice on its
  own) is a ``counterexample``.
* ``rule NAME`` of each :class:`~tricklaw.proofs.model_rules.StateRule`: at every state of
  :data:`GAMES` seeded random games, and at the states where an automatic seat is to
  play (the rules play it inside a step, so a walk never shows it to move: they are
  built from the walk's states, see :func:`samples`), the model's answer is the one the
  rule's Z3 statement allows, and the statement allows one (never vacuous). A sample:
  ``pass``.
* ``rule NAME`` of each :class:`~tricklaw.proofs.model_rules.ExhaustiveRule`: ``proved``
  when the model agrees on the whole finite domain, else a ``counterexample``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import z3

from tricklaw.model import actions
from tricklaw.model.agents import random_states
from tricklaw.model.cards import Card
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game, Phase, State, seat_after
from tricklaw.proofs import winner_rule
from tricklaw.proofs.combinations import option_variants, reading_combinations
from tricklaw.proofs.model_rules import MODEL_RULES, NONE, Exhausted, GameRules, StateRule
from tricklaw.proofs.results import Result
from tricklaw.proofs.rule_coverage import model_modules
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED, UNKNOWN

GAMES = 3
"""Seeded random games whose states a state rule is checked at, under the defaults."""
VARIANT_GAMES = 1
"""Seeded random games under each other value of each option the rule does not read
(:func:`~tricklaw.proofs.combinations.option_variants`)."""
ROUNDS = 2
"""Rounds of each of those games (the second round's start follows from the first's)."""
DEALS = 3
"""Seeded deals whose hands ``rule table`` counts."""
PLAYED = 3
"""Cards of a hand tried before an automatic seat's turn (the first, middle and last
legal card)."""


def _label(readings: Mapping[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in readings.items()) or "default"


def _row(
    name: str,
    ruleset: Ruleset[Any],
    players: int,
    label: str,
    start: float,
    *,
    status: str,
    clauses: tuple[str, ...],
    detail: str,
    witness: Mapping[str, Any],
) -> Result:
    seconds = time.perf_counter() - start
    return Result(
        f"rule {name}",
        ruleset.id,
        str(players),
        label,
        status,
        seconds,
        clauses,
        detail,
        dict(witness),
    )


# --- the table --------------------------------------------------------------------------


def dealt(game: Game, seeds: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """For each of ``seeds`` seeded games: the seed and each seat's number of cards at
    the first round's start (the seat's hand, plus any card it already played there)."""
    for seed in range(1, seeds + 1):
        state = next(random_states(game, seed, max_rounds=1))
        played = [0] * game.seats
        for k in range(len(state.trick)):
            played[seat_after(state.info.seating, state.leader, k)] += 1
        yield seed, tuple(len(h) + p for h, p in zip(state.hands, played, strict=True))


def _readings(names: tuple[str, ...], count: int) -> str:
    return f"under all {count} readings of {', '.join(names)}" if names else "(no option read)"


def _table_of(game: Game) -> tuple[int, int]:
    return game.seats, game.ruleset.hand_size(game)


def table_results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], rules: GameRules
) -> list[Result]:
    """``rule table`` (see the module docstring)."""
    start = time.perf_counter()
    wrong: dict[str, Any] = {}
    clauses: set[str] = set()
    combos = reading_combinations(ruleset, rules.table_readings, chosen)
    for readings in combos:
        game = ruleset.make_game(players, {**chosen, **readings})
        stated = rules.table(game)
        clauses.update(stated.clauses)
        model = _table_of(game)
        if model != (stated.seats, stated.hand):
            wrong = {
                "reading": readings,
                "model": list(model),
                "clauses": [stated.seats, stated.hand],
            }
            break
        try:
            deals = list(dealt(game, DEALS))
        except Exception as exc:  # the model failing to deal its own game
            wrong = {"reading": readings, "raised": repr(exc)}
            break
        for seed, sizes in deals:
            if any(n != stated.hand for n in sizes):
                wrong = {
                    "reading": readings,
                    "seed": seed,
                    "hands": list(sizes),
                    "clauses": stated.hand,
                }
                break
        if wrong:
            break
    undeclared = [] if wrong else _undeclared(ruleset, players, chosen, rules)
    if undeclared:
        wrong = undeclared[0]
    status = COUNTEREXAMPLE if wrong else PROVED
    detail = (
        "the model's table is not the clauses'"
        if wrong
        else f"exhaustive: seat_count and hand_size {_readings(rules.table_readings, len(combos))}"
        f" (every other option, each choice on its own, changes neither), and the hands of "
        f"{DEALS} seeded deals under each"
    )
    return [
        _row(
            "table",
            ruleset,
            players,
            "every reading",
            start,
            status=status,
            clauses=tuple(sorted(clauses)),
            detail=detail,
            witness=wrong,
        )
    ]


def _undeclared(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], rules: GameRules
) -> list[dict[str, Any]]:
    """Each choice of an option outside ``rules.table_readings`` (alone, the rest at their
    defaults) that changes the model's seats or hand size."""
    base = _table_of(ruleset.make_game(players, dict(chosen)))
    out = []
    for spec in ruleset.option_specs:
        if spec.name in rules.table_readings or spec.name in chosen or not spec.choices:
            continue
        for value in spec.choices:
            table = _table_of(ruleset.make_game(players, {**chosen, spec.name: value}))
            if table != base:
                out.append({"undeclared": f"{spec.name}={value}", "model": list(table)})
    return out


# --- the state rules ----------------------------------------------------------------------


def _automatic_turns(state: State[Any]) -> Iterator[tuple[str, State[Any]]]:
    """``state``, then (named) the states at which the rules make an automatic seat play,
    which a walk never shows: when the seat to play next in the trick is automatic, the
    state after the current player's card (:data:`PLAYED` of his legal cards, spread over
    his hand); and the state itself with each automatic seat to play that has not played
    to the trick yet (its turn after the trick before, or at another place at the
    table)."""
    yield "", state
    game = state.info.game
    if state.phase is not Phase.PLAY or len(state.trick) >= game.seats:
        return
    seating, leader, size = state.info.seating, state.leader, len(state.trick)
    played = {seat_after(seating, leader, k) for k in range(size)}
    after = seat_after(seating, leader, size + 1)
    if size + 1 < game.seats and state.current < game.players and after >= game.players:
        cards = game.ruleset.legal_actions(state)
        spread = cards[:: max(1, len(cards) // (PLAYED - 1))][:PLAYED]
        for card in dict.fromkeys(actions.card_of(a) for a in spread):
            hands = list(state.hands)
            hands[state.current] = tuple(c for c in hands[state.current] if c != card)
            after_card = state._replace(
                trick=(*state.trick, card), hands=tuple(hands), current=after
            )
            yield (
                f", {game.ruleset.palette.format(card)} played, automatic seat to play",
                after_card,
            )
    for seat in range(game.players, game.seats):
        if seat not in played and seat != state.current:
            yield ", automatic seat to play instead", state._replace(current=seat)


def samples(game: Game, games: int) -> Iterator[tuple[str, State[Any]]]:
    """The states a state rule is checked at (see the module docstring), named."""
    for seed in range(1, games + 1):
        for step, state in enumerate(random_states(game, seed, max_rounds=ROUNDS)):
            for how, probe in _automatic_turns(state):
                yield f"seed {seed}, step {step}{how}", probe


def variant_samples(
    games: Sequence[tuple[str, Game]],
) -> Iterator[tuple[str, Game, State[Any]]]:
    """:func:`samples` of :data:`GAMES` games of the first of ``games`` (labelled options
    and games), then of :data:`VARIANT_GAMES` of each other, named with the options."""
    for at, (label, game) in enumerate(games):
        for name, state in samples(game, VARIANT_GAMES if at else GAMES):
            yield (f"{label}: {name}" if at else name), game, state


def check_state_rule(
    rule: StateRule, games: Sequence[tuple[str, Game]], timeout_ms: int
) -> tuple[str, str, dict[str, Any], set[str]]:
    """(status, detail, witness, clauses) of ``rule`` at the sampled states of ``games``
    (:func:`variant_samples`); a model that raises while playing its own game is a
    counterexample."""
    try:
        return _check_states(rule, games, timeout_ms)
    except Exception as exc:
        return (
            COUNTEREXAMPLE,
            f"the model raised {exc!r} in a seeded game",
            {"raised": repr(exc)},
            set(),
        )


def _check_states(
    rule: StateRule, games: Sequence[tuple[str, Game]], timeout_ms: int
) -> tuple[str, str, dict[str, Any], set[str]]:
    """:func:`check_state_rule`, without catching the model's exceptions."""
    out = z3.Int(f"{rule.name}_outcome")
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    clauses: set[str] = set()
    checked = acting = 0
    asked: dict[tuple[tuple[int, ...], int], list[z3.BoolRef]] = {}
    for name, game, state in variant_samples(games):
        tracked = rule.rule(game, state, out)
        clauses.update(t.clause for t in tracked)
        try:
            want = rule.model(game, state)
        except Exception as exc:  # the model failing on a state of its own game
            witness = {"state": name, "current": state.current, "raised": repr(exc)}
            return COUNTEREXAMPLE, f"{name}: the model raised {exc!r}", witness, clauses
        checked += 1
        acting += want != NONE
        # Most states ask the solver the same question (the rule's statement at a state
        # reads a few facts of it). Z3 shares equal terms, so equal statements have the
        # same ids while they live: a question asked and answered before (the formulas
        # kept alive in ``asked``) is not asked again.
        question = (tuple(t.formula.get_id() for t in tracked), want)
        if question in asked:
            continue
        asked[question] = [t.formula for t in tracked]
        solver.push()
        solver.add(*[t.formula for t in tracked])
        some = solver.check()
        other = z3.unsat
        found = None
        if some == z3.sat:
            other = solver.check(out != want)
            found = solver.model() if other == z3.sat else None
        solver.pop()
        if z3.unknown in (some, other):
            return UNKNOWN, f"{name}: Z3 did not answer", {"state": name}, clauses
        if some == z3.unsat or found is not None:
            says = "nothing" if found is None else found.eval(out, True).as_long()
            fmt = game.ruleset.palette.format
            witness = {
                "state": name,
                "current": state.current,
                "trick": [fmt(c) for c in state.trick],
                "model": fmt(Card(want)) if rule.card and want >= 0 else want,
                "rule": fmt(Card(says))
                if rule.card and isinstance(says, int) and says >= 0
                else says,
            }
            why = (
                "the rule allows no outcome"
                if found is None
                else "the model's answer is not the rule's"
            )
            return COUNTEREXAMPLE, f"{name}: {why}", witness, clauses
    detail = (
        f"{checked} states of seeded games of up to {ROUNDS} rounds ({GAMES} under the "
        f"defaults, {VARIANT_GAMES} under each of {len(games) - 1} other sets of options; "
        f"{acting} where the model acts; {len(asked)} distinct questions to Z3): the "
        "model's answer is the rule's only one"
    )
    return "pass", detail, {}, clauses


def state_results(
    ruleset: Ruleset[Any],
    players: int,
    chosen: Mapping[str, str],
    rules: GameRules,
    timeout_ms: int,
) -> list[Result]:
    """``rule NAME`` for each state rule of the game at ``players``, every reading."""
    out = []
    for rule in rules.states:
        if rule.players is not None and players not in rule.players:
            continue
        for readings in reading_combinations(ruleset, rule.readings, chosen):
            start = time.perf_counter()
            game = ruleset.make_game(players, {**chosen, **readings})
            games = option_variants(ruleset, game, {*chosen, *readings})
            status, detail, witness, clauses = check_state_rule(rule, games, timeout_ms)
            out.append(
                _row(
                    rule.name,
                    ruleset,
                    players,
                    _label(readings),
                    start,
                    status=status,
                    clauses=tuple(sorted(clauses)),
                    detail=detail,
                    witness=witness,
                )
            )
    return out


# --- the exhaustive rules -------------------------------------------------------------------


def exhaustive_results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], rules: GameRules
) -> list[Result]:
    """``rule NAME`` for each exhaustive rule of the game at ``players``, every reading."""
    out = []
    modules = model_modules(ruleset)
    for rule in rules.exhaustive:
        if rule.players is not None and players not in rule.players:
            continue
        for readings in reading_combinations(ruleset, rule.readings, chosen):
            start = time.perf_counter()
            game = ruleset.make_game(players, {**chosen, **readings})
            try:
                found = rule.check(game, modules)
            except Exception as exc:  # the model failing on an input of the domain
                found = Exhausted(0, "the model raised", {"raised": repr(exc)})
            status = PROVED if found.witness is None else COUNTEREXAMPLE
            detail = (
                f"exhaustive: {found.cases} cases ({found.domain})"
                if found.witness is None
                else f"the model is not the rule's on one of {found.cases} cases ({found.domain})"
            )
            out.append(
                _row(
                    rule.name,
                    ruleset,
                    players,
                    _label(readings),
                    start,
                    status=status,
                    clauses=rule.clauses,
                    detail=detail,
                    witness=dict(found.witness or {}),
                )
            )
    return out


def results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """Every row of this module's docstring for ``ruleset`` at ``players``."""
    winners = winner_rule.results(ruleset, players, chosen, timeout_ms)
    rules = MODEL_RULES.get(ruleset.id)
    if rules is None:
        return winners
    return [
        *winners,
        *table_results(ruleset, players, chosen, rules),
        *state_results(ruleset, players, chosen, rules, timeout_ms),
        *exhaustive_results(ruleset, players, chosen, rules),
    ]
