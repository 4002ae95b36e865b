"""The checks of ``tricklaw verify`` that are not Z3 obligations: the clause registry
(``registry``, ``model-cites-spec``, ``options-are-disputes``), the worked examples run on
the model (``example ID``), the shuffle reference vectors (``shuffle-vectors``), the
published conformance vectors run again (``vectors KIND``) and the self-check of sampled
random games (``self-check``)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any

from tricklaw.model.agents import random_states
from tricklaw.model.invariants import violations
from tricklaw.model.record import to_record
from tricklaw.model.replay.records import replay
from tricklaw.model.rng import SplitMix64, round_seed, shuffled
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Game, RoundLog, State
from tricklaw.proofs.combinations import option_variants, pairwise_variants
from tricklaw.proofs.examples import check_examples
from tricklaw.proofs.results import Result
from tricklaw.spec import load_registry
from tricklaw.spec.errors import TricklawError

SPLITMIX64_SEED0 = (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC)
"""The first outputs of SplitMix64 from state 0, as published with the reference C code."""

SELF_CHECK_SEEDS = range(1, 9)
"""Seeds of the self-check's games under the readings verify runs with."""
SELF_CHECK_VARIANT_SEEDS = range(1, 3)
"""Seeds of the self-check under each other value of each option
(:func:`~tricklaw.proofs.combinations.option_variants`), after
:data:`SELF_CHECK_SEEDS` under the readings verify runs with: what a table tells of a
round (its tricks' contexts, its piles) and where a game ends can hang on an option."""
SELF_CHECK_VARIANT_ROUNDS = 16
"""Where a variant's game is cut: a reading may let a game go on for ever (the 1993
``end=target``, a recorded finding of the liveness proofs), so a variant's game that has
not ended by then has its rounds checked, not its end."""
SELF_CHECK_MAX_ROUNDS = 100
"""A self-check game that has not ended after this many rounds fails (every default
game ends within a handful; a game-end rule that never fires must fail, not hang)."""


def _timed(fn: Callable[[], tuple[bool, str]]) -> tuple[str, float, str]:
    start = time.perf_counter()
    try:
        ok, detail = fn()
    except TricklawError as exc:
        ok, detail = False, str(exc)
    return ("pass" if ok else "fail"), time.perf_counter() - start, detail


def registry_checks(ruleset: Ruleset[Any]) -> list[Result]:
    out = []
    status, secs, detail = _timed(lambda: (True, _describe_registry(ruleset.id)))
    out.append(Result("registry", ruleset.id, "all", "all", status, secs, (), detail))
    if status == "fail":
        return out

    def cites() -> tuple[bool, str]:
        ids = load_registry(ruleset.id).ids
        missing = [c for c in ruleset.implements if c not in ids]
        if missing:
            return False, f"the model cites unknown ids {', '.join(missing)}"
        return True, f"{len(ruleset.implements)} cited ids exist"

    status, secs, detail = _timed(cites)
    out.append(Result("model-cites-spec", ruleset.id, "all", "all", status, secs, (), detail))

    def options_match() -> tuple[bool, str]:
        registry = load_registry(ruleset.id)
        problems = []
        for spec in ruleset.option_specs:
            if spec.dispute is None:
                continue
            d = registry.dispute(spec.dispute)
            readings = tuple(r.value for r in d.readings)
            if d.option != spec.name:
                problems.append(f"{d.id} names option {d.option!r}, the model {spec.name!r}")
            if not spec.is_integer and set(readings) != set(spec.choices):
                problems.append(f"{d.id} readings {readings} != model choices {spec.choices}")
            for value, stand_in in spec.stand_ins:
                if value not in readings or spec.is_integer != isinstance(stand_in, int):
                    problems.append(f"{d.id}: stand-in {value}={stand_in!r} is not a reading")
            if d.default != str(spec.default):
                problems.append(f"{d.id} default {d.default!r} != model {spec.default!r}")
        model_options = {s.name for s in ruleset.option_specs}
        for d in registry.disputes:
            if d.option and d.option not in model_options:
                problems.append(f"{d.id}: the model has no option {d.option!r}")
        if problems:
            return False, "; ".join(problems)
        return True, f"{sum(1 for d in registry.disputes if d.option)} disputes with switches"

    status, secs, detail = _timed(options_match)
    out.append(Result("options-are-disputes", ruleset.id, "all", "all", status, secs, (), detail))
    return out


def _describe_registry(ruleset_id: str) -> str:
    registry = load_registry(ruleset_id)
    return f"{len(registry.clauses)} clauses, {len(registry.disputes)} disputes"


