"""The tie and gap detector: can two players or cards share the extreme a clause picks by,
and does the text say who is picked then?

Every clause that picks a player or a card by the most, fewest, highest, lowest, first or
last of some quantity is marked in its registry (``[[clause.picks]]``, parsed as
:class:`~tricklaw.spec.Pick`). For each such pick, player count and reading of the
options the quantity depends on, the game's quantity (:data:`~tricklaw.proofs.quantities.TIES`)
decides whether a tie is possible:

* a card pick, in Z3 over one symbolic trick of the game's trick encoding (the deck for
  the player count, each card once; under each trick context): two competing cards
  share the extreme key while the clause applies. ``sat`` gives the witness trick,
  ``unsat`` proves no tie can arise (with the core's clause ids);
* a player pick: first by witness, games of the model played by seeded random agents
  (:func:`tricklaw.model.agents.random_states`, so ``tricklaw play`` with the same seed
  replays it) until one shows two players sharing the extreme; failing that, in Z3 over
  the quantity's sound relaxation: ``unsat`` proves no tie can arise; ``sat`` is a witness
  only for an ``exact`` relaxation, else the answer is undecided, a ``fail`` (never a
  proof; ``unknown`` is kept for the solver's own).

Then the pick's ``tie`` says how the text settles it:

* possible, ``tie`` a clause of the text: *pass*, with the witness (the text breaks the
  tie; the trick obligation ``tie-rule`` proves the encoding does as it says);
* possible, ``tie`` a dispute: a *finding* of machine ``tie`` with that dispute, provided
  the dispute has readings and a default, and, when the model makes the pick, an option
  of the model (else a counterexample);
* possible, no ``tie``: a counterexample, a gap no dispute records;
* impossible: proved; a dispute named for a tie that can never arise fails the
  register check :func:`stale_ties` on a complete run.

An answer that is *trivial* (the key makes a tie impossible by construction, such as
places in the play order) is reported as such, passing verify only where the quantity
documents it (:attr:`~tricklaw.proofs.quantities.CardQuantity.hollow`); a trick context
in which the clause never applies (its premises *vacuous*) decides nothing: a row is
trivial when some context is, and vacuous only when every context is.

A pick of a row of cards outside the trick (:class:`~tricklaw.proofs.quantities.RowQuantity`,
the leftmost card of a display) is decided in Z3 over the game's symbolic row
(:class:`~tricklaw.proofs.quantities.Frame`), and asked one more question,
``pick-candidate``: can the clause have to pick when no card is eligible? ``unsat`` proves
it cannot; a witness row is a gap, judged like a tie against the pick's ``none`` (a clause
that says what happens, or a dispute with its switch: a *finding*); *trivial* where the
clause applies only when a candidate is there (documented by the quantity's ``given``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import z3

from tricklaw.model.agents import random_states
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game
from tricklaw.proofs.combinations import reading_combinations
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.quantities import (
    TIES,
    CardQuantity,
    Frame,
    PlayerQuantity,
    Quantity,
    RowQuantity,
)
from tricklaw.proofs.results import Result
from tricklaw.proofs.solver import (
    COUNTEREXAMPLE,
    FAIL,
    FINDING,
    HOLLOW,
    PASS,
    PROVED,
    TRIVIAL,
    VACUOUS,
    Outcome,
    Tracked,
    check,
)
from tricklaw.proofs.tricks import TrickEncoding
from tricklaw.spec import Clause, Pick, Registry, load_registry

MACHINE = "tie"
WITNESS_GAMES = 2000
"""At most this many seeded random games (seeds 1, 2, ...) are searched for a tie of a
player pick, so that the search, and its witness, do not depend on the machine's speed."""
WITNESS_SECONDS = 60.0
"""A safety limit on the search (per pick, player count and reading)."""
MAX_ROUNDS = 30
"""A witness game is cut after this many rounds (a game may have no end: a target total)."""


