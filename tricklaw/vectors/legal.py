"""The ``legal`` vectors: positions of seeded games under every reading of what may be
played (the game's profile names them), with the playable cards and the clause that
forbids the others. One position is kept per class of hand and trick (:func:`legal_cases`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from tricklaw.model import actions
from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.model.rng import agent_rng
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game, Phase, State
from tricklaw.spec.errors import IllegalActionError
from tricklaw.vectors.cases import Cases, Json, VectorError, fmt
from tricklaw.vectors.profiles import profile_of

LEGAL_GAMES = 16
"""Seeded games (round 0) per reading whose positions the legal-move cases sample."""


def positions(game: Game) -> Iterator[State[Any]]:
    """Every play decision of round 0 of the seeded random games of ``game``."""
    for seed in range(1, LEGAL_GAMES + 1):
        state = game.new_initial_state(seed)
        draw = agent_rng(seed).below
        while not state.is_terminal() and state.round_index == 0:
            legal = state.legal_actions()
            if state.phase is Phase.PLAY:
                yield state
            state = state.apply_legal_action(legal[draw(len(legal))])


def forbidden_by(state: State[Any], hand: Sequence[Card], playable: Sequence[Card]) -> str | None:
    """The clause the model names when the first unplayable card of ``hand`` is played."""
    for card in hand:
        if card not in playable:
            try:
                state.child(actions.play(card))
            except IllegalActionError as exc:
                return exc.clause
            raise VectorError(f"the model lets {card} be played, yet it is not playable")
    return None


def _position_class(
    game: Game, hand: Sequence[Card], trick: Sequence[Card], playable: Sequence[Card]
) -> tuple[bool, ...]:
    """What distinguishes a position: the trick's place, how much of the hand may be
    played, and whether the hand holds the lead colour, other colours, off-colour zeros
    and colours already played."""
    lead = colour_of(trick[0]) if trick else -1
    played = {colour_of(c) for c in trick}
    return (
        len(trick) == 0,
        len(trick) == game.seats - 1,
        len(playable) == len(hand),
        len(playable) == 1,
        len(hand) == 1,
        any(colour_of(c) == lead for c in hand),
        any(colour_of(c) != lead and value_of(c) != 0 for c in hand),
        any(colour_of(c) != lead and value_of(c) == 0 for c in hand),
        any(colour_of(c) in played for c in hand),
    )


def legal_cases(ruleset: Ruleset[Any]) -> list[Json]:
    """The cases of ``<ruleset>.legal.json``: one position per class and forbidding
    clause, at every player count and reading of what may be played."""
    profile = profile_of(ruleset)
    cases = Cases.of(ruleset, "legal")
    for players in ruleset.player_counts:
        for variant in profile.legal_variants:
            game = ruleset.make_game(players, variant)
            kept: set[tuple[Any, ...]] = set()
            for state in positions(game):
                hand = state.hands[state.current]
                trick = state.trick
                playable = tuple(actions.card_of(a) for a in state.legal_actions())
                forbidden = forbidden_by(state, hand, playable)
                sig = (*_position_class(game, hand, trick, playable), forbidden)
                if sig in kept:
                    continue
                kept.add(sig)
                clauses = profile.legal_clauses(game, trick)
                cases.add(
                    game,
                    {"hand": fmt(ruleset, hand), "trick": fmt(ruleset, trick)},
                    {"playable": fmt(ruleset, playable), "forbidden_by": forbidden},
                    [*clauses, *([forbidden] if forbidden else [])],
                )
    return cases.items


def run_legal(game: Game, inputs: Mapping[str, Any]) -> Json:
    """A legal-move case's outputs, from the ruleset's ``playable`` for hand and trick."""
    ruleset = game.ruleset
    hand = tuple(ruleset.palette.parse_all(inputs["hand"]))
    trick = tuple(ruleset.palette.parse_all(inputs["trick"]))
    playable = ruleset.playable(game, hand, trick)
    forbidden = (
        None if len(playable) == len(hand) else profile_of(ruleset).forbidding_clause(game, trick)
    )
    return {"playable": fmt(ruleset, playable), "forbidden_by": forbidden}
