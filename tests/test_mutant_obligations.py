"""The obligations added to kill the mutation survivors (issue 14, part 6), and the
harness's judgement of a run: the game's winners held to the winner clause under every
tie reading (``rule game-winner``, :mod:`tricklaw.proofs.winner_rule`), lowhigh's start
player held to the ``first-leader`` reading (``rule round-start``), the self-check's
bounded games, and how a killed mutant was killed (kinds, the time limit, the strict
score).

The planted bugs run in a plain copy of the package (:mod:`planted`) or on a plain
subclass of the plug-in game, so they hold on a compiled install too.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from planted import CHECK_PLAIN, run_patched, run_planted
from tiny import model as tiny

from tricklaw.model import get_ruleset
from tricklaw.model.rulesets import RULESETS
from tricklaw.model.state import Game
from tricklaw.mutation import verdicts
from tricklaw.mutation.runner import MutantResult, summary
from tricklaw.mutation.verdicts import (
    ERROR,
    KILLED,
    SURVIVED,
    crash_kind,
    time_limit,
    timeout_is_kill,
)
from tricklaw.proofs import plain, round_rule_checks, winner_rule
from tricklaw.proofs.round_rules import ROUND_RULES, RoundRule
from tricklaw.proofs.round_rules import hund as hund_rounds
from tricklaw.proofs.solver import COUNTEREXAMPLE, Tracked
from tricklaw.spec import load_registry
from tricklaw.verify.checks import SELF_CHECK_MAX_ROUNDS, self_check

clause = pytest.mark.clause
TIMEOUT = 30_000


def _winner_rows(ruleset: Any, players: int) -> dict[str, Any]:
    return {r.reading: r for r in winner_rule.results(ruleset, players, {}, TIMEOUT)}


@pytest.mark.slow
@clause("LH-GAME-1")
def test_every_rulesets_winners_are_the_winner_clauses_under_every_tie_reading(
    registered: None,
) -> None:
    for ruleset in RULESETS.values():
        disputes = {d.id: d for d in load_registry(ruleset.id).disputes}
        found = winner_rule.winner_pick(ruleset.id)
        assert found is not None, ruleset.id
        name = disputes[found[1].tie].option
        option = next(s for s in ruleset.option_specs if s.name == name)
        for players in ruleset.player_counts:
            rows = _winner_rows(ruleset, players)
            assert set(rows) == {f"{option.name}={v}" for v in option.choices}, ruleset.id
            for row in rows.values():
                assert row.status == "proved", row
                assert row.obligation == winner_rule.OBLIGATION


class TieToNobody(tiny.Tiny):
    """Tiny with the ``tie`` reading read the wrong way round."""

    def winners(self, game: Game, totals: Any) -> tuple[int, ...]:
        tied = super(tiny.Tiny, self).winners(game, totals)
        return () if len(tied) > 1 and not tiny.rules_of(game).tie_has_no_winner else tied


class LastTiedSeat(tiny.Tiny):
    """Tiny giving a tie to the last tied seat under ``shared``."""

    def winners(self, game: Game, totals: Any) -> tuple[int, ...]:
        tied = super().winners(game, totals)
        return tied[-1:] if not tiny.rules_of(game).tie_has_no_winner else tied


@pytest.mark.skipif(
    plain.compiled_install(),
    reason="the planted Tiny classes live in the tests, outside the plain copy of tricklaw "
    "that a compiled install's symbolic execution runs; run with the editable install",
)
@pytest.mark.parametrize("planted", [TieToNobody, LastTiedSeat])
def test_a_tie_reading_implemented_wrongly_is_a_counterexample(
    registered: None, planted: type[tiny.Tiny]
) -> None:
    rows = _winner_rows(planted(), 2)
    bad = [r for r in rows.values() if r.status == COUNTEREXAMPLE]
    assert bad and bad[0].witness, rows


@pytest.mark.slow
def test_the_plain_copy_is_wholly_interpreted(tmp_path: Path) -> None:
    where, compiled = run_planted(tmp_path, CHECK_PLAIN)
    assert str(tmp_path) in where and not compiled


@pytest.mark.slow
@clause("LH-GAME-1")
def test_the_lowest_total_winning_in_a_highest_total_game_is_a_counterexample(
    tmp_path: Path,
) -> None:
    rows = run_planted(
        tmp_path,
        """
        import json
        from tricklaw.model import get_ruleset
        from tricklaw.model import ruleset as base
        from tricklaw.proofs import winner_rule

        def winners(self, game, totals):
            best = min(totals[: game.players])
            return base.break_game_tie(
                game, tuple(s for s in range(game.players) if totals[s] == best))

        base.Ruleset.winners = winners
        rows = winner_rule.results(get_ruleset("lowhigh"), 3, {}, 30_000)
        print(json.dumps([[r.status, r.witness] for r in rows]))
        """,
    )
    assert rows and all(status == COUNTEREXAMPLE for status, _ in rows)


@clause("LH-D-FIRSTLEAD")
def test_lowhighs_start_player_is_the_first_leader_readings() -> None:
    rows = round_rule_checks.rule_results(get_ruleset("lowhigh"), 4, {}, TIMEOUT)
    starts = {r.reading: r for r in rows if r.obligation == "rule round-start"}
    assert set(starts) == {"first-leader=rotate", "first-leader=seat0"}
    assert all(r.status == "pass" for r in starts.values()), starts


@pytest.mark.slow
@clause("LH-D-FIRSTLEAD")
def test_the_first_leader_reading_swapped_is_a_counterexample(tmp_path: Path) -> None:
    """The surviving mutant of session 6: ``== "rotate"`` as ``!= "rotate"``."""
    rows = run_planted(
        tmp_path,
        """
        import json
        from tricklaw.model import get_ruleset
        from tricklaw.model.rulesets import lowhigh
        from tricklaw.proofs import round_rule_checks

        real = lowhigh.LowHigh.compile

        def compile(self, options):
            rules = real(self, options)
            return lowhigh.Rules(rules.lowest_among_rest, not rules.rotate_leader, rules.rounds)

        lowhigh.LowHigh.compile = compile
        rows = round_rule_checks.rule_results(get_ruleset("lowhigh"), 3, {}, 30_000)
        print(json.dumps([[r.obligation, r.status, r.witness] for r in rows]))
        """,
    )
    starts = [row for row in rows if row[0] == "rule round-start"]
    assert len(starts) == 2 and all(status == COUNTEREXAMPLE for _, status, _ in starts)
    assert all(w["inputs"]["index"] > 0 for _, _, w in starts)  # round 1 is seat 0 in both


@pytest.mark.slow
@clause("HUND-D-DESIGNATION")
def test_hunds_ascending_designation_is_held_to_its_reading(tmp_path: Path) -> None:
    """Found by the whole set's run at 0409103: ``hund.ruleset.Hund.cut.L108`` (the
    first unused number as ``left[-1]``, or the reading's test negated) was killed only
    by the published vectors, because no obligation held the ascending reading's rounds
    to their numbers. Planted here as the numbers taken from the top."""
    rows = run_planted(
        tmp_path,
        """
        import json
        from tricklaw.model import get_ruleset
        from tricklaw.model.rulesets.hund import ruleset
        from tricklaw.proofs import round_rule_checks

        ruleset.BASE_DESIGNATIONS = (5, 4, 3, 2, 1)
        rows = round_rule_checks.rule_results(get_ruleset("hund"), 3, {}, 30_000)
        print(json.dumps([[r.obligation, r.status, r.witness] for r in rows]))
        """,
    )
    found = [row for row in rows if row[0] == "rule designation-ascending"]
    assert len(found) == 1 and found[0][1] == COUNTEREXAMPLE
    assert found[0][2]["model"] == 5 and found[0][2]["rule"] == 1  # round 1 designates 1
    unplanted = round_rule_checks.rule_results(get_ruleset("hund"), 3, {}, TIMEOUT)
    rule = [r for r in unplanted if r.obligation == "rule designation-ascending"]
    assert [r.status for r in rule] == ["pass"]
    assert rule[0].reading == "designation=ascending, designation-mode=drawn"


@pytest.mark.slow
@clause("HUND-D-DESIGNATION")
def test_hunds_shuffled_designation_uses_each_number_once(tmp_path: Path) -> None:
    """The shuffled reading leaves each round a choice, any number not used yet, so it is
    a rule that chooses (:attr:`RoundRule.chooses`): planted here, a draw that forgets the
    game's earlier rounds (so a number comes again) is a counterexample in the round that
    repeats one."""
    rows = run_planted(
        tmp_path,
        """
        import json
        from tricklaw.model import get_ruleset
        from tricklaw.model.rulesets.hund import ruleset
        from tricklaw.proofs import round_rule_checks

        cut = ruleset.Hund.cut
        ruleset.Hund.cut = lambda self, game, order, rng, history: cut(self, game, order, rng, ())
        rows = round_rule_checks.rule_results(get_ruleset("hund"), 3, {}, 30_000)
        print(json.dumps([[r.obligation, r.status, r.witness] for r in rows]))
        """,
    )
    (found,) = [row for row in rows if row[0] == "rule designation-shuffled"]
    assert found[1] == COUNTEREXAMPLE
    earlier = [v for k, v in found[2]["inputs"].items() if k.startswith("earlier_")]
    assert found[2]["model"] in earlier  # the number of an earlier round, drawn again
    unplanted = round_rule_checks.rule_results(get_ruleset("hund"), 3, {}, TIMEOUT)
    (rule,) = [r for r in unplanted if r.obligation == "rule designation-shuffled"]
    assert rule.status == "pass" and "forbids" in rule.witness
    assert rule.reading == "designation=shuffled, designation-mode=drawn"


def test_a_rule_that_chooses_but_allows_every_answer_fails() -> None:
    """A choice rule true of every answer the model gives checks nothing: the row fails
    rather than pass."""
    hund = get_ruleset("hund")
    game = hund.make_game(2, dict(hund_rounds.SHUFFLED))
    loose = replace(
        shuffled_rule(), name="loose", rule=lambda g, v, out: [Tracked("HUND-DESIG-1", out >= 0)]
    )
    status, detail, witness, _ = round_rule_checks.check_rule(loose, [("", game)], TIMEOUT)
    assert status == "fail" and "checks nothing" in detail
    assert witness["answers"] == [1, 2, 3, 4, 5]


def shuffled_rule() -> RoundRule:
    """Hund's shuffled designation rule."""
    (rule,) = [r for r in ROUND_RULES.lookup("hund") if r.name == "designation-shuffled"]
    return rule


