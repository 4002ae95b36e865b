"""The executable reference model: cards, the portable shuffle, states and every ruleset.

Start with :func:`get_ruleset`, make a :class:`Game`, and walk a
:class:`State` with ``legal_actions`` / ``child`` until
``is_terminal``::

    from tricklaw.model import get_ruleset
    game = get_ruleset("sticheln").make_game(4)
    state = game.new_initial_state(seed=7)
"""

from tricklaw.model.cards import Card, Palette
from tricklaw.model.options import Options, OptionSpec
from tricklaw.model.replay.records import deserialize
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.model.state import Deal, Game, Phase, State
from tricklaw.model.trick import TrickResult

__all__ = [
    "RULESETS",
    "Card",
    "Deal",
    "Game",
    "OptionSpec",
    "Options",
    "Palette",
    "Phase",
    "Ruleset",
    "State",
    "TrickResult",
    "deserialize",
    "get_ruleset",
]
