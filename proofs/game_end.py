"""Does every game end? The game-end rule in Z3, and where it can fail, an endless game.

Each game states its end (:class:`Ending`, written in its encoding module from its
game-end clause): ``over(rounds, totals)`` in Z3, and the number of rounds its reading
fixes, if any.

* With a fixed number ``N`` (``end=rounds``, LAST-D-ROUNDS, five rounds of Hund, one deal
  of Tiny, ...): Z3 proves that after ``N`` rounds the game is over whatever the totals
  (``not over(N, totals)`` is unsatisfiable), and the model's ``game_over`` is asked the
  same: over at ``N`` rounds for sample totals (zeros, large, negative), not over
  before. A model whose game never ends fails here.
* With no fixed number (a point target): the game is forced to end only if every round
  brings some total nearer the target. :func:`endless` looks for a round in which nobody
  scores a point, at each position of the seat rotation, by the model's own play: a
  greedy search over the legal actions that keeps every player's score down. The rounds
  found are then **replayed** by the model for two full rotations from explicit deals:
  no total rises, the game never ends, and the round after a rotation opens exactly as
  the first (same dealer, leader, hands): so the cycle repeats forever. That is a
  *finding* (machine ``liveness``) of the dispute the ending names.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from tricklaw.model.actions import action_to_string
from tricklaw.model.rng import SplitMix64
from tricklaw.model.state import Deal, DealSource, Game, Phase, State
from tricklaw.proofs.solver import FAIL, FINDING, Outcome, Tracked, check
from tricklaw.spec.errors import TricklawError

SAMPLE_TOTALS = (0, 1, -1, 10_000, -10_000)
"""Totals every seat is given when the model's ``game_over`` is asked (each alike)."""
SEARCH_SEEDS = range(1, 41)
"""The deals tried for each round of an endless cycle."""


@dataclass(frozen=True)
class Ending:
    """A game's end under one reading: its clause, ``over(rounds played, totals)`` as
    the text states it, the number of rounds the reading fixes (None: no number), and
    the dispute deciding the end (for a finding)."""

    clause: str
    over: Callable[[z3.ArithRef, Sequence[z3.ArithRef]], z3.BoolRef]
    rounds: int | None
    dispute: str = ""
    period: int = 0
    """Rounds after which a round opens as the first again (the seat rotation); 0: as
    many as players."""


def fixed_rounds(ending: Ending, game: Game, timeout_ms: int) -> Outcome:
    """After ``ending.rounds`` rounds the game is over for every total (Z3), and the
    model's ``game_over`` says so too, and not before (sampled totals)."""
    n = ending.rounds
    assert n is not None
    totals = [z3.Int(f"total{s}") for s in range(game.seats)]
    over = z3.Bool("over")
    out = check(
        [
            Tracked(ending.clause, over == ending.over(z3.IntVal(n), totals)),
            Tracked("claim:not-over-after-the-rounds", z3.Not(over)),
        ],
        timeout_ms,
        lambda m: {"totals": [m.eval(t, model_completion=True).as_long() for t in totals]},
    )
    if out.status != "proved":
        out.detail = f"the game is not over after {n} rounds: {out.witness}"
        return out
    ruleset = game.ruleset
    for value in SAMPLE_TOTALS:
        sample = (value,) * game.seats
        if not ruleset.game_over(game, n, sample):
            out.status, out.detail = (
                "fail",
                (
                    f"the model's game_over is false after {n} rounds with totals {sample}, "
                    f"where {ending.clause} ends the game"
                ),
            )
            return out
        early = ending_early(ending, n - 1, value, game.seats)
        if n > 1 and ruleset.game_over(game, n - 1, sample) != early:
            out.status, out.detail = (
                "fail",
                (
                    f"after {n - 1} rounds with totals {sample} the model's game_over says "
                    f"{not early}, {ending.clause} says {early}"
                ),
            )
            return out
    out.detail = f"over after {n} rounds whatever the totals; the model agrees"
    out.witness = {"rounds": n}
    return out


