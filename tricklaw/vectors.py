"""Conformance vectors: language-neutral JSON cases with which any implementation of a
ruleset shows that it agrees with tricklaw's reference model.

``tricklaw vectors`` writes them, deterministically, into the versioned folder
``spec/vectors/v1/`` (checked in, and installed with the package); ``tricklaw vectors
--check`` regenerates them in memory and exits 1 with one line naming the first file that
differs from the checked-in one. ``spec/vectors.schema.json`` is their JSON Schema (a game
case's record refers to ``record.schema.json`` beside it). A version folder never changes
meaning: a new format, or a changed expected output, is published as ``v2/``.

**The runner contract.** What an implementation reads, and what it must reproduce:

*Files.* ``v1/index.json`` lists every vector file with its ``kind``, ``ruleset`` and number
of ``cases``. ``rng.json`` holds the ruleset-free cases; every ruleset has one file per
kind, ``<ruleset>.<kind>.json``, for the kinds ``deals``, ``tricks``, ``legal``, ``scores``,
``games`` and ``perft``. A vector file is one JSON object: ``format``
(``"tricklaw-vectors"``), ``version`` (1), ``kind``, ``ruleset`` (null in ``rng.json``),
the ruleset's ``palette`` (colour ``letters`` and ``names`` in canonical order), a
``description`` and the ``cases``.

*Cases.* Every case has a stable ``id`` (``STI93-trick-0042``: the registry's clause
prefix, the kind, a number), the ``ruleset``, the number of ``players``, ``options`` (every
option of the ruleset, defaults included, as the model resolves them), ``input``,
``expected`` and ``clauses``. A runner makes the game from ruleset, players and options,
computes the outputs from ``input`` alone and compares them with ``expected``: a case
passes when every field of ``expected`` is reproduced exactly (JSON equality: objects by
key, lists in order). ``clauses`` (sorted) lists the ids of the rule clauses and disputes
of ``spec/<ruleset>.toml`` that the case exercises; it is traceability, not an output. The
clause ids that the model itself reports are outputs, in ``expected``; a runner that
reports no clause ids may skip ``expected.clauses`` and ``expected.forbidden_by`` and
should say so.

*Notation.* A card is its colour letter and value (``R5``, ``Y14``) in the ruleset's
palette; the canonical deck order is colour by colour in palette order, values ascending.
Seats are 0-based and clockwise. In ``tricks`` and ``legal`` a trick lists its cards in
play order and names seats by their offset from the leader (0 = the leader); elsewhere
seats are absolute. 64-bit numbers (the seeds and outputs of ``rng.json``, round seeds)
are 16-digit lower-case hexadecimal strings; game seeds are JSON integers.

*Per kind:*

``rng``
    ``input.function`` names a primitive of :mod:`tricklaw.model.rng`: ``splitmix64``
    (the first eight outputs of ``SplitMix64(seed)``), ``below`` (``below(n)`` for each of
    ``bounds`` in turn, from one generator), ``shuffle`` (the Fisher-Yates shuffle of
    ``[0 .. n-1]``), ``round_seed`` (output ``round`` of ``SplitMix64(seed)``), ``agent``
    (the first four outputs of the agents' generator ``SplitMix64(seed xor 2**64-1)``).
``deals``
    From ``input.seed`` and ``input.round`` (0): the ``round_seed``; the ``deck`` for the
    player count and options, in canonical order; its shuffled ``order``; and the ``deal``
    cut from it: ``hands`` (one list per seat, in dealt order), ``piles`` (name -> cards,
    top first: Sticheln's ``aside``, The Last's ``ghost`` and ``points``, Hund's
    ``virtual-down`` and ``virtual-up``), ``first_leader`` (The Last's drawn first player,
    else null) and ``extras`` (Hund's drawn ``designation``). Draws after the shuffle
    (first player, designation) continue the shuffling generator.
``tricks``
    ``input.cards`` is a complete trick, the lead first; Hund adds ``input.context``:
    ``powers``, the suits that held powers before the trick (letters, in power order Trump,
    Plus, Hund, Minus, Lead), and the round's ``designation`` or, with
    ``designation-mode=sets``, its five ``sets``. Reproduce ``winner`` (an offset, or null
    when nobody takes the trick), ``taken`` (offset -> the cards that seat takes, in the
    model's order), ``aside`` (cards that go to nobody), ``facts`` (name -> text: The
    Last's winning colour and points-card taker, Hund's trump and the powers held after the
    trick, ``"trump=red, plus=yellow"``) and ``clauses`` (the clause ids that decided the
    trick, in order). Every reading of the options marked ``affects_trick`` has its cases,
    as do Hund's three trick contexts.
``legal``
    A position of a seeded game played under the case's options: ``input.hand`` (canonical
    order) and the unfinished ``input.trick``. Reproduce ``playable``, the cards of the hand
    that may be played, in hand order, and ``forbidden_by``, the clause id the model names
    when one of the other cards is played (null when every card is playable).
``scores``
    A finished round of a seeded game: ``input.taken`` (per seat, the cards that count for
    it: in Sticheln and lowhigh the cards won, in The Last the face-down cards, in Hund the
    cards taken), ``first_leader``, ``seating`` and ``facts`` (Sticheln: the ``picked``
    cards, seat by seat; Hund: the ``powers``, suit letters in power order). Reproduce
    ``scores``, one per seat (The Last's ghost and Hund's virtual player included), and for
    Hund ``lead_decider``, the seat that names the next start player, or null.
``games``
    ``input.seed`` and ``input.agent`` (``"random"``): a whole game of seeded random
    agents. An agent chooses ``legal[below(len(legal))]`` from the agents' generator, where
    ``legal`` is the current player's legal actions in canonical order: ascending action
    code, that is by kind (``play``, ``select``, ``keep``, ``swap``, ``leader``,
    ``designate``), then by card in canonical order, or by seat. ``expected.record`` is the
    game's tricklaw record (``spec/record.schema.json``): options, seed, every deal, every
    action with its seat, every trick's result (absolute seats), the round facts and
    scores, the totals and the winners. ``expected.legal_counts`` is the number of legal
    actions at each decision, in order (the automatic plays of The Last's ghost and Hund's
    virtual player are no decisions). A runner without the random agent replays the
    record's deals and actions and checks every trick, score, total and the winners.
``perft``
    From the seeded deal of round 0 of ``input.seed``, after the actions of
    ``input.prefix`` (each a seat and an action in notation), ``counts[d-1]`` is the number
    of sequences of ``d`` decisions (legal actions of any kind) for ``d`` from 1 to
    ``input.depth``. Automatic plays happen between decisions and are not counted.

The reference runner is :func:`run_case`: it computes a case's outputs from its inputs
along other paths through the model than the generator took (the deal cut from the
shuffle, not the game's own; the rules' scoring functions, not the state's bookkeeping;
a depth-first perft against the generator's breadth-first one; the games replayed).
``tests/test_vectors.py`` runs every case through it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from importlib import resources
from itertools import product
from pathlib import Path
from typing import Any

from tricklaw.model import actions
from tricklaw.model.actions import string_to_action
from tricklaw.model.agents import play_random_game
from tricklaw.model.cards import Card, colour_of, make_card, value_of
from tricklaw.model.options import OptionValue
from tricklaw.model.record import record_schema, replay, result_json, to_record
from tricklaw.model.rng import MASK64, SplitMix64, agent_rng, round_seed, shuffled
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.model.rulesets import hund as hund_rules
from tricklaw.model.rulesets import lowhigh as lowhigh_rules
from tricklaw.model.rulesets import sticheln as sticheln_rules
from tricklaw.model.rulesets import the_last as last_rules
from tricklaw.model.state import Deal, Game, Phase, RoundLog, State
from tricklaw.model.trick import TrickResult
from tricklaw.spec import load_registry
from tricklaw.spec.errors import IllegalActionError, TricklawError

FORMAT = "tricklaw-vectors"
INDEX_FORMAT = "tricklaw-vectors-index"
VERSION = 1
FOLDER = f"v{VERSION}"
KINDS = ("rng", "deals", "tricks", "legal", "scores", "games", "perft")
"""The kinds of vector, in file order (``rng`` has one file, the others one per ruleset)."""
TAGS = {
    "deals": "deal",
    "tricks": "trick",
    "legal": "legal",
    "scores": "score",
    "games": "game",
    "perft": "perft",
}
"""The word of each kind in case ids (``STI93-trick-0042``)."""
NON_NORMATIVE = frozenset({"advice", "info", "example"})
"""Clause kinds that state no rule (the coverage check skips them)."""

Json = dict[str, Any]


class VectorError(TricklawError):
    """Vectors that cannot be generated, written, read or checked."""


# --- small helpers ---------------------------------------------------------------------------


def _hex(value: int) -> str:
    return f"{value & MASK64:016x}"


def _seed(*parts: object) -> int:
    """A fixed 64-bit seed for a sampler, from its name (the same on every machine)."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def _sample(rng: SplitMix64, pool: Sequence[Any], k: int) -> list[Any]:
    """``k`` distinct items of ``pool`` (a partial Fisher-Yates shuffle from the front)."""
    items = list(pool)
    for i in range(k):
        j = i + rng.below(len(items) - i)
        items[i], items[j] = items[j], items[i]
    return items[:k]


