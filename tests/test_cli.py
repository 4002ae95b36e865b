"""The ``tricklaw`` console script, run as a subprocess."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
from importlib.metadata import distribution
from pathlib import Path
from typing import Any

import pytest

from tricklaw.bench import compiled
from tricklaw.spec import load_registry

clause = pytest.mark.clause


SCRIPT = ""
"""The installed console script (the ``tricklaw_script`` fixture of conftest.py)."""


@pytest.fixture(autouse=True)
def _installed_script(tricklaw_script: str) -> None:
    global SCRIPT  # noqa: PLW0603 (set once per session from the shared fixture)
    SCRIPT = tricklaw_script


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SCRIPT, *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def ok(*args: str) -> str:
    proc = run(*args)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.stdout


def bad(*args: str) -> str:
    """Run a command that must fail on bad input; its one error line."""
    proc = run(*args)
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("tricklaw: error:"), lines[0]
    return lines[0]


def trick_json(*args: str) -> dict[str, Any]:
    out = ok("trick", *args, "--json")
    assert len(out.strip().splitlines()) == 1
    return json.loads(out)


# --- rulesets ---------------------------------------------------------------------------------


def test_rulesets_lists_both_sticheln_texts() -> None:
    out = ok("rulesets")
    assert "sticheln-1993" in out and "sticheln " in out
    assert "--option follow=free" in out
    assert "[STI-D-ZEROLEAD]" in out


@pytest.mark.slow
def test_rulesets_says_what_each_reading_means() -> None:
    """Issue 43, item 6: every reading of every dispute with its meaning, in text and in
    ``--json``, from the spec's own words (not a list kept here)."""
    out = ok("rulesets")
    data = {r["id"]: r for r in json.loads(ok("rulesets", "--json"))}
    for ruleset_id, ruleset in data.items():
        for dispute in load_registry(ruleset_id).disputes:
            listed = next(d for d in ruleset["disputes"] if d["id"] == dispute.id)
            assert listed["question"] == dispute.question
            assert listed["default"] == dispute.default
            assert [(r["value"], r["meaning"]) for r in listed["readings"]] == [
                (r.value, r.summary) for r in dispute.readings
            ]
            for reading in dispute.readings:
                setting = f"{dispute.option}={reading.value}" if dispute.option else reading.value
                assert f"        {setting}" in out and reading.summary in out
    assert "zero-lead=lead-card (the default): " in out


def test_rulesets_json_parses() -> None:
    data = json.loads(ok("rulesets", "--json"))
    by_id = {r["id"]: r for r in data}
    assert {"sticheln-1993", "sticheln"} <= set(by_id)
    old = by_id["sticheln-1993"]
    assert old["players"] == [3, 4, 5, 6]
    follow = next(o for o in old["options"] if o["name"] == "follow")
    assert follow == {
        "name": "follow",
        "default": "free",
        "choices": ["free", "follow-or-trump", "must-follow"],
        "dispute": "STI93-D-FOLLOW",
        "help": follow["help"],
    }


# --- play and replay --------------------------------------------------------------------------


@pytest.mark.slow
def test_play_writes_a_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    out = ok("play", "sticheln", "-n", "4", "--seed", "42", "--record", str(path))
    assert path.exists()
    record = json.loads(path.read_text())
    assert record["format"] == "tricklaw-record"
    assert record["seed"] == 42 and record["players"] == 4 and record["complete"] is True
    assert len(record["rounds"]) == 4
    assert f"Totals: {record['totals']}" in out
    replayed = ok("replay", str(path))
    assert "record agrees with sticheln: 4 rounds" in replayed
    assert str(record["totals"]) in replayed


@pytest.mark.slow
def test_play_record_to_stdout_is_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    ok("play", "sticheln-1993", "-n", "3", "--seed", "7", "--rounds", "2", "--record", str(path))
    printed = json.loads(
        ok("play", "sticheln-1993", "-n", "3", "--seed", "7", "--rounds", "2", "--record", "-")
    )
    assert printed == json.loads(path.read_text())
    assert printed["options"]["rounds"] == 2


