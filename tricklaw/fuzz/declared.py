"""The engine's declaration in a fuzz run: asked for in the ``hello`` handshake (the
answer's ``implements`` field, :mod:`~tricklaw.model.replay.declaration`) or read from
``--declare FILE``; the run narrowed to it; and a disagreement told to be a declared
departure (the engine follows its own stated rule for a dispute the disagreement turns
on, and its answer is a reading's) rather than a failure, the game then played again to
its end under that reading (:func:`follow`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from tricklaw.fuzz.cases import Disagreement, Outcome
from tricklaw.fuzz.engine import Engine, EngineError
from tricklaw.fuzz.play import play_case
from tricklaw.model.replay.declaration import Declaration, parse_declaration
from tricklaw.model.replay.departure import candidates
from tricklaw.spec.errors import TricklawError

FIELD = "implements"
"""The field of the engine's ``hello`` answer that holds its declaration."""


def ask_declaration(engine: Engine) -> Declaration | None:
    """The declaration in the engine's ``hello`` answer; None when it declares nothing
    (no ``hello``, an error, or no :data:`FIELD`: an old engine, fuzzed as before).
    Raises TricklawError naming the field of a declaration that is not valid, and
    EngineError when the engine breaks the protocol."""
    ok, answer = engine.request("hello", {})
    if not ok or not isinstance(answer, dict) or FIELD not in answer:
        return None
    return parse_declaration(answer[FIELD], f"hello.{FIELD}")


def safe_declaration(engine: Engine) -> tuple[Declaration | None, bool]:
    """:func:`ask_declaration`, and whether the engine still answers (False: it broke the
    protocol on ``hello``, so it declares nothing and must be started again)."""
    try:
        return ask_declaration(engine), True
    except EngineError:
        return None, False


def narrow(
    declaration: Declaration,
    rulesets: Sequence[str],
    players: int | None,
    fixed: dict[str, Any],
    asked: bool,
) -> list[str]:
    """The rulesets of the run the engine declares; raises TricklawError when a ruleset,
    player count or fixed option asked for on the command line (``asked``: a RULESET was
    named) is outside the declaration, or nothing is left."""
    kept = []
    for name in rulesets:
        declared = declaration.of(name)
        if declared is None:
            if asked:
                raise TricklawError(f"fuzz: the engine does not declare the ruleset {name}")
            continue
        if players is not None and players not in declared.players:
            raise TricklawError(
                f"fuzz: the engine declares {name} for {list(declared.players)} players, "
                f"not {players}"
            )
        for option, value in fixed.items():
            allowed = declared.values(option)
            if allowed is not None and value not in allowed:
                raise TricklawError(
                    f"fuzz: --option {option}={value}: the engine declares {name} with "
                    f"{option} in {list(allowed)}"
                )
        kept.append(name)
    if not kept:
        raise TricklawError("fuzz: the engine declares none of the rulesets asked for")
    return kept


@dataclass(frozen=True, slots=True)
class Departed:
    """One excused departure of a fuzz game: the dispute, the option and the reading
    whose answer the engine gave, the engine's stated rule, and the disagreement."""

    dispute: str
    option: str
    reading: str
    rule: str
    disagreement: Disagreement

    @property
    def text(self) -> str:
        """``DISPUTE: rule``, as reports name the departure."""
        return f"{self.dispute}: {self.rule}"


def follow(
    engine: Engine, declaration: Declaration | None, outcome: Outcome
) -> tuple[Outcome, tuple[Departed, ...]]:
    """The outcome of a case once each declared departure in it is followed, and those
    departures.

    A disagreement is a departure only when it turns on a dispute the engine declared as
    its own rule (an established citation) and some reading of that dispute gives the
    engine's answer (:func:`~tricklaw.model.replay.departure.candidates`: a rule stated
    in words cannot be run, so nothing else is excused; the message of any other
    disagreement on that dispute says so, with each reading's answer and the engine's).
    The case is then played again from its start with the model under that reading
    (``Case.readings``; the engine is told the same options as before), the same steps
    and then new ones to the end of the game, so that every later answer is judged
    against a consistent model, as ``tricklaw check --declare`` does
    (:mod:`~tricklaw.model.replay.departure`). The outcome returned has no disagreement
    when the engine agrees to the end; otherwise it is the disagreement found under the
    readings followed (:func:`explained` says so in its message)."""
    return _follow(engine, declaration, outcome, ())


def explained(
    declaration: Declaration | None, outcome: Outcome, departed: tuple[Departed, ...]
) -> Outcome:
    """``outcome`` (a failure, possibly shrunk), its disagreement's message saying why no
    declared own rule excuses it (each reading's answer and the engine's) and, after
    departures, which readings the model followed."""
    found = outcome.disagreement
    if found is None:
        return outcome
    message = found.message
    if declaration is not None and found.citation is not None:
        case = outcome.case
        options, why = candidates(
            declaration, case.game(), (found.citation, found.got), dict(case.readings), "the engine"
        )
        if why and not options:
            message += f"; not a declared departure: {why}"
    if departed:
        under = ", ".join(f"{d.dispute} = {d.reading!r}" for d in departed)
        where = ", ".join(f"step {d.disagreement.step} ({d.dispute})" for d in departed)
        message += (
            f"; the model follows {under}: the reading(s) that the engine's declared own "
            f"rule matched in the game as first played, at {where}"
        )
    return replace(outcome, disagreement=replace(found, message=message))


def _follow(
    engine: Engine,
    declaration: Declaration | None,
    outcome: Outcome,
    departed: tuple[Departed, ...],
) -> tuple[Outcome, tuple[Departed, ...]]:
    found = outcome.disagreement
    if declaration is None or found is None or found.citation is None:
        return outcome, departed
    case = outcome.case
    options, _ = candidates(
        declaration, case.game(), (found.citation, found.got), dict(case.readings), "the engine"
    )
    if not options:
        return outcome, departed
    first: tuple[Outcome, tuple[Departed, ...]] | None = None
    for dispute, option, reading, rule in options:
        step = Departed(dispute, option, reading, rule, found)
        again = play_case(engine, replace(case, readings=(*case.readings, (option, reading))))
        result = _follow(engine, declaration, again, (*departed, step))
        if result[0].disagreement is None:
            return result
        first = first or result
    assert first is not None
    return first
