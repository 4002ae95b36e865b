"""Score bounds: the least and the greatest score one player can make in a round.

For each ruleset, player count and reading of the rules that can change them
(:func:`~tricklaw.proofs.bound_readings.readings`: the defaults, each dispute or
custom option that changes scoring, legality, trick-taking or the deck varied one
value at a time, and the pairs that interact), and for seat 0, two obligations:
``score-max`` (no round gives seat 0 more than ``B``) and ``score-min`` (no round
gives seat 0 less than ``B``). Each is settled in two independent halves:

1. **The bound, proved by Z3** over a sound *relaxation* of the round under that
   reading: a small set of integer and Boolean variables saying which cards end up
   counting for the player (picked, taken, laid face down), constrained only by
   facts every real round of the reading satisfies, each stated as a tracked
   assertion named by the clause (or dispute) it comes from. Every real round is a
   solution of the relaxation, so the relaxation's optimum
   (:func:`~tricklaw.proofs.solver.optimum`) bounds the real one; the bound ``B`` is
   then proved on its own by checking that "score > B" (or "< B") is
   unsatisfiable, and the unsat core names the clauses the proof rests on. The
   relaxations read the game's options; they are described, constraint by
   constraint, in :func:`sticheln_relaxation`, :func:`lowhigh_relaxation`,
   :func:`last_relaxation` and :func:`hund_relaxation`.

2. **A witness**: a concrete deal and a sequence of legal actions that the Python
   model replays under the same reading
   (:func:`~tricklaw.proofs.witnesses.replay_witness`) to a score for seat 0. The
   witnesses are built constructively from a *plan* (:mod:`tricklaw.proofs.plans`:
   which seat plays which card in which trick), designed from the relaxation's
   optimum and the rules: mono-colour tricks that every player may follow, a few
   mixed tricks where voids are needed, trick orders that give the lead to the
   right player. Each trick of a plan is laid out (which seat plays which of its
   cards) by asking the model's own trick judge and follow rule
   (:func:`~tricklaw.proofs.witnesses.lay_out`), and the whole plan is replayed
   through the model with every action's legality checked; only the replayed score
   counts. (The Sticheln plans realise the composition of the relaxation's optimum;
   the other plans come from the rules alone, so they would also expose a
   relaxation that cut off real rounds. Soundness itself is checked separately:
   :func:`relaxation_admits` confirms that a finished round of the model, its score
   included, is a solution of the relaxation.)

A result is ``proved`` when the witness reaches the proved bound (the bound is
tight, and is therefore the exact least / greatest score), and ``unknown`` with the
detail "proved bound B, best witness W" when it does not. A witness beyond the
proved bound would mean the relaxation is unsound: that is reported as a
``counterexample``.

(A Z3 search over a whole round with cooperative play, every card and play free,
was tried for the witnesses; it did not answer within 30 s even for three players
of Sticheln, so the witnesses are constructed instead.)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.rulesets import hund as hund_rules
from tricklaw.model.rulesets import the_last as last_rules
from tricklaw.model.state import Game, RoundLog, seat_after
from tricklaw.proofs.bound_readings import agrees, label, readings
from tricklaw.proofs.obligations import Result
from tricklaw.proofs.plans import hund_plan, last_plan, lowhigh_plan, sticheln_plan
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED, UNKNOWN, Tracked, check, optimum
from tricklaw.proofs.witnesses import (
    Plan,
    Witness,
    deck_shape,
    drive,
    witness_game,
    witness_json,
)
from tricklaw.spec.errors import TricklawError

HAND = 15
"""Cards in a Sticheln hand (STI93-DEAL-2, STI-DEAL-1)."""
MAX = "score-max"
MIN = "score-min"


# --- the bound: Z3 over a relaxation -------------------------------------------------------


@dataclass
class Relaxation:
    """A relaxation of one round for one player: tracked assertions and the score."""

    assertions: list[Tracked]
    score: Any
    """The player's score as a Z3 integer term."""
    decode: Callable[[Any], dict[str, Any]] = lambda _model: {}
    """What an optimal model of the relaxation says (guides the witness)."""
    canonical: Sequence[Any] = ()
    """Integer terms minimised in turn among the optimal solutions before decoding, so
    that the model decoded, and the witness built from it, do not depend on the
    solver's state (Z3's models do: they change with what it solved before)."""


