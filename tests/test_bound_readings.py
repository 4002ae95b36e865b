"""The readings the score bounds are proved under (:mod:`tricklaw.proofs.bounds.readings`),
their place in ``tricklaw verify``, and the virtual player's columns the Hund witnesses
are dealt (:func:`tricklaw.proofs.bounds.hund_plans.virtual_columns`).

* Every option of every ruleset is classified: varied alone, varied only at some player
  counts, varied only together with another, or shown unable to change a bound.
* Every reading is a valid game whose options differ from the defaults.
* ``verify`` lists a bound for each reading, with the option values in its reading
  column, and a scope's ``--option`` keeps the readings that have it.
* The virtual player's columns make its fixed rule play exactly the planned cards,
  whenever any columns do (checked against every layout of small hands).
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tier import examples

from tricklaw import verify
from tricklaw.model.cards import Card, colour_of, make_card
from tricklaw.model.rulesets import RULESETS
from tricklaw.model.rulesets import hund as hund_rules
from tricklaw.proofs import bounds
from tricklaw.proofs.bounds import BOUNDS, agrees, label, readings
from tricklaw.proofs.bounds.hund_plans import virtual_columns
from tricklaw.proofs.bounds.readings import applies, table
from tricklaw.verify.report import render

clause = pytest.mark.clause
OBLIGATIONS = (bounds.MAX, bounds.MIN)


def test_every_ruleset_has_its_bounds() -> None:
    """Each ruleset of the model has its part of the bounds layer, and no other id."""
    assert set(BOUNDS) == set(RULESETS)


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_every_option_is_classified(ruleset_id: str) -> None:
    """Each option is varied alone, or only at some counts, or only in combinations, or
    explained as unable to change a bound; integer options (round counts, targets) are
    among the last."""
    ruleset = RULESETS[ruleset_id]
    names = {s.name for s in ruleset.option_specs}
    own = table(ruleset_id)
    unchanged, only_at, combined = set(own.unchanged), set(own.only_at), set(own.combined)
    assert unchanged | only_at | combined <= names
    assert not (unchanged & only_at) and not (unchanged & combined) and not (only_at & combined)
    varied = {
        name
        for n in ruleset.player_counts
        for reading in readings(ruleset, n)
        for name, _ in reading
    }
    for spec in ruleset.option_specs:
        if spec.is_integer or spec.name in unchanged:
            assert spec.name in unchanged, f"{spec.name} is neither varied nor explained"
            assert spec.name not in varied
        else:
            assert spec.name in varied, f"{ruleset_id} {spec.name} is never varied"
    in_combinations = {name for c in own.combinations for name, _ in c.options}
    assert combined <= in_combinations


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_readings_are_games_off_the_defaults(ruleset_id: str) -> None:
    ruleset = RULESETS[ruleset_id]
    defaults = {s.name: str(s.default) for s in ruleset.option_specs}
    for n in ruleset.player_counts:
        found = readings(ruleset, n)
        assert found[0] == (), "the defaults come first"
        assert len(set(found)) == len(found)
        for reading in found[1:]:
            assert reading == tuple(sorted(reading))
            assert all(defaults[name] != value for name, value in reading)
            assert all(applies(ruleset_id, name, n) for name, _ in reading)
            ruleset.make_game(n, dict(reading))


def test_player_counts_where_an_option_can_matter() -> None:
    assert (("unused-points", "last-winner"),) in readings("the-last", 4)
    assert all(("unused-points", "last-winner") not in r for r in readings("the-last", 3))
    assert any(("ghost-play", "first-legal") in r for r in readings("the-last", 2))
    assert all(("ghost-play", "first-legal") not in r for r in readings("the-last", 5))
    odd = (("more-cards", "yes"), ("virtual-odd", "extra-up"))
    assert odd in readings("hund", 2)
    assert odd not in readings("hund", 3)


def test_labels_show_the_option_values() -> None:
    assert label(()) == "default"
    assert label((("deck", "full"), ("follow", "must-follow"))) == "deck=full, follow=must-follow"


def test_a_scope_option_keeps_the_readings_that_have_it() -> None:
    """``--option unused-points=last-winner`` keeps that reading only; an option that
    cannot change a bound (the number of rounds) keeps every reading."""
    last = RULESETS["the-last"]
    chosen = [r for r in readings(last, 4) if agrees(last, r, 4, {"unused-points": "last-winner"})]
    assert chosen == [(("unused-points", "last-winner"),)]
    assert all(agrees(last, r, 4, {"rounds": "3"}) for r in readings(last, 4))
    assert all(agrees(last, r, 3, {"unused-points": "last-winner"}) for r in readings(last, 3)), (
        "with three players the option cannot change a bound, so it keeps every reading"
    )


@pytest.mark.slow
@clause("LAST-D-UNUSED", "LAST-D-LASTPLAY", "LAST-D-GHOSTSEAT", "LAST-D-ROUNDS")
def test_verify_lists_a_bound_for_every_reading() -> None:
    """``tricklaw verify the-last --players 4`` proves both bounds under the defaults,
    ``unused-points=last-winner`` and ``last-play=free``, checks them against the file
    checked in, and shows the reading and the options no bound is varied over."""
    results = verify.collect(verify.Scope("the-last", 4))
    shown = {
        (r.obligation, r.reading, r.status) for r in results if r.obligation.startswith("score")
    }
    assert shown == {
        (name, reading, "proved")
        for name in (bounds.MAX, bounds.MIN)
        for reading in ("default", "unused-points=last-winner", "last-play=free")
    }
    checked = [(r.players, r.status) for r in results if r.obligation == "bounds-artifact"]
    assert checked == [("4", "pass")], "the bounds proved are the ones checked in"
    out = io.StringIO()
    render(results, out)
    text = out.getvalue()
    assert "unused-points=last-winner" in text
    assert "ghost-seat" in text and "not varied" in text
    fixed = verify.collect(verify.Scope("the-last", 4, {"unused-points": "last-winner"}))
    readings_shown = {r.reading for r in fixed if r.obligation in OBLIGATIONS}
    assert readings_shown == {"unused-points=last-winner"}
    assert [r.status for r in fixed if r.obligation == "bounds-artifact"] == ["pass"]


# --- the virtual player's columns ---------------------------------------------------------


def simulate(downs: Sequence[Card], ups: Sequence[Card], leads: Sequence[int | None]) -> list[Card]:
    """What the virtual player's fixed rule plays from rows ``downs`` and ``ups``
    (column ``i``: ``ups[i]`` on ``downs[i]``, as the model deals them) in tricks led in
    ``leads`` (None: it leads), by the model's own functions (HUND-TWO-4..6)."""
    width = max(len(downs), len(ups))
    columns: tuple[tuple[Card | None, Card | None], ...] = tuple(
        (ups[i] if i < len(ups) else None, downs[i] if i < len(downs) else None)
        for i in range(width)
    )
    played = []
    for lead in leads:
        trick = [] if lead is None else [make_card(lead, 31)]
        card = hund_rules.virtual_card(columns, trick)
        played.append(card)
        columns = tuple((None if up == card else up, down) for up, down in columns)
        columns = hund_rules.reveal(columns)
    return played