@clause("STI93-LEAD-1", "STI93-DEAL-1")
def test_play_prints_a_readable_log() -> None:
    out = ok("play", "sticheln-1993", "-n", "3", "--seed", "4", "--rounds", "2")
    lines = out.splitlines()
    rounds = [line for line in lines if line.startswith("Round ")]
    assert len(rounds) == 2
    assert re.search(r"Round 0\b.*dealer seat 0.*seat 1 leads", rounds[0]), rounds[0]
    assert re.search(r"Round 1\b.*dealer seat 1.*seat 2 leads", rounds[1]), rounds[1]
    assert sum(1 for line in lines if "picked" in line) == 2
    assert sum(1 for line in lines if line.lstrip().startswith("trick ")) == 28
    assert any("STI93-TRICK-1" in line for line in lines)
    assert sum(1 for line in lines if line.lstrip().startswith("scores: ")) == 2
    assert any(line.startswith("Totals: ") for line in lines)
    assert lines[-1].startswith("Winner")


@pytest.mark.slow
def test_play_is_deterministic() -> None:
    args = ("play", "sticheln", "-n", "5", "--seed", "123")
    assert ok(*args) == ok(*args)


@pytest.mark.slow
def test_replay_of_an_edited_record_fails_naming_the_trick(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    ok("play", "sticheln", "-n", "3", "--seed", "1", "--record", str(path))
    record = json.loads(path.read_text())
    trick = record["rounds"][0]["tricks"][0]
    trick["winner"] = (trick["winner"] + 1) % 3 if trick["winner"] is not None else 0
    path.write_text(json.dumps(record))
    proc = run("replay", str(path))  # a failed check: exit 1 (issue 16's exit-code table)
    assert proc.returncode == 1 and proc.stderr.startswith("tricklaw: failed: ")
    assert "round 0, trick 0" in proc.stderr


@pytest.mark.slow
def test_play_and_replay_answer_in_json(tmp_path: Path) -> None:
    """``--json``: one object each; a finished game has winners and its totals are the
    sums of its rounds' scores; ``replay --json`` gives the same totals, and a broken
    record the failed verdict (exit 1) naming the trick."""
    path = tmp_path / "game.json"
    game = json.loads(
        ok("play", "sticheln", "-n", "4", "--seed", "42", "--record", str(path), "--json")
    )
    assert (game["ruleset"], game["players"], game["seed"], game["over"]) == (
        "sticheln",
        4,
        42,
        True,
    )
    assert len(game["rounds"]) == 4 and game["winners"]
    sums = [sum(r["scores"][seat] for r in game["rounds"]) for seat in range(4)]
    assert game["totals"] == sums == json.loads(path.read_text())["totals"]
    assert max(game["totals"][w] for w in game["winners"]) == max(game["totals"])
    replayed = json.loads(ok("replay", str(path), "--json"))
    assert replayed["status"] == "agrees" and replayed["totals"] == game["totals"]
    unfinished = json.loads(
        ok("play", "hund", "-n", "3", "--seed", "3", "--max-rounds", "1", "--json")
    )
    assert not unfinished["over"] and unfinished["winners"] is None
    record = json.loads(path.read_text())
    trick = record["rounds"][0]["tricks"][0]
    trick["winner"] = (trick["winner"] + 1) % 4 if trick["winner"] is not None else 0
    path.write_text(json.dumps(record))
    proc = run("replay", str(path), "--json")
    assert proc.returncode == 1, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["status"] != "agrees" and "totals" not in verdict
    assert "round 0, trick 0" in json.dumps(verdict)
    assert "--record -" in bad(
        "play", "lowhigh", "-n", "3", "--seed", "1", "--record", "-", "--json"
    )


@pytest.mark.slow
def test_vectors_and_bounds_checks_answer_in_json(tmp_path: Path) -> None:
    """``--check --json``: the status, the file, and the first difference when there is
    one (exit 1); a check of one ruleset reads only its part of the bounds file."""
    vectors = json.loads(ok("vectors", "--check", "--json"))
    assert vectors["status"] == "agrees" and vectors["files"] > 0
    bounds = json.loads(ok("bounds", "lowhigh", "--check", "--json"))
    assert bounds["status"] == "agrees"
    text = (Path(__file__).parent.parent / "spec" / "bounds" / "v1.json").read_text("utf-8")
    row = text.index('"ruleset": "lowhigh"')
    detail = text.rindex('"detail": "', 0, row) + len('"detail": "')
    edited = tmp_path / "v1.json"
    edited.write_text(text[:detail] + "EDITED " + text[detail:], encoding="utf-8")
    proc = run("bounds", "lowhigh", "--check", "--json", "--out", str(edited))
    assert proc.returncode == 1, proc.stderr
    differs = json.loads(proc.stdout)
    assert differs["status"] == "differs" and "EDITED" in differs["problem"]
    assert "lowhigh" in differs["problem"]
    other = json.loads(ok("bounds", "the-last", "--check", "--json", "--out", str(edited)))
    assert other["status"] == "agrees"  # the edit is in Low-High's part
    proc = run("bounds", "the-last", "--check", "--json", "--out", str(tmp_path / "none"))
    assert proc.returncode == 2 and "cannot read" in proc.stderr


# --- trick ------------------------------------------------------------------------------------


@pytest.mark.slow
@clause("STI-TRICK-3", "STI-EX-TRICK-3")
def test_trick_text_names_the_winner_and_clauses() -> None:
    out = ok("trick", "sticheln", "-n", "4", "G11", "R5", "Y5", "G8")
    first = out.splitlines()[0]
    assert "seat +1 (R5)" in first
    assert "G8" not in first.replace("G11 R5 Y5 G8", "")  # the loser is not named the winner
    assert "decided by:" in out
    assert "STI-TRICK-3:" in out and "STI-TRICK-2:" in out


@clause("STI-TRICK-6")
def test_trick_text_all_zero_has_no_winner() -> None:
    out = ok("trick", "sticheln", "-n", "4", "B0", "Y0", "G0", "R0")
    assert out.splitlines()[0].startswith("no winner")
    assert "STI-TRICK-6:" in out


@pytest.mark.slow
@clause("STI-D-ZEROLEAD")
def test_trick_text_compares_other_readings() -> None:
    out = ok("trick", "sticheln", "-n", "3", "B0", "Y5", "G3")
    assert "seat +1 (Y5)" in out.splitlines()[0]
    other = [line for line in out.splitlines() if "zero-lead=first-nonzero" in line]
    assert len(other) == 1
    assert "seat +2 (G3)" in other[0]
    same = ok("trick", "sticheln", "-n", "4", "G11", "R5", "Y5", "G8")
    assert "zero-lead=first-nonzero: same result" in same


@pytest.mark.slow
@clause("STI-TRICK-2", "STI-EX-TRICK-2")
def test_trick_json_has_winner_taken_clauses_readings() -> None:
    data = trick_json("sticheln", "-n", "4", "Y9", "G5", "R6", "B4")
    assert data["winner"] == 2
    assert isinstance(data["winner"], int)
    assert data["taken"] == {"2": ["Y9", "G5", "R6", "B4"]}
    assert "STI-TRICK-2" in data["clauses"]
    assert set(data["readings"]) == {"zero-lead"}
    assert data["readings"]["zero-lead"]["first-nonzero"]["same"] is True


@pytest.mark.slow
@clause("STI93-D-ALLZERO", "STI93-TRICK-4")
def test_trick_json_all_zero_readings() -> None:
    cards = ("B0", "Y0", "G0", "R0")
    no_winner = trick_json("sticheln-1993", "-n", "4", "-o", "all-zero=no-winner", *cards)
    assert no_winner["winner"] is None
    assert no_winner["taken"] == {}
    assert no_winner["aside"] == list(cards)
    assert "STI93-D-ALLZERO" in no_winner["clauses"]
    leader = no_winner["readings"]["all-zero"]["leader-takes"]
    assert leader["winner"] == 0 and leader["same"] is False
    default = trick_json("sticheln-1993", "-n", "4", *cards)
    assert default["winner"] == 0
    assert default["options"]["all-zero"] == "leader-takes"


@pytest.mark.slow
@clause("STI-TRICK-6")
def test_trick_json_later_edition_all_zero_has_no_winner() -> None:
    assert trick_json("sticheln", "-n", "3", "B0", "Y0", "G0")["winner"] is None


@pytest.mark.slow
@clause("STI-D-ZEROLEAD")
def test_trick_json_zero_lead_readings_differ() -> None:
    data = trick_json(
        "sticheln", "-n", "4", "-o", "zero-lead=first-nonzero", "B0", "Y5", "G3", "R0"
    )
    assert data["winner"] == 2
    assert data["readings"]["zero-lead"]["lead-card"]["winner"] == 1
    assert data["readings"]["zero-lead"]["lead-card"]["same"] is False


@pytest.mark.slow
@clause("STI93-D-DECK")
def test_trick_deck_full_allows_cards_outside_the_table() -> None:
    data = trick_json("sticheln-1993", "-n", "4", "-o", "deck=full", "Y6", "Y5", "Y2", "Y14")
    assert data["winner"] == 3


# --- bench and verify -------------------------------------------------------------------------


@pytest.mark.slow
def test_bench_prints_one_json_line_with_rounds_per_second() -> None:
    out = ok("bench", "sticheln", "-n", "4", "--rounds", "6", "--seed", "3")
    lines = out.strip().splitlines()
    assert len(lines) == 1
    report = json.loads(lines[0])
    assert report["rounds"] == 6
    assert report["rounds_per_s"] > 0
    assert report["ruleset"] == "sticheln" and report["players"] == 4


@pytest.mark.slow
def test_bench_rounds_is_not_the_game_option() -> None:
    # Regression: --rounds of bench once also set the game option 'rounds' (max 10000).
    report = json.loads(ok("bench", "sticheln", "-n", "3", "--rounds", "7", "--seed", "1"))
    assert report["rounds"] == 7
    assert report["options"]["rounds"] == 0  # each benchmarked game is a whole game


@pytest.mark.slow
def test_bench_check_times_the_log_checker() -> None:
    out = ok("bench", "hund", "-n", "2", "--check", "--actions", "200", "--seed", "4")
    report = json.loads(out)
    assert report["ruleset"] == "hund" and report["players"] == 2
    assert report["actions_per_s"] > 0
    assert report["compiled"] is compiled()


@pytest.mark.slow
def test_bench_check_refuses_no_actions() -> None:
    proc = run("bench", "hund", "-n", "2", "--check", "--actions", "0")
    assert proc.returncode == 2
    assert "--actions must be at least 1" in proc.stderr and "Traceback" not in proc.stderr


def _editable() -> bool:
    """Whether tricklaw is an editable install (always plain Python, setup.py): pip says
    so in ``direct_url.json``, or (pip 23, which writes none for an editable install)
    the package is imported from outside any ``site-packages``."""
    text = distribution("tricklaw").read_text("direct_url.json") or "{}"
    if json.loads(text).get("dir_info", {}).get("editable", False):
        return True
    import tricklaw

    return "site-packages" not in Path(tricklaw.__file__).resolve().parts


@pytest.mark.skipif(
    os.environ.get("TRICKLAW_PURE", "") not in ("", "0") or _editable(),
    reason="installed as plain Python (TRICKLAW_PURE, or an editable install)",
)
def test_the_install_compiled_the_hot_path() -> None:
    """The README's install builds the mypyc extensions (setup.py), which the speed figures
    assume; a build that silently fell back to plain Python fails here."""
    from tricklaw.model import flow
    from tricklaw.model.rulesets import hund

    assert compiled()
    assert not flow.__file__.endswith(".py") and not hund.__file__.endswith(".py")


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("trick", "sticheln", "-n", "4", "R5", "Z3", "Y2", "G1"), "unknown colour 'Z'"),
        (("trick", "sticheln", "-n", "4", "R5", "Rx", "Y2", "G1"), "not a whole number"),
        (
            ("trick", "sticheln-1993", "-n", "4", "Y14", "Y2", "Y3", "Y4"),
            "Y14 is not in the 4-player deck of sticheln-1993 [STI93-DECK-2]",
        ),
        (("trick", "sticheln", "-n", "3", "A1", "Y2", "Y3"), "A1 is not in the 3-player deck"),
        (("trick", "sticheln", "-n", "4", "R5", "R5", "Y2", "G1"), "R5 is played twice"),
        (("trick", "sticheln", "-n", "4", "R5", "Y2", "G1"), "has 4 cards, not 3"),
        (("trick", "sticheln", "-n", "3", "R5", "Y2", "G1", "B1"), "has 3 cards, not 4"),
        (("trick", "bridge", "-n", "4", "R5", "Y2", "G1", "B3"), "unknown ruleset 'bridge'"),
        (
            ("trick", "sticheln", "-n", "4", "-o", "foo=bar", "R5", "Y2", "G1", "B3"),
            "unknown option 'foo'",
        ),
        (
            ("trick", "sticheln", "-n", "4", "-o", "zero-lead=maybe", "R5", "Y2", "G1", "B3"),
            "no reading 'maybe'",
        ),
        (
            ("trick", "sticheln", "-n", "4", "-o", "zero-lead", "R5", "Y2", "G1", "B3"),
            "not of the form name=value",
        ),
        (
            ("play", "sticheln-1993", "-n", "4", "-o", "rounds=many", "--seed", "1"),
            "takes a whole number",
        ),
        (("play", "sticheln-1993", "-n", "4", "-o", "rounds=0", "--seed", "1"), "outside 1..10000"),
        (
            ("trick", "sticheln", "-n", "7", "R5", "Y2", "G1", "B3", "B4", "B5", "B6"),
            "3-6 players, not 7",
        ),
        (("play", "sticheln", "-n", "7", "--seed", "1"), "3-6 players, not 7"),
        (("play", "sticheln", "-n", "4", "--seed", "-1"), "--seed -1"),
        (("play", "sticheln", "-n", "4"), "--seed"),
        (("play", "sticheln", "-n", "four", "--seed", "1"), "invalid int value"),
        (("frobnicate",), "invalid choice"),
        # issue 43, item 6: an empty path or name is refused, not read as "." or ignored
        (("play", "lowhigh", "-n", "3", "--seed", "1", "--record", ""), "--record is empty"),
        (("check", ""), "RECORD is empty"),
        (("replay", ""), "record is empty"),
        (("vectors", "--out", ""), "--out is empty"),
        (("page", "build", ""), "out is empty"),
        (("play", "lowhigh", "-n", "3", "--seed", "1", "-o", ""), "--option/-o is empty"),
        (("diff", "sticheln-1993", "sticheln", "--timeout", "0"), "--timeout must be at least 1"),
        ((), "required"),
    ],
)
def test_bad_input_exits_2_with_one_error_line(args: tuple[str, ...], needle: str) -> None:
    line = bad(*args)
    assert needle in line


