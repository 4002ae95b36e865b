"""Score bounds: the least and the greatest score one player can make in a round.

For each ruleset and player count, with the default options, and for seat 0,
two obligations: ``score-max`` (no round gives seat 0 more than ``B``) and
``score-min`` (no round gives seat 0 less than ``B``). Each is settled in two
independent halves:

1. **The bound, proved by Z3** over a sound *relaxation* of the round: a
   small set of integer and Boolean variables saying which cards end up
   counting for the player (picked, taken, laid face down), constrained only
   by facts every real round satisfies, each stated as a tracked assertion
   named by the clause it comes from. Every real round is a solution of the
   relaxation, so the relaxation's optimum (``z3.Optimize``) bounds the real
   one; the bound ``B`` is then proved on its own by checking that
   "score > B" (or "< B") is unsatisfiable, and the unsat core names the
   clauses the proof rests on. The relaxations are described, constraint by
   constraint, in :func:`sticheln_relaxation`, :func:`lowhigh_relaxation`,
   :func:`last_relaxation` and :func:`hund_relaxation`.

2. **A witness**: a concrete deal and a sequence of legal actions that the
   Python model replays (:func:`replay_witness`) to a score for seat 0. The
   witnesses are built constructively from a *plan* (which seat plays which
   card in which trick), designed from the relaxation's optimum and the
   rules: mono-colour tricks that every player may follow, a few mixed
   tricks where voids are needed, trick orders that give the lead to the
   right player. Each trick of a plan is laid out (which seat plays which of
   its cards) by asking the model's own trick judge, and the whole plan is
   replayed through the model with every action's legality checked; only the
   replayed score counts. (The Sticheln plans realise the composition of the
   relaxation's optimum; the other plans come from the rules alone, so they
   would also expose a relaxation that cut off real rounds. Soundness itself is
   checked separately: :func:`relaxation_admits` confirms that a finished
   round of the model, its score included, is a solution of the relaxation.)

A result is ``proved`` when the witness reaches the proved bound (the bound
is tight, and is therefore the exact least / greatest score), and ``unknown``
with the detail "proved bound B, best witness W" when it does not. A witness
beyond the proved bound would mean the relaxation is unsound: that is reported
as a ``counterexample``.

(A Z3 search over a whole round with cooperative play, every card and play
free, was tried for the witnesses; it did not answer within 30 s even for
three players of Sticheln, so the witnesses are constructed instead.)
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from tricklaw.errors import TricklawError
from tricklaw.model import actions
from tricklaw.model.cards import Card, colour_of, make_card, value_of
from tricklaw.model.options import OptionValue
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.rulesets import hund as hund_rules
from tricklaw.model.rulesets import the_last as last_rules
from tricklaw.model.state import Deal, Game, Phase, RoundLog, State, seat_after
from tricklaw.model.trick import TrickResult
from tricklaw.proofs.obligations import Result
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED, UNKNOWN, Tracked, check, optimum

HAND = 15
"""Cards in a Sticheln hand (STI93-DEAL-2, STI-DEAL-1)."""
SEAT = 0
"""The seat whose score is bounded (every relaxation below is blind to seat numbers, so
its bounds hold for every player)."""
WITNESS_SEED = 0
"""The seed that deals the rounds after the witness round (Hund always plays five)."""
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
    """The relaxation's optimum ``B`` (``z3.Optimize``), then the proof that no solution
    scores beyond it ("score > B" / "score < B" unsat), whose core gives the clauses."""
    start = time.perf_counter()
    status, value, model = optimum(relax.assertions, relax.score, maximize, timeout_ms)
    if status != PROVED or value is None or model is None:
        return Bound(UNKNOWN, None, (), time.perf_counter() - start, detail="no optimum in time")
    hint = relax.decode(model)
    beyond = relax.score > value if maximize else relax.score < value
    word = "more" if maximize else "less"
    out = check([*relax.assertions, Tracked(f"claim:no-score-{word}", beyond)], timeout_ms)
    seconds = time.perf_counter() - start
    clauses = tuple(c for c in out.clauses if not c.startswith("claim:"))
    if out.status != PROVED:
        return Bound(UNKNOWN, value, clauses, seconds, hint, f"optimum {value} not re-proved")
    return Bound(PROVED, value, clauses, seconds, hint)


def _count(flags: Sequence[Any]) -> Any:
    return z3.Sum([z3.If(f, 1, 0) for f in flags])


def _deck_shape(ruleset: Ruleset[Any], game: Game) -> tuple[list[int], list[int]]:
    deck = ruleset.deck(game.players, game.options)
    return sorted({colour_of(c) for c in deck}), sorted({value_of(c) for c in deck})


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
    """
    ids = STICHELN_CLAUSES[game.ruleset.id]
    colours, values = _deck_shape(game.ruleset, game)
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

    return Relaxation(assertions, score, decode)


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
      (LH-ROUND-1);
    * score: a colour with one or two cards scores their values (LH-SCORE-2),
      with three or more one point a card (LH-SCORE-3); the round score is the
      sum over the colours (LH-SCORE-1, LH-SCORE-4).
    """
    colours, values = _deck_shape(game.ruleset, game)
    top = max(values)
    n = game.players
    x, y, z_, score = z3.Ints("low_tricks high_tricks whole_tricks score")
    assertions = [
        Tracked("LH-TRICK-4", x >= 0),
        Tracked("LH-TRICK-5", y >= 0),
        Tracked("LH-D-SAMECARD", z_ >= 0),
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
      card either way); the points cards never turned up stay in the pile and
      score for nobody (``unused-points=stay``, LAST-D-UNUSED): the face-down
      cards number ``t`` plus none of those;
    * penalty (LAST-SCORE-1): the sum of the face-down values.
    """
    hand = last_rules.HAND_SIZE[game.players]
    deal_clause = "LAST-GHOST-1" if game.players == 2 else "LAST-DEAL-1"
    down = {v: z3.Int(f"down_{v}") for v in range(1, 13)}
    won, unused, score = z3.Ints("tricks_won unused_points score")
    assertions = [
        *[Tracked("LAST-DECK-1", z3.And(d >= 0, d <= 4)) for d in down.values()],
        Tracked(deal_clause, z3.And(won >= 0, won <= hand)),
        Tracked("LAST-D-UNUSED", unused == 0),
        Tracked("LAST-COLLECT-1", z3.Sum(list(down.values())) == won + unused),
        Tracked("LAST-SCORE-1", score == z3.Sum([v * d for v, d in down.items()])),
    ]
    return Relaxation(assertions, score)