@dataclass
class Bound:
    """A bound proved (or not) over a relaxation."""

    status: str
    value: int | None
    clauses: tuple[str, ...]
    seconds: float
    hint: dict[str, Any] = field(default_factory=dict)
    detail: str = ""


def prove_bound(relax: Relaxation, maximize: bool, timeout_ms: int) -> Bound:
    """The relaxation's optimum ``B`` (a search by Z3 checks), then the proof that no
    solution scores beyond it ("score > B" / "score < B" unsat), whose core, made
    minimal (``_minimal_core``), gives the clauses."""
    start = time.perf_counter()
    status, value, model = optimum(relax.assertions, relax.score, maximize, timeout_ms)
    if status != PROVED or value is None or model is None:
        return Bound(UNKNOWN, None, (), time.perf_counter() - start, detail="no optimum in time")
    hint = relax.decode(_canonical(relax, value, timeout_ms) or model)
    beyond = relax.score > value if maximize else relax.score < value
    word = "more" if maximize else "less"
    claim = Tracked(f"claim:no-score-{word}", beyond)
    out = check([*relax.assertions, claim], timeout_ms)
    if out.status != PROVED:
        clauses = tuple(c for c in out.clauses if not c.startswith("claim:"))
        seconds = time.perf_counter() - start
        return Bound(UNKNOWN, value, clauses, seconds, hint, f"optimum {value} not re-proved")
    clauses = _minimal_core(relax.assertions, claim, out.clauses, timeout_ms)
    return Bound(PROVED, value, clauses, time.perf_counter() - start, hint)


def _minimal_core(
    assertions: Sequence[Tracked], claim: Tracked, core: Sequence[str], timeout_ms: int
) -> tuple[str, ...]:
    """The clauses of ``core`` the claim still needs once each, in sorted order, is
    dropped if the rest (with all its assertions) still proves it. Z3's cores vary with
    the solver's state; whether a set of assertions is unsatisfiable does not, so this
    minimal core is the same on every run."""
    kept = sorted(c for c in core if not c.startswith("claim:"))
    for clause in list(kept):
        rest = [a for a in assertions if a.clause in kept and a.clause != clause]
        if check([*rest, claim], timeout_ms).status == PROVED:
            kept.remove(clause)
    return tuple(kept)


def _canonical(relax: Relaxation, value: int, timeout_ms: int) -> Any:
    """The optimal model whose :attr:`Relaxation.canonical` terms are least, in turn
    (None when there are none, or a search does not answer in time)."""
    fixed = [*relax.assertions, Tracked("optimum", relax.score == value)]
    model = None
    for term in relax.canonical:
        status, least, model = optimum(fixed, term, False, timeout_ms)
        if status != PROVED or least is None:
            return None
        fixed.append(Tracked("canonical", term == least))
    return model


def _count(flags: Sequence[Any]) -> Any:
    return z3.Sum([z3.If(f, 1, 0) for f in flags])


STICHELN_CLAUSES: Mapping[str, Mapping[str, str]] = {
    "sticheln-1993": {
        "deck": "STI93-DECK-2",
        "deal": "STI93-DEAL-2",
        "select": "STI93-SELECT-1",
        "play": "STI93-PLAY-1",
        "collect": "STI93-COLLECT-1",
        "round": "STI93-ROUND-1",
        "minus": "STI93-SCORE-1",
        "plus": "STI93-SCORE-2",
        "total": "STI93-SCORE-3",
    },
    "sticheln": {
        "deck": "STI-DECK-1",
        "deal": "STI-DEAL-1",
        "select": "STI-SELECT-2",
        "play": "STI-PLAY-1",
        "collect": "STI-COLLECT-1",
        "round": "STI-ROUND-1",
        "minus": "STI-SCORE-1",
        "plus": "STI-SCORE-2",
        "total": "STI-SCORE-3",
    },
}


