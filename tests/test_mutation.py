"""The mutation score of verify (issue 14, part 6): ``tricklaw.mutation``.

Fast tier: the mutator plants each kind of bug as a patch that applies and parses, for
every ruleset and for the tests' plug-in game Tiny; a mutant set in the documented file
format loads; the behaviour fingerprint tells a behaviour-changing mutant from an
equivalent one (on lowhigh; Hund's table state, whose whole fingerprint is a minute,
in the slow tier).

Slow tier: a seeded sample of the project's own mutants across every ruleset, and every
mutant of Tiny, are run through verify: verify alone must kill each one that changes a
rule's behaviour on some input the fingerprint tried (the score must be 1).
"""

from __future__ import annotations

import ast
import os
import random
import re
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tricklaw.model.rulesets import RULESETS
from tricklaw.mutation import behaviour, runner, verdicts
from tricklaw.mutation.mutants import (
    Mutant,
    generate,
    load_mutants,
    mutants_of_file,
    patched_files,
    repo_root,
    rule_files,
    stem_of,
)
from tricklaw.mutation.runner import apply_patch, copy_tree, run, summary
from tricklaw.mutation.verdicts import EQUIVALENT, KILLED, NOT_APPLIED, SURVIVED, TIMEOUT, Settings

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


pytestmark = pytest.mark.skipif(
    not (repo_root() / "pyproject.toml").exists(),
    reason="the mutation harness mutates a source tree: the checkout of an editable install,"
    " or (an installed, compiled package) TRICKLAW_SOURCE or the current folder; none here",
)

SAMPLE = int(os.environ.get("TRICKLAW_MUTATION_SAMPLE", "6"))
"""How many of the project's mutants the slow test runs (seeded by ``SEED``)."""
SEED = int(os.environ.get("TRICKLAW_MUTATION_SEED", "1"))
TINY_SAMPLE = int(os.environ.get("TRICKLAW_MUTATION_TINY_SAMPLE", "10"))
"""How many of Tiny's mutants the slow test runs (same seed; 0: all of them)."""

LOWHIGH = "model/rulesets/lowhigh.py"