def example_results(ruleset: Ruleset[Any]) -> list[Result]:
    start = time.perf_counter()
    checks = check_examples(ruleset.id)
    per_example: dict[str, list[Any]] = {}
    for c in checks:
        per_example.setdefault(c.example, []).append(c)
    secs = (time.perf_counter() - start) / max(1, len(per_example))
    defaults = {s.name: s.default for s in ruleset.option_specs}
    out = []
    for name, cs in per_example.items():
        bad = [c for c in cs if not c.ok]
        at_default = next(c for c in cs if all(defaults[k] == v for k, v in c.readings))
        holds = sum(c.holds for c in cs)
        if bad:
            b = bad[0]
            detail = (
                f"{'holds' if b.holds else 'fails'} under {dict(b.readings)}, "
                f"its data says it {'holds' if b.expected else 'fails'} there: "
                + "; ".join(b.failures)
            )
        else:
            detail = f"holds under {holds} of {len(cs)} reading combinations, as its data says"
            if not at_default.holds:
                detail += (
                    "; under the defaults it fails (a recorded dispute): " + at_default.failures[0]
                )
        out.append(
            Result(
                f"example {name}",
                ruleset.id,
                "",
                "every reading",
                "fail" if bad else "pass",
                secs,
                cs[0].clauses,
                detail,
            )
        )
    return out


def vector_results(ruleset: Ruleset[Any]) -> list[Result]:
    """``vectors KIND`` for each kind of conformance vector the package publishes for
    ``ruleset`` (:mod:`tricklaw.vectors`): every case run again by the reference runner
    from its inputs (:func:`~tricklaw.vectors.runner.run_case`) must give the published
    outputs, deciding clauses included. A check, not a proof: it holds the model to the
    contract engine authors test against, so a change of behaviour the vectors show (a
    trick's winner, a cited clause, a legal card, a score) fails verify, naming the first
    case that differs. A ruleset without published vectors (a plug-in) has no rows."""
    from tricklaw.vectors.files import KINDS, field_difference, file_name
    from tricklaw.vectors.runner import load, run_case

    documents = load()
    out = []
    for kind in KINDS:
        document = documents.get(file_name(kind, ruleset.id))
        if kind == "rng" or document is None:
            continue
        start = time.perf_counter()
        cases = document["cases"]
        wrong = ""
        for case in cases:
            try:
                got = run_case(kind, case)
            except Exception as exc:  # the model falling over on a published case
                wrong = f"case {case['id']}: the model raised {type(exc).__name__}: {exc}"
                break
            if got != case["expected"]:
                wrong = f"case {case['id']}: {field_difference(case['expected'], got)}"
                break
        out.append(
            Result(
                f"vectors {kind}",
                ruleset.id,
                "",
                "every reading",
                "fail" if wrong else "pass",
                time.perf_counter() - start,
                (),
                wrong[:400] or f"all {len(cases)} published cases give their outputs again",
            )
        )
    return out


def shuffle_check() -> Result:
    def run() -> tuple[bool, str]:
        rng = SplitMix64(0)
        got = tuple(rng.next_u64() for _ in SPLITMIX64_SEED0)
        if got != SPLITMIX64_SEED0:
            return False, "SplitMix64(0) does not give the published reference outputs"
        vectors = json.loads(
            resources.files("tricklaw.spec").joinpath("shuffle-vectors.json").read_text("utf-8")
        )
        for case in vectors["shuffles"]:
            out = shuffled(list(range(case["n"])), SplitMix64(case["seed"]))
            if out != case["permutation"]:
                return False, f"shuffle of {case['n']} with seed {case['seed']} differs"
        for case in vectors["round_seeds"]:
            if round_seed(case["seed"], case["round"]) != int(case["round_seed"], 16):
                return False, f"round_seed({case['seed']}, {case['round']}) differs"
        for case in vectors["deals"]:
            game = get_ruleset(case["ruleset"]).make_game(case["players"], case["options"])
            hands = [
                game.ruleset.palette.format_all(h)
                for h in game.new_initial_state(case["seed"]).info.deal.hands
            ]
            if hands != case["hands"]:
                return False, f"deal of {case['ruleset']} seed {case['seed']} differs"
        return True, (
            f"{len(vectors['shuffles'])} shuffles, {len(vectors['round_seeds'])} round seeds, "
            f"{len(vectors['deals'])} deals"
        )

    status, secs, detail = _timed(run)
    return Result("shuffle-vectors", "all", "", "", status, secs, (), detail)


