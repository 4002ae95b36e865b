"""A mutation run's journal (``python -m tricklaw.mutation --journal FILE``): a run that
stops goes on where it stopped, and a journal is never read for another source tree or
other settings (:mod:`tricklaw.mutation.journal`).

The harness's slow parts (the fingerprint, the unmutated verify, a mutant's run) are
replaced by fakes that count their calls: what is tested is which mutants run again.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tricklaw.mutation import journal as journal_module
from tricklaw.mutation import runner
from tricklaw.mutation.journal import Journal, JournalError, main, read, source_digest
from tricklaw.mutation.mutants import Mutant
from tricklaw.mutation.runner import IGNORE, MutantResult, run
from tricklaw.mutation.verdicts import KILLED, Settings

MUTANTS = [Mutant(f"tiny.rule.L{n}.cmp-swap", f"mutant {n}", f"patch {n}\n") for n in range(4)]


class StopError(Exception):
    """The run stopped (a session ended) while a mutant ran."""


@pytest.fixture
def fakes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, Any]:
    """A source tree of two files and fake slow parts; ``calls`` counts them, and
    ``stop_at`` names a mutant whose run is stopped."""
    tree = tmp_path / "src"
    (tree / "pkg").mkdir(parents=True)
    (tree / "pkg" / "rules.py").write_text("X = 1\n")
    (tree / ".venv").mkdir()
    (tree / ".venv" / "big").write_text("left out\n")
    state: dict[str, Any] = {"calls": [], "stop_at": None, "tree": tree}

    def run_mutant(mutant: Mutant, *_: Any, base_seconds: Any, **__: Any) -> MutantResult:
        if mutant.id == state["stop_at"]:
            raise StopError(mutant.id)
        state["calls"].append(mutant.id)
        base_seconds("tiny")
        failure = {"obligation": "rule tiny", "status": "fail"}
        return MutantResult(
            mutant.id,
            mutant.description,
            KILLED,
            ("tiny",),
            ("w",),
            (failure,),
            1.5,
            {"tiny": 1.0},
            "obligation",
        )

    def baseline_verify(*_: Any) -> float:
        state["calls"].append("baseline")
        return 2.0

    monkeypatch.setattr(runner, "repo_root", lambda: tree)
    monkeypatch.setattr(runner, "rule_files", lambda _: {})

    def baseline_fingerprint(*_: Any) -> dict[str, dict[str, str]]:
        state["calls"].append("fingerprint")
        return {"tiny": {"k": "v"}}

    monkeypatch.setattr(runner, "baseline_fingerprint", baseline_fingerprint)
    monkeypatch.setattr(runner, "baseline_verify", baseline_verify)
    monkeypatch.setattr(runner, "run_mutant", run_mutant)
    return state


def test_a_stopped_run_goes_on_where_it_stopped(fakes: dict[str, Any], tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    fakes["stop_at"] = MUTANTS[2].id
    with pytest.raises(StopError):
        run(MUTANTS, rulesets=["tiny"], journal=journal)
    assert fakes["calls"] == ["fingerprint", MUTANTS[0].id, "baseline", MUTANTS[1].id]
    fakes["stop_at"], fakes["calls"] = None, []
    again = run(MUTANTS, rulesets=["tiny"], journal=journal)
    assert fakes["calls"] == [MUTANTS[2].id, MUTANTS[3].id]  # the unmutated runs were kept
    assert [r.id for r in again] == [m.id for m in MUTANTS]
    whole = tmp_path / "whole.jsonl"
    fakes["calls"] = []
    assert run(MUTANTS, rulesets=["tiny"], journal=whole) == again  # read back as written
    fakes["calls"] = []
    assert run(MUTANTS, rulesets=["tiny"], journal=journal) == again and fakes["calls"] == []
    fakes["calls"] = []
    run([Mutant("x", "another ruleset", "x\n")], rulesets=["tiny", "other"], journal=journal)
    assert fakes["calls"][0] == "fingerprint"  # the journal holds no fingerprint of "other"


def test_a_line_cut_short_is_run_again_not_read(fakes: dict[str, Any], tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    run(MUTANTS[:2], rulesets=["tiny"], journal=journal)
    text = journal.read_text()
    journal.write_text(text[: len(text) - 20])  # the last result was being written
    fakes["calls"] = []
    run(MUTANTS[:2], rulesets=["tiny"], journal=journal)
    assert fakes["calls"] == [MUTANTS[1].id]
    assert [json.loads(line) for line in journal.read_text().splitlines()]  # whole lines


def test_a_changed_patch_is_another_mutant(fakes: dict[str, Any], tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    run(MUTANTS[:1], rulesets=["tiny"], journal=journal)
    fakes["calls"] = []
    changed = Mutant(MUTANTS[0].id, MUTANTS[0].description, "another patch\n")
    run([changed], rulesets=["tiny"], journal=journal)
    assert fakes["calls"] == [changed.id]


def test_a_journal_of_another_source_or_settings_is_refused_and_kept(
    fakes: dict[str, Any], tmp_path: Path
) -> None:
    journal = tmp_path / "run.jsonl"
    run(MUTANTS[:1], rulesets=["tiny"], journal=journal)
    before = journal.read_bytes()
    with pytest.raises(JournalError, match="timeout_ms = 30000, this run has 5"):
        run(MUTANTS, Settings(timeout_ms=5), rulesets=["tiny"], journal=journal)
    (fakes["tree"] / "pkg" / "rules.py").write_text("X = 2\n")
    with pytest.raises(JournalError, match="another source tree"):
        run(MUTANTS, rulesets=["tiny"], journal=journal)
    assert journal.read_bytes() == before
    run(MUTANTS[:1], Settings(jobs=1), rulesets=["tiny"], journal=tmp_path / "new.jsonl")


def test_what_is_no_journal_is_one_line(tmp_path: Path) -> None:
    for name, text in [("empty-head", "\n"), ("json", '{"a": 1}\n'), ("bad", "\x00\x01\n")]:
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(JournalError, match="not a mutation journal"):
            Journal.open(path, "s", Settings())
    good = tmp_path / "good"
    Journal.open(good, "s", Settings()).close()
    good.write_text(good.read_text() + "[1, 2]\n")
    with pytest.raises(JournalError, match="line 2 is no journal entry"):
        Journal.open(good, "s", Settings())
    with pytest.raises(JournalError, match="--journal"):
        Journal.open(tmp_path, "s", Settings())  # a folder


def test_the_digest_is_the_copied_tree(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    (tree / "a").mkdir(parents=True)
    (tree / "a" / "x.py").write_text("1")
    first = source_digest(tree, IGNORE)
    (tree / ".git").mkdir()
    (tree / ".git" / "HEAD").write_text("ref")
    (tree / "a" / "__pycache__").mkdir()
    assert source_digest(tree, IGNORE) == first  # what a copy leaves out
    (tree / "a" / "y.py").write_text("")
    assert source_digest(tree, IGNORE) != first
    shutil.rmtree(tree / "a")
    (tree / "a").mkdir()
    (tree / "a" / "x.py").write_text("2")
    assert source_digest(tree, IGNORE) != first


def test_the_command_line_refuses_a_foreign_journal_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tricklaw.mutation.__main__ import main

    journal = tmp_path / "j.jsonl"
    journal.write_text("not json\n")
    with pytest.raises(SystemExit) as stop:
        main(["--sample", "1", "--journal", str(journal)])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "not a mutation journal" in err and "Traceback" not in err
    with pytest.raises(SystemExit) as stop:
        main(["--journal", str(journal), "--json", str(journal), "--sample", "1"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "--json" in err and "Traceback" not in err
    assert journal.read_text() == "not json\n"


def test_a_record_leaves_out_the_fingerprints_and_a_run_goes_on_from_it(
    fakes: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal, record = tmp_path / "run.jsonl", tmp_path / "record.jsonl"
    run(MUTANTS[:2], rulesets=["tiny"], journal=journal)
    assert main([str(journal), str(record)]) == 0
    assert capsys.readouterr().out.strip() == f"{record}: 2 results, 1 baseline times"
    kept, whole = read(record), read(journal)
    assert kept.fingerprint == {} and whole.fingerprint == {"tiny": {"k": "v"}}
    assert (kept.head, kept.results, kept.baseline) == (whole.head, whole.results, whole.baseline)
    long = {"obligation": "x", "status": "fail", "traceback": "T" * 5000 + "raised here"}
    entry = next(iter(whole.results.values())) | {"killed_by": [long] * 40}
    trimmed = journal_module._trimmed(entry)
    assert len(trimmed["killed_by"]) == journal_module.RECORD_FAILURES
    assert trimmed["killed_by"][0]["traceback"].endswith("raised here")
    assert len(trimmed["killed_by"][0]["traceback"]) == journal_module.RECORD_TRACE
    assert {k: v for k, v in trimmed.items() if k != "killed_by"} == {
        k: v for k, v in entry.items() if k != "killed_by"
    }
    fakes["calls"] = []
    again = run(MUTANTS, rulesets=["tiny"], journal=record)
    assert fakes["calls"] == ["fingerprint", MUTANTS[2].id, MUTANTS[3].id]
    assert [r.id for r in again] == [m.id for m in MUTANTS]


def test_a_record_never_overwrites_its_journal(
    fakes: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "run.jsonl"
    run(MUTANTS[:1], rulesets=["tiny"], journal=journal)
    before = journal.read_bytes()
    (tmp_path / "no.txt").write_text("plain text\n")
    (tmp_path / "bin.jsonl").write_bytes(b"\xff\xfe\x00")
    for argv, said in [
        ([str(tmp_path / "bin.jsonl"), str(tmp_path / "r3.jsonl")], "bin.jsonl: not text"),
        ([str(journal), str(tmp_path / "nowhere" / "r.jsonl")], "nowhere/r.jsonl"),
        ([str(journal), str(journal)], "would overwrite the input"),
        ([str(tmp_path / "none.jsonl"), str(tmp_path / "r.jsonl")], "none.jsonl"),
        ([str(tmp_path / "no.txt"), str(tmp_path / "r2.jsonl")], "not a mutation journal"),
    ]:
        with pytest.raises(SystemExit) as stop:
            main(argv)
        err = capsys.readouterr().err
        assert stop.value.code == 2 and said in err and "Traceback" not in err
        assert len(err.strip().splitlines()) == 2  # usage and the one line
    assert journal.read_bytes() == before
