"""An unchanged fingerprint shows a mutant equivalent only where the fingerprint ran
(issue 14, part 6): :mod:`tricklaw.mutation.reach` and the runner's ``unreached``.

Fast tier: a patch's changed lines and the statements holding them, as coverage.py
names statements; every mutant of lowhigh's rules changes some statement. Slow tier:
every one of the project's mutants does; the runner asks verify about a mutant whose
statements never ran, and names it ``unreached`` when verify does not kill it (five runs
of the fingerprint); coverage.py's measure of the unmutated lowhigh fingerprint, on a
rule it runs and a message it never gives.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tricklaw.mutation import blind_spots, reach, runner, verdicts
from tricklaw.mutation.mutants import (
    Mutant,
    generate,
    make_patch,
    mutants_of_file,
    repo_root,
    rule_files,
)
from tricklaw.mutation.reach import changed_lines, mutated_statements, statements
from tricklaw.mutation.verdicts import EQUIVALENT, KILLED, SURVIVED, UNREACHED, Settings

LOWHIGH = "model/rulesets/lowhigh.py"

pytestmark = pytest.mark.skipif(
    not (repo_root() / "pyproject.toml").exists(),
    reason="the mutation harness mutates a source tree (see tests/test_mutation.py)",
)

SOURCE = textwrap.dedent(
    '''\
    import functools


    @functools.cache
    def rule(a, b=1):
        """A rule."""
        # a comment
        if (a > 1
                and b < 2):
            return a
        return [x
                for x in range(b)]
    '''
)


def test_a_patchs_changed_lines_are_the_old_files() -> None:
    after = SOURCE.replace("b < 2", "b <= 2").replace("return a\n", "return a\n    pass\n")
    patch = make_patch("pkg/rules.py", SOURCE, after)
    assert changed_lines(patch) == {"pkg/rules.py": {9, 10}}
    inserted = make_patch("pkg/rules.py", SOURCE, SOURCE + "X = 1\n")
    assert changed_lines(inserted) == {"pkg/rules.py": {12}}


@pytest.mark.parametrize(
    ("line", "statement"),
    [
        (9, 8),  # the second line of an if's test: the if
        (12, 11),  # a comprehension's second line: its return
        (5, 4),  # a default of a decorated def: the def, named by its decorator
        (4, 4),  # the decorator itself
        (7, None),  # a comment runs nothing
    ],
)
def test_a_changed_line_is_named_by_the_statement_holding_it(
    line: int, statement: int | None
) -> None:
    assert statements(SOURCE, [line]) == ({statement} if statement else set())


@pytest.mark.slow
def test_every_mutant_of_the_project_changes_a_statement() -> None:
    root = repo_root()
    empty = [m.id for m in generate(root) if not any(mutated_statements(root, m.patch).values())]
    assert not empty


@pytest.mark.slow
def test_every_mutant_of_lowhigh_changes_a_statement() -> None:
    """The fast tier's version of the test above, on one rule file's mutants."""
    root = repo_root()
    mutants = mutants_of_file(root, LOWHIGH)
    assert mutants
    assert not [m.id for m in mutants if not any(mutated_statements(root, m.patch).values())]


OPEN_IF = textwrap.dedent(
    """\
    def rule(a):
        if (
            a > 1
            or a < -1
        ):
            return a
        return 0


    rule(2)
    """
)


@pytest.mark.slow
def test_a_statement_that_ran_is_named_by_its_first_line(tmp_path: Path) -> None:
    """The interpreter reports the lines of an ``if (`` test below it, never the ``if``
    line; coverage.py's analysis names the statement, as :func:`statements` does."""
    (tmp_path / "rules.py").write_text(OPEN_IF)
    data = tmp_path / "ran.coverage"
    command = [sys.executable, "-m", "coverage", "run", f"--data-file={data}", "rules.py"]
    subprocess.run(command, cwd=tmp_path, check=True)
    ran = reach.ran_lines(data, tmp_path)["rules.py"]
    assert statements(OPEN_IF, [3]) == {2}
    assert {2, 6} <= ran and 7 not in ran  # the if, its return; not the other return


@pytest.fixture
def verify_says(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """verify replaced: it gives ``outcome`` (survived unless set) and records the
    rulesets asked."""
    said: dict[str, Any] = {"outcome": SURVIVED, "asked": []}

    def fake(_tree: Path, ruleset: str, *_: Any, **__: Any) -> tuple[str, list[Any], str]:
        said["asked"].append(ruleset)
        failures = [] if said["outcome"] == SURVIVED else [{"obligation": "rule x"}]
        return said["outcome"], failures, "obligation" if failures else ""

    monkeypatch.setattr(verdicts, "verify", fake)
    return said


def _harmless(root: Path) -> Mutant:
    """A mutant that changes which clause forbids a move (a message, not a rule): the
    fingerprint is unchanged."""
    source = (root / LOWHIGH).read_text(encoding="utf-8")
    after = source.replace('return "LH-PLAY-1"', 'return "LH-PLAY-9"', 1)
    assert after != source
    return Mutant("harmless", "a message", make_patch(LOWHIGH, source, after))


@pytest.mark.slow
def test_an_unchanged_fingerprint_where_it_never_ran_asks_verify(
    verify_says: dict[str, Any],
) -> None:
    root, settings = repo_root(), Settings(verify_equivalent=False)
    base = runner.baseline_fingerprint(root, ["lowhigh"], settings)
    files = rule_files(root)
    mutant = _harmless(root)
    ran_all = {LOWHIGH: frozenset(range(1, 10_000))}
    same = runner.run_mutant(mutant, root, base, settings, files, ran=lambda: ran_all)
    assert same.status == EQUIVALENT and verify_says["asked"] == []
    asked = runner.run_mutant(mutant, root, base, Settings(), files, ran=lambda: ran_all)
    assert asked.status == EQUIVALENT and verify_says["asked"] == ["lowhigh"]
    verify_says["outcome"] = KILLED  # verify sees what the fingerprint's games did not
    seen = runner.run_mutant(mutant, root, base, Settings(), files, ran=lambda: ran_all)
    assert seen.status == KILLED and seen.killed_by and "fingerprint" in seen.witness[0]
    verify_says["outcome"], verify_says["asked"] = SURVIVED, []
    never = runner.run_mutant(mutant, root, base, settings, files, ran=lambda: {})
    assert never.status == UNREACHED and verify_says["asked"] == ["lowhigh"]
    assert never.witness and all(
        "never runs model/rulesets/lowhigh.py:" in w for w in never.witness
    )
    verify_says["outcome"] = KILLED
    killed = runner.run_mutant(mutant, root, base, settings, files, ran=lambda: {})
    assert killed.status == KILLED and killed.kind == "obligation"
    assert runner.summary([never, killed])["unreached"][0]["id"] == "harmless"


@pytest.mark.slow
@pytest.mark.mutation
def test_coverage_measures_what_the_unmutated_fingerprint_runs() -> None:
    """lowhigh's score runs in every game; the clause that forbids a move is asked only
    of an illegal one, which the fingerprint never plays."""
    root = repo_root()
    ran = runner.baseline_ran(root, ["lowhigh"], Settings())
    source = (root / LOWHIGH).read_text(encoding="utf-8").splitlines()
    message = source.index('            return "LH-PLAY-1"') + 1
    threshold = (
        source.index("        total += sum(values) if len(values) <= 2 else len(values)") + 1
    )
    assert message not in ran[LOWHIGH]
    assert threshold in ran[LOWHIGH]
    assert {LOWHIGH, "model/flow.py"} <= set(ran)


def test_the_statements_of_a_rule_function_leave_out_its_docstring(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "rules.py").write_text(SOURCE)
    assert blind_spots.rule_statements(tmp_path, "pkg/rules.py") == {8, 10, 11}
    files = {"pkg/rules.py": ["a", "b"]}
    ran = {"pkg/rules.py": frozenset({8, 11})}
    assert blind_spots.blind_spots(tmp_path, files, ["a", "b"], ran) == [("pkg/rules.py", 10)]
    assert blind_spots.blind_spots(tmp_path, files, ["a"], ran) == []  # b's run is not in


THE_LAST = "model/rulesets/the_last/ruleset.py"


@pytest.mark.slow
@pytest.mark.mutation
def test_a_rule_statement_verify_never_runs_is_a_blind_spot(tmp_path: Path) -> None:
    """A branch planted in The Last's game end that no game takes: verify, run under
    coverage.py on a copy of the source, never runs it, and it is listed."""
    root = runner.copy_tree(repo_root(), tmp_path / "src")
    source = (root / THE_LAST).read_text(encoding="utf-8")
    anchor = "        over: bool = rounds_played >= rules_of(game).rounds\n"
    planted = "        if rounds_played < 0:\n            return True\n"
    (root / THE_LAST).write_text(source.replace(anchor, planted + anchor, 1))
    line = source.splitlines().index(anchor.rstrip("\n")) + 2
    data = tmp_path / "verify.coverage"
    assert blind_spots.measure(root, "the-last", data) is None
    ran = reach.ran_lines(data, root)
    spots = blind_spots.blind_spots(root, rule_files(root), ["the-last"], ran)
    assert (THE_LAST, line) in spots
    assert (THE_LAST, line - 1) not in spots  # the test itself runs
