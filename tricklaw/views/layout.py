"""The tensor layout of one game's observations: one piece per field, in the order of
the observation, each filled by the field's encoding; and an observation as a flat
float32 vector or as text."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from tricklaw.model.state import Game
from tricklaw.spec.errors import TricklawError
from tricklaw.views.encodings import Encoding, Fill, Frame, Vector


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


def layout_of(game: Game, probe: Mapping[str, Any], fields: Mapping[str, Encoding]) -> Layout:
    """The layout of ``game``'s observations, each field encoded as ``fields`` says;
    ``probe`` is one observation, which gives the fields and the lengths that do not
    change during a game.

    Raises TricklawError naming a field that has no encoding.
    """
    deck = game.ruleset.deck(game.players, game.options)
    cards = {game.ruleset.palette.format(card): i for i, card in enumerate(deck)}
    colours = {name: i for i, name in enumerate(game.ruleset.palette.names)}
    pieces: list[Piece] = []
    for name, value in probe.items():
        encoding = fields.get(name)
        if encoding is None:
            raise TricklawError(
                f"{game.ruleset.id}: the observation field {name!r} has no tensor encoding"
            )
        shape, fill = encoding(Frame(game.seats, cards, colours, value))
        pieces.append(Piece(name, shape, fill))
    return Layout(tuple(pieces))
