"""``tricklaw impact`` (issue 17 part 4): paired games per dispute reading.

* Wilson's interval against known values;
* the cases are every dispute reading an option selects, for every ruleset and Tiny;
* the pairing is exact: a reading paired with itself never differs, a tie-break reading
  changes no trick, a trick-rule reading does change tricks;
* a reading that names no one value (The Last's ``rounds=N``) is studied as its stand-in
  (which verify holds to be a reading), compared over the rounds both games play;
* the same seed gives the same report on one process, two, or (slow) a local Ray;
* the command writes its JSON and its SVG figure.
"""

from __future__ import annotations

import dataclasses
import io
import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import tiny

from tricklaw.cli import main
from tricklaw.impact.lockstep import pairs
from tricklaw.impact.run import CHUNK, chunks, progress, study
from tricklaw.impact.stats import wilson
from tricklaw.impact.study import MAX_ROUNDS, Case, cases, play, play_chunk, reading_game
from tricklaw.model.agents import random_step
from tricklaw.model.rulesets import RULESETS
from tricklaw.spec import load_registry
from tricklaw.verify.checks import registry_checks

VARYING = ("seconds", "games_per_second")
"""The report's fields that describe the run, not the result."""


def result(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in VARYING}


def first_case(dispute_id: str, agent: str = "random") -> Case:
    return next(c for c in cases(list(RULESETS), None, dispute_id, [agent]))


def test_wilson_interval_known_values() -> None:
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(5, 10)
    assert (low, high) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_every_dispute_reading_with_an_option_is_a_case() -> None:
    study_cases = cases(list(RULESETS), agents=["random"])
    found = {(c.ruleset, c.dispute, c.reading) for c in study_cases}
    for rid in RULESETS:
        specs = {s.name: s for s in RULESETS[rid].option_specs}
        for d in load_registry(rid).disputes:
            spec = specs.get(d.option)
            if spec is None or len(d.readings) < 2:
                continue
            named = set(spec.choices) | {value for value, _ in spec.stand_ins}
            for reading in d.readings:
                if reading.value != d.default and reading.value in named:
                    assert (rid, d.id, reading.value) in found, (rid, d.id, reading.value)
    assert all(c.reading != c.default for c in study_cases)


@pytest.mark.slow
def test_a_reading_paired_with_itself_never_differs() -> None:
    case = dataclasses.replace(first_case("LH-D-SAMECARD", "heuristic"), reading="same-player")
    assert play_chunk(case, 0, 8) == [(False, False, False)] * 8


@pytest.mark.slow
def test_a_tie_break_changes_no_trick_and_a_trick_rule_does() -> None:
    tie = play_chunk(first_case("LH-D-GAMETIE"), 0, 20)
    assert not any(trick or score for trick, score, _ in tie)
    same_card = play_chunk(first_case("LH-D-SAMECARD", "heuristic"), 0, 20)
    assert any(trick for trick, _, _ in same_card)


@pytest.mark.slow
def test_the_last_rounds_n_is_three_rounds_compared_over_the_first() -> None:
    """LAST-D-ROUNDS' reading ``N`` is played as its stand-in, three rounds, against the
    default's one; the option sets the game's length, so a pair is compared over the round
    both play: that round is the same game (the option changes nothing in it), while the
    winner, on three rounds' totals, changes. Both engines agree."""
    case = first_case("LAST-D-ROUNDS")
    assert case.reading == "N"
    assert [reading_game(case, v).options["rounds"] for v in ("1", "N")] == [1, 3]
    assert play(reading_game(case, "N"), 0, random_step).round_index == 2
    for agent in ("random", "heuristic"):
        rows = play_chunk(dataclasses.replace(case, agent=agent), 0, 12, engine="reference")
        assert not any(trick or score for trick, score, _ in rows), agent
        assert any(winner for _, _, winner in rows), agent
    assert play_chunk(case, 0, 12, engine="batch") == play_chunk(case, 0, 12, engine="reference")


def test_verify_refuses_a_stand_in_that_is_no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = RULESETS["the-last"]
    specs = tuple(
        dataclasses.replace(s, stand_ins=(("M", 3),)) if s.name == "rounds" else s
        for s in ruleset.option_specs
    )
    monkeypatch.setattr(type(ruleset), "option_specs", specs)
    (row,) = [r for r in registry_checks(ruleset) if r.obligation == "options-are-disputes"]
    assert row.status == "fail" and "stand-in M=3" in row.detail


def test_tiny_a_plug_in_game_is_studied(registered: None) -> None:
    (case,) = cases([tiny.RULESET_ID], 2, None, ["heuristic"])
    assert case.dispute == "TINY-D-TIE"
    rows = play_chunk(case, 0, 10)
    assert len(rows) == 10 and not any(trick or score for trick, score, _ in rows)


def test_chunks_are_cut_by_seed_not_by_worker() -> None:
    work = chunks(2, CHUNK + 3, seed=7)
    assert work == [(0, 7, CHUNK), (0, 7 + CHUNK, 3), (1, 7, CHUNK), (1, 7 + CHUNK, 3)]


