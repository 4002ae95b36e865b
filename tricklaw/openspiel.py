"""tricklaw's games as OpenSpiel (``pyspiel``) Python games: the ``openspiel`` extra.

Importing this module registers one game per ruleset (:func:`register`), so that
OpenSpiel's algorithms and test helpers run on tricklaw's model::

    import pyspiel
    import tricklaw.openspiel
    game = pyspiel.load_game("tricklaw_hund(players=2)")

The names are ``tricklaw_sticheln_1993``, ``tricklaw_sticheln``, ``tricklaw_the_last``,
``tricklaw_lowhigh`` and ``tricklaw_hund``. Parameters, action ids and utility bounds
are described in :mod:`tricklaw.episodes`; the tensors in :mod:`tricklaw.views`.

**The deal is one chance node.** An episode starts at a chance node whose outcome
``k`` (uniform over ``0 .. deals-1``) is the tricklaw game seed: the rest of the
episode is exactly ``game.new_initial_state(seed=k)`` of the model, every later
round's deal included. All randomness of the rules (the shuffle, The Last's first
player, Hund's designation draw) stays in the model, where the portable generator of
:mod:`tricklaw.model.rng` makes it. The price is a finite deal distribution: an
episode sees one of ``deals`` deals, not every possible one.

**Players and turns.** The OpenSpiel players are the tricklaw players; automatic seats
(The Last's ghost, Hund's virtual player) play inside the model and are never the
current player. The game is general-sum; returns are each player's total of round
scores, negated in The Last, whose penalty points are better low (so that a higher
return is better in every game), and a round's scores are the rewards of the action
that ends it.

**Observations** (``observation_string`` / ``observation_tensor``) are the ruleset's
observation of the player's seat. **Information states** add what the player has seen
before: the observation as each trick of the episode began (the player's own view then:
The Last's points card, the picks, the powers, ...), every completed trick (leader and
cards in order; played cards are face up in every ruleset), and the player's own actions
in each round. Between the start of one trick and the next only cards are played (kept
in the tricks) and, in The Last, the trick's taker decides on its points card (kept in
the next opening and in the own actions), so the information state recalls everything
the player has observed (:mod:`tricklaw.infostates`, which also holds the episode's
trail of moves and model states that the OpenSpiel state wraps).

**Rewards and search.** The game declares OpenSpiel's ``TERMINAL`` reward model where an
episode is one round, or where ``reward_model=terminal`` asks for it, and then gives every
reward at the end (:func:`tricklaw.episodes.terminal_rewards`), so ``MCTSBot`` accepts it.
``resample_from_infostate`` redraws the cards a player has not seen
(:mod:`tricklaw.resample`), keeping out of each other seat's hand the cards its earlier
actions show it did not hold (its voids, read from the model's own legality check), and
keeps a redraw on which the episode's moves replay legally and the player's information
state is the same, for ``ISMCTSBot``: one redraw a sample where the voids are all there is
to it, however many a seat has shown.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from tricklaw import resample
from tricklaw.episodes import Episode, episode, parameter_defaults, short_name
from tricklaw.model.actions import action_to_string
from tricklaw.model.rulesets import RULESETS
from tricklaw.model.state import State
from tricklaw.spec.errors import TricklawError

EXTRA = ("numpy", "pyspiel")
"""The modules of the ``openspiel`` extra that this module needs."""
EXTRA_HINT = "pip install 'tricklaw[openspiel]'"
"""How to install them."""

try:
    import numpy as np
    import pyspiel

    from tricklaw.infostates import (
        Lens,
        Trail,
        info_pieces,
        info_text,
        lens_of,
        rounds_of,
    )
    from tricklaw.views import observation_text
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    if (exc.name or "").partition(".")[0] not in EXTRA:
        raise
    # One line naming the extra, not a chain of tracebacks ending in numpy or pyspiel.
    raise ImportError(
        f"tricklaw.openspiel needs the 'openspiel' extra ({exc.name} is missing): {EXTRA_HINT}",
        name=exc.name,
    ) from None


# --- OpenSpiel ------------------------------------------------------------------------------


class TricklawObserver:
    """An OpenSpiel observer (``make_py_observer``) of one tricklaw game: the observation,
    or, for perfect recall, the information state (see the module docstring)."""

    def __init__(self, lens: Lens, perfect_recall: bool) -> None:
        self.lens = lens
        self.perfect_recall = perfect_recall
        pieces = [(p.name, p.shape) for p in lens.layout.pieces]
        if perfect_recall:
            pieces += info_pieces(lens)
        self.tensor = np.zeros(sum(int(np.prod(s)) for _, s in pieces), np.float32)
        self.dict: dict[str, Any] = {}
        offset = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[offset : offset + size].reshape(shape)
            offset += size

    def set_from(self, state: TricklawState, player: int) -> None:
        """Write ``player``'s view of ``state`` into ``tensor`` (zeros before the deal)."""
        self.tensor.fill(0)
        trail = state.trail
        if trail.state is None:
            return
        size = self.lens.layout.size
        self.tensor[:size] = self.lens.layout.encode(trail.state.observation(player))
        if not self.perfect_recall:
            return
        openings = self.dict["openings"]
        for opening in trail.openings:
            openings[opening.slot] = opening.vector(self.lens, player)
        leaders, cards, own = (
            self.dict["trick_leaders"],
            self.dict["trick_cards"],
            self.dict["own_actions"],
        )
        ids, index = self.lens.episode.ids, self.lens.card_index
        for r, (acts, tricks) in enumerate(rounds_of(trail.state)):
            for k, (leader, result) in enumerate(tricks):
                leaders[r, k, leader] = 1
                for position, card in enumerate(result.cards):
                    cards[r, k, position, index[card]] = 1
            for seat, action in acts:
                if seat == player:
                    own[r, ids[action]] += 1

    def string_from(self, state: TricklawState, player: int) -> str:
        """``player``'s view of ``state`` as text."""
        trail = state.trail
        if trail.state is None:
            return f"seat {player}: the deal is to come"
        if self.perfect_recall:
            return info_text(trail, player)
        return observation_text(trail.state.observation(player))