def _fmt(ruleset: Ruleset[Any], cards: Iterable[Card]) -> list[str]:
    return ruleset.palette.format_all(cards)


def _roles(ruleset: Ruleset[Any], *names: str) -> list[str]:
    """The clause ids of the rule roles ``names`` in ``ruleset``'s role table."""
    return [ruleset.clause[n] for n in names if ruleset.clause.get(n)]


def _prefix(ruleset_id: str) -> str:
    return load_registry(ruleset_id).prefix


def _deal_json(ruleset: Ruleset[Any], deal: Deal) -> Json:
    return {
        "hands": [_fmt(ruleset, h) for h in deal.hands],
        "piles": {name: _fmt(ruleset, cards) for name, cards in deal.piles},
        "first_leader": deal.first_leader,
        "extras": dict(deal.extras),
    }


def _non_default_disputes(ruleset: Ruleset[Any], game: Game) -> list[str]:
    """The disputes whose reading ``game`` changes from the default."""
    return [
        s.dispute for s in ruleset.option_specs if s.dispute and game.options[s.name] != s.default
    ]


class _Cases:
    """The cases of one vector file, numbered as they are added."""

    def __init__(self, prefix: str, tag: str) -> None:
        self.prefix = prefix
        self.tag = tag
        self.items: list[Json] = []

    def add(
        self,
        game: Game | None,
        inputs: Json,
        expected: Json,
        clauses: Iterable[str],
    ) -> None:
        self.items.append(
            {
                "id": f"{self.prefix}-{self.tag}-{len(self.items) + 1:04d}",
                "ruleset": game.ruleset.id if game else None,
                "players": game.players if game else None,
                "options": game.options.as_dict() if game else {},
                "input": inputs,
                "expected": expected,
                "clauses": sorted(set(clauses)),
            }
        )


# --- rng ---------------------------------------------------------------------------------------

RNG_SEEDS = (0, 1, 7, 42, 0x9E3779B97F4A7C15, 1 << 63, MASK64)
SHUFFLE_SIZES = (1, 2, 3, 10, 45, 48, 50, 60, 75, 90)
BELOW_BOUNDS = (1, 2, 3, 4, 5, 6, 7, 10, 12, 15, 45, 48, 90, 1000003, 4294967296)


def _rng_cases() -> list[Json]:
    cases = _Cases("RNG", "rng")
    for seed in RNG_SEEDS:
        rng = SplitMix64(seed)
        outputs = [_hex(rng.next_u64()) for _ in range(8)]
        cases.add(None, {"function": "splitmix64", "seed": _hex(seed)}, {"outputs": outputs}, ())
    for seed in RNG_SEEDS:
        rng = SplitMix64(seed)
        draws = [rng.below(n) for n in BELOW_BOUNDS]
        cases.add(
            None,
            {"function": "below", "seed": _hex(seed), "bounds": list(BELOW_BOUNDS)},
            {"draws": draws},
            (),
        )
    for seed in (*RNG_SEEDS[:4], MASK64):
        for n in SHUFFLE_SIZES:
            perm = shuffled(list(range(n)), SplitMix64(seed))
            cases.add(
                None,
                {"function": "shuffle", "seed": _hex(seed), "n": n},
                {"permutation": perm},
                (),
            )
    for seed in RNG_SEEDS:
        for rnd in (0, 1, 2, 4, 9, 100):
            cases.add(
                None,
                {"function": "round_seed", "seed": _hex(seed), "round": rnd},
                {"round_seed": _hex(round_seed(seed, rnd))},
                (),
            )
    for seed in RNG_SEEDS[:4]:
        rng = agent_rng(seed)
        cases.add(
            None,
            {"function": "agent", "seed": _hex(seed)},
            {"outputs": [_hex(rng.next_u64()) for _ in range(4)]},
            (),
        )
    return cases.items


def _run_rng(inputs: Mapping[str, Any]) -> Json:
    seed = int(inputs["seed"], 16)
    function = inputs["function"]
    if function == "splitmix64":
        rng = SplitMix64(seed)
        return {"outputs": [_hex(rng.next_u64()) for _ in range(8)]}
    if function == "below":
        rng = SplitMix64(seed)
        return {"draws": [rng.below(n) for n in inputs["bounds"]]}
    if function == "shuffle":
        return {"permutation": shuffled(list(range(inputs["n"])), SplitMix64(seed))}
    if function == "round_seed":
        return {"round_seed": _hex(round_seed(seed, inputs["round"]))}
    if function == "agent":
        rng = agent_rng(seed)
        return {"outputs": [_hex(rng.next_u64()) for _ in range(4)]}
    raise VectorError(f"unknown rng function {function!r}")


# --- deals -------------------------------------------------------------------------------------

DEAL_SEEDS = (0, 1, 7, 42)
DEAL_VARIANTS: Mapping[str, tuple[Mapping[str, OptionValue], ...]] = {
    "sticheln-1993": ({"deck": "full"},),
    "sticheln": (),
    "the-last": (),
    "lowhigh": (),
    "hund": (
        {"values": "from-0"},
        {"more-cards": "yes"},
        {"designation": "ascending"},
        {"designation-mode": "sets"},
        {"virtual-odd": "extra-up"},
    ),
}
"""Per ruleset, the readings besides the defaults that change a deal (one seed each)."""

STI93_DECK_BY_PLAYERS = {6: "STI93-DECK-3", 5: "STI93-DECK-4", 4: "STI93-DECK-5", 3: "STI93-DECK-6"}
STI_DECK_BY_PLAYERS = {3: "STI-DECK-2", 4: "STI-DECK-3", 5: "STI-DECK-4", 6: "STI-DECK-5"}


