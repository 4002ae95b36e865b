"""The log checker: ``tricklaw check RECORD`` replays a game written by any implementation.

It reads either a JSON game record (``spec/record.schema.json``) or a **JSON Lines log**
(``spec/log.schema.json``, described below), replays every action through the reference
model, and reports the **first** divergence in log order as one line: an illegal action, a
wrong trick result, a wrong deal, score, total or winner. Each report names the place
(line, round, action or trick), what the log says, the value the rules give (the
*expected* value) and the clause ids that decide it. Exit status: 0 the log agrees with
the rules, 1 it diverges, 2 it cannot be read (malformed JSON, a field of the wrong type,
an unknown ruleset or option, a card that no palette has such as ``Q99``)::

    $ tricklaw check game.jsonl
    agrees: sticheln, 4 players: 2 rounds, 120 actions, 28 tricks checked; totals
    [-15, -6, -17, -30]; the game is over
    $ tricklaw check wrong.jsonl
    diverges: line 26, round 1, trick 4: the log says winner = 2; expected winner = 1
    [STI-TRICK-5, STI-TRICK-2, STI-TRICK-4]

(each verdict is one line; an unreadable log prints ``tricklaw: error: check: ...`` to
standard error). ``--json`` prints the verdict as one JSON object instead::

    {"status": "diverges", "where": {"line": 26, "path": null, "round": 1,
     "action": null, "trick": 4}, "message": "line 26, round 1, trick 4: ...",
     "expected": 1, "got": 2, "clauses": ["STI-TRICK-5", "STI-TRICK-2", "STI-TRICK-4"],
     "checked": {"rounds": 1, "actions": 20, "tricks": 3}}

``status`` is ``agrees``, ``diverges`` or ``unreadable``. In ``where``, ``line`` is the
log's line and ``path`` the place in a record (``rounds[1].tricks[2]``); ``round`` counts
from 1, and ``action`` and ``trick`` count from 1 within the round, as in the message.
Problems are found in log order: the first one, a divergence or a field that cannot be
read, decides the verdict.

**The JSON Lines log** (``"format": "tricklaw-log"``, ``"version": 1``). One JSON object
per line, written as the game goes; blank lines are ignored. The first line is the
header; the events follow::

    {"format": "tricklaw-log", "version": 1, "ruleset": "sticheln", "players": 4,
     "options": {"rounds": 2}, "seed": 7}
    {"round": 0, "deal": {"hands": [["G4", "B7", ...], ...]}}
    {"seat": 0, "action": "select G2"}
    ...
    {"seat": 3, "action": "R6"}
    {"trick": {"leader": 0, "cards": ["G9", "Y3", "B3", "R6"], "winner": 3,
     "taken": {"3": ["G9", "Y3", "B3", "R6"]}, "aside": []}}
    ...
    {"scores": [-10, 2, -9, -14], "totals": [-10, 2, -9, -14]}
    {"round": 1, "deal": {...}}
    ...
    {"totals": [-15, -6, -17, -30], "winners": [1], "complete": true}

``options`` may name only some options (the others take their defaults) and ``seed`` may
be ``null`` or absent. Each event is told by its key:

* ``{"round": 0, "deal": {...}}`` begins round 0 (indices count from 0, as the record's
  ``index``). ``deal`` is the record's deal object (``hands``, ``piles``,
  ``first_leader``, ``extras``); it may be left out when the header has a seed, and the
  seed then deals. Optional ``dealer`` and ``seating`` are checked at once.
* ``{"seat": 2, "action": "R5"}`` is one action in the record's notation. Automatic
  plays (The Last's ghost, Hund's virtual player) are not actions; they appear in tricks.
* ``{"trick": {...}}`` is the result of the trick that the action just before completed:
  the record's trick object (``leader``, ``cards``, ``winner``, optional ``taken`` and
  ``aside``; ``clauses`` and ``facts`` are not checked). Trick lines are optional, but
  one that is given must come right after the action that completed its trick.
* ``{"scores": [...]}`` ends the round, one score per seat (an automatic seat
  included); optional ``totals`` (the totals after the round), ``first_leader`` and
  ``facts`` are checked too.
* ``{"totals": [...]}`` ends the log, with optional ``winners`` and ``complete``.

Round lines are required; every other line is optional, and the checker checks what the
log gives. A log may stop anywhere: the game so far is checked. In a JSON record, the
``tricks`` of a round are checked in order as its actions complete them.

**Deals and the seed.** When the log or record has a seed, every deal it gives must be
the deal of tricklaw's portable shuffle for that seed (hands in any order, piles top
first, the ``aside`` pile in any order). An
implementation that shuffles its own way passes ``--own-shuffle``: each deal is then
checked only to be a legal deal (the deck, the hand sizes), as ``tricklaw replay`` does.

**Streaming.** A log is read line by line and each action is applied as it arrives; the
checker keeps the round in play and, of the rounds before, only the first and the last
five, which is all any ruleset looks back at (The Last's fixed ghost seat, Hund's five
designations). Memory stays flat however long the log. A JSON record is one document
and is read whole. Structure is validated by hand, line by line, with messages that name
the field; the schemas are the documentation, and the tests check that the logs tricklaw
writes validate against them. :func:`bench_check` measures the speed.

``--convert FILE`` also writes the events checked as a JSON Lines log to ``FILE``: a
record converted to a log (:func:`record_to_log` does the same in Python).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, NoReturn, TextIO

from tricklaw.model.actions import action_to_string, string_to_action
from tricklaw.model.cards import VALUE_LIMIT, Card, Palette
from tricklaw.model.record import (
    FORMAT as RECORD_FORMAT,
)
from tricklaw.model.record import (
    loads_record,
    log_json,
    new_tricks,
    to_record,
    trick_json,
    validate_record,
)
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Deal, DealSource, Game, Phase, RoundLog, State, seat_after
from tricklaw.model.trick import TrickResult
from tricklaw.spec.errors import (
    CardError,
    IllegalActionError,
    OptionError,
    RecordError,
    TricklawError,
)

FORMAT = "tricklaw-log"
VERSION = 1
AGREES, DIVERGES, UNREADABLE = "agrees", "diverges", "unreadable"
EXIT_STATUS = {AGREES: 0, DIVERGES: 1, UNREADABLE: 2}
KEPT_ROUNDS = 5
"""Completed rounds kept besides the first: the most any ruleset looks back (Hund)."""
CACHE_LIMIT = 4096
"""Most distinct card and action texts remembered (a guard against odd spellings)."""
CARD_TEXT = re.compile(r"[A-Za-z][0-9]{1,2}")
"""A card in notation, as the schemas' ``card`` pattern has it."""