def walk_random_game(
    game: Game, seed: int, check: bool = True, limit: int | None = None
) -> State[Any]:
    """A random game from ``seed``; with ``check``, every invariant after every action.
    A game not over after :data:`SELF_CHECK_MAX_ROUNDS` rounds raises ``TricklawError``;
    with a ``limit``, the game is cut after that many rounds instead (it may not be over).
    So does a seat with no legal action, or a round that outgrows the model's
    ``max_decisions`` (:func:`~tricklaw.model.agents.endless`: the bound liveness-round
    proves, which turns a round without end into a failure instead of a hang)."""
    rounds = SELF_CHECK_MAX_ROUNDS if limit is None else limit
    problems: list[str] = []
    try:
        for step, state in enumerate(random_states(game, seed, max_rounds=rounds)):
            problems = violations(state) if check and step else []
            if problems:
                break
    except TricklawError as error:  # stuck, or endless (tricklaw.model.agents)
        raise TricklawError(f"seed {seed}: {error}") from None
    if problems:
        raise TricklawError(f"seed {seed}, after action {step}: {'; '.join(problems)}")
    if limit is None and not state.is_terminal():
        raise TricklawError(f"seed {seed}: the game has not ended after {rounds} rounds")
    return state


def told_trick_problem(ruleset: Ruleset[Any], game: Game, log: RoundLog) -> str:
    """The first trick of the finished round ``log`` that, judged again on its own
    (``judge_trick``, as ``tricklaw trick`` and the oracle judge it) in the context the log
    tells (:meth:`~tricklaw.model.ruleset.Ruleset.told_tricks`), is not what play gave
    (winner, cards taken and set aside, deciding clauses; play's facts among its own), or
    whose facts leave another context than the next trick is told; then whether the
    context after the last trick is the one the round is scored in (the told round's,
    where they share a name). The log must tell one context before each trick and one
    after the last, no more and no fewer. ``""`` when every trick agrees."""
    contexts = ruleset.told_tricks(game, log)
    if len(contexts) != len(log.tricks) + 1:
        return (
            f"the round's log tells {len(contexts)} trick contexts for {len(log.tricks)} "
            "tricks (one before each trick and one after the last)"
        )
    fmt = ruleset.palette.format_all
    for k, (_, played) in enumerate(log.tricks):
        judged = ruleset.judge_trick(game, played.cards, contexts[k])
        parts = ("winner", "taken", "aside", "clauses")
        differ = [x for x in parts if getattr(judged, x) != getattr(played, x)]
        if differ or not set(played.facts) <= set(judged.facts):
            what = ", ".join(differ) or "facts"
            return (
                f"trick {k} ({' '.join(fmt(played.cards))}) judged on its own in "
                f"{contexts[k]} differs from play in {what}"
            )
        left = ruleset.context_left(game, judged)
        if any(contexts[k + 1].get(key) != value for key, value in left.items()):
            return (
                f"trick {k} ({' '.join(fmt(played.cards))}) judged on its own names "
                f"{left} as left after it; the next trick is told {contexts[k + 1]}"
            )
    told = ruleset.told_round(game, log)
    scored = told[1] if told is not None else {}
    last = contexts[-1]
    if any(last[key] != value for key, value in scored.items() if key in last):
        return f"the last trick leaves {last}; the round is scored in {scored}"
    return ""


def game_end_problem(ruleset: Ruleset[Any], game: Game, state: State[Any]) -> str:
    """What is wrong with where the finished game ``state`` ended, if anything: it must
    end exactly when its end rule first says so. After each round the totals so far
    (summed from the rounds' own scores) and the number of rounds played are put to
    ``game_over``, which must answer no after every round but the last and yes after the
    last; the last totals must be the game's. ``""`` when all agree; else the first
    round where they do not (the game went on, or stopped early)."""
    totals = (0,) * game.seats
    history = state.history
    for played, log in enumerate(history, start=1):
        totals = tuple(t + s for t, s in zip(totals, log.scores, strict=True))
        over = ruleset.game_over(game, played, totals)
        if over != (played == len(history)):
            went = "stopped after" if played == len(history) else "went on after"
            return (
                f"the game {went} round {played} (totals {list(totals)}), where the end rule "
                f"says the game is {'over' if over else 'not over'}"
            )
    final = list(state.info.totals)
    if list(totals) != final:
        return f"the rounds' scores sum to {list(totals)}; the game's totals are {final}"
    return ""