@pytest.mark.slow
def test_corrupt_record_file_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "tricklaw-record", "version": 1, "rou')
    assert "not valid JSON" in bad("replay", str(path))
    path.write_text(json.dumps({"format": "tricklaw-record", "version": 7}))
    assert "record field" in bad("replay", str(path))
    path.write_text("[]")
    assert "not a JSON object" in bad("replay", str(path))


@pytest.mark.slow
def test_missing_record_file_exits_2(tmp_path: Path) -> None:
    line = bad("replay", str(tmp_path / "nowhere.json"))
    assert "cannot read" in line and "nowhere.json" in line


@pytest.mark.slow
def test_unwritable_record_path_exits_2(tmp_path: Path) -> None:
    line = bad(
        "play",
        "sticheln",
        "-n",
        "3",
        "--seed",
        "1",
        "--record",
        str(tmp_path / "no-such-dir" / "game.json"),
    )
    assert "cannot write the record" in line


# --- completion -------------------------------------------------------------------------------


def _bash_completes(script: str, words: list[str]) -> list[str]:
    """What bash offers for the last of ``words`` with tricklaw's completion script."""
    shell = (
        f"source {script}; COMP_WORDS=({' '.join(repr(w) for w in words)}); "
        f"COMP_CWORD={len(words) - 1}; _shtab_tricklaw tricklaw {words[-1]!r} {words[-2]!r}; "
        'printf "%s\\n" "${COMPREPLY[@]}"'
    )
    proc = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, check=True)
    return proc.stdout.split()