def sticheln_relaxation(game: Game) -> Relaxation:
    """Sticheln (both editions): what a player's picked and taken cards can be.

    A card of any colour but the misery colour scores +1 whatever it is
    (STI93-SCORE-2, STI-SCORE-2), so only their *number* ``a`` matters; the
    misery-colour cards are modelled one by one (``pick_v``, ``take_v`` for
    value ``v``). Constraints, each a fact of every round:

    * deck (STI93-DECK-2, STI-DECK-1): every colour holds the values
      ``0..T`` once, so the other colours hold ``(C-1)(T+1)`` cards: ``0 <= a
      <= (C-1)(T+1)``;
    * select (STI93-SELECT-1, STI-SELECT-2): the player picks exactly one
      card, and its colour *is* the misery colour: exactly one ``pick_v``;
      the picked card lies in front of him and is never played, so never
      taken: not both ``pick_v`` and ``take_v``;
    * play and collect (STI93-PLAY-1 / STI-PLAY-1: every player adds exactly
      one card to each trick; STI93-COLLECT-1 / STI-COLLECT-1: the winner
      gathers the trick; in the later text an all-zero trick goes to nobody,
      which takes nothing from anyone): the cards taken are ``n k`` for the
      ``k`` tricks won, ``k >= 0``;
    * round (STI93-ROUND-1, STI-ROUND-1; 15 cards dealt and one picked,
      STI93-DEAL-2 / STI-DEAL-1): 14 tricks, ``k <= 14``;
    * score: +1 for each of the ``a`` other cards (STI93-SCORE-2, STI-SCORE-2),
      minus the value of each misery card taken (STI93-SCORE-1, STI-SCORE-1)
      and of the picked card (STI93-SCORE-3, STI-SCORE-3).

    The deck is the game's (under ``deck=full``, STI93-D-DECK, all 90 cards for every
    player count, only ``15 n`` of them dealt: ``k <= 14`` still caps what is taken).
    The readings of ``follow`` (STI93-D-FOLLOW), ``all-zero`` (STI93-D-ALLZERO) and
    ``zero-lead`` (STI-D-ZEROLEAD) change what may be played and who takes a trick,
    never which cards exist or what they count: the relaxation lets any trick go to
    anyone (or to nobody), so it covers them all.
    """
    ids = STICHELN_CLAUSES[game.ruleset.id]
    colours, values = deck_shape(game.ruleset, game)
    n = game.players
    pick = {v: z3.Bool(f"pick_{v}") for v in values}
    take = {v: z3.Bool(f"take_{v}") for v in values}
    a, k, score = z3.Int("others_taken"), z3.Int("tricks_won"), z3.Int("score")
    plus, minus = z3.Int("plus"), z3.Int("minus")
    tricks = HAND - 1
    assertions = [
        Tracked(ids["deck"], z3.And(a >= 0, a <= (len(colours) - 1) * len(values))),
        Tracked(ids["select"], z3.PbEq([(p, 1) for p in pick.values()], 1)),
        Tracked(ids["select"], z3.And(*[z3.Not(z3.And(pick[v], take[v])) for v in values])),
        Tracked(ids["collect"], a + _count(list(take.values())) == n * k),
        Tracked(ids["play"], k >= 0),
        Tracked(ids["round"], k <= tricks),
        Tracked(ids["plus"], plus == a),
        Tracked(ids["minus"], minus == z3.Sum([z3.If(take[v], v, 0) for v in values])),
        Tracked(
            ids["total"],
            score == plus - minus - z3.Sum([z3.If(pick[v], v, 0) for v in values]),
        ),
    ]

    def decode(model: Any) -> dict[str, Any]:
        def holds(b: Any) -> bool:
            return bool(z3.is_true(model.eval(b, model_completion=True)))

        return {
            "pick": next(v for v in values if holds(pick[v])),
            "taken": sorted(v for v in values if holds(take[v])),
            "others": model.eval(a, model_completion=True).as_long(),
            "tricks": model.eval(k, model_completion=True).as_long(),
        }

    canonical = (
        z3.Sum([z3.If(pick[v], v, 0) for v in values]),
        z3.Sum([z3.If(take[v], 2**v, 0) for v in values]),
    )
    return Relaxation(assertions, score, decode, canonical)


