"""The Last's rules as pure functions and values: who takes the points card
(LAST-TRICK-2/3), what may be played (LAST-PLAY-1..3), a player's penalty (LAST-SCORE-1),
the face-down cards recounted from a round's log (LAST-COLLECT-2, LAST-GHOST-5, dispute
``unused-points``), the compiled options; and the clause stating each rule role.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import NamedTuple

from tricklaw.model import actions
from tricklaw.model.actions import KEEP, ActionKind
from tricklaw.model.cards import Card, Palette
from tricklaw.model.options import CompiledRules
from tricklaw.model.state import Game, RoundLog, seat_after
from tricklaw.model.trick import TrickResult

PALETTE = Palette(("red", "yellow", "green", "blue"), ("R", "Y", "G", "B"))
HAND_SIZE = {2: 12, 3: 12, 4: 9, 5: 8}
"""Cards per hand by player count (LAST-DEAL-1; the ghost game: LAST-GHOST-1)."""
GHOST = 2
"""The ghost's seat in the two-player game."""


class Table(NamedTuple):
    """The Last's own part of the state.

    ``points`` is the face-down points pile (top first); ``shown`` the points
    card turned up for the trick in play; ``pending`` the points card its
    taker is deciding on (phase CHOOSE); ``ghost_order`` the ghost's hand in
    pile order (top first; its cards are also in its hand).

    (Immutable, and a ``NamedTuple`` like :class:`~tricklaw.model.state.State`:
    one is built for most actions, in half the time of a frozen dataclass.)
    """

    points: tuple[Card, ...]
    shown: Card | None
    pending: Card | None
    ghost_order: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Rules(CompiledRules):
    """The options of one game, compiled."""

    last_play_free: bool
    ghost_first_legal: bool
    ghost_fixed: bool
    ghost_lead_next: bool
    unused_to_last_winner: bool
    rounds: int


def rules_of(game: Game) -> Rules:
    """``game``'s options as :meth:`~tricklaw.model.rulesets.the_last.ruleset.TheLast.compile`
    compiled them (``Game.rules``), typed."""
    return game.rules_as(Rules)


JUDGE_CLAUSES = ("LAST-TRICK-2", "LAST-TRICK-3", "LAST-COLLECT-2")
"""The clauses that decide every trick (:func:`judge`)."""


@cache
def _judge_facts(winning: int, best: int) -> tuple[tuple[str, str], ...]:
    """The facts of a trick won in colour ``winning`` by the card at ``best``."""
    return (("winning-colour", PALETTE.name(winning)), ("points-card-to", f"seat +{best}"))


def judge(cards: Sequence[Card]) -> TrickResult:
    """Who takes the points card for the complete trick ``cards`` (LAST-TRICK-2/3).

    The last card's colour is the winning colour; the highest card of that
    colour wins. If no earlier card has that colour, that is the last card:
    the last player wins. Every card is discarded. Each card exists once, so
    there is never a tie (and within one colour the highest card number is the
    highest value).
    """
    trick = tuple(cards)
    winning = trick[-1] >> 5
    best = trick.index(max([c for c in trick if c >> 5 == winning]))
    return TrickResult(trick, best, (), trick, JUDGE_CLAUSES, _judge_facts(winning, best))


def colours_to_follow(trick: Sequence[Card], last: bool, free_last: bool) -> Container[int] | None:
    """The colours the next card of ``trick`` must have if its player holds one, or None
    when any card may be played (LAST-PLAY-1..3): the leader plays anything; the others
    follow the lead colour; the last player (``last``) plays a colour already in the
    trick, or anything under ``last-play=free`` (``free_last``)."""
    if not trick or (last and free_last):
        return None
    if last:
        return {c >> 5 for c in trick}
    return (trick[0] >> 5,)


def playable(
    hand: Sequence[Card], trick: Sequence[Card], last: bool, free_last: bool
) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to ``trick`` (LAST-PLAY-1..3, see
    :func:`colours_to_follow`), or the whole hand when it holds none of the colours.

    ``last`` says whether the player completes the trick. Order is kept.
    """
    colours = colours_to_follow(trick, last, free_last)
    if colours is None:
        return tuple(hand)
    return tuple([c for c in hand if c >> 5 in colours]) or tuple(hand)


def penalty(face_down: Sequence[Card]) -> int:
    """The penalty of a player's face-down cards: the sum of their values (LAST-SCORE-1)."""
    return sum(c & 31 for c in face_down)


CLAUSES: Mapping[str, str] = MappingProxyType(
    {
        "setup": "LAST-SETUP-1",
        "deck": "LAST-DECK-1",
        "deal": "LAST-DEAL-1",
        "points-pile": "LAST-DEAL-2",
        "first-lead": "LAST-LEAD-1",
        "turn-up": "LAST-TRICK-1",
        "turn": "LAST-PLAY-1",
        "play": "LAST-PLAY-2",
        "play-last": "LAST-PLAY-3",
        "winning-colour": "LAST-TRICK-2",
        "points-card": "LAST-TRICK-3",
        "decide": "LAST-COLLECT-1",
        "collect": "LAST-COLLECT-2",
        "round-end": "LAST-ROUND-1",
        "score-total": "LAST-SCORE-1",
        "winner": "LAST-GAME-1",
        "game-end": "LAST-D-ROUNDS",
        "ghost-deal": "LAST-GHOST-1",
        "fact:points_left": "LAST-TRICK-1",
        "fact:ghost": "LAST-GHOST-1",
        "ghost-pile": "LAST-GHOST-2",
        "ghost-play": "LAST-GHOST-3",
        "ghost-turn": "LAST-GHOST-4",
        "ghost-wins": "LAST-GHOST-5",
        "ghost-score": "LAST-GHOST-6",
    }
)
"""The clause id stating each rule role."""


def face_down(game: Game, log: RoundLog) -> tuple[list[list[Card]], list[int]]:
    """Each seat's face-down cards, recounted from a finished round's log alone: the
    points pile as dealt, each trick's taker and his keep / swap decisions in order
    (LAST-COLLECT-2; the ghost keeps every card it wins, LAST-GHOST-5); and, per seat, how many
    of them are points cards never turned up (dispute ``unused-points``: they go to the
    last trick's winner under ``last-winner``)."""
    points = list(log.deal.pile("points"))
    decisions = [
        a for _, a in log.actions if actions.kind_of(a) in {ActionKind.KEEP, ActionKind.SWAP}
    ]
    down: list[list[Card]] = [[] for _ in range(game.seats)]
    last = log.first_leader
    for leader, result in log.tricks:
        assert result.winner is not None, "every trick of The Last has a taker"
        last = seat_after(log.seating, leader, result.winner)
        card = points.pop(0)
        if game.players == 2 and last == GHOST:
            down[GHOST].append(card)
            continue
        action = decisions.pop(0)
        down[last].append(card if action == KEEP else actions.card_of(action))
    unused = [0] * game.seats
    if points and rules_of(game).unused_to_last_winner:
        down[last] += points
        unused[last] = len(points)
    return down, unused