def ending_early(ending: Ending, rounds: int, value: int, seats: int) -> bool:
    """Whether ``ending`` ends the game after ``rounds`` rounds with every total
    ``value`` (a rule may end a game early on a total)."""
    totals = [z3.IntVal(value)] * seats
    return bool(z3.is_true(z3.simplify(ending.over(z3.IntVal(rounds), totals))))


def end_disagreement(ending: Ending, game: Game, timeout_ms: int) -> Outcome | None:
    """Where no reading fixes the rounds (a point target): a ``fail`` where the model's
    ``game_over`` and ``ending.over`` (the clause) disagree, else ``None``. Asked after
    1, 2 and as many rounds as players, of :data:`SAMPLE_TOTALS` and of the totals at
    either side of the edges Z3 finds for the clause (the least and the greatest total
    that ends the game, every seat alike: a target reached or passed, one point off);
    each with every seat alike, the first seat alone, the last seat alone."""
    start = time.perf_counter()
    ruleset = game.ruleset
    values = sorted({*SAMPLE_TOTALS, *_edges(ending, game.seats, timeout_ms)})
    rest = (0,) * (game.seats - 1)
    for rounds in sorted({1, 2, game.players}):
        for value in values:
            for sample in ((value,) * game.seats, (value, *rest), (*rest, value)):
                totals = [z3.IntVal(v) for v in sample]
                says = bool(z3.is_true(z3.simplify(ending.over(z3.IntVal(rounds), totals))))
                if ruleset.game_over(game, rounds, sample) == says:
                    continue
                return Outcome(
                    FAIL,
                    time.perf_counter() - start,
                    (ending.clause,),
                    {"rounds": rounds, "totals": list(sample), "clause says over": says},
                    f"after {rounds} rounds with totals {sample} the model's game_over says "
                    f"{not says}, {ending.clause} says {says}",
                )
    return None


def _edges(ending: Ending, seats: int, timeout_ms: int) -> set[int]:
    """The least and the greatest total, every seat alike, with which ``ending`` ends the
    game after one round, and their neighbours (an unbounded side gives none)."""
    x = z3.Int("edge_total")
    out: set[int] = set()
    for goal in ("minimize", "maximize"):
        opt = z3.Optimize()
        opt.set("timeout", timeout_ms)
        opt.add(ending.over(z3.IntVal(1), [x] * seats))
        handle = getattr(opt, goal)(x)
        if opt.check() == z3.sat and z3.is_int_value(handle.value()):
            edge = handle.value().as_long()
            out |= {edge - 1, edge, edge + 1}
    return out


# --- an endless game ----------------------------------------------------------------------


def _score_now(state: State[Any], players: int, index: int) -> int:
    """The worst (greatest) score of a player in the round under way, as far as it can
    be counted; after the round, its real scores."""
    if state.info.index != index or state.phase is Phase.OVER:
        return max(state.info.history[index].scores[:players])
    try:
        return max(state.info.game.ruleset.round_scores(state)[:players])
    except (AssertionError, TypeError, ValueError, IndexError):
        return 0  # not countable yet (Sticheln before the picks are revealed)


def quiet_round(state: State[Any], rng: SplitMix64) -> tuple[State[Any], list[int]]:
    """Play the round ``state`` opens to its end, every decision the legal action that
    keeps the greatest player score lowest (ties broken by ``rng``); the state after the
    round and the actions taken."""
    ruleset = state.info.game.ruleset
    index, players = state.info.index, state.info.game.players
    taken: list[int] = []
    while state.phase is not Phase.OVER and state.info.index == index:
        options = []
        for action in ruleset.legal_actions(state):
            nxt = ruleset.apply(state, action)
            options.append((_score_now(nxt, players, index), rng.below(1 << 20), action, nxt))
        _, _, action, state = min(options, key=lambda o: (o[0], o[1]))
        taken.append(action)
    return state, taken