class Endless(tiny.Tiny):
    """Tiny whose game never ends."""

    def game_over(self, game: Game, rounds_played: int, totals: tuple[int, ...]) -> bool:
        return False


def test_a_self_check_game_that_never_ends_fails_instead_of_hanging(registered: None) -> None:
    row = self_check(Endless(), 2)
    assert row.status == "fail"
    assert f"has not ended after {SELF_CHECK_MAX_ROUNDS} rounds" in row.detail
    assert self_check(tiny.Tiny(), 2).status == "pass"


SELF_CHECK_ROW = """
import json
from tricklaw.model import get_ruleset
from tricklaw.verify.checks import self_check
row = self_check(get_ruleset({ruleset!r}), {players})
print(json.dumps([row.status, row.detail]))
"""


@pytest.mark.slow
def test_the_self_check_samples_every_options_other_values(tmp_path: Path) -> None:
    """Found by the run at 07d03eb: ``hund.ruleset.Hund.told_tricks.L452.cond-negate``
    (the designation sets told only when there are none) survived verify, whose
    self-check played the default options only, where no round has sets. Now it plays two
    games under each other value of each option too; the planted bug fails it there."""
    script = SELF_CHECK_ROW.format(ruleset="hund", players=3)
    status, detail = run_planted(tmp_path, script)
    assert status == "pass" and "games under 20 sets of options" in detail
    was = 'base = {"sets": ",".join(facts["sets"])} if facts["sets"] else {}'
    now = 'base = {"sets": ",".join(facts["sets"])} if not facts["sets"] else {}'
    file = "model/rulesets/hund/ruleset.py"
    status, detail = run_patched(tmp_path, file, was, now, script)
    assert status == "fail" and detail.startswith("designation-mode=sets"), detail


