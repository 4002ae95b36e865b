"""Witnesses of the score bounds: rounds that the model replays to a score.

A :class:`Plan` says which seat plays which card in which trick of one round (and the
picks and choices a ruleset asks for); :func:`drive` plays it through the model, every
action checked for legality, and gives the replayed scores as a :class:`Witness`.
Witnesses are written to JSON (:func:`witness_json`: the options, the seed, the deal in
the record's notation, the actions and the scores) and read back and replayed by
:func:`replay_witness`, so that a witness is checked by the model alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tricklaw.model import actions
from tricklaw.model.cards import Card
from tricklaw.model.options import OptionValue
from tricklaw.model.record import deal_json, parse_deal
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Deal, Game, Phase, State
from tricklaw.spec.errors import TricklawError

SEAT = 0
"""The seat whose score is bounded (every relaxation is blind to seat numbers, so
its bounds hold for every player)."""
WITNESS_SEED = 0
"""The seed that deals the rounds after the witness round (Hund always plays five)."""


@dataclass
class Plan:
    """A round to play: the deal, which card each seat plays in each trick (in trick
    order, seat -> card), each seat's pick (Sticheln), the taker's choices (The Last:
    trick index -> action; KEEP when not given) and the decisions taken before the
    first trick, in turn (Hund's designation sets)."""

    deal: Deal
    tricks: list[dict[int, Card]]
    picks: dict[int, Card] = field(default_factory=dict)
    choices: dict[int, int] = field(default_factory=dict)
    opening: tuple[int, ...] = ()


@dataclass
class Witness:
    """A deal and the actions of its first round, with the score the model gives them."""

    deal: Deal
    actions: tuple[tuple[int, int], ...]
    score: int
    scores: tuple[int, ...]


def drive(game: Game, plan: Plan) -> Witness:
    """Play ``plan``'s first round through the model, every action checked for legality
    (raises :class:`~tricklaw.spec.errors.TricklawError` or ``KeyError`` if the plan is not
    playable); the replayed scores."""
    state: State[Any] = game.new_state_from_deals([plan.deal], WITNESS_SEED)
    done: list[tuple[int, int]] = []
    opening = list(plan.opening)
    while not state.history:
        seat = state.current_player()
        if state.phase is Phase.SELECT:
            action = actions.select(plan.picks[seat])
        elif state.phase is Phase.CHOOSE and not state.tricks:
            action = opening.pop(0)
        elif state.phase is Phase.CHOOSE:
            action = plan.choices.get(len(state.tricks) - 1, actions.KEEP)
        else:
            action = actions.play(plan.tricks[len(state.tricks)][seat])
        state = state.child(action)
        done.append((seat, action))
    scores = state.history[0].scores
    return Witness(plan.deal, tuple(done), scores[SEAT], scores)


def first_leader(game: Game) -> int:
    """The seat that leads the witness round of ``game`` (dealt from :data:`WITNESS_SEED`)."""
    state: State[Any] = game.new_initial_state(WITNESS_SEED)
    return state.first_leader


def chosen_options(game: Game) -> dict[str, OptionValue]:
    """The options of ``game`` that differ from their defaults."""
    defaults = {s.name: s.default for s in game.ruleset.option_specs}
    return {k: v for k, v in game.options.items if v != defaults[k]}


def witness_json(game: Game, witness: Witness) -> dict[str, Any]:
    """A witness as JSON-ready data: options, seed, deal (the record's notation,
    ``tricklaw.model.record.deal_json``), actions (notation), scores."""
    palette = game.ruleset.palette
    return {
        "options": chosen_options(game),
        "seed": WITNESS_SEED,
        "deal": deal_json(witness.deal, palette),
        "actions": [
            {"seat": s, "action": actions.action_to_string(a, palette)} for s, a in witness.actions
        ],
        "score": witness.score,
        "scores": list(witness.scores),
    }


def replay_witness(ruleset_id: str, players: int, witness: Mapping[str, Any]) -> int:
    """Replay a witness (as :func:`witness_json` writes it) through the model, checking
    each action's seat and legality; seat 0's score in the finished first round."""
    ruleset = get_ruleset(ruleset_id)
    game = ruleset.make_game(players, dict(witness.get("options", {})))
    deal = parse_deal(dict(witness["deal"]), ruleset.palette, "the witness's deal")
    state: State[Any] = game.new_state_from_deals([deal], witness.get("seed"))
    for entry in witness["actions"]:
        if state.history:
            raise TricklawError("the witness has actions after its round is over")
        if entry["seat"] != state.current_player():
            raise TricklawError(f"seat {entry['seat']} acts on seat {state.current}'s turn")
        state = state.child(actions.string_to_action(entry["action"], ruleset.palette))
    if not state.history:
        raise TricklawError("the witness's actions do not finish the round")
    score: int = state.history[0].scores[SEAT]
    return score
