"""A model's observable behaviour on legal inputs, as a fingerprint to compare.

The mutation runner decides whether a mutant is *equivalent* (changes no rule's
behaviour on any legal input it tried) by comparing the fingerprint of the mutated
model with the unmutated one's, never by hand. A fingerprint maps a key naming one
input (a ruleset, a player count, a reading, and a seeded game, trick or hand) to a
digest of everything the model answers for it:

* **games**: seeded random games (:func:`tricklaw.model.agents.random_states`) to the
  end (at most :data:`MAX_ROUNDS` rounds, each of at most :data:`DECISIONS_PER_CARD`
  decisions per card of the deck): the legal actions and the ruleset's own table state
  (``State.extra``: Hund's powers held and the virtual player's display, The Last's
  points cards; a display turned up mid-trick was taken for equivalent) at every
  decision, and the
  game's JSON record (every action, trick result, round score, the totals and the
  winners), and each finished round's score recounted from its log alone
  (:meth:`Ruleset.recount_scores`: the second count that verify's self-check and the
  vectors hold the model to, so that a bug in a rule function only the recount calls,
  such as The Last's ``face_down``, is a behaviour, not an equivalent mutant), and
  scored again as a table tells it (:meth:`Ruleset.told_round` to
  :meth:`Ruleset.score_piles`, the page's scoring, which verify's self-check also holds
  to the played score), and the trick contexts its log tells and its tricks leave
  (:meth:`Ruleset.told_tricks`, :meth:`Ruleset.context_left`: Hund's powers, in which the
  self-check judges each trick again), and the game played again from its record's
  deals alone, with no seed (:func:`~tricklaw.model.replay.records.replay`: how the
  log checker and the oracle start a round from a deal they are given, a path no seeded
  game takes);
* **tricks**: seeded complete tricks of distinct deck cards, one per player (drawn
  from the whole deck and from narrow pools of one or two values, where ties are likely),
  for games with no automatic seats: :meth:`Ruleset.judge_trick`, in a seeded trick
  context drawn as the trick vectors draw them where the game needs one (Hund's powers
  and designation; :attr:`Ruleset.trick_context`);
* **hands**: seeded hands and unfinished tricks of distinct deck cards:
  :meth:`Ruleset.playable`;
* **endings**: seeded totals (small ones, where ties for the best are common, and large
  ones): the first number of rounds after which :meth:`Ruleset.game_over` ends the
  game (the only answers of it a game can show), and :meth:`Ruleset.winners`.

Readings: every combination of the options with choices when there are at most
:data:`MAX_COMBINATIONS`, else the defaults, each reading of one option at a time
(the others at their defaults, except the values an option acts only with,
``OptionSpec.acts_with``: Hund's set options are read with designation sets) and sets
that give every pair of two options' readings together
(:func:`~tricklaw.proofs.combinations.pairwise_readings`, as verify's self-check plays
them: a bug only two readings together show is no equivalent mutant); and all
those again with each numeric option at another value (:func:`numeric_variants`). At
every decision of a game, the actions :meth:`Ruleset.is_legal` accepts are recorded
beside the legal ones.

Run as ``python -m tricklaw.mutation.behaviour OUT.json [RULESET...]`` for the whole
fingerprint (the runner does, for the unmutated model), or with ``--against BASE.json``
first for the inputs on which a model differs from it (the runner does, with a mutant's
copy of the source first on ``PYTHONPATH``: :func:`differing`, which stops at the first
:data:`WITNESSES`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from tricklaw.model.agents import random_states
from tricklaw.model.invariants import dealt_cards, legality_candidates
from tricklaw.model.record import to_record
from tricklaw.model.replay.records import replay
from tricklaw.model.rng import SplitMix64
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import RULESETS
from tricklaw.model.state import Game, RoundLog
from tricklaw.proofs.combinations import pairwise_readings
from tricklaw.spec.errors import OptionError
from tricklaw.spec.outputs import write_atomically
from tricklaw.vectors.profiles import profile_of

GAMES = 3
"""Seeded random games per ruleset, player count and reading."""
TRICKS = 60
"""Seeded complete tricks per ruleset, player count and reading."""
HANDS = 60
"""Seeded (hand, unfinished trick) pairs per ruleset, player count and reading."""
ENDINGS = 40
"""Seeded (rounds played, totals) pairs for the game's end and its winners."""
MAX_ROUNDS = 12
"""A game is followed for at most this many rounds (some readings need never end)."""
DECISIONS_PER_CARD = 2
"""A round is followed for at most this many decisions per card of the deck (plus
:data:`DECISIONS_SPARE`): an unmutated round takes about one per card (one play each,
and a few choices). A mutant whose round never ends (a hand that never empties) is a
behaviour, told in seconds, not by a child run's time limit."""
DECISIONS_SPARE = 16
"""Decisions a round may take beyond :data:`DECISIONS_PER_CARD` per card (choices)."""
MAX_COMBINATIONS = 24
"""Every combination of readings up to this many; beyond, one option at a time."""
NUMERIC_STEP = 2
"""A numeric option is also tried at its default plus this (:func:`numeric_variants`)."""


