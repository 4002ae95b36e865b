"""verify's row ``checker rejects``: the log checker refuses wrong logs (issue 44, item 3).

The checker is the oracle that other engines are judged by, so a false pass is its worst
defect. Its acceptance side is checked elsewhere (the model's own games check as
``agrees``: the self-check, the vectors). This is the rejection side. For each ruleset and
player count, under the readings verify runs with, one seeded game's log
(:func:`~tricklaw.check.state_to_log`; the first of :data:`SEEDS` whose log holds every
kind of action the ruleset has) is made wrong one field at a time:

* each kind of action's seat (another seat, one that was not asked) and the action itself
  (another action of the same kind from the same log: a card for a card, a pick for a
  pick, a start player named for another);
* a trick's leader, cards (two swapped), winner, taken cards, cards set aside and each of
  its facts (not its ``clauses``: they say why, in tricklaw's ids, and the checker reads
  them as a comment, docs/oracle.md);
* a round's scores, first leader and each of its facts;
* the game's totals, winners and whether it is complete.

Each field is changed at its first place in the log (early places are cheap to check;
the game's end fields are on its last line). Every wrong log must be a
divergence that names at least one clause, at or after the changed line (a divergence
before it would be a checker that is confused, not one that caught the change); the
unchanged log must agree. The generator knows no game: it reads the fields of the log's
own lines (actions, tricks, round ends, the game's end), so a new game is covered when
it is registered. A sample, so the row's status is ``pass``, not ``proved``.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Iterator, Mapping
from typing import Any

from tricklaw.check import check_lines, state_to_log
from tricklaw.model.actions import kind_of
from tricklaw.model.agents import play_random_game
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game, State
from tricklaw.proofs.results import Result

SEEDS = range(1, 9)
"""The games tried: the one whose log holds the most kinds of action (the first such
seed) is made wrong, so that each kind of decision is given by a seat not asked."""
MAX_ROUNDS = 100
"""A game not over after this many rounds is cut there (its log stays a true one)."""

Log = list[dict[str, Any]]


def _other_seat(seat: int, seats: int) -> int:
    return (seat + 1) % seats


def _changed(value: Any) -> Any:
    """A value of the same JSON type that differs from ``value``."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "?"
    if isinstance(value, list):
        return value[:-1] if value else [0]
    if isinstance(value, dict):
        return {**value, "?": 0}
    return 0


def _trick_changes(trick: Mapping[str, Any], seats: int) -> Iterator[tuple[str, Any, Any]]:
    """(field, key path, new value) for one trick line."""
    yield "leader", ("leader",), _other_seat(trick["leader"], seats)
    cards = trick["cards"]
    if len(set(cards)) > 1:
        swapped = [cards[1], cards[0], *cards[2:]] if cards[0] != cards[1] else cards[::-1]
        yield "cards", ("cards",), swapped
    winner = trick["winner"]
    yield "winner", ("winner",), 0 if winner is None else _other_seat(winner, seats)
    taken = trick["taken"]
    if taken:
        seat, pile = next(iter(taken.items()))
        moved = {k: v for k, v in taken.items() if k != seat}
        target = str(_other_seat(int(seat), seats))
        moved[target] = [*moved.get(target, []), *pile]
        yield "taken", ("taken",), moved
    else:
        yield "taken", ("taken",), {"0": cards[:1]}
    yield "aside", ("aside",), trick["aside"][:-1] if trick["aside"] else cards[:1]
    for name, value in sorted(trick.get("facts", {}).items()):
        yield f"fact {name}", ("facts", name), _changed(value)


def _round_changes(line: Mapping[str, Any], players: int) -> Iterator[tuple[str, Any, Any]]:
    scores = line["scores"]
    yield "scores", ("scores",), [scores[0] + 1, *scores[1:]]
    if "first_leader" in line:
        yield "first leader", ("first_leader",), _other_seat(line["first_leader"], players)
    for name, value in sorted(line.get("facts", {}).items()):
        yield f"round fact {name}", ("facts", name), _changed(value)


def _end_changes(line: Mapping[str, Any], players: int) -> Iterator[tuple[str, Any, Any]]:
    totals = line["totals"]
    yield "totals", ("totals",), [totals[0] + 1, *totals[1:]]
    if "winners" in line:
        winners = line["winners"]
        losers = [s for s in range(players) if s not in winners]
        yield "winners", ("winners",), winners[:-1] if len(winners) > 1 else losers[:1]
    if "complete" in line:
        yield "complete", ("complete",), not line["complete"]


