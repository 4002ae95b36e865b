"""``tricklaw fuzz --engine "COMMAND"``: differential fuzzing of another implementation.

The fuzzer starts COMMAND, an engine that speaks the live oracle's stdio protocol
(:mod:`tricklaw.oracle`: JSON-RPC 2.0, one request per line), and plays games on it and
on the reference model side by side. After every action it compares the engine's answer
with the rules: the legal actions, each completed trick (leader, cards, winner, who takes
what, what is set aside), each round's scores, the totals, the seat to act, the end of the
game and the winners. Now and then it also tries an illegal action, which the engine must
refuse. The first disagreement stops the game; the fuzzer then **shrinks** it and writes
the smallest case it can find that still disagrees in the same way.

**The games.** Game ``i`` of a run seeded ``S`` draws everything from
``SplitMix64(round_seed(S, i))`` (:mod:`tricklaw.model.rng`), so a run is reproducible on
every machine. Each game picks a ruleset, a player count and a reading of every option
(those not fixed on the command line), with short games (``rounds`` 1-2, a small
``target``), and deals from a deck order of one of four styles: a fair shuffle, the deck
sorted by value, the deck in colour order, or sorted by value from the top, each lightly
stirred. Sorted decks give hands of equal values and of one colour: ties, zeros and
empty suits, the rare cases of every text. The players choose adversarially: a card that
ties a card already in the trick, the lowest card (zeros), the highest, or any.

The engine receives the deals explicitly in ``new_game`` (``deals``, one per round, up to
:data:`DEALT_ROUNDS`) together with the seed, so it needs the portable shuffle only for a
game that outlasts them (``end=target`` of Sticheln 1993).

**Shrinking.** A case is the game's set-up plus its *steps*: at each decision the index of
the chosen action among the legal ones (and, at some steps, an illegal action tried
first). The shrinker cuts the steps after the disagreement, drops the illegal probes that
do not matter, turns each choice into ``0`` (the first legal action) where the
disagreement stays, drops whole rounds from the front, and sets options back to their
defaults; it keeps a change only when the engine still disagrees in the same way (same
kind: legal actions, trick, scores, ...), and repeats until nothing changes.

**The report** (``--out DIR``, one ``fuzz-N.json`` per disagreement, ``format``
``tricklaw-fuzz-case``): the set-up, the deals, the actions in notation, the
disagreement (what the engine said, what the rules give, the clause ids), and the
reference record of the shrunk game up to the disagreement (``tricklaw check`` reads
it). ``tricklaw fuzz --engine "COMMAND" --replay FILE`` plays that case again.

Exit status: 0 no disagreement, 1 a disagreement (or an engine that breaks the protocol,
hangs or dies), 2 bad input.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import select
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NoReturn

from tricklaw.model import actions
from tricklaw.model.actions import ActionKind
from tricklaw.model.cards import Card, value_of
from tricklaw.model.options import parse_option_args
from tricklaw.model.record import deal_json, parse_deal, to_record
from tricklaw.model.rng import SplitMix64, round_seed, shuffled
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.model.state import Deal, Game, RoundLog, State
from tricklaw.spec.errors import TricklawError

DEALT_ROUNDS = 5
"""Deals given to the engine per game (Hund's five rounds)."""
PROBE_RATE = 16
"""One step in this many also tries an illegal action."""
ENGINE_TIMEOUT = 10.0
"""Seconds the engine may take to answer one request."""
CASE_FORMAT = "tricklaw-fuzz-case"

Step = tuple[int, int | None]
"""``(choice, probe)``: the legal action ``legal[choice % len(legal)]``, after trying the
illegal candidate ``probe`` (an index into :func:`illegal_candidates`) when it is not None."""


# --- the engine ---------------------------------------------------------------------------------


class EngineError(Exception):
    """The engine broke the protocol: no answer in time, not JSON, died, wrong shape."""


class Engine:
    """An external engine process speaking the oracle's stdio protocol."""

    def __init__(self, command: str, timeout: float = ENGINE_TIMEOUT) -> None:
        self.command = command
        self.timeout = timeout
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise TricklawError(f"fuzz: --engine {command!r}: {exc}") from None
        if not argv:
            raise TricklawError("fuzz: --engine is empty")
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as exc:
            raise TricklawError(
                f"fuzz: cannot start the engine {argv[0]!r}: {exc.strerror}"
            ) from None
        assert self.process.stdin is not None and self.process.stdout is not None
        self._in = self.process.stdin
        self._out = self.process.stdout.fileno()
        self._buffer = b""
        self._next_id = 0
        self.requests = 0

    def request(self, method: str, params: dict[str, Any]) -> tuple[bool, Any]:
        """``(True, result)`` or ``(False, error object)`` for one request."""
        self._next_id += 1
        self.requests += 1
        line = json.dumps(
            {"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params},
            separators=(",", ":"),
        )
        try:
            self._in.write(line.encode("utf-8") + b"\n")
            self._in.flush()
        except OSError:
            raise EngineError(f"the engine exited ({self._status()})") from None
        text = self._read_line()
        try:
            response = json.loads(text)
        except ValueError:
            raise EngineError(
                f"the engine answered {method} with non-JSON: {text[:80]!r}"
            ) from None
        if not isinstance(response, dict) or response.get("id") != self._next_id:
            raise EngineError(
                f"the engine's answer to {method} is not its JSON-RPC response: {text[:80]!r}"
            )
        if "error" in response:
            return False, response["error"]
        if "result" not in response:
            raise EngineError(f"the engine's answer to {method} has neither result nor error")
        return True, response["result"]

    def _read_line(self) -> str:
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._out], [], [], left)[0]:
                raise EngineError(f"the engine gave no answer within {self.timeout:g} s")
            chunk = os.read(self._out, 1 << 16)
            if not chunk:
                raise EngineError(f"the engine exited ({self._status()})")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace")

    def _status(self) -> str:
        try:
            code: int | None = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            code = None
        return "still running" if code is None else f"status {code}"

    def close(self) -> None:
        """Stop the engine."""
        with contextlib.suppress(OSError):
            self._in.close()
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# --- cases --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Case:
    """One fuzz game: its set-up, its deals and the steps taken."""

    ruleset: str
    players: int
    options: dict[str, Any]
    seed: int
    deals: tuple[Deal, ...]
    steps: tuple[Step, ...] = ()
    policy_seed: int = 0
    """Where new steps come from once ``steps`` run out (the adversarial players)."""

    def game(self) -> Game:
        """The game this case plays."""
        return get_ruleset(self.ruleset).make_game(self.players, self.options)