def lowhigh_relaxation(game: Game) -> Relaxation:
    """lowhigh: how many cards of each colour a player can have won, and their score.

    Per colour ``X``: the number ``cnt_X`` of its cards the player won and, when
    that is one or two, their values ``hi_X`` (and ``lo_X``). Constraints:

    * deck (LH-DECK-1): each colour holds every value ``1..top`` once:
      ``cnt_X <= top``; one card has a value in ``1..top``, two cards have two
      different ones, ``top >= hi_X > lo_X >= 1``;
    * receiving (LH-TRICK-4, LH-TRICK-5, LH-D-SAMECARD): from each trick a
      player receives nothing, the highest card alone (as the lowest card's
      player), the ``n-1`` other cards (as the highest card's player), or,
      under ``same-card=same-player`` with all values equal, all ``n``: the
      cards won are ``x + (n-1) y + n z`` with ``x + y + z <= 15`` tricks
      (LH-ROUND-1); under ``same-card=among-rest`` the lowest card is then sought
      among the others, so no trick gives one player everything: ``z = 0``;
    * score: a colour with one or two cards scores their values (LH-SCORE-2),
      with three or more one point a card (LH-SCORE-3); the round score is the
      sum over the colours (LH-SCORE-1, LH-SCORE-4).
    """
    colours, values = deck_shape(game.ruleset, game)
    top = max(values)
    n = game.players
    x, y, z_, score = z3.Ints("low_tricks high_tricks whole_tricks score")
    assertions = [
        Tracked("LH-TRICK-4", x >= 0),
        Tracked("LH-TRICK-5", y >= 0),
        Tracked("LH-D-SAMECARD", z_ == 0 if game.rules.lowest_among_rest else z_ >= 0),
        Tracked("LH-ROUND-1", x + y + z_ <= 15),
    ]
    counts, parts = [], []
    for c in colours:
        cnt, hi, lo, part = z3.Ints(f"count_{c} high_{c} low_{c} points_{c}")
        counts.append(cnt)
        parts.append(part)
        assertions += [
            Tracked("LH-DECK-1", z3.And(cnt >= 0, cnt <= top)),
            Tracked("LH-DECK-1", z3.Implies(cnt == 1, z3.And(hi >= 1, hi <= top, lo == 0))),
            Tracked("LH-DECK-1", z3.Implies(cnt == 2, z3.And(hi <= top, hi > lo, lo >= 1))),
            Tracked("LH-SCORE-2", z3.Implies(cnt <= 2, part == z3.If(cnt == 0, 0, hi + lo))),
            Tracked("LH-SCORE-3", z3.Implies(cnt >= 3, part == cnt)),
        ]
    assertions += [
        Tracked("LH-TRICK-5", z3.Sum(counts) == x + (n - 1) * y + n * z_),
        Tracked("LH-SCORE-4", score == z3.Sum(parts)),
    ]
    return Relaxation(assertions, score)