def _set(obj: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value


def _word(action: str) -> str:
    """An action's kind as the log spells it: ``card`` for a card (``R5``), else its
    first word (``leader 1``: ``leader``)."""
    return (
        "card"
        if action[:1].isalpha() and action[1:].isdigit()
        else action.split(" ", maxsplit=1)[0]
    )


def wrong_logs(log: Log, players: int) -> Iterator[tuple[str, int, Log]]:
    """Every wrong log made from ``log``: (what was changed, the changed line's index,
    the log), each field changed at its first place in the log (the end line's at the
    end)."""
    seats = 0
    actions = [o["action"] for o in log if "action" in o]
    changes: dict[str, tuple[int, tuple[str, ...], Any]] = {}
    for index, obj in enumerate(log):
        found: list[tuple[str, tuple[str, ...], Any]] = []
        if "round" in obj:
            seats = len(obj["deal"]["hands"])
        if "action" in obj:
            word = _word(obj["action"])
            others = [a for a in actions if a != obj["action"] and _word(a) == word]
            found.append((f"seat of a {word}", ("seat",), _other_seat(obj["seat"], players)))
            if others:
                found.append((f"action ({word})", ("action",), others[0]))
        elif "trick" in obj:
            found += [
                (f"trick {f}", ("trick", *p), v) for f, p, v in _trick_changes(obj["trick"], seats)
            ]
        elif "scores" in obj:
            found += list(_round_changes(obj, players))
        elif "winners" in obj or "complete" in obj:
            found += list(_end_changes(obj, players))
        for field, path, value in found:
            changes.setdefault(field, (index, path, value))
    for field, (index, path, value) in changes.items():
        wrong = copy.deepcopy(log)
        _set(wrong[index], path, value)
        if wrong[index] != log[index]:
            yield field, index, wrong


def _richest_game(game: Game) -> tuple[int, State[Any]]:
    """The first of :data:`SEEDS` whose game holds an action of every kind the ruleset
    has, else the one with the most kinds: its seed and final state."""
    best: tuple[int, int, State[Any]] | None = None
    for seed in SEEDS:
        state = play_random_game(game, seed, MAX_ROUNDS)
        kinds = {kind_of(a) for log in state.history for _, a in log.actions}
        if best is None or len(kinds) > best[0]:
            best = (len(kinds), seed, state)
        if len(kinds) == len(game.ruleset.action_kinds):
            break
    assert best is not None
    return best[1], best[2]


def _texts(log: Log) -> list[str]:
    return [json.dumps(o, separators=(",", ":")) + "\n" for o in log]


def checker_rejects(ruleset: Ruleset[Any], players: int, options: Mapping[str, str]) -> Result:
    """The row: the true log agrees, and every wrong log (:func:`wrong_logs`) diverges,
    naming a clause, at or after its changed line."""
    start = time.perf_counter()
    game = ruleset.make_game(players, dict(options))
    seed, state = _richest_game(game)
    log = [json.loads(line) for line in state_to_log(state, seed)]
    problems: list[str] = []
    verdict = check_lines(_texts(log))
    if verdict.status != "agrees":
        problems.append(f"the model's own log does not agree: {verdict.message}")
    fields: list[str] = []
    for field, index, wrong in [] if problems else wrong_logs(log, players):
        fields.append(field)
        verdict = check_lines(_texts(wrong))
        line = index + 1
        if verdict.status != "diverges" or not verdict.clauses or (verdict.line or 0) < line:
            problems.append(
                f"a wrong {field} at line {line} gives {verdict.status} "
                f"(line {verdict.line}, clauses {list(verdict.clauses)}): {verdict.message}"
            )
    seconds = time.perf_counter() - start
    reading = ", ".join(f"{k}={v}" for k, v in options.items()) or "default"
    if problems:
        status = "fail"
        detail = f"{len(problems)} of {len(fields)} wrong logs not rejected: " + "; ".join(
            problems[:3]
        )
    else:
        status = "pass"
        detail = (
            f"{len(fields)} wrong logs made from one game ({len(log)} lines), each a "
            f"divergence naming a clause at or after its changed line: "
            + ", ".join(dict.fromkeys(fields))
        )
    return Result("checker rejects", ruleset.id, str(players), reading, status, seconds, (), detail)
