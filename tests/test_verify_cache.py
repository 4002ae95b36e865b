"""verify's result cache (:mod:`tricklaw.verify.cache`): an edit to each kind of input
changes exactly the keys of the steps that depend on it, a run with nothing changed
takes every step from the cache with the same rows, a damaged entry is recomputed, and a
planted bug is never answered from the unchanged code's entries.

The key tests compute every step's key of a whole run in a copy of the package's source
(``PYTHONPATH`` set to it), edit one file of the copy, and compute them again: each test
fails if the key leaves its input out (the keys would not change), and the other games'
keys staying equal shows that one game's edit reruns that game alone. One edit runs in
the fast tier; the others, and the runs of verify itself, are ``slow``."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tricklaw.proofs.results import Result
from tricklaw.proofs.statuses import PROVED, UNKNOWN
from tricklaw.verify.cache import ResultCache, decided
from tricklaw.verify.cache.keys import versions
from tricklaw.verify.cache.store import Store

REPO = Path(__file__).resolve().parents[1]
SOURCE = ("tricklaw", "model", "proofs", "spec")
"""The folders of the package's source (``tricklaw/`` links to the other three)."""

KEYS = """
import json, sys
from tricklaw.model.rulesets import RULESETS
from tricklaw.verify import run
options = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
timeout = int(sys.argv[2]) if len(sys.argv) > 2 else 30000
scope = run.Scope(options=options, timeout_ms=timeout, cache=sys.argv[3])
cache = run._open_cache(scope)
keys = {}
for unit in run._units(scope, list(RULESETS.values())):
    for step in run._unit_steps(scope, unit):
        name = f"{unit.ruleset or 'editions'}|{unit.players or ''}|{step.name}|{unit.part}"
        keys[name] = cache.key(step.cached)
print(json.dumps(keys))
"""
"""Every step's key of a whole run (``unit|players|step|part``), as JSON."""


def copy_source(into: Path) -> Path:
    """A copy of the package's source under ``into`` (its links kept): a tree whose files
    a test may edit."""
    for folder in SOURCE:
        shutil.copytree(
            REPO / folder,
            into / folder,
            symlinks=True,
            ignore=shutil.ignore_patterns("__pycache__", "*.so"),
        )
    return into


def step_keys(tree: Path, options: dict[str, str] | None = None, timeout: int = 30000) -> Any:
    """Every step's key of a whole run of the code in ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    args = [json.dumps(options or {}), str(timeout), str(tree / "cache")]
    proc = subprocess.run(
        [sys.executable, "-c", KEYS, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tree,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    keys = json.loads(proc.stdout)
    assert all(isinstance(k, str) for k in keys.values()), "a built-in step has no key"
    return keys


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """The package's source, copied, and its keys: a tree each test copies again to edit."""
    tree = copy_source(tmp_path_factory.mktemp("source"))
    return tree, step_keys(tree)


@pytest.fixture
def edited(tmp_path: Path, baseline: tuple[Path, Any]) -> Iterator[Callable[..., set[str]]]:
    """A function that copies the baseline tree, applies an edit to one of its files
    (``relative path``, ``text -> text``), and returns the steps whose keys changed."""

    def edit(path: str, change: Callable[[str], str]) -> set[str]:
        tree = copy_source(tmp_path / "tree")
        target = tree / path
        before = target.read_text(encoding="utf-8")
        after = change(before)
        assert after != before
        target.write_text(after, encoding="utf-8")
        now = step_keys(tree)
        assert now.keys() == baseline[1].keys()
        return {name for name, key in now.items() if key != baseline[1][name]}

    yield edit


def games(steps: set[str]) -> set[str]:
    """The units (rulesets, or ``editions``) the steps belong to."""
    return {s.split("|")[0] for s in steps}


@pytest.mark.slow
def test_an_edit_to_one_games_model_reruns_that_game_alone(
    edited: Callable[..., set[str]],
) -> None:
    changed = edited("model/rulesets/lowhigh.py", lambda text: text + "\n# edited\n")
    assert games(changed) == {"lowhigh", "editions"}
    assert "lowhigh|3|self-check|0" in changed
    assert "lowhigh|6|equivalence|0" in changed