def _deal_clauses(ruleset: Ruleset[Any], game: Game) -> list[str]:
    """The clauses a deal exercises: the deck and the deal, and each text's set-up."""
    n = game.players
    out = _roles(ruleset, "deck", "deal")
    options = game.options
    if ruleset.id == "sticheln-1993":
        out += ["STI93-SETUP-1", "STI93-DECK-1"]
        if options.text("deck") == "table":
            out.append(STI93_DECK_BY_PLAYERS[n])
    elif ruleset.id == "sticheln":
        out.append(STI_DECK_BY_PLAYERS[n])
    elif ruleset.id == "the-last":
        out += _roles(ruleset, "setup", "points-pile", "first-lead")
        if n == 2:
            out += _roles(ruleset, "ghost-deal", "ghost-pile")
            out.remove(ruleset.clause["deal"])  # the three-to-five-player deal table
    elif ruleset.id == "lowhigh":
        out += _roles(ruleset, "setup")
    elif ruleset.id == "hund":
        out += _roles(ruleset, "suits", "colours")
        if options.text("designation-mode") == "drawn":
            out += [*_roles(ruleset, "designation"), "HUND-D-DESIGNATION"]
        if n == 2:
            out += [*_roles(ruleset, "two", "display"), "HUND-D-VIRTUALODD"]
        if options.text("more-cards") == "yes":
            out += _roles(ruleset, "more-cards")
    return out + _non_default_disputes(ruleset, game)


def _deal_output(game: Game, seed: int, deal: Deal) -> Json:
    ruleset = game.ruleset
    deck = ruleset.deck(game.players, game.options)
    rs = round_seed(seed, 0)
    return {
        "round_seed": _hex(rs),
        "deck": _fmt(ruleset, deck),
        "order": _fmt(ruleset, shuffled(deck, SplitMix64(rs))),
        "deal": _deal_json(ruleset, deal),
    }


def _deal_cases(ruleset: Ruleset[Any]) -> list[Json]:
    cases = _Cases(_prefix(ruleset.id), TAGS["deals"])
    for players in ruleset.player_counts:
        plans: list[tuple[Mapping[str, OptionValue], int]] = [({}, s) for s in DEAL_SEEDS]
        plans += [(v, 1) for v in DEAL_VARIANTS[ruleset.id]]
        for options, seed in plans:
            if "virtual-odd" in options and players != 2:
                continue
            game = ruleset.make_game(players, options)
            deal = game.new_initial_state(seed).info.deal  # the live path
            cases.add(
                game,
                {"seed": seed, "round": 0},
                _deal_output(game, seed, deal),
                _deal_clauses(ruleset, game),
            )
    return cases.items


def _run_deal(game: Game, inputs: Mapping[str, Any]) -> Json:
    ruleset = game.ruleset
    if inputs["round"] != 0:
        raise VectorError("deal vectors are of round 0")
    seed = inputs["seed"]
    rng = SplitMix64(round_seed(seed, 0))
    order = shuffled(ruleset.deck(game.players, game.options), rng)
    return _deal_output(game, seed, ruleset.cut(game, order, rng, ()))


# --- tricks ------------------------------------------------------------------------------------

TRICK_CANDIDATES = 1500
"""Sampled candidate tricks per ruleset, player count and context mode."""
HUND_TRICK_CANDIDATES = 700
PER_SIGNATURE = 2
"""Tricks kept per signature (outcome class) and reading (Hund: one, for its many readings)."""
HUND_SET_MODES: tuple[Mapping[str, OptionValue], ...] = (
    {},
    {"designation-mode": "sets"},
    {"designation-mode": "sets", "set-match": "value", "set-repeat": "stack"},
)
"""Hund's trick contexts: the drawn designated number, and designation sets read both ways."""


def trick_variants(ruleset: Ruleset[Any]) -> list[dict[str, OptionValue]]:
    """Every reading of the options that can change a complete trick (``affects_trick``),
    and for Hund each designation context."""
    specs = [s for s in ruleset.option_specs if s.affects_trick]
    readings = [
        dict(zip([s.name for s in specs], values, strict=True))
        for values in product(*(s.choices for s in specs))
    ]
    modes: Sequence[Mapping[str, OptionValue]] = HUND_SET_MODES if ruleset.id == "hund" else ({},)
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
        few = set(_sample(rng, values, 1 + rng.below(3)))
        if rng.below(2):
            few.add(values[0])
        if hot and rng.below(2):
            few.update(hot)
        pool = [c for c in deck if value_of(c) in few]
    elif mode == 2:
        some = set(_sample(rng, colours, 1 + rng.below(2)))
        pool = [c for c in deck if colour_of(c) in some]
    elif mode == 3:
        few = {values[0], values[-1], values[rng.below(len(values))], *hot}
        some = set(_sample(rng, colours, 1 + rng.below(2)))
        pool = [c for c in deck if value_of(c) in few or colour_of(c) in some]
    elif mode == 4:
        lead = _sample(rng, [c for c in deck if value_of(c) == values[0]], 1)
        rest = _sample(rng, [c for c in deck if c != lead[0]], seats - 1)
        return tuple(lead + rest)
    if len(pool) < seats:
        pool = deck
    return tuple(_sample(rng, pool, seats))


def _edge_tricks(deck: Sequence[Card], seats: int) -> list[tuple[Card, ...]]:
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


def sample_hund_context(rng: SplitMix64, game: Game) -> Json:
    """A random Hund trick context: the powers held before the trick (0-5 suits) and the
    round's designated number, or five designation sets (distinct suits and values)."""
    rules: hund_rules.Rules = game.rules
    letters = hund_rules.PALETTE.letters
    held = _sample(rng, range(len(letters)), (0, 0, 1, 1, 2, 3, 4, 5)[rng.below(8)])
    powers = [letters[s] for s in held]
    if not rules.sets:
        return {"powers": powers, "designation": 1 + rng.below(5)}
    values = list(hund_rules.HUND_RULESET.values(game.players, rules))
    suits = _sample(rng, range(len(letters)), 5)
    chosen = _sample(rng, values, 5)
    sets = [hund_rules.PALETTE.format(make_card(s, v)) for s, v in zip(suits, chosen, strict=True)]
    return {"powers": powers, "sets": sets}


def model_context(context: Mapping[str, Any] | None) -> dict[str, str] | None:
    """A vector's structured trick context in the form ``Ruleset.judge_trick`` reads."""
    if context is None:
        return None
    out = {"powers": ",".join(context["powers"])}
    if "designation" in context:
        out["designation"] = str(context["designation"])
    if "sets" in context:
        out["sets"] = ",".join(context["sets"])
    return out


def hot_values(context: Mapping[str, Any] | None) -> list[int]:
    """The card values that assign powers in a Hund trick context (none without one)."""
    if context is None:
        return []
    if "designation" in context:
        return [int(context["designation"])]
    return [int(s[1:]) for s in context["sets"]]


def _signature(
    ruleset: Ruleset[Any],
    cards: Sequence[Card],
    result: TrickResult,
    context: Mapping[str, Any] | None,
) -> tuple[Any, ...]:
    """The outcome class of a trick: who wins, who takes how many cards, which clauses
    decided it, and what else can change the path through the rules."""
    shape = (
        result.clauses,
        result.winner,
        tuple((offset, len(c)) for offset, c in result.taken),
        len(result.aside),
    )
    if ruleset.id in {"sticheln-1993", "sticheln"}:
        return (*shape, value_of(cards[0]) == 0)
    if ruleset.id == "hund" and context is not None:
        before = len(context["powers"])
        after = dict(result.facts)["powers"].count("=")
        return (*shape, "trump" in dict(result.facts), before == 0, after > before)
    return shape


