"""Picks by place (first, last, leftmost) in the tie and gap detector
(tricklaw.proofs.ties): they are marked in every registry, a tie on a place is reported
as true by construction (trivial, with its documented reason), never as proved; a row
pick is checked for the case with no candidate; and a planted pick by place that can tie
fails verify until it is a recorded dispute with readings, a default and an option."""

from __future__ import annotations

import dataclasses
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import z3

from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.model.state import Game, RoundLog
from tricklaw.proofs import ties
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.quantities import (
    TIES,
    CardQuantity,
    Frame,
    PlayerQuantity,
    RowQuantity,
    per_round,
    play_order,
)
from tricklaw.proofs.results import fails
from tricklaw.spec import Pick, load_registry, parse_registry

clause = pytest.mark.clause

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

TIMEOUT = 30_000

PLACES = {"first", "last"}


def _rows(ruleset: str, players: int, clause: str) -> list[Any]:
    results = ties.ties(get_ruleset(ruleset), (players,), {}, TIMEOUT, complete=False)
    return [r for r in results if r.obligation.split()[1] == clause]


# --- the registries ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "clause", "by"),
    [
        ("sticheln-1993", "STI93-TRICK-1", "first"),  # the start card
        ("sticheln-1993", "STI93-TRICK-6", "first"),  # equal trumps: the one played first
        ("sticheln", "STI-TRICK-5", "first"),  # the card that starts a trick
        ("sticheln", "STI-TRICK-3", "first"),  # the earliest-played of the tied
        ("the-last", "LAST-PLAY-2", "first"),  # the colour of the first card
        ("the-last", "LAST-PLAY-3", "last"),  # the last player
        ("the-last", "LAST-TRICK-2", "last"),  # the last player's card sets the colour
        ("lowhigh", "LH-PLAY-2", "first"),  # the colour of the first card
        ("lowhigh", "LH-TRICK-2", "last"),  # the copy played latest
        ("hund", "HUND-PLAY-2", "first"),  # the suit of the trick's first card
        ("hund", "HUND-DESIG-2", "first"),  # the first card showing the number
        ("hund", "HUND-TWO-4", "first"),  # the leftmost face-up card it may play
        ("hund", "HUND-TWO-5", "first"),  # the leftmost face-up card of the lead suit
    ],
)
def test_every_pick_by_place_is_marked(ruleset: str, clause: str, by: str) -> None:
    picks = next(c.picks for c in load_registry(ruleset).clauses if c.id == clause)
    assert by in {p.by for p in picks}
    quantities = TIES[ruleset]
    assert all(p.quantity in quantities for p in picks)


def test_every_pick_by_place_has_a_documented_reason() -> None:
    """A tie on a place is impossible by construction; the quantity says why, so that a
    trivial row is documented rather than failing (or passing as proved)."""
    for rid in RULESETS:
        for c in load_registry(rid).clauses:
            for p in c.picks:
                if p.by in PLACES:
                    q = TIES[rid][p.quantity]
                    assert isinstance(q, CardQuantity | RowQuantity), (rid, c.id)
                    assert q.hollow, (rid, c.id, p.quantity)


# --- HUND-DESIG-2 -----------------------------------------------------------------------------


@pytest.mark.slow
def test_hund_s_designation_order_is_trivial_not_vacuous() -> None:
    """The contexts with no designated number never apply the clause (vacuous); those with
    one make the tie impossible by construction (trivial). The row is trivial, with the
    reason; before, it took the first context's answer and came out vacuous."""
    game = get_ruleset("hund").make_game(3)
    cls = ENCODINGS["hund"]
    q = TIES["hund"]["designation-order"]
    assert isinstance(q, CardQuantity)
    pick = Pick("card", "first", "designation-order")
    statuses = {
        ctx["designation"] is None: ties.card_tie(cls(game, ctx), "HUND-DESIG-2", q, pick, 100)
        for ctx in cls.contexts(game)
    }
    assert statuses[True].status == "vacuous" and statuses[False].status == "trivial"
    rows = _rows("hund", 3, "HUND-DESIG-2")
    assert rows and {r.status for r in rows} == {"trivial"}
    assert all(r.expected == q.hollow and not fails(r) for r in rows)


