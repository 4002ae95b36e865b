"""The batch engine (tricklaw.batch): its vectorised generator against the reference's, and
its games, written as JSON Lines logs, checked by ``tricklaw check`` and compared line by
line with the reference's logs of the same seeds (issue 18)."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from tricklaw.batch import BATCH, engine_for, jit  # noqa: E402
from tricklaw.batch import rng as batch_rng  # noqa: E402
from tricklaw.batch.engine import prefix_counts  # noqa: E402
from tricklaw.batch.trace import game_log  # noqa: E402
from tricklaw.bench import bench_both  # noqa: E402
from tricklaw.check.convert import state_to_log  # noqa: E402
from tricklaw.check.lines import check_lines  # noqa: E402
from tricklaw.model.agents import play_random_game  # noqa: E402
from tricklaw.model.rng import SplitMix64, agent_rng, round_seed, shuffled  # noqa: E402
from tricklaw.model.rulesets import get_ruleset  # noqa: E402

SEEDS = (0, 1, 7, 2**63 + 5, 2**64 - 1)


@pytest.fixture(params=["kernel", "lockstep"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both paths of a ruleset: the numba kernel (where numba is installed) and numpy's
    lockstep arrays. (The batch layer is plain Python in every install: not compiled by
    mypyc, so the switch is seen.)"""
    if request.param == "kernel" and not jit.AVAILABLE:
        pytest.skip("numba is not installed (or TRICKLAW_BATCH_JIT=0)")
    monkeypatch.setattr(jit, "AVAILABLE", request.param == "kernel")
    return str(request.param)


def test_vectorised_splitmix_draws_as_the_reference() -> None:
    state = np.array(SEEDS, dtype=np.uint64)
    reference = [SplitMix64(s) for s in SEEDS]
    for n in (1, 2, 7, 60, 2**40 + 3):
        drawn = batch_rng.below(state, n)
        assert drawn.tolist() == [r.below(n) for r in reference]
    assert batch_rng.round_seeds(np.array(SEEDS, dtype=np.uint64), 3).tolist() == [
        round_seed(s, 3) for s in SEEDS
    ]
    agents = batch_rng.agent_states(np.array(SEEDS, dtype=np.uint64))
    assert batch_rng.below(agents, 1000).tolist() == [agent_rng(s).below(1000) for s in SEEDS]


@pytest.mark.slow
def test_vectorised_shuffle_is_the_portable_shuffle(path: str) -> None:
    state = np.array(SEEDS, dtype=np.uint64)
    order = batch_rng.shuffle(state, 45)
    for row, seed in zip(order.tolist(), SEEDS, strict=True):
        assert row == shuffled(range(45), SplitMix64(seed))


def test_prefix_counts_count_the_flags() -> None:
    flags = np.random.default_rng(3).random((50, 96)) < 0.3
    marks, totals = prefix_counts(flags)
    assert marks.tolist() == np.cumsum(flags, axis=1).tolist()
    assert totals.tolist() == flags.sum(axis=1).tolist()


def _comparable(lines: list[str]) -> list[dict[str, Any]]:
    """The reference's log as the batch engine writes it: without the trick clauses and
    facts (the batch engine records who takes what, not why), and, for a game stopped at
    ``max_rounds``, without the next round's deal that the reference's state has begun."""
    objects = [json.loads(line) for line in lines]
    assert objects.pop() == {"end": {"lines": len(objects)}}  # counted again below
    for obj in objects:
        if "trick" in obj:
            obj["trick"].pop("clauses", None)
            obj["trick"].pop("facts", None)
    if not objects[-1].get("complete", True) and "round" in objects[-2]:
        del objects[-2]
    return [*objects, {"end": {"lines": len(objects)}}]


def compare(ruleset: str, players: int, options: dict[str, Any], seeds: range) -> int:
    """Play ``seeds`` with the batch engine; check each game's log with the log checker and
    compare it with the reference's log of the same seed; the games compared. Skips where
    the engine hands the game to the reference (no numba: no trace to compare)."""
    game = get_ruleset(ruleset).make_game(players, options)
    engine = engine_for(ruleset)
    if not engine.kernel_plays(game):
        pytest.skip(f"{ruleset} {players}p has no batch path here: the reference plays it")
    chunk = engine.play(game, tuple(seeds), MAX_ROUNDS, trace=True)
    assert chunk.trace is not None, "a table with a kernel is traced"
    for g, seed in enumerate(seeds):
        log = game_log(game, chunk, g)
        verdict = check_lines(log)
        assert verdict.status == "agrees", (seed, verdict.message)
        reference = state_to_log(play_random_game(game, seed, max_rounds=MAX_ROUNDS), seed)
        assert [json.loads(line) for line in log] == _comparable(reference), seed
    return len(seeds)