HEADER_KEYS = frozenset({"format", "version", "ruleset", "players", "options", "seed"})
ROUND_KEYS = frozenset({"round", "deal", "dealer", "seating"})
ACTION_KEYS = frozenset({"seat", "action"})
TRICK_LINE_KEYS = frozenset({"trick"})
TRICK_KEYS = frozenset({"leader", "cards", "winner", "taken", "aside", "clauses", "facts"})
SCORES_KEYS = frozenset({"scores", "totals", "first_leader", "facts"})
TOTALS_KEYS = frozenset({"totals", "winners", "complete"})
DEAL_KEYS = frozenset({"hands", "piles", "first_leader", "extras"})
RECORD_ROUND_KEYS = frozenset(
    {"index", "dealer", "first_leader", "seating", "deal", "actions", "tricks", "facts", "scores"}
)
PILE_ROLES = {
    "aside": "deck",
    "points": "points-pile",
    "ghost": "ghost-deal",
    "virtual-down": "display",
    "virtual-up": "display",
}
"""The clause role that governs each named pile of a deal (else the ruleset's ``deal``)."""
UNORDERED_PILES = frozenset({"aside"})
"""Piles whose order does not matter (compared as sets of cards)."""
ABSENT = object()
NO_DEAL = Deal(())
ACTION_LINE = re.compile(
    r'\{[ \t]*"seat"[ \t]*:[ \t]*(0|[1-9][0-9]?)[ \t]*,[ \t]*"action"[ \t]*:[ \t]*'
    r'"([^"\\\x00-\x1f]+)"[ \t]*\}[ \t\n\r]*'
)
"""A well-formed action line in its usual spelling, read without the JSON parser (a fast
path: every line it matches is JSON that parses to the same two fields)."""
_DECODE = json.JSONDecoder().raw_decode
"""The decoder behind ``json.loads``, without its wrapping: a JSON value and where it
ends (a log line is one object, so the checker decodes it directly)."""
_CARD_CACHES: dict[Palette, dict[str, Card]] = {}
_ACTION_CACHES: dict[Palette, dict[str, int]] = {}
_ACTION_LINES: dict[str, tuple[int, str]] = {}
"""Action lines read before, by their text: ``(seat, action text)`` as :data:`ACTION_LINE`
reads them (a log repeats the same few hundred lines)."""


# --- verdicts ------------------------------------------------------------------------------


@dataclass
class Verdict:
    """The outcome of a check: whether the log agrees, where it first diverges, and why."""

    status: str
    """``agrees``, ``diverges`` or ``unreadable``."""
    problem: str
    """What is wrong (or, when the log agrees, a summary), without the place."""
    line: int | None = None
    """The line of a JSON Lines log (from 1)."""
    path: str | None = None
    """Where in a JSON record, e.g. ``rounds[1].actions[4]``."""
    round: int | None = None
    """The round (from 1) of a divergence."""
    action: int | None = None
    """The action (from 1, within the round) of a divergence."""
    trick: int | None = None
    """The trick (from 1, within the round) of a divergence."""
    expected: Any = None
    """The value the rules give (JSON-ready)."""
    got: Any = None
    """The value the log gives."""
    clauses: tuple[str, ...] = ()
    """The ids of the clauses that decide the expected value."""
    checked: dict[str, int] = field(default_factory=dict)
    """How many rounds, actions and tricks were checked."""

    @property
    def exit_status(self) -> int:
        """0 agrees, 1 diverges, 2 unreadable."""
        return EXIT_STATUS[self.status]

    @property
    def message(self) -> str:
        """The verdict as one line: the place, then the problem."""
        place = []
        if self.line is not None:
            place.append(f"line {self.line}")
        if self.status == DIVERGES:
            for name in ("round", "action", "trick"):
                value = getattr(self, name)
                if value is not None:
                    place.append(f"{name} {value}")
        text = f"{', '.join(place)}: {self.problem}" if place else self.problem
        return " ".join(text.split())

    def as_json(self) -> dict[str, Any]:
        """The verdict as the ``--json`` object."""
        return {
            "status": self.status,
            "where": {
                "line": self.line,
                "path": self.path,
                "round": self.round,
                "action": self.action,
                "trick": self.trick,
            },
            "message": self.message,
            "expected": self.expected,
            "got": self.got,
            "clauses": list(self.clauses),
            "checked": dict(self.checked),
        }


class _UnreadableError(TricklawError):
    """The log cannot be read; the message names the field."""


class _DivergenceError(Exception):
    """The log disagrees with the rules."""

    def __init__(
        self,
        problem: str,
        expected: Any,
        got: Any,
        clauses: Sequence[str] = (),
        expected_text: str | None = None,
    ) -> None:
        shown = _show(expected) if expected_text is None else expected_text
        super().__init__(f"{problem}; expected {shown}")
        self.clauses = tuple(c for c in clauses if c)
        self.problem = f"{problem}; expected {shown}" + (
            f" [{', '.join(self.clauses)}]" if self.clauses else ""
        )
        self.expected = expected
        self.got = got


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _short(value: Any) -> str:
    text = _show(value)
    return text if len(text) <= 60 else text[:57] + "..."


# --- structure, validated by hand ---------------------------------------------------------