def extreme_tie(
    eligible: Sequence[z3.BoolRef], key: Sequence[z3.ArithRef], largest: bool
) -> z3.BoolRef:
    """Two eligible items share a key that no eligible item beats (the largest key when
    ``largest``, else the smallest)."""
    n = len(key)

    def unbeaten(i: int) -> z3.BoolRef:
        return z3.And(
            *[
                z3.Implies(eligible[k], key[k] <= key[i] if largest else key[k] >= key[i])
                for k in range(n)
            ]
        )

    return z3.Or(
        *[
            z3.And(eligible[i], eligible[j], key[i] == key[j], unbeaten(i))
            for i in range(n)
            for j in range(i + 1, n)
        ]
    )


def card_tie(enc: TrickEncoding, clause: str, q: CardQuantity, pick: Pick, ms: int) -> Outcome:
    """Whether a trick of ``enc`` has two cards tied for ``pick``'s extreme while ``clause``
    applies: ``counterexample`` (a tie, the trick as witness) or ``proved`` (none)."""
    tie = extreme_tie(q.eligible(enc), q.key(enc), pick.largest)
    tracked = [*enc.domain(), Tracked(clause, q.applies(enc)), Tracked("claim:tie", tie)]
    return check(tracked, ms, enc.decode)


def row_tie(frame: Frame, clause: str, pick: Pick, ms: int) -> Outcome:
    """Whether two candidates of ``frame`` share ``pick``'s extreme place while ``clause``
    applies: ``counterexample`` (a tie, with the row) or a proof (trivial where the places
    are distinct by construction)."""
    tie = extreme_tie(frame.eligible, frame.key, pick.largest)
    tracked = [*frame.premises, Tracked(clause, frame.applies), Tracked("claim:tie", tie)]
    return check(tracked, ms, frame.decode)


def row_candidate(frame: Frame, clause: str, ms: int) -> Outcome:
    """Whether ``clause`` can have to pick with no candidate in ``frame`` (it applies and
    no card is eligible): ``counterexample`` (a gap, with the row) or ``proved``;
    ``trivial`` when the clause's own case already names a candidate (it applies only
    when one is there), whatever the premises say."""
    applies = Tracked(clause, frame.applies)
    claim = Tracked("claim:no-candidate", z3.Not(z3.Or(*frame.eligible)))
    alone = check([applies, claim], ms, hollow=False)
    if alone.status == PROVED:
        why = "the clause applies only when a candidate is there: true by construction"
        return Outcome(TRIVIAL, alone.seconds, alone.clauses, detail=why)
    return check([*frame.premises, applies, claim], ms, frame.decode)


def _candidate_verdict(
    registry: Registry, ruleset: Ruleset[Any], pick: Pick, out: Outcome
) -> Outcome:
    """``out`` (counterexample = the clause can have to pick with nothing eligible) judged
    against what the registry says of that case (``pick.none``)."""
    if out.status == PROVED:
        out.detail = f"a card to pick by the {pick.by} {pick.quantity} whenever it applies"
    if out.status != COUNTEREXAMPLE:
        return out
    case = f"a pick by the {pick.by} {pick.quantity} with no card eligible"
    words = ("what happens", "says what happens then")
    return _settled(registry, ruleset, out, case=case, named=pick.none, modelled=True, words=words)


def candidate_results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """``pick-candidate CLAUSE``: for every pick of a row (:class:`RowQuantity`), that the
    clause never has to pick when no card is eligible (else a gap: a counterexample, the
    row as witness), under every reading its frame depends on."""
    registry = load_registry(ruleset.id)
    quantities = TIES.get(ruleset.id, {})
    out: list[Result] = []
    for clause, pick in _picks(registry, players):
        q = quantities.get(pick.quantity)
        if not isinstance(q, RowQuantity):
            continue
        for readings in reading_combinations(ruleset, q.readings, chosen):
            game = ruleset.make_game(players, {**chosen, **readings})
            answer = row_candidate(q.frame(game), clause.id, timeout_ms)
            v = _candidate_verdict(registry, ruleset, pick, answer)
            name = f"pick-candidate {clause.id} {pick.by} {pick.quantity}"
            where = (ruleset.id, str(players), _label(readings))
            out.append(_row(name, where, v, q.given))
    return out


