"""Score bounds (:mod:`tricklaw.proofs.bounds`): proved, tight, witnessed and sound,
under every reading that can change them (:mod:`tricklaw.proofs.bounds.readings`).

* Every bound is proved by Z3 over its relaxation and met by a witness that the
  model replays, under that reading, to exactly that score (so every bound here is
  the exact least or greatest round score); proved afresh, every result is the one
  checked in (``spec/bounds/v1.json``), which the other tests read.
* The values are those the rules give by hand (see each table's reasoning).
* The bounds hold on seeded random rounds of every reading, and sampled rounds are
  solutions of the reading's relaxation (the relaxation is sound on those rounds,
  score included); rounds that only the reading allows are solutions of its
  relaxation and not of the defaults' one (the relaxation reads the option).
* Gaps and unsound relaxations are reported as such, never as proved.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any

import pytest
import tier

from tricklaw.model.agents import play_random_game
from tricklaw.model.rulesets import RULESETS
from tricklaw.model.state import Game, RoundLog
from tricklaw.proofs import bounds
from tricklaw.proofs.bounds import BOUNDS, Reading, hund, label, prove, readings, results, sticheln
from tricklaw.proofs.bounds import witness as witnesses
from tricklaw.proofs.bounds.relaxation import Relaxation
from tricklaw.proofs.results import Result
from tricklaw.proofs.solver import COUNTEREXAMPLE, FAIL, PROVED, UNKNOWN, Tracked
from tricklaw.spec import load_registry
from tricklaw.spec.errors import TricklawError
from tricklaw.spec.proved_bounds import load_bounds

clause = pytest.mark.clause
TIMEOUT_MS = 5000
CASES = [(rid, n) for rid, ruleset in RULESETS.items() for n in ruleset.player_counts]
READINGS = [(rid, n, r) for rid, n in CASES for r in readings(rid, n)]
RANDOM_ROUNDS = tier.examples(300)
"""Random rounds per ruleset and player count under the defaults; fewer under the other
readings (:data:`READING_ROUNDS`), and a tenth in the fast tier."""
READING_ROUNDS = 40
ADMIT_ROUNDS = 2 if tier.FAST else 6
"""Sampled rounds per ruleset and player count whose values the relaxation must admit
(under the defaults: the other readings are in the slow tier, :data:`BY_READING`)."""
READING_ADMIT_ROUNDS = 2


def reading_id(case: tuple[str, int, Reading]) -> str:
    rid, n, reading = case
    return f"{rid}-{n}-{label(reading).replace(', ', '+')}"


BY_READING = pytest.mark.parametrize(
    ("ruleset_id", "players", "reading"),
    [
        pytest.param(*case, id=reading_id(case), marks=pytest.mark.slow if case[2] else ())
        for case in READINGS
    ],
)
"""Every ruleset, player count and reading; the other readings than the defaults in the
slow tier (about 100 cases of a quarter of a second each)."""
OWN = {rid: BOUNDS[rid] for rid in BOUNDS}
"""Each ruleset's part of the bounds layer, kept before any test replaces one."""


@pytest.fixture
def swap() -> Iterator[Callable[..., None]]:
    """Replace fields of a ruleset's :class:`~tricklaw.proofs.bounds.game.GameBounds`
    (``swap("hund", relaxation=...)``) for one test."""
    swapped: set[str] = set()

    def replace(ruleset_id: str, **changes: Any) -> None:
        swapped.add(ruleset_id)
        BOUNDS.unregister(ruleset_id)
        BOUNDS.register(ruleset_id, dataclasses.replace(OWN[ruleset_id], **changes))

    yield replace
    for rid in swapped:
        BOUNDS.unregister(rid)
        BOUNDS.register(rid, OWN[rid])


@cache
def proved(ruleset_id: str, players: int, reading: Reading = ()) -> tuple[Result, Result]:
    """(score-max, score-min) of one ruleset, player count and reading, proved afresh once."""
    options = dict(reading)
    high = bounds.bound_result(ruleset_id, players, True, TIMEOUT_MS, options)
    low = bounds.bound_result(ruleset_id, players, False, TIMEOUT_MS, options)
    return high, low