def endless(game: Game, ending: Ending, period: int) -> Outcome:
    """A cycle of ``period`` rounds in which no player scores above zero, replayed by the
    model over two cycles (a finding of ``ending.dispute``), or ``fail`` when the search
    finds none (undecided by an incomplete search: not a solver's unknown, and never
    proved)."""
    start = time.perf_counter()
    players = game.players
    deals: list[Deal] = []
    plays: list[list[int]] = []
    last: State[Any] | None = None
    for index in range(period):
        found = None
        for seed in SEARCH_SEEDS:
            opening = _opening(game, last, seed, index)
            end, taken = quiet_round(opening, SplitMix64(seed))
            if max(end.info.history[index].scores[:players]) <= 0:
                found, last = (opening.info.deal, taken), end
                break
        if found is None:
            return Outcome(
                FAIL,
                time.perf_counter() - start,
                (ending.clause,),
                detail=f"no reading fixes the rounds, and no round {index + 1} without a "
                "point was found: the game's end is not proved",
            )
        deals.append(found[0])
        plays.append(found[1])
    problem, witness = replay_cycle(game, ending, deals, plays)
    if problem:
        return Outcome("fail", time.perf_counter() - start, (ending.clause,), detail=problem)
    return Outcome(
        FINDING,
        time.perf_counter() - start,
        (ending.clause, ending.dispute),
        witness,
        f"the game need never end: a cycle of {period} rounds in which nobody scores a "
        "point, replayed twice by the model, repeats forever",
        machine="liveness",
        dispute=ending.dispute,
    )


def _opening(game: Game, before: State[Any] | None, seed: int, index: int) -> State[Any]:
    """The opening of round ``index`` dealt from ``seed``, after the state ``before`` that
    ended the rounds found so far (None for the first)."""
    if before is None:
        return game.new_initial_state(seed)
    info = before.info
    source = DealSource(seed, ())
    opening: State[Any] = game.ruleset.start_round(game, source, index, info.totals, info.history)
    return opening


def replay_cycle(
    game: Game, ending: Ending, deals: list[Deal], plays: list[list[int]]
) -> tuple[str, dict[str, Any]]:
    """Replay the cycle twice through the model, each action checked legal: no total
    rises, the game never ends, and round ``period`` opens as round 0 did. A problem
    (empty when none) and the witness."""
    period = len(deals)
    state = game.new_state_from_deals(deals * 3)  # the third deals the round after
    openings = []
    totals = [tuple(state.info.totals)]
    for index in range(2 * period):
        openings.append(state)
        try:
            for action in plays[index % period]:
                state = state.child(action)  # checked legal
        except TricklawError as exc:
            return f"round {index + 1}: {exc}", {}
        if state.phase is Phase.OVER:
            return f"the game ended after round {index + 1}", {}
        totals.append(tuple(state.info.totals))
        if any(b > a for a, b in zip(totals[-2], totals[-1], strict=True)):
            return f"round {index + 1} raised a total: {totals[-1]}", {}
    first, again = openings[0], openings[period]
    same = (first.phase, first.current, first.leader, first.hands, first.info.dealer) == (
        again.phase,
        again.current,
        again.leader,
        again.hands,
        again.info.dealer,
    )
    if not same:
        return f"round {period + 1} does not open as round 1 did", {}
    ruleset = game.ruleset
    fmt = ruleset.palette.format_all
    witness = {
        "players": game.players,
        "period": period,
        "rounds": [
            {
                "deal": [fmt(h) for h in deal.hands],
                "actions": [action_to_string(a, ruleset.palette) for a in play],
                "scores": list(log.scores),
            }
            for deal, play, log in zip(deals, plays, state.info.history, strict=False)
        ],
        "totals": [list(t) for t in totals],
    }
    return "", witness
