"""The cases of a dispute-impact study and the paired games of one chunk of seeds.

A :class:`Case` is one reading of one dispute (a ``[[dispute]]`` of ``spec/<id>.toml``
whose option has that reading as a value) at one player count, with one kind of agent
(:data:`AGENTS`). For each seed, :func:`play_chunk` plays the game twice, under the
dispute's default and under the reading, from the same deal seed and the same agent rng
(:func:`tricklaw.model.rng.agent_rng`), and says whether the reading changed

* a **trick**: some completed trick (its leader, winner or the cards each seat took)
  differs, or one game has a trick the other has not;
* a **round's scores**: some round's scores differ, or one game has a round more;
* the **winner**: the ruleset's winners of the final totals differ.

A reading that names no one value (The Last's ``rounds`` reading ``N``, LAST-D-ROUNDS)
is played as the value its option gives it (``OptionSpec.stand_ins``: three rounds). Where
the option is the number of rounds itself (``OptionSpec.sets_length``), the two games of a
pair differ in length by design: their tricks and round scores are compared over the
rounds both play (a round more is no change), the winner on each game's own totals.

A reading that changes what may be played changes the agents' choices and so, almost
always, the rest of the game. Games are cut at :data:`MAX_ROUNDS` rounds (a game to a
target total may never end under random play); the winner is then judged on the totals
so far. An option that acts only with others (``OptionSpec.acts_with``) is studied with
those set, in both games of a pair.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from tricklaw.model.agents import random_step
from tricklaw.model.options import OptionSpec, OptionValue
from tricklaw.model.rng import SplitMix64, agent_rng
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Game, State
from tricklaw.model.strategies import heuristic_step
from tricklaw.spec import load_registry
from tricklaw.spec.errors import OptionError, TricklawError

MAX_ROUNDS = 12
"""The most rounds a game of the study is played for."""
Step = Callable[[State[Any], SplitMix64], State[Any]]
AGENTS: dict[str, Step] = {"random": random_step, "heuristic": heuristic_step}
"""The agents a study may use, by name (every seat plays the same kind). A caller may
offer more to :func:`tricklaw.impact.run.study` (the command adds OpenSpiel's ISMCTS,
:mod:`tricklaw.search_agents`): module-level functions, so that they reach worker
processes by name."""
MEASURES = ("trick", "score", "winner")
"""What a pair of games is compared on (see the module docstring)."""


@dataclass(frozen=True)
class Case:
    """One reading of one dispute, at one player count, with one kind of agent."""

    ruleset: str
    dispute: str
    option: str
    default: str
    reading: str
    players: int
    agent: str


def option_value(spec: OptionSpec, value: str) -> OptionValue | None:
    """A reading's value as a value of option ``spec`` (``None`` if none selects it); a
    reading that names no one value, as the value that stands for it (``spec.stand_ins``)."""
    stand_in = dict(spec.stand_ins).get(value)
    if stand_in is not None:
        return stand_in
    if spec.is_integer:
        try:
            return int(value)
        except ValueError:
            return None
    return value if value in spec.choices else None


def case_option(case: Case) -> OptionSpec:
    """The option whose readings ``case`` plays."""
    return next(s for s in get_ruleset(case.ruleset).option_specs if s.name == case.option)


def reading_game(case: Case, value: str) -> Game:
    """The game of ``case`` under the reading ``value`` (OptionError if the options
    cannot be played at this player count)."""
    ruleset = get_ruleset(case.ruleset)
    spec = case_option(case)
    chosen = option_value(spec, value)
    if chosen is None:
        raise OptionError(f"option {spec.name} has no reading {value!r}")
    return ruleset.make_game(case.players, {**dict(spec.acts_with), spec.name: chosen})


def cases(
    ruleset_ids: Sequence[str],
    players: int | None = None,
    dispute: str | None = None,
    agents: Sequence[str] = ("random",),
) -> list[Case]:
    """Every case of the rulesets' disputes with two or more readings an option selects,
    at every player count (or ``players``), for each agent; only ``dispute`` if named."""
    out: list[Case] = []
    for rid in ruleset_ids:
        ruleset = get_ruleset(rid)
        specs = {s.name: s for s in ruleset.option_specs}
        for d in load_registry(rid).disputes:
            if dispute is not None and d.id != dispute:
                continue
            spec = specs.get(d.option) if d.option else None
            if spec is None:
                continue
            values = [r.value for r in d.readings if option_value(spec, r.value) is not None]
            if d.default not in values or len(values) < 2:
                continue
            counts = [players] if players is not None else list(ruleset.player_counts)
            for n in counts:
                for agent in agents:
                    for value in values:
                        if value == d.default:
                            continue
                        case = Case(rid, d.id, d.option, d.default, value, n, agent)
                        try:
                            reading_game(case, d.default)
                            reading_game(case, value)
                        except TricklawError:
                            continue
                        out.append(case)
    return out


def play(game: Game, seed: int, step: Step) -> State[Any]:
    """A game of ``step`` agents from ``seed``, cut at :data:`MAX_ROUNDS` rounds."""
    state = game.new_initial_state(seed)
    rng = agent_rng(seed)
    while not state.is_terminal() and len(state.history) < MAX_ROUNDS:
        state = step(state, rng)
    return state


def tricks_of(state: State[Any]) -> Iterator[Any]:
    """Every completed trick of a game: (round, leader, winner, cards taken by offset)."""
    for log in state.history:
        for leader, result in log.tricks:
            yield (log.index, leader, result.winner, result.taken)
    for leader, result in state.tricks:
        yield (state.round_index, leader, result.winner, result.taken)


def round_tricks(state: State[Any], rounds: int) -> list[Any]:
    """The tricks of a game's first ``rounds`` completed rounds, as :func:`tricks_of`."""
    return [
        (log.index, leader, result.winner, result.taken)
        for log in state.history[:rounds]
        for leader, result in log.tricks
    ]