@pytest.fixture
def no_verify(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """verify replaced by a run that finds nothing (a mutant it is asked about survives):
    the fingerprint alone is tested. The list holds the rulesets verify was asked about."""
    calls: list[str] = []

    def survived(_tree: Path, ruleset: str, *_: Any, **__: Any) -> tuple[str, list[Any], str]:
        calls.append(ruleset)
        return SURVIVED, [], ""

    monkeypatch.setattr(verdicts, "verify", survived)
    return calls


def _by_function(mutants: list[Mutant], function: str, operator: str) -> Mutant:
    return next(m for m in mutants if m.function == function and m.operator == operator)


PROJECT_MUTANTS = pytest.mark.xdist_group("project-mutants")
"""The tests that read :func:`project_mutants` run on one pytest-xdist worker, so that
they share its one generation."""


@cache
def project_mutants() -> tuple[Mutant, ...]:
    """The project's own mutants (:func:`~tricklaw.mutation.mutants.generate`: seconds),
    generated once per worker for the tests that only read them."""
    return tuple(generate())


@pytest.mark.slow
@PROJECT_MUTANTS
def test_every_ruleset_has_rule_files_and_mutants_of_each_kind() -> None:
    files = rule_files()
    covered = {rid for rids in files.values() for rid in rids}
    assert covered == set(RULESETS)
    mutants = list(project_mutants())
    assert len({m.id for m in mutants}) == len(mutants)
    assert {m.file for m in mutants} <= set(files)
    for rid in RULESETS:  # each ruleset has mutants of rules not every ruleset shares
        assert any(rid in files[m.file] and len(files[m.file]) < len(RULESETS) for m in mutants)
    kinds = Counter(m.operator for m in mutants)
    for kind in (
        "cmp-boundary",
        "cmp-negate",
        "bool-swap",
        "cond-negate",
        "const-shift",
        "index-shift",
        "minmax-swap",
        "neg-drop",
        "name-swap",
        "reading-swap",
        "case-drop",
        "table-shift",
    ):
        assert kinds[kind] > 0, kind
    assert [m.id for m in generate()] == [m.id for m in mutants]  # deterministic
    page = (repo_root() / "docs" / "developing.md").read_text("utf-8")
    told = re.search(r"(\d+) mutants today", page)
    assert told and int(told[1]) == len(mutants), "docs/developing.md's count of the mutants"


TABLES = """\
TOP_VALUE = {3: 9, 4: 12}
ROUNDS = 5
SEATS: tuple[int, ...] = (1, 2)
NAMES = ("a", "b")
MIXED = (1, "a")
lower = 7
FLAG = True
"""


SWAPS = """\
def judge(trick, lead):
    best = 0
    for i, card in enumerate(trick):
        if card >> 5 == lead and card > trick[best]:
            best = i
    return best
"""


def test_a_comparison_reads_the_other_sides_variable_where_the_function_reads_it(
    tmp_path: Path,
) -> None:
    """``name-swap`` plants "the wrong card": one side of a comparison reads the other
    side's variable, but only in a place where the function reads that variable too:
    ``lead`` may become ``card`` (both are compared), but ``card >> 5`` does not
    become ``lead >> 5`` (a colour is never shifted here), nor ``trick[best]``
    become ``trick[card]`` (a card is never an index)."""
    (tmp_path / "swaps.py").write_text(SWAPS, encoding="utf-8")
    swaps = [m for m in mutants_of_file(tmp_path, "swaps.py") if m.operator == "name-swap"]
    assert sorted(m.description.split(": ", 1)[1] for m in swaps) == [
        "`card >> 5 == lead` -> `card >> 5 == card`",
    ]


READINGS = """\
def allowed(follow, hand, trick):
    if follow == "free" or not trick:
        return hand
    if follow in ("must-follow",):
        return hand[:1]
    label = "free"
    return hand if label else ()
"""


def test_a_compared_reading_becomes_each_other_reading_of_its_option(tmp_path: Path) -> None:
    """``reading-swap`` plants "a reading implemented as another": a reading's name that
    is compared (``==``, or ``in`` a literal tuple) becomes each other reading of a
    three-reading option of the file's rulesets (Sticheln 1993's ``follow``); a string
    that is only assigned is left alone, and so is every string of a file whose rulesets
    have no such option with it (The Last's ``free`` has two readings: ``cmp-negate``)."""
    (tmp_path / "readings.py").write_text(READINGS, encoding="utf-8")
    swaps = [
        m.description.split(": ", 1)[1]
        for m in mutants_of_file(tmp_path, "readings.py", ["sticheln-1993"])
        if m.operator == "reading-swap"
    ]
    assert sorted(swaps) == [
        "`\"free\"` -> `'follow-or-trump'`",
        "`\"free\"` -> `'must-follow'`",
        "`\"must-follow\"` -> `'follow-or-trump'`",
        "`\"must-follow\"` -> `'free'`",
    ]
    assert not [
        m
        for m in mutants_of_file(tmp_path, "readings.py", ["the-last"])
        if m.operator == "reading-swap"
    ]


CASES = """\
def score(values, players, ghost):
    if players < 3:
        raise ValueError("too few")
    if players > 9:
        known = "3-9"
        raise ValueError(known)
    if ghost:
        values = values[1:]
    if True:
        pass
    return sum(values) if len(values) > 2 else 0
"""


def test_a_rules_special_case_is_dropped_but_not_an_input_check(tmp_path: Path) -> None:
    """``case-drop`` plants "a special case forgotten": an ``if`` test or a conditional
    expression's test made ``False``; an ``if`` whose body ends in ``raise`` (an input
    check) and a constant test are left alone."""
    (tmp_path / "cases.py").write_text(CASES, encoding="utf-8")
    drops = [m for m in mutants_of_file(tmp_path, "cases.py") if m.operator == "case-drop"]
    assert sorted(m.description.split(": ", 1)[1] for m in drops) == [
        "`ghost` -> `False`",
        "`len(values) > 2` -> `False`",
    ]


RAISES = """\
def deal(players):
    if players < 3:
        raise ValueError("for 3-" + str(players + 1) if players > 0 else "no players")
    return players - 1
"""


def test_an_errors_wording_is_not_mutated(tmp_path: Path) -> None:
    """A ``raise`` statement's message is not a rule: a mutant there changes what a bad
    input is told, never a game (the run at 07d03eb spent 16 minutes on one)."""
    (tmp_path / "raises.py").write_text(RAISES, encoding="utf-8")
    lines = {m.line for m in mutants_of_file(tmp_path, "raises.py")}
    assert lines == {2, 4}


def test_each_number_of_a_rule_table_is_shifted_by_one_each_way(tmp_path: Path) -> None:
    (tmp_path / "tables.py").write_text(TABLES, encoding="utf-8")
    mutants = mutants_of_file(tmp_path, "tables.py")
    assert {m.operator for m in mutants} == {"table-shift"}
    assert sorted(m.description.split(" in ", 1)[1] for m in mutants) == [
        "ROUNDS: `5` -> `4`",
        "ROUNDS: `5` -> `6`",
        "SEATS[0]: `1` -> `0`",
        "SEATS[0]: `1` -> `2`",
        "SEATS[1]: `2` -> `1`",
        "SEATS[1]: `2` -> `3`",
        "TOP_VALUE[3]: `9` -> `10`",
        "TOP_VALUE[3]: `9` -> `8`",
        "TOP_VALUE[4]: `12` -> `11`",
        "TOP_VALUE[4]: `12` -> `13`",
    ]
    shifted = next(m for m in mutants if m.description.endswith("`9` -> `10`"))
    assert "+TOP_VALUE = {3: (10), 4: 12}" in shifted.patch  # the key left alone


@pytest.mark.slow
@PROJECT_MUTANTS
def test_no_mutant_of_presentation_or_checker_helpers() -> None:
    functions = {m.function.rsplit(".", 1)[-1] for m in project_mutants()}
    assert not functions & {
        "why_illegal",
        "observation",
        "recount_scores",
        "check_deal",
        "check_context",
    }


@pytest.mark.slow
def test_each_patch_applies_to_a_copy_and_parses(tmp_path: Path) -> None:
    root = repo_root()
    tree = copy_tree(root, tmp_path)
    mutants = mutants_of_file(root, LOWHIGH)
    original = (tree / LOWHIGH).read_text()
    for mutant in random.Random(0).sample(mutants, 12):
        assert patched_files(mutant.patch) == [LOWHIGH]
        assert apply_patch(tree, mutant.patch) is None, mutant.id
        mutated = (tree / LOWHIGH).read_text()
        assert mutated != original
        ast.parse(mutated)
        (tree / LOWHIGH).write_text(original)


@pytest.mark.slow
def test_tiny_plugin_gets_mutants(registered: None) -> None:
    files = rule_files()
    tiny_files = [f for f, rids in files.items() if rids == ["tiny"]]
    assert tiny_files == ["tests/tiny/model.py"]
    assert {m.function for m in mutants_of_file(repo_root(), tiny_files[0])} >= {
        "judge",
        "playable",
    }


@pytest.mark.slow
def test_mutant_set_file_format(tmp_path: Path) -> None:
    root = repo_root()
    threshold = _by_function(mutants_of_file(root, LOWHIGH), "score", "cmp-boundary")
    (tmp_path / "set.toml").write_text(
        "[[mutant]]\n"
        'id = "by-patch"\n'
        'description = "the score threshold"\n'
        f"patch = '''\n{threshold.patch}'''\n"
        "[[mutant]]\n"
        'id = "by-source"\n'
        f'file = "{LOWHIGH}"\n'
        'function = "LowHigh.game_over"\n'
        "source = '''\n"
        "def game_over(self, game, rounds_played, totals):\n"
        "    return rounds_played >= 1\n"
        "'''\n"
    )
    by_patch, by_source = load_mutants(tmp_path / "set.toml")
    assert by_patch.patch == threshold.patch
    assert patched_files(by_source.patch) == [LOWHIGH]
    tree = copy_tree(root, tmp_path / "copy")
    assert apply_patch(tree, by_source.patch) is None
    text = (tree / LOWHIGH).read_text()
    assert (
        "    def game_over(self, game, rounds_played, totals):\n        return rounds_played >= 1\n"
        in text
    )
    folder = tmp_path / "diffs"
    folder.mkdir()
    (folder / "threshold.diff").write_text(threshold.patch)
    assert [m.id for m in load_mutants(folder)] == ["threshold"]


@pytest.mark.slow
def test_fingerprint_tells_changed_from_equivalent(tmp_path: Path, no_verify: list[str]) -> None:
    """The check, not a hand, decides equivalence: ``len(values) <= 2`` as ``< 3`` changes
    nothing; as ``< 2`` it changes the score of every colour held twice. (verify is not
    asked about the unchanged one here: ``verify_equivalent`` off.)"""
    root = repo_root()
    settings = Settings(verify_equivalent=False)
    base = runner.baseline_fingerprint(root, ["lowhigh"], settings)
    files = rule_files(root)
    changed = _by_function(mutants_of_file(root, LOWHIGH), "score", "cmp-boundary")
    same = Mutant(
        "same",
        "len(values) < 3",
        changed.patch.replace("len(values) < 2", "len(values) < 3"),
    )
    a = runner.run_mutant(changed, root, base, settings, files)
    b = runner.run_mutant(same, root, base, settings, files)
    assert a.status == SURVIVED and a.rulesets == ("lowhigh",) and a.witness
    assert b.status == EQUIVALENT and not b.witness
    assert no_verify == ["lowhigh"]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["OUT.json", "nosuch"], "RULESET nosuch: no such ruleset"),
        (["--against", "BASE.json", "BASE.json", "lowhigh"], "would overwrite the input"),
        (["--against", "missing.json", "OUT.json"], "--against missing.json:"),
    ],
)
def test_the_fingerprint_command_refuses_bad_arguments_in_one_line(
    argv: list[str], says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """Before any model runs, and with no file written or emptied (``--help`` once
    wrote the fingerprint to a file named ``--help``)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "BASE.json").write_text("{}")
    with pytest.raises(SystemExit) as exit_:
        behaviour.main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert exit_.value.code == 2 and says in err[-1], err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["BASE.json"]
    assert (tmp_path / "BASE.json").read_text() == "{}"


def test_a_kill_outside_the_strict_score_is_looked_for_on_the_next_ruleset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mutant of a shared file changes every ruleset: verify runs on them quickest first,
    and a crash of the mutated model on the first (a kill the strict score leaves out)
    does not end the search while another ruleset's obligation can kill it strictly."""
    crash = [{"obligation": "self-check", "status": "fail"}]
    proof = [{"obligation": "trick-rule", "status": "counterexample"}]
    said = {
        "quick": (KILLED, crash, "model-exception"),
        "middle": (KILLED, proof, "counterexample"),
        "slow": (SURVIVED, [], ""),
    }
    asked: list[tuple[str, bool, bool]] = []

    def judge(tree: Path, rid: str, *_: Any, fail_fast: bool, **kw: Any) -> Any:
        asked.append((rid, fail_fast, kw.get("past_falls", False)))
        return said[rid]

    monkeypatch.setattr(runner, "copy_tree", lambda _root, where: where)
    monkeypatch.setattr(runner, "apply_patch", lambda *_: None)
    monkeypatch.setattr(runner, "differing", lambda _t, base, _s: {rid: ["k"] for rid in base})
    monkeypatch.setattr(runner, "judge", judge)
    mutant = Mutant("flow.x.L1.case-drop", "shared", "--- a/model/flow.py\n")
    base = {"slow": {}, "middle": {}, "quick": {}}
    seconds = {"slow": 90.0, "middle": 30.0, "quick": 9.0}.__getitem__
    result = runner.run_mutant(mutant, tmp_path, base, Settings(), {}, base_seconds=seconds)
    # the crash settled on its own ruleset (past the falls, then whole), then the next
    assert asked == [
        ("quick", True, False),
        ("quick", True, True),
        ("quick", False, False),
        ("middle", True, False),
    ]
    assert result.status == KILLED and result.kind == "counterexample"
    assert result.killed_by == tuple(proof) and list(result.verify_seconds) == ["quick", "middle"]
    said["middle"] = (SURVIVED, [], "")
    asked.clear()
    again = runner.run_mutant(mutant, tmp_path, base, Settings(), {}, base_seconds=seconds)
    assert [rid for rid, *_ in asked] == ["quick", "quick", "quick", "middle", "slow"]
    assert again.status == KILLED and again.kind == "model-exception"
    assert again.killed_by == tuple(crash)


def test_a_mutant_is_fingerprinted_only_until_it_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mutated model's fingerprint stops at the first
    :data:`~tricklaw.mutation.behaviour.WITNESSES` inputs that differ from the unmutated
    one (in order); only an equivalent one is computed whole, and then an input of the
    unmutated fingerprint it never came to differs too."""
    model = [(f"k{i}", "v") for i in range(100)]
    computed: list[str] = []

    def entries(_: object) -> Any:
        for key, value in model:
            computed.append(key)
            yield key, value

    monkeypatch.setattr(behaviour, "entries", entries)
    base = dict(model)
    assert behaviour.differing(RULESETS["lowhigh"], base) == [] and len(computed) == 100
    for key in ("k10", "k20", "k30", "k40"):
        base[key] = "other"
    computed.clear()
    assert behaviour.differing(RULESETS["lowhigh"], base) == ["k10", "k20", "k30"]
    assert computed[-1] == "k30"  # it stopped there
    computed.clear()
    gone = dict(model) | {"k100": "v"}  # an input the mutant never came to
    assert behaviour.differing(RULESETS["lowhigh"], gone) == ["k100"] and len(computed) == 100


def test_the_fingerprint_reads_each_sub_option_where_it_acts() -> None:
    """An option that acts only with another option's value (``acts_with``: Hund's set
    options, with designation sets) is fingerprinted there, also where the readings are
    too many to combine: read alone it changes nothing, and every mutant of the code it
    selects looked equivalent."""
    checked = 0
    for ruleset in RULESETS.values():
        combos = behaviour.readings(ruleset)
        for spec in ruleset.option_specs:
            if not spec.acts_with or not spec.choices:
                continue
            where = {k: str(v) for k, v in spec.acts_with}
            for value in spec.choices:
                if value != spec.default:
                    assert any(
                        c.get(spec.name) == str(value) and where.items() <= c.items()
                        for c in combos
                    ), (ruleset.id, spec.name, value)
                    checked += 1
    assert checked >= 4  # Hund's three set options and the virtual player's odd card


def test_the_fingerprint_judges_tricks_in_drawn_contexts_and_recounts_rounds() -> None:
    """Hund's tricks need a context (the powers, the designation): the fingerprint draws
    one per trick as the trick vectors do, so the judge in context is behaviour; a game's
    record comes with each round recounted from its log and scored as a table tells it."""
    hund = RULESETS["hund"]
    game = hund.make_game(4)
    tricks = list(behaviour._tricks(game, random.Random(1), "hund 4p"))
    assert len(tricks) == behaviour.TRICKS
    assert all("'powers':" in key for key, _ in tricks)
    again = list(behaviour._tricks(game, random.Random(1), "hund 4p"))
    assert again == tricks  # seeded
    lowhigh = RULESETS["lowhigh"].make_game(3)
    assert all(" in None" in k for k, _ in behaviour._tricks(lowhigh, random.Random(1), "x"))
    trace, record, recounts, told, contexts, dealt = behaviour._game(game, 1)
    assert dealt == record | {"seed": None}  # the same game from its deals alone
    scores = [r["scores"] for r in record["rounds"]]
    assert trace and [list(r) for r in recounts] == scores
    assert [list(r) for r in told] == scores  # the round told from its piles (score_piles)
    for (before, again), log in zip(contexts, record["rounds"], strict=True):
        assert len(before) == len(log["tricks"]) + 1 and len(again) == len(log["tricks"])
        # each trick judged again in its told context leaves the next trick's powers
        assert [left for _, left in again] == [{"powers": c["powers"]} for c in before[1:]]


def test_a_game_that_never_ends_is_cut_at_the_decision_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A mutant whose rounds never end (a hand that never empties) shows as a round cut
    at :data:`~tricklaw.mutation.behaviour.DECISIONS_PER_CARD` decisions per card, a
    behaviour told in seconds; an unmutated game stays well inside the cap."""
    game = RULESETS["lowhigh"].make_game(3)
    whole = behaviour._game(game, 1)
    assert isinstance(whole[1], dict)  # the game's record: it ended inside the cap
    first = len(whole[1]["rounds"][0]["actions"])  # the first round's decisions
    monkeypatch.setattr(behaviour, "DECISIONS_PER_CARD", 0)
    monkeypatch.setattr(behaviour, "DECISIONS_SPARE", first - 2)
    trace, why = behaviour._game(game, 1)
    assert why == f"round 0 has no end after {first - 2} decisions"
    assert trace == whole[0][: first - 1]


