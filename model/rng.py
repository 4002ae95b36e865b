"""The portable seeded random number generator and shuffle.

Every random choice tricklaw makes (deals and its random agents) comes from
this module, and the algorithm is part of the oracle format: an implementation
in any language reproduces tricklaw's deals bit for bit by following it.

**SplitMix64** (Steele, Lea and Flood, 2014), on unsigned 64-bit integers with
wrap-around arithmetic::

    state = seed mod 2**64
    next():
        state = (state + 0x9E3779B97F4A7C15) mod 2**64
        z = state
        z = ((z xor (z >> 30)) * 0xBF58476D1CE4E5B9) mod 2**64
        z = ((z xor (z >> 27)) * 0x94D049BB133111EB) mod 2**64
        return z xor (z >> 31)

**Bounded draw**: ``below(n) = next() mod n``. (Its bias is below ``n / 2**64``,
less than ``2**-57`` for any deck; the plain modulo was chosen because every
language reproduces it exactly.)

**Shuffle** (Durstenfeld's Fisher-Yates, from the end): for ``i`` from
``len - 1`` down to ``1``, ``j = below(i + 1)``, swap items ``i`` and ``j``.

**Seeds**: the deal of round ``r`` (0-based) of a game with seed ``S`` is
shuffled by ``SplitMix64(round_seed(S, r))``, where ``round_seed(S, r)`` is the
``r``-th output (0-based) of ``SplitMix64(S)``. Random agents draw from
``SplitMix64(S xor 0xFFFFFFFFFFFFFFFF)``, one ``below(len(legal))`` per decision.

Test vectors are in ``spec/shuffle-vectors.json`` and in the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
AGENT_SALT = MASK64


class SplitMix64:
    """SplitMix64: a tiny 64-bit generator that every language can reproduce."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next_u64(self) -> int:
        """The next 64-bit output."""
        s = self.state = (self.state + GOLDEN_GAMMA) & MASK64
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & MASK64
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """A draw from ``0 .. n-1`` (``next_u64() mod n``)."""
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        # next_u64() inlined: this runs once per card shuffled and per agent decision.
        s = self.state = (self.state + GOLDEN_GAMMA) & MASK64
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & MASK64
        return (s ^ (s >> 31)) % n


def shuffled(items: Sequence[T], rng: SplitMix64) -> list[T]:
    """A Fisher-Yates shuffle of ``items`` driven by ``rng`` (see the module doc)."""
    out = list(items)
    below = rng.below
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def mix64(z: int) -> int:
    """SplitMix64's output function applied to the 64-bit state ``z``."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def round_seed(game_seed: int, round_index: int) -> int:
    """The seed of the deal of round ``round_index`` in a game seeded ``game_seed``.

    This is output number ``round_index`` (0-based) of ``SplitMix64(game_seed)``;
    since SplitMix64's state after ``k`` steps is ``seed + k * gamma``, it is
    computed directly, in constant time.
    """
    return mix64((game_seed + (round_index + 1) * GOLDEN_GAMMA) & MASK64)


def agent_rng(game_seed: int) -> SplitMix64:
    """The generator that tricklaw's random agents use in a game seeded ``game_seed``."""
    return SplitMix64(game_seed ^ AGENT_SALT)
