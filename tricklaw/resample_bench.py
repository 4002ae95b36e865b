"""How many redeals an accepted resample costs, with and without the voids: a measurement
of :meth:`tricklaw.openspiel.TricklawState.resample_counted`, not a timed test.

    python -m tricklaw.resample_bench [--samples N] [--before-samples N] [--sampler-seed S]

The default position is the hard case of ``tests/test_resample.py`` (:data:`HARD_CASE`):
Sticheln 1993 with six players and ``follow=must-follow`` (STI93-D-FOLLOW), deal seed
14, random play (``numpy`` seed 14) for the six picks, eight tricks and two cards of the
ninth. By then the other seats have shown 33 voids (cards they cannot hold) among the
28 cards the player to act has not seen, and a plain redeal keeps them all about once in
5,000 draws. ``--game``, ``--seed`` and ``--steps`` choose another position.

Prints one JSON line: the position, how many cards are hidden and ruled out, and for
``before`` (plain rejection: redeals that ignore the voids, each replayed) and ``after``
(redeals that keep them) the samples taken, the redeals drawn, the redeals per accepted
sample, the milliseconds per accepted sample and the samples that failed (no deal in
:data:`tricklaw.openspiel.RESAMPLE_ATTEMPTS` draws; their draws and time count against the
accepted ones). Needs the ``openspiel`` extra.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from typing import Any

HARD_GAME = "tricklaw_sticheln_1993(players=6,follow=must-follow)"
"""The game of the hard case."""


@dataclass(frozen=True)
class Position:
    """A point of play: the game, the deal seed (also the seed of the random moves) and
    how many random actions follow the deal."""

    game: str
    seed: int
    steps: int


HARD_CASE = Position(HARD_GAME, 14, 6 + 6 * 8 + 2)
"""Sticheln 1993, six players, must-follow: the picks, eight tricks and two cards."""


def reach(position: Position) -> Any:
    """The OpenSpiel state of ``position``: the deal, then random legal actions."""
    import numpy as np
    import pyspiel

    import tricklaw.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(position.game)
    rng = np.random.RandomState(position.seed)
    state = game.new_initial_state()
    state.apply_action(position.seed)
    for _ in range(position.steps):
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def measure(state: Any, samples: int, *, rule_out: bool, seed: int = 1) -> dict[str, Any]:
    """``samples`` resamples of ``state`` for its current player: redeals drawn in all
    (a failed sample's included), per accepted sample, milliseconds per accepted sample
    (the failed samples' time included), and failures. The draws come from OpenSpiel's
    uniform sampler seeded with ``seed``, so the counts are the same on every run."""
    import pyspiel

    from tricklaw.openspiel import RESAMPLE_ATTEMPTS
    from tricklaw.spec.errors import TricklawError

    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    player = state.current_player()
    draws = accepted = failed = 0
    start = time.perf_counter()
    for _ in range(samples):
        try:
            _, tries = state.resample_counted(player, sampler, rule_out=rule_out)
        except TricklawError:
            failed += 1
            draws += RESAMPLE_ATTEMPTS
            continue
        draws += tries
        accepted += 1
    seconds = time.perf_counter() - start
    return {
        "samples": samples,
        "draws": draws,
        "draws_per_sample": round(draws / accepted, 1) if accepted else None,
        "ms_per_sample": round(1000 * seconds / accepted, 1) if accepted else None,
        "failed": failed,
    }


def main(argv: list[str] | None = None) -> int:
    """Measure and print one JSON line."""
    parser = argparse.ArgumentParser(prog="python -m tricklaw.resample_bench")
    parser.add_argument("--game", default=HARD_CASE.game, help="an OpenSpiel game string")
    parser.add_argument("--seed", type=int, default=HARD_CASE.seed)
    parser.add_argument("--steps", type=int, default=HARD_CASE.steps)
    parser.add_argument("--samples", type=int, default=200, help="samples with the voids")
    parser.add_argument("--sampler-seed", type=int, default=1, help="the sampler's seed")
    parser.add_argument(
        "--before-samples", type=int, default=10, help="samples by plain rejection (slow)"
    )
    args = parser.parse_args(argv)
    position = Position(args.game, args.seed, args.steps)
    state = reach(position)
    player = state.current_player()
    _, known, excluded = state.trail.infostate(player)
    from tricklaw import resample

    line = {
        "game": position.game,
        "seed": position.seed,
        "steps": position.steps,
        "player": player,
        "hidden": resample.hidden_count(state.model_state.info.deal, player, known),
        "ruled_out": {str(seat): len(cards) for seat, cards in sorted(excluded.items())},
        "before": measure(state, args.before_samples, rule_out=False, seed=args.sampler_seed),
        "after": measure(state, args.samples, rule_out=True, seed=args.sampler_seed),
    }
    print(json.dumps(line))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