def compare(a: State[Any], b: State[Any], common: bool = False) -> tuple[bool, bool, bool]:
    """Whether ``b`` differs from ``a`` in a trick, a round's scores, the winner; with
    ``common``, tricks and scores only over the rounds both games play."""
    tricks_a, tricks_b = list(tricks_of(a)), list(tricks_of(b))
    scores_a, scores_b = [log.scores for log in a.history], [log.scores for log in b.history]
    if common:
        rounds = min(len(a.history), len(b.history))
        tricks_a, tricks_b = round_tricks(a, rounds), round_tricks(b, rounds)
        scores_a, scores_b = scores_a[:rounds], scores_b[:rounds]
    trick = tricks_a != tricks_b
    score = scores_a != scores_b
    ga, gb = a.game, b.game
    winner = ga.ruleset.winners(ga, a.returns()) != gb.ruleset.winners(gb, b.returns())
    return (trick, score, winner)


ENGINES = ("batch", "reference")
"""What plays a study's games: the batch engine where it can (random agents on a table
with a kernel: :mod:`tricklaw.impact.lockstep`), else the reference; or the reference
always. Both give the same pairs (tests/test_impact.py)."""


def play_chunk(
    case: Case, first: int, count: int, step: Step | None = None, engine: str = "batch"
) -> list[tuple[bool, bool, bool]]:
    """The paired games of ``case`` for seeds ``first .. first + count - 1``, in order,
    each pair compared (:func:`compare`, over the rounds both play where the option sets
    the number of rounds); ``step`` is the agent (default: the case's agent of
    :data:`AGENTS`), ``engine`` one of :data:`ENGINES`."""
    step = step or AGENTS[case.agent]
    base, other = reading_game(case, case.default), reading_game(case, case.reading)
    common = case_option(case).sets_length
    if engine == "batch" and step is random_step:
        from tricklaw.impact.lockstep import pairs

        batch = pairs(base, other, first, count, MAX_ROUNDS, common=common)
        if batch is not None:
            return batch
    return [
        compare(play(base, seed, step), play(other, seed, step), common)
        for seed in range(first, first + count)
    ]
