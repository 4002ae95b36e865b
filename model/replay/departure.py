"""Declared departures, judged: which divergences an engine's own rule excuses, and the
check that goes on to the end of the input afterwards (``tricklaw check --declare``).

An engine may declare a dispute as its own rule (``{"reading": "own", "rule": TEXT}``,
:mod:`~tricklaw.model.replay.declaration`). The rule is stated in words: the declaration
has no form the checker can run. So the only answers it can excuse are those that the
model gives under *some reading* of that dispute (the readings of its option, judged at
that point by :func:`~tricklaw.model.replay.citation.cite`). A divergence is a
*departure* when

* its citation is established (another reading of a dispute changes the rules' answer
  at this point: a trick, a round's scores, the totals, the winners, the seat to act, a
  card's legality, the end),
* one of those disputes is declared ``own``, and
* some reading of it gives exactly the input's answer.

Any other answer (one that no reading gives: a zero-led trick given to a seat that
neither zero-lead reading picks, a game tie won by a seat no tie reading names) is a
divergence, whatever was declared; its message names the dispute, each reading's answer
and the input's.

**After a departure the check goes on, under the reading that the answer matched, from
the start of the input.** The engine's state now differs from the default model's, so
the rest of the input cannot be judged by the default model; and switching the model to
that reading at the departure would judge the rest from a state that no reading gives
(everything before it computed under the default: earlier tricks, legal plays, scores).
Re-checking the whole input under the reading is sound: a ``departs`` verdict says that
*one* reading of each departed dispute explains *every* event of the input, the departure
included, so every action, trick, score, total and winner after it is judged by a
consistent model. An own rule that agrees with one reading at one point and with
another reading at another is not any reading: the input diverges at the second point,
where the check under the first reading finds it. Where several readings give the
departing answer, each is tried in the order of the option's choices, and the first
under which the rest of the input is explained (possibly after a departure on another
declared dispute, each dispute at most once) decides; if none does, the verdict is the
divergence found under the first. A dispute already departed from is never departed
from again: its reading is fixed for the whole input.

:func:`settle` runs this search over a reader's ``attempt`` (one check of the whole input
under given option values, :data:`Attempt`): the JSON record reader re-reads the record,
the JSON Lines reader reads its log again from a spool (:mod:`tricklaw.check.lines`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tricklaw.model.options import OptionValue
from tricklaw.model.replay.citation import Citation
from tricklaw.model.replay.declaration import Declaration
from tricklaw.model.replay.verdict import AGREES, DEPARTS, DIVERGES, DivergenceError, Verdict
from tricklaw.model.state import Game

Attempt = Callable[[Mapping[str, OptionValue]], tuple[Verdict, DivergenceError | None, Game | None]]
"""One check of the whole input, with the given option values fixed on top of the
header's and the declared readings: the verdict, the divergence that ended it (None
unless it diverges) and the game it checked (None when the header could not be read)."""


@dataclass(frozen=True, slots=True)
class Departure:
    """One excused departure: the dispute, the reading its answer matched, the engine's
    stated rule, and the verdict of the check that found it (its place and values)."""

    dispute: str
    option: str
    reading: str
    rule: str
    found: Verdict

    @property
    def place(self) -> str:
        """Where the departure is: the line or path, round, action and trick."""
        found = self.found
        parts = [f"line {found.line}"] if found.line is not None else []
        parts += [found.path] if found.path else []
        parts += [
            f"{name} {value}"
            for name in ("round", "action", "trick")
            if (value := getattr(found, name)) is not None
        ]
        return ", ".join(parts) or "the end"


def own_disputes(declaration: Declaration | None) -> bool:
    """Whether ``declaration`` declares any dispute as an own rule (only then can a check
    be run again: the JSON Lines reader keeps its lines only then)."""
    return declaration is not None and any(r.own for r in declaration.rulesets)


def candidates(
    declaration: Declaration,
    game: Game,
    answered: tuple[Citation, Any],
    fixed: Mapping[str, Any],
    who: str,
) -> tuple[list[tuple[str, str, str, str]], str]:
    """The readings that excuse a divergence in ``game`` (checked with the option values
    ``fixed`` by earlier departures; ``answered``: its citation and the input's answer):
    ``(dispute, option, reading, rule)`` each, in the order of the option's choices; and,
    when there is none although a dispute at stake is declared own, why not (one clause,
    for the message; empty otherwise). ``who`` names the input (``the log``, ``the
    engine``). Shared by ``tricklaw check`` and ``tricklaw fuzz``."""
    cited, got = answered
    if not cited.established:
        return [], ""
    ruleset = game.ruleset
    option_of = {s.dispute: s.name for s in ruleset.option_specs if s.dispute}
    found: list[tuple[str, str, str, str]] = []
    why: list[str] = []
    for dispute in cited.disputes:
        rule = declaration.own_rule(ruleset.id, dispute)
        option = option_of.get(dispute)
        if rule is None or option is None:
            continue
        if option in fixed:
            why.append(
                f"{dispute} keeps the reading {fixed[option]!r} that its earlier departure "
                "matched for the whole game"
            )
            continue
        matched = [(dispute, option, r, rule) for d, r in cited.readings if d == dispute]
        if matched:
            found += matched
            continue
        why.append(
            f"no reading of {dispute} gives this answer ({cited.answers_text(dispute, got, who)})"
            f", and the engine's own rule for it is words that cannot be run: {rule!r}"
        )
    return found, "; ".join(why)


def settle(declaration: Declaration | None, attempt: Attempt, who: str) -> Verdict:
    """The verdict on an input whose engine made ``declaration``: ``attempt`` (the whole
    input checked under given option values) run first as declared, then again under the
    reading each excused departure matched (see the module doc). Without a declaration
    of an own rule this is ``attempt({})``'s verdict."""
    found, diverged, game = attempt({})
    if declaration is None or diverged is None or game is None:
        return found
    return _search(declaration, attempt, who, (found, diverged, game), fixed={}, departed=())


def _search(
    declaration: Declaration,
    attempt: Attempt,
    who: str,
    checked: tuple[Verdict, DivergenceError, Game],
    *,
    fixed: Mapping[str, OptionValue],
    departed: tuple[Departure, ...],
) -> Verdict:
    """The verdict once the divergence that ended a check (``checked``: its verdict, the
    divergence and the game, checked under ``fixed`` after the departures ``departed``)
    is excused by a reading, if one is."""
    found, diverged, game = checked
    options, why = candidates(declaration, game, (diverged.citation, diverged.got), fixed, who)
    if not options:
        return _diverges(found, departed, why)
    first: Verdict | None = None
    for dispute, option, reading, rule in options:
        step = Departure(dispute, option, reading, rule, found)
        now = {**fixed, option: reading}
        again, diverged_again, game_again = attempt(now)
        if again.status == AGREES:
            return _departs(again, (*departed, step), who)
        if diverged_again is None or game_again is None:  # unreadable further on
            return _diverges(again, (*departed, step), "")
        outcome = _search(
            declaration,
            attempt,
            who,
            (again, diverged_again, game_again),
            fixed=now,
            departed=(*departed, step),
        )
        if outcome.status == DEPARTS:
            return outcome
        first = first or outcome
    assert first is not None
    return first


def _under(departed: tuple[Departure, ...]) -> str:
    return ", ".join(f"{d.dispute} = {d.reading!r}" for d in departed)


def _diverges(found: Verdict, departed: tuple[Departure, ...], why: str) -> Verdict:
    """``found`` (a divergence, or unreadable), saying why no declared rule excuses it
    and under which readings it was checked."""
    problem = found.problem
    if why:
        problem += f"; not a declared departure: {why}"
    if departed:
        problem += (
            f"; checked under {_under(departed)}: the reading(s) that the engine's declared "
            "own rule matched at " + ", ".join(f"{d.place} ({d.dispute})" for d in departed)
        )
    readings = tuple((d.dispute, d.reading) for d in departed)
    return found.restated(found.status, problem, dict(found.checked), readings)


def _departs(agrees: Verdict, departed: tuple[Departure, ...], who: str) -> Verdict:
    """The ``departs`` verdict: the first departure's place and values, the counts of the
    whole input (checked to its end under the readings departed to). The engine's rule
    comes last in the message, which a long input's summary may not push out."""
    first = departed[0].found
    rules = "; ".join(f"the engine's own rule for {d.dispute}: {d.rule}" for d in departed)
    problem = (
        f"{first.problem}; a declared departure: {_under(departed)} gives this answer and "
        f"{who} agrees with the rules under {'it' if len(departed) == 1 else 'them'} to "
        f"its end ({agrees.problem}); {rules}"
    )
    assert first.status == DIVERGES
    readings = tuple((d.dispute, d.reading) for d in departed)
    return first.restated(DEPARTS, problem, dict(agrees.checked), readings)
