"""``verify --smt2 DIR``: every solver query as SMT-LIB 2, checked again by cvc5; and
``verify --jobs N``, whose results do not depend on N.

A second solver (cvc5, from PyPI) reads each file written by verify and must give the
answer Z3 gave (``index.json``'s ``expected``): ``unsat`` for a proved claim, ``sat``
for a counterexample, a finding or a satisfiable example. A disagreement fails; so does
a cvc5 ``unknown`` (its step budget spent, or incompleteness, is never agreement). The
budget is counted in cvc5's steps, not seconds (:data:`~tricklaw.proofs.recheck.CVC5_UNITS`),
so the verdicts do not depend on the machine's load. The slow tier does this for every
ruleset; the fast tier for one ruleset at one player count.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import asdict
from pathlib import Path
from typing import Any

import cvc5
import pytest
import tiny
import z3

from tricklaw.model.rulesets import RULESETS
from tricklaw.proofs import smt2
from tricklaw.proofs.recheck import CVC5_UNITS, tree_verdict
from tricklaw.proofs.recorder import labelled, recording
from tricklaw.proofs.solver import PROVED, Tracked, check, exactly_one, optimum
from tricklaw.verify import Scope, collect


def cvc5_run(text: str, units: int = CVC5_UNITS) -> tuple[str, list[str]]:
    """cvc5's answer to the script ``text`` (``sat``, ``unsat``, ``unknown``, or
    ``error: ...``) and the names in its unsat core (when it answers unsat)."""
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("rlimit-per", str(units))  # steps, not seconds: see CVC5_UNITS
    solver.setOption("arrays-exp", "true")  # constant arrays: Z3's empty sets
    symbols = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "query")
    answer, core = "", []
    try:
        while True:
            command = parser.nextCommand()
            if command.isNull():
                break
            out = command.invoke(solver, symbols).strip()
            if out.startswith("(error"):
                return f"error: {out}", []
            if out.split(" ")[0] in ("sat", "unsat", "unknown"):  # "unknown (TIMEOUT)"
                answer = out.split(" ")[0]
                if answer != "unsat":
                    break  # no core to ask for
            elif out.startswith("(") and answer == "unsat":
                core = re.findall(r"\|[^|]*\||[^\s()|]+", out)
    except RuntimeError as exc:
        return f"error: {exc}", []
    return answer, [c.strip("|") for c in core]


def boolean_families(text: str) -> list[list[str]]:
    """The script's Boolean constants grouped by name stem (``pick_0``, ``pick_1``, ...
    are one family), smallest family first: the case splits :func:`split_unsat` tries."""
    families: dict[str, list[str]] = {}
    for name in re.findall(r"\(declare-fun (\S+) \(\) Bool\)", text):
        stem = re.sub(r"\d+$", "", name)
        if stem != name:
            families.setdefault(stem, []).append(name)
    return sorted((f for f in families.values() if len(f) > 1), key=len)


def split_unsat(text: str, units: int) -> bool:
    """Whether cvc5 proves the script unsat by cases: for some family of Boolean constants
    ``b_1 .. b_n`` (:func:`boolean_families`), the script plus ``b_i`` is unsat for every
    ``i``, and the script plus "no ``b_i``" is unsat too. The cases cover every model, so
    the script is unsat (a model would satisfy one of the case scripts). This settles the
    pseudo-Boolean score bounds cvc5 leaves open as a whole (each case fixes, say, which
    card was picked)."""
    for family in boolean_families(text):
        cases = [*family, f"(not (or {' '.join(family)}))"]
        if all(
            cvc5_run(text.replace("(check-sat)", f"(assert {case})\n(check-sat)", 1), units)[0]
            == "unsat"
            for case in cases
        ):
            return True
    return False


def recheck(
    directory: Path,
    budgets: tuple[int, ...] = (CVC5_UNITS,),
    queries: list[dict[str, Any]] | None = None,
) -> dict[str, list[str]]:
    """Every query of ``directory``'s ``index.json`` (or the given ``queries`` of it)
    checked by cvc5: the files by verdict (``agree``, ``disagree``, ``unknown``,
    ``skipped`` when Z3 itself had no answer), with what went wrong. Each budget in turn
    (cvc5's steps per check, smallest first): the query whole, then, for an unsat query
    cvc5 leaves open, by cases (:func:`split_unsat`); it agrees when every case is unsat
    (its unsat core is then the whole query's, checked by nobody: the answer is what is
    compared)."""
    if queries is None:
        queries = json.loads((directory / "index.json").read_text(encoding="utf-8"))["queries"]
    out: dict[str, list[str]] = {"agree": [], "disagree": [], "unknown": [], "skipped": []}
    for query in queries:
        name, expected = query["file"], query["expected"]
        if expected == "unknown":
            out["skipped"].append(name)
            continue
        text = (directory / name).read_text(encoding="utf-8")
        if query.get("kind") == "tree":  # a model = clauses proof: shape, then every check
            wrong, _ = tree_verdict(text, query)  # each check within the full CVC5_UNITS
            out["disagree" if wrong else "agree"].append(wrong or name)
            continue
        for units in budgets:
            answer, core = cvc5_run(text, units)
            if answer == "unknown" and expected == "unsat" and split_unsat(text, units):
                answer, core = "unsat", []
            if answer != "unknown":
                break
        if answer == expected and set(core) <= set(query["names"]):
            out["agree"].append(name)
        elif answer in ("unknown", ""):
            out["unknown"].append(name)
        else:
            out["disagree"].append(f"{name}: Z3 {expected}, cvc5 {answer} {core}")
    return out


def _assert_agree(directory: Path) -> int:
    verdicts = recheck(directory)
    assert not verdicts["disagree"], verdicts["disagree"][:10]
    assert not verdicts["unknown"], f"cvc5 gave no answer on {verdicts['unknown'][:10]}"
    assert not verdicts["skipped"], f"Z3 gave no answer on {verdicts['skipped'][:10]}"
    assert verdicts["agree"]
    return len(verdicts["agree"])


def _without_times(results: list[Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in asdict(r).items() if k != "seconds"} for r in results]


# --- the writer ------------------------------------------------------------------------------


def _query(named: list[tuple[str, z3.BoolRef]], answer: str) -> str:
    return smt2.script(named, answer)


def test_a_script_names_its_assertions_and_asks_for_the_core_only_when_unsat() -> None:
    x, y = z3.Ints("x y")
    named = [("RULE-1", x + 2 * y > 3), ("RULE-1#1", x < 0), ("claim:no-y", y <= 1)]
    text = _query(named, "unsat")
    assert "(set-option :produce-unsat-cores true)" in text
    assert "(set-logic QF_LIA)" in text
    assert ":named RULE-1)" in text and ":named |RULE-1#1|)" in text
    assert ":named |claim:no-y|)" in text
    assert text.count("(check-sat)") == 1 and "(get-unsat-core)" in text
    assert cvc5_run(text) == ("unsat", ["RULE-1", "RULE-1#1", "claim:no-y"])
    sat = _query(named[:2], "sat")
    assert "(get-unsat-core)" not in sat and cvc5_run(sat)[0] == "sat"


def test_the_logic_is_the_smallest_that_cvc5_accepts() -> None:
    """Linear arithmetic with a subtraction is ``QF_LIA``; a product of unknowns, or a
    function, ``ALL``; but a query that ``simplify`` settles (to false) passes Z3's probe
    whatever it holds, and one with a declared function is then ``QF_UFLIA`` (the edition
    diff's ``held_at`` made cvc5 refuse 38 scripts declared ``QF_LIA``). cvc5 reads each
    and agrees."""
    x, y = z3.Ints("x y")
    held = z3.Function("held", z3.IntSort(), z3.BoolSort())
    cases = [
        ("QF_LIA", [("A", x - y > 2), ("B", y - x > 0)]),
        ("ALL", [("A", x * y == 2), ("B", x > 2), ("C", y > 0)]),
        ("ALL", [("A", held(x)), ("B", z3.Not(held(y))), ("C", x == y)]),
        ("QF_UFLIA", [("A", held(x)), ("B", z3.Not(held(x)))]),
    ]
    for logic, named in cases:
        text = _query(named, "unsat")
        assert f"(set-logic {logic})" in text, text
        assert cvc5_run(text)[0] == "unsat", (logic, text)


def test_z3_only_constructs_are_written_in_standard_smt_lib() -> None:
    """Pseudo-booleans, set operations, lambdas, nullary and/or and unary sums: cvc5
    reads each rewritten query and gives Z3's answer."""
    a, b, c = z3.Bools("a b c")
    x = z3.Int("x")
    ints = z3.SetSort(z3.IntSort())
    s, t = z3.Const("s", ints), z3.Const("t", ints)
    k = z3.Int("k")
    cases: list[list[z3.BoolRef]] = [
        [z3.PbEq([(a, 1), (b, 1), (c, 1)], 1), a, b],
        [z3.AtMost(a, b, c, 1), z3.AtLeast(a, b, 2)],
        [z3.PbLe([(a, 2), (b, 3)], 4), a, b],
        [z3.IsMember(x, z3.SetUnion(s, t)), z3.Not(z3.IsMember(x, s)), z3.Not(z3.IsMember(x, t))],
        [z3.IsSubset(s, t), z3.IsMember(x, s), z3.Not(z3.IsMember(x, t))],
        [s == z3.Lambda([k], k > x), z3.IsMember(x, s)],
        [z3.Implies(a, z3.Or()), a],
        [z3.Sum([z3.If(a, 1, 0)]) == 2],
        [z3.And(), z3.Or(a), z3.Sum([z3.If(a, 1, 0)]) == 1],
    ]
    for formulas in cases:
        solver = z3.Solver()
        solver.add(*formulas)
        expected = str(solver.check())
        text = _query([(f"F-{i}", f) for i, f in enumerate(formulas)], expected)
        assert not re.search(r"pbeq|pble|at-most|at-least|union|subset|lambda", text), text
        assert cvc5_run(text)[0] == expected, text


def test_unary_and_nullary_operators_are_restated_on_the_text() -> None:
    """The restatement works on Z3's text: one argument is the argument, none the unit, a
    quoted symbol is never an operator, a let's body is restated and its bindings kept;
    a text with nothing to restate comes back as it is."""
    cases = {
        "(and x)": "x",
        "(and (or false (and a b)))": "(or false (and a b))",
        "(=> a (or))": "(=> a false)",
        "(=> a or)": "(=> a false)",
        "(* 2 (+ (ite a 1 0)))": "(* 2 (ite a 1 0))",
        "(let ((a!1 (and p q))) (or a!1))": "(let ((a!1 (and p q))) a!1)",
        "(and |and x| (or |y|))": "(and |and x| |y|)",
    }
    for text, expected in cases.items():
        assert smt2.restated(text) == expected, text
    kept = "(and p\n     (or q r))"
    assert smt2.restated(kept) is kept


def test_exactly_one_is_written_as_a_sum_of_ite() -> None:
    flags = z3.Bools("p q r")
    text = _query([("ONE", exactly_one(flags))], "sat")
    assert "(assert (! (= (+ (ite p 1 0) (ite q 1 0) (ite r 1 0)) 1) :named ONE))" in text


@pytest.mark.slow
def test_the_checker_reports_a_disagreement_and_an_unknown(tmp_path: Path) -> None:
    """No test that cannot fail: a wrong expected answer is a disagreement, and cvc5's
    spent budget (or incompleteness) is reported as unknown, not as agreement."""
    x, y, z = z3.Ints("x y z")
    queries = {
        "wrong.smt2": ([("A", x > 1), ("B", x < 0)], "sat"),
        "right.smt2": ([("A", x > 1)], "sat"),
        "hard.smt2": (
            [("H", z3.And(x > 1, y > 1, z > 1, x * x * x + y * y * y == z * z * z))],
            "unsat",
        ),
    }
    entries = []
    for name, (named, expected) in queries.items():
        (tmp_path / name).write_text(_query(named, expected), encoding="utf-8")
        entries.append({"file": name, "expected": expected, "names": [n for n, _ in named]})
    (tmp_path / "index.json").write_text(json.dumps({"queries": entries}), encoding="utf-8")
    verdicts = recheck(tmp_path, budgets=(100_000,))
    assert verdicts["agree"] == ["right.smt2"]
    assert [v.split(":")[0] for v in verdicts["disagree"]] == ["wrong.smt2"]
    assert verdicts["unknown"] == ["hard.smt2"]


def test_a_query_cvc5_cannot_settle_whole_is_settled_by_sound_cases() -> None:
    """The split covers every model: with the "none of the family" case missing from
    the cases it would wrongly confirm a satisfiable script, so that case is checked."""
    b = z3.Bools("b_0 b_1 b_2")
    x = z3.Int("x")
    exactly = [("ONE", z3.PbEq([(v, 1) for v in b], 1)), ("X", z3.If(b[0], x == 1, x == 2))]
    unsat_script = _query([*exactly, ("claim", x > 2)], "unsat")
    assert split_unsat(unsat_script, 1_000_000)
    none_is_possible = [("X", z3.If(z3.Or(*b), x == 1, x == 3)), ("claim", x > 2)]
    assert not split_unsat(_query(none_is_possible, "sat"), 1_000_000)
    assert [sorted(f) for f in boolean_families(unsat_script)] == [["b_0", "b_1", "b_2"]]


def test_the_solver_module_records_every_query_with_its_label(tmp_path: Path) -> None:
    x = z3.Int("x")
    with recording(tmp_path) as recorder, labelled(ruleset="r", players="3", obligation="o"):
        assert check([Tracked("C-1", x > 1), Tracked("claim:c", x < 1)], 5000).status == PROVED
        with labelled(reading="rule=a"):
            status, best, _ = optimum([Tracked("C-2", x <= 7)], x, True, 5000)
    assert (status, best) == (PROVED, 7)
    files = [e["file"] for e in recorder.entries]
    assert files[0] == "r-3p-o-0000.smt2"
    assert all(f.startswith("r-3p-o-rule=a-") for f in files[1:]) and len(files) >= 3
    answers = [e["expected"] for e in recorder.entries]
    assert answers[0] == "unsat" and "sat" in answers[1:] and answers[-1] == "unsat"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(files)


# --- verify --smt2 and --jobs ----------------------------------------------------------------


@pytest.mark.slow
def test_verify_smt2_on_one_table_is_checked_again_by_cvc5(
    tricklaw_script: str, tmp_path: Path
) -> None:
    out = tmp_path / "smt2"
    proc = subprocess.run(
        [tricklaw_script, "verify", "the-last", "-n", "3", "--smt2", str(out), "-j", "2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    index = json.loads((out / "index.json").read_text(encoding="utf-8"))
    listed = {q["file"] for q in index["queries"]}
    assert listed == {p.name for p in out.iterdir()} - {"index.json"}
    assert {q["obligation"].split()[0] for q in index["queries"]} >= {
        "coverage",
        "agreement",
        "conservation-base",
        "conservation-step",
        "score-max",
        "score-min",
    }
    assert _assert_agree(out) == len(listed)


@pytest.mark.slow
def test_smt2_refuses_a_non_empty_or_bad_directory(tricklaw_script: str, tmp_path: Path) -> None:
    (tmp_path / "old.smt2").write_text("(check-sat)\n", encoding="utf-8")
    file = tmp_path / "old.smt2"
    for target, words in ((tmp_path, "not empty"), (file, "not a directory")):
        proc = subprocess.run(
            [tricklaw_script, "verify", "the-last", "-n", "3", "--smt2", str(target)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 2, proc.stderr
        assert words in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
        assert "Traceback" not in proc.stderr
    assert file.read_text(encoding="utf-8") == "(check-sat)\n"


@pytest.mark.slow
def test_results_do_not_depend_on_the_number_of_processes() -> None:
    one = collect(Scope("the-last", jobs=1))
    assert _without_times(one) == _without_times(collect(Scope("the-last", jobs=3)))


@pytest.mark.slow
def test_a_plug_ins_results_do_not_depend_on_the_number_of_processes(registered: None) -> None:
    """The fast tier's version of the test above (a built-in ruleset's four player counts
    on one process and on three: verify's cost twice over): Tiny's two units, on one
    worker process and on two (each loads the plug-in: ``setup``)."""
    one = collect(Scope(tiny.RULESET_ID, jobs=1, setup=tiny.register))
    assert {r.players for r in one} >= {"2", "3"}
    two = collect(Scope(tiny.RULESET_ID, jobs=2, setup=tiny.register))
    assert _without_times(one) == _without_times(two)


@pytest.mark.slow
def test_a_plug_ins_results_do_not_depend_on_recording(registered: None, tmp_path: Path) -> None:
    """The fast tier's version of the test below (two verify runs of The Last with 2
    players): Tiny, with and without recording."""
    one = collect(Scope(tiny.RULESET_ID, jobs=2, setup=tiny.register))
    two = collect(Scope(tiny.RULESET_ID, jobs=2, setup=tiny.register, smt2=str(tmp_path)))
    assert (tmp_path / "index.json").exists()
    assert _without_times(one) == _without_times(two)


@pytest.mark.slow
def test_results_do_not_depend_on_recording(tmp_path: Path) -> None:
    """Recording once changed an unsat core (liveness-play, the-last, 2 players): Z3's cores
    depend on incidental state; :func:`~tricklaw.proofs.solver.minimal_core` does not."""
    one = collect(Scope("the-last", players=2, jobs=2))
    two = collect(Scope("the-last", players=2, jobs=2, smt2=str(tmp_path)))
    assert (tmp_path / "index.json").exists()
    assert _without_times(one) == _without_times(two)


RECHECK_BUDGETS = (200_000, 2_000_000)
"""cvc5's budgets per query (and per case of a split) in the slow tier's re-check of the
whole verify run, in its steps (see :data:`~tricklaw.proofs.recheck.CVC5_UNITS`), tried in
turn (:func:`recheck`). Steps are not seconds: 200,000 are 0.05 s on most queries, 0.6 s
on the edition diff's (which need up to 2 million) and 1.4 s on the hardest score bounds
(44 s whole, about 1 s by cases). The checks of a decision tree (no cases to split on)
get the full ``CVC5_UNITS``."""


SHARDS = 4
"""Each unit's proofs are re-checked in this many tests (every fourth file each), so that
no one test holds a core for long (Hund with 5 players has 173 decision trees, 63,000
checks: 16 minutes in one test)."""


def _tables() -> list[tuple[str, str]]:
    """The labels (ruleset, player count) of verify's units: every ruleset's player counts,
    the ruleset's own checks (count ``""``) and the edition diff (``""``, ``""``)."""
    return [("", "")] + [
        (r, str(n)) for r in sorted(RULESETS) for n in ("", *RULESETS[r].player_counts)
    ]


@pytest.mark.slow(minutes=2)
@pytest.mark.parametrize("shard", range(SHARDS))
@pytest.mark.parametrize(("ruleset", "players"), _tables())
def test_every_proof_of_verify_is_checked_again_by_cvc5(
    ruleset: str, players: str, shard: int, verify_run: Any
) -> None:
    """The suite's one ``tricklaw verify --smt2`` run (``verify_run``, tests/conftest.py),
    one unit of verify and one shard of it per test (xdist spreads them over the cores):
    cvc5 on every query Z3 proved (unsat; by cases where it cannot settle a query whole),
    the model = clauses proofs' decision trees among them. A disagreement fails, and so
    does a proof cvc5 leaves undecided."""
    index = json.loads((verify_run.smt2 / "index.json").read_text(encoding="utf-8"))
    unit = [
        q
        for q in index["queries"]
        if (q["ruleset"], q["players"]) == (ruleset, players) and q["expected"] == "unsat"
    ]
    assert unit
    proved = unit[shard::SHARDS]
    verdicts = recheck(verify_run.smt2, RECHECK_BUDGETS, proved)
    assert not verdicts["disagree"], verdicts["disagree"][:10]
    assert not verdicts["unknown"], f"cvc5 gave no answer on {verdicts['unknown'][:10]}"
    assert len(verdicts["agree"]) == len(proved)
    print(f"{ruleset or 'editions'} {players} ({shard}): cvc5 confirms all {len(proved)} proofs")


@pytest.mark.slow
def test_every_query_of_verify_belongs_to_a_unit_checked_above(verify_run: Any) -> None:
    """So that the per-unit re-check above leaves no query out."""
    index = json.loads((verify_run.smt2 / "index.json").read_text(encoding="utf-8"))
    assert index["queries"]
    assert {(q["ruleset"], q["players"]) for q in index["queries"]} <= set(_tables())
