"""A deliberately broken batch kernel behind the kernels' fuzz adapter
(:mod:`tricklaw.kernel_engine`), for the tests: the kernel's own source with one rule
changed, compiled by numba in place of the real one.

    python tests/engines/broken_kernel_engine.py MUTANT

Mutants:

``tie-last``   Sticheln's kernel gives a tie of equal off-colour cards to the *last* of
               them (``>`` made ``>=``; the texts: the earliest, STI93-TRICK-6,
               STI-TRICK-3).
``low-first``  the low-card-takes-high kernel gives the high card to the *first* of equal
               lowest cards (``<=`` made ``<``; the text: the later, LH-TRICK-3).
"""

from __future__ import annotations

import inspect
import sys
import textwrap
from types import ModuleType

from tricklaw import kernel_engine
from tricklaw.batch import jit
from tricklaw.batch.games import lowhigh, sticheln

MUTANTS: dict[str, tuple[ModuleType, str, str]] = {
    "tie-last": (sticheln, "if value[card] > best_off:", "if value[card] >= best_off:"),
    "low-first": (
        lowhigh,
        "if v <= value[played[g, t, low]]:",
        "if v < value[played[g, t, low]]:",
    ),
}


def plant(module: ModuleType, old: str, new: str) -> None:
    """Replace ``module.play_round_kernel`` by its source with ``old`` made ``new``,
    compiled by numba (not cached)."""
    source = textwrap.dedent(inspect.getsource(module.play_round_kernel.py_func))
    assert source.count(old) == 1, old
    source = source.replace(old, new).replace("@jit.njit\n", "", 1)
    scope = dict(vars(module))
    exec(compile(source, f"<mutant of {module.__name__}>", "exec"), scope)
    module.play_round_kernel = jit.NUMBA.njit(nogil=True)(scope["play_round_kernel"])


def main(mutant: str) -> int:
    if mutant not in MUTANTS:
        sys.stderr.write(f"unknown mutant {mutant!r} (mutants: {', '.join(MUTANTS)})\n")
        return 2
    plant(*MUTANTS[mutant])
    return kernel_engine.main()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
