"""The edition diff: ``tricklaw diff``, and verify's ``edition-diff`` obligations.

* the command: text and ``--json``, one-line errors with exit 2 for unknown ids, a
  ruleset compared with itself, rulesets of different families, a player count they
  do not share;
* the Sticheln editions: every default difference has a minimal witness and a recorded
  edition dispute (a finding of machine ``diff``);
* a change planted in one edition (its model, or its trick encoding) shows up as a new,
  unrecorded difference and fails the obligation, also behind a recorded difference of
  the same aspect; a recorded difference that vanishes fails it;
* the machinery on a game it was not written for: a planted second edition of Tiny;
* the spec fields of an edition dispute are validated.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pytest
import z3

from tricklaw.cli import main
from tricklaw.model.cards import Card
from tricklaw.model.rulesets import RULESETS
from tricklaw.model.rulesets.sticheln import StichelnLater
from tricklaw.model.state import Game, RoundLog
from tricklaw.proofs import edition_diff, plain
from tricklaw.proofs.edition_aspects import compare
from tricklaw.proofs.edition_sides import Side
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.encodings.sticheln import StichelnPlay, StichelnTrick
from tricklaw.proofs.plays import PLAYS, CardTerm
from tricklaw.proofs.results import Result
from tricklaw.proofs.solver import COUNTEREXAMPLE, FINDING, PROVED, Tracked
from tricklaw.spec import EDITION_ASPECTS, parse_registry
from tricklaw.spec.errors import SpecError

A, B = "sticheln-1993", "sticheln"

clause = pytest.mark.clause


def _results(*aspects: str) -> dict[str, list[Result]]:
    rulesets = [RULESETS[A], RULESETS[B]]
    out: dict[str, list[Result]] = {}
    for r in edition_diff.diff_results(rulesets, None, 30_000, aspects=aspects or EDITION_ASPECTS):
        out.setdefault(r.obligation.removeprefix("edition-diff "), []).append(r)
    return out


# --- the command ----------------------------------------------------------------------------


@pytest.mark.slow
@clause("STI-D-FIRSTLEAD", "STI-D-ROUNDS", "STI93-D-ALLZERO")
def test_diff_text_names_each_aspect_and_its_dispute(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", A, B, "-n", "3"]) == 1  # they differ: exit 1, as diff(1)
    out = capsys.readouterr().out
    for aspect in EDITION_ASPECTS:
        assert any(line.startswith(aspect + " ") for line in out.splitlines()), aspect
    trick = next(line for line in out.splitlines() if line.startswith("trick "))
    assert "DIFFERS" in trick and "R0 O0 Y0" in trick and "STI93-D-ALLZERO" in trick
    assert "STI-D-ROUNDS" in out and "STI-D-FIRSTLEAD" in out


@pytest.mark.slow
def test_diff_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", B, A, "--json", "-n", "4"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["rulesets"] == [B, A] and data["family"] == "sticheln"
    aspects = {d["aspect"]: d for d in data["aspects"]}
    assert list(aspects) == list(EDITION_ASPECTS)
    trick = aspects["trick"]
    assert trick["differs"] and trick["default"]["witness"]["players"] == 4
    assert trick["default"]["witness"][B] == {"winner": -1}
    assert trick["default"]["witness"][A] == {"winner": 0}
    assert trick["recorded"] == [[A, "STI93-D-ALLZERO"]]
    bridge = [r for r in trick["readings"] if r["option"] == "all-zero"]
    assert [r["comparison"]["status"] for r in bridge] == [PROVED]
    assert not aspects["winner"]["differs"]


def test_diff_exits_0_only_when_every_aspect_is_shown_to_agree() -> None:
    """The exit status of ``tricklaw diff`` (:func:`tricklaw.diff.exit_status`), on the
    real comparisons of the Sticheln editions, each aspect then made to agree or to time
    out: 0 only when none differs and none is unknown."""
    from dataclasses import replace

    from tricklaw.diff import exit_status
    from tricklaw.proofs.solver import UNKNOWN

    a, b = edition_diff.pair(A, B)
    diffs = edition_diff.diff(a, b, players=3, aspects=("trick", "winner"), readings=False)
    assert [d.aspect for d in diffs] == ["trick", "winner"]
    assert exit_status(diffs) == 1 and diffs[0].differs and not diffs[1].differs
    agree = [replace(d, default=replace(d.default, status=PROVED)) for d in diffs]
    assert exit_status(agree) == 0
    timed_out = [agree[0], replace(agree[1], default=replace(agree[1].default, status=UNKNOWN))]
    assert exit_status(timed_out) == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([A, "nope"], "unknown ruleset 'nope'"),
        ([A, A], "not sticheln-1993 with itself"),
        ([A, "hund"], "not editions of one game"),
        ([A, B, "-n", "7"], "share no player count"),
    ],
)
def test_diff_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["diff", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and message in captured.err


# --- the Sticheln editions --------------------------------------------------------------


@pytest.mark.slow
@clause("STI-D-FIRSTLEAD", "STI-D-ROUNDS", "STI93-D-ALLZERO")
def test_every_default_difference_is_a_finding_of_a_recorded_dispute() -> None:
    results = _results()
    assert set(results) == set(EDITION_ASPECTS)
    findings = {
        aspect: {(r.ruleset, r.dispute) for r in rs}
        for aspect, rs in results.items()
        if rs[0].status == FINDING
    }
    assert findings == {
        "deal": {(B, "STI-D-FIRSTLEAD")},
        "first-lead": {(B, "STI-D-FIRSTLEAD")},
        "trick": {(A, "STI93-D-ALLZERO")},
        "no-winner": {(A, "STI93-D-ALLZERO")},
        "rounds": {(B, "STI-D-ROUNDS")},
    }
    for rs in results.values():
        for r in rs:
            assert r.status in {FINDING, PROVED, "pass"}, r
            if r.status == FINDING:
                assert r.machine == "diff" and r.witness
    assert results["trick"][0].witness["trick"] == ["R0", "O0", "Y0"]
    assert results["first-lead"][0].witness == {"players": 3, "round": 1, A: 1, B: 0}


@pytest.mark.slow
def test_reading_notes_name_the_disputes_that_change_an_aspect() -> None:
    a, b = edition_diff.pair(A, B)
    diffs = {d.aspect: d for d in edition_diff.diff(a, b, aspects=("play", "game-end"))}
    play = " ".join(edition_diff.reading_notes(diffs["play"]))
    assert "follow=must-follow (STI93-D-FOLLOW) differs" in play
    assert "hand R0 R1 to O0: sticheln-1993 allows R1, sticheln allows R0 R1" in play
    end = " ".join(edition_diff.reading_notes(diffs["game-end"]))
    assert "end=target (STI93-D-END) differs" in end and "[100, 0, 0]" in end


# --- planted changes ------------------------------------------------------------------------


def _plant(monkeypatch: pytest.MonkeyPatch, name: str, function: object) -> None:
    """Replace a method of the later edition, in the plain copy of the model too: the
    edition diff runs ``game_over`` and ``winners`` symbolically on the plain copy when
    the install is compiled."""
    monkeypatch.setattr(StichelnLater, name, function)
    if plain.compiled_install():
        copy = plain.plain_module(StichelnLater.__module__)
        monkeypatch.setattr(copy.StichelnLater, name, function)


@pytest.mark.slow
def test_a_planted_model_change_is_an_unrecorded_difference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def first_only(self: StichelnLater, game: Game, totals: Sequence[int]) -> tuple[int, ...]:
        best = max(totals[: game.players])
        return (totals.index(best),)  # a planted tie-break: the lowest seat wins alone

    _plant(monkeypatch, "winners", first_only)
    (winner,) = _results("winner")["winner"]
    assert winner.status == "fail" and "no dispute records" in winner.detail
    assert winner.witness == {"players": 3, "totals": [0, 0, 0], A: [0, 1, 2], B: [0]}


@pytest.mark.slow
def test_a_planted_score_change_is_an_unrecorded_difference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recount = StichelnLater.recount_scores

    def one_more(self: StichelnLater, game: Game, log: RoundLog) -> tuple[int, ...]:
        return tuple(s + 1 for s in recount(self, game, log))  # a planted bonus point

    monkeypatch.setattr(StichelnLater, "recount_scores", one_more)
    (score,) = _results("score")["score"]
    assert score.status == "fail" and "no dispute records" in score.detail
    assert score.witness["players"] == 3 and score.witness[B] == score.witness[A] + 1


class _LastOfEqual(StichelnTrick):
    """A planted change to the later edition's tie rule: the last equal trump wins."""

    def earliest_of_equal(self, who: z3.ArithRef, eligible: Sequence[z3.BoolRef]) -> z3.BoolRef:
        return self.latest_of_equal(who, eligible)


