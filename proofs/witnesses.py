"""Witnesses of the score bounds: deals and actions that the model replays.

A :class:`Plan` says which seat plays which card in which trick of one round (and
the picks and choices a ruleset asks for); :func:`drive` plays it through the
model, every action checked for legality, and gives the replayed scores as a
:class:`Witness`. Witnesses are written to and read from JSON
(:func:`witness_json`, :func:`replay_witness`).

Plans are laid out trick by trick by :func:`lay_out`, which asks the model's own
trick judge which seat wins a given order of cards (:func:`arrange`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tricklaw.errors import TricklawError
from tricklaw.model import actions
from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.model.options import OptionValue
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Deal, Game, Phase, State
from tricklaw.model.trick import TrickResult

SEAT = 0
"""The seat whose score is bounded (every relaxation is blind to seat numbers, so
its bounds hold for every player)."""
WITNESS_SEED = 0
"""The seed that deals the rounds after the witness round (Hund always plays five)."""

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


def deck_shape(ruleset: Ruleset[Any], game: Game) -> tuple[list[int], list[int]]:
    deck = ruleset.deck(game.players, game.options)
    return sorted({colour_of(c) for c in deck}), sorted({value_of(c) for c in deck})


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


def model_judge(game: Game) -> Judge:
    def judge(cards: tuple[Card, ...]) -> TrickResult:
        return game.ruleset.judge_trick(game, cards)

    return judge


def wins(seat: int) -> Accept:
    return lambda winner, _taken: winner == seat


def takes_nothing(seat: int) -> Accept:
    return lambda _winner, taken: seat not in taken


def loses(seat: int) -> Accept:
    return lambda winner, _taken: winner is not None and winner != seat


def chunks(cards: Sequence[Card], size: int) -> tuple[list[list[Card]], list[Card]]:
    """``cards`` (kept in order) cut into full chunks of ``size``, and the rest."""
    full = len(cards) // size * size
    return [list(cards[i : i + size]) for i in range(0, full, size)], list(cards[full:])


def by_colour_desc(cards: Sequence[Card]) -> dict[int, list[Card]]:
    out: dict[int, list[Card]] = {}
    for card in sorted(cards, key=lambda c: (colour_of(c), -value_of(c))):
        out.setdefault(colour_of(card), []).append(card)
    return out


def first_leader(game: Game) -> int:
    state: State[Any] = game.new_initial_state(WITNESS_SEED)
    return state.first_leader


def judge_seat(judge: Judge, trick: Mapping[int, Card], leader: int, seats: int) -> int | None:
    """The seat that wins ``trick`` (seat -> card) led by ``leader``."""
    order = [(leader + i) % seats for i in range(seats)]
    result = judge(tuple(trick[s] for s in order))
    return None if result.winner is None else order[result.winner]
