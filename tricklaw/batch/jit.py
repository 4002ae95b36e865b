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


FREE = -1
"""A forced-action entry that leaves the decision to the random agent."""
STOP = -2
"""A forced-action entry that asks for the legal actions at this decision."""
REPORT = 4
"""A report row's head: the decision, its seat, the number of legal actions, and whether a
forced action was refused (1) or the legal actions asked for (0); then the actions."""


@njit
def choose(  # noqa: PLR0917  (a numba helper: arguments by position)
    agent: Any,
    g: int,
    options: int,
    legal: Any,
    actions: Any,
    seat: int,
    forced: Any,
    step: int,
    report: Any,
) -> Any:
    """The index into ``legal[:options]`` of decision ``step`` of game ``g`` (seat
    ``seat``), ``actions[legal[i]]`` being option ``i``'s action number.

    ``forced[g, step]`` (:data:`FREE` where the row is shorter) is the action to take, if
    it is among this kernel's own legal actions; :data:`FREE` draws as the random agent
    does, ``below(options)`` (:func:`tricklaw.model.agents.random_step`; the agent's
    stream advances only at such draws); a forced action that is not legal, or
    :data:`STOP`, is written to ``report[g]`` (the first such decision only: :data:`REPORT`
    numbers, then the legal actions) and the decision drawn, so the round goes on (what
    follows is not the caller's game). The random games never call it: a kernel given
    ``forced`` None draws with :func:`splitmix_below` itself, in a variant numba compiles
    apart (``if forced is None`` on an argument is decided at compile time)."""
    want = forced[g, step] if step < forced.shape[1] else FREE
    if want == FREE:
        return splitmix_below(agent, g, options)
    if want != STOP:
        for i in range(options):
            if actions[legal[i]] == want:
                return i
    if report[g, 0] < 0:
        report[g, 0] = step
        report[g, 1] = seat
        report[g, 2] = options
        report[g, 3] = want != STOP
        for i in range(options):
            report[g, REPORT + i] = actions[legal[i]]
    return splitmix_below(agent, g, options)


@njit
def choose_card(  # noqa: PLR0917  (a numba helper: arguments by position)
    hand: Any,
    seat: int,
    legal: Any,
    options: int,
    agent: Any,
    g: int,
    actions: Any,
    forced: Any,
    step: int,
    report: Any,
) -> Any:
    """:func:`draw_card` with the decision made by :func:`choose` (decision ``step``,
    ``actions`` the options' action numbers): one of ``legal[:options]``, or of the whole
    hand when ``options`` is 0; taken out of the hand. A :data:`FREE` decision draws the
    card :func:`draw_card` draws.

    Each kernel picks between the two at its call site (``if forced is None``) rather than
    through one helper that takes ``forced`` None: measured side by side, one helper made
    every table's random games 8-17% slower (Low-High 4 players 123,000 -> 102,000 rounds/s),
    inlined or not."""
    if options == 0:
        for c in range(hand.shape[1]):
            if hand[seat, c]:
                legal[options] = c
                options += 1
    card = legal[choose(agent, g, options, legal, actions, seat, forced, step, report)]
    hand[seat, card] = False
    return card


@njit
def given_or_below(state: Any, g: int, n: int, given: Any) -> Any:
    """A chance draw of the deal (``below(n)`` from ``state[g]``), or ``given[g]`` where the
    caller gives the outcome (an explicit deal; ``given`` None: always drawn; -1: drawn)."""
    if given is None:
        return splitmix_below(state, g, n)
    if given[g] < 0:
        return splitmix_below(state, g, n)
    return given[g]


NO_REPORT = np.full((1, REPORT), -1, dtype=np.int64)
"""The report argument of the random games (never written: they force nothing)."""