def _trick_clauses(
    ruleset: Ruleset[Any],
    game: Game,
    result: TrickResult,
    context: Mapping[str, Any] | None,
    differs: Iterable[str],
) -> list[str]:
    """The clauses a trick case exercises: those the model names, the rules of a trick
    that every case follows, and the disputes whose readings judge it differently."""
    out = [*result.clauses, *differs]
    if ruleset.id in {"sticheln-1993", "sticheln"}:
        out += _roles(ruleset, "turn")
        if result.winner is not None:
            out += _roles(ruleset, "collect")
        lead = colour_of(result.cards[0])
        off_zero = any(colour_of(c) != lead and value_of(c) == 0 for c in result.cards)
        if ruleset.id == "sticheln" and off_zero:
            out.append("STI-D-ZEROOFF")  # the reading that an off-colour zero never wins
    elif ruleset.id == "hund" and context is not None:
        out += _roles(ruleset, "next-lead")
        before = len(context["powers"])
        after = dict(result.facts)["powers"].count("=")
        if after > before:
            mode = "sets" if "sets" in context else "designation"
            out += _roles(ruleset, mode, "assign")
        if after:
            out += _roles(ruleset, "trump")
    return out


def _judge(game: Game, cards: Sequence[Card], context: Mapping[str, Any] | None) -> TrickResult:
    return game.ruleset.judge_trick(game, cards, model_context(context))


def _context_mode(variant: Mapping[str, OptionValue]) -> str:
    """Which trick contexts a reading judges (Hund: drawn number, or sets read one way)."""
    return f"{variant.get('designation-mode', '')}{variant.get('set-match', '')}"


def _trick_cases(ruleset: Ruleset[Any]) -> list[Json]:
    cases = _Cases(_prefix(ruleset.id), TAGS["tricks"])
    variants = trick_variants(ruleset)
    for players in ruleset.player_counts:
        games = [ruleset.make_game(players, v) for v in variants]
        # Candidates are shared by every reading of one context mode, so that readings
        # can be compared trick by trick.
        modes: dict[str, list[tuple[tuple[Card, ...], Json | None]]] = {}
        for variant, game in zip(variants, games, strict=True):
            mode = _context_mode(variant)
            if mode in modes:
                continue
            deck = ruleset.deck(players, game.options)
            rng = SplitMix64(_seed("tricks", ruleset.id, players, mode))
            found: list[tuple[tuple[Card, ...], Json | None]] = [
                (t, None) for t in _edge_tricks(deck, game.seats)
            ]
            count = HUND_TRICK_CANDIDATES if ruleset.id == "hund" else TRICK_CANDIDATES
            for _ in range(count):
                context = sample_hund_context(rng, game) if ruleset.id == "hund" else None
                found.append((sample_trick(rng, deck, game.seats, hot_values(context)), context))
            if ruleset.id == "hund":  # the edge tricks are judged without powers held
                edge = sample_hund_context(SplitMix64(0), game)
                edge["powers"] = []
                found = [(t, c if c is not None else edge) for t, c in found]
            modes[mode] = found
        for variant, game in zip(variants, games, strict=True):
            mode = _context_mode(variant)
            siblings = [
                (name, other)
                for v, other in zip(variants, games, strict=True)
                for name in v
                if v != variant and all(v.get(k) == variant.get(k) for k in {*v, *variant} - {name})
            ]
            kept: dict[tuple[Any, ...], int] = {}
            for cards, context in modes[mode]:
                result = _judge(game, cards, context)
                sig = _signature(ruleset, cards, result, context)
                if kept.get(sig, 0) >= (1 if ruleset.id == "hund" else PER_SIGNATURE):
                    continue
                kept[sig] = kept.get(sig, 0) + 1
                differs = []
                for name, other in siblings:
                    alt = _judge(other, cards, context)
                    if (alt.winner, alt.taken, alt.aside) != (
                        result.winner,
                        result.taken,
                        result.aside,
                    ):
                        spec = next(s for s in ruleset.option_specs if s.name == name)
                        if spec.dispute:
                            differs.append(spec.dispute)
                inputs: Json = {"cards": _fmt(ruleset, cards)}
                if context is not None:
                    inputs["context"] = context
                cases.add(
                    game,
                    inputs,
                    result_json(result, ruleset.palette),
                    _trick_clauses(ruleset, game, result, context, differs),
                )
    return cases.items


def _run_trick(game: Game, inputs: Mapping[str, Any]) -> Json:
    ruleset = game.ruleset
    cards = ruleset.palette.parse_all(inputs["cards"])
    return result_json(_judge(game, cards, inputs.get("context")), ruleset.palette)


# --- legal moves -------------------------------------------------------------------------------

LEGAL_GAMES = 16
"""Seeded games (round 0) per reading whose positions the legal-move cases sample."""
LEGAL_VARIANTS: Mapping[str, tuple[Mapping[str, OptionValue], ...]] = {
    "sticheln-1993": (
        {"follow": "free"},
        {"follow": "follow-or-trump"},
        {"follow": "must-follow"},
    ),
    "sticheln": ({},),
    "the-last": ({"last-play": "played-colours"}, {"last-play": "free"}),
    "lowhigh": ({},),
    "hund": ({},),
}
"""Per ruleset, every reading of what may be played."""


def _positions(game: Game) -> Iterator[State[Any]]:
    """Every play decision of round 0 of the seeded random games of ``game``."""
    for seed in range(1, LEGAL_GAMES + 1):
        state = game.new_initial_state(seed)
        draw = agent_rng(seed).below
        while not state.is_terminal() and state.round_index == 0:
            legal = state.legal_actions()
            if state.phase is Phase.PLAY:
                yield state
            state = state.apply_legal_action(legal[draw(len(legal))])


def _forbidden_by(state: State[Any], hand: Sequence[Card], playable: Sequence[Card]) -> str | None:
    """The clause the model names when the first unplayable card of ``hand`` is played."""
    for card in hand:
        if card not in playable:
            try:
                state.apply_action(actions.play(card))
            except IllegalActionError as exc:
                return exc.clause
            raise VectorError(f"the model lets {card} be played, yet it is not playable")
    return None


def _legal_clauses(ruleset: Ruleset[Any], game: Game, trick: Sequence[Card]) -> list[str]:
    """The clauses of what may be played: the turn, the lead, following."""
    out = _roles(ruleset, "turn")
    last = len(trick) == game.seats - 1
    if not trick:
        out += ["STI93-LEAD-2"] if ruleset.id == "sticheln-1993" else []
    elif ruleset.id == "the-last" and last:
        out += [*_roles(ruleset, "play-last"), "LAST-D-LASTPLAY"]
    else:
        out += _roles(ruleset, "play")
        out += ["STI93-D-FOLLOW"] if ruleset.id == "sticheln-1993" else []
    if ruleset.id == "sticheln":
        out += _roles(ruleset, "play")  # no restriction, leader included
    return out


