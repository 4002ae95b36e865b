"""Fuzz one reader with atheris (libFuzzer's coverage-guided engine): issue 16, part 4.

    python tests/atheris_readers.py READER [libFuzzer flags]

``READER`` is a key of :data:`reader_inputs.READERS` (``record``, ``log``, ``trick``,
``context``, ``options``, ``stdio``). Each run of the target turns the fuzzer's bytes into
one input by the shared makers of tests/reader_inputs.py (every choice a maker makes is
read from the bytes, so libFuzzer's mutations of the bytes are mutations of the input's
structure) and reads it; anything but a result or a
:class:`~tricklaw.spec.errors.TricklawError` is a crash, which atheris reports with the
traceback, writes as a crash file (``-artifact_prefix``) and ends the run non-zero.

The pure-Python modules of tricklaw and the test's makers are instrumented for coverage
(:func:`atheris.instrument_imports`); on a compiled install (mypyc, ``setup.py``) the
compiled modules run uninstrumented, and libFuzzer steers by the rest. tests/
test_reader_atheris.py runs every reader with ``-runs=100000 -seed=1`` (deterministic: one
process, fixed runs and seed).
"""

from __future__ import annotations

import importlib.util
import pkgutil
import sys
from pathlib import Path
from typing import Any

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent))


def modules(*packages: str) -> list[str]:
    """The packages and every module under them (atheris excludes modules by full name)."""
    out = list(packages)
    for package in packages:
        path = importlib.util.find_spec(package).submodule_search_locations  # type: ignore[union-attr]
        out += [m.name for m in pkgutil.walk_packages(path, prefix=package + ".")]
    return out


UNINSTRUMENTED = modules("tricklaw.model", "tricklaw.spec")
"""The modules whose branches do not steer the fuzzer: the model underneath the readers
(instrumenting it made the record reader five times slower) and the registries. The
makers and the readers' front ends (the checker, the parsers, the oracle) steer it."""

with atheris.instrument_imports(include=["reader_inputs", "tricklaw"], exclude=UNINSTRUMENTED):
    import reader_inputs


class Provided:
    """:class:`reader_inputs.Choices` read from libFuzzer's bytes (minimum values once the
    bytes run out)."""

    def __init__(self, data: bytes) -> None:
        self.data = atheris.FuzzedDataProvider(data)

    def integer(self, low: int, high: int) -> int:
        value: int = self.data.ConsumeIntInRange(low, high)
        return value

    def text(self, max_size: int, alphabet: str | None = None) -> str:
        size = self.data.ConsumeIntInRange(0, max_size)
        if alphabet is None:
            text: str = self.data.ConsumeUnicode(size)
            return text
        return "".join(
            alphabet[self.data.ConsumeIntInRange(0, len(alphabet) - 1)] for _ in range(size)
        )


def planted(choices: reader_inputs.Choices) -> int:
    """A maker for the test that a crash is caught: its input is a number."""
    return choices.integer(0, 1000)


def crash_on_777(value: int) -> None:
    """A planted bug: a reader that fails on one input of a thousand."""
    if value == 777:
        raise KeyError("planted")


def main(argv: list[str]) -> None:
    readers = {**reader_inputs.READERS, "planted": (planted, crash_on_777)}
    make, check = readers[argv[1]]

    def target(data: bytes) -> None:
        made: Any = make(Provided(data))
        check(made)

    atheris.Setup([argv[0], *argv[2:]], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