def _row(name: str, where: tuple[str, str, str], v: Outcome, hollow: str) -> Result:
    """The verify row of outcome ``v`` at ``where`` (ruleset, players, reading); ``hollow``
    documents it when it is vacuous or trivial."""
    ruleset, players, label = where
    expected = hollow if v.status in HOLLOW else ""
    return Result(
        name,
        ruleset,
        players,
        label,
        v.status,
        v.seconds,
        v.clauses,
        v.detail,
        v.witness,
        v.machine,
        v.dispute,
        expected,
    )


def _tied(values: Sequence[int], largest: bool) -> bool:
    best = max(values) if largest else min(values)
    return sum(1 for v in values if v == best) > 1


def witness_game(game: Game, q: PlayerQuantity, largest: bool) -> dict[str, Any] | None:
    """A seeded random game of the model in which the players tie for the extreme of
    ``q`` (the seed, the round where the count is per round, and the values), or None."""
    start = time.perf_counter()
    for seed in range(1, WITNESS_GAMES + 1):
        if time.perf_counter() - start > WITNESS_SECONDS:
            break
        *_, state = random_states(game, seed, max_rounds=MAX_ROUNDS)
        for n, values in enumerate(q.observe(game, state)):
            if _tied(values, largest):
                return {
                    "seed": seed,
                    "agent": "random",
                    "options": {k: v for k, v in game.options.items},
                    "observation": n,
                    "values": list(values),
                }
    return None


def player_tie(game: Game, clause: str, q: PlayerQuantity, pick: Pick, ms: int) -> Outcome:
    """Whether the players can tie for ``pick``'s extreme of ``q``: a witness game (or, for
    an exact relaxation, a Z3 model) gives ``counterexample``; an unsatisfiable relaxation
    ``proved``; a satisfiable relaxation with no witness ``fail`` (undecided)."""
    start = time.perf_counter()
    found = witness_game(game, q, pick.largest) if q.modelled else None
    if found is not None:
        return Outcome(
            COUNTEREXAMPLE,
            time.perf_counter() - start,
            (clause,),
            found,
            "a game of the model shows the tie",
        )
    values = [z3.Int(f"{pick.quantity}_{seat}") for seat in range(game.players)]
    tie = extreme_tie([z3.BoolVal(True)] * len(values), values, pick.largest)
    tracked = [
        *q.relaxation(game, values),
        Tracked("claim:tie", tie),
    ]

    def decode(model: z3.ModelRef) -> dict[str, Any]:
        return {"values": [model.eval(v, model_completion=True).as_long() for v in values]}

    out = check(tracked, ms, decode)
    out.seconds = time.perf_counter() - start
    if out.status == COUNTEREXAMPLE and not q.exact:
        out.status = FAIL  # undecided by the method, not a solver's unknown
        out.detail = "undecided: the relaxation allows a tie, but no game of the model showed one"
    return out