def hund_relaxation(game: Game) -> Relaxation:
    """Hund: which cards a player can have taken, and what they score.

    One Boolean ``take_c`` per card (five suits of values 1..S, HUND-FACT-1,
    HUND-GAP-1). Constraints:

    * every seat plays one card to each trick and the winner gathers them all
      (HUND-PLAY-1, HUND-COLLECT-1); all cards are dealt, ``10`` a hand
      (HUND-GAP-2): the cards taken are ``s k`` for ``k <= 10`` tricks won, ``s``
      the seats (the virtual player included, HUND-TWO-1);
    * the designated number exists once in each suit, and each card of it
      hands its suit the next effect (HUND-DESIG-1, HUND-DESIG-2): the Plus,
      Hund and Minus suits are three different suits;
    * score: +1 a Plus card, -1 a Minus card (HUND-FACT-2), and 3 for the Hund
      award (HUND-FACT-3), which needs a count above the fewest, so at least
      one Hund card.
    """
    colours, values = _deck_shape(game.ruleset, game)
    seats = game.seats
    take = {(c, v): z3.Bool(f"take_{c}_{v}") for c in colours for v in values}
    plus, hund, minus, k, score = z3.Ints("plus hund minus tricks_won score")
    award = z3.Bool("hund_award")

    def suit_count(suit: Any) -> Any:
        return z3.Sum([z3.If(z3.And(f, suit == c), 1, 0) for (c, _), f in take.items()])

    tricks = len(colours) * len(values) // seats
    assertions = [
        Tracked("HUND-COLLECT-1", _count(list(take.values())) == seats * k),
        Tracked("HUND-PLAY-1", k >= 0),
        Tracked("HUND-GAP-2", k <= tricks),
        Tracked(
            "HUND-DESIG-2",
            z3.And(
                *[z3.And(p >= 0, p < len(colours)) for p in (plus, hund, minus)],
                z3.Distinct(plus, hund, minus),
            ),
        ),
        Tracked("HUND-FACT-3", z3.Implies(award, suit_count(hund) >= 1)),
        Tracked(
            "HUND-FACT-2",
            score == suit_count(plus) - suit_count(minus) + z3.If(award, 3, 0),
        ),
    ]
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


def _taken_from_log(game: Game, log: RoundLog) -> list[list[Card]]:
    """Each seat's cards taken in tricks, from the log's trick results."""
    taken: list[list[Card]] = [[] for _ in range(game.seats)]
    for leader, result in log.tricks:
        for offset, cards in result.taken:
            taken[seat_after(log.seating, leader, offset)].extend(cards)
    return taken


def _tricks_won(log: RoundLog, seat: int) -> int:
    return sum(
        1
        for leader, result in log.tricks
        if result.winner is not None and seat_after(log.seating, leader, result.winner) == seat
    )


