"""The portable SplitMix64 generator and Fisher-Yates shuffle, vectorised over games.

Each game of a chunk has its own generator state (one ``uint64`` of an array); every
function here advances all of them by one step at once, with numpy's wrap-around
``uint64`` arithmetic, and returns exactly what :class:`tricklaw.model.rng.SplitMix64`
returns game by game (the algorithm is in :mod:`tricklaw.model.rng`; tests compare the two).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tricklaw.batch import jit
from tricklaw.model.rng import AGENT_SALT, GOLDEN_GAMMA, MASK64

MASK = MASK64

U64 = npt.NDArray[np.uint64]
Ints = npt.NDArray[np.int64]

_GAMMA = np.uint64(GOLDEN_GAMMA)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


def mix(z: U64) -> U64:
    """SplitMix64's output function, element by element (a new array)."""
    with np.errstate(over="ignore"):
        z = (z ^ (z >> _S30)) * _M1
        z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


def next_u64(state: U64) -> U64:
    """Advance every generator of ``state`` (in place) and return their outputs."""
    with np.errstate(over="ignore"):
        state += _GAMMA
    return mix(state)


def below(state: U64, n: Any) -> Ints:
    """``next_u64() mod n`` for every generator (``n`` an int or one per game, >= 1)."""
    return (next_u64(state) % np.asarray(n, dtype=np.uint64)).astype(np.int64)


def round_seeds(seeds: U64, index: int) -> U64:
    """:func:`tricklaw.model.rng.round_seed` of every game seed for round ``index``."""
    with np.errstate(over="ignore"):
        return mix(seeds + np.uint64(((index + 1) * GOLDEN_GAMMA) & AGENT_SALT))


def agent_states(seeds: U64) -> U64:
    """The random agents' generator states (:func:`tricklaw.model.rng.agent_rng`)."""
    return seeds ^ np.uint64(AGENT_SALT)


def shuffle(state: U64, size: int) -> Ints:
    """Durstenfeld's Fisher-Yates shuffle of ``0 .. size-1`` for every game, driven by
    ``state`` (advanced in place): row ``g`` is the permutation of game ``g``'s deck
    (:func:`tricklaw.model.rng.shuffled`)."""
    games = state.shape[0]
    order = np.broadcast_to(np.arange(size, dtype=np.int64), (games, size)).copy()
    if jit.AVAILABLE:
        jit.shuffle_kernel(state, order)
        return order
    rows = np.arange(games)
    for i in range(size - 1, 0, -1):
        j = below(state, i + 1)
        held = order[rows, j]
        order[rows, j] = order[:, i]
        order[:, i] = held
    return order
