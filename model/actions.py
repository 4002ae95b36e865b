"""Actions: every decision a player makes, as one small integer.

As in OpenSpiel, an action is an ``int``; its kind sits in the high bits and
its payload (a card or a seat) in the low eight bits:

=========  =====  ==================  ============================================
kind       code   notation            meaning
=========  =====  ==================  ============================================
PLAY       0      ``R5``              play card R5 to the current trick
SELECT     1      ``select R5``       choose R5 as a hidden, then revealed, card
                                      (Sticheln's misery / unwanted card)
KEEP       2      ``keep``            keep the card just won face down (The Last)
SWAP       3      ``swap R5``         take the card just won into hand and lay R5
                                      face down instead (The Last)
LEADER     4      ``leader 2``        name seat 2 to start the round (Hund's Lead)
DESIGNATE  5      ``designate R5``    choose the set suit red / designation card 5
                                      (Hund's custom option)
=========  =====  ==================  ============================================

The notation is what records, the CLI and the live oracle use.
"""

from __future__ import annotations

from enum import IntEnum

from tricklaw.model.cards import Card, Palette
from tricklaw.spec.errors import CardError

KIND_SHIFT = 8
PAYLOAD_MASK = (1 << KIND_SHIFT) - 1


class ActionKind(IntEnum):
    """What an action does; see the module table."""

    PLAY = 0
    SELECT = 1
    KEEP = 2
    SWAP = 3
    LEADER = 4
    DESIGNATE = 5


def play(card: Card) -> int:
    """The action that plays ``card``."""
    return int(card)


def select(card: Card) -> int:
    """The action that chooses ``card`` as a hidden selection."""
    return (ActionKind.SELECT << KIND_SHIFT) | card


KEEP = ActionKind.KEEP << KIND_SHIFT
"""The one KEEP action."""
SWAP = ActionKind.SWAP << KIND_SHIFT
"""The SWAP kind's bits: ``swap(card) == SWAP | card``."""


def swap(card: Card) -> int:
    """The action that swaps the card just won for ``card`` from the hand."""
    return SWAP | card


def leader(seat: int) -> int:
    """The action that names ``seat`` to start the round."""
    return (ActionKind.LEADER << KIND_SHIFT) | seat


def designate(card: Card) -> int:
    """The action that chooses the designation set (suit and value of ``card``)."""
    return (ActionKind.DESIGNATE << KIND_SHIFT) | card


def seat_of(action: int) -> int:
    """The seat a LEADER action names."""
    return action & PAYLOAD_MASK


def kind_of(action: int) -> ActionKind:
    """The kind of ``action``."""
    return ActionKind(action >> KIND_SHIFT)


def card_of(action: int) -> Card:
    """The card an action plays or selects."""
    # Not Card(...): NewType's call costs a Python call, on the hottest path of replay.
    return action & PAYLOAD_MASK  # type: ignore[return-value]


def action_to_string(action: int, palette: Palette) -> str:
    """``action`` in notation (``R5``, ``select R5``, ``keep``, ``swap R5``); raises
    ValueError or IndexError for an int that encodes no action of this palette."""
    if action < 0:
        raise ValueError(f"{action} is not an action")
    if action <= PAYLOAD_MASK:  # a card played: the common case, kept fast
        return palette.notation[action]
    kind = kind_of(action)
    if kind is ActionKind.KEEP:
        return "keep"
    if kind is ActionKind.LEADER:
        return f"leader {action & PAYLOAD_MASK}"
    card = palette.format(card_of(action))
    return card if kind is ActionKind.PLAY else f"{kind.name.lower()} {card}"


def string_to_action(text: str, palette: Palette) -> int:
    """The action written ``text`` in notation; raises CardError naming the problem."""
    words = text.split()
    if len(words) == 1 and words[0].lower() == "keep":
        return KEEP
    if len(words) == 1:
        return play(palette.parse(words[0]))
    if len(words) == 2 and words[0].lower() == "select":
        return select(palette.parse(words[1]))
    if len(words) == 2 and words[0].lower() == "swap":
        return swap(palette.parse(words[1]))
    if len(words) == 2 and words[0].lower() == "designate":
        return designate(palette.parse(words[1]))
    if len(words) == 2 and words[0].lower() == "leader" and words[1].isdigit():
        seat = int(words[1])
        if seat > PAYLOAD_MASK:
            raise CardError(f"{text!r}: no seat {seat}")
        return leader(seat)
    raise CardError(
        f"{text!r} is not an action: expected a card (R5), 'select R5', 'keep', 'swap R5', "
        "'leader N' or 'designate R5'"
    )