def _last_face_down(game: Game, log: RoundLog) -> list[list[Card]]:
    """Each seat's face-down cards in The Last, from the log: the points pile as dealt,
    each trick's taker and his keep / swap decisions in order (as the model's recount)."""
    points = list(log.deal.pile("points"))
    decisions = [
        a
        for _, a in log.actions
        if actions.kind_of(a) in {actions.ActionKind.KEEP, actions.ActionKind.SWAP}
    ]
    down: list[list[Card]] = [[] for _ in range(game.seats)]
    for leader, result in log.tricks:
        assert result.winner is not None, "every trick of The Last has a taker"
        taker = seat_after(log.seating, leader, result.winner)
        card = points.pop(0)
        if game.players == 2 and taker == last_rules.GHOST:
            down[taker].append(card)
            continue
        action = decisions.pop(0)
        down[taker].append(card if action == actions.KEEP else actions.card_of(action))
    return down


def round_values(game: Game, log: RoundLog, seat: int) -> dict[str, int | bool]:
    """The values a finished round gives the relaxation's variables for ``seat`` (by
    variable name), the score included. The relaxation is sound on that round exactly
    when it admits them (:func:`relaxation_admits`)."""
    rid = game.ruleset.id
    taken = _taken_from_log(game, log)[seat]
    out: dict[str, int | bool] = {"score": log.scores[seat], "tricks_won": _tricks_won(log, seat)}
    colours, values = _deck_shape(game.ruleset, game)
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
        down = _last_face_down(game, log)[seat]
        out |= {f"down_{v}": sum(1 for c in down if value_of(c) == v) for v in range(1, 13)}
        out["unused_points"] = 0
    elif rid == "hund":
        holders = [game.ruleset.palette.letters.index(x) for x in dict(log.facts)["powers"]]
        plus, hund, minus = (
            holders[hund_rules.PLUS],
            holders[hund_rules.HUND],
            holders[hund_rules.MINUS],
        )
        out |= {f"take_{c}_{v}": make_card(c, v) in taken for c in colours for v in values}
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


# --- witnesses: deals and actions the model replays -----------------------------------------


ROUND_OPTIONS: Mapping[str, Mapping[str, OptionValue]] = {
    "sticheln-1993": {"rounds": 1},
    "sticheln": {"rounds": 1},
    "lowhigh": {"rounds": 1},
    "the-last": {"rounds": 1},
    "hund": {},
}
"""The options a witness is replayed under: the defaults, with a single round where the
ruleset has a ``rounds`` option (Hund always plays five: its witness is the first)."""


def witness_game(ruleset_id: str, players: int) -> Game:
    """The game a witness of ``ruleset_id`` is played in (see :data:`ROUND_OPTIONS`)."""
    return get_ruleset(ruleset_id).make_game(players, dict(ROUND_OPTIONS[ruleset_id]))


@dataclass
class Plan:
    """A round to play: the deal, which card each seat plays in each trick (in trick
    order, seat -> card), each seat's pick (Sticheln) and the taker's choices (The Last:
    trick index -> action; KEEP when not given)."""

    deal: Deal
    tricks: list[dict[int, Card]]
    picks: dict[int, Card] = field(default_factory=dict)
    choices: dict[int, int] = field(default_factory=dict)


@dataclass
class Witness:
    """A deal and the actions of its first round, with the score the model gives them."""

    deal: Deal
    actions: tuple[tuple[int, int], ...]
    score: int
    scores: tuple[int, ...]


def drive(game: Game, plan: Plan) -> Witness:
    """Play ``plan``'s first round through the model, every action checked for legality
    (raises :class:`~tricklaw.errors.TricklawError` or ``KeyError`` if the plan is not
    playable); the replayed scores."""
    state: State[Any] = game.new_state_from_deals([plan.deal], WITNESS_SEED)
    done: list[tuple[int, int]] = []
    while not state.history:
        seat = state.current_player()
        if state.phase is Phase.SELECT:
            action = actions.select(plan.picks[seat])
        elif state.phase is Phase.CHOOSE:
            action = plan.choices.get(len(state.tricks) - 1, actions.KEEP)
        else:
            action = actions.play(plan.tricks[len(state.tricks)][seat])
        state = state.apply_action(action)
        done.append((seat, action))
    scores = state.history[0].scores
    return Witness(plan.deal, tuple(done), scores[SEAT], scores)


def deal_json(deal: Deal, ruleset: Ruleset[Any]) -> dict[str, Any]:
    """``deal`` in notation (the record's deal format)."""
    fmt = ruleset.palette.format_all
    out: dict[str, Any] = {
        "hands": [fmt(h) for h in deal.hands],
        "piles": {name: fmt(cards) for name, cards in deal.piles},
    }
    if deal.first_leader is not None:
        out["first_leader"] = deal.first_leader
    if deal.extras:
        out["extras"] = dict(deal.extras)
    return out


