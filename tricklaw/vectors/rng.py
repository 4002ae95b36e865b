"""The ``rng`` vectors: the portable random number generator on its own
(:mod:`tricklaw.model.rng`), with no ruleset: SplitMix64 outputs, bounded draws,
Fisher-Yates shuffles of ``[0 .. n-1]``, round seeds and the agents' generator."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tricklaw.model.rng import MASK64, SplitMix64, agent_rng, round_seed, shuffled
from tricklaw.vectors.cases import Cases, Json, VectorError, hex64

RNG_SEEDS = (0, 1, 7, 42, 0x9E3779B97F4A7C15, 1 << 63, MASK64)
SHUFFLE_SIZES = (1, 2, 3, 10, 45, 48, 50, 60, 75, 90)
BELOW_BOUNDS = (1, 2, 3, 4, 5, 6, 7, 10, 12, 15, 45, 48, 90, 1000003, 4294967296)


def rng_cases() -> list[Json]:
    """The cases of ``rng.json``."""
    cases = Cases("RNG", "rng")
    for seed in RNG_SEEDS:
        rng = SplitMix64(seed)
        outputs = [hex64(rng.next_u64()) for _ in range(8)]
        cases.add(None, {"function": "splitmix64", "seed": hex64(seed)}, {"outputs": outputs}, ())
    for seed in RNG_SEEDS:
        rng = SplitMix64(seed)
        draws = [rng.below(n) for n in BELOW_BOUNDS]
        cases.add(
            None,
            {"function": "below", "seed": hex64(seed), "bounds": list(BELOW_BOUNDS)},
            {"draws": draws},
            (),
        )
    for seed in (*RNG_SEEDS[:4], MASK64):
        for n in SHUFFLE_SIZES:
            perm = shuffled(list(range(n)), SplitMix64(seed))
            cases.add(
                None,
                {"function": "shuffle", "seed": hex64(seed), "n": n},
                {"permutation": perm},
                (),
            )
    for seed in RNG_SEEDS:
        for rnd in (0, 1, 2, 4, 9, 100):
            cases.add(
                None,
                {"function": "round_seed", "seed": hex64(seed), "round": rnd},
                {"round_seed": hex64(round_seed(seed, rnd))},
                (),
            )
    for seed in RNG_SEEDS[:4]:
        rng = agent_rng(seed)
        cases.add(
            None,
            {"function": "agent", "seed": hex64(seed)},
            {"outputs": [hex64(rng.next_u64()) for _ in range(4)]},
            (),
        )
    return cases.items


def run_rng(inputs: Mapping[str, Any]) -> Json:
    """The outputs of an ``rng`` case from its inputs."""
    seed = int(inputs["seed"], 16)
    function = inputs["function"]
    if function == "splitmix64":
        rng = SplitMix64(seed)
        return {"outputs": [hex64(rng.next_u64()) for _ in range(8)]}
    if function == "below":
        rng = SplitMix64(seed)
        return {"draws": [rng.below(n) for n in inputs["bounds"]]}
    if function == "shuffle":
        return {"permutation": shuffled(list(range(inputs["n"])), SplitMix64(seed))}
    if function == "round_seed":
        return {"round_seed": hex64(round_seed(seed, inputs["round"]))}
    if function == "agent":
        rng = agent_rng(seed)
        return {"outputs": [hex64(rng.next_u64()) for _ in range(4)]}
    raise VectorError(f"unknown rng function {function!r}")