MAX_ROUNDS = 6
"""Games stop after six rounds at most (Sticheln 1993 with ``end=target`` may never end):
the logs of unfinished games are compared too."""


def _short(ruleset: str) -> dict[str, Any]:
    """Two rounds a game where the ruleset has a ``rounds`` option (a short test)."""
    names = {spec.name for spec in get_ruleset(ruleset).option_specs}
    return {"rounds": 2} if "rounds" in names else {}


CASES = [
    (rid, n, _short(rid))
    for rid in ("lowhigh", "sticheln", "sticheln-1993", "the-last", "hund")
    for n in get_ruleset(rid).player_counts
] + [
    ("lowhigh", 4, {"same-card": "among-rest", "first-leader": "seat0", "rounds": 2}),
    ("lowhigh", 3, {"same-card": "among-rest", "game-tie": "nobody"}),
    ("sticheln", 4, {"zero-lead": "first-nonzero", "round-leader": "youngest", "rounds": 2}),
    ("sticheln-1993", 4, {"follow": "follow-or-trump", "rounds": 2}),
    ("sticheln-1993", 3, {"follow": "must-follow", "all-zero": "no-winner", "rounds": 2}),
    ("sticheln-1993", 5, {"deck": "full", "end": "target", "target": 3}),
    ("the-last", 4, {"unused-points": "last-winner", "last-play": "free", "rounds": 2}),
    ("the-last", 3, {"last-play": "free", "game-tie": "nobody"}),
    ("the-last", 2, {"ghost-play": "first-legal", "ghost-seat": "fixed", "rounds": 3}),
    ("the-last", 2, {"ghost-play": "first-legal", "last-play": "free", "rounds": 2}),
    ("the-last", 2, {"ghost-lead": "next", "game-tie": "first-seat", "rounds": 2}),
    ("lowhigh", 5, {"game-tie": "first-seat", "rounds": 2}),
    ("sticheln", 3, {"game-tie": "nobody", "rounds": 2}),
    ("sticheln", 5, {"game-tie": "first-seat", "rounds": 2}),
    ("sticheln-1993", 4, {"game-tie": "nobody", "rounds": 2}),
    ("sticheln-1993", 6, {"game-tie": "first-seat", "rounds": 2}),
    ("hund", 3, {"game-tie": "nobody"}),
    ("hund", 5, {"game-tie": "first-seat"}),
    ("hund", 4, {"trump-timing": "from-card", "lead-tie": "earliest"}),
    ("hund", 3, {"trump-timing": "next-trick", "hund-tie": "scores", "designation": "ascending"}),
    ("hund", 5, {"values": "from-0", "more-cards": "yes", "set-repeat": "stack"}),
    ("hund", 2, {"more-cards": "yes", "virtual-odd": "extra-up", "virtual-hund": "ignored"}),
    ("hund", 2, {"designation-mode": "sets", "set-match": "value", "lead-tie": "earliest"}),
    ("hund", 3, {"designation-mode": "sets", "set-suits": "any", "set-repeat": "stack"}),
    ("hund", 4, {"designation-mode": "sets", "hund-tie": "scores", "trump-timing": "from-card"}),
]
"""Every ruleset with a batch kernel at every player count, and each of its readings."""


def test_the_cases_hold_every_reading_of_every_option() -> None:
    """A new option or reading fails here until a case plays it: a kernel that ignores
    an option plays the default under it (the-last's ``ghost-lead=next`` did, and the
    impact study then saw no difference in 2-player random games)."""
    have = {(r, name, str(v)) for r, _, options in CASES for name, v in options.items()}
    missing = [
        (rid, spec.name, value)
        for rid in {r for r, _, _ in CASES}
        for spec in get_ruleset(rid).option_specs
        for value in spec.choices or ()
        if value != spec.default and (rid, spec.name, value) not in have
    ]
    assert missing == []


@pytest.mark.parametrize(("ruleset", "players", "options"), CASES)
def test_batch_games_are_the_reference_games(
    ruleset: str, players: int, options: dict[str, Any], path: str
) -> None:
    assert compare(ruleset, players, options, range(1, 4)) == 3