def deal_from_json(raw: Mapping[str, Any], ruleset: Ruleset[Any]) -> Deal:
    """The deal :func:`deal_json` wrote."""
    parse = ruleset.palette.parse_all
    return Deal(
        tuple(tuple(parse(h)) for h in raw["hands"]),
        tuple((k, tuple(parse(v))) for k, v in raw.get("piles", {}).items()),
        raw.get("first_leader"),
        tuple((k, int(v)) for k, v in raw.get("extras", {}).items()),
    )


def witness_json(game: Game, witness: Witness) -> dict[str, Any]:
    """A witness as JSON-ready data: options, seed, deal, actions (notation), scores."""
    ruleset = game.ruleset
    return {
        "options": dict(ROUND_OPTIONS[ruleset.id]),
        "seed": WITNESS_SEED,
        "deal": deal_json(witness.deal, ruleset),
        "actions": [
            {"seat": s, "action": actions.action_to_string(a, ruleset.palette)}
            for s, a in witness.actions
        ],
        "score": witness.score,
        "scores": list(witness.scores),
    }


def replay_witness(ruleset_id: str, players: int, witness: Mapping[str, Any]) -> int:
    """Replay a witness (as :func:`witness_json` writes it) through the model, checking
    each action's seat and legality; seat 0's score in the finished first round."""
    ruleset = get_ruleset(ruleset_id)
    game = ruleset.make_game(players, dict(witness.get("options", {})))
    deal = deal_from_json(witness["deal"], ruleset)
    state: State[Any] = game.new_state_from_deals([deal], witness.get("seed"))
    for entry in witness["actions"]:
        if state.history:
            raise TricklawError("the witness has actions after its round is over")
        if entry["seat"] != state.current_player():
            raise TricklawError(f"seat {entry['seat']} acts on seat {state.current}'s turn")
        state = state.apply_action(actions.string_to_action(entry["action"], ruleset.palette))
    if not state.history:
        raise TricklawError("the witness's actions do not finish the round")
    score: int = state.history[0].scores[SEAT]
    return score


# --- laying out tricks with the model's own judge ------------------------------------------

Judge = Callable[[tuple[Card, ...]], TrickResult]
Accept = Callable[[int | None, Mapping[int, tuple[Card, ...]]], bool]
"""Whether a trick outcome is wanted: (winning seat or None, cards each seat takes)."""


def arrange(
    judge: Judge,
    cards: Sequence[Card],
    *,
    leader: int,
    seats: int,
    accept: Accept,
    pins: Mapping[int, Card] | None = None,
) -> tuple[dict[int, Card], int | None] | None:
    """A way to play ``cards`` as one trick led by ``leader`` (seat -> card, seats
    clockwise 0, 1, 2, ...) whose outcome by ``judge`` is accepted, with ``pins`` (seat ->
    card) respected; with the winning seat. None when no order of the cards works."""
    fixed = dict(pins or {})
    order = [(leader + i) % seats for i in range(seats)]
    for perm in itertools.permutations(sorted(cards)):
        if any(fixed.get(seat, card) != card for seat, card in zip(order, perm, strict=True)):
            continue
        result = judge(perm)
        winner = None if result.winner is None else order[result.winner]
        taken = {order[offset]: got for offset, got in result.taken}
        if accept(winner, taken):
            return dict(zip(order, perm, strict=True)), winner
    return None


@dataclass
class TrickSpec:
    """One trick of a plan to lay out: its cards, what its outcome must be, pins."""

    cards: tuple[Card, ...]
    accept: Accept
    pins: dict[int, Card] = field(default_factory=dict)


def lay_out(
    judge: Judge,
    specs: Sequence[TrickSpec],
    *,
    first_leader: int,
    seats: int,
    ordered: bool,
    budget: int = 4000,
) -> list[dict[int, Card]] | None:
    """The tricks of ``specs`` laid out one after another, each led by the previous
    winner: in the given order (``ordered``), or in any order found by a depth-first
    search (at most ``budget`` layouts tried)."""
    tries = 0
    failed: set[tuple[frozenset[int], int]] = set()

    def search(left: frozenset[int], leader: int) -> list[dict[int, Card]] | None:
        nonlocal tries
        if not left:
            return []
        if (left, leader) in failed or tries > budget:
            return None
        candidates = [min(left)] if ordered else sorted(left)
        for i in candidates:
            tries += 1
            spec = specs[i]
            found = arrange(
                judge, spec.cards, leader=leader, seats=seats, accept=spec.accept, pins=spec.pins
            )
            if found is None:
                continue
            trick, winner = found
            rest = search(left - {i}, leader if winner is None else winner)
            if rest is not None:
                return [trick, *rest]
        failed.add((left, leader))
        return None

    return search(frozenset(range(len(specs))), first_leader)


def _model_judge(game: Game) -> Judge:
    def judge(cards: tuple[Card, ...]) -> TrickResult:
        return game.ruleset.judge_trick(game, cards)

    return judge


def _wins(seat: int) -> Accept:
    return lambda winner, _taken: winner == seat