def readings(ruleset: Ruleset[Any]) -> list[dict[str, str]]:
    """The reading combinations a fingerprint covers (see the module docstring)."""
    specs = [s for s in ruleset.option_specs if not s.is_integer and s.choices]
    total = 1
    for s in specs:
        total *= len(s.choices)
    if total <= MAX_COMBINATIONS:
        return [
            {s.name: str(v) for s, v in zip(specs, values, strict=True)}
            for values in itertools.product(*(s.choices for s in specs))
        ]
    out: list[dict[str, str]] = [{}]
    for s in specs:
        where = {k: str(v) for k, v in s.acts_with}  # a sub-option acts only there
        out += [{**where, s.name: str(v)} for v in s.choices if v != s.default]
    defaults = {s.name: s.default for s in ruleset.option_specs}
    played = [{**defaults, **row} for row in out]
    out += [
        {k: str(v) for k, v in row.items()}
        for row in pairwise_readings(ruleset, defaults, (), played)
    ]
    return out


def numeric_variants(ruleset: Ruleset[Any]) -> list[dict[str, str]]:
    """One more value per numeric option: its default plus :data:`NUMERIC_STEP` (within
    its bounds); the fingerprint takes each with every reading combination (a rule that
    only acts over several rounds, or at another target, shows only there)."""
    out = []
    for s in ruleset.option_specs:
        if s.is_integer:
            value = min(s.maximum, int(s.default) + NUMERIC_STEP)
            if value != s.default:
                out.append({s.name: str(value)})
    return out


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=repr)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def _answer(fn: Any, *args: Any) -> Any:
    """``fn(*args)``, or the name of the exception it raised (a behaviour too)."""
    try:
        return fn(*args)
    except Exception as exc:  # a mutant may raise anything
        return f"raised {type(exc).__name__}"


def _told_score(game: Game, log: RoundLog) -> tuple[int, ...] | None:
    """The round's score told from its piles (:meth:`Ruleset.told_round`,
    :meth:`Ruleset.score_piles`); None for a ruleset that cannot score from piles."""
    told = game.ruleset.told_round(game, log)
    return None if told is None else game.ruleset.score_piles(game, *told)


def _told_contexts(game: Game, log: RoundLog) -> list[Any]:
    """The trick contexts a finished round's log tells (:meth:`Ruleset.told_tricks`), and
    each trick judged again in its told context with the context its facts then name
    (:meth:`Ruleset.context_left`): what verify's self-check judges every trick in."""
    told = game.ruleset.told_tricks(game, log)
    again = []
    for (_, played), context in zip(log.tricks, told, strict=False):
        judged = _answer(game.ruleset.judge_trick, game, played.cards, context)
        left = _answer(game.ruleset.context_left, game, judged)
        again.append([repr(judged), left])
    return [told, again]


def _from_deals(state: Any) -> Any:
    """The record of the game ``state`` played again from its record's deals alone (no
    seed): every round started from a given deal."""
    record = json.loads(json.dumps(to_record(state)))
    record.pop("seed", None)
    return to_record(replay(record))


def _accepted(game: Game, state: Any, legal: tuple[int, ...]) -> list[int]:
    """The actions :meth:`Ruleset.is_legal` accepts (the check a log's or an engine's
    action meets) among the ones the model's invariants ask it about
    (:func:`~tricklaw.model.invariants.legality_candidates`: the legal ones and a play of
    every card of the round's deal)."""
    candidates = legality_candidates(legal, dealt_cards(state))
    return [a for a in candidates if _answer(game.ruleset.is_legal, state, a) is True]