def last_relaxation(game: Game) -> Relaxation:
    """The Last: how many cards of each value a player can have face down, and his
    penalty.

    ``down_v``: the player's face-down cards of value ``v``; ``t``: the tricks he
    won. Constraints:

    * deck (LAST-DECK-1): four colours, each with every value ``1..12`` once:
      ``0 <= down_v <= 4``;
    * tricks: as many as cards in a hand (LAST-DEAL-1; LAST-GHOST-1 for two
      players; LAST-ROUND-1): ``0 <= t <= H``;
    * one card a trick won (LAST-TRICK-3: the winner takes that trick's points
      card; LAST-COLLECT-1: he lays it, or a hand card instead, face down: one
      card either way), plus ``u`` of the ``L`` points cards never turned up
      (``L = 48 - s H - H``: 3 with four players, else 0): under
      ``unused-points=stay`` they stay in the pile and score for nobody, ``u = 0``;
      under ``last-winner`` they go to the winner of the last trick, ``u`` is 0 or
      ``L``, and ``L`` only for a player who won a trick (LAST-D-UNUSED);
    * penalty (LAST-SCORE-1): the sum of the face-down values.

    The readings of ``last-play`` and ``ghost-play`` change what may be played, and
    ``ghost-seat`` the seating, never which cards are taken or what they count: the
    relaxation lets any trick go to anyone, so it covers them all.
    """
    hand = last_rules.HAND_SIZE[game.players]
    left_over = len(game.ruleset.deck(game.players, game.options)) - (game.seats + 1) * hand
    deal_clause = "LAST-GHOST-1" if game.players == 2 else "LAST-DEAL-1"
    down = {v: z3.Int(f"down_{v}") for v in range(1, 13)}
    won, unused, score = z3.Ints("tricks_won unused_points score")
    assertions = [
        *[Tracked("LAST-DECK-1", z3.And(d >= 0, d <= 4)) for d in down.values()],
        Tracked(deal_clause, z3.And(won >= 0, won <= hand)),
        Tracked(
            "LAST-D-UNUSED",
            z3.Or(unused == 0, z3.And(unused == left_over, won >= 1))
            if game.rules.unused_to_last_winner
            else unused == 0,
        ),
        Tracked("LAST-COLLECT-1", z3.Sum(list(down.values())) == won + unused),
        Tracked("LAST-SCORE-1", score == z3.Sum([v * d for v, d in down.items()])),
    ]
    return Relaxation(assertions, score)


