"""Every reading enumerated: the options each encoding must declare, found on the model.

An encoding proves a rule under every combination of the readings it *declares*
(:attr:`~tricklaw.proofs.tricks.TrickEncoding.readings`,
:attr:`~tricklaw.proofs.plays.PlayEncoding.readings`, and for the score bounds the
readings table of :mod:`tricklaw.proofs.bounds.readings`). An option it leaves out is
checked under its default only. This module finds, mechanically and for any game, the
options that must be declared: an option *changes* a rule function of the model when
some input gets a different answer under one of its values than under the default (the
other options at their defaults, or at the values the option ``acts_with``), or when the
deck in play differs (the rule's domain changes). The model's ``affects_trick`` flag is
never consulted: a wrong flag is one of the bugs this catches.

The rule functions and their inputs:

* **the trick judge** (``judge_trick``): tricks in every trick context of the game's
  trick encoding (Hund: the powers held), seeded random tricks of the deck plus every
  trick over a small edge table of the deck (two colours; the three lowest and two
  highest values), up to :data:`ENUMERATED` tricks. Declared by the trick encoding.
* **what may be played** (``playable``): seeded random hands of the dealt size with
  unfinished tricks of every length, plus every hand of one or two edge cards onto every
  one-card trick of the edge table. Declared by the play encoding.
* **the round score** (``recount_scores``): the finished rounds of seeded random games
  at the defaults, recounted under each value. Declared by the bounds' readings table
  (the option is varied, alone or in a combination, at this player count).

A change that the matching encoding does not declare fails the check (``fail``), with
the input that shows it; integer options are house parameters, not readings, and are
not tried.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tricklaw.model.agents import play_random_game
from tricklaw.model.cards import Card, value_of
from tricklaw.model.options import OptionSpec, OptionValue
from tricklaw.model.rng import SplitMix64, shuffled
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game, RoundLog
from tricklaw.proofs.bounds.game import BOUNDS
from tricklaw.proofs.bounds.readings import readings as bound_readings
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.plays import PLAYS
from tricklaw.proofs.results import Result

SAMPLED = 60
"""Seeded random inputs per rule function, option value and context."""
ENUMERATED = 150
"""At most this many tricks of the edge table per option value (more are sampled)."""
ROUNDS = 12
"""Finished rounds recounted per option value."""
OBLIGATION = "declared-readings"


@dataclass(frozen=True)
class Change:
    """An option value that changes a rule function of the model, and the input showing it."""

    rule: str
    option: str
    value: str
    witness: dict[str, Any]


def base_options(spec: OptionSpec, fixed: Mapping[str, str]) -> dict[str, OptionValue]:
    """The options a change of ``spec`` is tried against: ``fixed`` (verify's
    ``--option``), and the values ``spec`` acts with."""
    return {**fixed, **dict(spec.acts_with)}


def edge_cards(deck: Sequence[Card]) -> list[Card]:
    """A small table of the deck: every colour, each with the two lowest and the highest
    value (where equal numbers, first or last cards and extremes decide most rules)."""
    values = sorted({value_of(c) for c in deck})
    chosen = {*values[:2], values[-1]}
    return [c for c in deck if value_of(c) in chosen]


def edge_tricks(deck: Sequence[Card], size: int, seed: int) -> tuple[list[tuple[Card, ...]], str]:
    """Every trick of ``size`` cards of the edge table when there are at most
    :data:`ENUMERATED`, else :data:`ENUMERATED` seeded random ones of it; and which."""
    edge = edge_cards(deck)
    total = math.perm(len(edge), size)
    if total <= ENUMERATED:
        return list(itertools.permutations(edge, size)), f"all {total} edge tricks"
    rng = SplitMix64(seed)
    return [tuple(shuffled(edge, rng)[:size]) for _ in range(ENUMERATED)], (
        f"{ENUMERATED} of {total} edge tricks"
    )


def sample_tricks(deck: Sequence[Card], size: int, seed: int) -> tuple[list[tuple[Card, ...]], str]:
    """:data:`SAMPLED` seeded random tricks of ``size`` cards of ``deck``, then the edge
    tricks (:func:`edge_tricks`); and a sentence saying what they are."""
    rng = SplitMix64(seed)
    sampled = [tuple(shuffled(deck, rng)[:size]) for _ in range(SAMPLED)]
    edge, how = edge_tricks(deck, size, seed)
    return sampled + edge, f"{SAMPLED} random tricks and {how}"


def _judged(game: Game, cards: Sequence[Card], context: Mapping[str, str]) -> Any:
    try:
        result = game.ruleset.judge_trick(game, cards, context)
    except Exception as exc:  # a reading under which the model refuses the trick differs
        return f"raised {type(exc).__name__}"
    return (result.winner, result.taken, result.aside)


def deck_of(game: Game) -> tuple[Card, ...]:
    """The deck in play of ``game``."""
    return game.ruleset.deck(game.players, game.options)


def judge_change(base: Game, other: Game, seed: int) -> dict[str, Any] | None:
    """A trick (and context) of both decks judged differently in ``other`` than in
    ``base``; else ``{"deck": ...}`` when only the deck in play differs; else None."""
    palette = base.ruleset.palette
    deck, theirs = deck_of(base), set(deck_of(other))
    common = [c for c in deck if c in theirs]
    cls = ENCODINGS.get(base.ruleset.id)
    contexts = [cls(base, ctx).model_context() for ctx in cls.contexts(base)] if cls else [{}]
    cases, _ = sample_tricks(common, base.seats, seed)
    for context in contexts:
        for cards in cases:
            if _judged(base, cards, context) != _judged(other, cards, context):
                return {"trick": palette.format_all(cards), "context": context}
    if set(deck) != theirs:
        return {"deck": f"{len(deck)} cards in play, {len(theirs)} under this value"}
    return None


EDGE_TRICKS = 8
"""Seeded random unfinished tricks of the edge table per length, for :func:`play_inputs`."""


def play_inputs(game: Game, seed: int) -> Iterator[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """:data:`SAMPLED` seeded random (hand, unfinished trick) pairs of the dealt hand size
    and every trick length; then, for :data:`EDGE_TRICKS` seeded unfinished tricks of
    the edge table of each length, every hand of one or two other edge cards."""
    deck = deck_of(game)
    size = min(game.ruleset.hand_size(game), len(deck) // max(1, game.seats))
    rng = SplitMix64(seed)
    for n in range(SAMPLED):
        order = shuffled(deck, rng)
        played = n % game.seats
        yield tuple(order[:size]), tuple(order[size : size + played])
    edge = edge_cards(deck)
    for length in range(1, game.seats):
        for _ in range(EDGE_TRICKS):
            trick = tuple(shuffled(edge, rng)[:length])
            rest = [c for c in edge if c not in trick]
            for k in (1, 2):
                for hand in itertools.combinations(rest, k):
                    yield hand, trick


def _playable(game: Game, hand: tuple[Card, ...], trick: tuple[Card, ...]) -> Any:
    try:
        return frozenset(game.ruleset.playable(game, hand, trick))
    except Exception as exc:
        return f"raised {type(exc).__name__}"


def play_change(base: Game, other: Game, seed: int) -> dict[str, Any] | None:
    """A hand and trick with other playable cards in ``other`` than in ``base``; else
    ``{"deck": ...}`` when only the deck in play differs; else None."""
    palette = base.ruleset.palette
    theirs = set(deck_of(other))
    for hand, trick in play_inputs(base, seed):
        if not theirs.issuperset((*hand, *trick)):
            continue
        if _playable(base, hand, trick) != _playable(other, hand, trick):
            return {"hand": palette.format_all(hand), "trick": palette.format_all(trick)}
    if set(deck_of(base)) != theirs:
        return {"deck": f"{len(deck_of(base))} cards in play, {len(theirs)} under this value"}
    return None


def sample_logs(game: Game, count: int) -> list[RoundLog]:
    """``count`` finished rounds of seeded random games of ``game``."""
    logs: list[RoundLog] = []
    seed = 1
    while len(logs) < count and seed < 4 * count:
        logs += play_random_game(game, seed, max_rounds=count - len(logs)).history
        seed += 1
    return logs[:count]


def _recount(game: Game, log: RoundLog) -> Any:
    try:
        return game.ruleset.recount_scores(game, log)
    except Exception as exc:
        return f"raised {type(exc).__name__}"


def score_change(base: Game, other: Game, logs: Sequence[RoundLog]) -> dict[str, Any] | None:
    """A finished round (of ``base``) that ``other`` scores differently; None when none."""
    for log in logs:
        one, two = _recount(base, log), _recount(other, log)
        if one != two:
            return {"round": log.index, "scores": [str(one), str(two)]}
    return None


Checker = Callable[[Game, Game, int], "dict[str, Any] | None"]


def changes(
    ruleset: Ruleset[Any], players: int, fixed: Mapping[str, str], seed: int = 7
) -> list[Change]:
    """Every (rule function, option value) that changes the model's answer at
    ``players``, with its witness; options fixed by ``fixed`` are not varied."""
    out: list[Change] = []
    for spec in ruleset.option_specs:
        if not spec.choices or spec.name in fixed:
            continue
        base = ruleset.make_game(players, base_options(spec, fixed))
        logs: list[RoundLog] | None = None
        for value in spec.choices:
            if value == str(base.options[spec.name]):
                continue
            other = ruleset.make_game(players, {**base_options(spec, fixed), spec.name: value})
            for rule, found in (
                ("judge", judge_change(base, other, seed)),
                ("playable", play_change(base, other, seed)),
            ):
                if found is not None:
                    out.append(Change(rule, spec.name, value, found))
            if ruleset.id in BOUNDS:
                logs = sample_logs(base, ROUNDS) if logs is None else logs
                found = score_change(base, other, logs)
                if found is not None:
                    out.append(Change("score", spec.name, value, found))
    return out


def declared(ruleset: Ruleset[Any], players: int) -> dict[str, Declared]:
    """Rule function -> what its encoding declares at ``players``."""
    out: dict[str, Declared] = {}
    if ruleset.id in ENCODINGS:
        cls = ENCODINGS[ruleset.id]
        out["judge"] = Declared(cls.readings, cls.deck_readings, cls.unencoded)
    if ruleset.id in PLAYS:
        out["playable"] = Declared(PLAYS[ruleset.id].readings)
    if ruleset.id in BOUNDS:
        varied = {name for reading in bound_readings(ruleset, players) for name, _ in reading}
        out["score"] = Declared(tuple(sorted(varied)))
    return out


@dataclass(frozen=True)
class Declared:
    """What an encoding declares: the options it proves every reading of (``readings``),
    those varied only as other decks (``deck_only``), and those it says it does not
    encode, with the reason (``unencoded``)."""

    readings: tuple[str, ...]
    deck_only: tuple[str, ...] = ()
    unencoded: Mapping[str, str] = field(default_factory=dict)

    def covers(self, change: Change) -> bool:
        """Whether ``change`` is declared (a deck-only option only for a deck change)."""
        if change.option in self.readings or change.option in self.unencoded:
            return True
        return change.option in self.deck_only and "deck" in change.witness


ENCODING_NAME = {
    "judge": "trick encoding",
    "playable": "play encoding",
    "score": "score bounds' readings table",
}
INPUTS = {
    "judge": f"{SAMPLED} random tricks and the edge table's, in every trick context",
    "playable": f"{SAMPLED} random hands and tricks, and edge hands onto edge tricks",
    "score": f"{ROUNDS} random rounds recounted",
}


def results(
    ruleset: Ruleset[Any], players: int, fixed: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """One ``declared-readings`` result per rule function of ``ruleset`` at ``players``:
    ``pass`` when every option that changes the model's answer is declared by the
    matching encoding, ``fail`` naming the undeclared ones and the first's witness."""
    start = time.perf_counter()
    found = changes(ruleset, players, fixed)
    owned = declared(ruleset, players)
    seconds = (time.perf_counter() - start) / max(1, len(owned))
    out = []
    for rule, own in owned.items():
        mine = [c for c in found if c.rule == rule]
        missing = [c for c in mine if not own.covers(c)]
        changing = ", ".join(dict.fromkeys(c.option for c in mine)) or "none"
        skipped = [
            f"{c.option} ({own.unencoded[c.option]})" for c in mine if c.option in own.unencoded
        ]
        if missing:
            bad = missing[0]
            names = ", ".join(dict.fromkeys(c.option for c in missing))
            status = "fail"
            kind = "deck" if "deck" in bad.witness else "answer"
            detail = (
                f"undeclared by the {ENCODING_NAME[rule]}: {names}; {bad.option}={bad.value}"
                f" changes the model's {rule} ({kind})"
            )
            witness = {"option": bad.option, "value": bad.value, **bad.witness}
        else:
            status, witness = "pass", {}
            detail = f"options that change it: {changing}; all declared ({INPUTS[rule]})"
            if skipped:
                detail += "; declared NOT ENCODED: " + "; ".join(skipped)
        out.append(
            Result(
                f"{OBLIGATION} {rule}",
                ruleset.id,
                str(players),
                "every option",
                status,
                seconds,
                (),
                detail,
                witness,
            )
        )
    return out