def _legal_cases(ruleset: Ruleset[Any]) -> list[Json]:
    cases = _Cases(_prefix(ruleset.id), TAGS["legal"])
    for players in ruleset.player_counts:
        for variant in LEGAL_VARIANTS[ruleset.id]:
            game = ruleset.make_game(players, variant)
            kept: dict[tuple[Any, ...], int] = {}
            for state in _positions(game):
                hand = state.hands[state.current]
                trick = state.trick
                playable = tuple(actions.card_of(a) for a in state.legal_actions())
                lead = colour_of(trick[0]) if trick else -1
                played = {colour_of(c) for c in trick}
                forbidden = _forbidden_by(state, hand, playable)
                sig = (
                    len(trick) == 0,
                    len(trick) == game.seats - 1,
                    len(playable) == len(hand),
                    len(playable) == 1,
                    len(hand) == 1,
                    any(colour_of(c) == lead for c in hand),
                    any(colour_of(c) != lead and value_of(c) != 0 for c in hand),
                    any(colour_of(c) != lead and value_of(c) == 0 for c in hand),
                    any(colour_of(c) in played for c in hand),
                    forbidden,
                )
                if sig in kept:
                    continue
                kept[sig] = 1
                clauses = _legal_clauses(ruleset, game, trick)
                cases.add(
                    game,
                    {"hand": _fmt(ruleset, hand), "trick": _fmt(ruleset, trick)},
                    {"playable": _fmt(ruleset, playable), "forbidden_by": forbidden},
                    [*clauses, *([forbidden] if forbidden else [])],
                )
    return cases.items


def _forbidding_clause(game: Game, trick: Sequence[Card]) -> str:
    """The clause that forbids an unplayable card after ``trick`` (the model's
    ``forbidding_clause`` for a card held but not allowed)."""
    ruleset = game.ruleset
    if ruleset.id == "the-last" and len(trick) == game.seats - 1:
        return ruleset.clause["play-last"]
    return ruleset.clause["play"]


def _run_legal(game: Game, inputs: Mapping[str, Any]) -> Json:
    ruleset = game.ruleset
    hand = tuple(ruleset.palette.parse_all(inputs["hand"]))
    trick = tuple(ruleset.palette.parse_all(inputs["trick"]))
    playable = ruleset.playable(game, hand, trick)
    forbidden = None if len(playable) == len(hand) else _forbidding_clause(game, trick)
    return {"playable": _fmt(ruleset, playable), "forbidden_by": forbidden}


# --- scores ------------------------------------------------------------------------------------

SCORE_SEEDS = 40
"""Seeded rounds per reading from which the scoring cases are chosen."""
SCORE_CASES = 6
"""Scoring cases per ruleset, player count and reading at most."""
SCORE_VARIANTS: Mapping[str, tuple[Mapping[str, OptionValue], ...]] = {
    "sticheln-1993": ({},),
    "sticheln": ({},),
    "the-last": ({}, {"unused-points": "last-winner"}),
    "lowhigh": ({},),
    "hund": (
        {},
        {"hund-tie": "scores"},
        {"lead-tie": "earliest"},
        {"virtual-hund": "ignored"},
    ),
}


def _taken(game: Game, log: RoundLog) -> list[list[Card]]:
    """The cards that count for each seat at the end of a round, from its log: the cards
    its tricks hand it, or (The Last) the points cards it laid face down."""
    if game.ruleset.id == "the-last":
        return last_rules.face_down(game, log)[0]
    return log.taken(game.seats)


def _score_inputs(game: Game, log: RoundLog) -> Json:
    ruleset = game.ruleset
    facts = dict(log.facts)
    kept: Json = {}
    if "picked" in facts:
        kept["picked"] = facts["picked"]
    if "powers" in facts:
        kept["powers"] = facts["powers"]
    return {
        "taken": [_fmt(ruleset, t) for t in _taken(game, log)],
        "first_leader": log.first_leader,
        "seating": list(log.seating),
        "facts": kept,
    }


def _run_score(game: Game, inputs: Mapping[str, Any]) -> Json:
    """Scores from a round's inputs with the rulesets' scoring functions."""
    ruleset = game.ruleset
    taken = [tuple(ruleset.palette.parse_all(t)) for t in inputs["taken"]]
    facts = inputs["facts"]
    if ruleset.id in {"sticheln-1993", "sticheln"}:
        picked = ruleset.palette.parse_all(facts["picked"])
        scores = [sticheln_rules.score(p, t) for p, t in zip(picked, taken, strict=True)]
        return {"scores": scores}
    if ruleset.id == "the-last":
        ghost = last_rules.GHOST if game.players == 2 else None
        return {"scores": [0 if s == ghost else last_rules.penalty(t) for s, t in enumerate(taken)]}
    if ruleset.id == "lowhigh":
        return {"scores": [lowhigh_rules.score(t) for t in taken]}
    if ruleset.id == "hund":
        holders = [ruleset.palette.letters.index(x) for x in facts["powers"]]
        virtual = hund_rules.VIRTUAL if game.players == 2 else None
        points = hund_rules.round_score(taken, holders, game.rules, virtual)
        decider = hund_rules.lead_decider(
            taken,
            holders,
            game.rules,
            seating=tuple(inputs["seating"]),
            start=inputs["first_leader"],
            virtual=virtual,
        )
        return {"scores": list(points), "lead_decider": decider}
    raise VectorError(f"no scoring runner for {ruleset.id}")


def _score_signature(game: Game, inputs: Json, expected: Json) -> tuple[Any, ...]:
    ruleset = game.ruleset
    scores = expected["scores"]
    taken = [ruleset.palette.parse_all(t) for t in inputs["taken"]]
    counts = [
        sorted(sum(1 for c in t if colour_of(c) == colour) for colour in {colour_of(c) for c in t})
        for t in taken
    ]
    if ruleset.id == "hund":
        held = len(inputs["facts"]["powers"])
        return (held, expected["lead_decider"] is None, len(set(scores)), min(scores) < 0)
    if ruleset.id == "lowhigh":
        return (any(n >= 3 for c in counts for n in c), any(n <= 2 for c in counts for n in c))
    if ruleset.id == "the-last":
        return (any(len(t) > len(taken[0]) + 1 for t in taken), scores.count(0))
    return (min(scores) < -10, any(p.endswith("0") for p in inputs["facts"]["picked"]))


def _score_clauses(ruleset: Ruleset[Any], game: Game, inputs: Json) -> list[str]:
    """The scoring clauses of a round (those for powers only where the powers were held)."""
    out = _roles(ruleset, "score-total") + _non_default_disputes(ruleset, game)
    if ruleset.id in {"sticheln-1993", "sticheln"}:
        out += _roles(ruleset, "score-minus", "score-plus")
        out.append("STI93-SCORE-4" if ruleset.id == "sticheln-1993" else "STI-SCORE-3")
    elif ruleset.id == "the-last":
        out += _roles(ruleset, "ghost-score") if game.players == 2 else []
        if game.players == 4:
            out.append("LAST-D-UNUSED")  # 4 x 9 cards leave points cards never turned up
    elif ruleset.id == "lowhigh":
        out += _roles(ruleset, "score-colour", "display")
        taken = [ruleset.palette.parse_all(t) for t in inputs["taken"]]
        counts = [sum(1 for c in t if colour_of(c) == colour) for t in taken for colour in range(5)]
        out += _roles(ruleset, "score-few") if any(0 < n <= 2 for n in counts) else []
        out += _roles(ruleset, "score-many") if any(n >= 3 for n in counts) else []
    elif ruleset.id == "hund":
        held = len(inputs["facts"]["powers"])
        out += _roles(ruleset, "plus-minus")
        out += _roles(ruleset, "plus") if held > hund_rules.PLUS else []
        if held > hund_rules.HUND:
            out += [*_roles(ruleset, "hund", "hund-award"), "HUND-D-HUNDTIE"]
            out += ["HUND-D-VIRTUALHUND"] if game.players == 2 else []
        out += _roles(ruleset, "minus") if held > hund_rules.MINUS else []
        out += [*_roles(ruleset, "lead"), "HUND-D-LEADTIE"] if held > hund_rules.LEAD else []
        out += _roles(ruleset, "virtual-score") if game.players == 2 else []
    return out


