"""Legal worked examples (proofs/example_legality.py): Z3 over every hand the text allows.

The real examples give the verdicts their data records (and the findings their disputes);
planted changes to the examples show the checker catches what it should: an illegal play,
a stated fact the plays break, a hand size that rules a play out, data that claims an
example holds where it does not, and a new game (Tiny) it was never tuned to.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import pytest

from tricklaw.model.rulesets import get_ruleset
from tricklaw.proofs.example_legality import WorkedSequence, sequence_results
from tricklaw.proofs.plays import PLAYS
from tricklaw.proofs.solver import COUNTEREXAMPLE, FINDING, PROVED
from tricklaw.spec import load_examples, load_registry

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tiny  # (the example plug-in, beside this file)

TIMEOUT = 30_000


def sequence(ruleset_id: str) -> dict[str, Any]:
    """A copy of the ruleset's first worked sequence, to plant changes in."""
    return copy.deepcopy(load_examples(ruleset_id)["sequence"][0])


def decide(ruleset_id: str, data: dict[str, Any], readings: dict[str, str], **kw: Any) -> Any:
    ruleset = get_ruleset(ruleset_id)
    game = ruleset.make_game(data["players"], readings)
    seq = WorkedSequence(ruleset, PLAYS[ruleset_id](game, {}), data)
    consecutive = data.get("consecutive") in ("stated", "assumed")
    return seq.decide(consecutive, TIMEOUT, **kw)


@pytest.fixture(scope="module")
def results_1993() -> list[Any]:
    return sequence_results(get_ruleset("sticheln-1993"), TIMEOUT)


@pytest.mark.slow
def test_the_1993_tricks_are_findings_of_their_disputes(results_1993: list[Any]) -> None:
    by_reading = {r.reading: r for r in results_1993 if r.obligation.endswith("EX-TRICKS")}
    assert by_reading["follow=free, deck=full"].status == PROVED
    for follow in ("follow-or-trump", "must-follow"):
        strict = by_reading[f"follow={follow}, deck=full"]
        assert (strict.status, strict.machine, strict.dispute) == (
            FINDING,
            "example-legality",
            "STI93-D-FOLLOW",
        )
        # Lore's blue 0, while she holds the green 4 she plays in trick 3.
        assert any("STI93-EX-TRICK-2/Lore/B0" in c for c in strict.witness["core"])
        assert any("STI93-EX-TRICK-3/Lore/G4" in c for c in strict.witness["core"])
        assert strict.witness["assumption"] == "consecutive"
    for follow in ("free", "follow-or-trump", "must-follow"):
        table = by_reading[f"follow={follow}, deck=table"]
        assert (table.status, table.machine, table.dispute) == (
            FINDING,
            "unsat-core",
            "STI93-D-DECK",
        )
        assert table.witness["assumption"] == ""
        assert {"STI93-DECK-2", "STI93-PLAY-1"} <= set(table.clauses)
    assert all(r.status in (PROVED, FINDING) for r in results_1993)


@pytest.mark.slow
def test_a_worked_trick_that_contradicts_a_reading_is_a_finding_not_proved(
    results_1993: list[Any],
) -> None:
    """Issue 15: the Y14 trick (a card the 4-player deck removes) was shown as ``proved``
    because it holds where its data says. Its row is now the finding of STI93-D-DECK, and
    so is the Z3 check of the trick's outcome (example-z3)."""
    from tricklaw.proofs.example_constraints import example_results

    per_trick = {r.obligation: r for r in results_1993 if not r.obligation.endswith("TRICKS")}
    y14 = per_trick["example-legal STI93-EX-TRICK-1"]
    assert (y14.status, y14.machine, y14.dispute) == (FINDING, "unsat-core", "STI93-D-DECK")
    assert "deck=table: contradiction" in y14.detail and "deck=full: holds" in y14.detail
    outcome = {r.obligation: r for r in example_results(get_ruleset("sticheln-1993"), TIMEOUT)}
    z3_y14 = outcome["example-z3 STI93-EX-TRICK-1"]
    assert (z3_y14.status, z3_y14.machine, z3_y14.dispute) == (
        FINDING,
        "unsat-core",
        "STI93-D-DECK",
    )
    assert outcome["example-z3 STI93-EX-TRICK-2"].status == PROVED  # holds everywhere


def test_the_registers_found_by_names_these_machines() -> None:
    disputes = {d.id: d for d in load_registry("sticheln-1993").disputes}
    assert "example-legality" in disputes["STI93-D-FOLLOW"].found_by
    assert "unsat-core" in disputes["STI93-D-DECK"].found_by


@pytest.mark.parametrize("ruleset_id", ["sticheln", "the-last", "lowhigh"])
def test_the_other_examples_are_legal_under_every_reading(ruleset_id: str) -> None:
    results = sequence_results(get_ruleset(ruleset_id), TIMEOUT)
    assert results and all(r.status == PROVED for r in results), results


