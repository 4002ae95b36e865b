"""Issue 14, parts 3-5: every reading declared, sound symmetry reductions, and the model
held to the relaxations its score bounds are proved over; each with a planted bug that
the new check catches."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from planted import run_planted

from tricklaw.model import get_ruleset
from tricklaw.model.cards import Card
from tricklaw.model.rulesets import lowhigh
from tricklaw.model.state import Game
from tricklaw.model.trick import TrickResult
from tricklaw.proofs import (
    declared_readings,
    model_rule_checks,
    round_rule_checks,
    rule_coverage,
    symmetries,
    trick_obligations,
)
from tricklaw.proofs.bounds import held
from tricklaw.proofs.combinations import option_variants, pairwise_variants
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.plays import PLAYS
from tricklaw.proofs.round_rules import ROUND_RULES
from tricklaw.proofs.solver import COUNTEREXAMPLE, PROVED

clause = pytest.mark.clause
TIMEOUT = 30_000


def by_rule(ruleset_id: str, players: int) -> dict[str, Any]:
    found = declared_readings.results(get_ruleset(ruleset_id), players, {}, TIMEOUT)
    return {r.obligation.rsplit(" ", 1)[-1]: r for r in found}


# --- part 3: every reading declared ------------------------------------------------------


@clause("LH-D-SAMECARD")
def test_lowhigh_declares_same_card_and_the_check_passes() -> None:
    rows = by_rule("lowhigh", 3)
    assert set(rows) == {"judge", "playable", "score"}
    assert all(r.status == "pass" for r in rows.values()), rows
    assert "same-card" in rows["judge"].detail
    assert "same-card" in ENCODINGS["lowhigh"].readings


@clause("LH-D-SAMECARD")
def test_a_reading_left_undeclared_fails_with_the_trick_that_shows_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ENCODINGS["lowhigh"], "readings", ())
    judge = by_rule("lowhigh", 3)["judge"]
    assert judge.status == "fail"
    assert judge.witness["option"] == "same-card"
    values = {card[1:] for card in judge.witness["trick"]}
    assert len(values) == 1  # every card shows one number: the disputed trick


def test_a_judge_reading_an_undeclared_option_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A model whose judge reads ``first-leader`` (flagged nowhere as changing a trick):
    the check finds it on the model alone, whatever ``affects_trick`` says."""
    real = lowhigh.LowHigh.judge_trick

    def judge_trick(self: Any, game: Game, cards: Sequence[Card], context: Any = None) -> Any:
        result: TrickResult = real(self, game, cards, context)
        if game.options["first-leader"] == "seat0" and cards[0] & 31 == 1:
            return TrickResult(result.cards, 0, ((0, result.cards),), (), result.clauses)
        return result

    monkeypatch.setattr(lowhigh.LowHigh, "judge_trick", judge_trick)
    judge = by_rule("lowhigh", 4)["judge"]
    assert judge.status == "fail"
    assert judge.witness["option"] == "first-leader"
    assert "first-leader" in judge.detail


@pytest.mark.slow
@clause("HUND-D-TRUMPTIMING")
def test_hund_declares_trump_timing_its_decks_and_names_what_it_does_not_encode() -> None:
    rows = by_rule("hund", 3)
    assert all(r.status == "pass" for r in rows.values()), rows
    cls = ENCODINGS["hund"]
    assert "trump-timing" in cls.readings
    assert set(cls.deck_readings) == {"more-cards", "values"}
    assert "NOT ENCODED: designation-mode" in rows["judge"].detail


