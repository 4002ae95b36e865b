"""Issue 43, item 2, "nothing lost": every file tricklaw writes is written atomically
(:mod:`tricklaw.spec.outputs`), a cut log never checks as ``agrees``, no command removes
or overwrites a file it did not write unless told ``--force``, and every input is read
and every output path checked before any output is opened.

The commands run in a subprocess (``python -m tricklaw``) from a temporary folder, so
that the repository's own ``tricklaw/`` folder is not what is imported by accident.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tricklaw.check import check_lines, check_path, record_to_log
from tricklaw.model.agents import play_random_game
from tricklaw.model.record import to_record
from tricklaw.model.replay.verdict import AGREES, UNREADABLE
from tricklaw.model.rulesets import get_ruleset
from tricklaw.spec import outputs
from tricklaw.spec.outputs import atomic_file, write_atomically, write_fresh, write_new


def tricklaw(*args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -m tricklaw ARGS`` in ``cwd``: its exit status and output."""
    return subprocess.run(
        [sys.executable, "-m", "tricklaw", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def one_error(proc: subprocess.CompletedProcess[str]) -> str:
    """The one line of a refusal: exit status 2, no traceback, nothing on stdout."""
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


# --- the helper ---------------------------------------------------------------------------


class Cut(BaseException):
    """Stands for a run cut short (a signal, a full disk) while a file is written."""


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.json"
    target.write_text("old\n")

    def cut(_fd: int) -> None:
        raise Cut

    monkeypatch.setattr(os, "fsync", cut)
    with pytest.raises(Cut):
        write_atomically(target, "new\n" * 1000)
    with pytest.raises(Cut), atomic_file(target) as fh:
        fh.write("half of a new ")
        raise Cut
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]
    monkeypatch.undo()
    write_atomically(target, "new\n")
    assert target.read_text() == "new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_a_new_file_gets_the_usual_permissions_and_an_old_one_keeps_its_own(
    tmp_path: Path,
) -> None:
    mask = os.umask(0o022)
    try:
        write_atomically(tmp_path / "new.txt", b"bytes")
        assert (tmp_path / "new.txt").stat().st_mode & 0o777 == 0o644
        kept = tmp_path / "kept.txt"
        kept.write_text("old")
        kept.chmod(0o640)
        write_atomically(kept, "new")
        assert kept.stat().st_mode & 0o777 == 0o640 and kept.read_text() == "new"
    finally:
        os.umask(mask)


def test_a_link_is_written_through(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old")
    (tmp_path / "link.json").symlink_to(real)
    write_atomically(tmp_path / "link.json", "new")
    assert (tmp_path / "link.json").is_symlink() and real.read_text() == "new"


def test_write_new_and_write_fresh_never_overwrite(tmp_path: Path) -> None:
    taken = tmp_path / "taken.smt2"
    taken.write_text("mine")
    with pytest.raises(FileExistsError):
        write_new(taken, "theirs")
    assert taken.read_text() == "mine"
    (tmp_path / "case-1.json").write_text("first")
    assert write_fresh(tmp_path, "case", ".json", "second").name == "case-2.json"
    assert (tmp_path / "case-1.json").read_text() == "first"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "case-1.json",
        "case-2.json",
        "taken.smt2",
    ]


FULL = Path("/dev/full")
"""Linux's always-full device: every write fails with ENOSPC."""