@pytest.mark.slow
def test_bash_completes_commands_options_and_choices(tmp_path: Path) -> None:
    script = tmp_path / "tricklaw.bash"
    script.write_text(ok("completion", "bash"), encoding="utf-8")
    assert _bash_completes(str(script), ["tricklaw", "ver"]) == ["verify"]
    assert _bash_completes(str(script), ["tricklaw", "verify", "--sm"]) == ["--smt2"]
    assert _bash_completes(str(script), ["tricklaw", "completion", ""]) == ["bash", "zsh", "tcsh"]
    assert ok("completion", "zsh").startswith("#compdef tricklaw")
    assert "completion: argument shell: invalid choice: 'fish'" in bad("completion", "fish")


# --- the parser: one command's parser at a time ------------------------------------------------


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction[Any]:
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


def test_each_command_help_line_is_the_one_its_own_parser_gives() -> None:
    """``tricklaw --help`` lists every command from ``cli.COMMANDS`` without importing
    their modules; the lines are the ones the commands' own parsers give, in order."""
    from tricklaw import cli

    full = _subparsers(cli.build_parser())
    assert [(a.dest, a.help) for a in full._choices_actions] == list(cli.COMMANDS.items())
    for name in cli.COMMANDS:
        alone = _subparsers(cli.build_parser(name))
        built = {n for n, c in alone.choices.items() if c._actions}  # a help line has none
        assert built == {name, *cli.ALIASES.get(name, ())}


