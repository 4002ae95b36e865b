"""Issue 16, parts 2, 3 and 6: hostile and careless input to the command line.

Every case the issue measured (a crash, a silent acceptance, lost data, a false result)
is one row of :data:`CASES`: the command, the exit status it must give now and a piece of
the one line it must print. A crash is status 70 or a traceback; these tests fail on
either. Then the outputs that must not overwrite an input or an earlier result, and the
exit-code table (0, 1, 2, 70, 130), checked against every command.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tricklaw import cli
from tricklaw.spec.errors import MESSAGE_LIMIT, clip
from tricklaw.spec.json_text import MAX_DEPTH, JsonTextError, loads
from tricklaw.spec.outputs import fresh_file

HUGE = "9" * 5000
"""A number of more digits than Python converts (its limit is 4,300)."""
ENGINE = Path(__file__).parent / "engines" / "mutant_engine.py"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``tricklaw ARGV`` in this process: the status, standard output and error."""
    status = cli.main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Hostile inputs, written once: a record and its log, and broken copies of them."""
    folder = tmp_path_factory.mktemp("hostile")
    record = folder / "game.json"
    assert cli.main(["play", "sticheln", "-n", "3", "--seed", "4", "--record", str(record)]) == 0
    log = folder / "game.jsonl"
    assert cli.main(["check", str(record), "--convert", str(log)]) == 0
    lines = log.read_text("utf-8").splitlines(keepends=True)
    out = {"record": record, "log": log}

    def put(name: str, data: str | bytes) -> None:
        out[name] = folder / name
        if isinstance(data, bytes):
            out[name].write_bytes(data)
        else:
            out[name].write_text(data, "utf-8")

    put("not-utf8.json", b'{"format": "tricklaw-record", "ruleset": "\xff"}')
    put("not-utf8.jsonl", lines[0].encode() + b'{"seat": 0, "action": "\xff"}\n')
    put("deep.json", "[" * 100_000 + "]" * 100_000)
    put("deep-990.json", '{"format": "tricklaw-record", "options": {"a": ' + "[" * 990)
    out["deep-990.json"].write_text(out["deep-990.json"].read_text() + "]" * 990 + "}}")
    put("deep.jsonl", lines[0] + '{"round": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    put("long-number.json", '{"format": "tricklaw-record", "players": ' + "7" * 100_000 + "}")
    put("long-number.jsonl", lines[0] + '{"seat": ' + "7" * 100_000 + ', "action": "R1"}\n')
    big = json.loads(record.read_text("utf-8"))
    big["ruleset"] = "x" * 2_000_000
    put("long-ruleset.json", json.dumps(big))
    put("cut.jsonl", "".join(lines)[: len("".join(lines)) - 15])
    put("cut-whole.jsonl", "".join(lines)[: len("".join(lines)) - 15] + "\n")
    return out


CASES: list[tuple[str, Callable[[dict[str, Path], Path], list[str]], int, str]] = [
    # --- numbers Python will not convert, in every place a number is read
    ("card-thousands-of-digits", lambda f, t: ["trick", "sticheln", "-n", "3", "R" + HUGE, "R2",
                                              "R3"], 2, "out of range"),
    ("option-thousands-of-digits", lambda f, t: ["trick", "sticheln", "-n", "3", "R1", "R2", "R3",
                                                "-o", "rounds=" + HUGE], 2, "outside 0..10000"),
    ("seed-thousands-of-digits", lambda f, t: ["play", "lowhigh", "-n", "3", "--seed", HUGE], 2,
     "--seed"),
    ("record-100000-digit-number", lambda f, t: ["replay", str(f["long-number.json"])], 2,
     "more than 4300 digits"),
    ("check-100000-digit-number", lambda f, t: ["check", str(f["long-number.json"])], 2,
     "more than 4300 digits"),
    ("log-100000-digit-number", lambda f, t: ["check", str(f["long-number.jsonl"])], 2,
     "more than 4300 digits"),
    # --- Hund's trick context: every value a round cannot have is refused, naming the field
    ("hund-more-powers-than-suits", lambda f, t: ["trick", "hund", "-n", "4", "R1", "R2", "R3",
                                                 "R4", "-c", "powers=R,Y,G,B,P,R"], 2,
     "powers: 6 suits named, but there are 5 powers"),
    ("hund-powers-R-R", lambda f, t: ["trick", "hund", "-n", "4", "R1", "R2", "R3", "R4", "-c",
                                     "powers=R,R"], 2, "powers: a suit is named twice"),
    ("hund-powers-Z", lambda f, t: ["trick", "hund", "-n", "4", "R1", "R2", "R3", "R4", "-c",
                                   "powers=Z"], 2, "powers: 'Z' is not a suit letter"),
    ("hund-designation-99", lambda f, t: ["trick", "hund", "-n", "4", "R1", "R2", "R3", "R4",
                                         "-c", "designation=99"], 2,
     "designation: 99 is not a designation card"),
    ("hund-designation-minus-1", lambda f, t: ["trick", "hund", "-n", "4", "R1", "R2", "R3",
                                              "R4", "-c", "designation=-1"], 2,
     "designation: '-1' is not a designation card"),
    ("hund-designation-abc", lambda f, t: ["trick", "hund", "-n", "4", "R1", "R2", "R3", "R4",
                                          "-c", "designation=abc"], 2,
     "designation: 'abc' is not a designation card"),
    ("hund-designation-huge", lambda f, t: ["trick", "hund", "-n", "4", "R1", "R2", "R3", "R4",
                                           "-c", "designation=" + HUGE], 2, "designation"),
    ("hund-designation-twice", lambda f, t: ["trick", "hund", "-n", "4", "R1", "R2", "R3", "R4",
                                            "-c", "designation=3", "-c", "designation=4"], 2,
     "'designation' is given twice"),
    ("hund-sets-outside-sets-mode", lambda f, t: ["trick", "hund", "-n", "4", "R1", "R2", "R3",
                                                 "R4", "-c", "sets=R3"], 2,
     "sets: designation sets need --option designation-mode=sets"),
    ("hund-designation-in-sets-mode", lambda f, t: ["trick", "hund", "-n", "4", "R1", "R2", "R3",
                                                   "R4", "-o", "designation-mode=sets", "-c",
                                                   "designation=3"], 2,
     "designation: with designation-mode=sets"),
    ("hund-two-sets-one-suit", lambda f, t: ["trick", "hund", "-n", "4", "R1", "R2", "R3", "R4",
                                            "-o", "designation-mode=sets", "-c", "sets=R3,R4"],
     2, "two sets name the suit R"),
    ("hund-set-not-in-deck", lambda f, t: ["trick", "hund", "-n", "4", "R1", "R2", "R3", "R4",
                                          "-o", "designation-mode=sets", "-c", "sets=R9"], 2,
     "R9 is not a card of the deck in use"),
    # --- files that are not UTF-8, or nested beyond any reader's stack
    ("replay-not-utf8", lambda f, t: ["replay", str(f["not-utf8.json"])], 2, "not UTF-8"),
    ("check-not-utf8-record", lambda f, t: ["check", str(f["not-utf8.json"])], 2, "not UTF-8"),
    ("check-not-utf8-log", lambda f, t: ["check", str(f["not-utf8.jsonl"])], 2, "not UTF-8"),
    ("replay-nested-100000", lambda f, t: ["replay", str(f["deep.json"])], 2,
     f"nested deeper than {MAX_DEPTH} levels"),
    ("check-nested-100000", lambda f, t: ["check", str(f["deep.json"])], 2,
     f"nested deeper than {MAX_DEPTH} levels"),
    ("replay-nested-990", lambda f, t: ["replay", str(f["deep-990.json"])], 2,
     f"nested deeper than {MAX_DEPTH} levels"),
    ("log-nested-100000", lambda f, t: ["check", str(f["deep.jsonl"])], 2,
     f"nested deeper than {MAX_DEPTH} levels"),
    # --- selections that match nothing, and contradictory flags
    ("verify-players-100", lambda f, t: ["verify", "--players", "100", "-j", "1"], 2,
     "--players 100 matches no ruleset (player counts: 2, 3, 4, 5, 6)"),
    ("verify-players-1", lambda f, t: ["verify", "--players", "1", "-j", "1"], 2,
     "--players 1 matches no ruleset"),
    ("verify-unknown-option", lambda f, t: ["verify", "-o", "nonsense=1", "-j", "1"], 2,
     "unknown option 'nonsense'"),
    ("verify-skip-unknown", lambda f, t: ["verify", "lowhigh", "-j", "1", "--skip", "vector"], 2,
     "--skip 'vector': no such step (steps: edition diff, registry,"),
    ("play-rounds-contradicts-option", lambda f, t: ["play", "sticheln", "-n", "3", "--seed",
                                                     "1", "--rounds", "3", "-o", "rounds=5"], 2,
     "--rounds 3 contradicts --option rounds=5"),
    ("fuzz-timeout-0", lambda f, t: ["fuzz", "--engine", "true", "--timeout", "0"], 2,
     "--timeout must be more than 0"),
    ("fuzz-time-nan", lambda f, t: ["fuzz", "--engine", "true", "--time", "nan"], 2,
     "--time must be more than 0"),
    # --- outputs that cannot be written: refused before the work starts (stdout stays empty)
    ("verify-json-unwritable", lambda f, t: ["verify", "lowhigh", "-n", "3", "-j", "1", "--json",
                                             str(t / "no" / "such" / "r.json")], 2,
     "cannot write the JSON report to"),
    ("verify-json-is-a-folder", lambda f, t: ["verify", "lowhigh", "-n", "3", "-j", "1",
                                              "--json", str(t)], 2, "it is a folder"),
    # --- a flag that goes only with another: refused before any obligation runs
    ("verify-past-falls-alone", lambda f, t: ["verify", "lowhigh", "-n", "3", "-j", "1",
                                              "--past-falls"], 2,
     "--past-falls goes with --fail-fast"),
    ("play-record-unwritable", lambda f, t: ["play", "lowhigh", "-n", "3", "--seed", "1",
                                             "--record", str(t / "no" / "g.json")], 2,
     "cannot write the record to"),
    ("check-convert-unwritable", lambda f, t: ["check", str(f["record"]), "--convert",
                                               str(t / "no" / "g.jsonl")], 2,
     "cannot write the log to"),
    ("check-convert-onto-its-input", lambda f, t: ["check", str(f["record"]), "--convert",
                                                   str(f["record"])], 2,
     "would overwrite the input"),
    ("fuzz-out-under-a-file", lambda f, t: ["fuzz", "--engine", "true", "--out",
                                            str(f["record"] / "cases")], 2,
     "is not a folder"),
    ("bounds-out-unwritable", lambda f, t: ["bounds", "lowhigh", "--out",
                                            str(f["record"] / "b.json")], 2, "not a folder"),
    ("vectors-out-unwritable", lambda f, t: ["vectors", "--out", str(f["record"])], 2,
     "not a folder"),
    # --- a log cut off mid-line was cut short: unreadable, never agrees (issue 43)
    ("check-log-cut-mid-line", lambda f, t: ["check", str(f["cut.jsonl"])], 2,
     "the log stops mid-line (no line end, not JSON): it was cut short"),
    ("check-log-bad-whole-last-line", lambda f, t: ["check", str(f["cut-whole.jsonl"])], 2,
     "not valid JSON"),
    # --- usage errors stay one line
    ("usage-unknown-command", lambda f, t: ["nonsense"], 2, "invalid choice"),
    ("usage-missing-arguments", lambda f, t: ["play"], 2, "the following arguments"),
]


@pytest.mark.parametrize(("argv", "status", "expected"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_each_measured_case_is_one_clear_line(  # noqa: PLR0917 (parametrised + fixtures)
    argv: Callable[[dict[str, Path], Path], list[str]],
    status: int,
    expected: str,
    files: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    got, out, err = run(argv(files, tmp_path), capsys)
    assert got == status, (out, err)
    if status == 2:
        assert out == "", "bad input is refused before any output (or work)"
        assert len(err.splitlines()) == 1 and err.startswith("tricklaw: error: "), err
        assert len(err) <= MESSAGE_LIMIT + 40, len(err)
        assert expected in err, err
    else:
        assert expected in out, out


def test_a_huge_input_gives_a_short_error_line(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A 2 MB ruleset name is quoted in the error, cut in the middle to one short line."""
    for command in ("replay", "check"):
        status, _, err = run([command, str(files["long-ruleset.json"])], capsys)
        assert status == 2 and len(err.splitlines()) == 1, err[:300]
        assert len(err) <= MESSAGE_LIMIT + 40 and "characters left out" in err, len(err)
        assert "unknown ruleset" in err