@pytest.mark.slow
def test_an_edit_to_one_games_encoding_reruns_the_steps_that_use_it(
    edited: Callable[..., set[str]], baseline: tuple[Path, Any]
) -> None:
    changed = edited("proofs/encodings/lowhigh.py", lambda text: text + "\n# edited\n")
    assert games(changed) <= {"lowhigh", "editions"}
    assert "lowhigh|4|trick obligations|0" in changed
    assert "lowhigh|4|conservation|0" in changed
    # the conformance vectors run the model alone: not rerun for an encoding's edit
    assert "lowhigh||vectors|0" not in changed
    assert "lowhigh||registry|0" not in changed


@pytest.mark.slow
def test_an_edit_to_shared_code_reruns_what_imports_it(
    edited: Callable[..., set[str]], baseline: tuple[Path, Any]
) -> None:
    changed = edited("proofs/symmetries.py", lambda text: text + "\n# edited\n")
    every_table = {n for n in baseline[1] if n.split("|")[2] == "symmetries"}
    assert every_table and every_table <= changed
    assert {"hund", "lowhigh", "sticheln", "sticheln-1993", "the-last"} <= games(changed)
    assert not {n for n in changed if n.split("|")[2] in ("registry", "vectors", "self-check")}


@pytest.mark.slow
def test_an_edit_to_a_clause_file_reruns_that_game_alone(
    edited: Callable[..., set[str]], baseline: tuple[Path, Any]
) -> None:
    changed = edited("spec/hund.toml", lambda text: text + "\n# edited\n")
    hund = {n for n in baseline[1] if n.startswith("hund|")}
    assert hund <= changed
    assert games(changed) == {"hund", "editions"}


@pytest.mark.slow
def test_an_edit_to_a_seed_texts_record_reruns_every_step(
    edited: Callable[..., set[str]], baseline: tuple[Path, Any]
) -> None:
    """verify reads the seed texts through ``spec/sources.toml`` (each text's SHA-256 and
    line count), never the texts: an edit to a text is an edit to that record."""
    changed = edited(
        "spec/sources.toml",
        lambda text: text.replace("lines = 125", "lines = 126", 1),
    )
    assert changed == set(baseline[1])


@pytest.mark.slow
def test_a_reading_fixed_for_one_game_reruns_the_games_that_have_it(
    baseline: tuple[Path, Any],
) -> None:
    tree, before = baseline
    now = step_keys(tree, {"zero-lead": "first-nonzero"})
    changed = {name for name, key in now.items() if key != before.get(name)}
    assert games(changed) == {"sticheln", "sticheln-1993", "hund", "lowhigh", "the-last"}
    assert {n for n in now if n.startswith("sticheln|")} <= changed  # (fewer parts now)
    # another game's rows are those of a run with no fixed reading, but for the tie
    # detector, which then does not judge the register complete (a partial run)
    others = {n for n in changed if not n.startswith("sticheln")}
    assert others == {f"{g}||ties|0" for g in ("hund", "lowhigh", "the-last")}


@pytest.mark.slow
def test_another_time_out_reruns_every_step(baseline: tuple[Path, Any]) -> None:
    tree, before = baseline
    now = step_keys(tree, timeout=20000)
    assert all(now[name] != key for name, key in before.items() if "|" in name)


@pytest.mark.slow
def test_a_library_or_python_version_is_in_every_key(tmp_path: Path) -> None:
    found = versions()
    assert {"python", "tricklaw", "z3-solver"} <= found.keys()
    from tricklaw.verify import run

    scope = run.Scope(ruleset="lowhigh", players=3, cache=str(tmp_path))
    cache = run._open_cache(scope)
    assert cache is not None
    step = run._unit_steps(scope, run.Unit("lowhigh", 3))[0].cached
    key = cache.keys.key(step)
    cache.keys.versions = {**found, "z3-solver": "0.0.0"}
    assert cache.keys.key(step) not in (key, None)