def checked_in(
    ruleset_id: str, players: int, reading: Reading = ()
) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    """(score-max, score-min) of one ruleset, player count and reading, as checked in."""
    found = load_bounds()
    pair = [
        found.row(name, ruleset_id, players, label(reading)) for name in (bounds.MAX, bounds.MIN)
    ]
    assert pair[0] is not None and pair[1] is not None, "spec/bounds/v1.json has every reading"
    return pair[0], pair[1]


@cache
def sample_rounds(
    ruleset_id: str, players: int, count: int, reading: Reading = ()
) -> tuple[RoundLog, ...]:
    """``count`` rounds of seeded random games under ``reading``."""
    game = RULESETS[ruleset_id].make_game(players, dict(reading))
    logs: list[RoundLog] = []
    seed = 1
    while len(logs) < count:
        state = play_random_game(game, seed, max_rounds=count - len(logs))
        logs += state.history
        seed += 1
    return tuple(logs[:count])


def bound_values(ruleset_id: str, players: int, reading: Reading = ()) -> tuple[int, int]:
    high, low = checked_in(ruleset_id, players, reading)
    return high["witness"]["bound"], low["witness"]["bound"]


def values_by_reading(ruleset_id: str) -> dict[tuple[int, Reading], tuple[int, int]]:
    return {(n, r): bound_values(ruleset_id, n, r) for rid, n, r in READINGS if rid == ruleset_id}


# --- every bound is proved, tight, and witnessed -------------------------------------------


@BY_READING
def test_every_bound_is_proved_tight_and_replays(
    ruleset_id: str, players: int, reading: Reading
) -> None:
    """Under every reading, as checked in: proved, and met by a witness recorded with the
    reading's options, which replays under them to exactly the bound."""
    ids = load_registry(ruleset_id).ids
    pair = checked_in(ruleset_id, players, reading)
    for result, name in zip(pair, (bounds.MAX, bounds.MIN), strict=True):
        assert result["obligation"] == name
        assert (result["ruleset"], result["players"], result["reading"]) == (
            ruleset_id,
            str(players),
            label(reading),
        )
        assert result["status"] == PROVED, result["detail"]
        witness = result["witness"]
        assert dict(reading).items() <= witness["options"].items()
        assert witness["score"] == witness["bound"]
        assert witnesses.replay_witness(ruleset_id, players, witness) == witness["score"]
        assert witness["scores"][witnesses.SEAT] == witness["score"]
        assert result["clauses"], "the proof names the clauses it rests on"
        assert set(result["clauses"]) <= ids


# That a fresh proof of every bound is the one checked in is verify's own check
# (``bounds-artifact``, every field of every result): tests/test_verify_report.py reads it
# from the suite's one verify run, so the bounds are not proved a second time here.


@clause(
    "STI93-DECK-2",
    "STI93-SELECT-1",
    "STI93-COLLECT-1",
    "STI93-ROUND-1",
    "STI93-SCORE-1",
    "STI93-SCORE-2",
    "STI93-SCORE-3",
    "STI-DECK-1",
    "STI-SELECT-2",
    "STI-COLLECT-1",
    "STI-ROUND-1",
    "STI-SCORE-1",
    "STI-SCORE-2",
    "STI-SCORE-3",
)
@pytest.mark.parametrize("ruleset_id", ["sticheln-1993", "sticheln"])
def test_sticheln_bounds_are_tight(ruleset_id: str) -> None:
    """Greatest: pick the misery zero and win only tricks of other colours: all
    ``(C-1)(T+1)`` of them when that is a multiple of ``n`` (36, 48, 60 for 3-5 players:
    12 tricks, the two other tricks holding only misery cards), else the largest
    multiple (6 players: 75 cards, 72 in 12 tricks; a 13th trick would bring at least
    three misery cards worth at least 6). Least: pick the misery top card ``T`` and take
    the other misery cards in whole tricks: ``-T - T(T-1)/2`` plus one filler card (3-5
    players: 3 tricks of ``n``, a zero of another colour filling the last: -35, -65,
    -104); with 6 players two tricks of misery 2..13 (-104) beat three tricks with four
    fillers (-101).

    The readings of ``follow``, ``all-zero`` and ``zero-lead`` change what may be played
    and who takes a trick, not these numbers. ``deck=full`` deals 15 of the 90 cards
    to each player: all 14 tricks can hold cards of the five other colours (42, 56, 70;
    six players deal the whole deck either way: 72), and the misery colour is the whole
    0-14 at every count: -104, as with six players."""
    table = {3: (36, -35), 4: (48, -65), 5: (60, -104), 6: (72, -104)}
    full = {3: (42, -104), 4: (56, -104), 5: (70, -104), 6: (72, -104)}
    for (players, reading), values in values_by_reading(ruleset_id).items():
        expected = full if ("deck", "full") in reading else table
        assert values == expected[players], (players, reading)