@pytest.mark.slow
def test_a_bug_only_two_readings_together_show_fails_the_self_check(tmp_path: Path) -> None:
    """A rule that goes wrong only under two readings that are not the defaults (here
    ``designation=ascending`` names a wrong number, but only with ``more-cards=yes``) is
    never played by one option at a time; the self-check's pairwise games play every two
    readings together, and the planted bug fails there."""
    script = SELF_CHECK_ROW.format(ruleset="hund", players=3)
    was = "number = left[0] if rules_of(game).ascending else"
    now = "number = left[-rules_of(game).more_cards] if rules_of(game).ascending else"
    file = "model/rulesets/hund/ruleset.py"
    status, detail = run_patched(tmp_path, file, was, now, script)
    assert status == "fail" and detail.startswith("pairwise "), detail
    label = detail.split(":", 1)[0]
    assert "designation=ascending" in label and "more-cards=yes" in label, detail


@pytest.mark.slow
@pytest.mark.parametrize(
    ("ruleset", "file", "was", "now"),
    [
        ("hund", "model/rulesets/hund/ruleset.py", "self.palette)[2])", "self.palette)[1])"),
        (
            "sticheln",
            "model/rulesets/sticheln.py",
            "len(picked) != len(piles)",
            "len(picked) == len(piles)",
        ),
        (
            "lowhigh",
            "model/rulesets/lowhigh.py",
            "(score(pile) for pile in piles)",
            "(score(pile[1:]) for pile in piles)",
        ),
    ],
    ids=["hund-powers-index", "sticheln-length-check", "lowhigh-pile"],
)
def test_a_bug_in_scoring_a_told_round_fails_the_self_check(
    tmp_path: Path, ruleset: str, file: str, was: str, now: str
) -> None:
    """``score_piles`` (a round told from its piles: the players' page) is held to the
    played score by verify's self-check (``Ruleset.told_round``); it was reached by no
    obligation and no fingerprint input (4 mutants). The unpatched row passes."""
    script = SELF_CHECK_ROW.format(ruleset=ruleset, players=4)
    assert run_planted(tmp_path, script)[0] == "pass"
    status, detail = run_patched(tmp_path, file, was, now, script)
    assert status == "fail", detail
    assert "told from its piles" in detail or "name each player's picked card" in detail


