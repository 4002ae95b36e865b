"""The games a fuzz run plays: game ``i`` of a run drawn from its seed (a ruleset, a
player count, option readings, styled deck orders), the adversarial players' choices,
and the illegal actions worth trying."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tricklaw.fuzz.cases import Case
from tricklaw.model import actions
from tricklaw.model.actions import ActionKind
from tricklaw.model.cards import Card, value_of
from tricklaw.model.replay.declaration import Declaration
from tricklaw.model.rng import SplitMix64, round_seed, shuffled
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Deal, Game, RoundLog, State

DEALT_ROUNDS = 5
"""Deals given to the engine per game (Hund's five rounds)."""


def _stub_history(deals: Sequence[Deal]) -> tuple[RoundLog, ...]:
    """Rounds holding only their deals: all a ruleset's ``cut`` reads of the history."""
    return tuple(RoundLog(i, None, 0, (), d, (), (), (), ()) for i, d in enumerate(deals))


def _deck_order(deck: Sequence[Card], style: int, rng: SplitMix64) -> list[Card]:
    """A deck order of the given style (see the module doc), lightly stirred."""
    if style == 0:
        return shuffled(deck, rng)
    if style == 1:
        order = sorted(deck, key=lambda c: (value_of(c), c))
    elif style == 2:
        order = list(deck)
    else:
        order = sorted(deck, key=lambda c: (-value_of(c), c))
    for _ in range(rng.below(len(order) // 4 + 1)):
        i, j = rng.below(len(order)), rng.below(len(order))
        order[i], order[j] = order[j], order[i]
    return order


def make_deals(game: Game, rounds: int, rng: SplitMix64) -> tuple[Deal, ...]:
    """``rounds`` deals for ``game``, each cut by the ruleset from a styled deck order."""
    ruleset = game.ruleset
    deck = ruleset.deck(game.players, game.options)
    deals: list[Deal] = []
    for _ in range(rounds):
        order = _deck_order(deck, rng.below(4), rng)
        deals.append(ruleset.cut(game, order, rng, _stub_history(deals)))
    return tuple(deals)


def _option_value(spec: Any, rng: SplitMix64, allowed: Sequence[Any] | None = None) -> Any:
    if allowed is not None:  # the engine's declared values
        return allowed[rng.below(len(allowed))]
    if spec.choices:
        return spec.choices[rng.below(len(spec.choices))]
    if spec.name == "rounds":
        return max(spec.minimum, 1 + rng.below(2))
    if spec.name == "target":
        return max(spec.minimum, 1 + rng.below(15))
    return spec.default


def new_case(
    index: int,
    seed: int,
    rulesets: Sequence[str],
    players: int | None,
    fixed: dict[str, Any],
    *,
    declaration: Declaration | None = None,
) -> Case:
    """Game ``index`` of a run seeded ``seed`` (see the module doc), inside the engine's
    ``declaration`` when it made one (its player counts and option values only)."""
    rng = SplitMix64(round_seed(seed, index))
    ruleset = get_ruleset(rulesets[rng.below(len(rulesets))])
    declared = declaration.of(ruleset.id) if declaration is not None else None
    counts = ruleset.player_counts if declared is None else declared.players
    count = players if players is not None else counts[rng.below(len(counts))]
    options = {
        spec.name: fixed[spec.name]
        if spec.name in fixed
        else _option_value(spec, rng, None if declared is None else declared.values(spec.name))
        for spec in ruleset.option_specs
    }
    game = ruleset.make_game(count, options)
    deals = make_deals(game, DEALT_ROUNDS, rng)
    return Case(
        ruleset.id, count, game.options.as_dict(), rng.next_u64(), deals, (), rng.next_u64()
    )


def choose(state: State[Any], legal: Sequence[int], rng: SplitMix64) -> int:
    """An adversarial choice (an index into ``legal``): a card tying one in the trick,
    the lowest, the highest, or any."""
    plays = [i for i, a in enumerate(legal) if a <= actions.PAYLOAD_MASK]  # cards played
    mode = rng.below(8)
    if not plays or mode < 3:
        return rng.below(len(legal))
    values = {value_of(c) for c in state.trick}
    if mode < 5:
        ties = [i for i in plays if value_of(actions.card_of(legal[i])) in values]
        if ties:
            return ties[rng.below(len(ties))]
    if mode < 7:
        return min(plays, key=lambda i: (value_of(actions.card_of(legal[i])), i))
    return max(plays, key=lambda i: (value_of(actions.card_of(legal[i])), -i))


def illegal_candidates(state: State[Any], legal: Sequence[int]) -> list[int]:
    """Actions of the kinds now legal that are not legal: cards held or not, of any seat."""
    game = state.game
    kinds = {actions.kind_of(a) for a in legal}
    deck = game.ruleset.deck(game.players, game.options)
    allowed = set(legal)
    out: list[int] = []
    for kind in sorted(kinds):
        if kind is ActionKind.KEEP or kind is ActionKind.LEADER:
            continue
        out += [a for c in deck if (a := (kind << actions.KIND_SHIFT) | c) not in allowed]
    return out