@pytest.mark.slow
def test_a_bug_in_the_judge_in_context_is_no_equivalent_mutant(no_verify: list[str]) -> None:
    """Hund's judge in a trick context (``trick_in_context``: the powers a trick assigns
    as its cards fall) is run by the equivalence proof but by no game the fingerprint
    plays to a trick the rule singles out often enough: with the drawn contexts, its
    mutants change the fingerprint (they were all taken for equivalent)."""
    root = repo_root()
    settings = Settings()
    base = runner.baseline_fingerprint(root, ["hund"], settings)
    mutants = mutants_of_file(root, "model/rulesets/hund/ruleset.py")
    planted = _by_function(mutants, "Hund.trick_in_context", "cond-negate")
    result = runner.run_mutant(planted, root, base, settings, rule_files(root))
    assert no_verify == ["hund"]
    assert result.status == SURVIVED and result.witness, result


def _assert_all_killed(results: list[runner.MutantResult]) -> None:
    report = summary(results)
    lines = [
        f"{s['id']}: {s['description']} (differs on {s['witness'][0]})" for s in report["survivors"]
    ]
    assert not lines, f"score {report['score']}; verify misses:\n" + "\n".join(lines)


@pytest.mark.slow
@pytest.mark.mutation
def test_verify_kills_every_behaviour_changing_mutant_of_a_seeded_sample() -> None:
    """The project's own mutants, a sample seeded by ``TRICKLAW_MUTATION_SEED`` of
    ``TRICKLAW_MUTATION_SAMPLE`` (default 6; the whole set with ``python -m
    tricklaw.mutation``)."""
    mutants = sorted(random.Random(SEED).sample(generate(), SAMPLE), key=lambda m: m.id)
    results = run(mutants, Settings(jobs=2))
    assert all(r.status in {KILLED, SURVIVED, EQUIVALENT, TIMEOUT} for r in results)
    _assert_all_killed(results)


