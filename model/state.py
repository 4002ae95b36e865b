"""Games and states, in OpenSpiel's vocabulary.

A :class:`Game` is a ruleset with a player count and a full choice of options.
A :class:`State` is one moment of a whole (multi-round) game: it names the
:meth:`~State.current_player`, lists the :meth:`~State.legal_actions`, and
:meth:`~State.child` returns the next state (states are immutable, so the name is
OpenSpiel's ``child``, never its mutating ``apply_action``).
When the game :meth:`~State.is_terminal`, :meth:`~State.returns` gives each
player's total. Rounds follow one another inside the state: the last card of
a round scores it and deals the next round from the game's seed (or from
explicitly given deals, as the log checker does).

Seats are numbered ``0 .. players-1`` clockwise. Which seat is 0 is a
convention each ruleset documents (the first dealer, the youngest player, ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, NoReturn, TypeVar

from tricklaw.model.actions import action_to_string, string_to_action
from tricklaw.model.cards import Card
from tricklaw.model.options import CompiledRules, Options
from tricklaw.model.trick import TrickResult
from tricklaw.spec.errors import IllegalActionError

if TYPE_CHECKING:
    from tricklaw.model.ruleset import Ruleset

X = TypeVar("X")
R = TypeVar("R", bound=CompiledRules)


class Phase(IntEnum):
    """What the game is waiting for."""

    SELECT = 0
    """Players choose a hidden card in turn (shown to nobody until all have chosen)."""
    PLAY = 1
    """The current player plays a card to the trick."""
    CHOOSE = 2
    """One player makes a public decision (The Last: keep or swap the points card)."""
    OVER = 3
    """The game has ended."""


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one round as dealt: each seat's hand and any named piles.

    Piles are ordered as they lie (first = top), e.g. ``("aside", cards)`` for
    cards left out of play. ``first_leader`` is set where the rules draw the
    first player at random (The Last); otherwise the rules name him.
    ``extras`` holds other numbers drawn with the deal (Hund: the round's
    designated number).
    """

    hands: tuple[tuple[Card, ...], ...]
    piles: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    first_leader: int | None = None
    extras: tuple[tuple[str, int], ...] = ()

    def extra(self, name: str) -> int | None:
        """The drawn number called ``name``, if any."""
        return dict(self.extras).get(name)

    def pile(self, name: str) -> tuple[Card, ...]:
        """The pile called ``name`` (empty when there is none)."""
        for key, cards in self.piles:
            if key == name:
                return cards
        return ()


@dataclass(frozen=True, slots=True)
class Game:
    """A ruleset, a player count and a validated choice of every option.

    ``seats`` counts the places at the table: the players, plus any automatic
    player the rules add (The Last's ghost with two players).
    """

    _ruleset: Any
    """The ruleset, read typed as :attr:`ruleset`. (The field itself is typed ``Any``: the
    ruleset module builds on this one, which names it for type checking only, and the
    compiled build cannot type a dataclass field by such a name.)"""
    players: int
    seats: int
    options: Options
    rules: CompiledRules
    """The options compiled by the ruleset for its hot path (see ``Ruleset.compile``); each
    ruleset module reads them typed, through its ``rules_of(game)``."""

    def rules_as(self, kind: type[R]) -> R:
        """:attr:`rules` as ``kind``, the ruleset's own type (each ruleset module's
        ``rules_of``); a TypeError for a game of another ruleset."""
        rules = self.rules
        if not isinstance(rules, kind):
            raise TypeError(f"{self.ruleset.id} game with rules of {type(rules).__name__}")
        return rules

    @property
    def ruleset(self) -> Ruleset[Any]:
        """The :class:`~tricklaw.model.ruleset.Ruleset` this game is played by."""
        ruleset: Ruleset[Any] = self._ruleset
        return ruleset

    def new_initial_state(self, seed: int) -> State[Any]:
        """The first decision of a game whose deals come from ``seed``."""
        return self.ruleset.start_round(self, DealSource(seed, ()), 0, (0,) * self.seats, ())

    def new_state_from_deals(self, deals: Sequence[Deal], seed: int | None = None) -> State[Any]:
        """The first decision of a game with explicitly given deals (one per round);
        rounds beyond them are dealt from ``seed`` when it is given."""
        self.ruleset.check_deals(self, deals)
        source = DealSource(seed, tuple(deals))
        return self.ruleset.start_round(self, source, 0, (0,) * self.seats, ())