def test_clip_keeps_both_ends_and_short_lines() -> None:
    assert clip("short line") == "short line"
    line = clip("ruleset: " + "x" * 10_000 + " is unknown")
    assert len(line) <= MESSAGE_LIMIT
    assert line.startswith("ruleset: xxx") and line.endswith("xxx is unknown")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[" * 5000, "nested deeper"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "nested deeper"),
        ("1" * 5000, "digits"),
        ('{"a": 1', "line 1, column"),
        (b"\xff", "not UTF-8"),
    ],
)
def test_the_json_reader_names_every_problem(text: str | bytes, problem: str) -> None:
    with pytest.raises(JsonTextError, match=problem):
        loads(text)


def test_the_json_reader_takes_what_is_deep_enough() -> None:
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    assert loads('"' + "[" * 500 + '"') == "[" * 500  # brackets in a string are no nesting


# --- nothing lost ---------------------------------------------------------------------------


def test_convert_from_stdin_onto_the_same_file_keeps_it(
    files: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``tricklaw check - --convert g.json < g.json`` emptied g.json (issue 16)."""
    path = tmp_path / "g.json"
    path.write_bytes(files["record"].read_bytes())
    before = path.read_bytes()
    with open(path, encoding="utf-8") as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        status, out, err = run(["check", "-", "--convert", str(path)], capsys)
    assert status == 2 and "would overwrite the input (standard input)" in err
    assert path.read_bytes() == before
    # Through a link too, and a pipe on standard input is no file to protect.
    link = tmp_path / "link.json"
    link.symlink_to(path)
    status, _, err = run(["check", str(link), "--convert", str(path)], capsys)
    assert status == 2 and "would overwrite the input" in err
    assert path.read_bytes() == before
    monkeypatch.setattr(sys, "stdin", io.StringIO(before.decode()))
    status, out, _ = run(["check", "-", "--convert", str(tmp_path / "new.jsonl")], capsys)
    assert status == 0 and out.startswith("agrees")


@pytest.mark.slow
def test_fuzz_cases_of_a_second_run_get_fresh_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two runs into one --out folder keep both runs' cases (they overwrote each other)."""
    out = tmp_path / "cases"
    engine = f"{sys.executable} {ENGINE} garbage"
    argv = ["fuzz", "lowhigh", "-n", "3", "--engine", engine, "--games", "1", "--out", str(out)]
    for _ in range(2):
        status, _, _ = run(argv, capsys)
        assert status == 1
    assert sorted(p.name for p in out.iterdir()) == ["fuzz-1.json", "fuzz-2.json"]


def test_fresh_file_skips_every_used_number(tmp_path: Path) -> None:
    (tmp_path / "fuzz-7.json").write_text("{}")
    (tmp_path / "fuzz-x.json").write_text("{}")
    assert fresh_file(tmp_path, "fuzz", ".json").name == "fuzz-8.json"
    assert fresh_file(tmp_path, "fuzz", ".json").name == "fuzz-9.json"
    assert (tmp_path / "fuzz-7.json").read_text() == "{}"


def test_an_output_check_leaves_nothing_behind(tmp_path: Path, capsys: Any) -> None:
    """The writability probe of a path that fails later leaves no file or folder."""
    target = tmp_path / "sub" / "r.json"
    status, _, _ = run(["verify", "--players", "1", "--json", str(target)], capsys)
    assert status == 2 and not target.exists() and not (tmp_path / "sub").exists()
    assert os.listdir(tmp_path) == []


# --- the exit-code table --------------------------------------------------------------------


@pytest.mark.slow
def test_vectors_check_names_the_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["vectors", "--out", str(tmp_path)]) == 0
    path = tmp_path / "v1" / "lowhigh.tricks.json"
    doc = json.loads(path.read_text("utf-8"))
    case = doc["cases"][3]
    case["expected"] = {"changed": True}
    path.write_text(json.dumps(doc, indent=1) + "\n", "utf-8")
    capsys.readouterr()
    status, _, err = run(["vectors", "--check", "--out", str(tmp_path)], capsys)
    assert status == 1
    assert f"case {case['id']}: field expected" in err, err


