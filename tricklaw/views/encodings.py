"""The tensor encodings of observation fields, and the shape of a game's part of the views.

An :data:`Encoding` turns one field of a seat's observation into a block of floats of a
fixed shape. It is made from a :class:`Frame`: the game's seats, its deck in canonical
order, its colours, and the field's value in one observation (for lengths that do not
change during a game). This module holds the encodings every game uses (a seat as a
one-hot over the seats, a number as itself, the phase as a one-hot, a set of cards as a
0/1 vector over the deck, an ordered list of cards as one one-hot row per position, a
card set or a number per seat) and :data:`COMMON`, the fields every ruleset's
observation shows. What a game adds is a :class:`GameView` in its own module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt

from tricklaw.model.state import Phase

Vector = npt.NDArray[np.float32]
Fill = Callable[[Vector, Any], None]
"""Writes a field's value into its block (zeros to begin with)."""
Shaped = tuple[tuple[int, ...], Fill]
"""A block's shape and the function that fills it."""


@dataclass(frozen=True)
class Frame:
    """What an encoding is made from: the game's seats, its deck (card text -> index in
    canonical order), its colours (name -> index), and the field's value in a probe
    observation."""

    seats: int
    cards: Mapping[str, int]
    colours: Mapping[str, int]
    probe: Any


Encoding = Callable[[Frame], Shaped]
"""A field's encoding: the shape of its block and how a value fills it, for one game."""


@dataclass(frozen=True)
class GameView:
    """One game's part of the views: the fields its observation adds to :data:`COMMON`,
    each with its encoding."""

    fields: Mapping[str, Encoding]


def fill_cards(out: Vector, value: Sequence[str | None], cards: Mapping[str, int]) -> None:
    """Mark each card of ``value`` (``None``: no card) in ``out``, a vector over the deck."""
    for card in value:
        if card is not None:
            out[cards[card]] = 1


def card_rows(frame: Frame, count: int) -> Shaped:
    """``count`` rows over the deck: the i-th card of a list (or ``None``) in row i."""

    def fill(out: Vector, value: Sequence[str | None]) -> None:
        for row, item in zip(out, value, strict=False):
            fill_cards(row, [item], frame.cards)

    return (count, len(frame.cards)), fill


def seat(frame: Frame) -> Shaped:
    """A seat as a one-hot over the seats (nothing for ``None``)."""

    def fill(out: Vector, value: int | None) -> None:
        if value is not None and 0 <= value < frame.seats:
            out[value] = 1

    return (frame.seats,), fill


def number(frame: Frame) -> Shaped:
    """A number as itself (``None`` as 0)."""

    def fill(out: Vector, value: int | None) -> None:
        out[0] = 0 if value is None else value

    return (1,), fill


def phase(frame: Frame) -> Shaped:
    """The phase of the round as a one-hot over the phases."""

    def fill(out: Vector, value: str) -> None:
        out[Phase[value.upper()]] = 1

    return (len(Phase),), fill


def cards(frame: Frame) -> Shaped:
    """A set of cards as a 0/1 vector over the deck."""

    def fill(out: Vector, value: Sequence[str | None]) -> None:
        fill_cards(out, value, frame.cards)

    return (len(frame.cards),), fill


def card(frame: Frame) -> Shaped:
    """One card (or ``None``) as a one-hot over the deck."""

    def fill(out: Vector, value: str | None) -> None:
        fill_cards(out, [value], frame.cards)

    return (len(frame.cards),), fill


def trick(frame: Frame) -> Shaped:
    """The trick so far: one row over the deck per position, a row per seat."""
    return card_rows(frame, frame.seats)


def seat_cards(frame: Frame) -> Shaped:
    """A set of cards per seat: one 0/1 row over the deck per seat."""

    def fill(out: Vector, value: Sequence[Sequence[str]]) -> None:
        for row, held in zip(out, value, strict=True):
            fill_cards(row, held, frame.cards)

    return (frame.seats, len(frame.cards)), fill


def seat_numbers(frame: Frame) -> Shaped:
    """A number per seat."""

    def fill(out: Vector, value: Sequence[int]) -> None:
        out[:] = value

    return (frame.seats,), fill


COMMON: Mapping[str, Encoding] = MappingProxyType(
    {
        "seat": seat,
        "round": number,
        "phase": phase,
        "current": seat,
        "hand": cards,
        "leader": seat,
        "trick": trick,
        "totals": seat_numbers,
    }
)
"""The fields every ruleset's observation shows: the observing seat, the round, the
phase, the seat to act, the hand, the trick's leader, the trick and the totals."""