@clause("LH-DECK-1", "LH-TRICK-4", "LH-TRICK-5", "LH-SCORE-2", "LH-SCORE-3", "LH-SCORE-4")
def test_lowhigh_bounds() -> None:
    """Greatest: the top two values of every colour, gained as the lowest card's player
    (LH-TRICK-4): ``5 (2 top - 1)``; three or more cards of a colour score at most ``top``.
    Least: 0, gaining nothing (a middle card in every trick). Neither needs a trick of
    one value throughout, so ``same-card`` does not change them."""
    top = {3: 9, 4: 12, 5: 15, 6: 18}
    for (players, reading), values in values_by_reading("lowhigh").items():
        assert values == (5 * (2 * top[players] - 1), 0), reading


@clause("LAST-DECK-1", "LAST-DEAL-1", "LAST-GHOST-1", "LAST-COLLECT-1", "LAST-SCORE-1")
def test_the_last_bounds() -> None:
    """Greatest penalty: one face-down card per trick, at most the ``H`` highest cards
    (12s, 11s, 10s: 132 for 12 tricks; 102 for 9; 92 for 8). Least: 0, winning nothing.
    ``last-play`` and ``ghost-play`` change only what may be played."""
    default = {2: (132, 0), 3: (132, 0), 4: (102, 0), 5: (92, 0)}
    for (players, reading), values in values_by_reading("the-last").items():
        if reading != (("unused-points", "last-winner"),):
            assert values == default[players], reading


@clause("LAST-D-UNUSED", "LAST-ROUND-1")
def test_the_last_unused_points_to_the_last_winner() -> None:
    """With four players 3 points cards are never turned up; under ``last-winner`` the
    winner of the last trick lays them down too: 9 + 3 cards, the twelve highest, 132."""
    assert bound_values("the-last", 4, (("unused-points", "last-winner"),)) == (132, 0)


@clause("HUND-DESIG-2", "HUND-FACT-2", "HUND-FACT-3", "HUND-COLLECT-1", "HUND-GAP-2")
def test_hund_bounds() -> None:
    """Greatest: every Plus card and the Hund award, ``S + 3``; least: every Minus card,
    ``-S``, for ``S`` cards a suit (6, 6, 8, 10; 9, 9, 12, 15 with ``more-cards``).

    Two players with ``virtual-hund=ignored`` compare two seats only: one has the most
    and the other the fewest Hund cards, or they tie, and under ``hund-tie=excluded`` a
    tie is excluded too: no award, greatest ``S``; under ``scores`` a tie scores: ``S + 3``.
    The other readings (trump timing, designation order, values from 0, designation
    sets and their sub-options) change who takes what, not these numbers."""
    size = {2: 6, 3: 6, 4: 8, 5: 10}
    more = {2: 9, 3: 9, 4: 12, 5: 15}
    for (players, reading), values in values_by_reading("hund").items():
        s = more[players] if ("more-cards", "yes") in reading else size[players]
        award = 0 if reading == (("virtual-hund", "ignored"),) else 3
        assert values == (s + award, -s), (players, reading)


@clause("HUND-D-VIRTUALHUND", "HUND-D-HUNDTIE", "HUND-TWO-1")
def test_hund_award_with_the_virtual_player_ignored() -> None:
    ignored = (("virtual-hund", "ignored"),)
    assert bound_values("hund", 2, ignored) == (6, -6)
    assert bound_values("hund", 2, (("hund-tie", "scores"), *ignored)) == (9, -6)