def test_a_planted_illegal_play_is_caught_with_its_core() -> None:
    """The Last: Dee plays a green card to a red lead in trick 1 while she holds the red
    card she plays in trick 2: no hands make that legal."""
    data = sequence("the-last")
    data["trick"][0]["cards"] = ["R5", "R9", "R2", "G7"]
    data["trick"][1]["cards"] = ["R3", "B8", "R7", "B5"]  # Dee's red 7, one trick later
    verdict = decide("the-last", data, {"last-play": "played-colours"})
    assert verdict.status == "contradiction"
    assert "LAST-PLAY-3@LAST-TRICK-3/Dee/G7" in verdict.core
    assert "LAST-PLAY-1@LAST-TRICK-2/Dee/R7" in verdict.core
    # Under last-play=free the last player may play any card: it is legal again.
    assert decide("the-last", data, {"last-play": "free"}).status == "holds"


def test_a_planted_play_against_a_stated_void_is_caught() -> None:
    """lowhigh: the text says Josiah has no green; planting a green card for him clashes
    with that fact, and naming Jazzy void in green clashes with his green 9."""
    data = sequence("lowhigh")
    assert decide("lowhigh", data, {}).status == "holds"
    data["trick"][0]["void"] = {"Jazzy": ["G"]}
    verdict = decide("lowhigh", data, {})
    assert verdict.status == "contradiction"
    assert set(verdict.core) == {"LH-EX-PLAY@void/Jazzy", "LH-PLAY-1@LH-EX-PLAY/Jazzy/G9"}


def test_without_the_void_the_off_colour_play_needs_a_green_free_hand() -> None:
    """Drop the stated void: Josiah's red 2 is still legal for some hands (those without
    green). Add a green card Josiah plays later: now it is illegal."""
    data = sequence("lowhigh")
    del data["trick"][0]["void"]
    assert decide("lowhigh", data, {}).status == "holds"
    data["consecutive"] = "stated"
    data["trick"].append(
        {"clause": "LH-PLANTED", "leader": "Jazzy", "cards": ["Y3", "G2", "Y5", "Y6"]}
    )
    verdict = decide("lowhigh", data, {})
    assert verdict.status == "contradiction"
    assert "LH-PLAY-2@LH-EX-PLAY/Josiah/R2" in verdict.core


@pytest.mark.slow
def test_the_hand_size_decides_where_the_text_names_the_first_trick() -> None:
    """1993 trick 4 alone: Ulli's orange 0 is legal under the literal reading if the four
    tricks end the round (it is his last card), illegal if they open it (11 cards)."""
    data = sequence("sticheln-1993")
    readings = {"follow": "follow-or-trump", "deck": "full"}
    assert decide("sticheln-1993", data, readings, only=3).status == "holds"
    data["first_trick"] = 0
    verdict = decide("sticheln-1993", data, readings, only=3)
    assert verdict.status == "contradiction"
    assert "STI93-LEAD-2@hand-size" in verdict.core
    assert "STI93-PLAY-2@STI93-EX-TRICK-4/Ulli/O0" in verdict.core


@pytest.mark.slow
def test_data_claiming_an_example_holds_where_it_does_not_is_a_counterexample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = load_examples("sticheln-1993")
    wrong = copy.deepcopy(data)
    wrong["sequence"][0]["holds_under"] = {"deck": ["full"]}  # as if every follow reading
    monkeypatch.setattr("tricklaw.proofs.example_legality.load_examples", lambda _id: wrong)
    results = sequence_results(get_ruleset("sticheln-1993"), TIMEOUT)
    bad = [r for r in results if r.status == COUNTEREXAMPLE]
    readings = {r.reading for r in bad if r.obligation.endswith("EX-TRICKS")}
    assert readings == {"follow=follow-or-trump, deck=full", "follow=must-follow, deck=full"}


def test_it_works_for_a_new_game() -> None:
    """Tiny, a game the checker was never tuned to: a worked pair of tricks in which a
    player who holds the led colour (he plays it next) plays another is caught."""
    data = {
        "id": "TINY-PLANTED",
        "clauses": ["TINY-PLAY-1"],
        "players": 2,
        "seats": ["Ann", "Bob"],
        "consecutive": "stated",
        "trick": [
            {"clause": "T1", "leader": "Ann", "cards": ["A1", "B2"]},
            {"clause": "T2", "leader": "Ann", "cards": ["A3", "A2"]},
        ],
    }
    with tiny.registered() as tiny_id:
        letters = get_ruleset(tiny_id).palette.letters
        for trick in data["trick"]:
            trick["cards"] = [letters["AB".index(c[0])] + c[1:] for c in trick["cards"]]
        verdict = decide(tiny_id, data, {})
    assert verdict.status == "contradiction"
    assert any(label.startswith("TINY-PLAY-1@T1/Bob/") for label in verdict.core)


def test_a_card_laid_aside_is_in_no_hand() -> None:
    """Later Sticheln: Maria's unwanted card is yellow 2 (line 27); planting it as the blue
    3 she leads in trick 1 clashes with her laying it aside."""
    data = sequence("sticheln")
    assert decide("sticheln", data, {}).status == "holds"
    data["aside"]["cards"]["Maria"] = "B3"
    verdict = decide("sticheln", data, {})
    assert verdict.status == "contradiction"
    assert {"STI-EX-SELECT@aside/Maria", "STI-PLAY-1@STI-EX-TRICK-1/Maria/B3"} <= set(verdict.core)
