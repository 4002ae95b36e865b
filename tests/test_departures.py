"""No false pass (issue 43, item 1): a dispute that an engine declares as its own rule
excuses only an answer that some reading of the dispute gives, and the input is checked
to its end afterwards, under that reading (:mod:`tricklaw.model.replay.departure`,
:func:`tricklaw.fuzz.declared.follow`).

The games are built with the model: Sticheln (3 players, one round) with a zero-led
trick on which the two readings of STI-D-ZEROLEAD (STI-TRICK-5: the lead colour) give
the trick to different seats, and a game that ends in a tie for the best total
(STI-D-GAMETIE, STI-GAME-2). The last tests plant the old bugs in the checker itself
(any answer excused; nothing read after a departure) and show that the assertions of
the tests above then fail.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from tricklaw.check import check_lines, check_record, state_to_log
from tricklaw.fuzz import declared as fuzz_declared
from tricklaw.fuzz import fuzz
from tricklaw.fuzz.cases import Outcome
from tricklaw.model.agents import play_random_game
from tricklaw.model.record import to_record
from tricklaw.model.replay import departure
from tricklaw.model.replay.citation import trick_answer
from tricklaw.model.replay.declaration import Declaration, parse_declaration
from tricklaw.model.replay.verdict import DEPARTS, DivergenceError, Verdict
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Game, State

MUTANT = Path(__file__).parent / "engines" / "mutant_engine.py"
STICHELN = get_ruleset("sticheln")
RULE = "a zero led leads no colour"


def own(dispute: str, rule: str = RULE) -> dict[str, Any]:
    """A declaration of Sticheln (3 or 4 players, one round) with ``dispute`` as the
    engine's own rule."""
    return {
        "rulesets": {
            "sticheln": {
                "players": [3, 4],
                "options": {"rounds": [1]},
                "disputes": {dispute: {"reading": "own", "rule": rule}},
            }
        }
    }


OWN_ZERO = parse_declaration(own("STI-D-ZEROLEAD"), "x")
OWN_TIE = parse_declaration(own("STI-D-GAMETIE", "a tie goes to the last-placed seat"), "x")


def played(seed: int, zero_lead: str) -> tuple[State[Any], tuple[int, int, int] | None]:
    """A random Sticheln game (3 players, one round, ``zero-lead`` = ``zero_lead``), and
    its first zero-led trick on which the readings part: (index, the winner under
    ``lead-card``, under ``first-nonzero``)."""
    game = STICHELN.make_game(3, {"rounds": 1, "zero-lead": zero_lead})
    readings = [
        STICHELN.make_game(3, {"rounds": 1, "zero-lead": z}) for z in ("lead-card", "first-nonzero")
    ]
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    found = None
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        if found is None and len(state.trick) == 2:
            index = len(state.tricks)
            winners = [trick_answer(state, action, index, "winner")(g) for g in readings]
            if winners[0] != winners[1] and None not in winners:
                found = (index, winners[0], winners[1])
        state = state.child(action)
    return state, found


def disputed(zero_lead: str) -> tuple[State[Any], int, tuple[int, int, int]]:
    """The first seed's game (under ``zero_lead``) with a disputed zero-led trick that is
    not its last: the game, the seed, the trick."""
    for seed in range(100):
        state, found = played(seed, zero_lead)
        if found is not None and found[0] < len(state.history[0].tricks) - 2:
            return state, seed, found
    raise AssertionError("no game with a disputed zero-led trick")


def log_of(state: State[Any], seed: int) -> list[dict[str, Any]]:
    """The game's log, its header naming the default reading of STI-D-ZEROLEAD (what an
    engine with its own rule writes: its game, not its rule)."""
    objs = [json.loads(line) for line in state_to_log(state, seed)]
    objs[0]["options"]["zero-lead"] = "lead-card"
    return objs


def trick_lines(objs: list[dict[str, Any]]) -> list[int]:
    return [i for i, obj in enumerate(objs) if "trick" in obj]


def check(objs: list[dict[str, Any]], declaration: Declaration | None = OWN_ZERO) -> Verdict:
    return check_lines((json.dumps(o) for o in objs), declaration=declaration)