def _game(game: Game, seed: int) -> Any:
    trace: list[Any] = []
    cap = DECISIONS_PER_CARD * len(game.ruleset.deck(game.players, game.options))
    cap += DECISIONS_SPARE
    began, rounds = 0, 0  # the decisions before this round, the rounds complete
    try:
        for state in random_states(game, seed, max_rounds=MAX_ROUNDS):
            if len(state.history) != rounds:
                began, rounds = len(trace), len(state.history)
            if len(trace) - began > cap:
                return [trace, f"round {rounds} has no end after {cap} decisions"]
            if not state.is_terminal():
                legal = game.ruleset.legal_actions(state)
                extra = repr(state.extra)  # the ruleset's table: Hund's powers and display
                trace.append((state.current, list(legal), _accepted(game, state, legal), extra))
        recounts = [_answer(game.ruleset.recount_scores, game, log) for log in state.history]
        told = [_answer(_told_score, game, log) for log in state.history]
        contexts = [_answer(_told_contexts, game, log) for log in state.history]
        dealt = _answer(_from_deals, state)
        return [trace, to_record(state, seed), recounts, told, contexts, dealt]
    except Exception as exc:
        return [trace, f"raised {type(exc).__name__} after {len(trace)} decisions"]


def _contexts(game: Game, seed: str) -> Callable[[], dict[str, str] | None] | None:
    """A maker of seeded trick contexts for ``game`` (None each for a trick its cards
    decide alone), drawn as the trick vectors draw them (the game's vector profile);
    None when the game needs a context and has no profile to draw one."""
    if not game.ruleset.trick_context:
        return lambda: None
    try:
        profile = profile_of(game.ruleset)
    except OptionError:
        return None
    rng = SplitMix64(int(hashlib.sha256(seed.encode()).hexdigest()[:15], 16))
    return lambda: profile.model_context(profile.sample_context(rng, game))


def _tricks(game: Game, rng: random.Random, where: str) -> Iterator[tuple[str, Any]]:
    contexts = _contexts(game, where)
    if contexts is None or game.seats != game.players:  # automatic seats play by rule
        return
    deck = list(game.ruleset.deck(game.players, game.options))
    values = sorted({c & 31 for c in deck})
    for i in range(TRICKS):
        pool = deck
        if i % 3 and len(values) > 1:  # one or two values: ties of value are likely
            few = set(rng.sample(values, i % 3))
            narrow = [c for c in deck if c & 31 in few]
            pool = narrow if len(narrow) >= game.players else deck
        cards = rng.sample(pool, game.players)
        context = contexts()
        result = _answer(game.ruleset.judge_trick, game, cards, context)
        yield f"trick {game.ruleset.palette.format_all(cards)} in {context}", repr(result)


def _hands(game: Game, rng: random.Random) -> Iterator[tuple[str, Any]]:
    deck = list(game.ruleset.deck(game.players, game.options))
    size = max(1, game.ruleset.hand_size(game))
    fmt = game.ruleset.palette.format_all
    for _ in range(HANDS):
        played = rng.randrange(game.players)
        cards = rng.sample(deck, min(len(deck), played + rng.randint(1, size)))
        trick, hand = tuple(cards[:played]), tuple(cards[played:])
        answer = _answer(game.ruleset.playable, game, hand, trick)
        yield f"hand {fmt(hand)} trick {fmt(trick)}", repr(answer)


def _first_end(game: Game, totals: tuple[int, ...]) -> Any:
    """The first number of rounds, 1 .. :data:`MAX_ROUNDS`, after which ``game_over``
    says the game with ``totals`` ends (None: not within them). The model asks
    ``game_over`` only once a round is complete, and stops at the first yes: an answer
    for no rounds, or for rounds after the end, is no behaviour a game can show."""
    for rounds in range(1, MAX_ROUNDS + 1):
        over = _answer(game.ruleset.game_over, game, rounds, totals)
        if over is not False:
            return rounds if over is True else f"{over} after {rounds} rounds"
    return None


def _endings(game: Game, rng: random.Random) -> Iterator[tuple[str, Any]]:
    """The game's end (:func:`_first_end`) and its winners on seeded totals: small ones,
    so that ties for the best total are common (the ``game-tie`` readings), and large
    ones (target totals)."""
    for i in range(ENDINGS):
        spread = 3 if i % 2 else 200
        totals = tuple(rng.randrange(-spread, spread) for _ in range(game.seats))
        over = _first_end(game, totals)
        won = _answer(game.ruleset.winners, game, totals)
        yield f"end with {totals}", repr((over, won))


