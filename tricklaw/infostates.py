"""What a player has seen in an OpenSpiel episode of a tricklaw game: the episode's
trail (its moves and the model state they lead to, :class:`Trail`) and each player's
information state, as text (:func:`info_text`) and as the pieces of a tensor
(:func:`info_pieces`). :mod:`tricklaw.openspiel` builds its states and observers on
them; nothing here needs ``pyspiel``, only the views' numpy (the ``openspiel`` extra).

An information state is the observation as each trick of the episode began (the
player's own view then), every completed trick (leader and cards in order: played cards
are face up in every ruleset), and the player's own actions in each round; between the
start of one trick and the next only cards are played, and in The Last the trick's
taker decides on its points card (kept in the next opening and in the own actions), so
nothing the player observed is left out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from tricklaw import resample
from tricklaw.episodes import Episode
from tricklaw.model.cards import Card, Palette
from tricklaw.model.state import Deal, State
from tricklaw.spec.errors import TricklawError
from tricklaw.views import Layout, Vector, make_layout, observation_text

# --- the model side: a lens on each game, and the trail of an episode ---------------------


@dataclass(frozen=True, eq=False)
class Lens:
    """What the views of one game need: the observation layout and the deck's order."""

    episode: Episode
    layout: Layout
    card_index: dict[Card, int] = field(repr=False)


@cache
def lens_of(ep: Episode) -> Lens:
    """The :class:`Lens` of an episode (made once)."""
    game = ep.game
    probe = game.new_initial_state(0).observation(0)
    deck = game.ruleset.deck(game.players, game.options)
    return Lens(ep, make_layout(game, probe), {card: i for i, card in enumerate(deck)})


@dataclass(frozen=True, eq=False)
class Opening:
    """The model state as a trick began: ``slot`` is (round, tricks completed)."""

    slot: tuple[int, int]
    state: State[Any]
    memo: dict[tuple[str, int], Any] = field(default_factory=dict, repr=False)

    def vector(self, lens: Lens, seat: int) -> Vector:
        """``seat``'s observation then, as a vector (computed once)."""
        vector: Vector = self._once(("vector", seat), lens.layout.encode)
        return vector

    def text(self, seat: int) -> str:
        """``seat``'s observation then, as text (computed once)."""
        text: str = self._once(("text", seat), observation_text)
        return text

    def _once(self, key: tuple[str, int], view: Callable[[dict[str, Any]], Any]) -> Any:
        if key not in self.memo:
            self.memo[key] = view(self.state.observation(key[1]))
        return self.memo[key]


@dataclass(frozen=True, eq=False)
class Trail:
    """An episode so far: the OpenSpiel moves, the model state they lead to (``None``
    before the deal), and the openings of its tricks. Immutable, so clones share it."""

    lens: Lens
    moves: tuple[int, ...]
    state: State[Any] | None
    openings: tuple[Opening, ...]
    before: tuple[float, ...]
    """The returns before the last move."""
    dealt: tuple[tuple[Deal, ...], int] | None = None
    """Deals given explicitly, and the seed of the rounds after them, in place of the
    deal seed of the first move (a resampled state's, see
    :meth:`TricklawState.resample_from_infostate`)."""
    memo: dict[int, tuple[str, set[Card], dict[int, frozenset[Card]]]] = field(
        default_factory=dict, repr=False
    )
    """Each player's :meth:`infostate` (computed once: ISMCTS resamples the same state at
    every simulation)."""

    @staticmethod
    def start(lens: Lens, dealt: tuple[tuple[Deal, ...], int] | None = None) -> Trail:
        """The chance node that deals."""
        return Trail(lens, (), None, (), (0.0,) * lens.episode.players, dealt)

    def then(self, move: int) -> Trail:
        """The trail after ``move``: a deal seed at the chance node, else an action id.

        Raises TricklawError (an IllegalActionError for an illegal action).
        """
        ep = self.lens.episode
        if self.state is None:
            if not 0 <= move < ep.deals:
                raise TricklawError(f"deal seed {move} is outside 0..{ep.deals - 1}")
            if self.dealt is None:
                state = ep.game.new_initial_state(seed=move)
            else:
                state = ep.game.new_state_from_deals(*self.dealt)
        else:
            if not 0 <= move < len(ep.actions):
                raise TricklawError(f"action id {move} is outside 0..{len(ep.actions) - 1}")
            state = self.state.child(ep.actions[move])
        slot = (state.round_index, len(state.tricks))
        openings = self.openings
        if not openings or openings[-1].slot != slot:
            openings = (*openings, Opening(slot, state))
        return Trail(self.lens, (*self.moves, move), state, openings, self.returns(), self.dealt)

    def infostate(self, player: int) -> tuple[str, set[Card], dict[int, frozenset[Card]]]:
        """What a resample for ``player`` keeps: his information state text, the cards of
        the round he knows (:func:`tricklaw.resample.known_cards`), and the cards each
        other seat cannot hold (:func:`tricklaw.resample.exclusions`). After the deal only."""
        if player not in self.memo:
            state = self.state
            assert state is not None
            seen = [op.state for op in self.openings if op.slot[0] == state.round_index]
            known = resample.known_cards(state, player, seen)
            excluded = resample.exclusions(state, player, known)
            self.memo[player] = (info_text(self, player), known, excluded)
        return self.memo[player]

    def returns(self) -> tuple[float, ...]:
        """Each player's total so far (zero before the deal)."""
        if self.state is None:
            return (0.0,) * self.lens.episode.players
        ep = self.lens.episode
        return tuple(float(ep.sign * t) for t in self.state.returns()[: ep.players])

    def __deepcopy__(self, memo: dict[int, Any]) -> Trail:
        return self  # immutable: OpenSpiel's Clone shares it

    def __reduce__(self) -> tuple[Any, ...]:
        # OpenSpiel serializes a state by pickling it: the moves replay it.
        # A resampled trail's deals go as plain tuples (a compiled Deal does not unpickle).
        plain = None
        if self.dealt is not None:
            deals, seed = self.dealt
            plain = (tuple((d.hands, d.piles, d.first_leader, d.extras) for d in deals), seed)
        return (replay, (self.lens.episode, self.moves, plain))