FAILING: dict[str, tuple[Callable[[dict[str, Path], Path], list[str]], int]] = {
    "rulesets": (lambda f, t: ["rulesets", "--nonsense"], 2),
    "completion": (lambda f, t: ["completion", "fish"], 2),
    "impact": (lambda f, t: ["impact", "lowhigh", "--games", "0"], 2),
    "play": (lambda f, t: ["play", "lowhigh", "-n", "9", "--seed", "1"], 2),
    "trick": (lambda f, t: ["trick", "lowhigh", "-n", "3", "Q1", "R2", "R3"], 2),
    "bench": (lambda f, t: ["bench", "lowhigh", "-n", "3", "--rounds", "0"], 2),
    "verify": (lambda f, t: ["verify", "skat"], 2),
    "replay": (lambda f, t: ["replay", str(_diverging(f, t))], 1),
    "vectors": (lambda f, t: ["vectors", "--check", "--out", str(t)], 1),
    "bounds": (lambda f, t: ["bounds", "--check", "--out", str(t / "none.json")], 2),
    "check": (lambda f, t: ["check", str(_diverging(f, t))], 1),
    "diff": (lambda f, t: ["diff", "skat", "sticheln"], 2),
    "serve": (lambda f, t: ["serve", "--http", "-1"], 2),
    "page": (lambda f, t: ["page", "build", str(f["record"])], 2),
    "fuzz": (lambda f, t: ["fuzz", "--engine", f"{sys.executable} {ENGINE} garbage",
                           "lowhigh", "-n", "3", "--games", "1", "--out", str(t)], 1),
    "explain": (lambda f, t: ["explain", "STI-D-NOSUCH"], 2),
    "dispute": (lambda f, t: ["dispute", "LH-D-"], 2),
    "clause": (lambda f, t: ["clause", ""], 2),
}
"""Each command run in a failing way, and the status the table gives it."""


