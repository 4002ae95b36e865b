"""How often a dispute's readings change a trick: the simulation behind the disputes
register. The same random complete tricks are judged under each reading of an option, and
the results are compared with the default reading's. (Whole games are the checked-in
``tricklaw impact`` study's: :mod:`.impact_figures`.)"""

from __future__ import annotations

import random
import time
from typing import Any

from tricklaw.impact.study import option_value as reading_value
from tricklaw.model.cards import Card
from tricklaw.model.options import OptionSpec, OptionValue
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Game
from tricklaw.spec.errors import OptionError


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


def simulate_dispute(ruleset_id: str, option: str, values: list[str]) -> dict[str, Any]:
    """How often each reading judges a trick differently from the default reading (options
    that can change a trick): the same uniformly random complete tricks judged under each
    reading. An option that acts only with other options' values
    (``OptionSpec.acts_with``) is simulated with those values set."""
    r = get_ruleset(ruleset_id)
    spec = next(s for s in r.option_specs if s.name == option)
    default = spec.default
    extra: dict[str, OptionValue] = dict(spec.acts_with)
    out: dict[str, Any] = {"trick": {}, "tricks": 0, "witness": None}
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
    out["seconds"] = time.perf_counter() - start
    return out