def _score_cases(ruleset: Ruleset[Any]) -> list[Json]:
    cases = _Cases(_prefix(ruleset.id), TAGS["scores"])
    for players in ruleset.player_counts:
        for variant in SCORE_VARIANTS[ruleset.id]:
            if "virtual-hund" in variant and players != 2:
                continue
            game = ruleset.make_game(players, variant)
            kept: set[tuple[Any, ...]] = set()
            chosen = 0
            for seed in range(1, SCORE_SEEDS + 1):
                log = play_random_game(game, seed, max_rounds=1).history[0]
                if ruleset.recount_scores(game, log) != log.scores:
                    raise VectorError(f"{ruleset.id}: the recount of seed {seed} disagrees")
                inputs = _score_inputs(game, log)
                expected: Json = {"scores": list(log.scores)}
                if ruleset.id == "hund":
                    expected["lead_decider"] = dict(log.facts)["lead_decider"]
                sig = _score_signature(game, inputs, expected)
                if sig in kept and seed > 2:
                    continue
                kept.add(sig)
                cases.add(game, inputs, expected, _score_clauses(ruleset, game, inputs))
                chosen += 1
                if chosen >= SCORE_CASES:
                    break
    return cases.items


# --- whole games -------------------------------------------------------------------------------

GAME_SEEDS = (1, 2)
"""The seeds of the games played at every player count."""
GAME_BASE: Mapping[str, Mapping[str, OptionValue]] = {"sticheln-1993": {"rounds": 2}}
"""Options of the per-player-count games (the 1993 text's ten rounds are played once)."""
GAME_VARIANTS: Mapping[str, tuple[tuple[int, Mapping[str, OptionValue], int], ...]] = {
    "sticheln-1993": (
        (3, {}, 1),
        (4, {"follow": "must-follow", "rounds": 2}, 3),
        (4, {"follow": "follow-or-trump", "rounds": 2}, 3),
        (5, {"all-zero": "no-winner", "rounds": 2}, 3),
        (3, {"deck": "full", "rounds": 1}, 3),
        (3, {"end": "target", "target": 3}, 22),
    ),
    "sticheln": (
        (4, {"zero-lead": "first-nonzero"}, 3),
        (4, {"round-leader": "youngest"}, 3),
        (3, {"rounds": 1}, 3),
    ),
    "the-last": (
        (2, {"rounds": 3, "ghost-seat": "fixed"}, 3),
        (2, {"ghost-play": "first-legal"}, 3),
        (4, {"unused-points": "last-winner"}, 3),
        (3, {"last-play": "free"}, 3),
        (3, {"rounds": 2}, 4),
    ),
    "lowhigh": (
        (4, {"same-card": "among-rest"}, 3),
        (4, {"first-leader": "seat0"}, 3),
        (3, {"rounds": 1}, 3),
    ),
    "hund": (
        (3, {"lead-tie": "earliest"}, 3),
        (3, {"hund-tie": "scores"}, 3),
        (3, {"designation": "ascending"}, 3),
        (3, {"values": "from-0"}, 3),
        (3, {"more-cards": "yes"}, 3),
        (3, {"designation-mode": "sets"}, 3),
        (3, {"designation-mode": "sets", "set-suits": "any", "set-match": "value"}, 4),
        (4, {"designation-mode": "sets", "set-repeat": "stack"}, 3),
        (2, {"virtual-odd": "extra-up", "virtual-hund": "ignored"}, 3),
        (4, {"trump-timing": "from-card"}, 3),
        (4, {"trump-timing": "next-trick"}, 3),
    ),
}
"""Per ruleset, (players, options, seed) of the games that exercise other readings."""
MAX_GAME_ROUNDS = 60


def _play(game: Game, seed: int) -> tuple[State[Any], list[int]]:
    """A whole game of random agents, and the number of legal actions at each decision."""
    state = game.new_initial_state(seed)
    draw = agent_rng(seed).below
    counts: list[int] = []
    while not state.is_terminal():
        if len(state.history) >= MAX_GAME_ROUNDS:
            raise VectorError(f"{game.ruleset.id}: seed {seed} does not end in time")
        legal = state.legal_actions()
        counts.append(len(legal))
        state = state.apply_legal_action(legal[draw(len(legal))])
    return state, counts


def _game_clauses(ruleset: Ruleset[Any], game: Game, record: Json) -> list[str]:
    """The clauses a whole game exercises: those of its tricks, and the rules of rounds,
    turns, scores and the end of the game that every game follows (the rarer ones only
    where the game shows them)."""
    rounds = record["rounds"]
    out = [c for r in rounds for t in r["tricks"] for c in t["clauses"]]
    out += _non_default_disputes(ruleset, game)
    if len(record["winners"]) > 1:  # a shared win: the reading of each text's game tie
        out += [d.id for d in load_registry(ruleset.id).disputes if d.id.endswith("-GAMETIE")]
    names = ["deck", "deal", "turn", "play", "collect", "round-end", "game-end", "winner"]
    out += _roles(ruleset, *names, "score-total")
    actions_seen = {a["action"].split()[0] for r in rounds for a in r["actions"]}
    two = game.players == 2
    if ruleset.id in {"sticheln-1993", "sticheln"}:
        out += _roles(ruleset, "select", "reveal", "first-lead", "score-minus", "score-plus")
        out += _roles(ruleset, "next-round") if len(rounds) > 1 else []
        if ruleset.id == "sticheln-1993":
            out += ["STI93-AIM-1", "STI93-DEAL-1", "STI93-SELECT-3", "STI93-LEAD-2"]
            opts = game.options
            suggested = ("rounds", 10) if opts.text("end") == "rounds" else ("target", 100)
            if opts.number(suggested[0]) == suggested[1]:
                out.append("STI93-GAME-2")
        else:
            out += ["STI-SELECT-1", "STI-D-ROUNDLEAD"]
    elif ruleset.id == "the-last":
        out += ["LAST-AIM-1", "LAST-D-ROUNDS"]
        out += _roles(ruleset, "setup", "points-pile", "first-lead", "turn-up", "play-last")
        out += _roles(ruleset, "decide") if actions_seen & {"keep", "swap"} else []
        if two:
            out.remove(ruleset.clause["deal"])
            out += _roles(ruleset, "ghost-deal", "ghost-pile", "ghost-play", "ghost-turn")
            out += _roles(ruleset, "ghost-score")
            ghost_won = any(t["winner"] == last_rules.GHOST for r in rounds for t in r["tricks"])
            out += _roles(ruleset, "ghost-wins") if ghost_won else []
    elif ruleset.id == "lowhigh":
        out += ["LH-AIM-1", "LH-D-FIRSTLEAD"]
        out += _roles(ruleset, "setup", "display", "score-colour", "score-few", "score-many")
    elif ruleset.id == "hund":
        out += _roles(ruleset, "aim", "suits", "colours", "players", "start", "next-lead")
        out += _roles(ruleset, "plus-minus")
        held = max(len(r["facts"]["powers"]) for r in rounds)
        if game.rules.sets:
            out += _roles(ruleset, "sets", "set-timing")
        else:
            out += _roles(ruleset, "designation")
        out += _roles(ruleset, "assign", "trump") if held else []
        out += _roles(ruleset, "plus") if held > hund_rules.PLUS else []
        out += _roles(ruleset, "hund", "hund-award") if held > hund_rules.HUND else []
        out += _roles(ruleset, "minus") if held > hund_rules.MINUS else []
        out += _roles(ruleset, "lead", "lead-known") if held > hund_rules.LEAD else []
        out += _roles(ruleset, "choice") if "leader" in actions_seen else []
        out += _roles(ruleset, "more-cards") if game.rules.more_cards else []
        if two:
            out += _roles(ruleset, "two", "display", "virtual-turn", "virtual-play")
            out += _roles(ruleset, "virtual-suit", "reveal", "virtual-score")
    return out


