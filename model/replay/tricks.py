"""A recorded trick result against the trick the rules completed.

A trick object (the record's and the log's: ``leader``, ``cards``, ``winner``, optional
``taken``, ``aside`` and ``facts``; ``clauses`` are not compared: they say why, in
tricklaw's own ids, which another engine need not know) is first compared
as tricklaw writes it (:func:`as_written`: equal JSON, no card parsed, no message built,
the hot path); any other spelling is read card by card and compared field by field
(:func:`differing_field`: taken and aside cards in any order), which names the first
field that differs.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from tricklaw.model.cards import VALUE_LIMIT, Card, Palette
from tricklaw.model.schemas import schema
from tricklaw.model.state import seat_after
from tricklaw.model.trick import TrickResult

TRICK_KEYS = frozenset(schema("log")["$defs"]["trick"]["properties"])
"""The keys a trick object may have."""
SEAT_TEXTS = tuple(str(seat) for seat in range(16))
ONLY_STR = frozenset({str})
_ABSENT = object()

Completed = tuple[int, int, TrickResult, tuple[int, ...]]
"""A trick the rules completed: its index in the round, its leader, its result, and the
seating of the round."""


@cache
def card_names(palette: Palette) -> tuple[str, ...]:
    """Every card's notation, by card number (a card's number is below ``32 * colours``)."""
    return tuple(palette.format(Card(n)) for n in range(VALUE_LIMIT * len(palette.letters)))


def as_written(
    raw: Any,
    leader: int,
    result: TrickResult,
    seating: tuple[int, ...],
    names: tuple[str, ...],
) -> bool:
    """Whether ``raw`` is a well-formed trick object that says exactly what the trick led
    by ``leader`` with ``result`` is, its cards in notation as tricklaw writes them
    (``names``: :func:`card_names`)."""
    if type(raw) is not dict or not TRICK_KEYS.issuperset(raw):
        return False
    got = raw.get("leader")
    if type(got) is not int or got != leader:
        return False
    if raw.get("cards") != [names[c] for c in result.cards]:
        return False
    base, size = seating.index(leader), len(seating)
    got, winner = raw.get("winner", _ABSENT), result.winner
    if winner is None:
        if got is not None:
            return False
    elif type(got) is not int or got != seating[(base + winner) % size]:
        return False
    taken = raw.get("taken", _ABSENT)
    if taken is not _ABSENT and taken != {
        SEAT_TEXTS[seating[(base + offset) % size]]: [names[c] for c in cards]
        for offset, cards in result.taken
        if cards
    }:
        return False
    aside = raw.get("aside", _ABSENT)
    if aside is not _ABSENT and aside != [names[c] for c in result.aside]:
        return False
    clauses = raw.get("clauses", _ABSENT)
    if clauses is not _ABSENT and (
        type(clauses) is not list or not ONLY_STR.issuperset(map(type, clauses))
    ):
        return False
    facts = raw.get("facts", _ABSENT)
    return facts is _ABSENT or facts == dict(result.facts)


def differing_field(
    raw: dict[str, Any],
    cards: tuple[Card, ...],
    taken: dict[str, tuple[Card, ...]] | None,
    aside: tuple[Card, ...] | None,
    trick: Completed,
) -> str:
    """The first field of the trick object ``raw`` (its cards read: ``cards``, ``taken``
    and ``aside``, None when it leaves them out) that differs from ``trick``; empty if
    none does."""
    _, leader, result, seating = trick
    if raw["leader"] != leader:
        return "leader"
    if cards != result.cards:
        return "cards"
    if raw["winner"] != (
        None if result.winner is None else seat_after(seating, leader, result.winner)
    ):
        return "winner"
    if taken is not None and not same_taken(taken, result, leader, seating):
        return "taken"
    if aside is not None and aside != result.aside and sorted(aside) != sorted(result.aside):
        return "aside"
    if "facts" in raw and raw["facts"] != dict(result.facts):
        return "facts"
    return ""


def same_taken(
    taken: dict[str, tuple[Card, ...]],
    result: TrickResult,
    leader: int,
    seating: tuple[int, ...],
) -> bool:
    """Whether the input's ``taken`` (seat text -> cards, none empty) is the result's, each
    seat's cards in any order."""
    expected = [(offset, cards) for offset, cards in result.taken if cards]
    if len(expected) != len(taken):
        return False
    base, size = seating.index(leader), len(seating)
    for offset, cards in expected:
        mine = taken.get(str(seating[(base + offset) % size]))
        if mine is None or (mine != cards and sorted(mine) != sorted(cards)):
            return False
    return True
