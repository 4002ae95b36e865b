"""The batch engine's kernels under the differential fuzzer (issue 18): ``tricklaw fuzz``
drives them through their thin adapter (:mod:`tricklaw.kernel_engine`) like any other
engine, and agrees on every ruleset they cover; a kernel broken on purpose
(``tests/engines/broken_kernel_engine.py``) is caught. The slow tier fuzzes at volume."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")

from tricklaw.batch import jit
from tricklaw.batch.forced import FORCED, dealt
from tricklaw.kernel_engine import Adapter, implements
from tricklaw.model.replay.declaration import parse_declaration
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.oracle import Oracle

pytestmark = pytest.mark.skipif(not jit.AVAILABLE, reason="numba is not installed")

ADAPTER = f"{sys.executable} -m tricklaw.kernel_engine"
BROKEN = Path(__file__).parent / "engines" / "broken_kernel_engine.py"
TIMEOUT = "120"
"""Seconds per answer: a first run compiles the kernels (cached on disk after)."""


def fuzz(tricklaw_script: str, out: Path, *args: str) -> tuple[int, dict[str, Any]]:
    """``tricklaw fuzz --json ARGS``: the exit status and the JSON summary."""
    proc = subprocess.run(
        [tricklaw_script, "fuzz", "--json", "--timeout", TIMEOUT, "--out", str(out), *args],
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert proc.stdout, proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def test_the_adapter_declares_what_the_kernels_play() -> None:
    """Every built-in table: The Last's ghost, Hund's virtual player and sets included."""
    declared = parse_declaration(implements(), "implements")
    assert {r.ruleset for r in declared.rulesets} == set(RULESETS)
    for ruleset in RULESETS:
        entry = declared.of(ruleset)
        assert entry is not None
        for players in get_ruleset(ruleset).player_counts:
            assert entry.allows(players, {}) is None, (ruleset, players)
    hund = declared.of("hund")
    assert hund is not None and hund.allows(2, {"designation-mode": "sets"}) is None


def test_the_kernel_refuses_an_action_outside_its_own_legal_ones() -> None:
    game = get_ruleset("sticheln").make_game(4, {})
    first = FORCED["sticheln"].play(game, 0, dealt(game, (), 7, 0), None, ())
    assert first.stop is not None and not first.stop.refused and first.stop.step == 0
    held = set(first.stop.legal)
    outside = next(a for a in range(256, 512) if a not in held)
    refused = FORCED["sticheln"].play(game, 0, dealt(game, (), 7, 0), None, (outside,))
    assert refused.stop is not None and refused.stop.refused
    assert refused.stop.legal == first.stop.legal


def test_the_adapter_refuses_tables_the_kernels_do_not_play() -> None:
    """``new_game`` keeps to the declaration (here one narrowed to 3-5 players)."""
    adapter = Adapter()
    narrowed = {"rulesets": {"the-last": {"players": [3, 4, 5]}}}
    adapter.declaration = parse_declaration(narrowed, "implements")
    line = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "new_game",
            "params": {"ruleset": "the-last", "players": 2, "seed": 1},
        }
    )
    answer = json.loads(adapter.answer(line) or "{}")
    assert "the-last with 2 players" in answer["error"]["message"]


def _call(server: Any, method: str, **params: Any) -> Any:
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    answer = json.loads(
        server.handle_text(line) if isinstance(server, Oracle) else server.answer(line)
    )
    assert "result" in answer, answer
    return answer["result"]


@pytest.mark.slow
def test_without_the_kernels_the_adapter_exits_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tricklaw.kernel_engine"],
        input="",
        capture_output=True,
        text=True,
        env={**os.environ, "TRICKLAW_BATCH_JIT": "0"},
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2 and "numba" in proc.stderr


@pytest.mark.parametrize(
    ("ruleset", "players"),
    [(r, max(get_ruleset(r).player_counts)) for r in RULESETS] + [("the-last", 2), ("hund", 2)],
)
def test_seeded_rounds_are_dealt_as_the_reference_deals_them(ruleset: str, players: int) -> None:
    """Rounds after the explicit deals are dealt from the seed by the batch engine's own
    shuffle: a game given no deals plays as the oracle's, each seat taking its last legal
    action (long games: Sticheln 1993 to a target; the two-player games too)."""
    options = LONG.get(ruleset, {})
    adapter, oracle = Adapter(), Oracle()
    setup = {"ruleset": ruleset, "players": players, "options": options, "seed": 11}
    ours, theirs = _call(adapter, "new_game", **setup), _call(oracle, "new_game", **setup)
    view, expected = ours["state"], theirs["state"]
    finished = 0
    while finished < ROUNDS:
        for key in ("current_player", "legal_actions", "totals", "terminal"):
            assert view[key] == expected[key], (key, expected["round"])
        if expected["terminal"]:
            break
        action = expected["legal_actions"][-1]
        ours = _call(adapter, "apply", game="g1", action=action)
        theirs = _call(oracle, "apply", game="g1", action=action)
        assert [r["scores"] for r in ours["rounds"]] == [r["scores"] for r in theirs["rounds"]]
        finished += len(theirs["rounds"])
        view, expected = ours["state"], theirs["state"]
    assert ours.get("winners") == theirs.get("winners")
    assert finished > 2


LONG = {"sticheln-1993": {"end": "target", "target": 15}, "the-last": {"rounds": 3}}
"""Options for games of more than two rounds."""
ROUNDS = 8
"""Rounds at most in a seeded game (a Sticheln 1993 game to a target need never end)."""


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_fuzz_agrees_with_the_kernels(ruleset: str, tricklaw_script: str, tmp_path: Path) -> None:
    status, summary = fuzz(
        tricklaw_script, tmp_path, ruleset, "--engine", ADAPTER, "--games", "4", "--seed", "3"
    )
    assert status == 0, summary
    assert summary["declared"] and summary["games"] == 4 and summary["actions"] > 100


@pytest.mark.slow
@pytest.mark.parametrize(
    "table",
    [
        ("the-last", "--players", "2"),
        ("hund", "--players", "2"),
        ("hund", "--option", "designation-mode=sets"),
    ],
    ids=["the-last-ghost", "hund-virtual", "hund-sets"],
)
def test_fuzz_agrees_on_the_ghost_the_virtual_player_and_sets(
    table: tuple[str, ...], tricklaw_script: str, tmp_path: Path
) -> None:
    """The decisions the kernels add there (Hund's DESIGNATE actions) and those they do not
    (the ghost's and the virtual player's cards) are the reference's."""
    status, summary = fuzz(
        tricklaw_script, tmp_path, *table, "--engine", ADAPTER, "--games", "4", "--seed", "5"
    )
    assert status == 0, summary
    assert summary["declared"] and summary["games"] == 4 and summary["actions"] > 100


@pytest.mark.slow
@pytest.mark.parametrize(
    ("mutant", "ruleset", "clause"),
    [
        ("tie-last", "sticheln", "STI-TRICK-3"),
        pytest.param("low-first", "lowhigh", "LH-TRICK-3", marks=pytest.mark.slow),
    ],
)
def test_fuzz_catches_a_broken_kernel(
    mutant: str, ruleset: str, clause: str, tricklaw_script: str, tmp_path: Path
) -> None:
    engine = f"{sys.executable} {BROKEN} {mutant}"
    status, summary = fuzz(
        tricklaw_script, tmp_path, ruleset, "--engine", engine, "--games", "3", "--seed", "1"
    )
    assert status == 1, summary
    found = summary["disagreements"][0]
    assert clause in found["clauses"], found


VOLUME = 300 * int(os.environ.get("TRICKLAW_BATCH_VOLUME") or 1)
"""Games per ruleset in the slow tier (times ``TRICKLAW_BATCH_VOLUME`` for a longer run)."""


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_fuzz_agrees_with_the_kernels_at_volume(
    ruleset: str, tricklaw_script: str, tmp_path: Path
) -> None:
    status, summary = fuzz(
        tricklaw_script,
        tmp_path,
        ruleset,
        "--engine",
        ADAPTER,
        "--games",
        str(VOLUME),
        "--seed",
        "18",
        "--keep-going",
    )
    assert status == 0, summary["disagreements"][:3]
    assert summary["games"] == VOLUME
