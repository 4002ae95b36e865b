"""The pages run as written (issue 43, item 6; issue 46, item 1): every command of
docs/tutorials/engine.md and of README.md, in order, in a fresh folder, with the installed
``tricklaw``.

A page is the test's script:

* a ``{code-block}`` with a ``:caption:`` is a file the reader writes (``declare.json``);
* in a ``console`` block, a ``$ `` line is a command, run by ``bash`` from a folder that
  holds only those files and the repository's ``tests/`` (the example engine) and
  ``spec/`` (what a reader at the repository root has: ``vectors --check`` reads it),
  with a cache folder of its own (``verify`` runs cold and leaves the user's cache alone);
* the lines under a command are its output: each must be a line of what it printed,
  in the same order (other lines may come between them; a line ``...`` stands for any),
  exactly, but for ``...`` within a line (any text) and the run's timing
  (``in 18.4 s (978 games/min)``, ``in 8.0s``);
* ``$ echo $?`` shows the previous command's exit status, checked exactly.

So a change that alters what the reader sees (a message, a count, an exit status, a
step that no longer works) fails here until the page says it too.

The README's other commands are not run here: its two set-up commands (minutes each; the
second is ``.ci/run``'s, which CI runs) are checked to be the ones CI runs, and every other
``tricklaw`` command it names (a whole ``verify``, a server) is parsed by the command's own
parser, and every ``devtools`` script it names exists and takes the options shown.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tricklaw.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "tutorials" / "engine.md"
README = ROOT / "README.md"
PAGES = {"tutorial": TUTORIAL, "readme": README}
FILE = re.compile(r"```\{code-block\} \w+\n:caption: (?P<name>\S+)\n\n(?P<body>.*?)```", re.S)
CONSOLE = re.compile(r"```console\n(?P<body>.*?)```", re.S)
SH = re.compile(r"```sh\n(?P<body>.*?)```", re.S)
TIMING = re.compile(r"in [\d.,]+ ?s(?: \([\d.,]+ games/min\))?")
LINKED = ("tests", "spec")
"""The repository's folders in the fresh folder of a page's run."""


def _expected(line: str) -> re.Pattern[str]:
    """A shown output line as a pattern: itself, but for the timing and ``...`` (any
    text)."""

    def literal(part: str) -> str:
        return TIMING.pattern.join(map(re.escape, TIMING.split(part)))

    return re.compile(".*".join(map(literal, line.split("..."))) + r"\Z")


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
    verify = "73 obligations in 8.0s: 31 proved"
    assert _expected(verify).match(verify.replace("8.0", "12.5"))
    assert not _expected(verify).match(verify.replace("73", "74"))
    assert _expected("vectors agree: ... files").match("vectors agree: 32 files")
    assert not _expected("vectors agree: ... files").match("vectors differ: 32 files")


def test_the_readme_s_tour_is_a_script_for_each_kind_of_user() -> None:
    """The README's tour is run, and shows each user's commands with their output."""
    steps = _script(README.read_text(encoding="utf-8"))
    shown = {command.split()[1] for command, output, _ in steps if output}
    assert {"trick", "explain", "verify", "diff", "impact", "check", "vectors", "fuzz"} <= shown
    assert any("tricklaw serve --stdio" in command for command, output, _ in steps if output)


@pytest.mark.slow
@pytest.mark.parametrize("page", sorted(PAGES))
def test_the_page_runs_as_written(page: str, tricklaw_script: str, tmp_path: Path) -> None:
    text = PAGES[page].read_text(encoding="utf-8")
    for found in FILE.finditer(text):
        (tmp_path / found["name"]).write_text(found["body"], encoding="utf-8")
    for name in LINKED:
        (tmp_path / name).symlink_to(ROOT / name)
    bins = [str(Path(tricklaw_script).parent), str(Path(sys.executable).parent)]
    env = {
        **os.environ,
        "PATH": os.pathsep.join([*bins, os.environ.get("PATH", "")]),
        "XDG_CACHE_HOME": str(tmp_path / ".cache"),
    }
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


def _readme_commands_not_run() -> list[str]:
    """The README's commands outside its ``console`` blocks: the lines of its ``sh``
    blocks and its inline ``tricklaw ...`` spans, each without its comment."""
    text = README.read_text(encoding="utf-8")
    lines = [line for block in SH.finditer(text) for line in block["body"].splitlines()]
    lines += re.findall(r"`(tricklaw [^`]*)`", CONSOLE.sub("", SH.sub("", text)))
    return [line.split("  #")[0].strip() for line in lines if line.strip()]


def test_the_readme_s_links_name_files() -> None:
    """The README is read on its own (a repository's front page): each relative link of it
    names a file of the repository, most of them the docs pages its content moved to."""
    links = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
    assert len(links) >= 5
    assert [link for link in links if not (ROOT / link).is_file()] == []


def test_the_readme_s_set_up_commands_are_what_ci_runs() -> None:
    commands = _readme_commands_not_run()
    install = "python3 -m venv .venv && . .venv/bin/activate && pip install . && tricklaw verify"
    assert install in commands
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()[-1]
    assert ci.replace(" -q ", " ") in commands


def test_the_readme_s_other_commands_parse() -> None:
    """Every other command the README shows but this file does not run: each ``tricklaw``
    command parses (its options and choices exist), each ``devtools`` script exists and
    names each option shown."""
    parsed, scripts = 0, 0
    for line in _readme_commands_not_run():
        words = shlex.split(line)
        if words[0] == "tricklaw":
            command = words[1] if len(words) > 1 and not words[1].startswith("-") else ""
            with contextlib.redirect_stdout(io.StringIO()), pytest.raises(SystemExit) as done:
                build_parser(command).parse_args(words[1:])
                raise SystemExit(0)
            assert done.value.code in (0, None), line
            parsed += 1
        elif words[0] == "python" and words[1].startswith("devtools/"):
            source = (ROOT / words[1]).read_text(encoding="utf-8")
            assert all(w in source for w in words[2:] if w.startswith("--")), line
            scripts += 1
    assert parsed >= 3 and scripts == 4