@dataclass(frozen=True, slots=True)
class DealSource:
    """Where each round's deal comes from: explicit deals first, else the seed."""

    seed: int | None
    deals: tuple[Deal, ...]


@dataclass(frozen=True, slots=True)
class RoundInfo:
    """What stays fixed during one round."""

    game: Game
    source: DealSource
    index: int
    dealer: int | None
    deal: Deal
    totals: tuple[int, ...]
    """Each seat's total over the rounds before this one."""
    history: tuple[RoundLog, ...]
    """The completed rounds."""
    seating: tuple[int, ...]
    """The seats in clockwise order around the table this round (usually 0, 1, 2, ...)."""
    after: tuple[int, ...]
    """``after[s]`` is the seat to the left of seat ``s``, who plays next."""
    ring: tuple[tuple[int, ...], ...]
    """``ring[s][k]`` is the seat ``k`` places clockwise from seat ``s`` (``seat_at`` as a
    table: trick results name their seats as offsets from the leader)."""

    def seat_at(self, leader: int, offset: int) -> int:
        """The seat ``offset`` places clockwise from ``leader``."""
        return self.ring[leader][offset % len(self.ring)]


def seat_after(seating: tuple[int, ...], leader: int, offset: int) -> int:
    """The seat ``offset`` places clockwise from ``leader`` around ``seating``."""
    return seating[(seating.index(leader) + offset) % len(seating)]