@pytest.mark.slow
@pytest.mark.mutation
def test_verify_kills_every_behaviour_changing_mutant_of_tiny_sample(
    registered: None, tmp_path: Path
) -> None:
    """The machinery on a game it was not written for: the plug-in's mutants (a seeded
    sample of ``TRICKLAW_MUTATION_TINY_SAMPLE``, default 10 of 33; 0: all)."""
    meta = tmp_path / "meta"
    info = meta / "tricklaw_tiny-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tricklaw-tiny\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tricklaw.plugins]\ntiny = tiny:register\n")
    mutants = mutants_of_file(repo_root(), "tests/tiny/model.py")
    if 0 < TINY_SAMPLE < len(mutants):
        mutants = sorted(random.Random(SEED).sample(mutants, TINY_SAMPLE), key=lambda m: m.id)
    settings = Settings(jobs=2, verify_limit=120, extra_path=("{tree}/tests", str(meta)))
    results = run(mutants, settings, rulesets=["tiny"])
    counts = Counter(r.status for r in results)
    assert counts[KILLED] > 0 and counts[NOT_APPLIED] == 0
    _assert_all_killed(results)


def test_mutants_asked_by_id_are_generated_from_their_own_files_alone() -> None:
    """``--only ID`` generates the mutants of the files its ids can name (a second, not
    the whole set's): each file's mutants, asked by one id, are the same as in the whole
    set."""
    root = repo_root()
    files = rule_files(root)
    for path in ("model/trick.py", "model/rulesets/hund/options.py"):  # shared, one game's
        own = mutants_of_file(root, path, files[path])
        assert own, path
        asked = generate(root, ids=[own[len(own) // 2].id])
        assert {m.id for m in own} <= {m.id for m in asked}
        assert all(m.id.startswith(stem_of(path).split(".")[0]) for m in asked), path


@pytest.mark.slow
def test_an_unknown_mutant_id_is_refused_not_a_run_of_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tricklaw.mutation.__main__ import main

    with pytest.raises(SystemExit) as stop:
        main(["--only", "lowhigh.judge.L1.no-such-operator"])
    assert stop.value.code == 2 and "no such mutant" in capsys.readouterr().err


@pytest.mark.slow
def test_a_display_turned_up_mid_trick_is_a_behaviour(tmp_path: Path) -> None:
    """Hund's virtual player's face-down card turned up after every card, not once the
    trick is over (HUND-TWO-6): no legal action changes, but the table does; the
    fingerprint records each decision's table state (``State.extra``), so the mutant is
    not taken for equivalent (it was, in the whole set's run at 2b285b1)."""
    root = repo_root()
    mutant = next(
        m
        for m in mutants_of_file(root, "model/rulesets/hund/ruleset.py")
        if "`full and virtual_game` -> `full or virtual_game`" in m.description
    )
    base = runner.baseline_fingerprint(root, ["hund"], Settings())
    tree = copy_tree(root, tmp_path / "copy")
    assert apply_patch(tree, mutant.patch) is None
    got = runner.differing(tree, base, Settings())
    assert isinstance(got, dict) and got["hund"][0].startswith("hund 2p")