@pytest.mark.slow
@pytest.mark.parametrize(
    ("ruleset", "file", "was", "now"),
    [
        (
            "the-last",
            "model/rulesets/the_last/ruleset.py",
            "is Phase.CHOOSE:  # KEEP",
            "is not Phase.CHOOSE:  # KEEP",
        ),
        (
            "hund",
            "model/rulesets/hund/ruleset.py",
            "return action in hand and (not trick",
            "return action in hand or (not trick",
        ),
    ],
    ids=["the-last-phase", "hund-follow"],
)
def test_a_bug_in_the_quick_legality_question_fails_the_self_check(
    tmp_path: Path, ruleset: str, file: str, was: str, now: str
) -> None:
    """``Ruleset.is_legal`` (the log checker's question, answered without listing the
    actions) is held to ``legal_actions`` by the model's invariants, which verify's
    self-check runs after every action; a bug in it was caught only by the published
    vectors. The unpatched row passes."""
    script = SELF_CHECK_ROW.format(ruleset=ruleset, players=3)
    assert run_planted(tmp_path, script)[0] == "pass"
    status, detail = run_patched(tmp_path, file, was, now, script)
    assert status == "fail", detail
    assert "is_legal says" in detail


@pytest.mark.slow
@pytest.mark.parametrize(
    ("now", "went"),
    [
        ("over(game, info.index - 1, totals)", "went on"),
        ("over(game, info.index + 2, totals)", "stopped"),
    ],
    ids=["late", "early"],
)
def test_a_game_that_ends_off_its_end_rule_fails_the_self_check(
    tmp_path: Path, now: str, went: str
) -> None:
    """The round flow asks the end rule with the wrong number of rounds played: the
    game goes on two rounds too long (or ends a round early), every edition alike. Only
    the published game vectors caught the late end (a mutant of the whole set's first
    run); the self-check puts each round's totals to the end rule itself. The unpatched
    row passes."""
    script = SELF_CHECK_ROW.format(ruleset="sticheln-1993", players=3)
    assert run_planted(tmp_path, script)[0] == "pass"
    was = "over(game, info.index + 1, totals)"
    status, detail = run_patched(tmp_path, "model/flow.py", was, now, script)
    assert status == "fail", detail
    assert went in detail and "end rule" in detail


