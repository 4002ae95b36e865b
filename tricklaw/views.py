"""A seat's observation as OpenSpiel wants it: a fixed-size tensor and a string.

The source is always the ruleset's own :meth:`~tricklaw.model.state.State.observation`
(what a seat sees: its hand, the public cards, nothing hidden), so these views can
reveal nothing the model does not show that seat. Each field of the observation is
encoded by its name (:data:`FIELD_KINDS`): a seat as a one-hot over the seats, a set of
cards as a 0/1 vector over the deck in canonical order, an ordered list of cards (a
trick, Hund's sets) as one one-hot row per position, a number as itself, and so on. A
field without an encoding is refused when the layout is made, so a new field in a
ruleset's observation cannot go missing from the tensor unnoticed.

The string is the observation as compact JSON with sorted keys.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from tricklaw.model.rulesets.hund import POWERS
from tricklaw.model.state import Game, Phase
from tricklaw.spec.errors import TricklawError

Vector = npt.NDArray[np.float32]
Fill = Callable[[Vector, Any], None]

FIELD_KINDS: Mapping[str, str] = {
    "seat": "seat",
    "current": "seat",
    "leader": "seat",
    "round": "number",
    "designation": "number",
    "points_left": "number",
    "phase": "phase",
    "hand": "cards",
    "face_down": "cards",
    "points_card": "card",
    "pending": "card",
    "trick": "trick",
    "sets": "sets",
    "captured": "seat_cards",
    "face_down_counts": "seat_numbers",
    "totals": "seat_numbers",
    "picked": "picks",
    "powers": "powers",
    "virtual_display": "columns",
    "taken": "taken",
}
"""Observation field -> its encoding (``taken`` holds counts in Sticheln and cards in
Hund: the layout tells them apart by the value it is made from)."""
HIDDEN = "hidden"
"""What Sticheln shows of a pick that is not revealed yet."""


@dataclass(frozen=True)
class Piece:
    """One field of the tensor: its name, shape and how a value fills it."""

    name: str
    shape: tuple[int, ...]
    fill: Fill

    @cached_property
    def size(self) -> int:
        """The number of floats the piece takes."""
        return int(np.prod(self.shape))


@dataclass(frozen=True)
class Layout:
    """The tensor layout of one game's observations, field by field."""

    pieces: tuple[Piece, ...]

    @cached_property
    def size(self) -> int:
        """The number of floats of one observation."""
        return sum(p.size for p in self.pieces)

    def encode(self, observation: Mapping[str, Any]) -> Vector:
        """``observation`` (a ruleset's observation dict) as a flat float32 vector."""
        out = np.zeros(self.size, np.float32)
        offset = 0
        for piece in self.pieces:
            piece.fill(
                out[offset : offset + piece.size].reshape(piece.shape), observation[piece.name]
            )
            offset += piece.size
        out.flags.writeable = False
        return out


def observation_text(observation: Mapping[str, Any]) -> str:
    """``observation`` as compact JSON with sorted keys."""
    return json.dumps(observation, sort_keys=True, separators=(",", ":"))


def make_layout(game: Game, probe: Mapping[str, Any]) -> Layout:
    """The layout of ``game``'s observations; ``probe`` is one of them, which gives the
    fields and the lengths that do not change during a game (Hund's virtual display).

    Raises TricklawError naming a field that has no encoding.
    """
    deck = game.ruleset.deck(game.players, game.options)
    cards = {game.ruleset.palette.format(card): i for i, card in enumerate(deck)}
    colours = {name: i for i, name in enumerate(game.ruleset.palette.names)}
    pieces: list[Piece] = []
    for name, value in probe.items():
        kind = FIELD_KINDS.get(name)
        if kind == "taken":
            kind = "seat_cards" if value and isinstance(value[0], list) else "seat_numbers"
        if kind is None:
            raise TricklawError(
                f"{game.ruleset.id}: the observation field {name!r} has no tensor encoding"
            )
        shape, fill = _encoding(kind, seats=game.seats, cards=cards, colours=colours, probe=value)
        pieces.append(Piece(name, shape, fill))
    return Layout(tuple(pieces))


def _encoding(
    kind: str,
    *,
    seats: int,
    cards: Mapping[str, int],
    colours: Mapping[str, int],
    probe: Any,
) -> tuple[tuple[int, ...], Fill]:
    """The shape of an encoding and the function that fills it from a value."""
    size = len(cards)

    def seat(out: Vector, value: int | None) -> None:
        if value is not None and 0 <= value < seats:
            out[value] = 1

    def number(out: Vector, value: int | None) -> None:
        out[0] = 0 if value is None else value

    def phase(out: Vector, value: str) -> None:
        out[Phase[value.upper()]] = 1

    def card_set(out: Vector, value: Sequence[str | None]) -> None:
        for card in value:
            if card is not None and card != HIDDEN:
                out[cards[card]] = 1

    def card(out: Vector, value: str | None) -> None:
        card_set(out, [value])

    def rows(out: Vector, value: Sequence[str | None]) -> None:
        for row, item in zip(out, value, strict=False):
            card(row, item)

    def seat_cards(out: Vector, value: Sequence[Sequence[str]]) -> None:
        for row, held in zip(out, value, strict=True):
            card_set(row, held)

    def seat_numbers(out: Vector, value: Sequence[int]) -> None:
        out[:] = value

    def picks(out: Vector, value: Sequence[str | None]) -> None:
        for row, item in zip(out, value, strict=True):
            if item == HIDDEN:
                row[size] = 1
            else:
                card(row[:size], item)

    def powers(out: Vector, value: Mapping[str, str]) -> None:
        for power, colour in value.items():
            out[POWERS.index(power), colours[colour]] = 1

    table: dict[str, tuple[tuple[int, ...], Fill]] = {
        "seat": ((seats,), seat),
        "number": ((1,), number),
        "phase": ((len(Phase),), phase),
        "cards": ((size,), card_set),
        "card": ((size,), card),
        "trick": ((seats, size), rows),
        "sets": ((len(POWERS), size), rows),
        "columns": ((len(probe) if isinstance(probe, list) else 0, size), rows),
        "seat_cards": ((seats, size), seat_cards),
        "seat_numbers": ((seats,), seat_numbers),
        "picks": ((seats, size + 1), picks),
        "powers": ((len(POWERS), len(colours)), powers),
    }
    return table[kind]