def _game_cases(ruleset: Ruleset[Any]) -> list[Json]:
    cases = _Cases(_prefix(ruleset.id), TAGS["games"])
    plans = [
        (n, GAME_BASE.get(ruleset.id, {}), seed)
        for n in ruleset.player_counts
        for seed in GAME_SEEDS
    ]
    plans += list(GAME_VARIANTS[ruleset.id])
    for players, options, seed in plans:
        game = ruleset.make_game(players, options)
        state, counts = _play(game, seed)
        record = to_record(state, seed)
        cases.add(
            game,
            {"seed": seed, "agent": "random"},
            {"record": record, "legal_counts": counts},
            _game_clauses(ruleset, game, record),
        )
    return cases.items


def _run_game(game: Game, inputs: Mapping[str, Any]) -> Json:
    if inputs["agent"] != "random":
        raise VectorError(f"unknown agent {inputs['agent']!r}")
    seed = inputs["seed"]
    state = play_random_game(game, seed, MAX_GAME_ROUNDS)
    counts: list[int] = []
    replayed = game.new_initial_state(seed)
    draw = agent_rng(seed).below
    while not replayed.is_terminal():
        legal = replayed.legal_actions()
        counts.append(len(legal))
        replayed = replayed.apply_action(legal[draw(len(legal))])
    return {"record": to_record(state, seed), "legal_counts": counts}


# --- perft -------------------------------------------------------------------------------------

PERFT_SEED = 1
PERFT_MAX_DEPTH = 6
PERFT_BUDGET = 6000
"""A deeper level is counted only while the level above has at most this many sequences."""


def _perft_roots(ruleset: Ruleset[Any], players: int) -> list[tuple[Game, list[int]]]:
    """The perft roots: the start of the seeded game, and for Sticheln also the first trick
    after every seat has picked its lowest card, under every reading of what may be played."""
    roots: list[tuple[Game, list[int]]] = [(ruleset.make_game(players), [])]
    if ruleset.id in {"sticheln-1993", "sticheln"}:
        for variant in LEGAL_VARIANTS[ruleset.id]:
            game = ruleset.make_game(players, variant)
            state = game.new_initial_state(PERFT_SEED)
            prefix = []
            while state.phase is Phase.SELECT:
                action = state.legal_actions()[0]
                prefix.append(action)
                state = state.apply_action(action)
            roots.append((game, prefix))
    return roots


def _perft_levels(state: State[Any]) -> tuple[list[int], set[str]]:
    """Counts per depth (breadth first), and which kinds of decision were met."""
    counts: list[int] = []
    met: set[str] = set()
    level = [state]
    for depth in range(1, PERFT_MAX_DEPTH + 1):
        legal = [s.legal_actions() for s in level]
        for moves in legal:
            met.update(actions.kind_of(a).name for a in moves)
        counts.append(sum(len(m) for m in legal))
        if depth == PERFT_MAX_DEPTH or counts[-1] > PERFT_BUDGET:
            break
        level = [
            s.apply_legal_action(a) for s, moves in zip(level, legal, strict=True) for a in moves
        ]
    return counts, met


def _perft_cases(ruleset: Ruleset[Any]) -> list[Json]:
    cases = _Cases(_prefix(ruleset.id), TAGS["perft"])
    for players in ruleset.player_counts:
        for game, prefix in _perft_roots(ruleset, players):
            state = game.new_initial_state(PERFT_SEED)
            steps = []
            for action in prefix:
                steps.append(
                    {"seat": state.current_player(), "action": state.action_to_string(action)}
                )
                state = state.apply_action(action)
            counts, met = _perft_levels(state)
            clauses = _roles(ruleset, "turn", "play")
            clauses += _roles(ruleset, "select") if "SELECT" in met else []
            clauses += _roles(ruleset, "decide") if "SWAP" in met else []
            clauses += _roles(ruleset, "sets") if "DESIGNATE" in met else []
            if players == 2:
                clauses += _roles(ruleset, "ghost-play", "virtual-turn")
            clauses += ["STI93-D-FOLLOW"] if ruleset.id == "sticheln-1993" and prefix else []
            cases.add(
                game,
                {"seed": PERFT_SEED, "prefix": steps, "depth": len(counts)},
                {"counts": counts},
                clauses,
            )
    return cases.items


def _run_perft(game: Game, inputs: Mapping[str, Any]) -> Json:
    """Counts per depth by a depth-first walk (the generator counts breadth first)."""
    state = game.new_initial_state(inputs["seed"])
    for step in inputs["prefix"]:
        if step["seat"] != state.current_player():
            raise VectorError(f"perft prefix: seat {step['seat']} is not to act")
        state = state.apply_action(string_to_action(step["action"], game.ruleset.palette))
    depth = inputs["depth"]
    counts = [0] * depth

    def walk(node: State[Any], d: int) -> None:
        legal = node.legal_actions()
        counts[d] += len(legal)
        if d + 1 < depth:
            for action in legal:
                walk(node.apply_legal_action(action), d + 1)

    walk(state, 0)
    return {"counts": counts}


# --- files -------------------------------------------------------------------------------------

DESCRIPTIONS = {
    "rng": "The portable random number generator: SplitMix64 outputs, bounded draws, "
    "Fisher-Yates shuffles of [0 .. n-1], round seeds and the agents' generator.",
    "deals": "Round 0 of seeded games: the round seed, the deck in canonical order, its "
    "shuffle and the deal cut from it.",
    "tricks": "Complete tricks (first card = lead; seats are offsets from the leader): the "
    "winner, the cards each seat takes, the cards set aside, facts and deciding clauses.",
    "legal": "Positions of seeded games: a hand and an unfinished trick, the playable cards "
    "and the clause that forbids the others.",
    "scores": "Finished rounds of seeded games: the cards that count for each seat and the "
    "round's facts, and the scores.",
    "games": "Whole games of seeded random agents as tricklaw records, with the number of "
    "legal actions at each decision.",
    "perft": "The number of sequences of legal decisions from a seeded deal, to each depth.",
}

GENERATORS: Mapping[str, Callable[[Ruleset[Any]], list[Json]]] = {
    "deals": _deal_cases,
    "tricks": _trick_cases,
    "legal": _legal_cases,
    "scores": _score_cases,
    "games": _game_cases,
    "perft": _perft_cases,
}


def file_name(kind: str, ruleset_id: str | None) -> str:
    """The name of the vector file of ``kind`` (and ``ruleset_id``) in the version folder."""
    return "rng.json" if kind == "rng" else f"{ruleset_id}.{kind}.json"


def _document(kind: str, ruleset: Ruleset[Any] | None, cases: list[Json]) -> Json:
    palette = (
        {"letters": list(ruleset.palette.letters), "names": list(ruleset.palette.names)}
        if ruleset
        else None
    )
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": kind,
        "ruleset": ruleset.id if ruleset else None,
        "palette": palette,
        "description": DESCRIPTIONS[kind],
        "cases": cases,
    }


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True)