def _verdict(
    registry: Registry,
    ruleset: Ruleset[Any],
    pick: Pick,
    *,
    q: Quantity,
    out: Outcome,
    stated: frozenset[str] | None,
) -> Outcome:
    """``out`` (counterexample = a tie is possible) judged against what the text says;
    ``stated``, for a card pick, the clauses the trick encoding states its rule by (a
    tie-break clause must be one of them)."""
    if out.status == PROVED:
        out.detail = f"no two can share the {pick.by} {pick.quantity}"
        return out
    if out.status != COUNTEREXAMPLE:
        return out
    clause = pick.tie and pick.tie not in {d.id for d in registry.disputes}
    if clause and stated is not None and pick.tie not in stated:
        out.detail = (
            f"a tie for the {pick.by} {pick.quantity} is possible; {pick.tie} is named "
            "to break it, but the trick encoding states no such rule"
        )
        return out
    # A tie is possible (Z3's witness) and the text names its rule: a check that passed,
    # not a proof (tie-rule proves the encoding breaks it as written).
    modelled = not isinstance(q, PlayerQuantity) or q.modelled
    case = f"a tie for the {pick.by} {pick.quantity}"
    words = ("who is picked", "breaks it")
    return _settled(
        registry, ruleset, out, case=case, named=pick.tie, modelled=modelled, words=words
    )


def _settled(
    registry: Registry,
    ruleset: Ruleset[Any],
    out: Outcome,
    *,
    case: str,
    named: str,
    modelled: bool,
    words: tuple[str, str],
) -> Outcome:
    """``out``, a counterexample showing that ``case`` can arise (a tie, a pick with
    nothing eligible), judged against ``named``, where the registry says it is settled:
    nowhere (a counterexample, a gap no dispute records), a clause of the text (pass), or
    a dispute, a *finding* of machine ``tie`` when the dispute has readings and, where
    the model makes the pick (``modelled``), an option of the model (else a
    counterexample). ``words``: what the text leaves open, and what its clause does."""
    disputes = {d.id: d for d in registry.disputes}
    if not named:
        out.detail = f"{case} is possible and neither the text nor a dispute says {words[0]}"
        return out
    if named not in disputes:
        out.status = PASS
        out.detail = f"{case} is possible; {named} {words[1]}"
        return out
    dispute = disputes[named]
    options = {s.name for s in ruleset.option_specs}
    if not dispute.readings or (modelled and dispute.option not in options):
        out.detail = f"{case} is possible; {dispute.id} records it without a switch the model has"
        return out
    out.status, out.machine, out.dispute = FINDING, MACHINE, dispute.id
    switch = f"--option {dispute.option}" if dispute.option else "no switch: outside the model"
    out.detail = (
        f"{case} is possible, the text is silent: "
        f"{dispute.id} ({switch}, default {dispute.default})"
    )
    return out


def _picks(registry: Registry, players: int) -> Iterator[tuple[Clause, Pick]]:
    for clause in registry.clauses:
        if clause.players and players not in clause.players:
            continue
        for pick in clause.picks:
            yield clause, pick


def _label(readings: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in readings.items()) or "default"


def _decide(
    ruleset: Ruleset[Any],
    players: int,
    clause: Clause,
    pick: Pick,
    q: Quantity,
    *,
    chosen: Mapping[str, str],
    ms: int,
) -> Iterator[tuple[str, Outcome, frozenset[str] | None]]:
    """Each reading's answer to "can ``pick`` tie?" (counterexample = yes), with the
    clauses the trick encoding states its rule by (for a card pick)."""
    if isinstance(q, CardQuantity):
        cls = ENCODINGS[ruleset.id]
        names = cls.readings if q.readings is None else q.readings
        for readings in reading_combinations(ruleset, names, chosen):
            game = ruleset.make_game(players, {**chosen, **readings})
            encs = [cls(game, ctx) for ctx in cls.contexts(game)]
            outs = [card_tie(enc, clause.id, q, pick, ms) for enc in encs]
            stated = frozenset(t.clause for e in encs for t in e.resolution(e.outcome))
            # A context where the clause never applies (vacuous) decides nothing: the
            # answer is that of the others; trivial when the others are (a tie impossible
            # by construction, such as places in the play order), vacuous only when every
            # context is. (Taking the first context here made HUND-DESIG-2 vacuous: its
            # first context has no designated number, so the clause never applies there.)
            decided = [o for o in outs if o.status not in HOLLOW] or [
                o for o in outs if o.status != VACUOUS
            ]
            decided = decided or outs[:1]
            tie = next((o for o in decided if o.status != PROVED), None)
            seconds = sum(o.seconds for o in outs)
            # A quantity no reading changes is decided once, for every reading.
            label = _label(readings) if names else "every reading"
            if tie is None:
                core = tuple(sorted({c for o in outs for c in o.clauses}))
                yield label, Outcome(PROVED, seconds, core), stated
            else:
                tie.seconds = seconds
                yield label, tie, stated
        return
    for readings in reading_combinations(ruleset, q.readings, chosen):
        game = ruleset.make_game(players, {**chosen, **readings})
        if isinstance(q, RowQuantity):
            yield _label(readings), row_tie(q.frame(game), clause.id, pick, ms), None
        else:
            yield _label(readings), player_tie(game, clause.id, q, pick, ms), None


