"""The liveness obligations of one ruleset and player count, as verify results.

For every combination of the readings each part reads
(:class:`~tricklaw.proofs.liveness.GameLiveness`):

* ``liveness-action``: every non-terminal state has a legal action (base, steps,
  enabled, the game's lemmas, and non-vacuity of every premise);
* ``liveness-play``: the play rule allows some card of every non-empty hand, at every
  position of a trick, under every reading of the play rule
  (:mod:`tricklaw.proofs.play_lemma`);
* ``liveness-round``: every round ends (a ranking function; the bounds on actions and
  decisions, the latter within the model's ``max_decisions``);
* ``liveness-game``: every game ends, or a finding with an endless cycle of rounds.

See :mod:`tricklaw.proofs.liveness` and :mod:`tricklaw.proofs.game_end`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from tricklaw.model.ruleset import Ruleset
from tricklaw.proofs import game_end, liveness, play_lemma
from tricklaw.proofs.combinations import reading_combinations
from tricklaw.proofs.plays import PLAYS
from tricklaw.proofs.results import Result, worst
from tricklaw.proofs.solver import PROVED, Outcome


def _label(readings: Mapping[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in readings.items()) or "default"


def _core(outcomes: list[Outcome]) -> tuple[str, ...]:
    return tuple(sorted({c for o in outcomes for c in o.clauses if ":" not in c}))


Named = list[tuple[str, Outcome]]


def _first_bad(named: Named, part: str | None = None) -> tuple[str, Outcome] | None:
    """The first outcome not proved (for ``part``, one whose counterexample breaks it)."""
    for name, o in named:
        if o.status != PROVED and (part is None or o.witness.get(part) is not True):
            return name, o
    return None


def action_result(
    p: liveness.Progress,
    steps: Named,
    hand: int,
    timeout_ms: int,
    memo: liveness.Memo | None = None,
) -> tuple[str, str, Any]:
    """Status, detail and witness of ``liveness-action`` for machine ``p`` from its step
    outcomes ``steps`` (``hand``: the model's hand size, which the machine's deal must
    give seat 0)."""
    named = [
        ("base", liveness.base(p, timeout_ms)),
        ("enabled", liveness.enabled(p, timeout_ms, memo)),
    ]
    named += [(f"lemma {m.name}", liveness.lemma(m, timeout_ms)) for m in p.lemmas]
    outcomes = [o for _, o in named + steps]
    bad = _first_bad(named) or _first_bad(steps, "invariant")
    if bad:
        name, o = bad
        return o.status, f"{name}: {o.status} {o.detail}".strip(), (o.witness, outcomes)
    empty = liveness.premises_live(p, timeout_ms)
    if empty:
        return "fail", "vacuous: " + "; ".join(empty), ({}, outcomes)
    dealt = liveness.bound(p, lambda v: v[p.hand], timeout_ms)
    if dealt != hand:
        return "fail", f"the machine deals {dealt} cards, the model {hand}", ({}, outcomes)
    detail = (
        f"induction over {len(p.steps)} steps: every state of the invariant before the "
        f"round's end enables a step; {len(p.lemmas)} lemmas; premises satisfiable"
    )
    return PROVED, detail, ({}, outcomes)


def round_result(
    p: liveness.Progress, steps: Named, most: int, timeout_ms: int
) -> tuple[str, str, Any]:
    """Status, detail and witness of ``liveness-round`` from the step outcomes (``most``:
    the model's ``max_decisions``)."""
    outcomes = [o for _, o in steps]
    bad = _first_bad(steps, "rank")
    if bad:
        name, o = bad
        return o.status, f"{name}: the rank does not decrease {o.detail}", (o.witness, outcomes)
    actions = liveness.bound(p, p.rank, timeout_ms)
    decisions = liveness.bound(p, p.decisions, timeout_ms)
    if actions is None or decisions is None:
        return "unknown", "no bound on the rank at the deal", ({}, outcomes)
    witness = {"actions": actions, "decisions": decisions, "max_decisions": most}
    if decisions > most:
        detail = f"{decisions} decisions in a round exceed the model's max_decisions {most}"
        return "fail", detail, (witness, outcomes)
    detail = (
        f"a round ends within {actions} steps, {decisions} of them decisions "
        f"(model's max_decisions: {most})"
    )
    return PROVED, detail, (witness, outcomes)


def results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """``liveness-action``, ``liveness-round`` and ``liveness-game`` of ``ruleset`` at
    ``players`` under every combination of the readings they read."""
    part = liveness.LIVENESS[ruleset.id]
    out: list[Result] = []
    memo: liveness.Memo = {}
    for readings in reading_combinations(ruleset, part.readings, chosen):
        game = ruleset.make_game(players, {**chosen, **readings})
        p = part.progress(game)
        start = time.perf_counter()
        steps = [(s.name, liveness.step(p, s, timeout_ms, memo)) for s in p.steps]
        shared = (time.perf_counter() - start) / 2
        for name in ("liveness-action", "liveness-round"):
            start = time.perf_counter()
            if name == "liveness-action":
                made = action_result(p, steps, ruleset.hand_size(game), timeout_ms, memo)
            else:
                made = round_result(p, steps, ruleset.max_decisions(game), timeout_ms)
            status, detail, (witness, outcomes) = made
            out.append(
                Result(
                    name,
                    ruleset.id,
                    str(players),
                    _label(readings),
                    status,
                    time.perf_counter() - start + shared,
                    _core(outcomes),
                    detail,
                    witness,
                )
            )
    out += play_results(ruleset, players, chosen, timeout_ms)
    for readings in reading_combinations(ruleset, part.end_readings, chosen):
        game = ruleset.make_game(players, {**chosen, **readings})
        ending = part.ending(game)
        if ending.rounds is not None:
            o = game_end.fixed_rounds(ending, game, timeout_ms)
        else:  # the model's end held to the clause's first, then is there an endless game?
            o = game_end.end_disagreement(ending, game, timeout_ms) or game_end.endless(
                game, ending, ending.period or game.players
            )
        out.append(
            Result(
                "liveness-game",
                ruleset.id,
                str(players),
                _label(readings),
                o.status,
                o.seconds,
                o.clauses,
                o.detail,
                o.witness,
                o.machine,
                o.dispute,
            )
        )
    return out


def play_results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """``liveness-play``: under every reading of the play rule and in every context of its
    encoding, at every position in a trick, some card of any non-empty hand may be played
    (:mod:`tricklaw.proofs.play_lemma`)."""
    cls = PLAYS[ruleset.id]
    out: list[Result] = []
    for readings in reading_combinations(ruleset, cls.readings, chosen):
        game = ruleset.make_game(players, {**chosen, **readings})
        for context in cls.contexts(game):
            start = time.perf_counter()
            outcomes, proved = play_lemma.play_lemma(game, context, timeout_ms)
            size = game.seats
            bad = [o for o in outcomes if o.status != PROVED]
            label = _label({**readings, **{k: str(v) for k, v in context.items()}})
            detail = f"some card of every non-empty hand is legal at all {size} positions"
            if proved < size:
                detail += f" ({proved} proved; the rule reads only the first card after)"
            if bad:
                detail = f"{bad[0].status} {bad[0].detail}".strip()
            out.append(
                Result(
                    "liveness-play",
                    ruleset.id,
                    str(players),
                    label,
                    worst([o.status for o in outcomes]),
                    time.perf_counter() - start,
                    _core(outcomes),
                    detail,
                    bad[0].witness if bad else {},
                )
            )
    return out