@pytest.mark.slow
def test_tricklaws_settings_in_the_environment_are_in_every_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tricklaw.verify import run

    scope = run.Scope(ruleset="lowhigh", players=3, cache=str(tmp_path))
    step = run._unit_steps(scope, run.Unit("lowhigh", 3))[0].cached
    before = run._open_cache(scope)
    assert before is not None
    monkeypatch.setenv("TRICKLAW_EQUIVALENCE_PATHS", "10")
    after = run._open_cache(scope)
    assert after is not None
    assert after.keys.key(step) != before.keys.key(step)


def _row(status: str = PROVED, **witness: Any) -> Result:
    return Result("o", "lowhigh", "3", "default", status, 0.5, ("LH-TRICK-1",), "d", witness)


def test_an_entry_is_read_back_whole_and_a_damaged_one_is_a_miss(tmp_path: Path) -> None:
    store = Store(tmp_path)
    key = "ab" + "0" * 62
    rows = [_row(cards=["R1", "B2"]), _row()]
    store.put(key, "run-1", rows)
    assert store.get(key) == ("run-1", rows)
    path = tmp_path / "v1" / "ab" / f"{key}.json"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"proved"', '"pass"', 1), encoding="utf-8")  # tampered
    assert store.get(key) is None
    path.write_text(text[: len(text) // 2], encoding="utf-8")  # truncated
    assert store.get(key) is None
    path.write_bytes(b"\xff\xfe")  # not text
    assert store.get(key) is None
    store.put(key, "run-2", rows)  # recomputed rows overwrite it
    assert store.get(key) == ("run-2", rows)
    other = "cd" + "0" * 62  # filed under another key: not this key's
    (tmp_path / "v1" / "cd").mkdir()
    (tmp_path / "v1" / "cd" / f"{other}.json").write_text(text, encoding="utf-8")
    assert store.get(other) is None


def test_only_the_entries_used_last_are_kept(tmp_path: Path) -> None:
    store = Store(tmp_path)
    keys = [f"{k:02d}" + "0" * 62 for k in range(5)]
    for number, key in enumerate(keys):
        store.put(key, "run", [_row()])
        os.utime(store._path(key), (1000 + number, 1000 + number))
    assert store.get(keys[0]) is not None  # used now: the newest
    assert store.prune(keep=2) == 3
    assert [k for k in keys if store.get(k) is not None] == [keys[0], keys[4]]


def test_undecided_rows_are_never_kept() -> None:
    assert decided([_row(), _row("finding")])
    assert not decided([_row(), _row(UNKNOWN)])  # a time-out depends on the machine's load
    assert not decided([_row("fail", traceback="Traceback ...")])  # a step that fell over


def test_nothing_is_kept_when_a_hashed_file_changed_during_the_run(tmp_path: Path) -> None:
    watched = tmp_path / "clauses.toml"
    watched.write_text("a", encoding="utf-8")
    cache = ResultCache(tmp_path / "cache", "tricklaw.verify.run", ())
    cache.keys.digest(watched)
    cache.keep("ef" + "0" * 62, [_row()])
    watched.write_text("b", encoding="utf-8")  # saved while the run went on
    assert cache.close() == 0
    assert not list((tmp_path / "cache").rglob("ef*.json"))


def test_a_cached_row_says_which_run_computed_it(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path, "tricklaw.verify.run", ())
    key = "12" + "0" * 62
    cache.keep(key, [_row()])
    assert cache.close() == 1
    again = ResultCache(tmp_path, "tricklaw.verify.run", ())
    rows = again.get(key)
    assert rows == [replace(_row(), cached_from=cache.run)]
    assert again.get("34" + "0" * 62) is None


def _verify(tree: Path | None, cache: Path, *args: str) -> tuple[int, Any]:
    """``tricklaw verify lowhigh --players 3`` with the quick steps only, on the code in
    ``tree`` (None: the installed package), caching in ``cache`` unless other ``args``
    are given; the exit status and the JSON report."""
    report = cache.parent / f"report-{len(list(cache.parent.glob('report-*')))}.json"
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    skip = ("equivalence", "equivalence of play and score", "symmetries", "edition diff")
    command = [sys.executable, "-m", "tricklaw", "verify", "lowhigh", "--players", "3"]
    command += [f"--skip={step}" for step in skip]
    command += ["--jobs", "1", "--json", str(report), *(args or ("--cache", str(cache)))]
    # not from the repository: python -m would import the package beside the working folder
    proc = subprocess.run(
        command, capture_output=True, text=True, env=env, cwd=cache.parent, check=False
    )
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    return proc.returncode, json.loads(report.read_text(encoding="utf-8"))


def _rows(report: Any) -> list[dict[str, Any]]:
    drop = ("seconds", "cached", "cached_from")
    return [{k: v for k, v in r.items() if k not in drop} for r in report["results"]]


RUN_ROWS = ("shuffle-vectors", "skipped", "findings-register", "rule-coverage")
"""Rows of the run itself, computed every time from the other rows."""


@pytest.mark.slow(minutes=1)
def test_a_second_run_takes_every_step_from_the_cache_with_the_same_rows(
    tmp_path: Path,
) -> None:
    cache = tmp_path / "cache"
    code, first = _verify(None, cache)
    assert code == 0 and first["cached"] == 0
    code, second = _verify(None, cache)
    assert code == 0
    assert _rows(second) == _rows(first)
    steps = [r for r in second["results"] if r["obligation"] not in RUN_ROWS]
    assert steps and all(r["cached"] and r["cached_from"] for r in steps)
    assert second["cached"] == len(steps)
    # cut one entry short and edit another's rows: both steps are computed again
    entries = sorted((cache / "v1").glob("*/*.json"))
    edited = next(e for e in entries if '"status":"proved"' in e.read_text(encoding="utf-8"))
    cut = next(e for e in entries if e != edited)
    damaged = [len(json.loads(e.read_text(encoding="utf-8"))["rows"]) for e in (cut, edited)]
    cut.write_text(cut.read_text(encoding="utf-8")[:100], encoding="utf-8")
    text = edited.read_text(encoding="utf-8")
    edited.write_text(text.replace('"status":"proved"', '"status":"pass"', 1), encoding="utf-8")
    code, third = _verify(None, cache)
    assert code == 0 and _rows(third) == _rows(first)
    assert len(steps) - third["cached"] == sum(damaged)
    code, fourth = _verify(None, cache, "--no-cache")
    assert fourth["cached"] == 0 and _rows(fourth) == _rows(first)


@pytest.mark.slow(minutes=1)
def test_a_planted_bug_is_never_answered_from_the_unchanged_codes_entries(
    tmp_path: Path,
) -> None:
    tree = copy_source(tmp_path / "tree")
    cache = tmp_path / "cache"
    code, _ = _verify(tree, cache)
    assert code == 0
    model = tree / "model" / "rulesets" / "lowhigh.py"
    text = model.read_text(encoding="utf-8")
    planted = text.replace("TOP_VALUE = {3: 9,", "TOP_VALUE = {3: 8,", 1)
    assert planted != text, "the planted line is gone: choose another"
    model.write_text(planted, encoding="utf-8")
    code, mutant = _verify(tree, cache)
    assert code == 1, "the planted bug passed: answered from the cache?"
    assert not any(r["cached"] for r in mutant["results"] if r["status"] == "fail")


def _report(*rows: tuple[str, str]) -> dict[str, Any]:
    return {
        "results": [
            {"obligation": o, "ruleset": "lowhigh", "players": "3", "reading": "", "status": s}
            for o, s in rows
        ]
    }


def test_watch_says_which_rows_now_fail_and_which_pass_again() -> None:
    from tricklaw.verify.watch import changes

    before = _report(("self-check", "pass"), ("conservation", "counterexample"))
    after = _report(("self-check", "fail"), ("conservation", "proved"))
    assert changes(before, after) == [
        "  now fails: self-check lowhigh 3p: fail: ",
        "  passes again: conservation lowhigh 3p",
    ]
    assert changes(after, after) == ["  no row changed its verdict"]
    documented = _report(("coverage", "trivial"))
    documented["results"][0]["expected"] = "documented"
    assert changes(documented, _report(("coverage", "trivial")))[0].startswith("  now fails")


TERMINAL = (
    "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv[0] = 'tricklaw'; runpy.run_module('tricklaw', run_name='__main__')"
)
"""``python -m tricklaw ARGS`` with Ctrl-C's default action, whatever this process got."""


@pytest.mark.slow(minutes=1)
def test_watch_runs_again_on_a_save_and_says_what_changed(tmp_path: Path) -> None:
    tree = copy_source(tmp_path / "tree")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    skip = ("equivalence", "equivalence of play and score", "symmetries", "edition diff")
    # ``tricklaw`` as a terminal starts it: with Ctrl-C's default action. A suite started
    # in the background (``pytest &`` in a script, ``nohup``) passes SIGINT on ignored,
    # and Python then never turns it into KeyboardInterrupt (the stacks of a CI run that
    # hung here showed the watcher waiting for saves, Ctrl-C ignored).
    command = [sys.executable, "-c", TERMINAL, "verify", "lowhigh", "--players", "3"]
    command += [f"--skip={step}" for step in skip]
    command += ["--jobs", "1", "--cache", str(tmp_path / "cache"), "--watch"]
    errors = (tmp_path / "stderr.txt").open("w", encoding="utf-8")
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=errors,  # progress, and where each thread was if it hangs (below)
        text=True,
        env={**env, "PYTHONFAULTHANDLER": "1"},
        cwd=tmp_path,
        start_new_session=True,  # its group, verify runs included, can be ended whole
    )
    assert proc.stdout is not None
    seen: list[str] = []

    def until(text: str) -> None:
        for line in proc.stdout:  # type: ignore[union-attr]
            seen.append(line)
            if text in line:
                return
        raise AssertionError(f"{text!r} never came: {''.join(seen)[-2000:]}")

    model = tree / "model" / "rulesets" / "lowhigh.py"
    clean = model.read_text(encoding="utf-8")
    try:
        until("watching")
        model.write_text(clean.replace("TOP_VALUE = {3: 9,", "TOP_VALUE = {3: 8,", 1))
        until("now fails:")
        model.write_text(clean, encoding="utf-8")
        until("passes again:")
        until("rows taken from the cache")  # the clean code's rows: all from the cache
    finally:
        # Ctrl-C as a terminal sends it: to the whole foreground group, the watcher and
        # any verify run it started. The rest of its output is read, so that a full pipe
        # never holds it (a loaded CI machine: minutes, not seconds).
        os.killpg(proc.pid, signal.SIGINT)
        try:
            rest, _ = proc.communicate(timeout=300)
            seen.append(rest)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGABRT)  # faulthandler writes every thread's stack
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
            with contextlib.suppress(ProcessLookupError):  # the group may be gone already
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            stacks = (tmp_path / "stderr.txt").read_text(encoding="utf-8")[-3000:]
            raise AssertionError(
                f"Ctrl-C did not stop --watch: {''.join(seen)[-2000:]}\n{stacks}"
            ) from None
        finally:
            errors.close()
    assert proc.returncode == 0 and "stopped" in seen[-1]


@pytest.mark.slow
def test_a_cache_folder_that_cannot_be_written_is_refused_before_any_work(
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    command = [sys.executable, "-m", "tricklaw", "verify", "lowhigh", "-n", "3"]
    proc = subprocess.run(
        [*command, "--cache", str(blocker / "cache")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "--cache" in proc.stderr
    assert "Traceback" not in proc.stderr
    both = subprocess.run(
        [*command, "--cache", str(tmp_path), "--no-cache"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert both.returncode == 2 and "not allowed with" in both.stderr