def hund_relaxation(game: Game) -> Relaxation:
    """Hund: which cards a player can have taken, and what they score.

    Scoring reads only how many cards of each suit a player took: ``count_c`` for suit
    ``c``. Constraints:

    * deck (HUND-FACT-1, HUND-GAP-1): five suits of ``S`` cards (``S`` follows
      ``more-cards``; which values they carry, ``values``, counts for nothing here):
      ``0 <= count_c <= S``;
    * every seat plays one card to each trick and the winner gathers them all
      (HUND-PLAY-1, HUND-COLLECT-1); all cards are dealt (HUND-GAP-2): the cards
      taken are ``s k`` for ``k <= 5S/s`` tricks won, ``s`` the seats (the virtual
      player included, HUND-TWO-1);
    * the powers' suits ``plus``, ``hund``, ``minus`` (HUND-DESIG-1/2): in the base
      game the designated number exists once in each suit and every card is played,
      so the three are three different suits. With designation sets (HUND-OPT-2) a
      suit takes at most one power unless ``set-repeat=stack`` (HUND-D-SETREPEAT),
      and even then only where two sets name one suit (``set-suits=any``,
      HUND-D-SETSUITS) or cards match by value (``set-match=value``,
      HUND-D-SETMATCH); a power may stay unassigned (suit ``-1``, no card counts for
      it) when two sets name one suit and a repeat is skipped;
    * score: +1 a Plus card, -1 a Minus card (HUND-FACT-2), and 3 for the Hund award
      (HUND-FACT-3), which needs the Hund power assigned. Under ``hund-tie=excluded``
      (HUND-D-HUNDTIE) a player tied for the fewest does not score, so the award needs
      a count above the fewest (at least one Hund card), and a count strictly between
      the most and the fewest, which takes three seats compared: with two players and
      ``virtual-hund=ignored`` (HUND-D-VIRTUALHUND) no award is possible. Under
      ``scores`` a tie may score, even at zero.

    ``trump-timing`` changes who takes a trick, ``designation`` and ``virtual-odd``
    what is dealt where, never which cards exist or what they count: the relaxation
    lets any trick go to anyone, so it covers them all.
    """
    rules: hund_rules.Rules = game.rules
    colours, values = deck_shape(game.ruleset, game)
    seats = game.seats
    counts = {c: z3.Int(f"count_{c}") for c in colours}
    plus, hund, minus, k, score = z3.Ints("plus hund minus tricks_won score")
    award = z3.Bool("hund_award")

    def suit_count(suit: Any) -> Any:
        return z3.Sum([z3.If(suit == c, n, 0) for c, n in counts.items()])

    repeat = rules.sets and rules.set_repeat_stack
    repeat = repeat and (not rules.set_suits_distinct or not rules.set_match_card)
    missing = rules.sets and rules.set_match_card and not rules.set_suits_distinct
    missing = missing and not rules.set_repeat_stack
    lowest = -1 if missing else 0
    powers = (plus, hund, minus)
    same_suit = [z3.And(p == q, p >= 0) for i, p in enumerate(powers) for q in powers[i + 1 :]]
    compared = seats - (1 if game.players == 2 and not rules.virtual_in_hund else 0)
    tricks = len(colours) * len(values) // seats
    assertions = [
        *[Tracked("HUND-GAP-1", z3.And(n >= 0, n <= len(values))) for n in counts.values()],
        Tracked("HUND-COLLECT-1", z3.Sum(list(counts.values())) == seats * k),
        Tracked("HUND-PLAY-1", k >= 0),
        Tracked("HUND-GAP-2", k <= tricks),
        Tracked(
            "HUND-OPT-2" if rules.sets else "HUND-DESIG-2",
            z3.And(*[z3.And(p >= lowest, p < len(colours)) for p in powers]),
        ),
        Tracked("HUND-FACT-3", z3.Implies(award, hund >= 0)),
        Tracked(
            "HUND-FACT-2",
            score == suit_count(plus) - suit_count(minus) + z3.If(award, 3, 0),
        ),
    ]
    if not repeat:
        clause = "HUND-D-SETREPEAT" if rules.sets else "HUND-DESIG-2"
        assertions.append(Tracked(clause, z3.Not(z3.Or(*same_suit))))
    if rules.hund_tie_excludes:
        assertions.append(Tracked("HUND-D-HUNDTIE", z3.Implies(award, suit_count(hund) >= 1)))
        if compared < 3:
            assertions.append(Tracked("HUND-D-VIRTUALHUND", z3.Not(award)))
    return Relaxation(assertions, score)


RELAXATIONS: Mapping[str, Callable[[Game], Relaxation]] = {
    "sticheln-1993": sticheln_relaxation,
    "sticheln": sticheln_relaxation,
    "lowhigh": lowhigh_relaxation,
    "the-last": last_relaxation,
    "hund": hund_relaxation,
}
"""Ruleset id -> its relaxation of a round."""


# --- every real round is a solution of its relaxation ---------------------------------------


def _tricks_won(log: RoundLog, seat: int) -> int:
    return sum(
        1
        for leader, result in log.tricks
        if result.winner is not None and seat_after(log.seating, leader, result.winner) == seat
    )


