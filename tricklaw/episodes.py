"""What the OpenSpiel adapter (:mod:`tricklaw.openspiel`) plays: a tricklaw game as an
episode, with its parameters, action ids, sizes and utility bounds.

This module is pure Python over the model; it neither imports ``pyspiel`` nor
``numpy``.

* **Parameters** are named in OpenSpiel's style, in snake_case: ``players``;
  ``deals``, the number of deal seeds the episode's chance node draws from;
  ``reward_model`` (``auto``, ``rewards`` or ``terminal``: see :func:`terminal_rewards`);
  and every option of the ruleset under its own name with ``-`` spelled ``_``
  (``all_zero`` for the option ``all-zero``) and its default, except ``rounds``, whose
  default is 1 (one round per episode) instead of the text's number. The options' readings
  keep their spelling (``all_zero=no-winner``). Hund has no ``rounds`` option: its five
  rounds depend on one another (HUND-POWER-5, HUND-D-DESIGNATION), so an episode is the
  whole game (HUND-GAME-1).
* **Action ids.** Every action the ruleset can use (its
  :attr:`~tricklaw.model.ruleset.Ruleset.action_kinds` over the deck, or over the
  seats for LEADER), in ascending order of tricklaw's own action numbers; the
  OpenSpiel id is the position in that list, so legal actions stay sorted.
* **Returns.** A player's return is the sum of his round scores, negated where the
  rules make the lowest total win (The Last counts penalty points, LAST-GAME-1), so
  that for every ruleset a higher return is better, as OpenSpiel's algorithms assume.
* **Utility bounds.** Under every reading the score bounds are proved for
  (:mod:`tricklaw.proofs.bounds.readings`: the defaults, each option varied on its own,
  and the combinations listed there; options that cannot change a round's score range
  are ignored), the bounds of one round are the ones Z3 proves over the ruleset's
  relaxation of that reading and a witness meets (:mod:`tricklaw.proofs.bounds`), as
  checked in: read from ``spec/bounds/v1.json`` (:mod:`tricklaw.spec.proved_bounds`), so that
  loading a game never starts Z3. Under any other combination of options the adapter
  claims nothing proved and uses a coarse bound that holds for every option: each card
  counts once for at most ``max(value, 1)`` points, plus Hund's award of 3
  (HUND-FACT-3).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from tricklaw.model import actions
from tricklaw.model.actions import ActionKind
from tricklaw.model.cards import value_of
from tricklaw.model.options import OptionValue
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Game
from tricklaw.spec.errors import OptionError
from tricklaw.spec.proved_bounds import Reading, label, load_bounds

DEFAULT_DEALS = 1 << 16
"""The deal seeds of the chance node unless the ``deals`` parameter says otherwise."""
MAX_DEALS = 1 << 20
"""The most deal seeds a game may have (the chance node lists every outcome)."""
ROUNDS = "rounds"
REWARD_MODEL = "reward_model"
REWARD_MODELS = ("auto", "rewards", "terminal")
"""The readings of the ``reward_model`` parameter (:func:`terminal_rewards`)."""
ADAPTER_PARAMETERS = frozenset({"players", "deals", REWARD_MODEL})
"""The parameters that are the adapter's own, not options of the ruleset."""
HUND_AWARD = 3
"""The Hund award, the one score not counted card by card (HUND-FACT-3)."""
CARD_KINDS = (ActionKind.PLAY, ActionKind.SELECT, ActionKind.SWAP, ActionKind.DESIGNATE)
"""The action kinds whose payload is a card of the deck."""


def short_name(ruleset_id: str) -> str:
    """The OpenSpiel name of a ruleset's game: ``tricklaw_sticheln_1993`` ..."""
    return "tricklaw_" + ruleset_id.replace("-", "_")


def parameter_name(option: str) -> str:
    """The OpenSpiel parameter of a ruleset option: its name in snake_case."""
    return option.replace("-", "_")