@pytest.mark.slow
def test_a_command_imports_only_its_own_module() -> None:
    """``trick`` does not load the oracle, the fuzzer or verify (a few tenths of a second
    on every run); ``serve`` does load the oracle."""
    probe = (
        "import sys, io, contextlib; from tricklaw.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(sys.argv[1:])\n"
        "heavy = ['tricklaw.oracle', 'tricklaw.fuzz', 'tricklaw.verify', 'tricklaw.bench']\n"
        "print(' '.join(m for m in heavy if m in sys.modules))"
    )
    python = str(Path(SCRIPT).parent / "python")

    def loaded(*args: str) -> str:
        proc = subprocess.run(
            [python, "-c", probe, *args], capture_output=True, text=True, check=False
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.strip()

    assert loaded("trick", "lowhigh", "-n", "4", "R0", "B1", "Y2", "G3") == ""
    assert "tricklaw.oracle" in loaded("serve", "--help").split()


# --- explain: a clause or dispute looked up ----------------------------------------------------


@pytest.mark.slow
def test_explain_shows_a_disputes_readings_with_their_options() -> None:
    out = ok("dispute", "lh-d-firstlead")
    assert out.startswith("LH-D-FIRSTLEAD (lowhigh): ")
    assert "--option first-leader=rotate" in out and "(default)" in out
    assert "why the default:" in out


@pytest.mark.slow
def test_explain_shows_a_clause_and_the_disputes_on_it() -> None:
    out = ok("clause", "LH-PLAY-1")
    assert out.startswith("LH-PLAY-1 (lowhigh, play):") and "LH-D-FIRSTLEAD" in out
    assert json.loads(ok("explain", "LH-PLAY-1", "--json"))["kind"] == "play"


@pytest.mark.slow
def test_explain_names_the_nearest_ids_of_an_unknown_one() -> None:
    assert "did you mean STI-D-ZEROOFF" in bad("explain", "STI-D-ZEROF")
