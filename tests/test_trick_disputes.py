"""``tricklaw trick`` shows every dispute that bears on the trick (issue 15, part 4):
the legality readings of each card played, the deck dispute of a card outside the deck,
no false "changes nothing" when the trick is impossible under a reading, and recorded
disputes without a switch whose clauses decided the trick."""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tricklaw.cli import main
from tricklaw.model.cards import colour_of, value_of
from tricklaw.model.rulesets import get_ruleset
from tricklaw.trick_report import ALWAYS, NOT_IN_DECK, ONLY_IF, VERDICTS, build_report

clause = pytest.mark.clause

HERE = Path(__file__).resolve().parent


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["trick", *args])
    return code, out.getvalue(), err.getvalue()


def _text(*args: str) -> str:
    code, out, err = _run(*args)
    assert code == 0, err
    return out


def _json(*args: str) -> dict[str, Any]:
    return json.loads(_text(*args, "--json"))


def _readings(body: dict[str, Any], seat: int, dispute: str) -> dict[str, dict[str, Any]]:
    entry = body["legality"][seat]
    found = [d for d in entry["disputes"] if d["dispute"] == dispute]
    assert found, entry
    return {r["value"]: r for r in found[0]["readings"]}


@clause("STI93-D-FOLLOW")
def test_a_card_off_the_lead_colour_shows_the_follow_dispute() -> None:
    args = ("sticheln-1993", "-n", "4", "R3", "R2", "B0", "R4")
    text = _text(*args)
    assert "STI93-D-FOLLOW" in text and "B0 (seat +2)" in text
    assert "follow" not in text.splitlines()[-1], "follow must not be called unaffected"
    body = _json(*args)
    assert "follow" not in body["unaffected"]
    readings = _readings(body, 2, "STI93-D-FOLLOW")
    assert readings["free"]["verdict"] == ALWAYS and readings["free"]["default"]
    # The text's must-follow: the lead colour if possible, else a trump (a non-zero card of
    # another colour), else anything. So B0 only goes with zeros of other colours, and the
    # deck's unseen cards decide which: worked out here from the deck, not the report.
    game = get_ruleset("sticheln-1993").make_game(4, {})
    palette = game.ruleset.palette
    seen = set(palette.parse_all(args[3:]))
    expect = sorted(
        palette.format(c)
        for c in game.ruleset.deck(4, game.options)
        if c not in seen and value_of(c) == 0 and colour_of(c) != colour_of(palette.parse("R3"))
    )
    for value in ("follow-or-trump", "must-follow"):
        assert readings[value]["verdict"] == ONLY_IF
        assert sorted(readings[value]["allowed_with"]) == expect
    # The leader and the lead-colour followers are allowed under every reading.
    assert not body["legality"][0]["disputes"] and not body["legality"][1]["disputes"]


@clause("STI93-D-DECK")
@clause("HUND-D-VALUES")
def test_a_card_outside_the_deck_names_the_deck_dispute_and_the_option() -> None:
    code, out, err = _run("sticheln-1993", "-n", "4", "R3", "R2", "B14", "R4")
    assert code == 2 and not out
    assert "B14" in err and "STI93-D-DECK" in err and "--option deck=full" in err
    assert len(err.strip().splitlines()) == 1
    # The same for another game's deck dispute, and for a plain (non-dispute) option.
    _, _, err = _run("hund", "-n", "3", "R2", "G0", "Y5")
    assert "HUND-D-VALUES" in err and "--option values=from-0" in err
    _, _, err = _run("hund", "-n", "3", "R2", "G9", "Y5")
    assert "--option more-cards=yes admits it" in err
    # A card no reading admits is refused without naming an option.
    code, _, err = _run("sticheln-1993", "-n", "4", "R3", "R2", "B19", "R4")
    assert code == 2 and "admits" not in err


@clause("STI93-D-DECK")
def test_a_trick_impossible_under_a_reading_never_calls_it_unchanged() -> None:
    args = ("sticheln-1993", "-n", "4", "-o", "deck=full", "R3", "R2", "B14", "R4")
    text = _text(*args)
    assert "under --option deck=table (STI93-D-DECK) this trick cannot happen" in text
    assert "deck" not in text.splitlines()[-1]
    body = _json(*args)
    assert "deck" not in body["unaffected"]
    assert {(i["option"], i["value"]) for i in body["impossible"]} == {("deck", "table")}
    assert _readings(body, 2, "STI93-D-DECK")["table"]["verdict"] == NOT_IN_DECK
    # With the table deck's cards only, no reading makes the trick impossible.
    plain = _json("sticheln-1993", "-n", "4", "-o", "deck=full", "R3", "R2", "B4", "R4")
    assert plain["impossible"] == [] and "deck" in plain["unaffected"]