@pytest.fixture
def planted_encoding() -> Iterator[None]:
    ENCODINGS.load()
    ENCODINGS.unregister(B)
    ENCODINGS.register(B, _LastOfEqual)
    try:
        yield
    finally:
        ENCODINGS.unregister(B)
        ENCODINGS.register(B, StichelnTrick)


def test_a_planted_encoding_change_is_found_behind_a_recorded_difference(
    planted_encoding: None,
) -> None:
    # The trick aspect already differs (the all-zero trick, STI93-D-ALLZERO); the planted
    # tie rule must still be found, under the reading that removes the recorded difference.
    (trick,) = _results("trick")["trick"]
    assert trick.status == "fail" and "all-zero=no-winner" in trick.detail
    cards = trick.witness["trick"]
    assert trick.witness["players"] == 3 and cards == ["R0", "O1", "Y1"]
    assert trick.witness[A] == {"winner": 1} and trick.witness[B] == {"winner": 2}


@pytest.mark.slow
def test_a_recorded_difference_that_vanished_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def ten_rounds(self: StichelnLater, game: Game, played: int, totals: tuple[int, ...]) -> bool:
        return played >= 10

    _plant(monkeypatch, "game_over", ten_rounds)
    (rounds,) = _results("rounds")["rounds"]
    assert rounds.status == "fail" and rounds.ruleset == B
    assert "STI-D-ROUNDS records a difference in rounds that no longer exists" in rounds.detail