def _diverging(files: dict[str, Path], folder: Path) -> Path:
    record = json.loads(files["record"].read_text("utf-8"))
    record["rounds"][0]["scores"][0] += 1
    path = folder / "diverging.json"
    path.write_text(json.dumps(record), "utf-8")
    return path


def test_every_command_has_a_failing_case() -> None:
    parser = cli.build_parser()
    commands = {
        name
        for action in parser._subparsers._group_actions  # type: ignore[union-attr]
        for name in getattr(action, "choices", {})
    }
    assert commands == set(FAILING)


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(FAILING))
def test_every_command_keeps_the_exit_code_table(
    command: str, files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv, status = FAILING[command]
    got, out, err = run(argv(files, tmp_path), capsys)
    assert got == status, (out, err)
    assert err.count("\n") == 1 or (status == 1 and err == ""), err


@pytest.mark.parametrize(
    ("raised", "status", "line"),
    [
        (RuntimeError("a defect"), 70, "tricklaw: internal error (please report it): "),
        (KeyboardInterrupt(), 130, "tricklaw: interrupted"),
    ],
)
def test_a_defect_and_an_interrupt_have_their_codes(
    raised: BaseException,
    status: int,
    line: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def broken(args: Any) -> int:
        raise raised

    monkeypatch.setattr(cli, "cmd_rulesets", broken)
    got, _, err = run(["rulesets"], capsys)
    assert got == status and err.startswith(line) and len(err.splitlines()) == 1


def test_the_table_is_in_help_and_in_the_docs(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    shown = capsys.readouterr().out
    docs = Path(__file__).parent.parent / "docs" / "intro.md"
    for code, meaning in cli.EXIT_CODES:
        assert f"{code:<4} {meaning}" in shown
        if docs.exists():  # the source tree (a plain install has no docs)
            assert f"| {code} | {meaning} |" in docs.read_text("utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("command", ["replay", "check"])
def test_a_record_nested_990_deep_is_refused_by_the_real_command(
    command: str, files: dict[str, Path], tricklaw_script: str
) -> None:
    """Before issue 16, 990 levels parsed at the command's stack depth (not inside pytest's
    deeper one) and then broke the schema's message with a RecursionError (exit 70). The
    reader now refuses nesting deeper than MAX_DEPTH (a walk of the value, tested directly
    by test_the_json_reader_names_every_problem), whatever the stack."""
    proc = subprocess.run(
        [tricklaw_script, command, str(files["deep-990.json"])],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert f"nested deeper than {MAX_DEPTH} levels" in proc.stderr