def dumps(document: Json) -> str:
    """A vector file as text: the header fields one per line, then one case per line (so
    that a changed case is a changed line)."""
    lines = ["{"]
    for key, value in document.items():
        if key != "cases":
            lines.append(f" {json.dumps(key)}: {_compact(value)},")
    cases = document.get("cases", [])
    lines.append(' "cases": [')
    lines += [f"  {_compact(case)}," for case in cases[:-1]]
    lines += [f"  {_compact(case)}" for case in cases[-1:]]
    lines += [" ]", "}"]
    return "\n".join(lines) + "\n"


def _check_clause_ids(documents: Mapping[str, Json]) -> None:
    known: dict[str, frozenset[str]] = {r: load_registry(r).ids for r in RULESETS}
    for name, doc in documents.items():
        for case in doc["cases"]:
            ids = known.get(case["ruleset"], frozenset())
            unknown = [c for c in case["clauses"] if c not in ids]
            if unknown:
                raise VectorError(f"{name} {case['id']}: unknown clause ids {', '.join(unknown)}")


@cache
def _generate() -> tuple[tuple[str, str], ...]:
    documents: dict[str, Json] = {"rng.json": _document("rng", None, _rng_cases())}
    for ruleset in RULESETS.values():
        for kind, generate_kind in GENERATORS.items():
            documents[file_name(kind, ruleset.id)] = _document(
                kind, ruleset, generate_kind(ruleset)
            )
    _check_clause_ids(documents)
    index = {
        "format": INDEX_FORMAT,
        "version": VERSION,
        "files": [
            {
                "file": name,
                "kind": doc["kind"],
                "ruleset": doc["ruleset"],
                "cases": len(doc["cases"]),
            }
            for name, doc in documents.items()
        ],
    }
    texts = [(f"{FOLDER}/{name}", dumps(doc)) for name, doc in documents.items()]
    return (
        (f"{FOLDER}/index.json", json.dumps(index, indent=1, ensure_ascii=True) + "\n"),
        *texts,
    )


def generate() -> dict[str, str]:
    """Every vector file, freshly generated: path under the vectors folder (``v1/...``) ->
    its text. Deterministic: the same text on every machine and run."""
    return dict(_generate())


def write(out: Path) -> dict[str, str]:
    """Generate the vectors into ``out`` (``out/v1/...``), removing stale ``.json`` files
    of the version folder; returns what was written."""
    files = generate()
    folder = out / FOLDER
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for stale in sorted(folder.glob("*.json")):
            if f"{FOLDER}/{stale.name}" not in files:
                stale.unlink()
        for path, text in files.items():
            (out / path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise VectorError(f"cannot write the vectors to {folder}: {exc.strerror}") from None
    return files


def check(out: Path) -> str | None:
    """The first difference between ``out/v1`` and a fresh generation (a sentence naming
    the file), or None when they agree."""
    files = generate()
    folder = out / FOLDER
    present = {f"{FOLDER}/{p.name}" for p in folder.glob("*.json")} if folder.is_dir() else set()
    for path in sorted(files.keys() | present):
        where = out / path
        if path not in files:
            return f"{where} is not generated by this version of tricklaw"
        if path not in present:
            return f"{where} is missing"
        if where.read_text(encoding="utf-8") != files[path]:
            return f"{where} differs from a fresh generation"
    return None


# --- reading and running -----------------------------------------------------------------------


def load(out: Path | None = None) -> dict[str, Json]:
    """The vector files of ``out/v1`` (default: the copy installed with the package), by
    file name, parsed."""
    folder: Any = (
        out / FOLDER
        if out is not None
        else resources.files("tricklaw.spec").joinpath("vectors").joinpath(FOLDER)
    )
    if not folder.is_dir():
        raise VectorError(f"no vectors folder {folder}")
    docs: dict[str, Json] = {}
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".json"):
            try:
                docs[item.name] = json.loads(item.read_text(encoding="utf-8"))
            except json.JSONDecodeError as exc:
                raise VectorError(f"{item.name} is not valid JSON: {exc}") from None
    return docs


RUNNERS: Mapping[str, Callable[[Game, Mapping[str, Any]], Json]] = {
    "deals": _run_deal,
    "tricks": _run_trick,
    "legal": _run_legal,
    "scores": _run_score,
    "games": _run_game,
    "perft": _run_perft,
}


def run_case(kind: str, case: Mapping[str, Any]) -> Json:
    """The reference runner: the outputs of one case computed from its inputs alone (the
    ruleset, players, options and ``input``), to compare with ``case["expected"]``."""
    if kind == "rng":
        return _run_rng(case["input"])
    if kind not in RUNNERS:
        raise VectorError(f"unknown vector kind {kind!r}")
    game = get_ruleset(case["ruleset"]).make_game(case["players"], case["options"])
    result = RUNNERS[kind](game, case["input"])
    if kind == "games":
        replay(result["record"])  # the record also replays, every result checked
    return result


def schema() -> Json:
    """The JSON Schema of the vector files (``spec/vectors.schema.json``)."""
    text = resources.files("tricklaw.spec").joinpath("vectors.schema.json").read_text("utf-8")
    loaded: Json = json.loads(text)
    return loaded


def validate(document: Any, name: str = "vector file") -> None:
    """Raise VectorError naming the first field of ``document`` that breaks the schema
    (a game case's record is checked against ``spec/record.schema.json``)."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match
    from referencing import Registry, Resource

    record = record_schema()
    registry: Registry[Any] = Registry().with_resource(
        record["$id"], Resource.from_contents(record)
    )
    validator = Draft202012Validator(schema(), registry=registry)
    error = best_match(validator.iter_errors(document))
    if error is not None:
        where = "/".join(map(str, error.absolute_path)) or "(top level)"
        raise VectorError(f"{name}: field {where}: {error.message[:200]}")


# --- the command -------------------------------------------------------------------------------


def _default_out() -> Path | None:
    here = Path("spec") / "vectors"
    return here if Path("spec").is_dir() else None


def cmd_vectors(args: argparse.Namespace) -> int:
    """Generate the conformance vectors, or (``--check``) compare them with the files."""
    out = Path(args.out) if args.out else _default_out()
    if args.check:
        if out is None:
            installed = resources.files("tricklaw.spec").joinpath("vectors")
            out = Path(str(installed))
        problem = check(out)
        if problem:
            sys.stderr.write(f"tricklaw: vectors: {problem} (run 'tricklaw vectors')\n")
            return 1
        sys.stdout.write(f"vectors agree: {len(generate())} files in {out / FOLDER}\n")
        return 0
    if out is None:
        raise VectorError("no spec/ folder here: run from the repository root or give --out DIR")
    files = write(out)
    size = sum(len(t.encode("utf-8")) for t in files.values())
    sys.stdout.write(f"wrote {len(files)} files ({size} bytes) to {out / FOLDER}\n")
    return 0


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``vectors`` subcommand (``tricklaw vectors [--out DIR] [--check]``)."""
    p = subparsers.add_parser(
        "vectors", help="generate the conformance vectors (spec/vectors/v1), or check them"
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        help="the vectors folder; files go to DIR/v1 (default: spec/vectors under the "
        "current folder, the repository root)",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="regenerate in memory and exit 1 naming the first file that differs",
    )
    p.set_defaults(func=cmd_vectors)