def entries(ruleset: Ruleset[Any]) -> Iterator[tuple[str, str]]:
    """(input key, digest of the model's answers) for every player count and reading
    combination of ``ruleset`` (see the module docstring), in a fixed order."""
    for players in ruleset.player_counts:
        combined = [{**r, **n} for n in numeric_variants(ruleset) for r in readings(ruleset)]
        for reading in readings(ruleset) + combined:
            label = ",".join(f"{k}={v}" for k, v in reading.items()) or "defaults"
            where = f"{ruleset.id} {players}p [{label}]"
            try:
                game = ruleset.make_game(players, reading)
            except Exception as exc:
                yield f"{where} make_game", f"raised {type(exc).__name__}"
                continue
            for seed in range(1, GAMES + 1):
                yield f"{where} game seed {seed}", _digest(_game(game, seed))
            rng = random.Random(f"{where}")
            for key, value in _tricks(game, rng, where):
                yield f"{where} {key}", _digest(value)
            for key, value in _hands(game, rng):
                yield f"{where} {key}", _digest(value)
            for key, value in _endings(game, rng):
                yield f"{where} {key}", _digest(value)


def fingerprint(ruleset: Ruleset[Any]) -> dict[str, str]:
    """Input key -> digest of the model's answers (:func:`entries`): the whole
    fingerprint, as the unmutated model's is kept."""
    return dict(entries(ruleset))


WITNESSES = 3
"""A mutated model's fingerprint is followed until this many inputs differ."""


def differing(ruleset: Ruleset[Any], base: Mapping[str, str]) -> list[str]:
    """The input keys on which ``ruleset``'s model differs from the fingerprint ``base``,
    in order, up to :data:`WITNESSES` of them: the fingerprint is computed only until
    that many differ (a behaviour-changing mutant is told in seconds; only an equivalent
    one is fingerprinted whole), and a whole one also differs on each key of ``base`` it
    never came to (:func:`differences`)."""
    seen: dict[str, str] = {}
    found: list[str] = []
    for key, value in entries(ruleset):
        seen[key] = value
        if base.get(key) != value:
            found.append(key)
            if len(found) >= WITNESSES:
                return found
    return differences(base, seen)[:WITNESSES]


def differences(base: Mapping[str, str], other: Mapping[str, str]) -> list[str]:
    """The input keys on which two fingerprints differ (in ``base``'s order, then keys
    only ``other`` has)."""
    keys = list(base) + [k for k in other if k not in base]
    return [k for k in keys if base.get(k) != other.get(k)]


def main(argv: list[str]) -> int:
    """``OUT.json [RULESET...]``: write ``{ruleset id: fingerprint}`` (every ruleset
    when none is named, plug-ins included). ``--against BASE.json OUT.json [RULESET...]``:
    write ``{ruleset id: [the keys that differ from BASE's fingerprint]}``
    (:func:`differing`). Bad arguments (an unknown ruleset, ``OUT`` that is ``BASE`` or
    cannot be written) end in one line and status 2 before any model runs; a model that
    fails (a mutant's) ends in its traceback, whose last line the runner reports."""
    import argparse

    from tricklaw.plugins import load_plugins
    from tricklaw.spec.errors import TricklawError
    from tricklaw.spec.outputs import check_output_file

    load_plugins()
    p = argparse.ArgumentParser(prog="python -m tricklaw.mutation.behaviour")
    p.add_argument("--against", metavar="BASE.json", help="a fingerprint to compare with")
    p.add_argument("out", metavar="OUT.json", help="where to write (never BASE.json)")
    p.add_argument("rulesets", nargs="*", default=[], metavar="RULESET", help="default: all")
    args = p.parse_args(argv)
    for rid in args.rulesets:
        if rid not in RULESETS:
            p.error(f"RULESET {rid}: no such ruleset (known: {', '.join(RULESETS)})")
    try:
        check_output_file(args.out, "OUT.json", "the fingerprint", [args.against or ""])
    except TricklawError as exc:
        p.error(str(exc))
    base: dict[str, dict[str, str]] | None = None
    if args.against:
        try:
            with open(args.against, encoding="utf-8") as fh:
                base = json.load(fh)
        except (OSError, ValueError) as exc:
            p.error(f"--against {args.against}: {exc}")
    every = args.rulesets or list(RULESETS)
    result: dict[str, Any] = (
        {rid: fingerprint(RULESETS[rid]) for rid in every}
        if base is None
        else {rid: differing(RULESETS[rid], base.get(rid, {})) for rid in every}
    )
    write_atomically(args.out, json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