def _takes_nothing(seat: int) -> Accept:
    return lambda _winner, taken: seat not in taken


def _loses(seat: int) -> Accept:
    return lambda winner, _taken: winner is not None and winner != seat


def _chunks(cards: Sequence[Card], size: int) -> tuple[list[list[Card]], list[Card]]:
    """``cards`` (kept in order) cut into full chunks of ``size``, and the rest."""
    full = len(cards) // size * size
    return [list(cards[i : i + size]) for i in range(0, full, size)], list(cards[full:])


def _by_colour_desc(cards: Sequence[Card]) -> dict[int, list[Card]]:
    out: dict[int, list[Card]] = {}
    for card in sorted(cards, key=lambda c: (colour_of(c), -value_of(c))):
        out.setdefault(colour_of(card), []).append(card)
    return out


def _first_leader(game: Game) -> int:
    state: State[Any] = game.new_initial_state(WITNESS_SEED)
    return state.first_leader


# --- Sticheln witnesses ------------------------------------------------------------------


def _sticheln_winnable(judge: Judge, cards: Sequence[Card]) -> bool:
    """Whether seat 0 can win a trick of ``cards``: leading it, or playing right after
    another seat's lead (so that it is the earliest of equal trumps, STI93-TRICK-6,
    STI-TRICK-3)."""
    pool = sorted(cards)
    for own in pool:
        rest = [c for c in pool if c != own]
        if judge((own, *rest)).winner == 0:
            return True
        for lead in rest:
            others = [c for c in rest if c != lead]
            if judge((lead, own, *others)).winner == 1:
                return True
    return False


def _pick_subsets(
    judge: Judge, pool: list[Card], required: list[Card], count: int, size: int
) -> list[list[Card]] | None:
    """``count`` disjoint tricks of ``size`` cards from ``pool`` that seat 0 can win,
    together holding every card of ``required`` (first found, in ``pool`` order)."""
    if count == 0:
        return [] if not required else None
    for combo in itertools.combinations(pool, size):
        if required and required[0] not in combo:
            continue
        if not _sticheln_winnable(judge, combo):
            continue
        rest_pool = [c for c in pool if c not in combo]
        rest_required = [c for c in required if c not in combo]
        more = _pick_subsets(judge, rest_pool, rest_required, count - 1, size)
        if more is not None:
            return [list(combo), *more]
    return None


def sticheln_plan(game: Game, hint: Mapping[str, Any]) -> Plan | None:
    """A Sticheln round realising the relaxation's optimum ``hint``: seat 0 picks the
    misery card of value ``pick``, wins tricks holding the misery cards ``taken`` and
    ``others`` cards of other colours, and loses every other trick.

    Won tricks: misery cards and each other colour cut into mono-colour tricks
    (highest first, seat 0 holding the top card); the rest, padded with zeros of
    other colours (which are never trumps) or won by a trump, form mixed tricks.
    Lost tricks: the remaining cards cut the same way, seat 0 never holding the
    winning card; the other seats pick cards left over. The trick order is searched so
    that tricks seat 0 can only win by trumping come after a lost trick."""
    n = game.players
    judge = _model_judge(game)
    colours, _ = _deck_shape(game.ruleset, game)
    misery = colours[0]
    deck = list(game.ruleset.deck(n, game.options))
    pick = make_card(misery, hint["pick"])
    misery_taken = [make_card(misery, v) for v in sorted(hint["taken"], reverse=True)]
    others = [c for c in deck if colour_of(c) != misery]
    zeros = [c for c in others if value_of(c) == 0]
    candidates = others if hint["others"] > len(zeros) else zeros
    won_chunks: list[list[Card]] = []
    pool: list[Card] = []
    for group in [misery_taken, *_by_colour_desc(candidates).values()]:
        full, rest = _chunks(group, n)
        won_chunks += full
        pool += rest
    required = [c for c in pool if colour_of(c) == misery]
    mixed = _pick_subsets(
        judge,
        sorted(pool, key=lambda c: (-value_of(c), c)),
        required,
        hint["tricks"] - len(won_chunks),
        n,
    )
    if mixed is None:
        return None
    won = won_chunks + mixed
    won_cards = {c for chunk in won for c in chunk}
    left = [c for c in deck if c != pick and c not in won_cards]
    lost_chunks: list[list[Card]] = []
    leftover: list[Card] = []
    for group in _by_colour_desc(left).values():
        full, rest = _chunks(group, n)
        lost_chunks += full
        leftover += rest
    leftover.sort(key=lambda c: (-value_of(c), c))
    for others_picks in itertools.islice(itertools.combinations(leftover, n - 1), 200):
        rest = [c for c in leftover if c not in others_picks]
        mixed_lost, spare = _chunks(rest, n)
        if spare:
            return None
        specs = [TrickSpec(tuple(chunk), _wins(SEAT)) for chunk in won]
        specs += [
            TrickSpec(tuple(chunk), _takes_nothing(SEAT)) for chunk in lost_chunks + mixed_lost
        ]
        tricks = lay_out(judge, specs, first_leader=_first_leader(game), seats=n, ordered=False)
        if tricks is None:
            continue
        picks = {SEAT: pick, **{s + 1: c for s, c in enumerate(others_picks)}}
        hands = tuple(tuple(sorted([picks[s], *[t[s] for t in tricks]])) for s in range(game.seats))
        return Plan(Deal(hands), tricks, picks)
    return None