def parameter_defaults(ruleset_id: str) -> dict[str, OptionValue]:
    """Every parameter of the ruleset's OpenSpiel game with its default."""
    ruleset = get_ruleset(ruleset_id)
    out: dict[str, OptionValue] = {
        "players": ruleset.player_counts[0],
        "deals": DEFAULT_DEALS,
        REWARD_MODEL: REWARD_MODELS[0],
    }
    for spec in ruleset.option_specs:
        out[parameter_name(spec.name)] = 1 if spec.name == ROUNDS else spec.default
    return out


def terminal_rewards(reward_model: OptionValue, rounds: int) -> bool:
    """Whether an episode declares OpenSpiel's ``TERMINAL`` reward model: the rewards are
    all zero until the episode ends, whose rewards are the returns. ``REWARDS`` instead
    gives a round's scores as the rewards of the action that ends the round. ``auto``
    declares ``TERMINAL`` where an episode is one round (both models give the same rewards
    then) and ``REWARDS`` where it has more rounds (Hund's five; ``rounds`` above 1).
    OpenSpiel's ``MCTSBot`` needs ``TERMINAL``."""
    if reward_model == "auto":
        return rounds == 1
    return reward_model == "terminal"


@dataclass(frozen=True)
class Episode:
    """One OpenSpiel game of tricklaw: the model game and what OpenSpiel must know of it."""

    ruleset_id: str
    params: tuple[tuple[str, OptionValue], ...]
    """The OpenSpiel parameters, every one given (sorted by name)."""
    game: Game
    deals: int
    rounds: int
    """How many rounds an episode lasts at most."""
    tricks: int
    """How many tricks a round has at most: one card of every hand goes to each."""
    actions: tuple[int, ...]
    """tricklaw's action numbers in OpenSpiel id order (ascending)."""
    ids: Mapping[int, int] = field(compare=False, repr=False)
    """tricklaw's action number -> OpenSpiel id."""
    max_length: int
    """The most actions the players take in an episode."""
    sign: int
    """1, or -1 where the lowest total wins: a return is ``sign`` times the total."""
    utility: tuple[int, int]
    """The least and the greatest return of a player."""
    terminal: bool
    """Whether the rewards come only at the end (:func:`terminal_rewards`)."""
    proved: bool
    """Whether ``utility`` comes from the Z3-proved round bounds."""

    @property
    def players(self) -> int:
        """The number of players (automatic seats, such as The Last's ghost, excluded)."""
        return self.game.players

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its parameters: unpickling looks the episode up again.
        return (episode, (self.ruleset_id, self.params))


@cache
def episode(ruleset_id: str, params: tuple[tuple[str, OptionValue], ...]) -> Episode:
    """The :class:`Episode` of ``ruleset_id`` with the OpenSpiel parameters ``params``
    (missing ones take their defaults); raises OptionError naming a bad parameter."""
    ruleset = get_ruleset(ruleset_id)
    given = dict(params)
    defaults = parameter_defaults(ruleset_id)
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise OptionError(
            f"{short_name(ruleset_id)}: unknown parameter {unknown[0]!r} "
            f"(parameters: {', '.join(sorted(defaults))})"
        )
    values = {**defaults, **given}
    players = _whole(ruleset_id, "players", values["players"])
    deals = _whole(ruleset_id, "deals", values["deals"])
    if not 1 <= deals <= MAX_DEALS:
        raise OptionError(
            f"{short_name(ruleset_id)}: parameter deals={deals} is outside 1..{MAX_DEALS}"
        )
    reward_model = values[REWARD_MODEL]
    if reward_model not in REWARD_MODELS:
        raise OptionError(
            f"{short_name(ruleset_id)}: parameter {REWARD_MODEL}={reward_model!r} is not one "
            f"of {', '.join(REWARD_MODELS)}"
        )
    names = {parameter_name(spec.name): spec.name for spec in ruleset.option_specs}
    options = {names[k]: v for k, v in values.items() if k not in ADAPTER_PARAMETERS}
    game = ruleset.make_game(players, options)
    rounds = episode_rounds(game)
    action_list = action_universe(game)
    tricks = ruleset.hand_size(game)
    (low, high), proved = utility_bounds(game, rounds)
    sign = score_sign(game)
    return Episode(
        ruleset_id=ruleset_id,
        params=tuple(sorted(values.items())),
        game=game,
        deals=deals,
        rounds=rounds,
        tricks=tricks,
        actions=action_list,
        ids={a: i for i, a in enumerate(action_list)},
        max_length=rounds * ruleset.max_decisions(game),
        sign=sign,
        utility=(min(sign * low, sign * high), max(sign * low, sign * high)),
        terminal=terminal_rewards(reward_model, rounds),
        proved=proved,
    )


