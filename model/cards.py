"""Cards, colours and their short notation.

A card is a colour and a value. Inside tricklaw a card is a plain ``int``
(``colour_index * 32 + value``) so that hands, tricks and piles are tuples of
small integers and the rules run fast; at every boundary (records, the CLI,
conformance data) a card is written in its **notation**: the colour's letter
followed by the value, e.g. ``R5``, ``Y14``, ``P0``.

Each ruleset has its own :class:`Palette`: which colours exist, in which
order, and which letter stands for each. The palette order is also the
**canonical deck order** (colour by colour, values ascending) that the
portable shuffle permutes, so it is part of the oracle format.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NewType

from tricklaw.spec.errors import CardError

Card = NewType("Card", int)
"""A card: ``colour_index * 32 + value`` (colour index in the ruleset's palette)."""

VALUE_BITS = 5
VALUE_LIMIT = 1 << VALUE_BITS  # values 0..31 fit


def make_card(colour: int, value: int) -> Card:
    """The card of colour index ``colour`` and ``value``."""
    return Card(colour * VALUE_LIMIT + value)


def colour_of(card: Card) -> int:
    """The colour index of ``card``."""
    return card >> VALUE_BITS


def value_of(card: Card) -> int:
    """The printed value of ``card``."""
    return card & (VALUE_LIMIT - 1)


@dataclass(frozen=True, slots=True)
class Palette:
    """The colours of one ruleset: names and one-letter codes, in canonical order."""

    names: tuple[str, ...]
    letters: tuple[str, ...]
    notation: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """Every card's notation, indexed by card number (built once: formatting is hot)."""

    def __post_init__(self) -> None:
        table = tuple(f"{letter}{value}" for letter in self.letters for value in range(VALUE_LIMIT))
        object.__setattr__(self, "notation", table)

    def letter(self, colour: int) -> str:
        """The notation letter of colour index ``colour``."""
        return self.letters[colour]

    def name(self, colour: int) -> str:
        """The English name of colour index ``colour``."""
        return self.names[colour]

    def format(self, card: Card) -> str:
        """``card`` in notation, e.g. ``R5``."""
        return self.notation[card]

    def format_all(self, cards: Iterable[Card]) -> list[str]:
        """Each of ``cards`` in notation."""
        notation = self.notation
        return [notation[c] for c in cards]

    def parse(self, text: str) -> Card:
        """The card that ``text`` names (``R5``; letter case is ignored).

        Raises :class:`~tricklaw.spec.errors.CardError` naming the problem when the
        text is not a colour letter of this palette followed by a value.
        """
        token = text.strip()
        if len(token) < 2:
            raise CardError(
                f"{text!r} is not a card: expected a colour letter and a value, e.g. R5"
            )
        letter, digits = token[0].upper(), token[1:]
        if letter not in self.letters:
            known = ", ".join(f"{ltr}={n}" for ltr, n in zip(self.letters, self.names, strict=True))
            raise CardError(f"{text!r}: unknown colour {letter!r} (colours: {known})")
        if not digits.isdigit() or not digits.isascii():
            raise CardError(f"{text!r}: the value {digits!r} is not a whole number")
        significant = digits.lstrip("0") or "0"
        if len(significant) > len(str(VALUE_LIMIT)) or int(significant) >= VALUE_LIMIT:
            raise CardError(f"{text!r}: value {significant} is out of range")
        value = int(significant)
        return make_card(self.letters.index(letter), value)

    def parse_all(self, texts: Iterable[str]) -> list[Card]:
        """Each of ``texts`` parsed with :meth:`parse`."""
        return [self.parse(t) for t in texts]


def build_deck(colours: Sequence[int], values: Iterable[int]) -> tuple[Card, ...]:
    """The cards of ``colours`` with ``values``, in canonical order (colour-major)."""
    vals = tuple(values)
    return tuple(make_card(c, v) for c in colours for v in vals)