@dataclass(frozen=True, slots=True)
class Disagreement:
    """The first point where the engine and the rules part."""

    kind: str
    """``legal_actions``, ``illegal_accepted``, ``legal_refused``, ``trick``, ``scores``,
    ``totals``, ``turn``, ``end``, ``deal`` or ``protocol``."""
    step: int
    """The step (0-based) whose action or answer disagreed; -1 for ``new_game``."""
    message: str
    expected: Any
    got: Any
    clauses: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        """The disagreement as JSON."""
        return {
            "kind": self.kind,
            "step": self.step,
            "message": self.message,
            "expected": self.expected,
            "got": self.got,
            "clauses": list(self.clauses),
        }


@dataclass(slots=True)
class Outcome:
    """What playing a case gave: the steps actually taken, the model's last state, and
    the disagreement if any."""

    case: Case
    state: State[Any]
    disagreement: Disagreement | None
    actions: int = 0


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


def _option_value(spec: Any, rng: SplitMix64) -> Any:
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
) -> Case:
    """Game ``index`` of a run seeded ``seed`` (see the module doc)."""
    rng = SplitMix64(round_seed(seed, index))
    ruleset = get_ruleset(rulesets[rng.below(len(rulesets))])
    counts = ruleset.player_counts
    count = players if players is not None else counts[rng.below(len(counts))]
    options = {
        spec.name: fixed[spec.name] if spec.name in fixed else _option_value(spec, rng)
        for spec in ruleset.option_specs
    }
    game = ruleset.make_game(count, options)
    deals = make_deals(game, DEALT_ROUNDS, rng)
    return Case(
        ruleset.id, count, game.options.as_dict(), rng.next_u64(), deals, (), rng.next_u64()
    )


