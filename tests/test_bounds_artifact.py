"""The score bounds proved once and checked in (``spec/bounds/v1.json``,
:mod:`tricklaw.proofs.bounds.artifact`, :mod:`tricklaw.spec.proved_bounds`).

* The file has every ruleset, player count and reading, in the generator's own layout.
* A difference is found and named: by ``tricklaw bounds --check``, and by ``verify``'s
  ``bounds-artifact`` check, which compares the bounds it proves anyway with the file.
* What needs only the values reads them without Z3: the OpenSpiel adapter's episodes,
  and the OpenSpiel games themselves.

(``tests/test_bounds.py`` proves every bound afresh and compares it with the file.)
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from tricklaw import score_bounds
from tricklaw.model.rulesets import RULESETS
from tricklaw.proofs.bounds import MAX, MIN, artifact, bounds_results, label, readings
from tricklaw.proofs.solver import UNKNOWN
from tricklaw.spec.errors import SpecError
from tricklaw.spec.proved_bounds import (
    FILE,
    PATH,
    ProvedBounds,
    bound_cells,
    load_bounds,
    parse_bounds,
)

TEXT = resources.files("tricklaw.spec").joinpath(PATH).read_text("utf-8")


def doctored(change: Any) -> ProvedBounds:
    """The file with ``change`` applied to its parsed JSON."""
    data = json.loads(TEXT)
    change(data)
    return parse_bounds(json.dumps(data))


def first_row(data: dict[str, Any], obligation: str, ruleset_id: str, players: str) -> Any:
    return next(
        r
        for r in data["bounds"]
        if (r["obligation"], r["ruleset"], r["players"], r["reading"])
        == (obligation, ruleset_id, players, "default")
    )


def test_the_file_is_in_the_generators_layout() -> None:
    """Byte for byte the text the generator writes for its own content."""
    assert artifact.dumps(json.loads(TEXT)) == TEXT
    assert TEXT.endswith("}\n")


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_the_file_has_every_reading_and_the_readings_tables(ruleset_id: str) -> None:
    kept = load_bounds()
    assert kept.rulesets[ruleset_id] == artifact.ruleset_part(ruleset_id)
    for players in RULESETS[ruleset_id].player_counts:
        expected = [label(r) for r in readings(ruleset_id, players)]
        assert kept.readings(ruleset_id, players) == expected
        for reading in expected:
            for name in (MAX, MIN):
                assert kept.row(name, ruleset_id, players, reading) is not None


def test_a_file_of_another_format_or_version_is_refused() -> None:
    with pytest.raises(SpecError, match="not valid JSON"):
        parse_bounds("{")
    with pytest.raises(SpecError, match="not a tricklaw-bounds file"):
        parse_bounds('{"format": "tricklaw-vectors"}')
    with pytest.raises(SpecError, match="version 2"):
        parse_bounds('{"format": "tricklaw-bounds", "version": 2}')


def test_round_bounds_need_both_proved() -> None:
    """The values only when both obligations are proved (and met by a witness)."""
    assert load_bounds().round_bounds("sticheln", 4) == (-65, 48)
    assert load_bounds().round_bounds("sticheln", 4, (("no-such", "reading"),)) is None

    def gap(data: dict[str, Any]) -> None:
        first_row(data, MAX, "sticheln", "4")["status"] = UNKNOWN

    assert doctored(gap).round_bounds("sticheln", 4) is None
    cells = bound_cells(doctored(gap).rows)[("sticheln", "4", "default")]
    assert cells[MIN] == "-65"
    assert cells[MAX].startswith("unknown: greatest round score")


# --- differences are found and named ----------------------------------------------------


@pytest.mark.slow
def test_first_difference_names_the_result_and_its_field() -> None:
    kept = load_bounds()
    assert artifact.first_difference(kept, kept) is None

    def clauses(data: dict[str, Any]) -> None:
        first_row(data, MIN, "hund", "3")["clauses"] = ["HUND-FACT-2"]

    found = artifact.first_difference(doctored(clauses), kept)
    assert found is not None and found.startswith("score-min hund 3p [default]: clauses")

    def score(data: dict[str, Any]) -> None:
        first_row(data, MAX, "lowhigh", "5")["witness"]["score"] = 0

    found = artifact.first_difference(doctored(score), kept)
    assert found == "score-max lowhigh 5p [default]: witness score 0 in the file, 145 proved"

    def dropped(data: dict[str, Any]) -> None:
        data["bounds"].pop()

    assert artifact.first_difference(doctored(dropped), kept) == (
        f"{len(kept.rows) - 1} results in the file, {len(kept.rows)} proved"
    )

    def reason(data: dict[str, Any]) -> None:
        data["rulesets"]["the-last"]["unchanged"] = []

    assert artifact.first_difference(doctored(reason), kept) == "the readings of the-last differ"


def _args(target: Path, check: bool) -> argparse.Namespace:
    """``tricklaw bounds --out TARGET [--check]``'s arguments, every ruleset."""
    return argparse.Namespace(ruleset=[], out=str(target), check=check, json=False)


