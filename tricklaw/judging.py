"""Judging one trick on its own, away from any game: the input checks shared by the
``trick`` command and the live oracle's ``judge`` method."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tricklaw.model.cards import Card
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game
from tricklaw.spec import load_registry
from tricklaw.spec.errors import CardError, TricklawError


def preset_options(ruleset: Ruleset[Any], name: str | None) -> dict[str, str]:
    """The readings of the preset ``name`` of ``ruleset``'s registry (``[[preset]]``; the
    ``--preset`` flag and the page's presets), or none for no preset; raises SpecError
    naming the known presets when unknown."""
    if not name:
        return {}
    return dict(load_registry(ruleset.id).preset(name).options)


def parse_trick(game: Game, texts: Sequence[str]) -> list[Card]:
    """The cards of a complete trick (first card = lead), checked: one card per seat,
    each card once, every card in the deck in use (the ``deck`` clause)."""
    ruleset = game.ruleset
    cards = ruleset.palette.parse_all(texts)
    if len(cards) != game.seats:
        raise CardError(
            f"a trick of {game.players} players has {game.seats} cards, not {len(cards)}"
        )
    seen: set[Card] = set()
    deck = set(ruleset.deck(game.players, game.options))
    for card in cards:
        name = ruleset.palette.format(card)
        if card in seen:
            raise CardError(f"{name} is played twice; each card exists once")
        seen.add(card)
        if card not in deck:
            raise CardError(
                f"{name} is not in the {game.players}-player deck of {ruleset.id} "
                f"[{ruleset.clause['deck']}]"
            )
    return cards


def check_context(game: Game, context: Mapping[str, str]) -> dict[str, str]:
    """``context`` checked against the ruleset's trick context names (Hund: powers,
    designation, sets), then by the game's own rules for them
    (:meth:`~tricklaw.model.ruleset.Ruleset.check_trick_context`); raises TricklawError
    naming an unknown name or a value no round of ``game`` can have."""
    ruleset: Ruleset[Any] = game.ruleset
    known = dict(ruleset.trick_context)
    for name in context:
        if name not in known:
            names = ", ".join(known) or "none"
            raise TricklawError(f"{ruleset.id}: unknown trick context {name!r} (context: {names})")
    ruleset.check_trick_context(game, context)
    return dict(context)


def parse_context(game: Game, args: Sequence[str]) -> dict[str, str]:
    """``name=value`` pairs (the ``trick --context`` flag), each name at most once, checked
    by :func:`check_context` (the game's own checks of the values run when it judges)."""
    ruleset: Ruleset[Any] = game.ruleset
    context: dict[str, str] = {}
    for arg in args:
        name, sep, value = arg.partition("=")
        if not sep:
            raise TricklawError(f"{ruleset.id}: --context {arg!r} is not name=value")
        if name in context:
            raise TricklawError(
                f"{ruleset.id}: trick context {name!r} is given twice "
                f"({name}={context[name]}, {name}={value}): give it once"
            )
        context[name] = value
    return check_context(game, context)