# --- choosing actions ---------------------------------------------------------------------------


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


# --- comparing ----------------------------------------------------------------------------------


class _MismatchError(Exception):
    def __init__(self, disagreement: Disagreement) -> None:
        super().__init__(disagreement.message)
        self.disagreement = disagreement


@dataclass(slots=True)
class _Game:
    """The engine and the model playing one case, compared after every answer."""

    engine: Engine
    case: Case
    state: State[Any]
    step: int = -1
    taken: list[Step] = field(default_factory=list)
    game_id: str = ""

    @property
    def ruleset(self) -> Ruleset[Any]:
        return self.state.game.ruleset

    def fail(
        self, kind: str, message: str, expected: Any, got: Any, clauses: Sequence[str]
    ) -> NoReturn:
        raise _MismatchError(Disagreement(kind, self.step, message, expected, got, tuple(clauses)))

    def clause(self, role: str) -> tuple[str, ...]:
        text = self.ruleset.clause.get(role)
        return (text,) if text else ()

    def shape(self, value: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
        if not isinstance(value, dict) or key not in value or not isinstance(value[key], kind):
            self.fail(
                "protocol", f"{where}: the engine's answer lacks a valid {key!r}", None, value, ()
            )
        return value[key]

    def cards(self, texts: Any, where: str) -> list[str]:
        """Card texts in canonical notation (the engine may write ``r5``)."""
        palette = self.ruleset.palette
        if not isinstance(texts, list):
            self.fail("protocol", f"{where}: expected a list of cards", None, texts, ())
        try:
            return palette.format_all(palette.parse_all(texts))
        except (TricklawError, AttributeError, TypeError):
            self.fail("protocol", f"{where}: not cards of {self.ruleset.id}", None, texts, ())

    def same_hands(self, got: Any, hands: Sequence[Sequence[Card]]) -> bool:
        """Whether ``got`` lists ``hands`` card for card, written as tricklaw writes them
        (any order, any letter case); anything else is left to the exact comparison."""
        notation = self.ruleset.palette.notation
        try:
            return len(got) == len(hands) and all(
                len(texts) == len(hand)
                and {t.upper() for t in texts} == {notation[c] for c in hand}
                for texts, hand in zip(got, hands, strict=True)
            )
        except (TypeError, AttributeError):
            return False

    def actions_of(self, texts: Any, where: str) -> set[str]:
        palette = self.ruleset.palette
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            self.fail("protocol", f"{where}: expected a list of actions", None, texts, ())
        try:
            return {
                actions.action_to_string(actions.string_to_action(t, palette), palette)
                for t in texts
            }
        except TricklawError:
            self.fail("protocol", f"{where}: not actions of {self.ruleset.id}", None, texts, ())

    def compare_view(self, view: Any, where: str) -> None:
        """The engine's state view against the model's state."""
        state = self.state
        self.shape(view, "legal_actions", list, where)
        if view.get("terminal") is not state.is_terminal():
            self.fail(
                "end",
                f"{where}: the engine says terminal = {view.get('terminal')}; the rules say "
                f"{state.is_terminal()}",
                state.is_terminal(),
                view.get("terminal"),
                self.clause("game-end"),
            )
        if view.get("totals") != list(state.returns()):
            self.fail(
                "totals",
                f"{where}: the engine's totals are {view.get('totals')}; the rules give "
                f"{list(state.returns())}",
                list(state.returns()),
                view.get("totals"),
                self.clause("score-total"),
            )
        hands = view.get("hands")
        if hands is not None and not self.same_hands(hands, state.hands):
            expected_hands = [sorted(self.ruleset.palette.format_all(h)) for h in state.hands]
            got_hands = [
                sorted(self.cards(h, f"{where}.hands"))
                for h in self.shape(view, "hands", list, where)
            ]
            if got_hands != expected_hands:
                self.fail(
                    "deal",
                    f"{where}: the engine's hands differ from the rules' hands",
                    expected_hands,
                    got_hands,
                    self.clause("deal"),
                )
        if state.is_terminal():
            return
        if view.get("current_player") != state.current_player():
            self.fail(
                "turn",
                f"{where}: the engine says seat {view.get('current_player')} acts; the rules "
                f"say seat {state.current_player()}",
                state.current_player(),
                view.get("current_player"),
                self.clause("collect") + self.clause("turn"),
            )
        legal = state.legal_actions()
        expected = {state.action_to_string(a) for a in legal}
        listed = view["legal_actions"]
        if len(listed) == len(expected) and set(listed) == expected:  # as tricklaw writes them
            return
        got = self.actions_of(listed, f"{where}.legal_actions")
        if got != expected:
            palette = self.ruleset.palette
            extra, missing = sorted(got - expected), sorted(expected - got)
            clauses = sorted(
                {
                    self.ruleset.forbidding_clause(state, actions.string_to_action(t, palette))
                    for t in extra + missing
                }
            )
            self.fail(
                "legal_actions",
                f"{where}: seat {state.current_player()}'s legal actions differ: the engine "
                f"also allows {extra or 'nothing more'}, and lacks {missing or 'nothing'}",
                sorted(expected),
                sorted(got),
                clauses,
            )

    def compare_apply(self, before: State[Any], result: Any, where: str) -> None:
        """The engine's ``apply`` answer against the model's step from ``before``."""
        from tricklaw.model.record import new_tricks, trick_json

        state = self.state
        palette = self.ruleset.palette
        tricks = self.shape(result, "tricks", list, where)
        expected_tricks = [
            (trick_json(leader, res, seating, palette), res.clauses)
            for _, leader, res, seating in new_tricks(
                state, (len(before.history), len(before.tricks))
            )
        ]
        if len(tricks) != len(expected_tricks):
            self.fail(
                "trick",
                f"{where}: the engine reports {len(tricks)} completed tricks; the rules "
                f"complete {len(expected_tricks)}",
                len(expected_tricks),
                len(tricks),
                self.clause("collect"),
            )
        for n, (got, (expected, clauses)) in enumerate(zip(tricks, expected_tricks, strict=True)):
            self.compare_trick(got, expected, clauses, f"{where}.tricks[{n}]")
        rounds = self.shape(result, "rounds", list, where)
        finished = state.history[len(before.history) :]
        got_scores = [r.get("scores") if isinstance(r, dict) else r for r in rounds]
        expected_scores = [list(log.scores) for log in finished]
        if got_scores != expected_scores:
            self.fail(
                "scores",
                f"{where}: the engine's round scores are {got_scores}; the rules give "
                f"{expected_scores}",
                expected_scores,
                got_scores,
                self.clause("score-total"),
            )
        self.compare_view(self.shape(result, "state", dict, where), f"{where}.state")
        if state.is_terminal():
            game = state.game
            winners = list(game.ruleset.winners(game, state.returns()))
            if result.get("winners") != winners:
                self.fail(
                    "end",
                    f"{where}: the engine's winners are {result.get('winners')}; the rules "
                    f"name {winners}",
                    winners,
                    result.get("winners"),
                    self.clause("game-end"),
                )

    def compare_trick(
        self, got: Any, expected: dict[str, Any], clauses: Sequence[str], where: str
    ) -> None:
        if not isinstance(got, dict):
            self.fail("protocol", f"{where}: expected a trick object", expected, got, ())
        taken = got.get("taken", {})
        normal = {
            "leader": got.get("leader"),
            "cards": self.cards(got.get("cards"), f"{where}.cards"),
            "winner": got.get("winner"),
            "taken": {
                str(k): sorted(self.cards(v, f"{where}.taken.{k}"))
                for k, v in (taken.items() if isinstance(taken, dict) else ())
            },
            "aside": sorted(self.cards(got.get("aside", []), f"{where}.aside")),
        }
        want = {
            "leader": expected["leader"],
            "cards": expected["cards"],
            "winner": expected["winner"],
            "taken": {k: sorted(v) for k, v in expected["taken"].items()},
            "aside": sorted(expected["aside"]),
        }
        for key, value in want.items():
            if normal[key] != value:
                self.fail(
                    "trick",
                    f"{where}: the engine says {key} = {json.dumps(normal[key])}; the rules "
                    f"give {json.dumps(value)}",
                    value,
                    normal[key],
                    clauses,
                )


def _trimmed(state: State[Any], case: Case) -> bool:
    """Whether the case has played all the rounds it deals (plus a seeded one at most)."""
    return state.round_index >= len(case.deals)


def play_case(engine: Engine, case: Case, limit: int | None = None) -> Outcome:
    """Play ``case`` on the engine and the model; new steps come from the case's policy.

    ``limit`` stops after that many steps (the shrinker replays prefixes)."""
    game = case.game()
    state = game.new_state_from_deals(case.deals, case.seed)
    run = _Game(engine, case, state)
    policy = SplitMix64(case.policy_seed)
    try:
        ok, result = engine.request(
            "new_game",
            {
                "ruleset": case.ruleset,
                "players": case.players,
                "options": case.options,
                "seed": case.seed,
                "deals": [deal_json(d, game.ruleset.palette) for d in case.deals],
            },
        )
        if not ok:
            run.fail(
                "protocol", f"the engine refused new_game: {_error_text(result)}", None, result, ()
            )
        run.game_id = run.shape(result, "game", str, "new_game")
        run.compare_view(run.shape(result, "state", dict, "new_game"), "new_game.state")
        while not run.state.is_terminal() and not _trimmed(run.state, case):
            if limit is not None and run.step + 1 >= limit:
                break
            run.step += 1
            _one_step(run, policy)
        found = None
    except _MismatchError as exc:
        found = exc.disagreement
    except EngineError as exc:
        found = Disagreement("protocol", run.step, str(exc), None, None, ())
    if run.game_id and (found is None or found.kind != "protocol"):
        try:
            engine.request("close", {"game": run.game_id})
        except EngineError as exc:
            found = found or Disagreement("protocol", run.step, str(exc), None, None, ())
    return Outcome(replace(case, steps=tuple(run.taken)), run.state, found, run.step + 1)


def _one_step(run: _Game, policy: SplitMix64) -> None:
    state = run.state
    legal = state.legal_actions()
    if run.step < len(run.case.steps):
        choice, probe = run.case.steps[run.step]
    else:
        probe = policy.below(1 << 20) if policy.below(PROBE_RATE) == 0 else None
        choice = choose(state, legal, policy)
    run.taken.append((choice, probe))
    where = f"step {run.step + 1}"
    if probe is not None:
        candidates = illegal_candidates(state, legal)
        if candidates:
            bad = candidates[probe % len(candidates)]
            text = state.action_to_string(bad)
            ok, answer = run.engine.request("apply", {"game": run.game_id, "action": text})
            if ok:
                clause = run.ruleset.forbidding_clause(state, bad)
                run.fail(
                    "illegal_accepted",
                    f"{where}: the engine let seat {state.current_player()} take {text}; "
                    f"{run.ruleset.why_illegal(state, bad)}",
                    "an error",
                    answer,
                    (clause,),
                )
    action = legal[choice % len(legal)]
    text = state.action_to_string(action)
    ok, answer = run.engine.request("apply", {"game": run.game_id, "action": text})
    if not ok:
        run.fail(
            "legal_refused",
            f"{where}: the engine refused seat {state.current_player()}'s legal {text}: "
            f"{_error_text(answer)}",
            "a result",
            answer,
            (run.ruleset.forbidding_clause(state, action),),
        )
    before = state
    run.state = state.apply_action(action)
    run.compare_apply(before, answer, where)


def _error_text(error: Any) -> str:
    if isinstance(error, dict):
        return str(error.get("message", error))[:200]
    return str(error)[:200]


# --- shrinking ----------------------------------------------------------------------------------


def _same_kind(engine: Engine, case: Case, kind: str) -> Outcome | None:
    """The outcome of ``case`` replayed exactly (no new steps), if it disagrees as ``kind``."""
    outcome = play_case(engine, case, limit=len(case.steps))
    found = outcome.disagreement
    return outcome if found is not None and found.kind == kind else None


def shrink(engine: Engine, outcome: Outcome, budget: int = 500) -> Outcome:
    """A smaller case that disagrees in the same way (see the module doc); at most
    ``budget`` replays."""
    assert outcome.disagreement is not None
    kind = outcome.disagreement.kind
    best = outcome
    tries = 0

    def attempt(candidate: Case) -> bool:
        nonlocal best, tries
        if tries >= budget:
            return False
        tries += 1
        try:
            found = _same_kind(engine, candidate, kind)
        except TricklawError:  # the deals do not fit the simpler options
            return False
        if found is None:
            return False
        assert found.disagreement is not None
        steps = found.case.steps[: found.disagreement.step + 1]
        best = Outcome(
            replace(found.case, steps=steps), found.state, found.disagreement, found.actions
        )
        return True

    changed = True
    while changed and tries < budget:
        changed = False
        for i in range(len(best.case.steps)):
            for part in ("probe", "choice"):
                simpler = _simpler_step(best.case.steps, i, part)
                if simpler is not None:
                    changed |= attempt(replace(best.case, steps=simpler))
        changed |= _drop_rounds(best, attempt)
        changed |= _trim_deals(best, attempt)
        changed |= _default_options(best, attempt)
    return best


def _simpler_step(steps: tuple[Step, ...], i: int, part: str) -> tuple[Step, ...] | None:
    """``steps`` with step ``i``'s illegal probe dropped (``part="probe"``) or its choice
    made the first legal action (``"choice"``); ``None`` when there is nothing to simplify."""
    if i >= len(steps):
        return None
    choice, probe = steps[i]
    if part == "probe" and probe is not None:
        return (*steps[:i], (choice, None), *steps[i + 1 :])
    if part == "choice" and choice != 0:
        return (*steps[:i], (0, probe), *steps[i + 1 :])
    return None


def _drop_rounds(best: Outcome, attempt: Callable[[Case], bool]) -> bool:
    """Start the game at the round where it disagrees, when that still disagrees."""
    case = best.case
    rounds = best.state.round_index
    if rounds == 0 or len(case.deals) <= rounds:
        return False
    steps_before = sum(len(log.actions) for log in best.state.history[:rounds])
    return attempt(replace(case, deals=case.deals[rounds:], steps=case.steps[steps_before:]))


def _trim_deals(best: Outcome, attempt: Callable[[Case], bool]) -> bool:
    """Drop the deals of rounds after the disagreement (the next one may be needed: the
    last card of a round deals the next)."""
    case = best.case
    for keep in (best.state.round_index + 1, best.state.round_index + 2):
        if keep < len(case.deals) and attempt(replace(case, deals=case.deals[:keep])):
            return True
    return False


def _default_options(best: Outcome, attempt: Callable[[Case], bool]) -> bool:
    """Set each option back to its default, when the case still disagrees."""
    ruleset = get_ruleset(best.case.ruleset)
    changed = False
    for spec in ruleset.option_specs:
        case = best.case
        if case.options.get(spec.name) != spec.default:
            changed |= attempt(replace(case, options={**case.options, spec.name: spec.default}))
    return changed


# --- reports ------------------------------------------------------------------------------------


def case_json(outcome: Outcome, engine: str) -> dict[str, Any]:
    """The report of a disagreement (``tricklaw-fuzz-case``)."""
    case = outcome.case
    game = case.game()
    assert outcome.disagreement is not None
    state = game.new_state_from_deals(case.deals, case.seed)
    played: list[dict[str, Any]] = []
    for choice, probe in case.steps[: outcome.disagreement.step + 1]:
        legal = state.legal_actions()
        if not legal:
            break
        entry: dict[str, Any] = {"seat": state.current_player()}
        if probe is not None and (candidates := illegal_candidates(state, legal)):
            entry["illegal_tried"] = state.action_to_string(candidates[probe % len(candidates)])
        action = legal[choice % len(legal)]
        entry["action"] = state.action_to_string(action)
        played.append(entry)
        state = state.apply_action(action)
    palette = game.ruleset.palette
    return {
        "format": CASE_FORMAT,
        "version": 1,
        "engine": engine,
        "ruleset": case.ruleset,
        "players": case.players,
        "options": case.options,
        "seed": case.seed,
        "deals": [deal_json(d, palette) for d in case.deals],
        "steps": [[c, p] for c, p in case.steps],
        "actions": played,
        "disagreement": outcome.disagreement.as_json(),
        "record": to_record(state, case.seed),
    }


def case_from_json(data: Any, where: str) -> Case:
    """The case a report holds; raises TricklawError naming the bad field."""
    if not isinstance(data, dict) or data.get("format") != CASE_FORMAT:
        raise TricklawError(f"{where}: not a {CASE_FORMAT} file")
    try:
        ruleset = get_ruleset(data["ruleset"])
        game = ruleset.make_game(data["players"], data["options"])
        deals = tuple(
            parse_deal(raw, ruleset.palette, f"{where}: deals[{i}]")
            for i, raw in enumerate(data["deals"])
        )
        ruleset.check_deals(game, deals)
        steps = tuple((int(c), None if p is None else int(p)) for c, p in data["steps"])
        seed = data["seed"]
        if type(seed) is not int:
            raise TypeError("seed")
    except (KeyError, TypeError, ValueError) as exc:
        raise TricklawError(f"{where}: missing or malformed field {exc}") from None
    return Case(ruleset.id, game.players, game.options.as_dict(), seed, deals, steps)


# --- the run ------------------------------------------------------------------------------------


@dataclass(slots=True)
class Run:
    """What a fuzz run found and how fast."""

    games: int = 0
    actions: int = 0
    requests: int = 0
    seconds: float = 0.0
    failures: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> str:
        rate = self.games / self.seconds * 60 if self.seconds else 0.0
        found = f"{len(self.failures)} disagreement(s)" if self.failures else "no disagreement"
        return (
            f"{found} in {self.games} games, {self.actions} actions, {self.requests} engine "
            f"requests in {self.seconds:.1f} s ({rate:,.0f} games/min)"
        )


def fuzz(
    command: str,
    *,
    rulesets: Sequence[str],
    players: int | None,
    fixed: dict[str, Any],
    games: int,
    seed: int,
    seconds: float | None = None,
    keep_going: bool = False,
    timeout: float = ENGINE_TIMEOUT,
) -> Run:
    """Fuzz the engine ``command``; stops at the first disagreement unless ``keep_going``."""
    run = Run()
    start = time.perf_counter()
    engine = Engine(command, timeout)
    try:
        for index in range(games):
            if seconds is not None and time.perf_counter() - start > seconds:
                break
            case = new_case(index, seed, rulesets, players, fixed)
            outcome = play_case(engine, case)
            run.games += 1
            run.actions += outcome.actions
            if outcome.disagreement is None:
                continue
            if outcome.disagreement.kind == "protocol":  # the engine may be dead: start again
                run.requests += engine.requests
                engine.close()
                engine = Engine(command, timeout)
                small, shrunk = outcome, False
            else:
                small, shrunk = shrink(engine, outcome), True
            report = case_json(small, command)
            report["shrunk"] = shrunk
            report["game_index"] = index
            report["run_seed"] = seed
            run.failures.append(report)
            if not keep_going:
                break
    finally:
        run.requests += engine.requests
        engine.close()
        run.seconds = time.perf_counter() - start
    return run


def replay_case(command: str, path: str, timeout: float = ENGINE_TIMEOUT) -> Outcome:
    """Play the case of a report file again on the engine."""
    try:
        data = json.loads(Path(path).read_text("utf-8"))
    except OSError as exc:
        raise TricklawError(f"fuzz: cannot read {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise TricklawError(f"fuzz: {path} is not JSON: {exc}") from None
    case = case_from_json(data, path)
    engine = Engine(command, timeout)
    try:
        return play_case(engine, case, limit=len(case.steps))
    finally:
        engine.close()


# --- the command --------------------------------------------------------------------------------


def cmd_fuzz(args: argparse.Namespace) -> int:
    """``tricklaw fuzz``."""
    if args.replay:
        outcome = replay_case(args.engine, args.replay, args.timeout)
        if outcome.disagreement is None:
            sys.stdout.write(f"the engine now agrees on {args.replay} ({outcome.actions} steps)\n")
            return 0
        sys.stdout.write(
            f"disagrees: {outcome.disagreement.message} {list(outcome.disagreement.clauses)}\n"
        )
        return 1
    for name, low in (("games", 1), ("timeout", 0)):
        if getattr(args, name) is not None and getattr(args, name) < low:
            raise TricklawError(f"fuzz: --{name} must be at least {low}")
    if args.ruleset is not None:
        ruleset = get_ruleset(args.ruleset)
        if args.players is not None:
            ruleset.make_game(args.players)
    elif args.players is not None:
        raise TricklawError("fuzz: --players needs a RULESET")
    rulesets = [args.ruleset] if args.ruleset else list(RULESETS)
    fixed = dict(parse_option_args(args.option or []))
    for name in rulesets:  # every fixed option must be one of each ruleset fuzzed
        get_ruleset(name).make_game(get_ruleset(name).player_counts[0], fixed)
    if not 0 <= args.seed < 2**64:
        raise TricklawError(f"fuzz: --seed {args.seed} is outside 0 .. 2**64-1")
    run = fuzz(
        args.engine,
        rulesets=rulesets,
        players=args.players,
        fixed=fixed,
        games=args.games,
        seed=args.seed,
        seconds=args.time,
        keep_going=args.keep_going,
        timeout=args.timeout,
    )
    out = Path(args.out)
    for n, report in enumerate(run.failures, 1):
        try:
            out.mkdir(parents=True, exist_ok=True)
            path = out / f"fuzz-{n}.json"
            path.write_text(json.dumps(report, indent=1) + "\n", "utf-8")
        except OSError as exc:
            raise TricklawError(f"fuzz: cannot write to {out}: {exc.strerror}") from None
        found = report["disagreement"]
        sys.stdout.write(
            f"disagrees ({report['ruleset']}, {report['players']} players, "
            f"{len(report['actions'])} actions{_shrink_note(report['shrunk'])}): "
            f"{found['message']} "
            f"{found['clauses']}\n  case written to {path}\n"
        )
    sys.stdout.write(run.summary() + "\n")
    return 1 if run.failures else 0


def _shrink_note(shrunk: bool) -> str:
    return " after shrinking" if shrunk else ", not shrunk: the engine broke the protocol"


def add_command(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``fuzz`` subcommand to the ``tricklaw`` parser's ``subparsers``."""
    p = subparsers.add_parser(
        "fuzz",
        help="differential fuzzing of an engine that speaks the oracle's stdio protocol",
        description="Play random and adversarial games on ENGINE and on the reference "
        "model, compare every answer, and shrink the first disagreement to a minimal case. "
        "Exit status: 0 agree, 1 a disagreement, 2 bad input.",
    )
    p.add_argument("ruleset", nargs="?", help="only this ruleset (default: all)")
    p.add_argument("--engine", required=True, metavar="COMMAND", help="the engine's command line")
    p.add_argument("--players", "-n", type=int, help="only this player count (needs RULESET)")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="fix an option")
    p.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    p.add_argument("--time", type=float, metavar="SECONDS", help="stop after this long")
    p.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    p.add_argument("--out", default="fuzz-cases", help="where cases go (default ./fuzz-cases)")
    p.add_argument("--keep-going", action="store_true", help="go on after a disagreement")
    p.add_argument(
        "--timeout", type=float, default=ENGINE_TIMEOUT, help="seconds per engine answer"
    )
    p.add_argument("--replay", metavar="FILE", help="play the case in FILE again on the engine")
    p.set_defaults(func=cmd_fuzz)