@pytest.mark.slow
def test_results_do_not_depend_on_what_z3_solved_before() -> None:
    """Z3's models and unsat cores change with what it solved earlier in the process;
    the witnesses (built from a canonical optimal model) and the clauses (a minimal
    core) do not. Without both, four of these six results differed after the trick
    obligations of one Hund table."""
    from tricklaw.proofs import obligations

    cases = [
        ("sticheln-1993", 3, {"all-zero": "no-winner"}),
        ("sticheln-1993", 3, {"deck": "full"}),
        ("sticheln", 4, {}),
    ]

    def run() -> list[Result]:
        return [
            bounds.bound_result(rid, n, maximize, TIMEOUT_MS, options)
            for rid, n, options in cases
            for maximize in (True, False)
        ]

    before = run()
    obligations.trick_results(RULESETS["hund"], 3, {}, TIMEOUT_MS)
    after = run()
    assert [(r.witness, r.clauses) for r in before] == [(r.witness, r.clauses) for r in after]


# --- soundness on the model's own rounds ---------------------------------------------------


@BY_READING
def test_bounds_hold_on_random_rounds(ruleset_id: str, players: int, reading: Reading) -> None:
    high, low = bound_values(ruleset_id, players, reading)
    count = RANDOM_ROUNDS if not reading else READING_ROUNDS
    for log in sample_rounds(ruleset_id, players, count, reading):
        for seat in range(players):
            assert low <= log.scores[seat] <= high, (log.index, seat, log.scores)


@BY_READING
def test_sampled_rounds_are_solutions_of_the_relaxation(
    ruleset_id: str, players: int, reading: Reading
) -> None:
    game = RULESETS[ruleset_id].make_game(players, dict(reading))
    count = ADMIT_ROUNDS if not reading else READING_ADMIT_ROUNDS
    for log in sample_rounds(ruleset_id, players, count, reading):
        for seat in range(players):
            values = bounds.round_values(game, log, seat)
            assert values["score"] == log.scores[seat]
            assert bounds.relaxation_admits(game, log, seat, TIMEOUT_MS)
            wrong = {**values, "score": log.scores[seat] + 1}
            assert not bounds.relaxation_admits(game, log, seat, TIMEOUT_MS, wrong)


def reading_only_round(
    ruleset_id: str, players: int, reading: Reading, wanted: Callable[[Game, RoundLog, int], bool]
) -> tuple[Game, RoundLog, int]:
    """A sampled round of ``reading`` and a seat for which ``wanted`` holds."""
    game = RULESETS[ruleset_id].make_game(players, dict(reading))
    for log in sample_rounds(ruleset_id, players, 200, reading):
        for seat in range(players):
            if wanted(game, log, seat):
                return game, log, seat
    pytest.fail(f"no sampled round of {label(reading)} shows what the test needs")


def blind(game: Game) -> Relaxation:
    """The relaxation of the defaults, whatever the game's reading."""
    rid = game.ruleset.id
    return OWN[rid].relaxation(RULESETS[rid].make_game(game.players))


def admitted_only_by_own_relaxation(
    swap: Callable[..., None], found: tuple[Game, RoundLog, int]
) -> None:
    game, log, seat = found
    assert bounds.relaxation_admits(game, log, seat, TIMEOUT_MS)
    swap(game.ruleset.id, relaxation=blind)
    assert not bounds.relaxation_admits(game, log, seat, TIMEOUT_MS)


@clause("LAST-D-UNUSED")
def test_the_last_relaxation_reads_unused_points(swap: Callable[..., None]) -> None:
    """A round in which the last trick's winner lays down the 3 points cards never
    turned up: a solution of the ``last-winner`` relaxation, not of the defaults' one."""

    def took_leftovers(game: Game, log: RoundLog, seat: int) -> bool:
        return bounds.round_values(game, log, seat)["unused_points"] == 3

    reading = (("unused-points", "last-winner"),)
    admitted_only_by_own_relaxation(
        swap, reading_only_round("the-last", 4, reading, took_leftovers)
    )


def holders(game: Game, log: RoundLog, seat: int) -> tuple[int, ...]:
    values = bounds.round_values(game, log, seat)
    return tuple(int(values[k]) for k in ("plus", "hund", "minus"))


@clause("HUND-D-SETREPEAT", "HUND-D-SETMATCH", "HUND-OPT-2")
def test_hund_relaxation_reads_stacked_powers(swap: Callable[..., None]) -> None:
    """Matched by value with repeats stacking, one suit can hold two of Plus, Hund and
    Minus: a solution of that reading's relaxation, not of the defaults' one."""
    reading = (("designation-mode", "sets"), ("set-match", "value"), ("set-repeat", "stack"))

    def stacked(game: Game, log: RoundLog, seat: int) -> bool:
        return len(set(holders(game, log, seat))) < 3

    admitted_only_by_own_relaxation(swap, reading_only_round("hund", 4, reading, stacked))