def _join(prefix: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else key


def _object(
    value: Any, where: str, what: str, allowed: frozenset[str], required: Sequence[str] = ()
) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _UnreadableError(f"{where or what}: expected a JSON object, got {_short(value)}")
    for key in required:
        if key not in value:
            raise _UnreadableError(
                f"{where}: {what} lacks {key!r}" if where else f"{what} lacks {key!r}"
            )
    for key in value:
        if key not in allowed:
            raise _UnreadableError(
                f"{_join(where, key)}: unknown key in {what} (keys: {', '.join(sorted(allowed))})"
            )
    return value


def _integer(value: Any, where: str, low: int, high: int, what: str = "an integer") -> int:
    if type(value) is not int:
        raise _UnreadableError(f"{where}: expected {what}, got {_short(value)}")
    if not low <= value <= high:
        raise _UnreadableError(f"{where}: {value} is outside {low}..{high}")
    return value


def _seat(value: Any, where: str) -> int:
    return _integer(value, where, 0, 15, "a seat number")


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise _UnreadableError(f"{where}: expected a JSON array, got {_short(value)}")
    return value


def _integers(value: Any, where: str) -> list[int]:
    items = _list(value, where)
    for i, item in enumerate(items):
        if type(item) is not int:
            raise _UnreadableError(f"{where}[{i}]: expected an integer, got {_short(item)}")
    return items


def _seats(value: Any, where: str) -> list[int]:
    items = _list(value, where)
    for i, item in enumerate(items):
        if type(item) is not int or not 0 <= item <= 15:
            _seat(item, f"{where}[{i}]")  # raises, naming the item
    return items


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise _UnreadableError(f"{where}: expected a non-empty string, got {_short(value)}")
    return value


def _string_map(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _UnreadableError(f"{where}: expected a JSON object, got {_short(value)}")
    return value


def _action_fields(obj: Any, where: str) -> tuple[int, str]:
    """``(seat, action text)`` of an action object (fast when it is well formed)."""
    if type(obj) is dict and len(obj) == 2:
        seat = obj.get("seat")
        text = obj.get("action")
        if type(seat) is int and 0 <= seat <= 15 and type(text) is str and text:
            return seat, text
    obj = _object(obj, where, "an action", ACTION_KEYS, ("seat", "action"))
    seat, text = obj["seat"], obj["action"]
    return _seat(seat, _join(where, "seat")), _text(text, _join(where, "action"))


SEAT_TEXTS = tuple(str(seat) for seat in range(16))
SEAT_KEYS = frozenset(SEAT_TEXTS)
SEAT_NUMBERS = {str(seat): seat for seat in range(16)}
ONLY_STR = frozenset({str})


def _trick_object(value: Any, where: str) -> dict[str, Any]:
    """A trick object, validated: fast when well formed, else a message naming the field."""
    if type(value) is dict and TRICK_KEYS.issuperset(value):
        leader = value.get("leader")
        winner = value.get("winner", ABSENT)
        taken = value.get("taken", {})
        clauses = value.get("clauses", [])
        facts = value.get("facts", {})
        if (
            type(leader) is int
            and 0 <= leader <= 15
            and (winner is None or (type(winner) is int and 0 <= winner <= 15))
            and "cards" in value
            and type(taken) is dict
            and SEAT_KEYS.issuperset(taken)
            and type(clauses) is list
            and ONLY_STR.issuperset(map(type, clauses))
            and type(facts) is dict
            and ONLY_STR.issuperset(map(type, facts.values()))
        ):
            return value
    return _trick_object_slowly(value, where)


def _trick_object_slowly(value: Any, where: str) -> dict[str, Any]:
    obj = _object(value, where, "a trick", TRICK_KEYS, ("leader", "cards", "winner"))
    _seat(obj["leader"], _join(where, "leader"))
    if obj["winner"] is not None:
        _seat(obj["winner"], _join(where, "winner"))
    if "taken" in obj:
        for key in _string_map(obj["taken"], _join(where, "taken")):
            if key not in SEAT_KEYS:
                raise _UnreadableError(f"{_join(where, 'taken')}: key {key!r} is not a seat number")
    if "clauses" in obj:
        for i, item in enumerate(_list(obj["clauses"], _join(where, "clauses"))):
            if not isinstance(item, str):
                raise _UnreadableError(
                    f"{where}.clauses[{i}]: expected a string, got {_short(item)}"
                )
    if "facts" in obj:
        for key, item in _string_map(obj["facts"], _join(where, "facts")).items():
            if not isinstance(item, str):
                raise _UnreadableError(
                    f"{where}.facts.{key}: expected a string, got {_short(item)}"
                )
    return obj


def _loads(text: str) -> dict[str, Any]:
    try:  # the fast path: the usual line, a JSON object from its first character
        obj, end = _DECODE(text)
        if type(obj) is dict and (end == len(text) or text[end:].isspace()):
            return obj
    except (ValueError, RecursionError):
        pass  # json.loads below says what is wrong
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _UnreadableError(f"not valid JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise _UnreadableError("not valid JSON: nested too deeply") from None
    if not isinstance(obj, dict):
        raise _UnreadableError(f"expected a JSON object, got {_short(obj)}")
    return obj


# --- the checker -------------------------------------------------------------------------


def _make_game(ruleset_id: Any, players: Any, options: Any, where: str) -> Game:
    if not isinstance(ruleset_id, str):
        raise _UnreadableError(
            f"{_join(where, 'ruleset')}: expected a string, got {_short(ruleset_id)}"
        )
    count = _integer(players, _join(where, "players"), 1, 16)
    chosen = _string_map(options, _join(where, "options"))
    for key, value in chosen.items():
        if not isinstance(value, str) and type(value) is not int:
            raise _UnreadableError(
                f"{_join(_join(where, 'options'), key)}: expected a string or an integer, "
                f"got {_short(value)}"
            )
    try:
        ruleset = get_ruleset(ruleset_id)
    except OptionError as exc:
        raise _UnreadableError(f"{_join(where, 'ruleset')}: {exc}") from None
    try:
        return ruleset.make_game(count, chosen)
    except OptionError as exc:
        name = "options" if count in ruleset.player_counts else "players"
        raise _UnreadableError(f"{_join(where, name)}: {exc}") from None


def _seed(value: Any, where: str) -> int | None:
    if value is None:
        return None
    return _integer(value, where, 0, 2**64 - 1)


class _Checker:
    """The model, driven one event at a time; each method raises ``_DivergenceError`` at the
    first disagreement and ``_UnreadableError`` for a field it cannot read."""

    def __init__(self, game: Game, seed: int | None, own_shuffle: bool, noun: str) -> None:
        self.game = game
        self.noun = noun
        """What the input is called in messages: ``log`` or ``record``."""
        self.ruleset: Ruleset[Any] = game.ruleset
        self.palette = game.ruleset.palette
        self.clause = game.ruleset.clause
        self.seed = seed
        self.own_shuffle = own_shuffle
        self.state: State[Any] | None = None
        self.index = -1
        """The 0-based index of the log's current round."""
        self.tricks_done = 0
        """Tricks the rules have completed in the log's current round."""
        self.pending: list[tuple[int, int, TrickResult, tuple[int, ...]]] = []
        """Tricks completed by the last action and not yet checked: (index, leader, result,
        seating)."""
        self.scored = False
        self.ended = False
        self.actions_in_round = 0
        self.at_round: int | None = None
        """Where the last event is (1-based): the round, and the trick if ``at`` says so."""
        self.at = "round"
        """What the last event is: ``round``, ``action``, ``trick`` or ``game``."""
        self.at_trick = 0
        self.n_rounds = self.n_actions = self.n_tricks = 0
        self._cards = _CARD_CACHES.setdefault(self.palette, {})
        self._names = _card_names(self.palette)
        self._actions = _ACTION_CACHES.setdefault(self.palette, {})

    # --- reading cards, actions and deals ----------------------------------------------

    def card(self, text: Any, where: str) -> Card:
        """The card ``text`` names; unreadable unless it is a card of the palette."""
        found = self._cards.get(text) if isinstance(text, str) else None
        if found is not None:
            return found
        if not isinstance(text, str) or not CARD_TEXT.fullmatch(text):
            raise _UnreadableError(
                f"{where}: {_short(text)} is not a card (a colour letter and a value)"
            )
        try:
            card = self.palette.parse(text)
        except CardError as exc:
            raise _UnreadableError(f"{where}: {exc}") from None
        if len(self._cards) < CACHE_LIMIT:
            self._cards[text] = card
        return card

    def cards(
        self, value: Any, where: str, key: str | int | None = None, sub: str | None = None
    ) -> tuple[Card, ...]:
        """Each card of the JSON array ``value``, found at ``where`` (``.key.sub`` in it)."""
        if type(value) is list:
            try:
                found = tuple(map(self._cards.get, value))
            except TypeError:  # an unhashable item: the slow path names it
                found = (None,)
            if None not in found:
                return found  # type: ignore[return-value]
        if key is not None:
            where = _join(where, key)
        if sub is not None:
            where = _join(where, sub)
        card = self.card
        return tuple(card(text, f"{where}[{i}]") for i, text in enumerate(_list(value, where)))

    def action_code(self, text: str, where: str) -> int:
        """The action ``text`` names in notation."""
        found = self._actions.get(text)
        if found is not None:
            return found
        try:
            action = string_to_action(text, self.palette)
        except CardError as exc:
            raise _UnreadableError(f"{where}: {exc}") from None
        if len(self._actions) < CACHE_LIMIT:
            self._actions[text] = action
        return action

    def deal(self, value: Any, where: str) -> Deal:
        """The deal object ``value`` (the record's form)."""
        obj = _object(value, where, "a deal", DEAL_KEYS, ("hands",))
        hands_at = _join(where, "hands")
        hands = tuple(
            self.cards(hand, hands_at, i) for i, hand in enumerate(_list(obj["hands"], hands_at))
        )
        piles_at = _join(where, "piles")
        piles = tuple(
            (name, self.cards(cards, piles_at, name))
            for name, cards in _string_map(obj.get("piles", {}), piles_at).items()
        )
        first = obj.get("first_leader")
        if "first_leader" in obj:
            _seat(first, _join(where, "first_leader"))
        extras_at = _join(where, "extras")
        extras = tuple(
            (name, _integer(number, f"{extras_at}.{name}", -(2**63), 2**63 - 1))
            for name, number in _string_map(obj.get("extras", {}), extras_at).items()
        )
        return Deal(hands, piles, first, extras)

    # --- events ------------------------------------------------------------------------

    def begin_round(self, index: Any, deal_raw: Any, fields: dict[str, Any], where: str) -> None:
        """A round begins: check that the last one is over, then the deal."""
        index = _integer(index, _join(where, "round" if not where else "index"), 0, 2**63 - 1)
        deal = None if deal_raw is ABSENT else self.deal(deal_raw, _join(where, "deal"))
        dealer = fields.get("dealer", ABSENT)
        if dealer is not ABSENT and dealer is not None:
            _seat(dealer, _join(where, "dealer"))
        if "seating" in fields:
            _seats(fields["seating"], _join(where, "seating"))
        self.pending.clear()
        self.at_round, self.at = None, "round"  # the round number, once the index is right
        if index != self.index + 1:
            raise _DivergenceError(
                f"the {self.noun} begins a round with index {index}",
                self.index + 1,
                index,
                expected_text=f"index {self.index + 1}, the next round",
            )
        if deal is None and self.seed is None:
            raise _UnreadableError(
                f"{_join(where, 'deal')}: the round has no deal and the header no seed to deal it"
            )
        self.at_round = index + 1
        state = self.state
        if state is not None:
            self._check_previous_over(state, index)
            if len(state.info.history) > KEPT_ROUNDS + 1:
                kept = _kept(state.info.history)
                state = state._replace(info=replace(state.info, history=kept))
        if deal is not None:
            state = self._dealt(state, index, deal)
        elif state is None:
            assert self.seed is not None
            state = self.game.new_initial_state(self.seed)
        info = state.info
        if dealer is not ABSENT and dealer != info.dealer:
            raise _DivergenceError(
                f"the {self.noun} says dealer = {_show(dealer)}", info.dealer, dealer
            )
        if "seating" in fields and fields["seating"] != list(info.seating):
            raise _DivergenceError(
                f"the {self.noun} says seating = {_show(fields['seating'])}",
                list(info.seating),
                fields["seating"],
            )
        self.state = state
        self.index = index
        self.tricks_done = 0
        self.actions_in_round = 0
        self.scored = False
        self.n_rounds += 1

    def _check_previous_over(self, state: State[Any], index: int) -> None:
        if state.phase is Phase.OVER:
            raise _DivergenceError(
                f"the {self.noun} begins round {index + 1}, but by the rules the game ended after "
                f"round {index}",
                None,
                index,
                [self.clause.get("game-end", "")],
                expected_text="no more rounds",
            )
        if state.info.index < index:
            raise _DivergenceError(
                f"the {self.noun} begins round {index + 1}, but by the rules round {index} is not "
                f"over: {self._turn(state)}",
                None,
                index,
                [self.clause.get("round-end", "")],
                expected_text=f"the rest of round {index}",
            )

    def _turn(self, state: State[Any]) -> str:
        held = len(state.hands[state.current]) if state.current >= 0 else 0
        return f"seat {state.current} is to act, holding {held} cards"

    def _dealt(self, state: State[Any] | None, index: int, deal: Deal) -> State[Any]:
        """The round's state under the log's ``deal``, checked against the seed's deal or
        (own shuffle, no seed) against the rules of a deal."""
        game = self.game
        seeded = self.seed is not None and not self.own_shuffle
        if seeded:
            assert self.seed is not None
            if state is None:
                state = game.new_initial_state(self.seed)
            self._compare_deal(deal, state.info.deal)
            return state
        history = state.info.history if state is not None else ()
        try:
            if len(history) == index:  # every earlier round at hand: the rules across rounds
                self.ruleset.check_deals(game, [*(log.deal for log in history), deal])
            else:
                self.ruleset.check_deal(game, deal)
        except CardError as exc:
            text = str(exc)
            found = re.search(r" \[([A-Z][A-Z0-9-]*)\]$", text)
            clause = found.group(1) if found else self.clause["deck"]
            text = text[: found.start()] if found else text
            text = re.sub(r"^round \d+: ", "", text)
            raise _DivergenceError(
                f"the deal breaks the rules: {text}",
                None,
                None,
                [clause],
                expected_text="a deal by the rules",
            ) from None
        source = DealSource(0 if self.seed is None else self.seed, (deal,) * (index + 1))
        totals = state.info.totals if state is not None else (0,) * game.seats
        return self.ruleset.start_round(game, source, index, totals, history)

    def _compare_deal(self, given: Deal, expected: Deal) -> None:
        fmt = self.palette.format_all
        hint = f"seed {self.seed} deals"
        note = " (--own-shuffle accepts any legal deal)"
        deal_clause = self.clause["deal"]
        if len(given.hands) != len(expected.hands):
            raise _DivergenceError(
                f"the {self.noun} deals {len(given.hands)} hands{note}",
                len(expected.hands),
                len(given.hands),
                [deal_clause],
                expected_text=f"{len(expected.hands)} hands",
            )
        for seat, (mine, theirs) in enumerate(zip(given.hands, expected.hands, strict=True)):
            if mine != theirs and sorted(mine) != sorted(theirs):
                extra = sorted(set(mine) - set(theirs)) or sorted(mine)
                missing = sorted(set(theirs) - set(mine)) or sorted(theirs)
                raise _DivergenceError(
                    f"the {self.noun} deals seat {seat} {' '.join(fmt(extra))} where {hint} "
                    f"{' '.join(fmt(missing))}{note}",
                    fmt(theirs),
                    fmt(mine),
                    [deal_clause],
                    expected_text=f"seat {seat}'s hand {' '.join(fmt(sorted(theirs)))}",
                )
        if given.piles:
            names = [n for n, _ in expected.piles] + [
                n for n, _ in given.piles if not expected.pile(n)
            ]
            for name in names:
                mine, theirs = given.pile(name), expected.pile(name)
                same = sorted(mine) == sorted(theirs) if name in UNORDERED_PILES else mine == theirs
                if not same:
                    clause = self.clause.get(PILE_ROLES.get(name, "deal"), deal_clause)
                    raise _DivergenceError(
                        f"the {self.noun}'s pile {name!r} is "
                        f"{' '.join(fmt(mine)) or 'empty'}{note}",
                        fmt(theirs),
                        fmt(mine),
                        [clause or deal_clause],
                        expected_text=f"{hint} {' '.join(fmt(theirs)) or 'none'}",
                    )
        if given.first_leader is not None and given.first_leader != expected.first_leader:
            raise _DivergenceError(
                f"the {self.noun}'s deal says first_leader = {given.first_leader}{note}",
                expected.first_leader,
                given.first_leader,
                [self.clause.get("first-lead", deal_clause)],
                expected_text=f"{hint} first_leader = {expected.first_leader}",
            )
        theirs_extras = dict(expected.extras)
        for name, number in given.extras:
            if theirs_extras.get(name) != number:
                raise _DivergenceError(
                    f"the {self.noun}'s deal says {name} = {number}{note}",
                    theirs_extras.get(name),
                    number,
                    [self.clause.get(name, deal_clause)],
                    expected_text=f"{hint} {name} = {_show(theirs_extras.get(name))}",
                )

    def action(self, seat: int, text: str, where: str) -> None:
        """One action: the seat to act, its legality, then the tricks it completes."""
        state = self.state
        if state is None:
            raise _UnreadableError(f"{where or 'action'}: an action before the first round line")
        code = self._actions.get(text)
        if code is None:
            code = self.action_code(text, _join(where, "action"))
        if self.pending:
            self.pending.clear()
        self.actions_in_round += 1
        self.at = "action"
        info = state.info
        if seat != state.current or info.index != self.index:  # over: current is -1
            self._wrong_turn(state, seat)
        tricks = state.tricks
        ruleset = self.ruleset
        if not ruleset.is_legal(state, code):
            self._illegal(state, code, text)
        new = ruleset.apply(state, code)
        if new.info is not info:  # the action ended the round (or the game)
            for t_index, leader, result, seating in new_tricks(
                new, (len(info.history), len(tricks))
            ):
                self.pending.append((t_index, leader, result, seating))
                self.tricks_done += 1
        elif new.tricks is not tricks:  # the action completed a trick
            for t_index in range(len(tricks), len(new.tricks)):
                leader, result = new.tricks[t_index]
                self.pending.append((t_index, leader, result, info.seating))
                self.tricks_done += 1
        self.state = new
        self.n_actions += 1

    def _wrong_turn(self, state: State[Any], seat: int) -> NoReturn:
        if state.phase is Phase.OVER or state.info.index != self.index:
            self._after_end(state, "goes on with an action")
        auto = ""
        if self.game.players <= seat < self.game.seats:
            auto = f" (the rules play seat {seat}: its cards appear only in the tricks)"
        raise _DivergenceError(
            f"seat {seat} acts, but it is seat {state.current}'s turn{auto}",
            state.current,
            seat,
            [self.clause["turn"]],
            expected_text=f"seat {state.current}",
        )

    def _illegal(self, state: State[Any], code: int, text: str) -> NoReturn:
        try:
            state.apply_action(code)  # raises the error that names the clause
        except IllegalActionError as exc:
            legal = [action_to_string(a, self.palette) for a in state.legal_actions()]
            shown = " ".join(legal[:24]) + (" ..." if len(legal) > 24 else "")
            raise _DivergenceError(
                str(exc).removesuffix(f" [{exc.clause}]"),
                legal,
                text,
                [exc.clause],
                expected_text=f"one of {shown}" if legal else "no action",
            ) from None
        raise AssertionError("an action not among the legal ones was applied")

    def _after_end(self, state: State[Any], doing: str) -> NoReturn:
        if state.phase is Phase.OVER and state.info.history[-1].index == self.index:
            raise _DivergenceError(
                f"the {self.noun} {doing}, but by the rules the game is over",
                None,
                None,
                [self.clause.get("game-end", "")],
                expected_text="the end of the game",
            )
        raise _DivergenceError(
            f"the {self.noun} {doing}, but by the rules round {self.index + 1} is over",
            None,
            None,
            [self.clause.get("round-end", "")],
            expected_text=f"the end of round {self.index + 1}",
        )

    def trick(self, value: Any, where: str) -> None:
        """A recorded trick result (the trick object ``value``, not yet validated), against
        the trick the last action completed."""
        if self.pending and self._as_written(value):
            self.pending.pop(0)
            self.n_tricks += 1
            return
        raw = _trick_object(value, where)
        state = self.state
        if state is None:
            raise _UnreadableError(f"{where or 'trick'}: a trick before the first round line")
        cards = self.cards(raw["cards"], where, "cards")
        taken_raw = raw.get("taken")
        taken = (
            None
            if taken_raw is None
            else {
                seat: self.cards(cs, where, "taken", seat) for seat, cs in taken_raw.items() if cs
            }
        )
        aside_raw = raw.get("aside", ABSENT)
        aside = None if aside_raw is ABSENT else self.cards(aside_raw, where, "aside")
        if not self.pending:
            self.at, self.at_trick = "trick", self.tricks_done + 1
            played = self.palette.format_all(state.trick)
            raise _DivergenceError(
                f"the {self.noun} records a trick, but by the rules the last action completed none",
                played,
                raw.get("cards"),
                expected_text=(
                    f"the trick in play to go on ({len(played)} of {self.game.seats} cards: "
                    f"{' '.join(played) or 'none'})"
                ),
            )
        t_index, leader, result, seating = self.pending.pop(0)
        self.at, self.at_trick = "trick", t_index + 1
        problem = ""
        if raw["leader"] != leader:
            problem = "leader"
        elif cards != result.cards:
            problem = "cards"
        elif raw["winner"] != (
            None if result.winner is None else seat_after(seating, leader, result.winner)
        ):
            problem = "winner"
        elif taken is not None and not _same_taken(taken, result, leader, seating):
            problem = "taken"
        elif aside is not None and aside != result.aside and sorted(aside) != sorted(result.aside):
            problem = "aside"
        if problem:
            expected = trick_json(leader, result, seating, self.palette)[problem]
            raise _DivergenceError(
                f"the {self.noun} says {problem} = {_show(raw[problem])}",
                expected,
                raw[problem],
                result.clauses,
                expected_text=f"{problem} = {_show(expected)}",
            )
        self.n_tricks += 1

    def _as_written(self, raw: Any) -> bool:
        """Whether ``raw`` is a well-formed trick object that says exactly what the next
        pending trick is, its cards in notation as tricklaw writes them: the fast path,
        which parses no card and builds no message. Anything else (a divergence, a field
        that cannot be read, another spelling) goes the slow way, which says what is wrong.
        """
        if type(raw) is not dict or not TRICK_KEYS.issuperset(raw):
            return False
        t_index, leader, result, seating = self.pending[0]
        names = self._names
        got = raw.get("leader")
        if type(got) is not int or got != leader:
            return False
        if raw.get("cards") != [names[c] for c in result.cards]:
            return False
        base, size = seating.index(leader), len(seating)
        got, winner = raw.get("winner", ABSENT), result.winner
        if winner is None:
            if got is not None:
                return False
        elif type(got) is not int or got != seating[(base + winner) % size]:
            return False
        taken = raw.get("taken", ABSENT)
        if taken is not ABSENT and taken != {
            SEAT_TEXTS[seating[(base + offset) % size]]: [names[c] for c in cards]
            for offset, cards in result.taken
            if cards
        }:
            return False
        aside = raw.get("aside", ABSENT)
        if aside is not ABSENT and aside != [names[c] for c in result.aside]:
            return False
        clauses = raw.get("clauses", ABSENT)
        if clauses is not ABSENT and (
            type(clauses) is not list or not ONLY_STR.issuperset(map(type, clauses))
        ):
            return False
        facts = raw.get("facts", ABSENT)
        if facts is not ABSENT and (
            type(facts) is not dict or not ONLY_STR.issuperset(map(type, facts.values()))
        ):
            return False
        self.at, self.at_trick = "trick", t_index + 1
        return True

    def skip_trick(self) -> None:
        """The log does not record the next completed trick."""
        self.pending.pop(0)

    def round_over(self) -> bool:
        """Whether the rules have ended the log's current round."""
        state = self.state
        return state is not None and (state.phase is Phase.OVER or state.info.index > self.index)

    def end_round(self, fields: dict[str, Any], where: str) -> None:
        """The round's scores (and the other facts the log gives) once it is over."""
        state = self.state
        if state is None:
            raise _UnreadableError(f"{where or 'scores'}: scores before the first round line")
        for key in ("scores", "totals"):
            if key in fields:
                _integers(fields[key], _join(where, key))
        if "first_leader" in fields:
            _seat(fields["first_leader"], _join(where, "first_leader"))
        if "facts" in fields:
            _string_map(fields["facts"], _join(where, "facts"))
        if self.scored:
            raise _UnreadableError(f"{where or 'scores'}: round {self.index + 1} is scored twice")
        self.pending.clear()
        self.at = "round"
        if not self.round_over():
            raise _DivergenceError(
                f"the {self.noun} ends round {self.index + 1}, but by the rules it is not over: "
                f"{self._turn(state)}",
                None,
                None,
                [self.clause.get("round-end", "")],
                expected_text=f"more of round {self.index + 1}",
            )
        log = next(log for log in reversed(state.info.history) if log.index == self.index)
        expected = log_json(self.game, _bare(log))
        score_clause = self.clause.get("score-total", "")
        deciding = {"scores": score_clause, "first_leader": self.clause.get("first-lead", "")}
        for key in ("scores", "first_leader", "facts"):
            if key in fields and fields[key] != expected[key]:
                raise _DivergenceError(
                    f"the {self.noun} says {key} = {_show(fields[key])}",
                    expected[key],
                    fields[key],
                    [deciding.get(key, "")],
                    expected_text=f"{key} = {_show(expected[key])}",
                )
        totals = list(state.returns())
        if "totals" in fields and fields["totals"] != totals:
            raise _DivergenceError(
                f"the {self.noun} says the totals after round {self.index + 1} are "
                f"{_show(fields['totals'])}",
                totals,
                fields["totals"],
                [score_clause],
            )
        self.scored = True

    def end_game(self, fields: dict[str, Any], where: str) -> None:
        """The log's last word: totals, winners, whether the game is over."""
        if "totals" in fields:
            _integers(fields["totals"], _join(where, "totals"))
        if "winners" in fields:
            _seats(fields["winners"], _join(where, "winners"))
        if "complete" in fields and not isinstance(fields["complete"], bool):
            raise _UnreadableError(
                f"{_join(where, 'complete')}: expected true or false, got "
                f"{_short(fields['complete'])}"
            )
        self.pending.clear()
        self.at_round, self.at = None, "game"
        self.ended = True
        state = self.state
        over = state is not None and state.phase is Phase.OVER
        totals = list(state.returns()) if state is not None else [0] * self.game.seats
        end_clause = self.clause.get("game-end", "")
        if "complete" in fields and fields["complete"] != over:
            said = "complete" if fields["complete"] else "unfinished"
            raise _DivergenceError(
                f"the {self.noun} says the game is {said}",
                over,
                fields["complete"],
                [end_clause],
                expected_text="over" if over else f"not over ({self._progress()})",
            )
        if "totals" in fields and fields["totals"] != totals:
            raise _DivergenceError(
                f"the {self.noun} says totals = {_show(fields['totals'])}",
                totals,
                fields["totals"],
                [self.clause.get("score-total", "")],
            )
        if "winners" in fields:
            if not over:
                raise _DivergenceError(
                    f"the {self.noun} names winners, but by the rules the game is not over",
                    None,
                    fields["winners"],
                    [end_clause],
                    expected_text=f"no winners yet ({self._progress()})",
                )
            winners = list(self.ruleset.winners(self.game, totals))
            if fields["winners"] != winners:
                raise _DivergenceError(
                    f"the {self.noun} says winners = {_show(fields['winners'])}",
                    winners,
                    fields["winners"],
                    [self.clause.get("winner", end_clause)],
                )

    def _progress(self) -> str:
        state = self.state
        if state is None:
            return "no round played"
        return f"round {state.info.index + 1} is in play, {self._turn(state)}"

    def where(self) -> tuple[int | None, int | None, int | None]:
        """(round, action, trick) of the last event, counted from 1."""
        return (
            self.at_round,
            self.actions_in_round if self.at == "action" else None,
            self.at_trick if self.at == "trick" else None,
        )

    def counts(self) -> dict[str, int]:
        """How many rounds, actions and tricks were checked."""
        return {"rounds": self.n_rounds, "actions": self.n_actions, "tricks": self.n_tricks}

    def summary(self) -> str:
        """The one-line summary of a log that agrees."""
        state = self.state
        game = self.game
        counts = self.counts()
        head = f"{game.ruleset.id}, {game.players} players: " + ", ".join(
            f"{n} {name if n != 1 else name[:-1]}" for name, n in counts.items()
        )
        head += " checked"
        if state is None:
            return f"{head}; no round played"
        end = "the game is over" if state.phase is Phase.OVER else "the game goes on"
        return f"{head}; totals {list(state.returns())}; {end}"


@cache
def _card_names(palette: Palette) -> tuple[str, ...]:
    """Every card's notation, by card number (a card's number is below ``32 * colours``)."""
    return tuple(palette.format(Card(n)) for n in range(VALUE_LIMIT * len(palette.letters)))


def _same_taken(
    taken: dict[str, tuple[Card, ...]],
    result: TrickResult,
    leader: int,
    seating: tuple[int, ...],
) -> bool:
    """Whether the log's ``taken`` (seat text -> cards, none empty) is the result's, each
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


def _kept(history: tuple[RoundLog, ...]) -> tuple[RoundLog, ...]:
    """The completed rounds the checker keeps: the first and the last ``KEPT_ROUNDS``."""
    if len(history) <= KEPT_ROUNDS + 1:
        return history
    return (history[0], *history[-KEPT_ROUNDS:])


def _bare(log: RoundLog) -> RoundLog:
    """``log`` without its deal, actions and tricks (checked already), for ``log_json``."""
    return RoundLog(
        log.index, log.dealer, log.first_leader, log.seating, NO_DEAL, (), (), log.facts, log.scores
    )


# --- the two readers ---------------------------------------------------------------------


def _verdict(
    status: str,
    problem: str,
    checker: _Checker | None,
    *,
    line: int | None = None,
    path: str | None = None,
    divergence: _DivergenceError | None = None,
) -> Verdict:
    where = checker.where() if checker is not None and status == DIVERGES else (None, None, None)
    out = Verdict(
        status,
        problem,
        line=line,
        path=path,
        round=where[0],
        action=where[1],
        trick=where[2],
        checked=checker.counts() if checker is not None else {},
    )
    if divergence is not None:
        out.expected, out.got, out.clauses = (
            divergence.expected,
            divergence.got,
            divergence.clauses,
        )
    return out


def _header(obj: dict[str, Any], own_shuffle: bool) -> _Checker:
    if "format" not in obj:
        raise _UnreadableError(
            f'the log has no header: its first line must be {{"format": "{FORMAT}", '
            f'"version": {VERSION}, "ruleset": ..., "players": ...}}'
        )
    _object(obj, "", "the header", HEADER_KEYS, ("format", "version", "ruleset", "players"))
    if obj["format"] != FORMAT:
        raise _UnreadableError(
            f"format: {_short(obj['format'])} is neither {FORMAT!r} (a log's header line) "
            f"nor {RECORD_FORMAT!r} (a record)"
        )
    if obj["version"] != VERSION or type(obj["version"]) is not int:
        raise _UnreadableError(
            f"version: {_short(obj['version'])} is not supported (this tricklaw reads "
            f"version {VERSION})"
        )
    game = _make_game(obj["ruleset"], obj["players"], obj.get("options", {}), "")
    return _Checker(game, _seed(obj.get("seed"), "seed"), own_shuffle, "log")


def _action_line(text: str) -> tuple[int, str] | None:
    """``(seat, action text)`` of a well-formed action line in its usual spelling (see
    :data:`ACTION_LINE`), else None; remembered in :data:`_ACTION_LINES`."""
    fast = ACTION_LINE.fullmatch(text)
    if fast is None:
        return None
    seat = SEAT_NUMBERS.get(fast.group(1))
    if seat is None:
        return None
    found = (seat, fast.group(2))
    if len(_ACTION_LINES) < CACHE_LIMIT:
        _ACTION_LINES[text] = found
    return found


def check_lines(
    lines: Iterable[str],
    *,
    own_shuffle: bool = False,
    emit: Callable[[dict[str, Any]], None] | None = None,
) -> Verdict:
    """Check a JSON Lines log given line by line (any iterable of text lines, such as an
    open file); only the round in play is held in memory."""
    checker: _Checker | None = None
    number = 0
    try:
        for text in lines:
            number += 1
            fast = _ACTION_LINES.get(text) or _action_line(text)
            if fast is not None and checker is not None and not checker.ended:
                seat, action = fast
                checker.action(seat, action, "")
                if emit is not None:
                    emit({"seat": seat, "action": action})
                continue
            if not text or text.isspace():
                continue
            if checker is not None and checker.ended:
                raise _UnreadableError("the log goes on after its totals line")
            obj = _loads(text)
            if checker is None:
                checker = _header(obj, own_shuffle)
            elif "trick" in obj:
                if len(obj) != 1:
                    _object(obj, "", "a trick line", TRICK_LINE_KEYS)
                checker.trick(obj["trick"], "trick")
            elif "action" in obj or "seat" in obj:
                seat, action = _action_fields(obj, "")
                checker.action(seat, action, "")
            elif "round" in obj:
                _object(obj, "", "a round line", ROUND_KEYS)
                checker.begin_round(obj["round"], obj.get("deal", ABSENT), obj, "")
            elif "scores" in obj:
                _object(obj, "", "a scores line", SCORES_KEYS)
                checker.end_round(obj, "")
            elif "totals" in obj:
                _object(obj, "", "a totals line", TOTALS_KEYS)
                checker.end_game(obj, "")
            elif "format" in obj:
                raise _UnreadableError("a second header line")
            else:
                raise _UnreadableError(
                    "not a log line: expected a header, round, action (seat, action), trick, "
                    f"scores or totals line, got keys {', '.join(map(repr, obj)) or 'none'}"
                )
            if emit is not None:
                emit(obj)
    # One name per exception type: the compiled build types an ``as`` name once.
    except _UnreadableError as unreadable:
        return _verdict(UNREADABLE, str(unreadable), checker, line=number or None)
    except _DivergenceError as diverged:
        return _verdict(DIVERGES, diverged.problem, checker, line=number, divergence=diverged)
    except UnicodeDecodeError as undecodable:
        reason = undecodable.reason
        return _verdict(UNREADABLE, f"not UTF-8 text ({reason})", checker, line=number + 1)
    if checker is None:
        return _verdict(UNREADABLE, "the log is empty: it has no header line", None)
    return _verdict(AGREES, checker.summary(), checker)


def check_record(
    record: Any, *, own_shuffle: bool = False, emit: Callable[[dict[str, Any]], None] | None = None
) -> Verdict:
    """Check a JSON game record (parsed). ``emit`` receives the record's events as JSON
    Lines log objects, each once it has been checked."""
    checker: _Checker | None = None
    path = ""
    try:
        if not isinstance(record, dict):
            raise _UnreadableError("the record is not a JSON object")
        rounds = _list(record.get("rounds"), "rounds")
        try:
            validate_record({**record, "rounds": []})  # the top level, by the schema
        except RecordError as exc:
            raise _UnreadableError(str(exc)) from None
        game = _make_game(record["ruleset"], record["players"], record["options"], "")
        checker = _Checker(game, _seed(record.get("seed"), "seed"), own_shuffle, "record")
        if emit is not None:
            emit(
                {
                    "format": FORMAT,
                    "version": VERSION,
                    "ruleset": game.ruleset.id,
                    "players": game.players,
                    "options": game.options.as_dict(),
                    "seed": record.get("seed"),
                }
            )
        running = [0] * game.seats
        for r_index, rnd in enumerate(rounds):
            path = f"rounds[{r_index}]"
            _object(rnd, path, "a round", RECORD_ROUND_KEYS, ("deal", "actions"))
            start = {k: rnd[k] for k in ("dealer", "seating") if k in rnd}
            checker.begin_round(rnd.get("index", r_index), rnd["deal"], start, path)
            if emit is not None:
                emit({"round": r_index, "deal": rnd["deal"], **start})
            tricks = _list(rnd.get("tricks", []), f"{path}.tricks")
            for a_index, entry in enumerate(_list(rnd["actions"], f"{path}.actions")):
                path = f"rounds[{r_index}].actions[{a_index}]"
                seat, action = _action_fields(entry, path)
                checker.action(seat, action, path)
                if emit is not None:
                    emit({"seat": seat, "action": action})
                while checker.pending:
                    t_index = checker.pending[0][0]
                    if t_index >= len(tricks):
                        checker.skip_trick()
                        continue
                    path = f"rounds[{r_index}].tricks[{t_index}]"
                    checker.trick(tricks[t_index], path)
                    if emit is not None:
                        emit({"trick": tricks[t_index]})
            path = f"rounds[{r_index}]"
            if len(tricks) > checker.tricks_done:
                checker.at, checker.at_trick = "trick", checker.tricks_done + 1
                raise _DivergenceError(
                    f"the record lists {len(tricks)} tricks for the round",
                    checker.tricks_done,
                    len(tricks),
                    expected_text=f"{checker.tricks_done}, the tricks its actions complete",
                )
            fields = {k: rnd[k] for k in ("scores", "first_leader", "facts") if k in rnd}
            if "scores" in rnd or checker.round_over():
                checker.end_round(fields, path)
                if emit is not None and "scores" in rnd:
                    running = [t + s for t, s in zip(running, rnd["scores"], strict=False)]
                    emit({**fields, "totals": running})
        path = ""
        final = {k: record[k] for k in ("totals", "winners", "complete") if k in record}
        if final:
            checker.end_game(final, "")
            if emit is not None:
                emit(final)
    except _UnreadableError as unreadable:
        return _verdict(UNREADABLE, str(unreadable), checker, path=path or None)
    except _DivergenceError as diverged:
        return _verdict(DIVERGES, diverged.problem, checker, path=path or None, divergence=diverged)
    assert checker is not None
    return _verdict(AGREES, checker.summary(), checker)


def check_stream(
    stream: TextIO,
    *,
    own_shuffle: bool = False,
    emit: Callable[[dict[str, Any]], None] | None = None,
) -> Verdict:
    """Check an open text stream: a JSON Lines log (read line by line) or a JSON record
    (read whole). The first line tells them apart: a log's header is a whole JSON object
    with ``"format": "tricklaw-log"``."""
    try:
        blank: list[str] = []
        first = stream.readline()
        while first and first.isspace():
            blank.append(first)
            first = stream.readline()
    except UnicodeDecodeError as exc:
        return _verdict(UNREADABLE, f"not UTF-8 text ({exc.reason})", None, line=1)
    if not first:
        return _verdict(UNREADABLE, "the file is empty", None)
    try:
        head: Any = json.loads(first)
    except (json.JSONDecodeError, RecursionError):
        head = None
    if isinstance(head, dict) and head.get("format") != RECORD_FORMAT:
        return _lines_then(blank, first, stream, own_shuffle, emit)
    if head is None and FORMAT in first and first.lstrip().startswith("{"):
        # A broken header line of a log: report it, without reading the rest.
        return _lines_then(blank, first, iter(()), own_shuffle, emit)
    try:
        text = "".join(blank) + first + stream.read()
    except UnicodeDecodeError as exc:
        return _verdict(UNREADABLE, f"not UTF-8 text ({exc.reason})", None)
    try:
        record = loads_record(text)
    except RecordError as unreadable:
        return _verdict(UNREADABLE, str(unreadable), None)
    return check_record(record, own_shuffle=own_shuffle, emit=emit)


def _lines_then(
    blank: list[str],
    first: str,
    rest: Iterable[str],
    own_shuffle: bool,
    emit: Callable[[dict[str, Any]], None] | None,
) -> Verdict:
    def lines() -> Iterator[str]:
        yield from blank
        yield first
        yield from rest

    return check_lines(lines(), own_shuffle=own_shuffle, emit=emit)


def check_path(
    path: str, *, own_shuffle: bool = False, emit: Callable[[dict[str, Any]], None] | None = None
) -> Verdict:
    """Check the log or record in the file ``path`` (``-``: standard input)."""
    if path == "-":
        return check_stream(sys.stdin, own_shuffle=own_shuffle, emit=emit)
    try:
        with open(path, encoding="utf-8-sig") as fh:  # a byte order mark is skipped
            return check_stream(fh, own_shuffle=own_shuffle, emit=emit)
    except OSError as exc:
        return _verdict(UNREADABLE, f"cannot read {path}: {exc.strerror}", None)


# --- converting records, and the benchmark ------------------------------------------------


def record_to_log(record: dict[str, Any], *, own_shuffle: bool = False) -> list[str]:
    """The JSON Lines log of a JSON record: one compact JSON text per line (without line
    ends), trick lines placed after the actions that complete them and running totals on
    the scores lines. Raises :class:`~tricklaw.spec.errors.RecordError` unless the record
    agrees with the rules."""
    lines: list[str] = []

    def emit(obj: dict[str, Any]) -> None:
        lines.append(json.dumps(obj, separators=(",", ":")))

    verdict = check_record(record, own_shuffle=own_shuffle, emit=emit)
    if verdict.status != AGREES:
        raise RecordError(f"the record does not convert: {verdict.message}")
    return lines


def state_to_log(state: State[Any], seed: int | None = None) -> list[str]:
    """The JSON Lines log of the game up to ``state`` (see :func:`record_to_log`)."""
    return record_to_log(json.loads(json.dumps(to_record(state, seed))))


def bench_check(
    ruleset_id: str = "sticheln",
    players: int = 4,
    options: dict[str, Any] | None = None,
    *,
    min_actions: int = 50_000,
    seed: int = 1,
    repeat: int = 3,
) -> float:
    """Actions per second that :func:`check_lines` checks, on JSON Lines logs of random
    games (``seed``, ``seed + 1``, ...) holding ``min_actions`` actions or more; the best
    of ``repeat`` timings. The logs are made first and held in memory as text lines, so
    the time is JSON parsing, validation and checking: every line of the log (header,
    rounds with their deals, actions, tricks, scores, totals), divided by the actions.
    ``options`` default to long games, of 50 rounds where the ruleset has a ``rounds``
    option (the checker is for long logs; a short game adds the set-up of a game)."""
    from tricklaw.model.agents import play_random_game

    ruleset = get_ruleset(ruleset_id)
    if options is None:
        has_rounds = any(spec.name == "rounds" for spec in ruleset.option_specs)
        options = {"rounds": 50} if has_rounds else {}
    game = ruleset.make_game(players, options)
    logs: list[list[str]] = []
    actions = 0
    while actions < min_actions:
        state = play_random_game(game, seed + len(logs), 100)
        lines = state_to_log(state, seed + len(logs))
        actions += sum(1 for line in lines if line.startswith('{"seat"'))
        logs.append(lines)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for lines in logs:
            verdict = check_lines(lines)
            if verdict.status != AGREES:
                raise RecordError(f"bench: a generated log does not agree: {verdict.message}")
        best = min(best, time.perf_counter() - start)
    return actions / best


# --- the command -------------------------------------------------------------------------


def cmd_check(args: argparse.Namespace) -> int:
    """``tricklaw check``: print the verdict; return 0 agrees, 1 diverges, 2 unreadable."""
    out: TextIO | None = None
    emit: Callable[[dict[str, Any]], None] | None = None
    if args.convert:
        both = os.path.exists(args.convert) and os.path.exists(args.record)
        if both and os.path.samefile(args.convert, args.record):
            raise TricklawError(f"check: --convert {args.convert} would overwrite the input")
        try:
            out = open(args.convert, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as exc:
            raise TricklawError(f"check: cannot write {args.convert}: {exc.strerror}") from None
        sink = out

        def emit(obj: dict[str, Any]) -> None:
            sink.write(json.dumps(obj, separators=(",", ":")) + "\n")

    try:
        verdict = check_path(args.record, own_shuffle=args.own_shuffle, emit=emit)
    finally:
        if out is not None:
            out.close()
    if args.json:
        sys.stdout.write(json.dumps(verdict.as_json(), ensure_ascii=False) + "\n")
    elif verdict.status == UNREADABLE:
        sys.stderr.write(f"tricklaw: error: check: {verdict.message}\n")
    else:
        sys.stdout.write(f"{verdict.status}: {verdict.message}\n")
    return verdict.exit_status


def add_command(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``check`` subcommand to the ``tricklaw`` parser's ``subparsers``."""
    p = subparsers.add_parser(
        "check",
        help="check a game log or record from any implementation against the rules",
        description=(
            "Replay a JSON game record or a JSON Lines log (spec/log.schema.json) through "
            "the reference model and report the first divergence with its clause ids and "
            "the expected value. Exit status: 0 agrees, 1 diverges, 2 unreadable."
        ),
    )
    p.add_argument(
        "record", metavar="RECORD", help="a JSON record or JSON Lines log ('-': standard input)"
    )
    p.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    p.add_argument(
        "--own-shuffle",
        action="store_true",
        help="the deals come from the implementation's own shuffle: check that each is a "
        "legal deal, not that the seed gives it",
    )
    p.add_argument(
        "--convert",
        metavar="FILE",
        help="also write the events checked, as a JSON Lines log, to FILE",
    )
    p.set_defaults(func=cmd_check)