# --- lowhigh witnesses -------------------------------------------------------------------


def lowhigh_plan(game: Game, maximize: bool) -> Plan:
    """A lowhigh round of mono-colour tricks (everyone follows the lead colour; each
    colour holds ``3n`` values, three tricks of ``n``).

    Greatest: in each colour seat 0 plays the lowest card of two tricks whose highest
    cards are the colour's top two values, so it gains exactly those two cards (LH-TRICK-4)
    and scores their sum; in the third trick it plays a middle card and gains nothing.
    Least: seat 0 plays a middle card in every trick and gains nothing."""
    n = game.players
    judge = _model_judge(game)
    specs: list[TrickSpec] = []
    for cards in _by_colour_desc(game.ruleset.deck(n, game.options)).values():
        asc = sorted(cards)
        if not maximize:
            specs += [
                TrickSpec(tuple(asc[i : i + n]), _takes_nothing(SEAT)) for i in range(0, 3 * n, n)
            ]
            continue
        top, second = asc[-1], asc[-2]
        first = (top, asc[0], *asc[2:n])
        other = (second, asc[1], *asc[n : 2 * n - 2])
        middle = tuple(c for c in asc if c not in first and c not in other)
        specs += [
            TrickSpec(first, _gains_exactly(SEAT, (top,))),
            TrickSpec(other, _gains_exactly(SEAT, (second,))),
            TrickSpec(middle, _takes_nothing(SEAT)),
        ]
    tricks = lay_out(judge, specs, first_leader=_first_leader(game), seats=n, ordered=True)
    if tricks is None:
        raise TricklawError("no layout for the lowhigh plan")
    hands = tuple(tuple(sorted(t[s] for t in tricks)) for s in range(n))
    return Plan(Deal(hands), tricks)


def _gains_exactly(seat: int, cards: tuple[Card, ...]) -> Accept:
    return lambda _winner, taken: tuple(sorted(taken.get(seat, ()))) == tuple(sorted(cards))


# --- The Last witnesses ------------------------------------------------------------------