def hostile_log() -> tuple[list[dict[str, Any]], int, tuple[int, int, int]]:
    """The audit's log: the first disputed zero-led trick given to the seat that neither
    reading picks, then a seat that is not to act plays a card nobody holds, then scores
    of a million; and the line of that trick (from 1)."""
    state, seed, (index, lead_card, first_nonzero) = disputed("lead-card")
    objs = log_of(state, seed)
    at = trick_lines(objs)[index]
    neither = ({0, 1, 2} - {lead_card, first_nonzero}).pop()
    objs[at]["trick"]["winner"] = neither
    objs[at]["trick"].pop("taken", None)
    played_card = objs[trick_lines(objs)[0]]["trick"]["cards"][0]
    million = [10**6] * 3
    objs = [
        *objs[: at + 1],
        {"seat": neither, "action": played_card},
        {"scores": million, "totals": million},
        {"totals": million, "winners": [0, 1, 2], "complete": True},
    ]
    return objs, at + 1, (lead_card, first_nonzero, neither)


# --- the checks, as functions (the planted bugs below show they can fail) ----------------


def assert_the_hostile_log_diverges() -> None:
    objs, line, (lead_card, first_nonzero, neither) = hostile_log()
    found = check(objs)
    assert found.status == "diverges" and found.exit_status == 1, found.message
    assert found.line == line and found.disputes == ("STI-D-ZEROLEAD",)
    assert (
        f"lead-card gives {lead_card}, first-nonzero gives {first_nonzero}; the log gives "
        f"{neither}" in found.problem
    )
    assert "not a declared departure" in found.problem and RULE in found.problem


def assert_a_later_error_after_a_departure_is_caught() -> None:
    state, seed, (index, _, _) = disputed("first-nonzero")
    objs = log_of(state, seed)
    departs = check(objs)  # the engine's answers are first-nonzero's, every one
    assert departs.status == DEPARTS and departs.exit_status == 0, departs.message
    assert departs.line == trick_lines(objs)[index] + 1
    assert departs.readings == (("STI-D-ZEROLEAD", "first-nonzero"),)
    assert departs.checked["actions"] == sum("action" in o for o in objs)  # all of them
    assert departs.checked["tricks"] == len(trick_lines(objs))
    wrong = [dict(o) for o in objs]
    totals = max(i for i, o in enumerate(objs) if "totals" in o)  # the end line follows
    wrong[totals]["totals"] = [wrong[totals]["totals"][0] + 1, *wrong[totals]["totals"][1:]]
    caught = check(wrong)
    assert caught.status == "diverges" and caught.line == totals + 1, caught.message
    assert "checked under STI-D-ZEROLEAD = 'first-nonzero'" in caught.problem
    last = trick_lines(objs)[-1]
    later = [dict(o) for o in objs]
    trick = objs[last]["trick"]
    later[last] = {"trick": {**trick, "leader": (trick["leader"] + 1) % 3}}
    caught = check(later)
    assert caught.status == "diverges" and caught.line == last + 1, caught.message


def tie_record() -> tuple[dict[str, Any], list[int], int]:
    """A finished game tied for the best total: its record, the tied seats, and the
    last-placed seat."""
    game = STICHELN.make_game(3, {"rounds": 1})
    for seed in range(300):
        state = play_random_game(game, seed)
        totals = state.returns()
        tied = list(STICHELN.winners(game, totals))
        if len(tied) > 1:
            last = min(range(3), key=lambda s: totals[s])
            return json.loads(json.dumps(to_record(state, seed))), tied, last
    raise AssertionError("no tied game")


def assert_a_tie_won_by_the_last_placed_seat_fails() -> None:
    record, tied, last = tie_record()
    assert last not in tied
    found = check_record({**record, "winners": [last]}, declaration=OWN_TIE)
    assert found.status == "diverges" and found.exit_status == 1, found.message
    assert (
        found.disputes == ("STI-D-GAMETIE",)
        and "no reading of STI-D-GAMETIE gives" in found.problem
    )
    assert f"first-seat gives {json.dumps(tied[:1])}" in found.problem
    highest = check_record({**record, "winners": tied[-1:]}, declaration=OWN_TIE)
    assert highest.status == "diverges"  # the tied player in the highest seat: no reading


# --- tricklaw check --declare -------------------------------------------------------------


def test_the_hostile_log_is_a_divergence() -> None:
    """The audit's log: before, ``departs`` (exit 0) with 8 actions checked."""
    assert_the_hostile_log_diverges()


