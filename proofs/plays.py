"""What may be played, in Z3: the interface every ruleset's play-rule encoding fills in.

A :class:`PlayEncoding` is written from the clauses in ``spec/`` (never from the
model's code). For one game (player count and readings) it states when a card may be
played by a player who holds exactly a given set of cards onto an unfinished trick:

* ``held``: a Mapping from each card of the deck in play (:meth:`PlayEncoding.deck`) to a
  z3 Bool, true when the player holds that card;
* ``trick``: the cards already in the trick, lead first, each a ``(colour, value)`` pair of
  z3 Ints numbered as in :class:`~tricklaw.proofs.tricks.TrickEncoding` and
  :mod:`tricklaw.model.cards` (colour = palette index, value = printed value); an empty
  trick means the player leads;
* ``card``: the card he plays, a ``(colour, value)`` pair of z3 Ints.

:meth:`PlayEncoding.legal` gives the rule as assertions tracked by clause id (for unsat
cores); :meth:`PlayEncoding.legality` gives the same rule as one formula with the clause
ids it rests on, so that a caller may negate it ("no card is legal", "the model allows
an illegal card") without losing the clauses. The rule covers the players who choose
their card; a seat whose card the rules pick for it (The Last's ghost, Hund's virtual
player) is not a chooser and is outside this interface.

:data:`PLAYS` maps each ruleset id to its encoding class; each game's module in
:mod:`tricklaw.proofs.encodings` registers its own (a game is a unit).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from tricklaw.model.cards import VALUE_LIMIT, Card, build_deck, colour_of, make_card, value_of
from tricklaw.model.registry import Registry
from tricklaw.model.state import Game
from tricklaw.proofs.solver import Tracked
from tricklaw.proofs.tricks import TrickEncoding

CardTerm = tuple[z3.ArithRef, z3.ArithRef]
"""A symbolic card: (colour, value) z3 Ints."""


def term(card: Card) -> CardTerm:
    """The concrete ``card`` as a (colour, value) pair of z3 constants."""
    return z3.IntVal(colour_of(card)), z3.IntVal(value_of(card))


def symbolic(name: str) -> CardTerm:
    """A fresh symbolic card named ``name``."""
    return z3.Int(f"{name}_colour"), z3.Int(f"{name}_value")


def is_card(card: CardTerm, concrete: Card) -> z3.BoolRef:
    """``card`` is the concrete card ``concrete``."""
    return z3.And(card[0] == colour_of(concrete), card[1] == value_of(concrete))


@dataclass(frozen=True, slots=True)
class Legality:
    """The play rule as one formula and the clause ids it rests on (for negations)."""

    formula: z3.BoolRef
    clauses: tuple[str, ...]


class PlayEncoding(ABC):
    """The rule of what may be played for one ruleset, player count and readings."""

    ruleset: str
    readings: tuple[str, ...] = ()
    """The options whose readings change what may be played, the deck in play included
    (each combination matters)."""

    @classmethod
    def contexts(cls, game: Game) -> list[dict[str, Any]]:
        """The contexts the rule depends on besides hand and trick (none for every game
        so far: one empty context)."""
        return [{}]

    def __init__(self, game: Game, context: Mapping[str, Any] | None = None) -> None:
        self.game = game
        self.options = game.options
        self.context = dict(context or {})
        self.size = game.seats
        """Cards in a full trick: the seats (an automatic seat plays too)."""

    # --- what each ruleset states -------------------------------------------------------

    trick_encoding: type[TrickEncoding]
    """The game's trick encoding, whose deck clause this rule shares."""

    @abstractmethod
    def rule(
        self, held: Mapping[Card, z3.BoolRef], trick: Sequence[CardTerm], card: CardTerm
    ) -> list[Tracked]:
        """The restriction on ``card`` beyond holding it, each part tracked by its clause
        (nothing for a free lead or free play)."""

    hold_clause: str = ""
    """The clause saying a player plays a card of his own hand (the ``turn`` clause)."""

    def first_hand(self) -> tuple[int, str] | None:
        """(the cards each player holds at the round's first play, the clause saying so),
        or None where the encoding states no hand size. Each trick takes one card from
        every hand, so before the round's trick ``t`` (from 0) each hand holds that many
        less."""
        return None

    # --- shared ----------------------------------------------------------------------

    def deck_table(self) -> tuple[int, range, str]:
        """(number of colours, the values, the clause id) of the deck in play: the trick
        encoding's (one deck clause per game)."""
        return self.trick_encoding(self.game, self.context).deck_table()

    def deck(self) -> tuple[Card, ...]:
        """The cards in play, in canonical order (the deck clause)."""
        colours, values, _ = self.deck_table()
        return build_deck(range(colours), values)

    @property
    def deck_clause(self) -> str:
        """The clause id stating the deck in play."""
        return self.deck_table()[2]

    def in_deck(self, card: CardTerm) -> z3.BoolRef:
        """``card`` is a card of the deck in play (for symbolic tricks and cards)."""
        colours, values, _ = self.deck_table()
        return z3.And(
            card[0] >= 0, card[0] < colours, card[1] >= values.start, card[1] < values.stop
        )

    def holding(self) -> dict[Card, z3.BoolRef]:
        """Fresh Bool per card of the deck (``held_<colour>_<value>``)."""
        return {c: z3.Bool(f"held_{colour_of(c)}_{value_of(c)}") for c in self.deck()}

    def held_card(self, held: Mapping[Card, z3.BoolRef], card: CardTerm) -> z3.BoolRef:
        """``card`` is one of the held cards."""
        if z3.is_int_value(card[0]) and z3.is_int_value(card[1]):  # a concrete card
            concrete = make_card(card[0].as_long(), card[1].as_long())
            if 0 <= card[1].as_long() < VALUE_LIMIT:
                return held.get(Card(concrete), z3.BoolVal(False))
        return z3.Or(z3.BoolVal(False), *[z3.And(is_card(card, c), h) for c, h in held.items()])

    def legal(
        self, held: Mapping[Card, z3.BoolRef], trick: Sequence[CardTerm], card: CardTerm
    ) -> list[Tracked]:
        """``card`` may be played by a player holding exactly ``held`` onto ``trick``:
        he holds it (:attr:`hold_clause`), and the rule allows it (:meth:`rule`)."""
        if len(trick) >= self.size:
            raise ValueError(f"a trick of {len(trick)} cards is full at {self.size} seats")
        return [
            Tracked(self.hold_clause, self.held_card(held, card)),
            *self.rule(held, trick, card),
        ]

    def legality(
        self, held: Mapping[Card, z3.BoolRef], trick: Sequence[CardTerm], card: CardTerm
    ) -> Legality:
        """:meth:`legal` as one formula, with the clause ids of its parts."""
        parts = self.legal(held, trick, card)
        return Legality(
            z3.And(*[p.formula for p in parts]), tuple(sorted({p.clause for p in parts}))
        )

    # --- helpers for writing rules ---------------------------------------------------

    def holds_any(self, held: Mapping[Card, z3.BoolRef], which: Any) -> z3.BoolRef:
        """The player holds a card ``c`` with ``which(c)`` (a z3 Bool over the concrete
        card's colour and value)."""
        probe = symbolic("probe")
        shape = which(probe)  # built once, then instantiated per card (building is slow)
        out = []
        for c, h in held.items():
            if z3.is_false(h):
                continue
            colour, value = term(c)
            cond = z3.simplify(z3.substitute(shape, (probe[0], colour), (probe[1], value)))
            if z3.is_true(cond):
                out.append(h)
            elif not z3.is_false(cond):
                out.append(z3.And(h, cond))
        return z3.Or(z3.BoolVal(False), *out)

    def must_if_held(
        self, held: Mapping[Card, z3.BoolRef], card: CardTerm, which: Any
    ) -> z3.BoolRef:
        """``card`` satisfies ``which`` unless the player holds no card that does."""
        return z3.Or(which(card), z3.Not(self.holds_any(held, which)))


class FollowLead(PlayEncoding):
    """The common rule "lead any card; then follow the lead colour if you can, else play
    any card", for games whose text states it (:attr:`follow_clause`)."""

    follow_clause: str
    """The clause stating the duty to follow the lead colour."""

    def rule(
        self, held: Mapping[Card, z3.BoolRef], trick: Sequence[CardTerm], card: CardTerm
    ) -> list[Tracked]:
        """Nothing when leading; else the lead colour, when the hand holds it."""
        if not trick:
            return []
        return [
            Tracked(self.follow_clause, self.must_if_held(held, card, colour_in([trick[0][0]])))
        ]


def colour_in(colours: Iterable[z3.ArithRef]) -> Any:
    """A card predicate: its colour is one of ``colours``."""
    cs = list(colours)
    return lambda card: z3.Or(z3.BoolVal(False), *[card[0] == c for c in cs])


PLAYS: Registry[type[PlayEncoding]] = Registry("play encoding", "tricklaw.proofs.encodings")
"""Ruleset id -> its play-rule encoding."""