@clause("HUND-D-SETSUITS", "HUND-D-SETREPEAT")
def test_hund_relaxation_reads_missing_powers(swap: Callable[..., None]) -> None:
    """Two sets naming one suit, repeats skipped: a power can stay unassigned (no card
    counts for it), a solution of that reading's relaxation only."""
    reading = (("designation-mode", "sets"), ("set-suits", "any"))

    def missing(game: Game, log: RoundLog, seat: int) -> bool:
        return -1 in holders(game, log, seat)

    admitted_only_by_own_relaxation(swap, reading_only_round("hund", 4, reading, missing))


@clause("HUND-D-HUNDTIE", "HUND-FACT-3")
def test_hund_relaxation_reads_the_tie_rule(swap: Callable[..., None]) -> None:
    """Under ``hund-tie=scores`` a seat with no Hund card can score the award (everyone
    tied at the fewest): a solution of that reading's relaxation only."""
    reading = (("hund-tie", "scores"),)

    def award_without_hund(game: Game, log: RoundLog, seat: int) -> bool:
        values = bounds.round_values(game, log, seat)
        hund = int(values["hund"])
        count = sum(
            1 for key, taken in values.items() if key.startswith(f"take_{hund}_") and taken is True
        )
        return bool(values["hund_award"]) and count == 0

    admitted_only_by_own_relaxation(
        swap, reading_only_round("hund", 4, reading, award_without_hund)
    )


# --- witnesses are checked, gaps are honest ---------------------------------------------


def witness_of(
    ruleset_id: str, players: int, maximize: bool = True, reading: Reading = ()
) -> dict[str, Any]:
    high, low = checked_in(ruleset_id, players, reading)
    return dict((high if maximize else low)["witness"])


def test_replay_rejects_an_unfinished_round() -> None:
    witness = witness_of("sticheln", 4)
    witness["actions"] = witness["actions"][:-1]
    with pytest.raises(TricklawError, match="do not finish"):
        witnesses.replay_witness("sticheln", 4, witness)


@clause("LH-PLAY-2")
def test_replay_rejects_an_illegal_action() -> None:
    """The second card of the first lowhigh trick is swapped for a card of another colour
    from the same hand: the hand still holds the lead colour, so it is illegal."""
    witness = witness_of("lowhigh", 3)
    actions = [dict(a) for a in witness["actions"]]
    second = actions[1]
    hand = witness["deal"]["hands"][second["seat"]]
    lead = actions[0]["action"][0]
    other = next(card for card in hand if card[0] not in (lead, second["action"][0]))
    second["action"] = other
    witness["actions"] = actions
    with pytest.raises(TricklawError):
        witnesses.replay_witness("lowhigh", 3, witness)


def test_replay_rejects_a_seat_acting_out_of_turn() -> None:
    witness = witness_of("hund", 3)
    actions = [dict(a) for a in witness["actions"]]
    actions[0]["seat"] = (actions[0]["seat"] + 1) % 3
    witness["actions"] = actions
    with pytest.raises(TricklawError, match="turn"):
        witnesses.replay_witness("hund", 3, witness)