@pytest.mark.slow
@clause("HUND-D-SETMATCH")
def test_a_reading_that_changes_the_trick_is_shown_whatever_its_option_is_marked() -> None:
    """Issue 45: Hund's ``set-match`` is not marked as changing tricks, yet with
    designation sets in play its other reading gives this trick to another seat; the
    report judges every disputed option's readings and says so."""
    args = ("hund", "-n", "3", "-o", "designation-mode=sets", "-c", "sets=Y3,R5")
    body = _json(*args, "R1", "R3", "Y3")
    assert body["readings"]["set-match"]["value"]["same"] is False
    assert "set-match" not in body["unaffected"]
    text = _text(*args, "R1", "R3", "Y3")
    assert "--option set-match=value: seat +1 (R3) wins the trick" in text
    assert "set-match" not in text.splitlines()[-1]
    # Without sets in play, neither reading of set-match changes the same trick.
    plain = _json("hund", "-n", "3", "R1", "R3", "Y3")
    assert "set-match" not in plain["readings"] and "set-match" in plain["unaffected"]


def test_a_tricks_facts_read_as_words() -> None:
    """The Last's facts in words (``winning colour``), not as raw keys; JSON keeps them."""
    text = _text("the-last", "-n", "2", "R5", "R7", "B3")
    assert "winning colour: blue" in text and "winning-colour" not in text
    assert _json("the-last", "-n", "2", "R5", "R7", "B3")["facts"]["winning-colour"] == "blue"


@clause("STI-D-ZEROOFF")
def test_a_finding_without_a_switch_shows_when_its_clauses_decide() -> None:
    body = _json("sticheln", "-n", "3", "R1", "Y0", "R2")
    found = {d["dispute"]: d for d in body["disputes"]}
    assert "STI-D-ZEROOFF" in found
    assert found["STI-D-ZEROOFF"]["found_by"] == ["overlap"]
    assert set(found["STI-D-ZEROOFF"]["clauses"]) <= set(body["clauses"])
    assert "STI-D-ZEROOFF" in _text("sticheln", "-n", "3", "R1", "Y0", "R2")
    # A trick its clauses do not decide does not show it.
    plain = _json("sticheln", "-n", "3", "R1", "R2", "R3")
    assert "STI-D-ZEROOFF" not in {d["dispute"] for d in plain["disputes"]}


@clause("STI93-D-FOLLOW")
def test_a_dispute_on_what_may_be_played_is_said_once_per_trick() -> None:
    """Issue 45: the cards on which the readings disagree are said together under each
    reading, in a player's words, and the dispute once, not once per seat."""
    args = ("sticheln-1993", "-n", "4", "R1", "B2", "Y3", "R4")
    text = _text(*args)
    assert text.count("STI93-D-FOLLOW") == 1, text
    must = next(line for line in text.splitlines() if "follow=must-follow" in line)
    assert must.endswith("B2 (seat +1) and Y3 (seat +2): each only if its player held no R card")
    free = next(line for line in text.splitlines() if "follow=free (chosen)" in line)
    assert free.endswith(": each may be played whatever else its player held")
    body = _json(*args)
    [grouped] = body["legality_by_dispute"]
    by_value = {r["value"]: r["groups"] for r in grouped["readings"]}
    assert [[c["seat"] for c in g["cards"]] for g in by_value["must-follow"]] == [[1, 2]]
    # The same verdicts as the seat-by-seat list, regrouped.
    for seat in (1, 2):
        per_seat = _readings(body, seat, "STI93-D-FOLLOW")
        for value, groups in by_value.items():
            [text_of] = [g["text"] for g in groups if seat in [c["seat"] for c in g["cards"]]]
            assert text_of == per_seat[value]["text"]


@clause("STI93-D-FOLLOW")
def test_text_and_json_name_the_same_disputes() -> None:
    for args in (
        ("sticheln-1993", "-n", "4", "R3", "R2", "B0", "R4"),
        ("sticheln", "-n", "3", "R1", "Y0", "R2"),
        ("sticheln-1993", "-n", "4", "-o", "deck=full", "R3", "R2", "B14", "R4"),
    ):
        body, text = _json(*args), _text(*args)
        ids = {d["dispute"] for e in body["legality"] for d in e["disputes"]}
        ids |= {d["dispute"] for d in body["disputes"]}
        ids |= {i["dispute"] for i in body["impossible"]}
        assert ids and all(i in text for i in ids), (ids, text)


