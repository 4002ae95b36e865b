"""The conformance vectors (``spec/vectors/v1``, :mod:`tricklaw.vectors`).

* the checked-in files are exactly a fresh generation (``tricklaw vectors --check``), and the
  generation does not depend on the process (hash seed);
* every file validates against ``spec/vectors.schema.json``;
* the reference runner reproduces every case's expected outputs from its inputs alone;
* every normative clause of every registry is exercised by some case, and every clause id
  a case cites exists;
* the trick vectors hold every outcome an independent random sample of tricks reaches, every
  tie and every no-winner trick; every reading of what may be played has legal-move cases.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections import defaultdict
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from tricklaw import vectors
from tricklaw.model.cards import Card
from tricklaw.model.rng import SplitMix64
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.spec import load_registry
from tricklaw.spec.errors import TricklawError
from tricklaw.spec.outputs import MARKER, OwnFolder
from tricklaw.vectors.profiles import PROFILES
from tricklaw.vectors.profiles.hund import hot_values, model_context, sample_hund_context

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT / "spec" / "vectors"
FILES = sorted(p.name for p in (VECTORS / vectors.FOLDER).glob("*.json"))


@cache
def docs() -> dict[str, dict[str, Any]]:
    """The checked-in vector files, parsed (read once)."""
    return vectors.load(VECTORS)


def run_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tricklaw")
    sub = parser.add_subparsers(dest="command", required=True)
    vectors.add_command(sub)
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status


def digest(files: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(files, sort_keys=True).encode("utf-8")).hexdigest()


# --- determinism --------------------------------------------------------------------------------


@pytest.mark.slow
def test_checked_in_vectors_are_a_fresh_generation_in_any_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A second process with another hash seed generates alongside (set and dict order of
    # strings must not leak into the data).
    code = (
        "import hashlib, json; from tricklaw.vectors import generate; "
        "print(hashlib.sha256(json.dumps(generate(), sort_keys=True).encode()).hexdigest())"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    other = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert run_command(["vectors", "--check", "--out", str(VECTORS)]) == 0
    assert "vectors agree" in capsys.readouterr().out
    assert sorted(vectors.generate()) == [f"{vectors.FOLDER}/{name}" for name in FILES]
    out, err = other.communicate(timeout=120)
    assert other.returncode == 0, err
    assert out.strip() == digest(vectors.generate())


@pytest.mark.slow
def test_check_names_the_first_differing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(VECTORS, tmp_path / "vectors")
    folder = tmp_path / "vectors" / vectors.FOLDER
    target = folder / "lowhigh.tricks.json"
    target.write_text(target.read_text("utf-8").replace('"winner":0', '"winner":1', 1), "utf-8")
    assert run_command(["vectors", "--check", "--out", str(tmp_path / "vectors")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "lowhigh.tricks.json" in err and "differs" in err
    (folder / "hund.games.json").unlink()
    assert run_command(["vectors", "--check", "--out", str(tmp_path / "vectors")]) == 1
    assert "hund.games.json is missing" in capsys.readouterr().err


@pytest.mark.slow
def test_writing_regenerates_and_removes_stale_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / vectors.FOLDER
    # A file an earlier run wrote (the folder's marker lists it) that is no longer made.
    OwnFolder(folder, "vectors", "--out").write({"old.tricks.json": "{}"})
    assert vectors.check(tmp_path) is not None
    assert run_command(["vectors", "--out", str(tmp_path)]) == 0
    assert "wrote" in capsys.readouterr().out
    assert not (folder / "old.tricks.json").exists()
    assert vectors.check(tmp_path) is None
    assert sorted(p.name for p in folder.iterdir() if p.name != MARKER) == FILES
    # A user's file is never removed (tests/test_nothing_lost.py: nor overwritten).


def test_an_unwritable_folder_is_a_one_line_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", "utf-8")
    with pytest.raises(TricklawError, match=r"cannot write to .*: .* is not a folder"):
        vectors.write(blocker)


@pytest.mark.slow
def test_the_vectors_are_installed_with_the_package() -> None:
    installed = resources.files("tricklaw.spec").joinpath("vectors", vectors.FOLDER)
    assert installed.joinpath("index.json").is_file()
    assert vectors.load() == docs()


def test_the_data_stays_modest() -> None:
    total = sum((VECTORS / vectors.FOLDER / name).stat().st_size for name in FILES)
    assert total < 4_000_000


# --- the format ---------------------------------------------------------------------------------


def test_the_schema_is_a_valid_schema() -> None:
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(vectors.schema())


@pytest.mark.slow
@pytest.mark.parametrize("name", FILES)
def test_every_file_validates(name: str) -> None:
    vectors.validate(docs()[name], name)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("cases", 0, "expected", "winner"), "leader"),
        (("cases", 0, "input", "cards", 0), "red five"),
        (("cases", 0, "id"), "trick-1"),
        (("kind",), "riddles"),
    ],
)
def test_the_schema_rejects_broken_files(path: tuple[Any, ...], value: Any) -> None:
    broken = json.loads(json.dumps(docs()["lowhigh.tricks.json"]))
    node = broken
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(vectors.VectorError, match="field"):
        vectors.validate(broken, "lowhigh.tricks.json")


def test_the_index_lists_every_file() -> None:
    index = docs()["index.json"]
    listed = {entry["file"]: entry for entry in index["files"]}
    assert sorted([*listed, "index.json"]) == FILES
    for name, entry in listed.items():
        doc = docs()[name]
        assert (entry["kind"], entry["ruleset"]) == (doc["kind"], doc["ruleset"])
        assert entry["cases"] == len(doc["cases"]) > 0
    kinds = {(e["kind"], e["ruleset"]) for e in index["files"]}
    assert kinds == {("rng", None)} | {
        (k, r) for k in vectors.KINDS if k != "rng" for r in RULESETS
    }


@pytest.mark.slow
def test_case_ids_are_unique_numbered_and_carry_the_full_options() -> None:
    seen: set[str] = set()
    for name in FILES:
        doc = docs()[name]
        for number, case in enumerate(doc.get("cases", []), 1):
            assert case["id"] not in seen
            seen.add(case["id"])
            assert case["id"].endswith(f"-{number:04d}")
            assert case["ruleset"] == doc["ruleset"]
            if case["ruleset"] is not None:
                ruleset = get_ruleset(case["ruleset"])
                assert case["id"].startswith(load_registry(ruleset.id).prefix + "-")
                game = ruleset.make_game(case["players"], case["options"])
                assert case["options"] == game.options.as_dict()


# --- the reference runner -----------------------------------------------------------------------


@pytest.mark.parametrize("name", [n for n in FILES if n != "index.json"])
def test_every_case_replays_to_its_expected_outputs(name: str) -> None:
    doc = docs()[name]
    wrong = [
        case["id"]
        for case in doc["cases"]
        if vectors.run_case(doc["kind"], case) != case["expected"]
    ]
    assert wrong == []


def test_the_runner_notices_a_wrong_expectation() -> None:
    case = json.loads(json.dumps(docs()["sticheln.tricks.json"]["cases"][0]))
    case["expected"]["winner"] = (case["expected"]["winner"] or 0) + 1
    assert vectors.run_case("tricks", case) != case["expected"]
    game = json.loads(json.dumps(docs()["the-last.games.json"]["cases"][0]))
    assert vectors.run_case("games", game) == game["expected"]
    with pytest.raises(TricklawError):
        vectors.run_case("riddles", game)


# --- coverage -----------------------------------------------------------------------------------


def cited() -> dict[str, set[str]]:
    """Ruleset -> every clause id its cases cite."""
    out: dict[str, set[str]] = defaultdict(set)
    for name in FILES:
        for case in docs()[name].get("cases", []):
            if case["ruleset"] is not None:
                out[case["ruleset"]].update(case["clauses"])
    return out


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_every_normative_clause_is_exercised_by_a_vector(ruleset_id: str) -> None:
    registry = load_registry(ruleset_id)
    normative = [c.id for c in registry.clauses if c.kind not in vectors.NON_NORMATIVE]
    assert normative
    missing = [cid for cid in normative if cid not in cited()[ruleset_id]]
    assert missing == [], f"{ruleset_id}: no vector exercises {', '.join(missing)}"


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_every_cited_clause_exists(ruleset_id: str) -> None:
    unknown = cited()[ruleset_id] - load_registry(ruleset_id).ids
    assert unknown == set()


def test_model_clauses_are_cited_by_their_cases() -> None:
    for name in FILES:
        for case in docs()[name].get("cases", []):
            expected = case["expected"]
            named = list(expected.get("clauses", []))
            if expected.get("forbidden_by"):
                named.append(expected["forbidden_by"])
            assert set(named) <= set(case["clauses"]), case["id"]


def trick_groups() -> dict[tuple[str, int, str], list[dict[str, Any]]]:
    groups: dict[tuple[str, int, str], list[dict[str, Any]]] = defaultdict(list)
    for ruleset_id in RULESETS:
        for case in docs()[f"{ruleset_id}.tricks.json"]["cases"]:
            key = (ruleset_id, case["players"], json.dumps(case["options"], sort_keys=True))
            groups[key].append(case)
    return groups


def outcome(clauses: Any, winner: Any) -> tuple[tuple[str, ...], bool]:
    return tuple(clauses), winner is None


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_trick_vectors_hold_every_outcome_of_an_independent_sample(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    groups = {k: v for k, v in trick_groups().items() if k[0] == ruleset_id}
    readings = len(vectors.trick_variants(ruleset)) * len(ruleset.player_counts)
    assert len(groups) == readings
    for (_, players, options), cases in groups.items():
        game = ruleset.make_game(players, json.loads(options))
        have = {outcome(c["expected"]["clauses"], c["expected"]["winner"]) for c in cases}
        deck = ruleset.deck(players, game.options)
        rng = SplitMix64(0xC0FFEE + players)
        for _ in range(400):
            context = sample_hund_context(rng, game) if ruleset_id == "hund" else None
            hot = [] if context is None else hot_values(context)
            cards: tuple[Card, ...] = vectors.sample_trick(rng, deck, game.seats, hot)
            result = ruleset.judge_trick(game, cards, model_context(context))
            assert outcome(result.clauses, result.winner) in have, (players, options, cards)


def test_trick_vectors_hold_every_tie_and_no_winner_case() -> None:
    groups = trick_groups()
    for (ruleset_id, players, options), cases in groups.items():
        chosen = json.loads(options)
        clauses = {c for case in cases for c in case["expected"]["clauses"]}
        no_winner = [c for c in cases if c["expected"]["winner"] is None]
        if ruleset_id in {"sticheln-1993", "sticheln"}:
            tie = "STI93-TRICK-6" if ruleset_id == "sticheln-1993" else "STI-TRICK-3"
            assert tie in clauses
            nobody = chosen.get("all-zero", "no-winner") == "no-winner"
            assert bool(no_winner) == nobody, (ruleset_id, players, options)
            all_zero = [c for c in cases if all(x[1:] == "0" for x in c["input"]["cards"])]
            assert all_zero
        else:
            assert no_winner == []
        if ruleset_id == "lowhigh" and players <= 5:
            assert "LH-D-SAMECARD" in clauses
        if ruleset_id == "hund":
            assert {"HUND-TRICK-1", "HUND-TRICK-2"} <= clauses
    hund_disputes = {
        c
        for case in docs()["hund.tricks.json"]["cases"]
        for c in case["clauses"]
        if c.startswith("HUND-D-")
    }
    assert "HUND-D-TRUMPTIMING" in hund_disputes


def test_legal_vectors_cover_every_reading_and_player_count() -> None:
    for ruleset_id, profile in PROFILES.items():
        variants = profile.legal_variants
        ruleset = get_ruleset(ruleset_id)
        cases = docs()[f"{ruleset_id}.legal.json"]["cases"]
        for players in ruleset.player_counts:
            for variant in variants:
                mine = [
                    c
                    for c in cases
                    if c["players"] == players
                    and all(c["options"][k] == v for k, v in variant.items())
                ]
                assert any(not c["input"]["trick"] for c in mine)
                free = variant.get("follow") == "free" or ruleset_id == "sticheln"
                forbidding = [c for c in mine if c["expected"]["forbidden_by"]]
                assert bool(forbidding) != free, (ruleset_id, players, variant)


def test_perft_counts_start_from_the_legal_actions_of_the_deal() -> None:
    for ruleset_id, ruleset in RULESETS.items():
        cases = docs()[f"{ruleset_id}.perft.json"]["cases"]
        assert {c["players"] for c in cases} == set(ruleset.player_counts)
        for case in cases:
            if case["input"]["prefix"]:
                continue
            game = ruleset.make_game(case["players"], case["options"])
            state = game.new_initial_state(case["input"]["seed"])
            counts = case["expected"]["counts"]
            assert counts[0] == len(state.legal_actions())
            assert len(counts) == case["input"]["depth"] >= 4


def test_every_ruleset_has_one_vector_profile() -> None:
    # every game's vectors come from its own profile module; a game without one cannot
    # generate its vector files
    assert sorted(PROFILES) == sorted(RULESETS)
