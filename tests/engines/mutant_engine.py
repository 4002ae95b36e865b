"""A deliberately wrong engine for the fuzzer's tests: tricklaw's own oracle on stdio,
with one rule broken by a mutation named on the command line.

    python tests/engines/mutant_engine.py MUTANT

Mutants:

``tie-last``        Sticheln's tie rule reversed: of equal trump cards the *last* wins
                    (the texts: the earliest; STI93-TRICK-6, STI-TRICK-3).
``all-zero-missed`` the all-zero trick under ``no-winner`` is given to the leader
                    (STI-TRICK-6 / STI93-D-ALLZERO missed).
``zero-lead-first`` a zero-led trick judged by its first non-zero card's colour, whatever
                    the options say (the reading ``first-nonzero`` of STI-D-ZEROLEAD;
                    Sticheln only: the 1993 text has no such reading).
``zero-lead-wrong`` a zero-led trick on which the two readings of STI-D-ZEROLEAD part
                    is given to a seat that neither reading picks (no reading: a
                    declared ``own`` rule must not excuse it).
``follow-free``     Sticheln's follow rule ignored: every hand card may be played
                    (STI93-D-FOLLOW).
``no-check``        ``apply`` takes any action of the right shape without checking
                    that it is legal.
``first-seat``      a tie for the game's win goes to the tied player in the lowest seat,
                    whatever the options say (the ``game-tie`` reading ``first-seat`` of
                    every ruleset: STI-D-GAMETIE, LAST-D-GAMETIE, ...).
``last-seat``       a tie for the game's win goes to the tied player in the *highest* seat:
                    no reading of ``game-tie`` (an engine's own rule, to declare as ``own``).
``none``            no mutation: tricklaw's own oracle.
``garbage``         answers every request with a line that is not JSON.
``dies``            exits after ten requests.
``no-hello``        tricklaw's own oracle that never answers ``hello`` (an old engine
                    that ignores a method it does not know).

Several mutants joined by ``+`` are planted together (``zero-lead-first+last-seat``).
A second argument, a JSON file, is the engine's declaration: ``hello`` answers it as
``implements`` (see :mod:`tricklaw.model.replay.declaration`).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from tricklaw.model.cards import Card
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import RULESETS, sticheln
from tricklaw.model.state import Game, State
from tricklaw.model.trick import TrickResult, winner_takes_all
from tricklaw.oracle import Oracle
from tricklaw.serve import serve_stdio

_judge = sticheln.judge


def tie_last(
    cards: Sequence[Card], rules: sticheln.Rules, clause: Mapping[str, str]
) -> TrickResult:
    result = _judge(cards, rules, clause)
    if result.winner is None or clause["tie"] not in result.clauses:
        return result
    win = result.cards[result.winner]
    last = max(
        i
        for i, c in enumerate(result.cards)
        if c & 31 == win & 31 and c >> 5 != result.cards[0] >> 5
    )
    return winner_takes_all(result.cards, last, result.clauses)


def all_zero_missed(
    cards: Sequence[Card], rules: sticheln.Rules, clause: Mapping[str, str]
) -> TrickResult:
    return _judge(cards, dataclasses.replace(rules, all_zero_nobody=False), clause)


def zero_lead_first(
    cards: Sequence[Card], rules: sticheln.Rules, clause: Mapping[str, str]
) -> TrickResult:
    return _judge(cards, dataclasses.replace(rules, lead_by_first_nonzero=True), clause)


def zero_lead_wrong(
    cards: Sequence[Card], rules: sticheln.Rules, clause: Mapping[str, str]
) -> TrickResult:
    result = _judge(cards, rules, clause)
    flipped = dataclasses.replace(rules, lead_by_first_nonzero=not rules.lead_by_first_nonzero)
    other = _judge(cards, flipped, clause)
    if cards[0] & 31 or result.winner is None or other.winner in (None, result.winner):
        return result
    picked = (result.winner, other.winner)
    wrong = next((i for i in range(len(result.cards)) if i not in picked), None)
    if wrong is None:
        return result
    return winner_takes_all(result.cards, wrong, result.clauses)


def follow_free(hand: tuple[Card, ...], trick: tuple[Card, ...], follow: str) -> tuple[Card, ...]:
    return hand


def first_seat(last: bool = False) -> None:
    """Every ruleset's winners cut to the first tied seat (the ``argmax`` engine), or
    the ``last``."""
    for cls in {type(r) for r in RULESETS.values()}:
        shared = cls.winners

        def winners(
            self: Ruleset[Any], game: Game, totals: Sequence[int], shared: Any = shared
        ) -> tuple[int, ...]:
            tied: tuple[int, ...] = shared(self, game, totals)
            return tied[-1:] if last else tied[:1]

        cls.winners = winners  # type: ignore[method-assign]


def serve_declaring(path: str) -> int:
    """Serve the oracle on stdio, its ``hello`` answer carrying the declaration in
    ``path``."""
    with open(path, encoding="utf-8") as f:
        declared = json.load(f)
    oracle = Oracle()
    for line in sys.stdin:
        answer = oracle.handle_text(line)
        if answer is None:
            continue
        parsed = json.loads(answer)
        if isinstance(parsed.get("result"), dict) and "methods" in parsed["result"]:
            parsed["result"]["implements"] = declared
            answer = json.dumps(parsed)
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()
    return 0


def main(mutants: str, declaration: str | None = None) -> int:
    for mutant in mutants.split("+"):  # several at once: zero-lead-first+last-seat
        code = plant(mutant)
        if code is not None:
            return code
    if declaration is not None:
        return serve_declaring(declaration)
    return serve_stdio(sys.stdin.buffer, sys.stdout.buffer)


def plant(mutant: str) -> int | None:
    """Plant ``mutant``; an exit status when it serves (or refuses) by itself."""
    if mutant == "tie-last":
        sticheln.judge = tie_last  # type: ignore[assignment]
    elif mutant == "all-zero-missed":
        sticheln.judge = all_zero_missed
    elif mutant == "zero-lead-first":
        sticheln.judge = zero_lead_first
    elif mutant == "zero-lead-wrong":
        sticheln.judge = zero_lead_wrong
    elif mutant == "follow-free":
        sticheln.playable = follow_free
    elif mutant == "no-check":
        State.child = State.apply_legal_action  # type: ignore[method-assign]
    elif mutant == "first-seat":
        first_seat()
    elif mutant == "last-seat":
        first_seat(last=True)
    elif mutant == "none":
        pass
    elif mutant == "garbage":
        for _ in sys.stdin:
            sys.stdout.write("this is not JSON\n")
            sys.stdout.flush()
        return 0
    elif mutant == "no-hello":
        oracle = Oracle()
        for line in sys.stdin:
            if json.loads(line).get("method") == "hello":
                continue  # no answer at all
            sys.stdout.write((oracle.handle_text(line) or "") + "\n")
            sys.stdout.flush()
        return 0
    elif mutant == "dies":
        oracle = Oracle()
        for n, line in enumerate(sys.stdin):
            if n == 10:
                return 3
            sys.stdout.write((oracle.handle_text(line) or "") + "\n")
            sys.stdout.flush()
        return 0
    else:
        sys.stderr.write(f"unknown mutant {mutant!r}\n")
        return 2
    return None


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