@pytest.mark.slow
def test_a_trick_judged_on_its_own_that_names_the_wrong_powers_fails_the_self_check(
    tmp_path: Path,
) -> None:
    """``judge_trick`` (``tricklaw trick``, the oracle's ``judge``) is held to play by
    verify's self-check: every trick of its games judged again on its own in the context
    the round's log tells (``Ruleset.told_tricks``), with the powers its facts name
    (``Ruleset.context_left``) the next trick's. Hund's ``powers`` fact read ``none``
    whenever a power was held (a mutant only the published vectors killed). The
    unpatched row passes."""
    script = SELF_CHECK_ROW.format(ruleset="hund", players=4)
    assert run_planted(tmp_path, script)[0] == "pass"
    status, detail = run_patched(
        tmp_path,
        "model/rulesets/hund/ruleset.py",
        '("powers", assigned or "none")',
        '("powers", assigned and "none")',
        script,
    )
    assert status == "fail", detail
    assert "judged on its own names {'powers': ''} as left after it" in detail


@pytest.mark.slow
@pytest.mark.parametrize("told", [17, 15])
def test_a_told_round_with_a_context_too_many_or_too_few_fails_the_self_check(
    tmp_path: Path, told: int
) -> None:
    """Found by the run at 07d03eb: ``ruleset.Ruleset.told_tricks.L323.const-shift`` and
    ``.2`` (the default tells a context too many, so the "after the last trick" one is
    not, or one too few) survived verify, whose self-check read the contexts by index.
    It now counts them: one before each of the 15 tricks and one after the last."""
    script = SELF_CHECK_ROW.format(ruleset="lowhigh", players=3)
    if told == 17:
        assert run_planted(tmp_path, script)[0] == "pass"
    was = "range(len(log.tricks) + 1)"
    now = f"range(len(log.tricks) + {told - 15})"
    status, detail = run_patched(tmp_path, "model/ruleset.py", was, now, script)
    assert status == "fail", detail
    assert f"tells {told} trick contexts for 15 tricks" in detail, detail


# --- the harness's judgement of a run ------------------------------------------------

REMOTE = '''concurrent.futures.process._RemoteTraceback:
"""
Traceback (most recent call last):
  File "/usr/lib/python3.11/concurrent/futures/process.py", line 256, in _process_worker
    r = call_item.fn(*call_item.args, **call_item.kwargs)
  File "{tree}/tricklaw/verify/run.py", line 190, in _run_unit
    results += step(ruleset, unit.players, options, scope.timeout_ms)
  File "{where}", line 73, in judge
    return trick[9]
{error}
"""

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
{error}
'''