class TricklawState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a :class:`Trail`; :attr:`model_state` is tricklaw's."""

    def __init__(self, game: TricklawGame) -> None:
        super().__init__(game)
        self.trail = Trail.start(game.lens)

    @property
    def model_state(self) -> State[Any] | None:
        """tricklaw's own state (``None`` at the chance node): its ``serialize()`` is the
        game record, which ``tricklaw replay`` checks."""
        return self.trail.state

    def current_player(self) -> int:
        """The player to act, or OpenSpiel's CHANCE (the deal) or TERMINAL."""
        state = self.trail.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        state = self.trail.state
        assert state is not None and player == state.current_player()
        ids = self.trail.lens.episode.ids
        return [ids[a] for a in state.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every deal seed, each as likely."""
        return chance_outcomes(self.trail.lens.episode.deals)

    def _apply_action(self, action: int) -> None:
        self.trail = self.trail.then(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {action}"
        ep = self.trail.lens.episode
        return action_to_string(ep.actions[action], ep.game.ruleset.palette)

    def is_terminal(self) -> bool:
        """Whether the episode is over."""
        state = self.trail.state
        return state is not None and state.is_terminal()

    def returns(self) -> list[float]:
        """Each player's total of round scores so far."""
        return list(self.trail.returns())

    def rewards(self) -> list[float]:
        """The change in the returns made by the last move (a round's scores as it ends);
        under the ``TERMINAL`` reward model, zeros until the end and then the returns."""
        trail = self.trail
        if trail.lens.episode.terminal:
            zeros = [0.0] * trail.lens.episode.players
            return list(trail.returns()) if self.is_terminal() else zeros
        return [now - then for now, then in zip(trail.returns(), trail.before, strict=True)]

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> TricklawState:
        """A state that ``player`` cannot tell from this one: the same moves on a deal
        redealt by :func:`tricklaw.resample.redeal` (``probability_sampler()`` draws in
        [0, 1)) that keeps every other seat's voids (:func:`tricklaw.resample.exclusions`),
        replayed through the model and kept when every action is legal and the player's
        information state is the same; before the deal, the chance node itself.

        Raises TricklawError when no such deal turns up in :data:`RESAMPLE_ATTEMPTS` draws.
        """
        sample, _ = self.resample_counted(player, probability_sampler)
        return sample

    def resample_counted(
        self, player: int, probability_sampler: Any, *, rule_out: bool = True
    ) -> tuple[TricklawState, int]:
        """:meth:`resample_from_infostate`, and how many redeals it drew; with
        ``rule_out=False`` the redeals ignore the voids (plain rejection, as before issue
        17's resampling work: for measurement, ``python -m tricklaw.resample_bench``)."""
        trail = self.trail
        game = self.get_game()
        if trail.state is None:
            return TricklawState(game), 0
        model = trail.state
        own, known, excluded = trail.infostate(player)
        earlier = tuple(log.deal for log in model.history)
        for attempt in range(1, RESAMPLE_ATTEMPTS + 1):
            deal = resample.redeal(
                model.info.deal, player, known, probability_sampler, excluded if rule_out else None
            )
            seed = int(probability_sampler() * MAX_SEED)
            out = TricklawState(game)
            out.trail = Trail.start(trail.lens, ((*earlier, deal), seed))
            try:
                for move in trail.moves:
                    out.apply_action(move)
            except TricklawError:
                continue
            if info_text(out.trail, player) == own:
                return out, attempt
        raise TricklawError(
            f"no deal consistent with seat {player}'s information in {RESAMPLE_ATTEMPTS} draws"
        )

    def __str__(self) -> str:
        state = self.trail.state
        if state is None:
            return f"deal: one of {self.trail.lens.episode.deals} seeds"
        fmt = state.game.ruleset.palette.format_all
        lines = [
            f"seed {self.trail.moves[0]}, round {state.round_index}, {state.phase.name.lower()}, "
            f"seat {state.current} to act, {len(self.trail.moves) - 1} actions",
            *(f"seat {s}: {' '.join(fmt(hand))}" for s, hand in enumerate(state.hands)),
            f"trick: {' '.join(fmt(state.trick))}",
            f"totals: {' '.join(map(str, state.returns()))}",
        ]
        return "\n".join(lines)


RESAMPLE_ATTEMPTS = 10_000
"""How many redeals :meth:`TricklawState.resample_from_infostate` tries."""
MAX_SEED = 1 << 31
"""The resampled states' rounds to come are dealt from a seed below this."""


@cache
def chance_outcomes(deals: int) -> list[tuple[int, float]]:
    """The outcomes of a chance node over ``deals`` seeds (shared, never changed)."""
    return [(seed, 1.0 / deals) for seed in range(deals)]


class TricklawGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game of one tricklaw ruleset (a subclass per ruleset sets
    :attr:`ruleset_id`: see :func:`game_class`); ``params`` are described in
    :mod:`tricklaw.episodes`."""

    ruleset_id = ""
    """The id of the ruleset the game plays (set by each subclass)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        ep = episode(self.ruleset_id, tuple(sorted((params or {}).items())))
        self.lens = lens_of(ep)
        kind = game_type(self.ruleset_id, terminal=ep.terminal)
        super().__init__(kind, game_info(ep), dict(ep.params))

    @property
    def episode(self) -> Episode:
        """What this game plays (:class:`tricklaw.episodes.Episode`)."""
        return self.lens.episode

    def new_initial_state(self) -> TricklawState:
        """The chance node that deals."""
        return TricklawState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TricklawObserver:
        """The observer of ``iig_obs_type``: a single player's view of the public and his
        private information, with perfect recall (information state) or without
        (observation). Other observation types are not provided."""
        if params:
            raise ValueError(f"tricklaw observers take no parameters, not {sorted(params)}")
        recall = False
        if iig_obs_type is not None:
            if not iig_obs_type.public_info or (
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            ):
                raise ValueError(
                    "tricklaw observers show one player's view of public and private "
                    "information; other observation types are not provided"
                )
            recall = bool(iig_obs_type.perfect_recall)
        return TricklawObserver(self.lens, recall)


@cache
def game_type(ruleset_id: str, terminal: bool = False) -> Any:
    """The OpenSpiel ``GameType`` of a ruleset's game: registered with the ``REWARDS``
    reward model; a game whose rewards come only at the end (``terminal``, see
    :func:`tricklaw.episodes.terminal_rewards`) declares ``TERMINAL``."""
    ruleset = RULESETS[ruleset_id]
    game_kind = pyspiel.GameType
    return game_kind(
        short_name=short_name(ruleset_id),
        long_name=f"tricklaw {ruleset.title}",
        dynamics=game_kind.Dynamics.SEQUENTIAL,
        chance_mode=game_kind.ChanceMode.EXPLICIT_STOCHASTIC,
        information=game_kind.Information.IMPERFECT_INFORMATION,
        utility=game_kind.Utility.GENERAL_SUM,
        reward_model=(
            game_kind.RewardModel.TERMINAL if terminal else game_kind.RewardModel.REWARDS
        ),
        max_num_players=ruleset.player_counts[-1],
        min_num_players=ruleset.player_counts[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_defaults(ruleset_id),
    )


def game_info(ep: Episode) -> Any:
    """The OpenSpiel ``GameInfo`` of an episode."""
    low, high = ep.utility
    return pyspiel.GameInfo(
        num_distinct_actions=len(ep.actions),
        max_chance_outcomes=ep.deals,
        num_players=ep.players,
        min_utility=float(low),
        max_utility=float(high),
        utility_sum=None,
        max_game_length=ep.max_length,
    )


@cache
def game_class(ruleset_id: str) -> type[TricklawGame]:
    """The :class:`TricklawGame` subclass of a ruleset.

    OpenSpiel keeps the registered maker until the process ends, after Python has
    shut down; a class (never freed then) is safe to keep so, where a ``partial``
    would be freed without the interpreter and abort the exit.
    """
    name = "TricklawGame_" + ruleset_id.replace("-", "_")
    return type(name, (TricklawGame,), {"ruleset_id": ruleset_id, "__module__": __name__})


def register() -> None:
    """Register every ruleset's game with OpenSpiel (again, harmlessly)."""
    for ruleset_id in RULESETS:
        pyspiel.register_game(game_type(ruleset_id), game_class(ruleset_id))


register()
