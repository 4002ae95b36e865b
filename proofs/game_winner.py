"""The game's winners held to the clause that names them, under every tie reading.

Every ruleset's registry marks the clause of kind ``game`` that names the winner by an
extreme of the final total (``[[clause.picks]]``, ``what = "player"``: the most or
highest total, or the fewest or lowest). Its ``tie`` names where a tie for that extreme
is settled: a dispute with an option whose readings are the tie-breaks of
:data:`TIE_BREAKS` (every tied player wins, nobody does, the first tied seat does), or a
clause of the text.

For each such pick, player count and reading of the dispute's option, the model's
:meth:`~tricklaw.model.ruleset.Ruleset.winners` is compared with the pick on every
vector of totals of the seats (automatic seats included: they never win) over two
finite domains, taken exhaustively: the small totals ``-1 .. seats-2`` (every weak order
of the seats' totals, so every pattern of ties, with zero and a negative total among
them) and the same order types spread out (``57 v - 60``). So the row is a ``pass``
(exhaustive on the domain, not a proof over every integer), or a ``counterexample``
with the totals, the model's winners and the pick's; a model that raises on some totals
gives a counterexample too.

A tie settled by a clause, or by a reading this module does not know, is not judged:
only totals with one best player are compared then, and the row says so.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game
from tricklaw.proofs.combinations import reading_combinations
from tricklaw.proofs.obligations import Result
from tricklaw.proofs.solver import COUNTEREXAMPLE, PASS
from tricklaw.spec import Clause, Pick, load_registry

TIE_BREAKS: Mapping[str, Callable[[tuple[int, ...]], tuple[int, ...]]] = {
    "shared": lambda tied: tied,
    "nobody": lambda tied: (),
    "first-seat": lambda tied: tied[:1],
}
"""Reading -> the winners among the seats tied for the extreme (in seat order): every
tied player (``shared``), nobody, or the first tied seat (``first-seat``)."""
SPREAD = (57, -60)
"""The second domain: each small total ``v`` becomes ``57 v - 60``."""


def winner_picks(ruleset: Ruleset[Any], players: int) -> Iterator[tuple[Clause, Pick]]:
    """The picks of the winner by the final total: clauses of kind ``game`` in force at
    ``players`` with a ``player`` pick."""
    for clause in load_registry(ruleset.id).clauses:
        if clause.kind != "game" or (clause.players and players not in clause.players):
            continue
        for pick in clause.picks:
            if pick.what == "player":
                yield clause, pick


def totals_domain(seats: int) -> Iterator[tuple[int, ...]]:
    """Every vector of totals of ``seats`` seats over ``-1 .. seats-2``, then the same
    vectors spread out (:data:`SPREAD`)."""
    small = range(-1, max(seats - 1, 1))
    scale, shift = SPREAD
    for values in itertools.product(small, repeat=seats):
        yield values
    for values in itertools.product(small, repeat=seats):
        yield tuple(scale * v + shift for v in values)


def stated_winners(
    totals: Sequence[int], players: int, largest: bool, tie_break: Callable[..., Any] | None
) -> tuple[int, ...] | None:
    """The pick's winners for ``totals``: the one player with the extreme total, or the
    tie broken by ``tie_break`` (None: not judged)."""
    values = totals[:players]
    best = max(values) if largest else min(values)
    tied = tuple(s for s in range(players) if values[s] == best)
    if len(tied) == 1:
        return tied
    return None if tie_break is None else tuple(tie_break(tied))


def _answer(game: Game, totals: tuple[int, ...]) -> tuple[int, ...] | str:
    try:
        return tuple(game.ruleset.winners(game, totals))
    except Exception as exc:  # the model's answer is under test: any error is a finding
        return f"raised {type(exc).__name__}: {exc}"


Checked = tuple[str, float, str, dict[str, Any]]
"""(status, seconds, detail, witness)."""


def check_winners(game: Game, pick: Pick, tie_break: Callable[..., Any] | None) -> Checked:
    """The model's winners against ``pick`` on :func:`totals_domain` (see the module
    docstring)."""
    start = time.perf_counter()
    checked = judged = 0
    for totals in totals_domain(game.seats):
        checked += 1
        want = stated_winners(totals, game.players, pick.largest, tie_break)
        if want is None:
            continue
        judged += 1
        got = _answer(game, totals)
        if got != want:
            witness = {"totals": list(totals), "model": got, "rule": list(want)}
            detail = f"totals {list(totals)}: the model's winners are {got}, the rule's {want}"
            return COUNTEREXAMPLE, time.perf_counter() - start, detail, witness
    detail = (
        f"{checked} vectors of totals (every weak order of {game.seats} seats, small and "
        f"spread): the model's winners are the {pick.by} {pick.quantity}'s"
    )
    if judged < checked:
        detail += f"; {checked - judged} ties not judged (no known tie-break)"
    return PASS, time.perf_counter() - start, detail, {}


def results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """``game-winner CLAUSE`` for the winner pick of ``ruleset`` at ``players``, under
    every reading of its tie dispute's option (fixed to ``chosen`` where given)."""
    out: list[Result] = []
    disputes = {d.id: d for d in load_registry(ruleset.id).disputes}
    for clause, pick in winner_picks(ruleset, players):
        dispute = disputes.get(pick.tie)
        option = dispute.option if dispute is not None else ""
        for readings in reading_combinations(ruleset, (option,) if option else (), chosen):
            game = ruleset.make_game(players, {**chosen, **readings})
            reading = readings.get(option, "")
            status, seconds, detail, witness = check_winners(game, pick, TIE_BREAKS.get(reading))
            cited = (clause.id, pick.tie) if pick.tie else (clause.id,)
            label = ", ".join(f"{k}={v}" for k, v in readings.items()) or "default"
            out.append(
                Result(
                    f"game-winner {clause.id}",
                    ruleset.id,
                    str(players),
                    label,
                    status,
                    seconds,
                    cited,
                    detail,
                    witness,
                )
            )
    return out
