"""A fuzz run: games played one after another on one engine (started again after it
breaks the protocol), each disagreement shrunk and reported; and one case file played
again."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tricklaw.fuzz.cases import Outcome
from tricklaw.fuzz.declared import Departed, explained, follow, narrow, safe_declaration
from tricklaw.fuzz.engine import ENGINE_TIMEOUT, Engine
from tricklaw.fuzz.games import new_case
from tricklaw.fuzz.play import play_case
from tricklaw.fuzz.report import case_from_json, case_json
from tricklaw.fuzz.shrink import shrink
from tricklaw.model.replay.declaration import Declaration
from tricklaw.spec import json_text
from tricklaw.spec.errors import TricklawError
from tricklaw.spec.json_text import JsonTextError


@dataclass(slots=True)
class Run:
    """What a fuzz run found and how fast."""

    games: int = 0
    actions: int = 0
    requests: int = 0
    seconds: float = 0.0
    failures: list[dict[str, Any]] = field(default_factory=list)
    departures: list[dict[str, Any]] = field(default_factory=list)
    """Games whose disagreements the engine declared: its own rule for a dispute they
    turn on, its answer a reading's, and the game agreeing to its end under that reading
    (:func:`~tricklaw.fuzz.declared.follow`)."""
    declared: bool = False
    """Whether the engine declared what it implements (``hello`` or ``--declare``)."""
    notes: list[str] = field(default_factory=list)
    """What the engine author should know that is not a disagreement (one line each)."""

    def summary(self) -> str:
        rate = self.games / self.seconds * 60 if self.seconds else 0.0
        found = f"{len(self.failures)} disagreement(s)" if self.failures else "no disagreement"
        if self.departures:
            found += f" ({len(self.departures)} declared departure(s))"
        return (
            f"{found} in {self.games} games, {self.actions} actions, {self.requests} engine "
            f"requests in {self.seconds:.1f} s ({rate:,.0f} games/min)"
        )


def fuzz(
    command: str,
    *,
    rulesets: Sequence[str],
    players: int | None,
    fixed: dict[str, Any],
    games: int,
    seed: int,
    seconds: float | None = None,
    keep_going: bool = False,
    timeout: float = ENGINE_TIMEOUT,
    declaration: Declaration | None = None,
    asked: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Run:
    """Fuzz the engine ``command``; stops at the first disagreement unless ``keep_going``.

    The engine's declaration is ``declaration`` (``--declare``) or else its ``hello``
    answer's; the run keeps inside it (``asked``: the rulesets were named on the command
    line) and reports declared departures apart. ``progress`` is called with the games
    played after each game."""
    run = Run()
    start = time.perf_counter()
    engine = Engine(command, timeout)
    try:
        if declaration is None:
            declaration, alive = safe_declaration(engine)
            if not alive:
                run.notes.append(
                    "the engine did not answer 'hello' (an error answer such as JSON-RPC "
                    "-32601 'method not found' is enough; --declare FILE skips it): it was "
                    "started again and is fuzzed with no declaration"
                )
                run.requests += engine.requests
                engine.close()
                engine = Engine(command, timeout)
        if declaration is not None:
            run.declared = True
            rulesets = narrow(declaration, rulesets, players, fixed, asked)
        for index in range(games):
            if seconds is not None and time.perf_counter() - start > seconds:
                break
            case = new_case(index, seed, rulesets, players, fixed, declaration=declaration)
            outcome, departed = follow(engine, declaration, play_case(engine, case))
            run.games += 1
            run.actions += outcome.actions
            if progress is not None:
                progress(run.games)
            if outcome.disagreement is None:
                if departed:
                    run.departures.append(_departure(departed, outcome, command, index, seed))
                continue
            if outcome.disagreement.kind == "protocol":  # the engine may be dead: start again
                run.requests += engine.requests
                engine.close()
                engine = Engine(command, timeout)
                small, shrunk = outcome, False
            else:
                small, shrunk = shrink(engine, outcome), True
            report = case_json(explained(declaration, small, departed), command)
            report["shrunk"] = shrunk
            report["game_index"] = index
            report["run_seed"] = seed
            run.failures.append(report)
            if not keep_going:
                break
    finally:
        run.requests += engine.requests
        engine.close()
        run.seconds = time.perf_counter() - start
    return run


def _departure(
    departed: tuple[Departed, ...], outcome: Outcome, command: str, index: int, seed: int
) -> dict[str, Any]:
    """A game whose every disagreement was a declared departure that a reading explains,
    as ``Run.departures`` lists it: the first departure, its case (not shrunk: nothing to
    mend) with the readings the model followed."""
    first = departed[0]
    report = case_json(replace(outcome, disagreement=first.disagreement), command)
    report["departure"] = "; ".join(d.text for d in departed)
    report["game_index"] = index
    report["run_seed"] = seed
    return {
        "game_index": index,
        "ruleset": outcome.case.ruleset,
        "players": outcome.case.players,
        "rule": report["departure"],
        "readings": {d.dispute: d.reading for d in departed},
        "disagreement": first.disagreement.as_json(),
        "report": report,
    }


def replay_case(command: str, path: str, timeout: float = ENGINE_TIMEOUT) -> Outcome:
    """Play the case of a report file again on the engine."""
    try:
        data = json_text.loads(json_text.read_text(path))
    except JsonTextError as exc:
        raise TricklawError(f"fuzz: {path}: {exc}") from None
    case = case_from_json(data, path)
    engine = Engine(command, timeout)
    try:
        return play_case(engine, case, limit=len(case.steps))
    finally:
        engine.close()
