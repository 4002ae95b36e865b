"""The Z3 obligations of every ruleset, player count and reading, as verify results.

For each ruleset, player count, combination of the readings its trick encoding
depends on, and trick context (Hund: the powers held):

* the trick obligations of :mod:`tricklaw.proofs.trick_obligations`
  (coverage, overlap, outcome exists, outcome unique, no-winner exact, ties
  possible, tie rule);
* **agreement** of model and encoding on a seeded sample of tricks: a second line
  behind ``equivalence-trick`` (:mod:`tricklaw.proofs.equivalence`), which proves
  the model's own trick code equal to the encoding on every trick by symbolic
  execution;
* **card conservation** by induction over the state machine
  (:mod:`tricklaw.proofs.conservation`): the deal (base) and every transition
  (step).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from tricklaw.model.cards import Card
from tricklaw.model.rng import SplitMix64, shuffled
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game
from tricklaw.proofs import conservation, trick_obligations
from tricklaw.proofs.combinations import with_deck_variants
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.recorder import labelled
from tricklaw.proofs.results import Result, worst
from tricklaw.proofs.solver import FINDING, PASS, PROVED, Outcome
from tricklaw.proofs.statuses import HOLLOW, TRIVIAL
from tricklaw.proofs.tricks import TrickEncoding

SAMPLE_SIZE = 60
"""Tricks compared in the sampled agreement check (a second line: the proof over every
trick is ``equivalence-trick``, :mod:`tricklaw.proofs.equivalence`)."""


def _label(readings: Mapping[str, Any], context: Mapping[str, Any]) -> str:
    parts = [f"{k}={v}" for k, v in readings.items()]
    parts += [f"{k}={v}" for k, v in context.items() if v is not None]
    return ", ".join(parts) or "default"


def _result(name: str, enc: TrickEncoding, label: str, out: Outcome) -> Result:
    expected = enc.hollow.get(name, "") if out.status in HOLLOW else ""
    return Result(
        name,
        enc.game.ruleset.id,
        str(enc.game.players),
        label,
        out.status,
        out.seconds,
        out.clauses,
        out.detail,
        out.witness,
        out.machine,
        out.dispute,
        expected,
    )


def _agreement_cases(enc: TrickEncoding, seed: int) -> tuple[Iterator[tuple[Card, ...]], str]:
    """A seeded sample of tricks: the second line behind the proof that model and
    encoding agree on every trick (:mod:`tricklaw.proofs.equivalence`)."""
    game = enc.game
    deck = game.ruleset.deck(game.players, game.options)
    rng = SplitMix64(seed)

    def sample() -> Iterator[tuple[Card, ...]]:
        for _ in range(SAMPLE_SIZE):
            yield tuple(shuffled(deck, rng)[: enc.size])

    return sample(), f"{SAMPLE_SIZE} seeded random tricks"


def trick_results(
    ruleset: Ruleset[Any],
    players: int,
    chosen: Mapping[str, str],
    timeout_ms: int,
    progress: Callable[[str], None] = lambda _: None,
) -> list[Result]:
    """Every trick obligation of ``ruleset`` at ``players`` under every combination of
    the encoding's readings, and each other deck its ``deck_readings`` give."""
    cls = ENCODINGS[ruleset.id]
    out: list[Result] = []
    for readings in with_deck_variants(ruleset, cls.readings, cls.deck_readings, chosen):
        game = ruleset.make_game(players, {**chosen, **readings})
        for context in cls.contexts(game):
            enc = cls(game, context)
            label = _label(readings, context)
            progress(f"{ruleset.id} {players}p {label}")
            for name, obligation in trick_obligations.TRICK_OBLIGATIONS.items():
                with labelled(obligation=name, reading=label):
                    out.append(_result(name, enc, label, obligation(enc, timeout_ms)))
            with labelled(obligation="overlap", reading=label):
                pairs = trick_obligations.overlaps(enc, timeout_ms)
            statuses = [o.status for _, o in pairs] or [TRIVIAL]
            notes = [
                f"{name}: {o.detail} {o.witness.get('trick', '')}"
                for name, o in pairs
                if o.status != PROVED
            ]
            out.append(
                Result(
                    "overlap",
                    ruleset.id,
                    str(players),
                    label,
                    worst(statuses),
                    sum(o.seconds for _, o in pairs),
                    tuple(sorted({c for _, o in pairs for c in o.clauses if ":" not in c})),
                    "; ".join(notes)
                    or (f"{len(pairs)} pairs of cases disjoint" if pairs else "one text case"),
                    next((o.witness for _, o in pairs if o.status != PROVED), {}),
                    next((o.machine for _, o in pairs if o.status == FINDING), ""),
                    ",".join(dict.fromkeys(o.dispute for _, o in pairs if o.status == FINDING)),
                    enc.hollow.get("overlap", "") if worst(statuses) in HOLLOW else "",
                )
            )
            cases, how = _agreement_cases(enc, seed=players * 1000 + len(out))
            with labelled(obligation="agreement", reading=label):
                agree, _ = trick_obligations.agreement(enc, cases, timeout_ms)
            if agree.status == PROVED:  # a sample is a check, not a proof
                agree.status, agree.detail = PASS, f"{agree.detail}; {how}"
            out.append(_result("agreement", enc, label, agree))
    return out


def conservation_results(ruleset: Ruleset[Any], players: int, timeout_ms: int) -> list[Result]:
    """Card conservation at the deal and across every transition of the state machine."""
    game: Game = ruleset.make_game(players)
    machine = conservation.machine(ruleset.id, game.seats, ruleset.clause)
    with labelled(obligation="conservation-base", reading="all"):
        base = conservation.base(machine, timeout_ms)
    steps = []
    for t in machine.transitions:
        with labelled(obligation=f"conservation-step {t.name}", reading="all"):
            steps.append((t, conservation.step(machine, t, timeout_ms)))
    bad = [f"{t.name}: {o.status} {o.witness}" for t, o in steps if o.status != PROVED]
    return [
        Result(
            "conservation-base",
            ruleset.id,
            str(players),
            "all",
            base.status,
            base.seconds,
            base.clauses,
            "the deal places every card once",
            base.witness,
        ),
        Result(
            "conservation-step",
            ruleset.id,
            str(players),
            "all",
            worst([o.status for _, o in steps]),
            sum(o.seconds for _, o in steps),
            tuple(sorted({c for _, o in steps for c in o.clauses if ":" not in c})),
            "; ".join(bad) or f"all {len(steps)} transitions keep every card in exactly one place",
        ),
    ]
