"""The ``tricks`` vectors: complete tricks and who takes what, under every reading of the
options that can change a trick (``affects_trick``) and in every trick context of the game.

Candidate tricks are sampled so that rare outcomes come up often (:func:`sample_trick`),
beside hand-made edge tricks; a candidate is kept while its outcome class (its signature)
has fewer than the profile's number of cases. A case cites the disputes whose other
readings judge its trick differently.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import product
from typing import Any

from tricklaw.model.cards import Card, colour_of, make_card, value_of
from tricklaw.model.options import OptionValue
from tricklaw.model.record import result_json
from tricklaw.model.rng import SplitMix64
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game
from tricklaw.model.trick import TrickResult
from tricklaw.vectors.cases import Cases, Json, fmt, named_seed, sample
from tricklaw.vectors.profile import Profile
from tricklaw.vectors.profiles import profile_of

Candidate = tuple[tuple[Card, ...], Json | None]
"""A candidate trick and its context (None where the cards alone decide)."""


def trick_variants(ruleset: Ruleset[Any]) -> list[dict[str, OptionValue]]:
    """Every reading of the options that can change a complete trick (``affects_trick``),
    in each of the game's trick contexts."""
    specs = [s for s in ruleset.option_specs if s.affects_trick]
    readings = [
        dict(zip([s.name for s in specs], values, strict=True))
        for values in product(*(s.choices for s in specs))
    ]
    modes = profile_of(ruleset).trick_contexts
    return [{**mode, **reading} for mode in modes for reading in readings]


def sample_trick(
    rng: SplitMix64, deck: Sequence[Card], seats: int, hot: Sequence[int]
) -> tuple[Card, ...]:
    """One random trick, drawn so that rare outcomes (ties, zeros, one colour, a matching
    designation card) come up often: from the whole deck, a few values, a few colours, a
    mixture, or behind a lowest-value lead."""
    values = sorted({value_of(c) for c in deck})
    colours = sorted({colour_of(c) for c in deck})
    mode = rng.below(5)
    pool: Sequence[Card] = deck
    if mode == 1:
        few = set(sample(rng, values, 1 + rng.below(3)))
        if rng.below(2):
            few.add(values[0])
        if hot and rng.below(2):
            few.update(hot)
        pool = [c for c in deck if value_of(c) in few]
    elif mode == 2:
        some = set(sample(rng, colours, 1 + rng.below(2)))
        pool = [c for c in deck if colour_of(c) in some]
    elif mode == 3:
        few = {values[0], values[-1], values[rng.below(len(values))], *hot}
        some = set(sample(rng, colours, 1 + rng.below(2)))
        pool = [c for c in deck if value_of(c) in few or colour_of(c) in some]
    elif mode == 4:
        lead = sample(rng, [c for c in deck if value_of(c) == values[0]], 1)
        rest = sample(rng, [c for c in deck if c != lead[0]], seats - 1)
        return tuple(lead + rest)
    if len(pool) < seats:
        pool = deck
    return tuple(sample(rng, pool, seats))