@pytest.mark.parametrize(
    ("where", "error", "kind"),
    [
        ("model/rulesets/lowhigh.py", "IndexError: tuple index out of range", "model-exception"),
        ("spec/errors.py", "tricklaw.spec.errors.SpecError: bad deal", "check-exception"),
        ("proofs/ties.py", "KeyError: 7", ERROR),
        ("tricklaw/model/state.py", "ValueError: x not in tuple", "model-exception"),
        ("model/rulesets/lowhigh.py", "ModuleNotFoundError: No module named 'x'", ERROR),
    ],
)
def test_a_crash_is_a_kill_only_when_a_check_or_the_mutated_code_raised(
    tmp_path: Path, where: str, error: str, kind: str
) -> None:
    err = REMOTE.format(tree=tmp_path, where=tmp_path / where, error=error)
    got, what = crash_kind(err, tmp_path, ["model/rulesets/lowhigh.py"])
    assert got == kind, what
    assert error.split(":", maxsplit=1)[0].rsplit(".", 1)[-1] in what
    assert crash_kind("Killed\n", tmp_path, [])[0] == ERROR  # no traceback: the harness


def test_a_timeout_is_a_kill_only_when_the_unmutated_run_is_well_inside_the_limit() -> None:
    settings = verdicts.Settings(verify_limit=600)
    assert time_limit(30, settings) == 150 and timeout_is_kill(30, 150)
    assert time_limit(300, settings) == 600 and not timeout_is_kill(300, 600)


def test_the_summary_counts_kinds_and_the_strict_score() -> None:
    def r(status: str, kind: str = "") -> MutantResult:
        return MutantResult("m", "", status, ("x",), (), ({"obligation": "rule x"},), kind=kind)

    rows = [
        r(KILLED, "obligation"),
        r(KILLED, "model-exception"),
        r(KILLED, "timeout"),
        r(SURVIVED),
        r(ERROR, "verify's own code fell over"),
    ]
    report = summary(rows)
    assert report["behaviour-changing"] == 4 and report["score"] == 0.75
    assert report["strict-score"] == 0.5
    assert report["kinds"] == {"model-exception": 1, "obligation": 1, "timeout": 1}
    assert len(report["survivors"]) == 1 and len(report["errors"]) == 1


def test_a_documented_hollow_row_is_no_kill() -> None:
    def row(status: str, expected: str = "") -> dict[str, str]:
        return {"obligation": "tie-rule", "ruleset": "hund", "players": "3", "reading": "x"} | {
            "status": status,
            "expected": expected,
        }

    rows = [row("vacuous", "no tie can arise"), row("trivial", "one case"), row("pass")]
    assert verdicts.failed_rows({"results": rows}) == []
    bad = verdicts.failed_rows({"results": [*rows, row("vacuous"), row("unknown")]})
    assert [r["status"] for r in bad] == ["vacuous", "unknown"]


def test_a_solver_time_out_is_no_strict_kill() -> None:
    """A row that is ``unknown`` (the solver did not finish within verify's time-out, as
    on a busy machine) names no bug: a kill by such rows alone is kind ``unknown``,
    outside the strict score; with a decided row beside it, the decided row names the
    kind."""

    def row(obligation: str, status: str) -> dict[str, str]:
        return {"obligation": obligation, "status": status}

    late = row("bound max-score", "unknown")
    assert verdicts.kill_kind([late]) == "unknown" not in verdicts.STRICT_KINDS
    assert verdicts.kill_kind([late, row("tie-rule", "counterexample")]) == "counterexample"
    assert verdicts.kill_kind([late, row("self-check", "fail")]) == "obligation"
    assert verdicts.kill_kind([late, row("vectors games", "fail")]) == "vectors"
    assert verdicts.kill_kind([row("worker", "fail")]) == "worker-died"
    assert "unknown" in verdicts.KINDS