def tie_results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """``tie CLAUSE`` for every pick of ``ruleset``'s registry at ``players``, under every
    reading its quantity depends on."""
    registry = load_registry(ruleset.id)
    quantities = TIES.get(ruleset.id, {})
    out: list[Result] = []
    for clause, pick in _picks(registry, players):
        name = f"tie {clause.id} {pick.by} {pick.quantity}"
        q = quantities.get(pick.quantity)
        kind = (CardQuantity, RowQuantity) if pick.what == "card" else (PlayerQuantity,)
        if not isinstance(q, kind):
            why = "no" if q is None else f"no {pick.what}"
            out.append(
                Result(
                    name,
                    ruleset.id,
                    str(players),
                    "all",
                    "fail",
                    0.0,
                    (clause.id,),
                    f"{why} quantity {pick.quantity!r} in the game's tie encodings",
                )
            )
            continue
        for label, answer, stated in _decide(
            ruleset, players, clause, pick, q, chosen=chosen, ms=timeout_ms
        ):
            v = _verdict(registry, ruleset, pick, q=q, out=answer, stated=stated)
            hollow = q.hollow if isinstance(q, CardQuantity | RowQuantity) else ""
            out.append(_row(name, (ruleset.id, str(players), label), v, hollow))
    return out


def stale_ties(ruleset_id: str, results: Sequence[Result]) -> Result:
    """``ties-register``: every dispute a pick names for its tie was found by the detector
    (a tie that can never arise needs no dispute; recording one hides nothing, but it is
    wrong). Meaningful on a complete run only."""
    registry = load_registry(ruleset_id)
    disputes = {d.id for d in registry.disputes}
    named = {x for c in registry.clauses for p in c.picks for x in (p.tie, p.none) if x in disputes}
    found = {
        r.dispute
        for r in results
        if r.ruleset == ruleset_id and r.machine == MACHINE and r.status == FINDING
    }
    stale = sorted(named - found)
    picks = sum(len(c.picks) for c in registry.clauses)
    detail = (
        f"{', '.join(stale)}: named for a tie (or a pick with no candidate) that no "
        "reading or player count allows"
        if stale
        else f"{picks} picks, {len(named)} tie or no-candidate disputes, each found"
    )
    return Result(
        "ties-register", ruleset_id, "all", "all", "fail" if stale else "pass", 0.0, (), detail
    )


def ties(
    ruleset: Ruleset[Any],
    counts: Sequence[int],
    chosen: Mapping[str, str],
    timeout_ms: int,
    *,
    complete: bool,
) -> list[Result]:
    """The detector's results for ``ruleset`` at each of ``counts``, with the register
    check on a ``complete`` run (the one call ``verify`` makes)."""
    out = [
        r
        for n in counts
        for r in [
            *tie_results(ruleset, n, chosen, timeout_ms),
            *candidate_results(ruleset, n, chosen, timeout_ms),
        ]
    ]
    return [*out, stale_ties(ruleset.id, out)] if complete else out