@pytest.mark.slow
@pytest.mark.skipif(not FULL.is_char_device(), reason="needs Linux's /dev/full")
def test_a_full_device_is_one_line_and_stays_a_device(tmp_path: Path) -> None:
    """Issue 43, item 3: a write to a full device was an internal error (exit 70), and
    ``--record /dev/full`` replaced the device with a file (an atomic rename over it).
    Now: one line naming the device and the error, exit 2, the device untouched."""
    proc = tricklaw(
        "play", "lowhigh", "-n", "3", "--seed", "1", "--record", str(FULL), cwd=tmp_path
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert (
        proc.stderr
        == f"tricklaw: error: cannot write the record to {FULL}: No space left on device\n"
    )
    assert FULL.is_char_device()
    with FULL.open("w") as full:  # standard output on the full device
        done = subprocess.run(
            [sys.executable, "-m", "tricklaw", "rulesets"],
            stdout=full, stderr=subprocess.PIPE, text=True, timeout=120, check=False,
        )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == "tricklaw: error: cannot write the output: No space left on device\n"


@pytest.mark.slow
def test_a_record_to_standard_output_by_its_device_name(tmp_path: Path) -> None:
    """``--record /dev/stdout`` writes to standard output (a pipe here), not a file."""
    proc = tricklaw(
        "play", "lowhigh", "-n", "3", "--seed", "1", "--record", "/dev/stdout", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert '"format": "tricklaw-record"' in proc.stdout and "Totals:" in proc.stdout
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_play_record_replaces_the_file_rather_than_writing_into_it(tmp_path: Path) -> None:
    """The record is a new file renamed over the old one (a new inode; the old file is
    never emptied and written again), and no temporary file is left."""
    target = tmp_path / "game.json"
    target.write_text("old")
    before = target.stat().st_ino
    reader = target.open()  # a reader of the old file still reads the old file whole
    proc = tricklaw(
        "play", "sticheln", "-n", "3", "--seed", "1", "--record", str(target), cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(target.read_text())["format"] == "tricklaw-record"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    assert target.stat().st_ino != before
    with reader:
        assert reader.read() == "old"


# --- logs: the end line -------------------------------------------------------------------

STI = ("sticheln", 3, {"rounds": 2}, 5)


def sticheln_record() -> dict[str, Any]:
    game = get_ruleset(STI[0]).make_game(STI[1], STI[2])
    record: dict[str, Any] = json.loads(json.dumps(to_record(play_random_game(game, 5), 5)))
    return record


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return sticheln_record()


@pytest.fixture(scope="module")
def log(record: dict[str, Any]) -> list[str]:
    return record_to_log(record)


def test_a_log_says_where_it_ends(log: list[str]) -> None:
    assert json.loads(log[0])["version"] == 2
    assert json.loads(log[-1]) == {"end": {"lines": len(log) - 1}}
    assert check_lines(iter(log)).status == AGREES
    with_blanks = [log[0], "\n", *log[1:-1], "   \n", log[-1], "\n"]
    assert check_lines(iter(with_blanks)).status == AGREES  # blank lines are not counted


@pytest.mark.slow
def test_a_log_cut_at_any_line_never_agrees(log: list[str]) -> None:
    """Every prefix of a whole log, cut between lines or mid-line: before issue 43 each
    one agreed ("a log may stop anywhere")."""
    for cut in range(1, len(log)):
        found = check_lines(iter(line + "\n" for line in log[:cut]))
        assert found.status == UNREADABLE, (cut, found.message)
        assert found.message.startswith("end: the log has no end line"), found.message
    text = "".join(line + "\n" for line in log)
    for cut in range(len(log[0]) + 1, len(text) - 1, 97):
        found = check_lines(io.StringIO(text[:cut]))
        assert found.status != AGREES, (cut, found.message)


def test_the_end_line_counts_the_lines(log: list[str]) -> None:
    trick = next(i for i, line in enumerate(log) if line.startswith('{"trick"'))
    dropped = log[:trick] + log[trick + 1 :]  # trick lines are optional: it would agree
    found = check_lines(iter(dropped))
    assert found.status == UNREADABLE
    assert f"end.lines: the end line counts {len(log) - 1} lines before it" in found.message
    after = [*log, '{"seat": 0, "action": "R1"}']
    found = check_lines(iter(after))
    assert (found.status, found.message) == (
        UNREADABLE,
        f"line {len(log) + 1}: the log goes on after its end line",
    )
    bad = [*log[:-1], '{"end": {"lines": "all"}}']
    assert "end.lines: 'all' is not of type 'integer'" in check_lines(iter(bad)).message


def test_version_1_logs_are_still_read_but_have_no_end_line(log: list[str]) -> None:
    old = [json.dumps({**json.loads(log[0]), "version": 1}), *log[1:-1]]
    assert check_lines(iter(old)).status == AGREES
    found = check_lines(iter([*old, log[-1]]))
    assert found.status == UNREADABLE
    assert "end: a version 1 log has no end line" in found.message
    cut = "".join(line + "\n" for line in old)[:-10]  # mid-line: no line end, not JSON
    found = check_lines(io.StringIO(cut))
    assert found.status == UNREADABLE and "stops mid-line" in found.message


def test_the_schema_knows_the_end_line(log: list[str]) -> None:
    from jsonschema import Draft202012Validator

    from tricklaw.model.schemas import schema

    validator = Draft202012Validator(schema("log"))
    for line in (log[0], log[-1], '{"end": {"lines": 3}}'):
        assert not list(validator.iter_errors(json.loads(line))), line
    assert list(validator.iter_errors({"end": {"lines": 0}}))
    assert list(validator.iter_errors({"end": {"lines": 3, "actions": 2}}))


# --- check --convert ----------------------------------------------------------------------


@pytest.mark.slow
def test_convert_writes_a_whole_log_that_checks(tmp_path: Path, record: dict[str, Any]) -> None:
    source = tmp_path / "game.json"
    source.write_text(json.dumps(record))
    out = tmp_path / "game.jsonl"
    proc = tricklaw("check", str(source), "--convert", str(out), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert out.read_text().splitlines() == record_to_log(record)
    again = tmp_path / "again.jsonl"  # a log converts to itself, version 1 to version 2
    old = [
        json.dumps({**json.loads(line), "version": 1}) if i == 0 else line
        for i, line in enumerate(record_to_log(record)[:-1])
    ]
    (tmp_path / "old.jsonl").write_text("\n".join(old) + "\n")
    proc = tricklaw("check", str(tmp_path / "old.jsonl"), "--convert", str(again), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert again.read_text() == out.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "again.jsonl",
        "game.json",
        "game.jsonl",
        "old.jsonl",
    ]


@pytest.mark.slow
def test_a_missing_input_leaves_the_output_untouched(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("precious\n")
    proc = tricklaw("check", str(tmp_path / "missing.json"), "--convert", str(out), cwd=tmp_path)
    assert proc.returncode == 2 and "cannot read" in proc.stderr
    assert out.read_text() == "precious\n"


@pytest.mark.slow
def test_a_record_that_does_not_agree_writes_nothing(
    tmp_path: Path, record: dict[str, Any]
) -> None:
    wrong = json.loads(json.dumps(record))
    wrong["totals"][0] += 1
    source = tmp_path / "wrong.json"
    source.write_text(json.dumps(wrong))
    out = tmp_path / "out.jsonl"
    out.write_text("precious\n")
    proc = tricklaw("check", str(source), "--convert", str(out), cwd=tmp_path)
    assert proc.returncode == 1 and proc.stdout.startswith("diverges (")
    assert proc.stderr == f"tricklaw: note: check: --convert {out} is not written\n"
    assert out.read_text() == "precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl", "wrong.json"]


@pytest.mark.slow
def test_converting_onto_the_declare_file_is_refused(
    tmp_path: Path, record: dict[str, Any]
) -> None:
    source = tmp_path / "game.json"
    source.write_text(json.dumps(record))
    declare = tmp_path / "engine.json"
    text = json.dumps({"rulesets": {"sticheln": {}}})
    declare.write_text(text)
    args = ("check", str(source), "--declare", str(declare))
    assert tricklaw(*args, cwd=tmp_path).returncode == 0
    line = one_error(tricklaw(*args, "--convert", str(declare), cwd=tmp_path))
    assert line == (
        f"tricklaw: error: check: --convert {declare} would overwrite the input "
        f"({declare}) before it is read"
    )
    assert declare.read_text() == text


@pytest.mark.slow
def test_sigterm_during_convert_leaves_the_old_file(tmp_path: Path, log: list[str]) -> None:
    """``check - --convert OUT`` reads a log from a pipe; half of it is sent, the run is
    killed with SIGTERM while it waits for the rest: OUT holds its old content (before
    issue 43 it was emptied and half written), and no half log is anywhere to be checked."""
    out = tmp_path / "out.jsonl"
    out.write_text("\n".join(log) + "\n")  # the old content: a whole log
    old = out.read_text()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tricklaw", "check", "-", "--convert", str(out)],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None
    try:
        proc.stdin.write("".join(line + "\n" for line in log[: len(log) // 2]))
        proc.stdin.flush()
        deadline = time.monotonic() + 120
        # Wait until the run has begun writing: its temporary file (today) or OUT itself
        # (before issue 43, which opened OUT at once) is touched.
        while time.monotonic() < deadline and proc.poll() is None:
            started = [p for p in tmp_path.iterdir() if p.name != "out.jsonl"]
            if started or out.read_text() != old:
                break
            time.sleep(0.05)
        time.sleep(1.0)  # and it has read and written what it was given
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()
    assert proc.returncode == -signal.SIGTERM
    assert out.read_text() == old
    assert check_path(str(out)).status == AGREES
    for left in tmp_path.iterdir():  # a temporary file may be left, hidden, never whole
        if left != out:
            assert left.name.startswith(".out.jsonl.") and left.name.endswith(".tmp")
            assert check_path(str(left)).status != AGREES


# --- folders of output: vectors --out, page build -----------------------------------------


def vector_names() -> list[str]:
    from tricklaw.model.rulesets import RULESETS
    from tricklaw.vectors.files import GENERATORS, file_name

    per_ruleset = [file_name(kind, r) for r in RULESETS for kind in GENERATORS]
    return ["index.json", "rng.json", *per_ruleset]


@pytest.fixture
def quick_vectors(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Stand-in vector files (generating the real ones takes minutes): the same names."""
    from tricklaw.vectors import files

    texts = {
        f"v1/{name}": json.dumps({"format": "tricklaw-vectors", "name": name}) + "\n"
        for name in vector_names()
    }
    monkeypatch.setattr(files, "generate", lambda: dict(texts))
    return texts


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from tricklaw.cli import main

    status = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def test_vectors_out_keeps_a_users_json(
    tmp_path: Path, quick_vectors: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "v1"
    folder.mkdir()
    (folder / "notes.json").write_text('{"mine": true}')
    status, out, err = run_main(["vectors", "--out", str(tmp_path)], capsys)
    assert (status, out) == (2, "") and len(err.splitlines()) == 1
    assert f"vectors: --out {folder} holds files that tricklaw did not write" in err
    assert "--force" in err
    assert [p.name for p in folder.iterdir()] == ["notes.json"]  # nothing written
    status, out, err = run_main(["vectors", "--out", str(tmp_path), "--force"], capsys)
    assert status == 0, err
    assert (folder / "notes.json").read_text() == '{"mine": true}'  # kept, even so
    assert {f"v1/{p.name}" for p in folder.glob("*.json")} == {*quick_vectors, "v1/notes.json"}
    # Now the folder is tricklaw's (its marker): a second run needs no --force and still
    # keeps the user's file, which has a name of its own.
    assert run_main(["vectors", "--out", str(tmp_path)], capsys)[0] == 0
    assert (folder / "notes.json").read_text() == '{"mine": true}'


def test_vectors_out_refuses_to_overwrite_a_changed_or_foreign_file(
    tmp_path: Path, quick_vectors: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "v1"
    assert run_main(["vectors", "--out", str(tmp_path)], capsys)[0] == 0
    assert (folder / outputs.MARKER).is_file()
    (folder / "rng.json").write_text("my own rng notes")
    status, _, err = run_main(["vectors", "--out", str(tmp_path)], capsys)
    assert status == 2 and "rng.json was changed since tricklaw wrote it; it is kept" in err
    assert (folder / "rng.json").read_text() == "my own rng notes"
    (folder / "rng.json").unlink()
    (folder / outputs.MARKER).unlink()
    (folder / "rng.json").write_text("not a vector file")
    status, _, err = run_main(["vectors", "--out", str(tmp_path)], capsys)
    assert status == 2 and "holds files that tricklaw did not write" in err
    assert (folder / "rng.json").read_text() == "not a vector file"


def test_vectors_out_removes_only_its_own_stale_files(
    tmp_path: Path,
    quick_vectors: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tricklaw.vectors import files

    folder = tmp_path / "v1"
    older = {**quick_vectors, "v1/old.tricks.json": "{}\n", "v1/gone.tricks.json": "{}\n"}
    monkeypatch.setattr(files, "generate", lambda: dict(older))
    monkeypatch.setattr(files, "names", lambda: [k[3:] for k in older])
    assert run_main(["vectors", "--out", str(tmp_path)], capsys)[0] == 0
    monkeypatch.undo()
    monkeypatch.setattr(files, "generate", lambda: dict(quick_vectors))
    (folder / "gone.tricks.json").write_text('{"edited": "by the user"}\n')
    assert run_main(["vectors", "--out", str(tmp_path)], capsys)[0] == 0
    assert not (folder / "old.tricks.json").exists()  # tricklaw's, unchanged: removed
    assert (folder / "gone.tricks.json").is_file()  # changed by the user: kept


def test_the_vector_folder_in_the_repository_is_tricklaws_own() -> None:
    """``tricklaw vectors`` in a checkout writes spec/vectors/v1 without --force: every
    file there is tricklaw's by its marker or its ``format``; the names are the ones
    generated."""
    from tricklaw.vectors.files import names, own_folder

    root = Path(__file__).resolve().parents[1] / "spec" / "vectors"
    own_folder(root)  # raises if the folder holds a file tricklaw did not write
    assert names() == vector_names()


@pytest.fixture
def stand_in_pyodide(tmp_path: Path) -> Path:
    from tricklaw.page.build import PYODIDE_FILES

    folder = tmp_path / "pyodide-package"
    folder.mkdir()
    for name in PYODIDE_FILES:
        (folder / name).write_bytes(b"stand-in for " + name.encode())
    return folder


def test_page_build_refuses_a_folder_with_a_foreign_config_json(
    tmp_path: Path, stand_in_pyodide: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "site"
    out.mkdir()
    (out / "config.json").write_text('{"theme": "mine"}')
    (out / "index.html").write_text("<h1>my site</h1>")
    argv = ["page", "build", str(out), "--pyodide", str(stand_in_pyodide)]
    status, stdout, err = run_main(argv, capsys)
    assert (status, stdout) == (2, "") and len(err.splitlines()) == 1
    assert "holds files that tricklaw did not write" in err and "--force" in err
    assert (out / "config.json").read_text() == '{"theme": "mine"}'
    assert (out / "index.html").read_text() == "<h1>my site</h1>"
    assert sorted(p.name for p in out.iterdir()) == ["config.json", "index.html"]
    status, stdout, err = run_main([*argv, "--force"], capsys)
    assert status == 0 and stdout.startswith("page built"), err
    assert json.loads((out / "config.json").read_text())["build"]


@pytest.mark.slow
def test_page_build_overwrites_its_own_build_and_nothing_else(
    tmp_path: Path, stand_in_pyodide: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "page"
    argv = ["page", "build", str(out), "--pyodide", str(stand_in_pyodide)]
    assert run_main(argv, capsys)[0] == 0
    marker = json.loads((out / outputs.MARKER).read_text())
    assert marker["format"] == "tricklaw-output" and "pyodide/pyodide.mjs" in marker["files"]
    (out / "notes.txt").write_text("mine")
    assert run_main(argv, capsys)[0] == 0  # its own build again, a user's other file
    assert (out / "notes.txt").read_text() == "mine"
    (out / "index.html").write_text("<h1>edited</h1>")
    status, _, err = run_main(argv, capsys)
    assert status == 2 and "index.html was changed since tricklaw wrote it" in err
    assert (out / "index.html").read_text() == "<h1>edited</h1>"


# --- output paths are checked before the work ---------------------------------------------


@pytest.mark.parametrize("flag", ["--json", "--plot"])
def test_impact_refuses_an_unwritable_output_before_playing(
    tmp_path: Path,
    flag: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tricklaw.impact import command

    def study(*_args: Any, **_kwargs: Any) -> dict[str, Any]:
        raise AssertionError("the games were played before the output was checked")

    monkeypatch.setattr(command, "study", study)
    target = tmp_path / "no such folder" / "report.out"
    argv = ["impact", "sticheln", "--players", "3", "--games", "1", flag, str(target)]
    status, out, err = run_main(argv, capsys)
    assert (status, out) == (2, "") and len(err.splitlines()) == 1, err
    assert f"impact: {flag}" in err and str(target) in err