def test_a_step_that_fell_over_is_judged_by_its_traceback(tmp_path: Path) -> None:
    """A step verify reported as a ``fail`` row with its traceback (rather than dying) is
    classified like a crash: in the mutated model, a model exception; in verify's own
    code, a ``step-exception`` kill (outside the strict score), no longer an error."""
    err = REMOTE.format(tree=tmp_path, where=tmp_path / "proofs/tricks.py", error="KeyError: 7")
    assert crash_kind(err, tmp_path, [])[0] == ERROR
    assert crash_kind(err, tmp_path, [], stepped=True)[0] == "step-exception"
    model = REMOTE.format(
        tree=tmp_path, where=tmp_path / "model/rulesets/lowhigh.py", error="IndexError: x"
    )
    assert crash_kind(model, tmp_path, [], stepped=True)[0] == "model-exception"
    row = {"obligation": "trick obligations", "ruleset": "lowhigh", "players": "3"} | {
        "reading": "",
        "status": "fail",
        "witness": {"traceback": err},
    }
    (failed,) = verdicts.failed_rows({"results": [row]})
    assert failed["traceback"] == err and "step-exception" not in verdicts.STRICT_KINDS
    assert "vectors" in verdicts.KINDS and "vectors" not in verdicts.STRICT_KINDS


def test_an_illegal_action_crosses_a_process_boundary() -> None:
    """verify's workers pickle a check's exception to the parent; an error that does not
    unpickle turned a detection into an unrelated ``TypeError`` there."""
    import pickle

    from tricklaw.spec.errors import IllegalActionError

    again = pickle.loads(pickle.dumps(IllegalActionError("R3 is not playable", "LH-PLAY-2")))
    assert isinstance(again, IllegalActionError) and again.clause == "LH-PLAY-2"
    assert str(again) == "R3 is not playable [LH-PLAY-2]"


class NoMove(tiny.Tiny):
    """Tiny in which no card is ever playable."""

    def legal_actions(self, state: Any) -> tuple[int, ...]:
        return ()


def test_a_state_with_no_legal_action_is_reported_by_the_agents(registered: None) -> None:
    """Before, the random agent died of ``below(0)`` inside whichever check walked the
    game first (the tie detector), an error of verify's own code, not a detection."""
    from tricklaw.model.agents import play_random_game, random_states
    from tricklaw.spec.errors import TricklawError

    game = NoMove().make_game(2)
    with pytest.raises(TricklawError, match="seat 0 has no legal action in round 1"):
        play_random_game(game, 1)
    with pytest.raises(TricklawError, match="no legal action"):
        list(random_states(game, 1, max_rounds=1))