@pytest.mark.slow
def test_a_pick_that_never_applies_stays_vacuous_and_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The aggregation keeps a row vacuous when every context is: a quantity whose clause
    never applies is not turned into anything better."""
    never = CardQuantity(
        lambda enc: [z3.BoolVal(True)] * enc.size, play_order, lambda enc: z3.BoolVal(False)
    )
    monkeypatch.setattr(ties, "TIES", {"hund": {**TIES["hund"], "designation-order": never}})
    rows = _rows("hund", 3, "HUND-DESIG-2")
    assert rows and {r.status for r in rows} == {"vacuous"} and all(fails(r) for r in rows)


# --- the virtual player's row (HUND-TWO-4/5): places and candidates ---------------------------


@pytest.mark.slow
def test_the_virtual_player_always_has_a_card_to_pick() -> None:
    rows = _rows("hund", 2, "HUND-TWO-4")
    tie = next(r for r in rows if r.obligation.startswith("tie "))
    assert tie.status == "trivial" and tie.expected and not fails(tie)
    cand = next(r for r in rows if r.obligation.startswith("pick-candidate "))
    # A theorem from the columns' shape: as dealt, or after the reveal of HUND-TWO-6.
    assert cand.status == "proved" and "HUND-TWO-6" in cand.clauses
    lead = next(r for r in _rows("hund", 2, "HUND-TWO-5") if "candidate" in r.obligation)
    assert lead.status == "trivial" and lead.expected  # it applies only when one is shown


def _without_reveal(q: RowQuantity) -> RowQuantity:
    """The row with HUND-TWO-6 and the dealt shapes struck out: any columns at all."""

    def frame(game: Game) -> Frame:
        f = q.frame(game)
        kept = tuple(t for t in f.premises if t.clause not in {"HUND-TWO-6", "HUND-D-VIRTUALODD"})
        return dataclasses.replace(f, premises=kept)

    return dataclasses.replace(q, frame=frame)


def _planted(dispute: str, option: str, clause: str, line: int) -> dict[str, Any]:
    """A planted gap dispute on ``clause`` switched by ``option`` (its readings are those
    of the model's option ``virtual-odd`` or ``tie``, as the planted use needs)."""
    values = ["extra-down", "extra-up"] if option == "virtual-odd" else ["shared", "nobody"]
    return {
        "id": dispute,
        "option": option,
        "title": "planted",
        "question": "planted: what does the text say here?",
        "kind": "gap",
        "quotes": ["every card is played"],
        "lines": [[line, line]],
        "clauses": [clause],
        "default": values[0],
        "reason": "planted",
        "found_by": ["tie"],
        "reading": [{"value": v, "summary": "planted"} for v in values],
    }


def _hund_with(monkeypatch: pytest.MonkeyPatch, change: dict[str, Any]) -> None:
    """Hund's registry with HUND-TWO-4's pick changed, and a planted dispute."""
    path = HERE.parent / "spec" / "hund.toml"
    data = tomllib.loads(path.read_text("utf-8"))
    clause = next(c for c in data["clause"] if c["id"] == "HUND-TWO-4")
    clause["picks"][0].update(change)
    dispute = _planted("HUND-D-NOCARD", "virtual-odd", "HUND-TWO-4", 33)
    data["dispute"].append(dispute | {"quotes": ["leftmost"], "default": "extra-down"})
    registry = parse_registry(data, "hund.toml")
    monkeypatch.setattr(ties, "load_registry", lambda _: registry)


@pytest.mark.slow
def test_a_row_pick_with_no_candidate_is_a_gap_until_recorded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    q = TIES["hund"]["display-place"]
    assert isinstance(q, RowQuantity)
    monkeypatch.setattr(
        ties, "TIES", {"hund": {**TIES["hund"], "display-place": _without_reveal(q)}}
    )
    _hund_with(monkeypatch, {})
    cand = next(r for r in _rows("hund", 2, "HUND-TWO-4") if "candidate" in r.obligation)
    assert cand.status == "counterexample" and fails(cand)
    assert cand.witness["shown"] == [] and "neither the text nor a dispute" in cand.detail
    _hund_with(monkeypatch, {"none": "HUND-D-NOCARD"})
    results = ties.ties(get_ruleset("hund"), (2,), {}, TIMEOUT, complete=True)
    cand = next(r for r in results if r.obligation.startswith("pick-candidate HUND-TWO-4"))
    assert (cand.status, cand.machine, cand.dispute) == ("finding", "tie", "HUND-D-NOCARD")
    assert not fails(cand)
    register = results[-1]
    assert register.obligation == "ties-register" and register.status == "pass"


# --- a new pick by place in a new text: Tiny ---------------------------------------------------


def _plays(game: Game, log: RoundLog) -> tuple[int, ...]:
    """The trick in which each player plays his last card (his count of plays)."""
    return tuple(sum(1 for s, _ in log.actions if s == seat) for seat in range(game.players))


OUT_OF_CARDS = PlayerQuantity(observe=per_round(_plays))
"""The place in the round at which each player runs out of cards: the planted clause picks
the first to do so, and every player does so in the last trick."""


def _tiny_with(monkeypatch: pytest.MonkeyPatch, pick: dict[str, str], dispute: Any) -> None:
    data = tomllib.loads((HERE / "tiny" / "spec" / "tiny.toml").read_text("utf-8"))
    data["clause"].append(
        {
            "id": "TINY-NEXT-1",
            "kind": "game",
            "summary": "The first player to run out of cards deals the next game.",
            "lines": [[16, 16]],
            "picks": [{"what": "player", "by": "first", "quantity": "out-of-cards", **pick}],
        }
    )
    if dispute is not None:
        data["dispute"].append(dispute)
    registry = parse_registry(data, "tiny.toml")
    monkeypatch.setattr(ties, "load_registry", lambda _: registry)
    monkeypatch.setattr(ties, "TIES", {"tiny": {**TIES["tiny"], "out-of-cards": OUT_OF_CARDS}})


def _dispute(option: str) -> dict[str, Any]:
    return _planted("TINY-D-NEXT", option, "TINY-NEXT-1", 16)


def _next_rows(players: int) -> tuple[list[Any], Any]:
    results = ties.ties(get_ruleset("tiny"), (players,), {}, TIMEOUT, complete=True)
    return [r for r in results if "TINY-NEXT-1" in r.obligation], results[-1]


def test_a_new_pick_by_place_that_can_tie_fails_verify_until_it_is_a_dispute(
    registered: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pick by place CAN tie where places are shared: here every player runs out in
    the same trick. Unmarked tie: fails; a dispute without a switch: fails; a dispute with
    readings, a default and an option of the model: a finding that passes."""
    _tiny_with(monkeypatch, {}, None)
    rows, _ = _next_rows(2)
    assert [r.status for r in rows] == ["counterexample"] and fails(rows[0])
    values = rows[0].witness["values"]
    assert len(values) == 2 and values[0] == values[1]

    _tiny_with(monkeypatch, {"tie": "TINY-D-NEXT"}, _dispute(""))
    rows, _ = _next_rows(3)
    assert rows[0].status == "counterexample" and "without a switch" in rows[0].detail

    _tiny_with(monkeypatch, {"tie": "TINY-D-NEXT"}, _dispute("tie"))
    rows, register = _next_rows(2)
    assert (rows[0].status, rows[0].machine, rows[0].dispute) == ("finding", "tie", "TINY-D-NEXT")
    assert not fails(rows[0]) and register.status == "pass"


def test_a_new_pick_by_place_that_cannot_tie_needs_no_dispute(
    registered: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same clause over places that are distinct by construction (a card's place in
    the trick): trivial with the documented reason, and a dispute named for it is stale."""
    order = CardQuantity(lambda enc: [z3.BoolVal(True)] * enc.size, play_order, hollow="distinct")
    _tiny_with(monkeypatch, {"tie": "TINY-D-NEXT", "what": "card"}, _dispute("tie"))
    monkeypatch.setattr(ties, "TIES", {"tiny": {**TIES["tiny"], "out-of-cards": order}})
    rows, register = _next_rows(3)
    assert [r.status for r in rows] == ["trivial"] and rows[0].expected == "distinct"
    assert register.status == "fail" and "TINY-D-NEXT" in register.detail


# --- the youngest player (STI-LEAD-1) ---------------------------------------------------------


@clause("STI-LEAD-1", "STI-D-AGETIE")
def test_the_youngest_player_can_tie_and_the_text_is_silent() -> None:
    """Found by Z3 from the players' ages (the model numbers the seats from the youngest
    and never compares ages): two players of one age, the youngest."""
    rows = _rows("sticheln", 4, "STI-LEAD-1")
    assert [(r.status, r.machine, r.dispute) for r in rows] == [("finding", "tie", "STI-D-AGETIE")]
    ages = sorted(rows[0].witness["values"])
    assert ages[0] == ages[1] and "no switch" in rows[0].detail