def _compositions(total: int, parts: int, cap: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as ``parts`` numbers in ``0..cap``."""
    if parts == 1:
        if 0 <= total <= cap:
            yield (total,)
        return
    for first in range(min(total, cap) + 1):
        for rest in _compositions(total - first, parts - 1, cap):
            yield (first, *rest)


def _last_points(game: Game, maximize: bool) -> Iterator[list[Card]]:
    """Candidate points piles, top first. Greatest penalty: the ``H`` highest cards turned
    up first (which of several equal values is tried in turn), then fillers, each colour's
    highest remaining cards. Least: any numbers of cards per colour."""
    deck = list(game.ruleset.deck(game.players, game.options))
    hand = last_rules.HAND_SIZE[game.players]
    size = len(deck) - game.seats * hand
    colours = sorted({colour_of(c) for c in deck})
    if not maximize:
        for counts in _compositions(size, len(colours), 12):
            by_colour = _by_colour_desc(deck)
            yield [
                c for colour, n in zip(colours, counts, strict=True) for c in by_colour[colour][:n]
            ]
        return
    ranked = sorted(deck, key=lambda c: -value_of(c))
    edge = value_of(ranked[hand - 1])
    sure = [c for c in deck if value_of(c) > edge]
    ties = [c for c in deck if value_of(c) == edge]
    for chosen in itertools.combinations(ties, hand - len(sure)):
        turned = sure + list(chosen)
        rest = _by_colour_desc([c for c in deck if c not in turned])
        for counts in _compositions(size - hand, len(colours), 12):
            if any(
                n > len(rest.get(colour, [])) for colour, n in zip(colours, counts, strict=True)
            ):
                continue
            fill = [c for colour, n in zip(colours, counts, strict=True) for c in rest[colour][:n]]
            yield turned + fill


def last_plan(game: Game, maximize: bool) -> Plan | None:
    """A round of The Last, seat 0 leading the first trick.

    Greatest penalty: the points pile turns up the ``H`` highest cards; seat 0 wins every
    trick (holding the highest card of each mono-colour trick, so that the last card's
    colour is its own, LAST-TRICK-2/3) and keeps every points card face down. Least:
    seat 0 never holds the winning card and lays nothing down. The cards in hands are cut
    into mono-colour tricks (everyone can follow, LAST-PLAY-2/3); the few left over form
    the last trick, when every hand holds one card and any card may be played. With two
    players the ghost (seat 2) gets its pile in the order of its plays."""
    seats = game.seats
    judge = _model_judge(game)
    accept = _wins(SEAT) if maximize else _loses(SEAT)
    deck = list(game.ruleset.deck(game.players, game.options))
    for points in _last_points(game, maximize):
        played = [c for c in deck if c not in points]
        chunks: list[list[Card]] = []
        leftover: list[Card] = []
        for group in _by_colour_desc(played).values():
            full, rest = _chunks(group, seats)
            chunks += full
            leftover += rest
        if len(leftover) not in (0, seats):
            continue
        specs = [TrickSpec(tuple(c), accept) for c in chunks]
        if leftover:
            specs.append(TrickSpec(tuple(leftover), accept))
        tricks = lay_out(judge, specs, first_leader=SEAT, seats=seats, ordered=True)
        if tricks is None:
            continue
        hands = [tuple(sorted(t[s] for t in tricks)) for s in range(game.players)]
        piles: list[tuple[str, tuple[Card, ...]]] = []
        if game.players == 2:
            hands.append(())
            piles.append(("ghost", tuple(t[last_rules.GHOST] for t in tricks)))
        piles.append(("points", tuple(points)))
        return Plan(Deal(tuple(hands), tuple(piles), first_leader=SEAT), tricks)
    return None


# --- Hund witnesses ----------------------------------------------------------------------

TRUMP_SUIT, PLUS_SUIT, HUND_SUIT, MINUS_SUIT, LEAD_SUIT = range(5)
"""The suits the Hund plans give the powers (in power order: red Trump, ..., purple Lead)."""
DESIGNATION = 5
"""The designated number of the Hund witnesses' round."""


def _virtual_layout(
    plays: Sequence[Card], leads: Sequence[int | None]
) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """Columns for the virtual player (face-down row, face-up row, one face-up card on each
    face-down one, as the ten-card hand of the default game lies) under which its fixed
    rule (HUND-TWO-4..6: the leftmost face-up card of the lead suit, else the leftmost
    face-up card; a face-down card turns up once its column is bare) plays ``plays[t]``
    in trick ``t`` whose lead suit is ``leads[t]`` (None: the virtual player leads)."""
    count = len(plays)

    def pairings(left: list[int]) -> Iterator[list[tuple[int, int]]]:
        if not left:
            yield []
            return
        first = left[0]
        for other in left[1:]:
            rest = [t for t in left[1:] if t != other]
            for more in pairings(rest):
                yield [(first, other), *more]

    for pairs in pairings(list(range(count))):
        before: set[tuple[int, int]] = set()
        ok = True
        for t in range(count):
            shown = {
                col: plays[up] if up >= t else plays[down]
                for col, (up, down) in enumerate(pairs)
                if up >= t or down >= t
            }
            mine = next(col for col, (up, down) in enumerate(pairs) if t in (up, down))
            lead = leads[t]
            same = [col for col, card in shown.items() if col != mine and colour_of(card) == lead]
            if lead is None or colour_of(plays[t]) == lead:
                rivals = list(shown) if lead is None else same
            elif same:
                ok = False
                break
            else:
                rivals = list(shown)
            before |= {(mine, col) for col in rivals if col != mine}
        if not ok:
            continue
        order = _topological(len(pairs), before)
        if order is not None:
            return (
                tuple(plays[pairs[col][1]] for col in order),
                tuple(plays[pairs[col][0]] for col in order),
            )
    return None


def _topological(size: int, before: set[tuple[int, int]]) -> list[int] | None:
    order: list[int] = []
    left = set(range(size))
    while left:
        free = sorted(c for c in left if not any((o, c) in before for o in left))
        if not free:
            return None
        order.append(free[0])
        left.remove(free[0])
    return order


def hund_plan(game: Game, maximize: bool) -> Plan | None:
    """A Hund round with designated number 5 and, in order of their fives, suits red
    Trump, yellow Plus, green Hund, blue Minus, purple Lead (HUND-DESIG-1/2). Each suit
    holds ``2s`` cards for ``s`` seats: two mono-suit tricks, the first holding the five.

    Least: seat 0 wins both Minus tricks and no Plus or Hund trick: ``-2s``, and its Hund
    count 0 is the fewest (no award). Greatest: seat 0 wins both Plus tricks and no Minus
    card; seat 1 wins the first Hund trick and the second Minus trick, then leads a Hund
    card to trick 9, which seat 0 (void in Hund) trumps, taking ``s-1`` Hund cards; seat 0
    leads its lowest trump to the last trick and loses it with the last Hund card. Seat 0
    has ``s-1`` Hund cards, seat 1 at least ``s``, some seat at most 1: the award.

    With two players the virtual player (seat 2) gets columns under which its fixed rule
    plays the plan's cards (see ``_virtual_layout``) and never wins a trick."""
    seats = game.seats
    virtual = hund_rules.VIRTUAL if game.players == 2 else None
    no_virtual = () if virtual is None else (virtual,)
    values = list(game.ruleset.deck(game.players, game.options))
    top = max(value_of(c) for c in values)

    def halves(suit: int) -> tuple[list[Card], list[Card]]:
        desc = [make_card(suit, v) for v in range(top, 0, -1) if v != DESIGNATION]
        first = [make_card(suit, DESIGNATION), *desc[: seats - 1]]
        return first, sorted(c for c in desc if c not in first)

    def any_player(winner: int | None, _taken: Mapping[int, tuple[Card, ...]]) -> bool:
        return winner is not None and winner not in no_virtual

    def loses(winner: int | None, _taken: Mapping[int, tuple[Card, ...]]) -> bool:
        return winner not in (SEAT, None, *no_virtual)

    half = {suit: halves(suit) for suit in range(5)}
    if not maximize:
        rule: dict[int, Accept] = {TRUMP_SUIT: any_player, PLUS_SUIT: loses, HUND_SUIT: loses}
        rule |= {MINUS_SUIT: _wins(SEAT), LEAD_SUIT: any_player}
        specs = [TrickSpec(tuple(half[s][i]), rule[s]) for i in (0, 1) for s in range(5)]
    else:
        trumps, hunds = half[TRUMP_SUIT][1], half[HUND_SUIT][1]
        specs = [
            TrickSpec(tuple(half[TRUMP_SUIT][0]), any_player),
            TrickSpec(tuple(half[PLUS_SUIT][0]), _wins(SEAT)),
            TrickSpec(tuple(half[PLUS_SUIT][1]), _wins(SEAT)),
            TrickSpec(tuple(half[HUND_SUIT][0]), _wins(1)),
            TrickSpec(tuple(half[MINUS_SUIT][0]), loses),
            TrickSpec(tuple(half[LEAD_SUIT][0]), any_player),
            TrickSpec(tuple(half[LEAD_SUIT][1]), any_player),
            TrickSpec(tuple(half[MINUS_SUIT][1]), _wins(1)),
            TrickSpec((*hunds[1:], trumps[-1]), _wins(SEAT), {SEAT: trumps[-1]}),
            TrickSpec((*trumps[:-1], hunds[0]), loses, {SEAT: trumps[0]}),
        ]

    def judge(cards: tuple[Card, ...]) -> TrickResult:
        return hund_rules.judge(cards, TRUMP_SUIT, 0)

    tricks = lay_out(judge, specs, first_leader=SEAT, seats=seats, ordered=True)
    if tricks is None:
        return None
    hands = [tuple(sorted(t[s] for t in tricks)) for s in range(game.players)]
    piles: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    if virtual is not None:
        leaders = [SEAT]
        for trick in tricks:
            winner = judge_seat(judge, trick, leaders[-1], seats)
            leaders.append(leaders[-1] if winner is None else winner)
        plays = [t[virtual] for t in tricks]
        leads = [
            None if leaders[i] == virtual else colour_of(t[leaders[i]])
            for i, t in enumerate(tricks)
        ]
        layout = _virtual_layout(plays, leads)
        if layout is None:
            return None
        hands.append(())
        piles = (("virtual-down", layout[0]), ("virtual-up", layout[1]))
    deal = Deal(tuple(hands), piles, extras=(("designation", DESIGNATION),))
    return Plan(deal, tricks)


def judge_seat(judge: Judge, trick: Mapping[int, Card], leader: int, seats: int) -> int | None:
    """The seat that wins ``trick`` (seat -> card) led by ``leader``."""
    order = [(leader + i) % seats for i in range(seats)]
    result = judge(tuple(trick[s] for s in order))
    return None if result.winner is None else order[result.winner]


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


def bound_result(ruleset_id: str, players: int, maximize: bool, timeout_ms: int) -> Result:
    """The ``score-max`` (or ``score-min``) obligation of one ruleset and player count."""
    start = time.perf_counter()
    game = witness_game(ruleset_id, players)
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
        name, ruleset_id, str(players), "default", status, seconds, bound.clauses, detail, data
    )


def bounds_results(
    ruleset: Ruleset[Any] | str, players: int, timeout_ms: int = 5000
) -> list[Result]:
    """The ``score-max`` and ``score-min`` results of ``ruleset`` at ``players``, seat 0,
    default options (see the module docstring)."""
    rid = ruleset if isinstance(ruleset, str) else ruleset.id
    return [
        bound_result(rid, players, True, timeout_ms),
        bound_result(rid, players, False, timeout_ms),
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