def edge_tricks(deck: Sequence[Card], seats: int) -> list[tuple[Card, ...]]:
    """Hand-made edge tricks, where the deck holds them: the lowest (zero) and the highest
    value in every colour, one colour rising and falling, a tie of off-colour cards at the
    top, a lowest-value lead."""
    have = set(deck)
    colours = sorted({colour_of(c) for c in deck})
    values = sorted({value_of(c) for c in deck})
    low, high, mid = values[0], values[-1], values[len(values) // 2]
    shapes: list[list[Card]] = [
        [make_card(c, low) for c in colours[:seats]],
        [make_card(c, high) for c in colours[:seats]],
        [make_card(colours[0], v) for v in values[:seats]],
        [make_card(colours[0], v) for v in reversed(values[-seats:])],
        [make_card(colours[0], mid)] + [make_card(c, high) for c in colours[1:seats]],
        [
            make_card(colours[0], low),
            make_card(colours[-1], mid),
            *[make_card(colours[0], v) for v in values[len(values) - seats + 2 :]],
        ],
        [make_card(colours[0], mid)] + [make_card(c, low) for c in colours[1:seats]],
    ]
    out: list[tuple[Card, ...]] = []
    for shape in shapes:
        trick = tuple(shape)
        if len(trick) == seats and len(set(trick)) == seats and have.issuperset(trick):
            out.append(trick)
    return out


def judge(game: Game, cards: Sequence[Card], context: Mapping[str, Any] | None) -> TrickResult:
    """The model's result of ``cards`` in the vector context ``context``."""
    model_context = profile_of(game.ruleset).model_context(context)
    return game.ruleset.judge_trick(game, cards, model_context)


def _signature(
    profile: Profile, cards: Sequence[Card], result: TrickResult, context: Json | None
) -> tuple[Any, ...]:
    """The outcome class of a trick: who wins, who takes how many cards, which clauses
    decided it, and what else can change the path through the rules."""
    shape = (
        result.clauses,
        result.winner,
        tuple((offset, len(c)) for offset, c in result.taken),
        len(result.aside),
    )
    return (*shape, *profile.trick_signature(cards, result, context))


def _candidates(profile: Profile, game: Game, mode: str) -> list[Candidate]:
    """The candidate tricks of one context mode: the edge tricks, then sampled ones."""
    ruleset = game.ruleset
    deck = ruleset.deck(game.players, game.options)
    rng = SplitMix64(named_seed("tricks", ruleset.id, game.players, mode))
    found: list[Candidate] = [(t, None) for t in edge_tricks(deck, game.seats)]
    for _ in range(profile.trick_candidates):
        context = profile.sample_context(rng, game)
        found.append((sample_trick(rng, deck, game.seats, profile.hot_values(context)), context))
    edge = profile.edge_context(game)
    if edge is not None:  # the edge tricks are judged in the profile's edge context
        found = [(t, c if c is not None else edge) for t, c in found]
    return found


def _disputes_differing(
    ruleset: Ruleset[Any],
    siblings: Iterable[tuple[str, Game]],
    cards: Sequence[Card],
    context: Json | None,
    result: TrickResult,
) -> list[str]:
    """The disputes whose other reading (a sibling game) judges the trick differently."""
    differs = []
    for name, other in siblings:
        alt = judge(other, cards, context)
        if (alt.winner, alt.taken, alt.aside) != (result.winner, result.taken, result.aside):
            spec = next(s for s in ruleset.option_specs if s.name == name)
            if spec.dispute:
                differs.append(spec.dispute)
    return differs


def trick_cases(ruleset: Ruleset[Any]) -> list[Json]:
    """The cases of ``<ruleset>.tricks.json``."""
    profile = profile_of(ruleset)
    cases = Cases.of(ruleset, "tricks")
    variants = trick_variants(ruleset)
    for players in ruleset.player_counts:
        games = [ruleset.make_game(players, v) for v in variants]
        # Candidates are shared by every reading of one context mode, so that readings
        # can be compared trick by trick.
        modes: dict[str, list[Candidate]] = {}
        for variant, game in zip(variants, games, strict=True):
            mode = profile.context_mode(variant)
            if mode not in modes:
                modes[mode] = _candidates(profile, game, mode)
        for variant, game in zip(variants, games, strict=True):
            siblings = [
                (name, other)
                for v, other in zip(variants, games, strict=True)
                for name in v
                if v != variant and all(v.get(k) == variant.get(k) for k in {*v, *variant} - {name})
            ]
            kept: dict[tuple[Any, ...], int] = {}
            for cards, context in modes[profile.context_mode(variant)]:
                result = judge(game, cards, context)
                sig = _signature(profile, cards, result, context)
                if kept.get(sig, 0) >= profile.per_signature:
                    continue
                kept[sig] = kept.get(sig, 0) + 1
                differs = _disputes_differing(ruleset, siblings, cards, context, result)
                inputs: Json = {"cards": fmt(ruleset, cards)}
                if context is not None:
                    inputs["context"] = context
                cases.add(
                    game,
                    inputs,
                    result_json(result, ruleset.palette),
                    [
                        *result.clauses,
                        *differs,
                        *profile.trick_clauses(game, result, context),
                    ],
                )
    return cases.items


def run_trick(game: Game, inputs: Mapping[str, Any]) -> Json:
    """A trick case's outputs, judged by the model in the case's context."""
    ruleset = game.ruleset
    cards = ruleset.palette.parse_all(inputs["cards"])
    return result_json(judge(game, cards, inputs.get("context")), ruleset.palette)