def _whole(ruleset_id: str, name: str, value: OptionValue) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(
            f"{short_name(ruleset_id)}: parameter {name} takes a whole number, not {value!r}"
        )
    return value


ROUND_LIMIT = 100_000
"""How far :func:`episode_rounds` looks for the end of a game."""


def episode_rounds(game: Game) -> int:
    """The number of rounds after which ``game`` ends, whatever the scores.

    Found by asking the ruleset's game-end rule after 1, 2, ... rounds with all totals
    zero; a game that ends only at a target total (Sticheln 1993 with ``end=target``,
    STI93-D-END) never ends so and has no bounded length, which OpenSpiel needs: it is
    refused with an OptionError.
    """
    zeros = (0,) * game.seats
    for rounds in range(1, ROUND_LIMIT + 1):
        if game.ruleset.game_over(game, rounds, zeros):
            return rounds
    raise OptionError(
        f"{short_name(game.ruleset.id)}: these options end the game only at a target total, "
        "so it has no bounded length; OpenSpiel needs one"
    )


def score_sign(game: Game) -> int:
    """-1 if the ruleset's winner is the player with the lowest total, else 1: asked of
    its own winner rule with one player ahead of the others."""
    ahead = (1,) + (0,) * (game.seats - 1)
    return 1 if game.ruleset.winners(game, ahead) == (0,) else -1


def action_universe(game: Game) -> tuple[int, ...]:
    """Every action number the ruleset can use in ``game``, ascending: its action kinds
    over the cards of the deck (PLAY, SELECT, SWAP, DESIGNATE), the seats (LEADER), or
    alone (KEEP)."""
    deck = game.ruleset.deck(game.players, game.options)
    out: set[int] = set()
    for kind in game.ruleset.action_kinds:
        if kind in CARD_KINDS:
            out.update((kind << actions.KIND_SHIFT) | card for card in deck)
        elif kind is ActionKind.LEADER:
            out.update(actions.leader(seat) for seat in range(game.seats))
        else:
            out.add(actions.KEEP)
    return tuple(sorted(out))


def utility_bounds(game: Game, rounds: int) -> tuple[tuple[int, int], bool]:
    """The least and greatest total score over ``rounds`` rounds, and whether they rest on
    the Z3-proved round bounds (see the module docstring)."""
    ruleset = game.ruleset
    reading = proved_reading(game)
    if reading is not None:
        proved = proved_round_bounds(ruleset.id, game.players, reading)
        if proved is not None:
            low, high = proved
            return (rounds * low, rounds * high), True
    deck = ruleset.deck(game.players, game.options)
    coarse = sum(max(value_of(card), 1) for card in deck) + HUND_AWARD
    return (-rounds * coarse, rounds * coarse), False


def proved_reading(game: Game) -> Reading | None:
    """``game``'s reading as the score bounds name it (the options that differ from the
    defaults and can change a round's score range), or ``None`` when no score bound is
    proved under it."""
    ruleset = game.ruleset
    proved = load_bounds()
    unchanged = proved.unchanged(ruleset.id)
    defaults = ruleset.make_game(game.players).options.as_dict()
    reading = tuple(
        sorted(
            (name, str(value))
            for name, value in game.options.as_dict().items()
            if value != defaults[name] and name not in unchanged and name != ROUNDS
        )
    )
    return reading if label(reading) in proved.readings(ruleset.id, game.players) else None


def proved_round_bounds(
    ruleset_id: str, players: int, reading: Reading = ()
) -> tuple[int, int] | None:
    """The least and greatest round score of a player under ``reading`` (the defaults
    elsewhere), as proved and checked in (``spec/bounds/v1.json``); ``None`` unless both
    are proved and met by a witness."""
    return load_bounds().round_bounds(ruleset_id, players, reading)