def test_every_registered_engine_plays_and_counts_rounds() -> None:
    for rid in BATCH:
        game = get_ruleset(rid).make_game(get_ruleset(rid).player_counts[0], {})
        chunk = BATCH[rid].play(game, (1, 2), 1)
        assert chunk.rounds.tolist() == [1, 1]
        reference = [play_random_game(game, s, max_rounds=1).returns() for s in (1, 2)]
        assert chunk.totals.tolist() == [list(t) for t in reference]


def test_bench_reports_both_engines() -> None:
    game = get_ruleset("lowhigh").make_game(4, {})
    report = bench_both(game, 40, 1, 1)
    assert report["vectorised"] is True
    assert report["rounds"] >= 40 and report["reference_rounds"] == 40
    assert report["rounds_per_s"] > 0 and report["reference_rounds_per_s"] > 0


@pytest.mark.skipif(not jit.AVAILABLE, reason="numba is not installed (or TRICKLAW_BATCH_JIT=0)")
def test_bench_says_which_tables_the_kernel_plays(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``vectorised`` in bench's JSON line is the table's: Sticheln with 4 players and Hund
    with 2 (the virtual player) have a kernel; with the kernels off, the reference plays
    both and the line says so."""
    from tricklaw.cli import main

    def said() -> dict[str, bool]:
        out = {}
        for ruleset, players in (("sticheln", 4), ("hund", 2)):
            argv = ["bench", ruleset, "--players", str(players), "--jobs", "1", "--rounds", "6"]
            assert main(argv) == 0
            out[ruleset] = json.loads(capsys.readouterr().out)["vectorised"]
        return out

    assert said() == {"sticheln": True, "hund": True}
    monkeypatch.setattr(jit, "AVAILABLE", False)
    assert said() == {"sticheln": False, "hund": False}


def sampled_options(ruleset: str, draw: random.Random) -> dict[str, Any]:
    """A reading of every option of ``ruleset`` drawn by ``draw``: any of a text option's
    choices, and a whole-number option's default or one of its two smallest values."""
    out: dict[str, Any] = {}
    for spec in get_ruleset(ruleset).option_specs:
        if spec.choices:
            out[spec.name] = draw.choice(spec.choices)
        else:
            out[spec.name] = draw.choice(sorted({spec.default, spec.minimum, spec.minimum + 1}))
    return out


VOLUME_READINGS = 12
"""Combinations of readings drawn per table in the slow tier's comparison."""

VOLUME_SEEDS = 25 * int(os.environ.get("TRICKLAW_BATCH_VOLUME") or 1)
"""Games per combination: 25, times ``TRICKLAW_BATCH_VOLUME`` for a longer run."""

TABLES = sorted({(rid, n) for rid, n, _ in CASES})
"""Every (ruleset, player count) with a batch kernel."""


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "players"), TABLES)
def test_batch_games_at_volume_under_drawn_readings(ruleset: str, players: int, path: str) -> None:
    """300 games a table (``VOLUME_READINGS`` combinations of every option's readings,
    drawn, ``VOLUME_SEEDS`` seeds each), each checked by the log checker and compared with
    the reference's game line by line."""
    draw = random.Random(f"{ruleset}/{players}")
    compared = 0
    for k in range(VOLUME_READINGS):
        options = sampled_options(ruleset, draw)
        first = 1000 + k * VOLUME_SEEDS
        compared += compare(ruleset, players, options, range(first, first + VOLUME_SEEDS))
    assert compared == VOLUME_READINGS * VOLUME_SEEDS
    print(f"{ruleset} {players}p: {compared} games equal, {VOLUME_READINGS} combinations")


def test_a_plug_in_game_falls_back_to_the_reference() -> None:
    """A game with no batch part (the tests' plug-in Tiny) is played by the reference: the
    batch engine's bench and chunks still work for it."""
    import tiny

    with tiny.registered() as ruleset_id:
        engine = engine_for(ruleset_id)
        ruleset = get_ruleset(ruleset_id)
        game = ruleset.make_game(ruleset.player_counts[0], {})
        assert not engine.kernel_plays(game)
        chunk = engine.play(game, (3, 4), 2)
        reference = [play_random_game(game, s, max_rounds=2).returns() for s in (3, 4)]
        assert chunk.totals.tolist() == [list(t) for t in reference]
        report = bench_both(game, 5, 1, 1)
        assert report["vectorised"] is False and report["rounds"] == 5