@pytest.mark.slow
@pytest.mark.parametrize("rid", ["sticheln-1993", "sticheln", "the-last", "lowhigh", "hund"])
def test_legality_verdicts_agree_with_the_model_on_random_hands(rid: str) -> None:
    """Each ``only-if`` and ``always`` verdict, checked against ``playable`` on random
    hands: a hand of the card and allowed cards lets it be played; one forbidden card
    added forbids it; ``always`` holds for any hand."""
    ruleset = get_ruleset(rid)
    rng = random.Random(15)
    checked = 0
    for _ in range(30):
        n = rng.choice(ruleset.player_counts)
        game = ruleset.make_game(n, {})
        deck = list(ruleset.deck(n, game.options))
        cards = rng.sample(deck, game.seats)
        report = build_report(game, cards, {})
        unseen = [c for c in deck if c not in cards]
        for position, entry in enumerate(report.legality):
            assert entry["verdict"] in VERDICTS
            card, prefix = cards[position], tuple(cards[:position])
            hand = [card, *rng.sample(unseen, min(5, len(unseen)))]
            if entry["verdict"] == ALWAYS:
                assert card in ruleset.playable(game, tuple(hand), prefix)
                checked += 1
            for d in entry["disputes"]:
                for r in d["readings"]:
                    if r["verdict"] != ONLY_IF:
                        continue
                    other = ruleset.make_game(n, {d["option"]: r["value"]})
                    allowed = ruleset.palette.parse_all(r["allowed_with"])
                    forbidden = ruleset.palette.parse_all(r["forbidden_by"])
                    ok = [card, *rng.sample(allowed, min(4, len(allowed)))]
                    assert card in ruleset.playable(other, tuple(ok), prefix)
                    assert forbidden
                    bad = [*ok, rng.choice(forbidden)]
                    assert card not in ruleset.playable(other, tuple(bad), prefix)
                    checked += 1
    assert checked


@pytest.fixture
def tiny_registered() -> Iterator[Any]:
    sys.path.insert(0, str(HERE))
    import tiny  # the tests' example plug-in game

    tiny.register()
    try:
        yield tiny
    finally:
        tiny.unregister()


def test_the_report_works_for_a_plugin_game(tiny_registered: Any) -> None:
    code, out, err = _run("tiny", "-n", "3", "G2", "R4", "G3", "--json")
    assert code == 0, err
    body = json.loads(out)
    assert [e["card"] for e in body["legality"]] == ["G2", "R4", "G3"]
    assert all(e["verdict"] in VERDICTS for e in body["legality"])
    assert body["legality"][0]["verdict"] == ALWAYS


@pytest.mark.parametrize(
    ("args", "players"),
    [
        (("sticheln", "R0", "B0", "Y0", "G0"), 4),
        (("lowhigh", "R1", "R2", "R3", "R4", "R5", "R6"), 6),
        (("hund", "R1", "Y2", "B3", "G4"), 4),
    ],
)
def test_players_is_the_one_count_the_cards_make_a_trick_at(
    args: tuple[str, ...], players: int
) -> None:
    """Issue 45: ``--players`` may be left out when the number of cards implies it; the
    answer is the one given with it."""
    assert json.loads(_text(*args, "--json")) == json.loads(
        _text(args[0], "-n", str(players), *args[1:], "--json")
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("lowhigh", "R1", "R2"), "no table of lowhigh (3, 4, 5, 6 players) plays these 2 cards"),
        (("the-last", "R3", "B5", "G1"), "3 cards make a trick at 2 players and at 3 players"),
        (("hund", "R1", "Y2", "B3"), "3 cards make a trick at 2 players and at 3 players"),
        (("lowhigh", "-o", "same-card=bogus", "R1", "R2", "R3"), "has no reading 'bogus'"),
    ],
)
def test_players_left_out_when_the_cards_do_not_decide_it_is_one_line(
    args: tuple[str, ...], message: str
) -> None:
    """No count fits, or two do (an automatic seat, The Last's ghost or Hund's virtual
    player, makes a 2-player trick as long as a 3-player one): exit 2, one line that
    names the counts and asks for ``--players``."""
    code, out, err = _run(*args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err
    bad_option = "same-card=bogus" in args  # then the option is the error, not the count
    assert ("give --players" in err) == (not bad_option)