def replay(ep: Episode, moves: Sequence[int], plain: Any = None) -> Trail:
    """The trail of ``moves`` from the deal, every action checked by the model; ``plain``
    gives a resampled trail's deals as tuples of their fields, and the later rounds' seed."""
    dealt = None if plain is None else (tuple(Deal(*fields) for fields in plain[0]), plain[1])
    trail = Trail.start(lens_of(ep), dealt)
    for move in moves:
        trail = trail.then(move)
    return trail


# --- information states -----------------------------------------------------------------


def rounds_of(state: State[Any]) -> list[tuple[tuple[tuple[int, int], ...], Any]]:
    """Each round of the episode so far: its ``(seat, action)`` pairs and its tricks."""
    done = [(log.actions, log.tricks) for log in state.history]
    if state.is_terminal():
        return done
    return [*done, (state.actions, state.tricks)]


def info_pieces(lens: Lens) -> list[tuple[str, tuple[int, ...]]]:
    """The pieces an information state adds to the observation, with their shapes."""
    ep = lens.episode
    seats, deck = ep.game.seats, len(lens.card_index)
    return [
        ("openings", (ep.rounds, ep.tricks + 1, lens.layout.size)),
        ("trick_leaders", (ep.rounds, ep.tricks, seats)),
        ("trick_cards", (ep.rounds, ep.tricks, seats, deck)),
        ("own_actions", (ep.rounds, len(ep.actions))),
    ]


def info_text(trail: Trail, seat: int) -> str:
    """``seat``'s information state as text: a line per opening, trick and round of own
    actions, then the observation now."""
    state = trail.state
    assert state is not None
    ruleset = state.game.ruleset
    lines = [f"seat {seat}"]
    lines += [f"opening {r}.{k} {op.text(seat)}" for op in trail.openings for r, k in [op.slot]]
    for r, (acts, tricks) in enumerate(rounds_of(state)):
        for k, (leader, result) in enumerate(tricks):
            lines.append(
                f"trick {r}.{k} led by {leader}: {cards_text(ruleset.palette, result.cards)}"
            )
        own = [state.action_to_string(a) for s, a in acts if s == seat]
        lines.append(f"own {r}: {', '.join(own)}")
    lines.append(f"now {observation_text(state.observation(seat))}")
    return "\n".join(lines)


@lru_cache(maxsize=1 << 14)
def cards_text(palette: Palette, cards: tuple[Card, ...]) -> str:
    """``cards`` in notation, space-separated (memoized: tricks are shown again and again)."""
    return " ".join(palette.format_all(cards))