def round_values(game: Game, log: RoundLog, seat: int) -> dict[str, int | bool]:
    """The values a finished round gives the relaxation's variables for ``seat`` (by
    variable name), the score included. The relaxation is sound on that round exactly
    when it admits them (:func:`relaxation_admits`)."""
    rid = game.ruleset.id
    taken = log.taken(game.seats)[seat]
    out: dict[str, int | bool] = {"score": log.scores[seat], "tricks_won": _tricks_won(log, seat)}
    colours, values = deck_shape(game.ruleset, game)
    if rid in STICHELN_CLAUSES:
        pick = game.ruleset.palette.parse(dict(log.facts)["picked"][seat])
        misery = {value_of(c) for c in taken if colour_of(c) == colour_of(pick)}
        out |= {f"pick_{v}": v == value_of(pick) for v in values}
        out |= {f"take_{v}": v in misery for v in values}
        out |= {"others_taken": len(taken) - len(misery), "plus": len(taken) - len(misery)}
        out["minus"] = sum(misery)
    elif rid == "lowhigh":
        out |= _lowhigh_receipts(log, seat) | _lowhigh_points(taken, colours)
        for c in colours:
            own = sorted((value_of(x) for x in taken if colour_of(x) == c), reverse=True)
            out[f"count_{c}"] = len(own)
            if len(own) <= 2:
                out[f"high_{c}"] = own[0] if own else 0
                out[f"low_{c}"] = own[1] if len(own) == 2 else 0
    elif rid == "the-last":
        downs, unused = last_rules.face_down(game, log)
        out |= {f"down_{v}": sum(1 for c in downs[seat] if value_of(c) == v) for v in range(1, 13)}
        out["unused_points"] = unused[seat]
    elif rid == "hund":
        holders = [game.ruleset.palette.letters.index(x) for x in dict(log.facts)["powers"]]
        plus, hund, minus = (
            holders[power] if power < len(holders) else -1
            for power in (hund_rules.PLUS, hund_rules.HUND, hund_rules.MINUS)
        )
        out |= {f"count_{c}": sum(1 for x in taken if colour_of(x) == c) for c in colours}
        out |= {"plus": plus, "hund": hund, "minus": minus}
        gained = sum(1 for c in taken if colour_of(c) == plus)
        lost = sum(1 for c in taken if colour_of(c) == minus)
        out["hund_award"] = log.scores[seat] - gained + lost == 3
    return out


def _lowhigh_receipts(log: RoundLog, seat: int) -> dict[str, int | bool]:
    """How many tricks gave ``seat`` the highest card only, the rest, or everything."""
    low = high = whole = 0
    for leader, result in log.tricks:
        got = [
            c for o, cs in result.taken if seat_after(log.seating, leader, o) == seat for c in cs
        ]
        if not got:
            continue
        if result.winner is None or seat_after(log.seating, leader, result.winner) != seat:
            low += 1
        elif len(got) == len(result.cards):
            whole += 1
        else:
            high += 1
    return {"low_tricks": low, "high_tricks": high, "whole_tricks": whole}


def _lowhigh_points(taken: Sequence[Card], colours: Sequence[int]) -> dict[str, int | bool]:
    out: dict[str, int | bool] = {}
    for c in colours:
        mine = [value_of(x) for x in taken if colour_of(x) == c]
        out[f"points_{c}"] = sum(mine) if len(mine) <= 2 else len(mine)
    return out


def relaxation_admits(
    game: Game,
    log: RoundLog,
    seat: int,
    timeout_ms: int = 5000,
    values: Mapping[str, int | bool] | None = None,
) -> bool:
    """Whether the relaxation of ``game`` has the finished round ``log`` (for ``seat``) as
    a solution: :func:`round_values` (or the given ``values``) added as equalities must
    be satisfiable."""
    relax = RELAXATIONS[game.ruleset.id](game)
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    for item in relax.assertions:
        solver.add(item.formula)
    given = round_values(game, log, seat) if values is None else values
    for name, value in given.items():
        if isinstance(value, bool):
            solver.add(z3.Bool(name) == value)
        else:
            solver.add(z3.Int(name) == value)
    return bool(solver.check() == z3.sat)


# --- the obligations ---------------------------------------------------------------------