@pytest.mark.slow
def test_a_deck_option_is_not_excused_when_it_changes_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``deck_readings`` covers a change of the deck only: an option declared there that
    changes the answer on a trick of both decks still fails."""
    cls = ENCODINGS["hund"]
    monkeypatch.setattr(cls, "readings", ())
    monkeypatch.setattr(cls, "deck_readings", ("more-cards", "values", "trump-timing"))
    judge = by_rule("hund", 3)["judge"]
    assert judge.status == "fail"
    assert judge.witness["option"] == "trump-timing"


def test_the_trick_obligations_run_under_each_declared_reading_and_deck() -> None:
    from tricklaw.proofs.combinations import with_deck_variants

    hund = get_ruleset("hund")
    cls = ENCODINGS["hund"]
    combos = with_deck_variants(hund, cls.readings, cls.deck_readings)
    assert {c["trump-timing"] for c in combos} == {"whole-trick", "from-card", "next-trick"}
    assert {"trump-timing": "whole-trick", "more-cards": "yes"} in combos
    assert {"trump-timing": "whole-trick", "values": "from-0"} in combos
    assert len(combos) == 5
    fixed = with_deck_variants(hund, cls.readings, cls.deck_readings, {"values": "from-0"})
    assert all(c["values"] == "from-0" for c in fixed)


# --- part 5: sound reductions ----------------------------------------------------------


@pytest.mark.slow
@clause("HUND-DESIG-2")
def test_hund_declares_no_order_type_reduction_and_z3_shows_why() -> None:
    rows = {
        r.obligation: r for r in symmetries.symmetry_results(get_ruleset("hund"), 2, {}, TIMEOUT)
    }
    order = rows["symmetry order-type"]
    assert order.status == "pass" and "does not hold" in order.detail
    assert "designation" in order.witness["context"]
    colour = rows["symmetry colour-renaming"]
    assert colour.status == PROVED
    assert "fixing colour" in colour.detail  # the trump suit is kept


@pytest.mark.slow
def test_a_declared_symmetry_that_does_not_hold_is_a_counterexample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cls = ENCODINGS["hund"]
    monkeypatch.setattr(cls, "order_only", True)
    monkeypatch.setattr(cls, "fixed_colours", lambda self: ())
    rows = {
        r.obligation: r for r in symmetries.symmetry_results(get_ruleset("hund"), 2, {}, TIMEOUT)
    }
    assert rows["symmetry order-type"].status == COUNTEREXAMPLE
    colour = rows["symmetry colour-renaming"]
    assert colour.status == COUNTEREXAMPLE
    assert "'trump': " in colour.witness["context"]  # renaming the trump suit


@pytest.mark.slow
def test_a_model_judge_that_favours_a_colour_fails_the_model_side_test(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = lowhigh.LowHigh.judge_trick

    def judge_trick(self: Any, game: Game, cards: Sequence[Card], context: Any = None) -> Any:
        result: TrickResult = real(self, game, cards, context)
        if cards[0] >> 5 == 0 and cards[-1] >> 5 == 1 and result.winner != 0:
            moved = TrickResult(result.cards, 0, ((0, result.cards),), (), result.clauses)
            return moved
        return result

    monkeypatch.setattr(lowhigh.LowHigh, "judge_trick", judge_trick)
    rows = {
        r.obligation: r for r in symmetries.symmetry_results(get_ruleset("lowhigh"), 3, {}, TIMEOUT)
    }
    colour = rows["symmetry colour-renaming"]
    assert colour.status == COUNTEREXAMPLE
    assert "model" in colour.witness


@pytest.mark.slow
def test_every_shipped_declared_symmetry_is_proved() -> None:
    for ruleset_id in ("sticheln", "the-last", "lowhigh"):
        ruleset = get_ruleset(ruleset_id)
        found = symmetries.symmetry_results(ruleset, ruleset.player_counts[0], {}, TIMEOUT)
        assert [r.status for r in found] == [PROVED, PROVED], found


def canonical(pattern: Sequence[int], colours: int, fixed: Sequence[int]) -> tuple[int, ...]:
    """The pattern with its free colours renamed in order of first appearance."""
    free = [c for c in range(colours) if c not in fixed]
    names: dict[int, int] = {}
    out = []
    for c in pattern:
        if c not in fixed and c not in names:
            names[c] = free[len(names)]
        out.append(c if c in fixed else names[c])
    return tuple(out)


@pytest.mark.parametrize("fixed", [(), (0,), (2,), (1, 3)])
def test_colour_patterns_are_one_per_class_of_renamings_keeping_the_fixed(
    fixed: tuple[int, ...],
) -> None:
    got = list(trick_obligations.colour_patterns(4, 5, fixed))
    classes = {canonical(p, 5, fixed) for p in itertools.product(range(5), repeat=4)}
    assert len(got) == len(set(got)) == len(classes)
    assert {canonical(p, 5, fixed) for p in got} == classes


# --- part 4: the model held to the relaxations ---------------------------------------


def test_the_model_rounds_lie_inside_lowhighs_relaxations() -> None:
    found = held.held_results(get_ruleset("lowhigh"), 3, {}, TIMEOUT)
    assert {r.reading for r in found} == {"default", "same-card=among-rest"}
    assert all(r.status == "pass" for r in found), found
    assert all("witnesses" in r.detail for r in found)


@pytest.mark.slow
@clause("LH-SCORE-2")
def test_a_shifted_scoring_threshold_is_a_counterexample_naming_the_round(tmp_path: Path) -> None:
    """Face values for up to three cards of a colour instead of two: the bound is still
    "proved" over the relaxation, but the model's rounds fall outside it. Planted in a
    plain copy of the package (:mod:`planted`), so a compiled install sees it too."""
    found = run_planted(
        tmp_path,
        """
        import json
        from tricklaw.model import get_ruleset
        from tricklaw.model.rulesets import lowhigh
        from tricklaw.proofs.bounds import held

        def score(cards):
            total = 0
            for colour in {c >> 5 for c in cards}:
                values = [c & 31 for c in cards if c >> 5 == colour]
                total += sum(values) if len(values) <= 3 else len(values)
            return total

        lowhigh.score = score
        found = held.held_results(get_ruleset("lowhigh"), 3, {}, 30_000)
        print(json.dumps([[r.status, r.detail, r.witness] for r in found]))
        """,
    )
    assert found and all(status == COUNTEREXAMPLE for status, _, _ in found), found
    assert "seed" in found[0][2]["round"]
    assert "outside" in found[0][1]


# --- part 4: the rules of a finished round, and who covers each rule function ------------


def rule_rows(ruleset_id: str, players: int) -> dict[tuple[str, str], Any]:
    found = round_rule_checks.rule_results(get_ruleset(ruleset_id), players, {}, TIMEOUT)
    return {(r.obligation, r.reading): r for r in found}


@pytest.mark.slow
@clause("HUND-D-LEADTIE")
def test_hunds_lead_decider_is_the_rules_on_sampled_rounds() -> None:
    rows = {k: r for k, r in rule_rows("hund", 2).items() if k[0] == "rule lead-decider"}
    assert {reading for _, reading in rows} == {"lead-tie=nobody", "lead-tie=earliest"}
    for row in rows.values():
        assert row.status == "pass", row
        assert {"HUND-POWER-5", "HUND-GAP-6", "HUND-D-LEADTIE"} <= set(row.clauses)


@pytest.mark.slow
@clause("HUND-POWER-5")
def test_a_lead_decider_that_breaks_ties_the_wrong_way_is_caught(tmp_path: Path) -> None:
    """Under ``earliest``, the tied seat *last* in play order decides (planted in a plain
    copy of the package, :mod:`planted`)."""
    bad = run_planted(
        tmp_path,
        """
        import json
        from tricklaw.model import get_ruleset
        from tricklaw.model.rulesets.hund import ruleset as hund_ruleset
        from tricklaw.proofs import round_rule_checks

        real = hund_ruleset.lead_decider

        def reversed_tie(taken, holders, rules, **kw):
            flipped = {**kw, "seating": tuple(reversed(kw["seating"]))}
            return real(taken, holders, rules, **flipped)

        hund_ruleset.lead_decider = reversed_tie
        rows = round_rule_checks.rule_results(get_ruleset("hund"), 4, {}, 30_000)
        bad = [r for r in rows if (r.obligation, r.reading)
               == ("rule lead-decider", "lead-tie=earliest")][0]
        print(json.dumps([bad.status, bad.witness]))
        """,
    )
    assert bad[0] == COUNTEREXAMPLE
    assert "seed" in bad[1]["round"] and bad[1]["model"] != bad[1]["rule"]


@pytest.mark.slow
@clause("HUND-POWER-5")
def test_a_lead_decider_that_names_a_seat_when_lead_went_to_no_suit_is_caught(
    tmp_path: Path,
) -> None:
    """Lead goes to no suit only when two designation sets may name one suit, an option
    the rule does not read: the rounds of that variant carry the case (planted: seat 0
    decides then)."""
    bad = run_planted(
        tmp_path,
        """
        import json
        from tricklaw.model import get_ruleset
        from tricklaw.model.rulesets.hund import ruleset as hund_ruleset
        from tricklaw.proofs import round_rule_checks

        real = hund_ruleset.lead_decider

        def seat_zero(taken, holders, rules, **kw):
            return 0 if len(holders) <= 4 else real(taken, holders, rules, **kw)

        hund_ruleset.lead_decider = seat_zero
        rows = round_rule_checks.rule_results(get_ruleset("hund"), 3, {}, 30_000)
        lead = [r for r in rows if r.obligation == "rule lead-decider"]
        print(json.dumps([[r.status, r.witness] for r in lead]))
        """,
    )
    assert {status for status, _ in bad} == {COUNTEREXAMPLE}
    assert all("set-suits=any" in witness["round"] for _, witness in bad), bad


def test_a_case_no_sampled_round_meets_fails_the_rule() -> None:
    """Drawn under the defaults alone, no Hund round leaves Lead unassigned: the case of
    HUND-POWER-5 is unchecked, and the row says so instead of passing."""
    hund = get_ruleset("hund")
    (rule,) = [r for r in ROUND_RULES.get("hund", ()) if r.name == "lead-decider"]
    game = hund.make_game(3, {"lead-tie": "nobody"})
    status, detail, witness, _ = round_rule_checks.check_rule(rule, [("defaults", game)], TIMEOUT)
    assert status == "fail"
    assert "HUND-POWER-5" in detail and "assigned == 0" in detail
    assert witness["unmet"] == [u for u in witness["unmet"] if u.startswith("HUND-POWER-5")]


def test_rule_rounds_vary_every_option_the_rule_does_not_read() -> None:
    hund = get_ruleset("hund")
    game = hund.make_game(3, {"lead-tie": "nobody"})
    labels = [label for label, _ in option_variants(hund, game, {"lead-tie"})]
    assert labels[0] == "defaults"
    assert "designation-mode=sets, set-suits=any" in labels
    assert not any("lead-tie" in label for label in labels)
    # a sub-option whose parent value is fixed otherwise changes nothing: not varied
    fixed = option_variants(hund, game, {"lead-tie", "designation-mode"})
    assert not any("set-suits" in label for label, _ in fixed)
    sets = hund.make_game(3, {"lead-tie": "nobody", "designation-mode": "sets"})
    fixed = option_variants(hund, sets, {"lead-tie", "designation-mode"})
    assert "set-suits=any" in [label for label, _ in fixed]


@pytest.mark.parametrize(
    ("ruleset_id", "players", "fixed"),
    [
        ("hund", 2, ()),
        ("hund", 4, ("lead-tie",)),
        ("hund", 3, ("designation-mode",)),
        ("the-last", 3, ()),
        ("sticheln-1993", 5, ()),
        ("lowhigh", 3, ()),
    ],
)
def test_the_pairwise_games_give_every_pair_of_two_options_readings(
    ruleset_id: str, players: int, fixed: tuple[str, ...]
) -> None:
    """Every pair of readings of two options not fixed is played together in the game,
    one option at a time, or one of the pairwise games that add what those leave out,
    each reading with the values it acts with; no fixed option is varied; and there are
    far fewer games than combinations (Hund: 18,432)."""
    ruleset = get_ruleset(ruleset_id)
    game = ruleset.make_game(players)
    games = [g for _, g in option_variants(ruleset, game, set(fixed))]
    played = [g.options.as_dict() for g in games]
    games += [g for _, g in pairwise_variants(ruleset, game, set(fixed), played)]
    specs = [s for s in ruleset.option_specs if s.choices and s.name not in fixed]
    base = game.options.as_dict()

    def acts(options: dict[str, Any], name: str) -> bool:
        spec = next(s for s in specs if s.name == name)
        return options[name] == base[name] or all(options[k] == v for k, v in spec.acts_with)

    missing = []
    for a, b in itertools.combinations(specs, 2):
        for x, y in itertools.product(a.choices, b.choices):
            meant = {**base, a.name: x, b.name: y}
            if not (acts(meant, a.name) and acts(meant, b.name)):
                continue  # a sub-option's reading beside a parent value it does not act with
            if not any(
                g.options[a.name] == x
                and g.options[b.name] == y
                and acts(g.options.as_dict(), a.name)
                and acts(g.options.as_dict(), b.name)
                for g in games
            ):
                missing.append((a.name, x, b.name, y))
    assert missing == []
    assert all(g.options[name] == base[name] for g in games for name in fixed)
    assert len(games) <= 24
    alone = [g for _, g in pairwise_variants(ruleset, game, set(fixed))]
    labels = [label for label, _ in pairwise_variants(ruleset, game, set(fixed), played)]
    assert labels == [label for label, _ in pairwise_variants(ruleset, game, set(fixed), played)]
    assert len(alone) <= 16 and len(labels) < len(alone)  # fewer where pairs are played


def test_state_rules_are_sampled_under_every_option_they_do_not_read_too() -> None:
    hund = get_ruleset("hund")
    game = hund.make_game(3, {"lead-tie": "nobody"})
    games = option_variants(hund, game, {"lead-tie"})
    options = {}
    for name, sampled, _ in model_rule_checks.variant_samples(games):
        label = name.partition(": seed")[0] if ": seed" in name else "defaults"
        options[label] = sampled.options.as_dict()
    assert options["defaults"] == game.options.as_dict()
    assert options["designation-mode=sets, set-suits=any"]["set-suits"] == "any"
    assert set(options) == {label for label, _ in games}


@pytest.mark.slow
@clause("LAST-GHOST-6")
def test_a_ghost_that_scores_is_caught(tmp_path: Path) -> None:
    assert all(r.status == "pass" for r in rule_rows("the-last", 2).values())
    bad = run_planted(
        tmp_path,
        """
        import json
        from tricklaw.model import get_ruleset
        from tricklaw.model.rulesets.the_last import ruleset as last_ruleset
        from tricklaw.proofs import round_rule_checks

        real = last_ruleset.penalty
        # the ghost's points counted
        last_ruleset._scores = lambda game, taken: tuple(real(cards) for cards in taken)
        rows = round_rule_checks.rule_results(get_ruleset("the-last"), 2, {}, 30_000)
        bad = [r for r in rows if (r.obligation, r.reading)
               == ("rule ghost-score", "default")][0]
        print(json.dumps([bad.status, bad.witness]))
        """,
    )
    assert bad[0] == COUNTEREXAMPLE and bad[1]["model"] != 0


def test_rule_functions_are_listed_from_the_model_with_their_clauses() -> None:
    names = {f.name: f.clauses for f in rule_coverage.rule_functions(get_ruleset("hund"))}
    assert "HUND-POWER-5" in names["lead_decider"]
    assert {"HUND-POWER-2", "HUND-POWER-3", "HUND-POWER-4"} <= set(names["round_score"])
    last = {f.name for f in rule_coverage.rule_functions(get_ruleset("the-last"))}
    assert "TheLast.round_scores" in last


def test_a_rule_function_no_model_check_cites_is_uncovered() -> None:
    from tricklaw.proofs.results import Result

    hund = get_ruleset("hund")
    only = [Result("rule lead-decider", "hund", "3", "default", "pass", 0.0, ("HUND-POWER-5",))]
    (row,) = rule_coverage.coverage_results([hund], only, complete=True, strict=True)
    table = row.witness["functions"]
    assert table["lead_decider"] == ["rule lead-decider"]
    assert table["round_score"] == []  # nothing here checks the score
    assert row.status == "fail" and "round_score" in row.detail
    # An obligation that does not run the model (a trick obligation) covers nothing.
    other = [Result("coverage", "hund", "3", "default", "proved", 0.0, ("HUND-POWER-2",))]
    (row,) = rule_coverage.coverage_results([hund], other, complete=True, strict=True)
    assert row.witness["functions"]["round_score"] == []


@clause("LH-DEAL-1")
def test_the_hand_at_the_first_play_is_the_play_encodings(monkeypatch: pytest.MonkeyPatch) -> None:
    lowhigh_rules = get_ruleset("lowhigh")
    (row,) = round_rule_checks.first_hand_results(lowhigh_rules, 3, {}, TIMEOUT)
    assert row.status == "pass" and row.clauses == ("LH-DEAL-1",)
    monkeypatch.setattr(PLAYS["lowhigh"], "first_hand", lambda self: (14, "LH-DEAL-1"))
    (row,) = round_rule_checks.first_hand_results(lowhigh_rules, 3, {}, TIMEOUT)
    assert row.status == COUNTEREXAMPLE and row.witness["hands"] == [15, 15, 15]


def test_a_deck_clause_the_model_does_not_deal_is_a_counterexample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hund = get_ruleset("hund")
    (row,) = round_rule_checks.deck_results(hund, 4, {}, TIMEOUT)
    assert row.status == "pass" and "HUND-OPT-1" in row.clauses  # the more-cards deck too
    real = ENCODINGS["hund"].deck_table

    def one_short(self: Any) -> tuple[int, range, str]:
        colours, values, clause = real(self)
        return colours, range(values.start, values.stop - 1), clause

    monkeypatch.setattr(ENCODINGS["hund"], "deck_table", one_short)
    (row,) = round_rule_checks.deck_results(hund, 4, {}, TIMEOUT)
    assert row.status == COUNTEREXAMPLE and row.witness["cards"][0].startswith("model only")