@pytest.mark.slow
def test_the_hostile_log_exits_1_on_the_command_line(tmp_path: Path) -> None:
    objs, line, _ = hostile_log()
    log = tmp_path / "hostile.jsonl"
    log.write_text("".join(json.dumps(o) + "\n" for o in objs), "utf-8")
    declare = tmp_path / "own.json"
    declare.write_text(json.dumps(own("STI-D-ZEROLEAD")), "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "tricklaw", "check", "--declare", str(declare), str(log)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.startswith("diverges (sticheln")
    assert f" players): line {line}, round 0, trick " in done.stdout
    assert "(dispute STI-D-ZEROLEAD)" in done.stdout and "\n" not in done.stdout.rstrip("\n")


def test_a_departure_by_a_reading_is_checked_to_the_end() -> None:
    assert_a_later_error_after_a_departure_is_caught()


def test_a_record_departs_like_its_log() -> None:
    """The record reader re-reads the record under the reading, as the log reader its
    spooled lines."""
    state, seed, _ = disputed("first-nonzero")
    record = json.loads(json.dumps(to_record(state, seed)))
    record["options"]["zero-lead"] = "lead-card"
    found = check_record(record, declaration=OWN_ZERO)
    assert found.status == DEPARTS and found.readings == (("STI-D-ZEROLEAD", "first-nonzero"),)
    assert check_record(record).status == "diverges"  # no declaration: a divergence
    wrong = {**record, "totals": [t + 1 for t in record["totals"]]}
    assert check_record(wrong, declaration=OWN_ZERO).status == "diverges"


def test_a_log_read_twice_is_converted_once(tmp_path: Path) -> None:
    """``--convert`` with a departure: each line is written once, though the log is read
    twice (the second time under the reading)."""
    state, seed, _ = disputed("first-nonzero")
    objs = log_of(state, seed)
    got: list[dict[str, Any]] = []
    found = check_lines((json.dumps(o) for o in objs), emit=got.append, declaration=OWN_ZERO)
    assert objs[-1].keys() == {"end"}  # the end line is the reader's, not an event
    assert found.status == DEPARTS and got == objs[:-1]


def test_a_tie_won_by_the_last_placed_seat_fails() -> None:
    """Before, any winners of a tied game ``departed`` under an own tie rule."""
    assert_a_tie_won_by_the_last_placed_seat_fails()


def test_a_tie_won_by_a_reading_departs() -> None:
    record, tied, _ = tie_record()
    for winners, reading in ((tied[:1], "first-seat"), ([], "nobody")):
        found = check_record({**record, "winners": winners}, declaration=OWN_TIE)
        assert found.status == DEPARTS, found.message
        assert found.readings == (("STI-D-GAMETIE", reading),)
        assert found.as_json()["readings"] == {"STI-D-GAMETIE": reading}


# --- tricklaw fuzz ------------------------------------------------------------------------


def engine(mutant: str, declaration: dict[str, Any], tmp_path: Path) -> str:
    path = tmp_path / "declaration.json"
    path.write_text(json.dumps(declaration), "utf-8")
    return f"{sys.executable} {MUTANT} {mutant} {path}"


def fuzz_sticheln(command: str) -> Any:
    return fuzz(command, rulesets=["sticheln"], players=3, fixed={}, games=30, seed=1)


def assert_an_engine_wrong_on_every_disputed_trick_is_reported(tmp_path: Path) -> None:
    run = fuzz_sticheln(engine("zero-lead-wrong", own("STI-D-ZEROLEAD"), tmp_path))
    assert run.departures == [] and len(run.failures) == 1, run.summary()
    found = run.failures[0]["disagreement"]
    assert found["kind"] == "trick" and found["disputes"] == ["STI-D-ZEROLEAD"]
    assert "no reading of STI-D-ZEROLEAD gives" in found["message"]


@pytest.mark.slow
def test_fuzz_reports_an_engine_wrong_on_every_disputed_trick(tmp_path: Path) -> None:
    """Before: ``no disagreement (N declared departures)``, exit 0."""
    assert_an_engine_wrong_on_every_disputed_trick_is_reported(tmp_path)


@pytest.mark.slow
def test_fuzz_follows_a_departure_by_a_reading_to_the_end(tmp_path: Path) -> None:
    """An engine that plays ``first-nonzero`` whatever it is told departs (its answer is
    a reading's, and it agrees to the end under that reading); the same engine with
    Sticheln's trick tie reversed (STI-TRICK-3, no reading of any dispute) is caught
    after such a departure, the model following the reading."""
    good = fuzz_sticheln(engine("zero-lead-first", own("STI-D-ZEROLEAD"), tmp_path))
    assert good.failures == [] and good.departures, good.summary()
    first = good.departures[0]
    assert first["readings"] == {"STI-D-ZEROLEAD": "first-nonzero"}
    assert first["report"]["readings"] == {"zero-lead": "first-nonzero"}
    bad = fuzz(
        engine("zero-lead-first+tie-last", own("STI-D-ZEROLEAD"), tmp_path),
        rulesets=["sticheln"], players=3, fixed={}, games=40, seed=1, keep_going=True,
    )  # fmt: skip
    note = "the model follows STI-D-ZEROLEAD"
    followed = [f for f in bad.failures if note in f["disagreement"]["message"]]
    assert followed, bad.summary()
    assert followed[0]["disagreement"]["kind"] == "trick"
    assert followed[0]["readings"] == {"zero-lead": "first-nonzero"}


# --- planted bugs in the checker itself ---------------------------------------------------


Excuses = Callable[[Declaration, DivergenceError, Game, Mapping[str, Any], str], bool]


def _planted(excuses: Excuses) -> Callable[..., Verdict]:
    """A bug planted in place of the departure search: a divergence that ``excuses``
    accepts departs on the spot, nothing after it read; any other stays."""

    def search(
        declaration: Declaration,
        attempt: departure.Attempt,
        who: str,
        checked: tuple[Verdict, DivergenceError, Game],
        *,
        fixed: Mapping[str, Any],
        departed: tuple[departure.Departure, ...],
    ) -> Verdict:
        found, diverged, game = checked
        if excuses(declaration, diverged, game, fixed, who):
            return found.restated(DEPARTS, found.problem, found.checked, ())
        return found

    return search


def _any_answer(declaration: Declaration, diverged: DivergenceError, game: Game, *_: Any) -> bool:
    """The old excuse: any established divergence on an own dispute."""
    return any(declaration.own_rule(game.ruleset.id, d) for d in diverged.citation.disputes)


def _a_readings_answer(
    declaration: Declaration,
    diverged: DivergenceError,
    game: Game,
    fixed: Mapping[str, Any],
    who: str,
) -> bool:
    """The readings judge the departure, but nothing after it is read."""
    answered = (diverged.citation, diverged.got)
    return bool(departure.candidates(declaration, game, answered, fixed, who)[0])


@pytest.mark.parametrize(
    ("planted", "checks"),
    [
        (
            _any_answer,
            [assert_the_hostile_log_diverges, assert_a_tie_won_by_the_last_placed_seat_fails],
        ),
        (_a_readings_answer, [assert_a_later_error_after_a_departure_is_caught]),
    ],
)
def test_the_checks_fail_on_a_planted_bug(
    planted: Excuses,
    checks: list[Callable[[], None]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each planted bug makes the checks above fail: the old excuse (any answer on an
    own dispute departs) and a checker that stops reading after a departure."""
    for assertion in checks:
        assertion()  # the fixed checker passes
    monkeypatch.setattr(departure, "_search", _planted(planted))
    for assertion in checks:
        with pytest.raises(AssertionError):
            assertion()


@pytest.mark.slow
def test_the_fuzz_check_fails_on_a_planted_bug(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old fuzzer: a disagreement on an own dispute departs, whatever the answer."""

    def excuse_any(
        engine: Any,
        declaration: Declaration | None,
        outcome: Outcome,
        departed: tuple[fuzz_declared.Departed, ...],
    ) -> tuple[Outcome, tuple[fuzz_declared.Departed, ...]]:
        found = outcome.disagreement
        if declaration is None or found is None or not found.disputes:
            return outcome, departed
        rule = declaration.own_rule(outcome.case.ruleset, found.disputes[0])
        if rule is None:
            return outcome, departed
        step = fuzz_declared.Departed(found.disputes[0], "", "", rule, found)
        return Outcome(outcome.case, outcome.state, None, outcome.actions), (step,)

    monkeypatch.setattr(fuzz_declared, "_follow", excuse_any)
    with pytest.raises(AssertionError):
        assert_an_engine_wrong_on_every_disputed_trick_is_reported(tmp_path)
