"""How often a dispute's readings matter: the simulation behind the disputes register.
The same random complete tricks are judged, and the same seeded games played, under each
reading of an option, and the results are compared with the default reading's."""

from __future__ import annotations

import random
import time
from typing import Any

from tricklaw.model.agents import play_random_game
from tricklaw.model.cards import Card
from tricklaw.model.options import OptionSpec, OptionValue
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Game
from tricklaw.spec.errors import OptionError, TricklawError


def reading_value(spec: OptionSpec, value: str) -> OptionValue | None:
    """A dispute reading's ``value`` as a value of option ``spec``, or ``None`` when no
    value of the option selects it."""
    if spec.is_integer:
        try:
            return int(value)
        except ValueError:
            return None
    return value if value in spec.choices else None


def reading_options(
    extra: dict[str, OptionValue], spec: OptionSpec, value: str
) -> dict[str, OptionValue]:
    """The options that select reading ``value`` of ``spec``, with ``extra`` set too."""
    chosen = reading_value(spec, value)
    if chosen is None:
        raise OptionError(f"option {spec.name} has no reading {value!r}")
    return {**extra, spec.name: chosen}


def random_trick(
    rng: random.Random, ruleset: Ruleset[Any], game: Game
) -> tuple[list[Card], dict[str, str]]:
    """A uniformly random complete trick (distinct cards of the deck) and, for rules that
    need one, a random context."""
    deck = list(ruleset.deck(game.players, game.options))
    cards = rng.sample(deck, game.seats)
    context: dict[str, str] = {}
    names = dict(ruleset.trick_context)
    if "powers" in names and rng.random() < 0.5:
        context["powers"] = rng.choice(ruleset.palette.letters)
    elif "designation" in names:
        context["designation"] = str(rng.randint(1, 5))
    return cards, context


def simulate_dispute(
    ruleset_id: str, option: str, values: list[str], budget: float
) -> dict[str, Any]:
    """How often each reading's result differs from the default reading's.

    * trick level (options that can change a trick): the same uniformly random complete
      tricks judged under each reading;
    * game level: the same seeded games (same deals, same random agents) played under
      each reading, at every player count; a game differs when its final totals do.

    An option that acts only with other options' values (``OptionSpec.acts_with``) is
    simulated with those values set.
    """
    r = get_ruleset(ruleset_id)
    spec = next(s for s in r.option_specs if s.name == option)
    default = spec.default
    extra: dict[str, OptionValue] = dict(spec.acts_with)
    out: dict[str, Any] = {"trick": {}, "game": {}, "games": 0, "tricks": 0, "witness": None}
    start = time.perf_counter()
    if spec.affects_trick:
        rng = random.Random(f"{ruleset_id}/{option}")
        n_tricks = 2000
        for players in r.player_counts:
            base = r.make_game(players, extra)
            games = {v: r.make_game(players, reading_options(extra, spec, v)) for v in values}
            for _ in range(n_tricks // len(r.player_counts)):
                cards, ctx = random_trick(rng, r, base)
                ref = (
                    r.judge_trick(games[str(default)], cards, ctx)
                    if str(default) in games
                    else None
                )
                for v in values:
                    res = r.judge_trick(games[v], cards, ctx)
                    diff = ref is not None and (res.winner, res.taken, res.aside) != (
                        ref.winner,
                        ref.taken,
                        ref.aside,
                    )
                    out["trick"][v] = out["trick"].get(v, 0) + int(diff)
                    if diff and out["witness"] is None:
                        out["witness"] = (players, r.palette.format_all(cards), ctx)
                out["tricks"] += 1
    n_games = 10
    for players in r.player_counts:
        try:
            games = {v: r.make_game(players, reading_options(extra, spec, v)) for v in values}
        except TricklawError:
            continue
        for seed in range(n_games):
            if time.perf_counter() - start > budget:
                break
            totals = {
                v: tuple(play_random_game(g, seed, max_rounds=12).returns())
                for v, g in games.items()
            }
            ref_totals = totals.get(str(default))
            for v in values:
                differs = ref_totals is not None and totals[v] != ref_totals
                out["game"][v] = out["game"].get(v, 0) + int(differs)
            out["games"] += 1
    out["seconds"] = time.perf_counter() - start
    return out
