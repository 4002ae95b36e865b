"""Optional numba compilation for the batch engine's per-game kernels.

Where numba is installed (the ``batch`` extra), :data:`njit` compiles a kernel to machine
code (cached on disk); without it, :data:`AVAILABLE` is False and each ruleset plays its
numpy lockstep path instead. The kernels draw from the same portable streams as the
reference (:func:`splitmix_below` is :meth:`tricklaw.model.rng.SplitMix64.below`), and the
tests compare both paths with the reference game by game. ``TRICKLAW_BATCH_JIT=0`` turns
the kernels off.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

NUMBA: Any
try:
    import numba as NUMBA  # noqa: N812  (a module or None)
except ImportError:  # pragma: no cover - the extra is not installed
    NUMBA = None

AVAILABLE = NUMBA is not None and os.environ.get("TRICKLAW_BATCH_JIT", "1") != "0"
"""Whether the compiled kernels run (numba importable, not turned off)."""


def njit(function: F) -> F:
    """``function`` compiled by numba (nopython, cached) when numba is available, else as
    it is (plain Python: correct, slow; only used when :data:`AVAILABLE`)."""
    if NUMBA is None:
        return function
    return cast(F, NUMBA.njit(cache=True, nogil=True)(function))


GAMMA = np.uint64(0x9E3779B97F4A7C15)
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
S30, S27, S31 = np.uint64(30), np.uint64(27), np.uint64(31)


@njit
def splitmix_below(state: Any, slot: int, n: int) -> Any:
    """Advance generator ``state[slot]`` and return ``next_u64() mod n``."""
    s = state[slot] + GAMMA
    state[slot] = s
    s = (s ^ (s >> S30)) * M1
    s = (s ^ (s >> S27)) * M2
    s = s ^ (s >> S31)
    return np.int64(s % np.uint64(n))  # int64: uint64 mixed with int64 makes float64


@njit
def draw_card(  # noqa: PLR0917  (a numba helper: arguments by position)
    hand: Any, seat: int, legal: Any, options: int, agent: Any, g: int
) -> Any:
    """Game ``g``'s random card for ``seat``, drawn as
    :func:`tricklaw.model.agents.random_step` draws it (``legal[below(count)]``, canonical
    order): one of ``legal[:options]``, or of the whole hand (``hand[seat]``, one flag a
    card) when ``options`` is 0; taken out of the hand."""
    if options == 0:
        for c in range(hand.shape[1]):
            if hand[seat, c]:
                legal[options] = c
                options += 1
    card = legal[splitmix_below(agent, g, options)]
    hand[seat, card] = False
    return card


@njit
def shuffle_kernel(state: Any, order: Any) -> None:
    """Fisher-Yates from the end on every row of ``order`` (``0 .. size-1`` each), row
    ``g`` driven by generator ``state[g]`` (:func:`tricklaw.model.rng.shuffled`)."""
    games, size = order.shape
    for g in range(games):
        for i in range(size - 1, 0, -1):
            j = splitmix_below(state, g, i + 1)
            held = order[g, i]
            order[g, i] = order[g, j]
            order[g, j] = held
