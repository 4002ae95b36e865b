"""The tutorials run as written (issue 43, item 6): every command of
docs/tutorials/engine.md, in order, in a fresh folder, with the installed ``tricklaw``.

The page is the test's script:

* a ``{code-block}`` with a ``:caption:`` is a file the reader writes (``declare.json``);
* in a ``console`` block, a ``$ `` line is a command, run by ``bash`` from a folder that
  holds only those files and the repository's ``tests/`` (the example engine);
* the lines under a command are its output: each must be a line of what it printed,
  in the same order (other lines may come between them; ``...`` stands for any), exactly,
  but for the run's timing (``in 18.4 s (978 games/min)``);
* ``$ echo $?`` shows the previous command's exit status, checked exactly.

So a change that alters what the reader sees (a message, a count, an exit status, a
step that no longer works) fails here until the page says it too.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "tutorials" / "engine.md"
FILE = re.compile(r"```\{code-block\} \w+\n:caption: (?P<name>\S+)\n\n(?P<body>.*?)```", re.S)
CONSOLE = re.compile(r"```console\n(?P<body>.*?)```", re.S)
TIMING = re.compile(r"in [\d.,]+ s \([\d.,]+ games/min\)")


def _expected(line: str) -> re.Pattern[str]:
    """A shown output line as a pattern: itself, but for the timing."""
    parts = TIMING.split(line)
    return re.compile(TIMING.pattern.join(map(re.escape, parts)) + r"\Z")


def _script(text: str) -> list[tuple[str, list[str], int | None]]:
    """The page's commands: (command, output lines shown, exit status shown or None)."""
    steps: list[tuple[str, list[str], int | None]] = []
    for block in CONSOLE.finditer(text):
        for line in block["body"].splitlines():
            if line == "$ echo $?":
                steps[-1] = (steps[-1][0], steps[-1][1], -1)
            elif line.startswith("$ "):
                steps.append((line[2:], [], None))
            elif steps[-1][2] == -1:
                steps[-1] = (steps[-1][0], steps[-1][1], int(line))
            else:
                steps[-1][1].append(line)
    return steps


def _printed_in_order(shown: list[str], printed: list[str]) -> str | None:
    """The first shown line not found among ``printed`` after the one before it."""
    at = 0
    for line in shown:
        if line == "...":
            continue
        pattern = _expected(line)
        while at < len(printed) and not pattern.match(printed[at]):
            at += 1
        if at == len(printed):
            return line
        at += 1
    return None


def test_the_page_is_a_script_with_files_commands_outputs_and_exit_statuses() -> None:
    """The parser itself: what the page holds is found (no test that checks nothing)."""
    text = TUTORIAL.read_text(encoding="utf-8")
    assert [m["name"] for m in FILE.finditer(text)] == ["declare.json"]
    steps = _script(text)
    assert len(steps) >= 6 and {status for _, _, status in steps} >= {0, 1}
    assert all(output for command, output, _ in steps if "check --declare" in command)
    assert _printed_in_order(["a", "...", "c 1"], ["a", "b", "c 1"]) is None
    assert _printed_in_order(["c 1"], ["c 2"]) == "c 1"
    assert _printed_in_order(["b", "a"], ["a", "b"]) == "a"
    timing = "no disagreement in 3 games, 9 actions in 1.2 s (150 games/min)"
    assert _expected(timing).match(timing.replace("1.2", "18.4").replace("150", "1,200"))
    assert not _expected(timing).match(timing.replace("3 games", "4 games"))


@pytest.mark.slow
def test_testing_your_engine_runs_as_written(tricklaw_script: str, tmp_path: Path) -> None:
    text = TUTORIAL.read_text(encoding="utf-8")
    for found in FILE.finditer(text):
        (tmp_path / found["name"]).write_text(found["body"], encoding="utf-8")
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    bins = [str(Path(tricklaw_script).parent), str(Path(sys.executable).parent)]
    env = {**os.environ, "PATH": os.pathsep.join([*bins, os.environ.get("PATH", "")])}
    for command, shown, status in _script(text):
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        printed = (done.stdout + done.stderr).splitlines()
        assert done.returncode == (status or 0), (command, done.stdout, done.stderr)
        missing = _printed_in_order(shown, printed)
        assert missing is None, f"{command}\nnot printed: {missing}\nprinted:\n{done.stdout}"