def find_witness(game: Game, maximize: bool, hint: Mapping[str, Any]) -> Witness | None:
    """The constructed witness of ``game``'s ruleset for the greatest (or least) score,
    replayed through the model; None when no plan could be built or played."""
    rid = game.ruleset.id
    plan: Plan | None
    if rid in ("sticheln", "sticheln-1993"):
        plan = sticheln_plan(game, hint) if hint else None
    elif rid == "lowhigh":
        plan = lowhigh_plan(game, maximize)
    elif rid == "the-last":
        plan = last_plan(game, maximize)
    elif rid == "hund":
        plan = hund_plan(game, maximize)
    else:
        plan = None
    if plan is None:
        return None
    try:
        return drive(game, plan)
    except (TricklawError, KeyError, IndexError):
        return None


def bound_result(
    ruleset_id: str,
    players: int,
    maximize: bool,
    timeout_ms: int,
    options: Mapping[str, str] | None = None,
) -> Result:
    """The ``score-max`` (or ``score-min``) obligation of one ruleset and player count
    under the reading ``options`` (the defaults where not given)."""
    start = time.perf_counter()
    reading = tuple(sorted((options or {}).items()))
    game = witness_game(ruleset_id, players, dict(reading))
    bound = prove_bound(RELAXATIONS[ruleset_id](game), maximize, timeout_ms)
    witness = find_witness(game, maximize, bound.hint)
    seconds = time.perf_counter() - start
    name, word = (MAX, "greatest") if maximize else (MIN, "least")
    data = witness_json(game, witness) if witness is not None else {}
    best = "no witness" if witness is None else f"best witness {witness.score}"
    if bound.status != PROVED or bound.value is None:
        status, detail = UNKNOWN, f"bound not proved ({bound.detail}); {best}"
    elif witness is None:
        status, detail = UNKNOWN, f"proved bound {bound.value}, {best}"
    elif (witness.score > bound.value) if maximize else (witness.score < bound.value):
        status = COUNTEREXAMPLE
        detail = f"witness {witness.score} beyond proved bound {bound.value}: unsound relaxation"
    elif witness.score == bound.value:
        status = PROVED
        detail = (
            f"{word} round score of seat 0 is {bound.value}: bound proved, witness replays to it"
        )
    else:
        status, detail = UNKNOWN, f"proved bound {bound.value}, {best}"
    if bound.value is not None:
        data = {**data, "bound": bound.value}
    return Result(
        name,
        ruleset_id,
        str(players),
        label(reading),
        status,
        seconds,
        bound.clauses,
        detail,
        data,
    )


def bounds_results(
    ruleset: Ruleset[Any] | str,
    players: int,
    timeout_ms: int = 5000,
    fixed: Mapping[str, str] | None = None,
) -> list[Result]:
    """The ``score-max`` and ``score-min`` results of ``ruleset`` at ``players``, seat 0,
    under every reading of :func:`~tricklaw.proofs.bound_readings.readings` that has the
    ``fixed`` option values (see the module docstring)."""
    rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    return [
        bound_result(rs.id, players, maximize, timeout_ms, dict(reading))
        for reading in readings(rs, players)
        if agrees(rs, reading, players, fixed or {})
        for maximize in (True, False)
    ]


def all_bounds_results(timeout_ms: int = 5000) -> list[Result]:
    """:func:`bounds_results` for every ruleset and player count."""
    from tricklaw.model.rulesets import RULESETS

    return [
        result
        for rid, ruleset in RULESETS.items()
        for players in ruleset.player_counts
        for result in bounds_results(rid, players, timeout_ms)
    ]


def bound_cells(results: Sequence[Result]) -> dict[tuple[str, str, str], dict[str, str]]:
    """The score bounds among ``results`` as table cells: (ruleset, players, reading) ->
    obligation -> the bound where proved, else the status and its details."""
    rows: dict[tuple[str, str, str], dict[str, str]] = {}
    for r in results:
        if r.obligation in {MAX, MIN}:
            shown = f"{r.witness['score']}" if r.status == PROVED else f"{r.status}: {r.detail}"
            rows.setdefault((r.ruleset, r.players, r.reading), {})[r.obligation] = shown
    return rows