@pytest.mark.slow
def test_the_command_writes_and_checks_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tricklaw bounds --out FILE`` writes what the generator gives; ``--check`` exits 0
    when the file is that, else 1 naming the first difference. (The generator, which
    proves every bound, stands in with the checked-in text: tests/test_bounds.py proves
    them.)"""
    monkeypatch.setattr(artifact, "generate", lambda *_: TEXT)
    target = tmp_path / "bounds.json"
    assert score_bounds.cmd_bounds(_args(target, check=False)) == 0
    assert target.read_text(encoding="utf-8") == TEXT
    assert score_bounds.cmd_bounds(_args(target, check=True)) == 0
    assert "bounds agree" in capsys.readouterr().out
    data = json.loads(TEXT)
    first_row(data, MAX, "the-last", "3")["detail"] = "changed"
    target.write_text(artifact.dumps(data), encoding="utf-8")
    assert score_bounds.cmd_bounds(_args(target, check=True)) == 1
    err = capsys.readouterr().err
    assert "score-max the-last 3p [default]: detail 'changed' in the file" in err
    assert err.count("\n") == 1


@pytest.mark.slow
def test_the_command_without_a_spec_folder_needs_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    proc = subprocess.run(
        [str(Path(sys.executable).parent / "tricklaw"), "bounds"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr == (
        "tricklaw: error: no spec/ folder here: run from the repository root or give --out FILE\n"
    )


@pytest.mark.slow
def test_verify_checks_its_bounds_against_the_file() -> None:
    """The bounds ``verify`` proves pass against the file; a result or a reading that
    differs fails, naming it."""
    lowhigh = RULESETS["lowhigh"]
    fresh = bounds_results(lowhigh, 3, 5000)
    ok = artifact.artifact_check(lowhigh, 3, fresh, load_bounds())
    assert (ok.obligation, ok.ruleset, ok.players, ok.status) == (
        "bounds-artifact",
        "lowhigh",
        "3",
        "pass",
    )
    assert ok.detail == f"{len(fresh)} score bounds agree with {FILE}"

    changed = [dataclasses.replace(fresh[1], witness=copy.deepcopy(fresh[1].witness))]
    changed[0].witness["bound"] = 1
    bad = artifact.artifact_check(lowhigh, 3, changed, load_bounds())
    assert bad.status == "fail"
    assert bad.detail == (
        f"differs from {FILE} (run 'tricklaw bounds'): "
        "score-min lowhigh 3p [default]: witness bound 0 in the file, 1 proved"
    )

    def missing(data: dict[str, Any]) -> None:
        data["bounds"] = [r for r in data["bounds"] if r["reading"] != "same-card=among-rest"]

    gone = artifact.artifact_check(lowhigh, 3, fresh, doctored(missing))
    assert gone.status == "fail"
    assert "readings ['default'] in the file, ['default', 'same-card=among-rest'] proved" in (
        gone.detail
    )


# --- read without Z3 --------------------------------------------------------------------


def run_python(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=False
    )


def test_episodes_read_the_bounds_without_z3(tmp_path: Path) -> None:
    """An episode's utilities come from the file: Z3 is never imported."""
    code = (
        "import sys\n"
        "from tricklaw import episodes\n"
        "ep = episodes.episode('the-last', (('players', 4), ('unused_points', 'last-winner')))\n"
        "assert ep.proved and ep.utility == (-132, 0), ep.utility\n"
        "assert 'z3' not in sys.modules, 'z3 imported'\n"
    )
    run = run_python(code, tmp_path)
    assert run.returncode == 0, run.stderr


@pytest.mark.slow
def test_loading_an_openspiel_game_does_not_import_z3(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel")
    code = (
        "import sys, pyspiel, tricklaw.openspiel\n"
        "game = pyspiel.load_game('tricklaw_sticheln(players=4)')\n"
        "assert (game.min_utility(), game.max_utility()) == (-65.0, 48.0)\n"
        "assert 'z3' not in sys.modules, 'z3 imported'\n"
    )
    run = run_python(code, tmp_path)
    assert run.returncode == 0, run.stderr


@pytest.mark.slow
def test_bounds_of_one_ruleset_replace_its_part_and_keep_the_others() -> None:
    """``tricklaw bounds RULESET`` proves one game again and writes it into the existing
    file (:func:`artifact.merged`): its readings and rows are the fresh ones, every other
    ruleset's stay as they were and in their place. (It once wrote a file holding the
    one ruleset only, dropping the bounds of the four others.)"""
    whole = json.loads(TEXT)
    fresh = copy.deepcopy(whole)
    fresh["rulesets"] = {"lowhigh": whole["rulesets"]["lowhigh"]}
    fresh["bounds"] = [r for r in fresh["bounds"] if r["ruleset"] == "lowhigh"]
    fresh["bounds"][0]["detail"] = "proved again"
    out = json.loads(artifact.merged(TEXT, artifact.dumps(fresh), ["lowhigh"]))
    assert list(out["rulesets"]) == list(whole["rulesets"])
    assert [r["ruleset"] for r in out["bounds"]] == [r["ruleset"] for r in whole["bounds"]]
    changed = [
        i for i, (a, b) in enumerate(zip(whole["bounds"], out["bounds"], strict=True)) if a != b
    ]
    assert [out["bounds"][i]["detail"] for i in changed] == ["proved again"]
    # No file, or not a bounds file: the fresh part alone.
    assert artifact.merged("[]", artifact.dumps(fresh), ["lowhigh"]) == artifact.dumps(fresh)
    assert artifact.merged(artifact.dumps(whole), TEXT, list(whole["rulesets"])) == TEXT