class _FollowOrTrumpLater(StichelnPlay):
    """A planted change to the later edition's play rule: the 1993 literal reading."""

    def rule(
        self, held: Mapping[Card, z3.BoolRef], trick: Sequence[CardTerm], card: CardTerm
    ) -> list[Tracked]:
        if not trick:
            return []
        start = trick[0][0]
        either = lambda c: z3.Or(c[0] == start, c[1] != 0)  # noqa: E731
        return [Tracked("PLANTED", self.must_if_held(held, card, either))]


@pytest.mark.slow
def test_a_planted_play_rule_is_found_by_z3() -> None:
    PLAYS.load()
    PLAYS.unregister(B)
    PLAYS.register(B, _FollowOrTrumpLater)
    try:
        (play,) = _results("play")["play"]
    finally:
        PLAYS.unregister(B)
        PLAYS.register(B, StichelnPlay)
    assert play.status == "fail" and "no dispute records" in play.detail
    assert play.witness == {
        "players": 3,
        "trick": ["O0"],
        "hand": ["R0", "R1"],
        A: ["R0", "R1"],
        B: ["R1"],
    }


# --- a game the diff was not written for ------------------------------------------------

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tiny.encoding import TinyPlay, TinyTrick  # noqa: E402
from tiny.model import Tiny  # noqa: E402


class _LowTiny(Tiny):
    """A planted second edition of Tiny: the lowest card of the led colour wins."""

    id = "tiny-low"
    family = "tiny"


class _LowTinyTrick(TinyTrick):
    def resolution(self, outcome: Mapping[str, z3.ArithRef]) -> list[Tracked]:
        w, led = outcome["winner"], self.led()
        return [Tracked("LOW", z3.And(self.is_one_of(w, led), self.no_lower(w, led)))]


def test_the_diff_finds_a_planted_edition_of_tiny() -> None:
    ENCODINGS.register("tiny", TinyTrick)
    ENCODINGS.register("tiny-low", _LowTinyTrick)
    try:
        a, b = Side(Tiny()), Side(_LowTiny())
        assert compare("play", a, b, [2, 3], 30_000).status == "pass"  # bounded hands
        PLAYS.register("tiny", TinyPlay)
        PLAYS.register("tiny-low", TinyPlay)
        assert compare("play", a, b, [2, 3], 30_000).status == PROVED  # Z3, every hand
        a, b = Side(Tiny()), Side(_LowTiny())
        assert edition_diff.family_of(a.ruleset) == edition_diff.family_of(b.ruleset)
        trick = compare("trick", a, b, [2, 3], 30_000)
        assert trick.status == COUNTEREXAMPLE
        assert trick.witness["players"] == 2 and trick.witness["trick"] == ["R1", "R2"]
        assert compare("trick", a, Side(Tiny()), [2, 3], 30_000).status == PROVED
        assert compare("deck", a, b, [2, 3], 30_000).status == PROVED
    finally:
        for registry in (ENCODINGS, PLAYS):
            registry.unregister("tiny")
            registry.unregister("tiny-low")


# --- the spec fields ----------------------------------------------------------------------


def _registry(**fields: object) -> dict[str, object]:
    dispute = {
        "id": "STI-D-X",
        "title": "t",
        "question": "q",
        "lines": [[1, 1]],
        "default": "a",
        "reason": "r",
        "reading": [{"value": "a", "summary": "s"}],
        **fields,
    }
    return {
        "ruleset": B,
        "source": RULESETS[B].source,
        "prefix": "STI",
        "clause": [],
        "dispute": [dispute],
    }


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"kind": "edition", "aspects": ["trick"], "edition_lines": [[1, 1]]}, "other editions"),
        ({"kind": "edition", "editions": [A], "edition_lines": [[1, 1]]}, "aspects it records"),
        ({"kind": "edition", "editions": [A], "aspects": ["trick"]}, "edition_lines"),
        (
            {"kind": "edition", "editions": [A], "aspects": ["tricks"], "edition_lines": [[1, 1]]},
            "unknown aspect 'tricks'",
        ),
        (
            {"kind": "edition", "editions": [B], "aspects": ["trick"], "edition_lines": [[1, 1]]},
            "own ruleset",
        ),
        ({"kind": "gap", "editions": [A]}, "only an edition dispute"),
    ],
)
def test_edition_fields_are_validated(fields: dict[str, object], message: str) -> None:
    with pytest.raises(SpecError, match=message):
        parse_registry(_registry(**fields), "test.toml")


def test_an_edition_dispute_parses() -> None:
    fields = {"kind": "edition", "editions": [A], "aspects": ["trick"], "edition_lines": [[2, 3]]}
    (d,) = parse_registry(_registry(**fields), "test.toml").disputes
    assert (d.editions, d.aspects, d.edition_lines) == ((A,), ("trick",), ((2, 3),))
