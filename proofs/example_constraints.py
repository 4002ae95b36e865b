"""The texts' worked tricks as Z3 constraints, checked against the clauses.

Each worked trick of ``spec/<ruleset>.examples.toml`` becomes constraints on
the symbolic trick of the ruleset's encoding: its cards (tracked by the
example's clause id) and the outcome the text states (the winner, and in
lowhigh the player given the highest card), together with the deck clause and
the resolution clauses. ``sat`` means the example is consistent with the
clauses under that reading; ``unsat`` is a contradiction whose unsat core
names the clauses that clash (for instance the four-player deck clause
STI93-DECK-2 against STI93-EX-TRICK-1, which plays a yellow 14).

The examples' data say under which readings each must hold (a trick's own
``holds_under``, else its sequence's; only the options the trick encoding
reads count here, since what may be played is checked by the model in
:mod:`tricklaw.proofs.examples`); the check passes when the Z3 verdict
matches it for every reading.
"""

from __future__ import annotations

import time
from typing import Any

import z3

from tricklaw.model.ruleset import Ruleset
from tricklaw.proofs.combinations import reading_combinations
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.example_legality import disputes_excluded, per_reading
from tricklaw.proofs.recorder import labelled, record
from tricklaw.proofs.results import Result
from tricklaw.proofs.solver import Tracked
from tricklaw.spec import load_examples, load_registry


def _verdict(assertions: list[Tracked], timeout_ms: int) -> tuple[str, tuple[str, ...]]:
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    labels: dict[str, str] = {}
    for n, item in enumerate(assertions):
        label = f"{item.clause}#{n}"
        labels[label] = item.clause
        solver.assert_and_track(item.formula, z3.Bool(label))
    answer = solver.check()
    record([(label, item.formula) for label, item in zip(labels, assertions, strict=True)], answer)
    if answer == z3.sat:
        return "holds", ()
    if answer == z3.unsat:
        return "contradiction", tuple(sorted({labels[str(b)] for b in solver.unsat_core()}))
    return "unknown", ()


def example_results(ruleset: Ruleset[Any], timeout_ms: int) -> list[Result]:
    """One result per worked trick: its Z3 verdict under every reading, against the data."""
    data = load_examples(ruleset.id)
    cls = ENCODINGS[ruleset.id]
    disputes = load_registry(ruleset.id).disputes
    specs = [s for s in ruleset.option_specs if s.name in cls.readings and s.choices]
    out = []
    for ex in data.get("sequence", []):
        seats: list[str] = ex["seats"]
        for trick in ex["trick"]:
            holds_under = trick.get("holds_under", ex.get("holds_under", {}))
            relevant = {k: v for k, v in holds_under.items() if k in {s.name for s in specs}}
            verdicts = []
            found: dict[str, str] = {}
            ok = True
            seconds = 0.0
            for readings in reading_combinations(ruleset, cls.readings):
                game = ruleset.make_game(ex["players"], readings)
                enc = cls(game, {})
                cards = ruleset.palette.parse_all(trick["cards"])
                lead = seats.index(trick["leader"])
                claims = [
                    enc.outcome["winner"] == (seats.index(trick["winner"]) - lead) % len(seats)
                ]
                if "taken" in trick and "low" in enc.outcome:
                    high_card = [n for n, cs in trick["taken"].items() if len(cs) == 1]
                    claims += [
                        enc.outcome["low"] == (seats.index(high_card[0]) - lead) % len(seats)
                    ]
                assertions = [
                    *enc.domain(),
                    *enc.resolution(enc.outcome),
                    Tracked(trick["clause"], z3.And(*enc.fix(cards), *claims)),
                ]

                label = ", ".join(f"{k}={v}" for k, v in readings.items()) or "default"
                start = time.perf_counter()
                with labelled(obligation=f"example-z3 {trick['clause']}", reading=label):
                    verdict, core = _verdict(assertions, timeout_ms)
                seconds += time.perf_counter() - start
                expected = all(readings[k] in v for k, v in relevant.items())
                verdicts.append(
                    f"{label}: {verdict}" + (f" (core {', '.join(core)})" if core else "")
                )
                if verdict == "unknown" or (verdict == "holds") != expected:
                    ok = False
                if verdict == "contradiction" and not expected:
                    for d in disputes_excluded(readings, relevant, disputes, core):
                        found.setdefault(d.id, "unsat-core")
            out.append(
                per_reading(
                    f"example-z3 {trick['clause']}",
                    ruleset.id,
                    str(ex["players"]),
                    ok=ok,
                    found=found,
                    seconds=seconds,
                    clauses=(trick["clause"],),
                    lines=verdicts,
                )
            )
    return out
