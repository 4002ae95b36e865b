"""Each line of a log, validated by the log schema: a fast plain path, the schema's message.

The schema (``spec/log.schema.json``, one definition per kind of line) decides what a
well-formed line is, and its first error is the message for one that is not
(:func:`problem`: ``line 7: trick.winner: 16 is greater than the maximum of 15``). But
the ``jsonschema`` validator takes 0.1 to 1 ms a line, longer than the rules take to
check one, so the reader first asks :func:`well_formed`: plain type and range tests of
the same definitions, for the usual line. Whatever they accept the schema accepts (save
each card's text, which the checker reads as it goes: a card that it cannot read sends
the line to the schema too; tested against the schema in ``tests/test_check.py``);
whatever they do not accept goes to the schema, which either names the problem or passes
the line on to be read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tricklaw.check.log_format import (
    ACTION,
    END,
    FORMAT,
    HEADER,
    ROUND,
    SCORES,
    TOTALS,
    TRICK,
    VERSIONS,
    keys,
)
from tricklaw.model.replay.tricks import TRICK_KEYS
from tricklaw.model.replay.verdict import UnreadableError
from tricklaw.model.schemas import first_problem, integral, problem_text

HEADER_KEYS, ROUND_KEYS, SCORES_KEYS, TOTALS_KEYS = map(keys, (HEADER, ROUND, SCORES, TOTALS))
DEAL_KEYS = keys("deal")
SEAT_KEYS = frozenset(str(seat) for seat in range(16))
"""A seat number as an object key (``taken``)."""
SEED_LIMIT = 2**64 - 1


def _seat(value: Any) -> bool:
    return type(value) is int and 0 <= value <= 15


def _seats(value: Any) -> bool:
    return type(value) is list and all(type(v) is int and 0 <= v <= 15 for v in value)


def _ints(value: Any) -> bool:
    return type(value) is list and all(type(v) is int for v in value)


def _strings(value: Any) -> bool:
    return type(value) is list and all(type(v) is str for v in value)


def _cards(value: Any) -> bool:
    """A list of cards: each card's text is the checker's to read (a string of the
    schema's ``card`` pattern that names a card of the palette)."""
    return type(value) is list


def _header(obj: dict[str, Any]) -> bool:
    ruleset, players = obj.get("ruleset"), obj.get("players")
    options, seed = obj.get("options", {}), obj.get("seed")
    return (
        HEADER_KEYS.issuperset(obj)
        and obj.get("format") == FORMAT
        and type(obj.get("version")) is int
        and obj["version"] in VERSIONS
        and type(ruleset) is str
        and ruleset != ""
        and type(players) is int
        and 1 <= players <= 16
        and type(options) is dict
        and all(type(v) is str or type(v) is int for v in options.values())
        and (seed is None or (type(seed) is int and 0 <= seed <= SEED_LIMIT))
    )


def _deal(deal: Any) -> bool:
    if type(deal) is not dict or not DEAL_KEYS.issuperset(deal):
        return False
    hands, piles = deal.get("hands"), deal.get("piles", {})
    extras = deal.get("extras", {})
    return (
        type(hands) is list
        and all(_cards(hand) for hand in hands)
        and type(piles) is dict
        and all(_cards(pile) for pile in piles.values())
        and ("first_leader" not in deal or _seat(deal["first_leader"]))
        and type(extras) is dict
        and all(type(v) is int for v in extras.values())
    )


def _round(obj: dict[str, Any]) -> bool:
    index, dealer = obj.get("round"), obj.get("dealer")
    return (
        ROUND_KEYS.issuperset(obj)
        and type(index) is int
        and index >= 0
        and ("deal" not in obj or _deal(obj["deal"]))
        and (dealer is None or _seat(dealer))
        and ("seating" not in obj or _seats(obj["seating"]))
    )


def _action(obj: dict[str, Any]) -> bool:
    text = obj.get("action")
    return len(obj) == 2 and _seat(obj.get("seat")) and type(text) is str and text != ""


def trick_object(value: Any) -> bool:
    """Whether ``value`` is a well-formed trick object (its cards' texts aside)."""
    if type(value) is not dict or not TRICK_KEYS.issuperset(value):
        return False
    winner, taken = value.get("winner"), value.get("taken", {})
    facts = value.get("facts", {})
    return (
        _seat(value.get("leader"))
        and _cards(value.get("cards"))
        and "winner" in value
        and (winner is None or _seat(winner))
        and type(taken) is dict
        and SEAT_KEYS.issuperset(taken)
        and all(_cards(cards) for cards in taken.values())
        and ("aside" not in value or _cards(value["aside"]))
        and ("clauses" not in value or _strings(value["clauses"]))
        and type(facts) is dict
        and all(type(v) is str for v in facts.values())
    )


def _trick_line(obj: dict[str, Any]) -> bool:
    return len(obj) == 1 and trick_object(obj.get("trick"))


def _scores(obj: dict[str, Any]) -> bool:
    return (
        SCORES_KEYS.issuperset(obj)
        and _ints(obj.get("scores"))
        and ("totals" not in obj or _ints(obj["totals"]))
        and ("first_leader" not in obj or _seat(obj["first_leader"]))
        and type(obj.get("facts", {})) is dict
    )


def _totals(obj: dict[str, Any]) -> bool:
    return (
        TOTALS_KEYS.issuperset(obj)
        and _ints(obj.get("totals"))
        and ("winners" not in obj or _seats(obj["winners"]))
        and type(obj.get("complete", False)) is bool
    )


def _end(obj: dict[str, Any]) -> bool:
    end = obj.get("end")
    return (
        len(obj) == 1
        and type(end) is dict
        and len(end) == 1
        and type(end.get("lines")) is int
        and end["lines"] >= 1
    )


WELL_FORMED: dict[str, Callable[[dict[str, Any]], bool]] = {
    HEADER: _header,
    ROUND: _round,
    ACTION: _action,
    TRICK: _trick_line,
    SCORES: _scores,
    TOTALS: _totals,
    END: _end,
}
"""The fast plain test of each kind of line."""


def well_formed(kind: str, obj: dict[str, Any]) -> bool:
    """Whether the line ``obj`` of ``kind`` is well formed by plain tests (False: ask the
    schema, :func:`problem`)."""
    return WELL_FORMED[kind](obj)


def problem(kind: str, obj: dict[str, Any]) -> str | None:
    """The first field of the line ``obj`` that breaks the schema's definition of
    ``kind``, as one line (``trick.cards[0]: 'R-1' does not match ...``), or None."""
    found = first_problem("log", kind, obj)
    return None if found is None else problem_text(found)


def require(kind: str, obj: dict[str, Any]) -> dict[str, Any]:
    """The line ``obj`` of ``kind``, well formed; :class:`UnreadableError` with the schema's
    message if it is not. A number written with a fraction of zero (``2.0``) is an integer
    to the schema; the line returned has it as one."""
    if WELL_FORMED[kind](obj):
        return obj
    found = problem(kind, obj)
    if found is not None:
        raise UnreadableError(found)
    whole: dict[str, Any] = integral(obj)
    return whole
