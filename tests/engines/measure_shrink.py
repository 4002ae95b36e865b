"""How long a game-level disagreement takes to shrink: the ``last-seat`` engine (a tie for
the game's win broken its own way) fuzzed until its first disagreement, then shrunk.

    python tests/engines/measure_shrink.py

One JSON line per case: the game found, the actions before and after shrinking, the
seconds and the engine requests the shrink took."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from tricklaw.fuzz import Engine, new_case, play_case, shrink
from tricklaw.model.replay.declaration import parse_declaration
from tricklaw.model.rulesets import RULESETS

ENGINE = f"{sys.executable} {Path(__file__).parent / 'mutant_engine.py'} last-seat"
SHORT = {"rulesets": {"sticheln": {"players": [3, 4], "options": {"rounds": [1]}}}}


def main() -> None:
    for seed, raw in ((1, SHORT), (1, None), (7, None)):
        declared = parse_declaration(raw, "x") if raw else None
        rulesets = ["sticheln"] if declared else list(RULESETS)
        engine = Engine(ENGINE, 10)
        for index in range(400):
            case = new_case(index, seed, rulesets, None, {}, declaration=declared)
            outcome = play_case(engine, case)
            if outcome.disagreement is not None:
                break
        else:
            continue
        start, before = time.perf_counter(), engine.requests
        small = shrink(engine, outcome)
        assert small.disagreement is not None
        row = {
            "seed": seed,
            "game": index,
            "ruleset": case.ruleset,
            "players": case.players,
            "kind": outcome.disagreement.kind,
            "actions_before": outcome.actions,
            "actions_after": small.actions,
            "rounds_after": small.state.round_index + 1,
            "seconds": round(time.perf_counter() - start, 2),
            "requests": engine.requests - before,
        }
        sys.stdout.write(json.dumps(row) + "\n")
        engine.close()


if __name__ == "__main__":
    main()