def test_a_weaker_witness_is_reported_as_a_gap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Handed the least-score witness for the greatest-score obligation, the result is a
    counterexample (model and bound disagree; no solver was unsure), with the round, and
    states both numbers."""
    game = bounds.witness_game("sticheln", 4)
    relax = sticheln.relaxation(game)
    low_hint = prove.prove_bound(relax, False, TIMEOUT_MS).hint
    low = witnesses.drive(game, sticheln.plan(game, False, low_hint) or pytest.fail("no plan"))
    monkeypatch.setattr(results, "find_witness", lambda *_: low)
    result = bounds.bound_result("sticheln", 4, True, TIMEOUT_MS)
    assert result.status == COUNTEREXAMPLE
    assert result.detail.startswith("proved bound 48, but the model's round")
    assert "scores -65" in result.detail and result.witness["actions"]
    assert result.witness["bound"] == 48
    assert result.witness["score"] == -65


def test_no_witness_is_reported_as_a_gap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(results, "find_witness", lambda *_: None)
    result = bounds.bound_result("the-last", 3, False, TIMEOUT_MS)
    assert result.status == FAIL  # not a solver's unknown: no round was built
    assert result.detail == "proved bound 0, but no witness round was built"


def test_an_unsound_relaxation_is_a_counterexample(swap: Callable[..., None]) -> None:
    """A relaxation wrongly capping Hund's score at 5 is refuted by the witness of 9 (the
    Hund plans are built from the rules alone, not from the relaxation's optimum)."""

    def capped(game: Any) -> Relaxation:
        relax = hund.relaxation(game)
        relax.assertions.append(Tracked("HUND-FACT-2", relax.score <= 5))
        return relax

    swap("hund", relaxation=capped)
    result = bounds.bound_result("hund", 3, True, TIMEOUT_MS)
    assert result.status == COUNTEREXAMPLE
    assert (result.witness["bound"], result.witness["score"]) == (5, 9)
    assert "outside the relaxation" in result.detail and result.witness["actions"]


def test_a_bound_z3_cannot_reach_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        prove, "optimum", lambda *_args, **_kwargs: (UNKNOWN, None, None), raising=True
    )
    result = bounds.bound_result("hund", 3, True, TIMEOUT_MS)
    assert result.status == UNKNOWN
    assert result.detail.startswith("bound not proved")
    assert "best witness 9" in result.detail


def test_results_are_json_ready() -> None:
    for result in proved("hund", 2):
        data = json.loads(json.dumps(result.witness))
        assert data["deal"]["piles"]["virtual-up"]
        assert witnesses.replay_witness("hund", 2, data) == data["score"]


# --- the readings are in force -----------------------------------------------------------


def test_an_option_blind_relaxation_is_refuted(swap: Callable[..., None]) -> None:
    """The defaults' relaxation of The Last bounds four players' penalty by 102; under
    ``unused-points=last-winner`` the witness lays down 132: reported as unsound."""
    swap("the-last", relaxation=blind)
    result = bounds.bound_result("the-last", 4, True, TIMEOUT_MS, {"unused-points": "last-winner"})
    assert result.status == COUNTEREXAMPLE
    assert (result.witness["bound"], result.witness["score"]) == (102, 132)


def test_an_option_blind_relaxation_leaves_a_gap(swap: Callable[..., None]) -> None:
    """The defaults' relaxation of Hund gives two players 9; with the virtual player
    ignored for Hund the best round gives 6: a disagreement, never proved."""
    swap("hund", relaxation=blind)
    result = bounds.bound_result("hund", 2, True, TIMEOUT_MS, {"virtual-hund": "ignored"})
    assert result.status == COUNTEREXAMPLE
    assert result.detail.startswith("proved bound 9") and "scores 6" in result.detail


def test_a_wrong_claimed_bound_is_not_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    """An optimum claimed one too low (42 for the full deck at three players) is not
    re-proved: 'no score above 41' is satisfiable."""
    real = prove.optimum

    def low_by_one(*args: Any, **kwargs: Any) -> Any:
        status, value, model = real(*args, **kwargs)
        return status, None if value is None else value - 1, model

    monkeypatch.setattr(prove, "optimum", low_by_one)
    result = bounds.bound_result("sticheln-1993", 3, True, TIMEOUT_MS, {"deck": "full"})
    assert result.status == UNKNOWN
    assert "optimum 41 not re-proved" in result.detail


@clause("STI93-D-DECK")
def test_a_witness_is_bound_to_its_reading() -> None:
    """The full-deck witness sets cards aside, which the table deck does not have: it
    does not replay under the defaults. The Last's ``last-winner`` witness replays
    under ``stay`` to less: the 3 cards never turned up no longer count."""
    full = witness_of("sticheln-1993", 3, True, (("deck", "full"),))
    full["options"] = {"rounds": 1}
    with pytest.raises(TricklawError):
        witnesses.replay_witness("sticheln-1993", 3, full)
    last = witness_of("the-last", 4, True, (("unused-points", "last-winner"),))
    assert witnesses.replay_witness("the-last", 4, last) == 132
    last["options"] = {}
    assert witnesses.replay_witness("the-last", 4, last) < 132