@pytest.mark.slow
@clause("LAST-D-GHOSTSEAT")
def test_the_ghosts_seat_is_the_readings_and_a_swapped_reading_is_caught(tmp_path: Path) -> None:
    """The mutant the fingerprint first called equivalent (numeric options stayed at one
    round): ``ghost-seat`` read the wrong way round moves the ghost from the second
    round on."""
    rows = round_rule_checks.rule_results(get_ruleset("the-last"), 2, {}, TIMEOUT)
    seat = [r for r in rows if r.obligation == "rule ghost-seat-rounds"]
    assert [(r.reading, r.status) for r in seat] == [
        ("ghost-seat=per-round", "pass"),
        ("ghost-seat=fixed", "pass"),
    ]
    assert not [
        r
        for r in round_rule_checks.rule_results(get_ruleset("the-last"), 3, {}, 1)
        if r.obligation == "rule ghost-seat-rounds"
    ]
    bad = run_planted(
        tmp_path,
        """
        import dataclasses
        import json
        from tricklaw.model import get_ruleset
        from tricklaw.model.rulesets.the_last import ruleset as last
        from tricklaw.proofs import round_rule_checks

        real = last.TheLast.compile

        def compile(self, options):
            rules = real(self, options)
            return dataclasses.replace(rules, ghost_fixed=not rules.ghost_fixed)

        last.TheLast.compile = compile
        rows = round_rule_checks.rule_results(get_ruleset("the-last"), 2, {}, 30_000)
        seat = [r for r in rows if r.obligation == "rule ghost-seat-rounds"]
        print(json.dumps([[r.status, r.witness] for r in seat]))
        """,
    )
    assert bad[0][0] == COUNTEREXAMPLE and bad[0][1]["inputs"]["index"] > 0
    assert bad[1][0] == COUNTEREXAMPLE and bad[1][1]["inputs"]["index"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("round_read", ["1", "-1"])
def test_a_ghost_fixed_to_another_rounds_starter_is_caught(tmp_path: Path, round_read: str) -> None:
    """The survivor of session 8's mutation run: under ``ghost-seat=fixed`` the model
    seats the ghost by round 2's (or the previous round's) first player instead of round
    1's. One round's log cannot show it; the rule reads the game's first round too."""
    bad = run_patched(
        tmp_path,
        "model/rulesets/the_last/ruleset.py",
        "history[0].first_leader",
        f"history[{round_read}].first_leader",
        """
        import json
        from tricklaw.model import get_ruleset
        from tricklaw.proofs import round_rule_checks
        rows = round_rule_checks.rule_results(get_ruleset("the-last"), 2, {}, 30_000)
        seat = [r for r in rows if r.obligation == "rule ghost-seat-rounds"]
        print(json.dumps([[r.reading, r.status, r.witness] for r in seat]))
        """,
    )
    assert [(reading, status) for reading, status, _ in bad] == [
        ("ghost-seat=per-round", "pass"),
        ("ghost-seat=fixed", COUNTEREXAMPLE),
    ]


CITATION_MUTANTS = {
    # session 8's survivor: the zero-ignored clause dropped where a lead-colour card wins
    "zero-note-dropped": (
        "winner_takes_all(trick, lead_i, (via, case, *zero_note))",
        "winner_takes_all(trick, lead_i, (via, case))",
    ),
    # session 11's vectors-only kills (sticheln.judge.L127 and L131, bool-const)
    "tie-never-cited": ("tie = True", "tie = False"),
    "zero-never-seen": ("any_zero = True", "any_zero = False"),
}


@pytest.mark.slow
def test_a_trick_that_stops_citing_a_clause_fails_the_vectors(tmp_path: Path) -> None:
    """The survivor of session 8's mutation run: Sticheln's judge stops citing the
    zero-ignored clause where a lead-colour card wins (the winner is unchanged, so no
    proof about the winner can see it). The published vectors carry each trick's deciding
    clauses, and verify runs them again."""
    rows = run_patched(
        tmp_path,
        "model/rulesets/sticheln.py",
        *CITATION_MUTANTS["zero-note-dropped"],
        """
        import json
        from tricklaw.model import get_ruleset
        from tricklaw.verify.checks import vector_results
        rows = vector_results(get_ruleset("sticheln"))
        print(json.dumps([[r.obligation, r.status, r.detail] for r in rows]))
        """,
    )
    failed = {name: detail for name, status, detail in rows if status == "fail"}
    assert list(failed) == ["vectors tricks", "vectors games"], rows
    assert "clauses" in failed["vectors tricks"]
    assert all(status == "pass" for name, status, _ in rows if name not in failed)


@pytest.mark.slow
@clause("STI-TRICK-3", "STI-TRICK-4")
@pytest.mark.parametrize("name", sorted(CITATION_MUTANTS))
def test_a_trick_that_cites_the_wrong_clauses_is_an_equivalence_counterexample(
    tmp_path: Path, name: str
) -> None:
    """The winner is unchanged, so only the clauses a trick names show these bugs: the
    equivalence proof holds the model's named clauses to each clause's case
    (``TrickEncoding.citations``), so the proof, not only the published vectors, fails."""
    was, now = CITATION_MUTANTS[name]
    out = run_patched(
        tmp_path,
        "model/rulesets/sticheln.py",
        was,
        now,
        """
        import json
        from tricklaw.model import get_ruleset
        from tricklaw.proofs import equivalence
        from tricklaw.proofs.encodings import ENCODINGS
        game = get_ruleset("sticheln").make_game(4)
        out = equivalence.trick_equivalence(ENCODINGS["sticheln"](game), 30_000)
        print(json.dumps([out.status, out.witness]))
        """,
    )
    status, witness = out
    assert status == COUNTEREXAMPLE, out
    differ = {k for k in witness["model"] if witness["model"][k] != witness["encoding"][k]}
    assert differ and all(k.startswith("cites ") for k in differ), witness
    assert witness["model"]["winner"] == witness["encoding"]["winner"]