def self_check(
    ruleset: Ruleset[Any], players: int, options: Mapping[str, str] | None = None
) -> Result:
    """The model checked against itself on seeded random games: every invariant after
    every action, the same seed giving the same game, the record replaying to itself,
    the game ending where its end rule says, each round's scores recounted from its log
    and (where a table tells a round from its piles) scored again, and every trick judged
    again on its own in the context the log tells. :data:`SELF_CHECK_SEEDS` games under
    ``options`` (verify's ``--option``, else the defaults), then
    :data:`SELF_CHECK_VARIANT_SEEDS` under each other value of every other option, and
    under games that give every pair of readings of two other options
    (:func:`~tricklaw.proofs.combinations.pairwise_variants`)."""
    fixed = dict(options or {})
    game = ruleset.make_game(players, fixed)
    variants = option_variants(ruleset, game, fixed)
    played = [v.options.as_dict() for _, v in variants]
    pairs = pairwise_variants(ruleset, game, fixed, played)
    variants += pairs

    def run() -> tuple[bool, str]:
        rounds = told_rounds = tricks = games = cut = 0
        for at, (label, played) in enumerate(variants):
            where = f"{label}: " if at else ""
            for seed in SELF_CHECK_VARIANT_SEEDS if at else SELF_CHECK_SEEDS:
                try:
                    problem, counts = _self_check_game(ruleset, played, seed, whole=not at)
                except TricklawError as exc:  # a game that never ends
                    problem, counts = str(exc), (0, 0, 0, 0)
                if problem:
                    return False, where + problem
                games += 1
                cut += not counts[0]
                rounds, told_rounds, tricks = (
                    a + b for a, b in zip((rounds, told_rounds, tricks), counts[1:], strict=True)
                )
        return True, (
            f"{games} games under {len(variants)} sets of options (with {len(pairs)} more, every "
            "pair of two options' readings), each ended where its end "
            f"rule says or cut after {SELF_CHECK_VARIANT_ROUNDS} rounds ({cut} cut), {rounds} "
            f"rounds ({told_rounds} told from their piles and scored again), {tricks} tricks "
            "judged again on their own"
        )

    status, secs, detail = _timed(run)
    reading = ", ".join(f"{k}={v}" for k, v in fixed.items()) or "default"
    return Result("self-check", ruleset.id, str(players), reading, status, secs, (), detail)


def _self_check_game(
    ruleset: Ruleset[Any], game: Game, seed: int, *, whole: bool
) -> tuple[str, tuple[int, int, int, int]]:
    """The first problem :func:`self_check` finds in the game of ``seed`` (``""``: none),
    and its counts: whether it ended (1) or was cut (0), rounds, rounds told from their
    piles, tricks. Not ``whole``: the game is cut after :data:`SELF_CHECK_VARIANT_ROUNDS`
    rounds, and one cut before its end has its rounds checked only."""
    limit = None if whole else SELF_CHECK_VARIANT_ROUNDS
    state = walk_random_game(game, seed, limit=limit)
    ended = state.is_terminal()
    problem = _whole_game_problem(ruleset, game, seed, state) if ended else ""
    if problem:
        return problem, (0, 0, 0, 0)
    problem, counts = _rounds_problem(ruleset, game, seed, state)
    return problem, (int(ended), *counts)


def _whole_game_problem(ruleset: Ruleset[Any], game: Game, seed: int, state: State[Any]) -> str:
    """What is wrong with the finished game ``state`` of ``seed`` as a whole: the same seed
    giving another game, its record not replaying to itself, its end (``""``: nothing)."""
    record = to_record(state)
    if to_record(walk_random_game(game, seed, check=False)) != record:
        return f"seed {seed}: the same seed gave a different game"
    again = replay(json.loads(json.dumps(record)))
    if to_record(again, seed) != record:
        return f"seed {seed}: the replayed record differs from the original"
    problem = game_end_problem(ruleset, game, state)
    return f"seed {seed}: {problem}" if problem else ""


def _rounds_problem(
    ruleset: Ruleset[Any], game: Game, seed: int, state: State[Any]
) -> tuple[str, tuple[int, int, int]]:
    """The first finished round of ``state`` whose scores differ from their recount, or
    from the round told from its piles, or with a trick that judged again on its own
    differs from play; with the counts: rounds, rounds told from their piles, tricks."""
    told_rounds = tricks = 0
    for log in state.history:
        if log.scores != ruleset.recount_scores(game, log):
            return f"seed {seed}, round {log.index}: scores differ from recount", (0, 0, 0)
        told = ruleset.told_round(game, log)
        if told is not None and ruleset.score_piles(game, *told) != log.scores:
            return (
                f"seed {seed}, round {log.index}: the round told from its piles "
                f"scores {list(ruleset.score_piles(game, *told))}, played {list(log.scores)}"
            ), (0, 0, 0)
        told_rounds += told is not None
        problem = told_trick_problem(ruleset, game, log)
        if problem:
            return f"seed {seed}, round {log.index}: {problem}", (0, 0, 0)
        tricks += len(log.tricks)
    return "", (len(state.history), told_rounds, tricks)
