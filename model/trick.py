"""The result of one trick, shared by every ruleset.

Seats in a :class:`TrickResult` are **offsets from the leader** (0 = the
player who led, 1 = the next player clockwise, ...), so a trick can be judged
on its own, away from any game, as the ``trick`` command does.
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from dataclasses import dataclass

from tricklaw.model.cards import Card


@dataclass(frozen=True, slots=True)
class TrickResult:
    """Who takes what from one completed trick, and which clauses decided it.

    ``winner`` is the offset of the player who wins the trick (and leads the
    next one), or ``None`` when the rules give the trick to nobody.
    ``taken`` lists, per recipient offset, the cards that player takes;
    ``aside`` holds cards that go to nobody. ``clauses`` are the ids of the
    rule clauses that decided the result, in the order they applied.
    ``facts`` names anything else the rules decided, as text (The Last: the
    winning colour).
    """

    cards: tuple[Card, ...]
    winner: int | None
    taken: tuple[tuple[int, tuple[Card, ...]], ...]
    aside: tuple[Card, ...]
    clauses: tuple[str, ...]
    facts: tuple[tuple[str, str], ...] = ()


def winner_takes_all(cards: tuple[Card, ...], winner: int, clauses: tuple[str, ...]) -> TrickResult:
    """The common result: the winner takes every card of the trick."""
    return TrickResult(cards, winner, ((winner, cards),), (), clauses)


def nobody_takes(cards: tuple[Card, ...], clauses: tuple[str, ...]) -> TrickResult:
    """A trick with no winner: its cards are set aside."""
    return TrickResult(cards, None, (), cards, clauses)


def follows(card: int, hand: Sequence[Card], colours: Container[int]) -> bool:
    """Whether ``card`` of ``hand`` (a card number, as a PLAY action is) may be played
    under the rule "play a card of one of ``colours`` if you can": it has one of them,
    or no card of the hand has."""
    return card >> 5 in colours or not any(c >> 5 in colours for c in hand)