def small_study() -> list[Case]:
    return cases(["lowhigh"], 3, "LH-D-SAMECARD", ["random", "heuristic"])


GAMES = CHUNK + 5
"""Pairs per case of the small study: two chunks a case."""

SMALL_STUDY = pytest.mark.xdist_group("impact-small-study")
"""The tests that read :func:`small_report` run on one pytest-xdist worker, so that they
share its reports (each of the small study's runs is seconds of heuristic play)."""


@cache
def small_report(seed: int = 3, jobs: int = 1, engine: str = "batch") -> dict[str, Any]:
    """The small study's report (:data:`GAMES` pairs a case), played once per worker
    for each set of arguments: several tests compare against the same run."""
    return study(small_study(), GAMES, seed=seed, jobs=jobs, engine=engine)


@pytest.mark.slow
@SMALL_STUDY
def test_the_same_seed_gives_the_same_report_on_one_or_two_processes() -> None:
    one = small_report()
    two = small_report(jobs=2)
    assert result(one) == result(two)
    assert [row["pairs"] for row in one["cases"]] == [GAMES, GAMES]
    assert result(small_report(seed=4)) != result(one)


@pytest.mark.slow
def test_the_batch_engine_gives_the_references_pairs() -> None:
    """Random agents' pairs are played by the batch engine where it has a kernel: the
    same outcomes as the reference's, pair for pair, on a sample of every ruleset's cases
    (a trick rule, a deck, a tie-break, a scoring reading; the two-player games and Hund's
    sets included)."""
    pytest.importorskip("numpy")
    sample = cases(list(RULESETS), agents=["random"])[::9]
    assert {c.ruleset for c in sample} == set(RULESETS)
    for case in sample:
        batch = play_chunk(case, 40, 8, engine="batch")
        assert batch == play_chunk(case, 40, 8, engine="reference"), case
    lowhigh = first_case("LH-D-SAMECARD")
    base, other = reading_game(lowhigh, lowhigh.default), reading_game(lowhigh, lowhigh.reading)
    played = pairs(base, other, 0, 20, MAX_ROUNDS)  # the batch path itself, no fallback
    assert played == play_chunk(lowhigh, 0, 20, engine="reference")
    assert any(trick for trick, _, _ in played)


def test_without_numpy_the_reference_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    case = first_case("LH-D-SAMECARD")
    base, other = reading_game(case, case.default), reading_game(case, case.reading)
    monkeypatch.setitem(sys.modules, "numpy", None)  # ``import numpy`` now fails
    assert pairs(base, other, 0, 3, MAX_ROUNDS) is None
    assert len(play_chunk(case, 0, 3, engine="batch")) == 3


@pytest.mark.slow
@SMALL_STUDY
def test_the_report_is_the_same_whichever_engine_plays() -> None:
    assert result(small_report()) == result(small_report(engine="reference"))


@pytest.mark.slow
@SMALL_STUDY
def test_the_same_report_through_a_local_ray() -> None:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        through_ray = study(small_study(), GAMES, seed=3, ray_address="local")
    finally:
        ray.shutdown()
    assert result(through_ray) == result(small_report())


@pytest.mark.slow
def test_the_command_writes_json_and_a_figure(tmp_path: Path) -> None:
    out, svg = tmp_path / "impact.json", tmp_path / "impact.svg"
    args = ["impact", "lowhigh", "-n", "3", "--dispute", "LH-D-GAMETIE", "--games", "6"]
    assert main([*args, "--jobs", "1", "--agents", "random", "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert {row["reading"] for row in report["cases"]} == {"nobody", "first-seat"}
    for row in report["cases"]:
        assert row["pairs"] == 6 and row["trick"]["differ"] == 0
        low, high = row["winner"]["ci95"]
        assert low <= row["winner"]["share"] <= high
    pytest.importorskip("matplotlib")
    assert main([*args, "--jobs", "1", "--agents", "random", "--plot", str(svg)]) == 0
    assert svg.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert main([*args, "--agents", "nobody"]) == 2


def test_the_docs_study_covers_every_case() -> None:
    """``docs/impact.json`` (the register's figures) has a row of every case of the
    registries, for both agents: a new dispute or reading means rerunning the study."""
    report = json.loads((Path(__file__).parents[1] / "docs" / "impact.json").read_text("utf-8"))
    have = {
        (r["ruleset"], r["dispute"], r["reading"], r["players"], r["agent"])
        for r in report["cases"]
    }
    want = {
        (c.ruleset, c.dispute, c.reading, c.players, c.agent)
        for c in cases(list(RULESETS), agents=["random", "heuristic"])
    }
    assert have == want, sorted(have ^ want)[:10]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_is_drawn_on_a_terminal_only() -> None:
    plain, terminal = io.StringIO(), _Terminal()
    for stream in (plain, terminal):
        tick = progress(4, stream)
        tick(2)
        tick(4)
    assert plain.getvalue() == ""
    drawn = terminal.getvalue()
    assert "2/4 pairs" in drawn and "4/4 pairs" in drawn and drawn.endswith("\n")
