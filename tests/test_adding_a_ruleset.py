"""The plug-in boundary is real: Tiny, a game defined outside the package, goes through
the whole pipeline (``docs/adding-a-ruleset.md`` walks through the same files).

Tiny lives in ``tests/tiny``, one module per layer, and joins each layer by registering.
In process, the tests register it and ask every layer's machinery about it; from the
command line, it is installed as a plug-in (an entry point in ``tricklaw.plugins``) and
the user's commands know it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tricklaw.model import get_ruleset
from tricklaw.model.registry import Registry
from tricklaw.proofs.results import fails
from tricklaw.vectors import run_case, validate
from tricklaw.vectors.files import check_clause_ids, ruleset_documents
from tricklaw.verify import Scope, collect
from tricklaw.views import make_layout

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import tiny  # noqa: E402  (the example plug-in, beside this file)


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A folder that installs Tiny as a plug-in: the package and a distribution's metadata
    with its entry point, as ``pip install`` of a plug-in package would leave them."""
    folder = tmp_path_factory.mktemp("site")
    (folder / "tiny").symlink_to(HERE / "tiny", target_is_directory=True)
    info = folder / "tricklaw_tiny-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tricklaw-tiny\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tricklaw.plugins]\ntiny = tiny:register\n")
    return str(folder)


def _cli(plugin_path: str, *args: str, stdin: str | None = None) -> Any:
    env = {**os.environ, "PYTHONPATH": plugin_path}
    exe = Path(sys.executable).parent / "tricklaw"
    return subprocess.run(
        [str(exe), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )


def test_every_layer_knows_tiny_once_registered_and_forgets_it_after(registered: None) -> None:
    for registry in tiny.REGISTRIES:
        assert isinstance(registry, Registry) and "tiny" in registry, registry.layer
    tiny.unregister()
    assert not any("tiny" in registry for registry in tiny.REGISTRIES)
    tiny.register()


def test_the_model_plays_tiny_and_settles_a_tie_by_its_dispute(registered: None) -> None:
    ruleset = get_ruleset("tiny")
    for players in ruleset.player_counts:
        for seed in range(20):
            state = ruleset.make_game(players).new_initial_state(seed=seed)
            while not state.is_terminal():
                state = state.child(state.legal_actions()[0])
            totals = state.returns()
            assert sum(totals) == 12 // players  # one point a trick (TINY-SCORE-1)
    tied = (3, 3)
    assert ruleset.winners(ruleset.make_game(2), tied) == (0, 1)
    assert ruleset.winners(ruleset.make_game(2, {"tie": "nobody"}), tied) == ()


@pytest.mark.slow
def test_verify_proves_every_obligation_of_tiny(registered: None) -> None:
    """The encodings, the conservation machine, the score bounds (met by witnesses and
    equal to the bounds file in Tiny's own spec folder) and the self-checks, for every
    player count."""
    results = collect(Scope("tiny"))
    assert not [r for r in results if fails(r)]
    # Whether a trick can tie is information; Tiny's one unguarded text case makes its
    # coverage and overlap trivial, its deck makes its tie rule vacuous: each documented
    # in its encoding (TinyTrick.hollow); the led card, the first played, can never tie
    # (documented by its quantity, PLAY_ORDER_DISTINCT).
    hollow = {r.obligation for r in results if r.status in {"trivial", "vacuous"}}
    assert hollow == {"coverage", "overlap", "tie-rule", "tie TINY-PLAY-1 first play-order"}
    assert all(r.expected for r in results if r.status in {"trivial", "vacuous"})
    bad = [r for r in results if r.status not in {"proved", "pass", "info", "trivial", "vacuous"}]
    # The one finding: the tie detector finds the tie the text leaves open (TINY-D-TIE).
    assert {(r.status, r.machine, r.dispute) for r in bad} == {("finding", "tie", "TINY-D-TIE")}
    for players in (2, 3):
        done = {r.obligation for r in results if r.players == str(players)}
        assert {
            "coverage",
            "outcome-unique",
            "agreement",
            "conservation-step",
            "liveness-action",
            "liveness-round",
            "liveness-play",
            "liveness-game",
            "score-max",
            "score-min",
            "bounds-artifact",
            "self-check",
        } <= done, players
    greatest = {r.players: r.witness["bound"] for r in results if r.obligation == "score-max"}
    assert greatest == {"2": 6, "3": 4}  # every trick of the round


@pytest.mark.slow
def test_tinys_vectors_are_generated_valid_and_replay(registered: None) -> None:
    documents = ruleset_documents(get_ruleset("tiny"))
    assert set(documents) == {
        f"tiny.{kind}.json" for kind in ("deals", "tricks", "legal", "scores", "games", "perft")
    }
    check_clause_ids(documents)
    for name, document in documents.items():
        validate(document, name)
        assert document["cases"], name
        for case in document["cases"]:
            assert run_case(document["kind"], case) == case["expected"], (name, case["id"])


def test_tinys_view_lays_out_its_observation(registered: None) -> None:
    game = get_ruleset("tiny").make_game(3)
    state = game.new_initial_state(seed=1)
    layout = make_layout(game, state.observation(0))
    assert "captured" in [piece.name for piece in layout.pieces]


@pytest.mark.slow
def test_the_command_line_knows_an_installed_plugin(plugin_path: str, tmp_path: Path) -> None:
    listed = _cli(plugin_path, "rulesets")
    assert listed.returncode == 0 and "tiny" in listed.stdout, listed.stderr
    record = tmp_path / "game.json"
    played = _cli(plugin_path, "play", "tiny", "-n", "2", "--seed", "4", "--record", str(record))
    assert played.returncode == 0, played.stderr
    checked = _cli(plugin_path, "check", "--json", str(record))
    assert checked.returncode == 0 and json.loads(checked.stdout)["status"] == "agrees"
    trick = _cli(plugin_path, "trick", "tiny", "-n", "3", "G2", "R4", "G3")
    assert trick.returncode == 0 and "TINY-TRICK-1" in trick.stdout, trick.stderr
    illegal = _cli(plugin_path, "trick", "tiny", "-n", "3", "G2", "R4", "G9")
    assert illegal.returncode == 2 and len(illegal.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_verify_and_bounds_of_an_installed_plugin(plugin_path: str) -> None:
    verified = _cli(plugin_path, "verify", "tiny")
    assert verified.returncode == 0, verified.stdout[-2000:] + verified.stderr
    assert verified.stdout.rstrip().endswith(" 0 failed")
    bounds = HERE / "tiny" / "spec" / "bounds" / "v1.json"
    checked = _cli(plugin_path, "bounds", "tiny", "--check", "--out", str(bounds))
    assert checked.returncode == 0, checked.stderr


def test_a_broken_plugin_is_one_line_and_exit_2(tmp_path: Path) -> None:
    info = tmp_path / "broken-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tricklaw.plugins]\nbroken = no_such_module:x\n")
    proc = _cli(str(tmp_path), "rulesets")
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "tricklaw: error: plug-in 'broken' (no_such_module:x) failed to load: "
        "ModuleNotFoundError: No module named 'no_such_module'"
    ]
