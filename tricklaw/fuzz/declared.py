"""The engine's declaration in a fuzz run: asked for in the ``hello`` handshake (the
answer's ``implements`` field, :mod:`~tricklaw.model.replay.declaration`) or read from
``--declare FILE``; the run narrowed to it; and a disagreement told to be a declared
departure (the engine follows its own stated rule for a dispute the disagreement turns
on) rather than a failure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tricklaw.fuzz.cases import Case, Disagreement
from tricklaw.fuzz.engine import Engine, EngineError
from tricklaw.model.replay.declaration import Declaration, parse_declaration
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


def departure(declaration: Declaration | None, case: Case, found: Disagreement) -> str | None:
    """The declared own rule that explains ``found``, as ``DISPUTE: rule``; None when the
    disagreement is a failure. Only an established citation (another reading of the
    dispute changes the rules' answer here) excuses a disagreement."""
    if declaration is None or not found.established:
        return None
    for dispute in found.disputes:
        rule = declaration.own_rule(case.ruleset, dispute)
        if rule is not None:
            return f"{dispute}: {rule}"
    return None
