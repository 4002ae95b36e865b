"""Issue 16, part 4, at volume: atheris (libFuzzer) gives every reader 100,000 inputs.

Each test runs tests/atheris_readers.py for one reader of tests/reader_inputs.py in a
process of its own (libFuzzer ends the process when it is done), with a fixed seed and
number of runs, so the run is the same every time. A crash fails the test with atheris's
report (the traceback and the input's bytes, kept as a file in the test's folder: add it
to tests/fuzz-corpus/READER/ and it is replayed by the fast tier from then on).
``TRICKLAW_FUZZ_RUNS`` changes the number of runs (100,000 by default).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from reader_inputs import READERS

pytest.importorskip("atheris", reason="atheris has wheels for Linux only")

HERE = Path(__file__).resolve().parent
RUNS = int(os.environ.get("TRICKLAW_FUZZ_RUNS", "100000"))
"""Inputs per reader: the issue asks for at least 100,000."""
CORPUS = HERE / "fuzz-corpus"
"""The inputs that once crashed a reader, by reader: regression tests."""


def fuzz(reader: str, runs: int, folder: Path, *inputs: Path) -> subprocess.CompletedProcess[str]:
    """atheris on ``reader`` for ``runs`` inputs (seed 1), crash files into ``folder``; or,
    with ``inputs``, those inputs once each."""
    flags = [f"-runs={runs}", "-seed=1", "-max_len=2048", "-len_control=0"]
    return subprocess.run(
        [
            sys.executable,
            str(HERE / "atheris_readers.py"),
            reader,
            *flags,
            f"-artifact_prefix={folder}/",
            *map(str, inputs),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # atheris writes the traceback to stdout, libFuzzer to stderr
        text=True,
        check=False,
        cwd=folder,
    )


def _crash(proc: subprocess.CompletedProcess[str]) -> str:
    lines = proc.stdout.splitlines()
    start = next((i for i, x in enumerate(lines) if "Uncaught Python exception" in x), 0)
    return "\n".join(lines[start : start + 40])


@pytest.mark.slow(minutes=2)
@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_hundred_thousand_inputs_crash_no_reader(reader: str, tmp_path: Path) -> None:
    proc = fuzz(reader, RUNS, tmp_path)
    assert proc.returncode == 0, _crash(proc)
    assert f"Done {RUNS} runs" in proc.stdout
    assert not list(tmp_path.glob("crash-*"))


@pytest.mark.slow
def test_the_fuzzer_catches_a_planted_crash(tmp_path: Path) -> None:
    """No test that cannot fail: a reader that raises on one input in a thousand is found
    within 100,000 runs, reported, and its input written as a crash file."""
    proc = fuzz("planted", 100_000, tmp_path)
    assert proc.returncode != 0
    assert "KeyError: 'planted'" in proc.stdout
    assert list(tmp_path.glob("crash-*"))


@pytest.mark.slow
@pytest.mark.parametrize("reader", sorted(READERS))
def test_the_corpus_of_past_crashes_reads_cleanly(reader: str, tmp_path: Path) -> None:
    """Every input that once crashed ``reader`` (tests/fuzz-corpus/READER/), and a few
    hundred fresh ones, run through the same harness (a quick check of it, too)."""
    saved = sorted((CORPUS / reader).glob("*")) if (CORPUS / reader).is_dir() else []
    proc = fuzz(reader, 300, tmp_path, *saved) if saved else fuzz(reader, 300, tmp_path)
    assert proc.returncode == 0, _crash(proc)