@cache
def clockwise(
    seats: int, seating: tuple[int, ...] | None = None
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """``(seating, after, ring)`` for a table of ``seats`` (see :class:`RoundInfo`): the
    given order, or 0, 1, 2, ... (computed once per table: every round asks)."""
    order = seating if seating is not None else tuple(range(seats))
    ring = tuple(
        tuple(seat_after(order, seat, offset) for offset in range(seats)) for seat in range(seats)
    )
    return order, tuple(row[1] for row in ring), ring


@dataclass(frozen=True, slots=True)
class RoundLog:
    """A completed round, as the JSON record keeps it."""

    index: int
    dealer: int | None
    first_leader: int
    seating: tuple[int, ...]
    deal: Deal
    actions: tuple[tuple[int, int], ...]
    tricks: tuple[tuple[int, TrickResult], ...]
    facts: tuple[tuple[str, Any], ...]
    scores: tuple[int, ...]

    def taken(self, seats: int) -> list[list[Card]]:
        """Each of ``seats`` seats' cards taken in this round's tricks, from the trick
        results alone (in trick order)."""
        taken: list[list[Card]] = [[] for _ in range(seats)]
        for leader, result in self.tricks:
            for offset, cards in result.taken:
                taken[seat_after(self.seating, leader, offset)].extend(cards)
        return taken


class State(NamedTuple, Generic[X]):
    """One moment of a whole game. Immutable: actions return new states.

    (A ``NamedTuple`` rather than a frozen dataclass: a new state is built on
    every action, and a NamedTuple builds in a quarter of the time, measured
    at 0.34 against 1.42 microseconds for these twelve fields.)

    ``hands`` are sorted in canonical card order; ``trick`` holds the cards
    played to the current trick in play order, starting with ``leader``'s;
    ``taken`` holds each seat's won cards; ``aside`` the cards out of play;
    ``tricks`` the completed tricks of this round as ``(leader seat, result)``;
    ``actions`` this round's ``(seat, action)`` pairs; ``extra`` the ruleset's
    own part of the state.
    """

    info: RoundInfo
    phase: Phase
    current: int
    first_leader: int
    leader: int
    hands: tuple[tuple[Card, ...], ...]
    trick: tuple[Card, ...]
    taken: tuple[tuple[Card, ...], ...]
    aside: tuple[Card, ...]
    tricks: tuple[tuple[int, TrickResult], ...]
    actions: tuple[tuple[int, int], ...]
    extra: X

    def __repr__(self) -> str:
        """Where the game stands, in one short line (the fields are there for the rest):
        ``<State sticheln 4p, round 1, trick 3: seat 2 to play; trick R5 Y0>``."""
        game = self.info.game
        ruleset = game.ruleset
        if self.phase is Phase.OVER:
            return f"<State {ruleset.id} {game.players}p: over, totals {list(self.info.totals)}>"
        doing = {Phase.SELECT: "to select", Phase.PLAY: "to play", Phase.CHOOSE: "to choose"}
        trick = f"; trick {' '.join(ruleset.palette.format_all(self.trick))}" if self.trick else ""
        return (
            f"<State {ruleset.id} {game.players}p, round {self.info.index + 1}, "
            f"trick {len(self.tricks) + 1}: seat {self.current} {doing[self.phase]}{trick}>"
        )

    # --- the OpenSpiel-style API ---------------------------------------------------

    @property
    def game(self) -> Game:
        """The game this state belongs to."""
        return self.info.game

    def current_player(self) -> int:
        """The seat to act, or ``-1`` when the game is over."""
        return self.current

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.OVER

    def legal_actions(self) -> tuple[int, ...]:
        """The actions the current player may take, in canonical order (empty when over)."""
        if self.phase is Phase.OVER:
            return ()
        return self.info.game.ruleset.legal_actions(self)

    def child(self, action: int | str) -> State[X]:
        """The state after the current player takes ``action``: an action code from
        :meth:`legal_actions`, or its name (``"R5"``, ``"keep"``; see
        :meth:`action_to_string`). This state is left as it was (OpenSpiel's ``child``).

        Raises :class:`~tricklaw.spec.errors.IllegalActionError` naming the rule
        clause when ``action`` is not legal here.
        """
        ruleset = self.info.game.ruleset
        if isinstance(action, str):
            action = string_to_action(action, ruleset.palette)
        if self.phase is Phase.OVER:
            raise IllegalActionError(
                "the game is over; no action is legal", ruleset.clause["game-end"]
            )
        if action not in ruleset.legal_actions(self):
            try:
                named = self.action_to_string(action)
            except (ValueError, IndexError):
                raise IllegalActionError(
                    f"{action!r} is not an action of {ruleset.id}", ruleset.clause["turn"]
                ) from None
            raise IllegalActionError(
                f"seat {self.current} may not take {named}: " + ruleset.why_illegal(self, action),
                ruleset.forbidding_clause(self, action),
            )
        new_state: State[X] = ruleset.apply(self, action)
        return new_state

    def apply_legal_action(self, action: int) -> State[X]:
        """:meth:`child` without the legality check, for an action that the caller took
        from :meth:`legal_actions` of this very state (agents, search)."""
        new_state: State[X] = self.info.game.ruleset.apply(self, action)
        return new_state

    def apply_action(self, action: int | str) -> NoReturn:
        """Refused: a state cannot change. OpenSpiel's ``state.apply_action(a)`` changes
        the state in place; here that call would change nothing, and a loop written so
        would never end. Write ``state = state.child(a)``."""
        raise TypeError(
            "a tricklaw State is immutable: apply_action would change nothing; "
            "write state = state.child(action)"
        )

    def returns(self) -> tuple[int, ...]:
        """Each seat's total score so far (final once the game is over)."""
        return self.info.totals

    def action_to_string(self, action: int) -> str:
        """``action`` in notation."""
        return action_to_string(action, self.info.game.ruleset.palette)

    def string_to_action(self, text: str) -> int:
        """The action named ``text`` in notation (``"R5"``, ``"swap B3"``); a name no
        action has is a :class:`~tricklaw.spec.errors.CardError` naming the problem."""
        return string_to_action(text, self.info.game.ruleset.palette)

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` can see: its own hand, public cards, and nothing hidden."""
        return self.info.game.ruleset.observation(self, seat)

    def serialize(self) -> str:
        """This state as JSON text (the record so far); :func:`tricklaw.model.deserialize`
        restores it. (The ruleset writes it: the record module builds on this one.)"""
        return self.info.game.ruleset.serialize_state(self)

    @property
    def round_index(self) -> int:
        """The 0-based index of the round in progress (the last round once over)."""
        return self.info.index

    @property
    def history(self) -> tuple[RoundLog, ...]:
        """The completed rounds."""
        return self.info.history