def any_layout(plays: Sequence[Card], leads: Sequence[int | None], downs: int) -> bool:
    """Whether some rows make the rule play ``plays`` (every layout tried)."""
    for order in itertools.permutations(plays):
        if simulate(order[:downs], order[downs:], leads) == list(plays):
            return True
    return False


@st.composite
def virtual_cases(draw: st.DrawFn) -> tuple[list[Card], list[int | None], int]:
    size = draw(st.integers(2, 6))
    cards = draw(
        st.lists(
            st.tuples(st.integers(0, 2), st.integers(1, 9)),
            min_size=size,
            max_size=size,
            unique=True,
        )
    )
    plays = [make_card(c, v) for c, v in cards]
    leads = [draw(st.one_of(st.none(), st.integers(0, 2), st.just(colour_of(p)))) for p in plays]
    downs = draw(st.sampled_from(sorted({size // 2, size - size // 2})))
    return plays, leads, downs


@clause("HUND-TWO-2", "HUND-TWO-4", "HUND-TWO-5", "HUND-TWO-6", "HUND-D-VIRTUALODD")
@settings(max_examples=examples(150))
@given(virtual_cases())
def test_virtual_columns_play_the_plan_exactly_when_possible(
    case: tuple[list[Card], list[int | None], int],
) -> None:
    plays, leads, downs = case
    rows = virtual_columns(plays, leads, downs)
    if rows is None:
        assert not any_layout(plays, leads, downs)
        return
    down_row, up_row = rows
    assert (len(down_row), len(up_row)) == (downs, len(plays) - downs)
    assert sorted(down_row + up_row) == sorted(plays)
    assert simulate(down_row, up_row, leads) == plays


def test_virtual_columns_refuse_an_impossible_plan() -> None:
    """Going off-suit at the first trick, the virtual player shows no red card, so both
    reds lie face down; the second red turns up only after the last yellow is played,
    too late for the third trick."""
    r1, r2, y1, y2 = (make_card(c, v) for c, v in ((0, 1), (0, 2), (1, 1), (1, 2)))
    assert virtual_columns([y1, r1, r2, y2], [0, 0, 0, 0], 2) is None
    assert not any_layout([y1, r1, r2, y2], [0, 0, 0, 0], 2)
