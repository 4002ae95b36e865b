"""The documentation: the traceability check, the clause role, and a full Sphinx build.

The clause scanner and the rules of the check live in ``docs/_ext/tricklaw_trace.py``
(the docs' traceability matrix renders the same data):

* every normative clause (kind not advice, info or example) is cited in ``model/``
  (overviews of a game's aim, kind ``game`` with ``-AIM-`` in the id, are exempt) and
  by a ``@clause`` test;
* every clause of kind ``trick`` is cited in ``proofs/``.

The build runs ``python -m sphinx -W -n -b html docs <tmp>`` from outside the repository,
exactly as after ``pip install '.[test]'``; ``docs/conf.py`` puts the repository root
(the package's source tree) first on ``sys.path``, so autodoc reads plain sources.

The extension (the package ``docs/_ext/tricklaw_docs/``) is not installed: the tests
import it with ``docs/_ext`` on ``sys.path``. A ruleset's page is a function of its id
alone, so a plug-in game (``tests/tiny/``) gets one too.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tricklaw.model.rulesets import RULESETS
from tricklaw.spec import load_registry

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _trace() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "tricklaw_trace", DOCS / "_ext" / "tricklaw_trace.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tricklaw_trace"] = module
    spec.loader.exec_module(module)
    return module


trace = _trace()


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_every_normative_clause_is_implemented_and_tested(ruleset_id: str) -> None:
    traces = trace.trace(ruleset_id)
    no_code = [t.clause_id for t in traces if t.needs_code and not t.code]
    no_test = [t.clause_id for t in traces if t.needs_test and not t.test]
    assert no_code == [], f"{ruleset_id}: no citation in model/ of {', '.join(no_code)}"
    assert no_test == [], f"{ruleset_id}: no @clause test of {', '.join(no_test)}"


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_every_trick_clause_has_a_proof_citation(ruleset_id: str) -> None:
    traces = trace.trace(ruleset_id)
    assert any(t.kind == "trick" for t in traces)
    missing = [t.clause_id for t in traces if "proof" in t.gaps()]
    assert missing == [], f"{ruleset_id}: no Z3 assertion in proofs/ of {', '.join(missing)}"
    for t in traces:
        if t.unasserted:  # a declared exception is a trick clause with no assertion
            assert t.needs_proof and not t.asserted, t.clause_id


@pytest.mark.slow
def test_only_aim_overviews_are_exempt_from_code() -> None:
    exempt = [
        t.clause_id for r in RULESETS for t in trace.trace(r) if t.normative and not t.needs_code
    ]
    assert exempt and all("-AIM-" in cid for cid in exempt)


@pytest.mark.slow
def test_the_scanners_agree_with_the_clause_coverage_test() -> None:
    _, proof, test = trace.all_citations()
    assert "test_sticheln_clauses.py" in {c.path.rsplit("/", 1)[-1] for c in test["STI93-TRICK-3"]}
    assert any(c.how == "assertion" for c in proof["STI93-TRICK-5"])
    assert trace.ids_in("(STI93-SELECT-1..3, STI-TRICK-2/3)") == [
        "STI93-SELECT-1",
        "STI93-SELECT-2",
        "STI93-SELECT-3",
        "STI-TRICK-2",
        "STI-TRICK-3",
    ]


@pytest.fixture
def docs_extension(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The docs extension's package, imported from ``docs/_ext``."""
    monkeypatch.syspath_prepend(str(DOCS / "_ext"))
    return importlib.import_module("tricklaw_docs")


@pytest.fixture
def tiny_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The example plug-in game of ``tests/tiny/``, registered in every layer while the
    test runs; its ruleset id."""
    monkeypatch.syspath_prepend(str(ROOT / "tests"))
    tiny = importlib.import_module("tiny")
    tiny.register()
    try:
        yield tiny.RULESET_ID
    finally:
        tiny.unregister()


@pytest.mark.slow
def test_a_plug_in_game_gets_its_pages(docs_extension: ModuleType, tiny_game: str) -> None:
    """The per-ruleset pages are generated from the registries for any ruleset id: the
    plug-in's ruleset page anchors every clause of its registry and names its dispute, and
    the disputes register and the matrix have its section."""
    page = docs_extension.rulesets.ruleset_page(tiny_game)
    clauses = [c.id for c in load_registry(tiny_game).clauses]
    assert "TINY-DECK-1" in clauses
    assert page.startswith(f"(ruleset-{tiny_game})=\n")
    for cid in clauses:
        assert f"(clause-{cid.lower()})=\n### {cid}\n" in page
    assert "| `tie` | `shared` | `shared`, `nobody` | {clause}`TINY-D-TIE` |" in page
    section = "\n".join(docs_extension.disputes.dispute_section(tiny_game))
    assert "(dispute-tiny-d-tie)=\n### TINY-D-TIE: " in section
    assert "`--option tie=nobody`" in section
    table = "\n".join(docs_extension.matrix.matrix_section(tiny_game))
    assert all(f"| {{clause}}`{cid}` |" in table for cid in clauses)


def _sphinx(src: Path, out: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-n", "-q", "-b", "html", str(src), str(out)],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.slow
def test_an_unknown_clause_id_fails_the_build(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(DOCS / '_ext')!r})\n"
        "extensions = ['myst_parser', 'tricklaw_docs']\n"
        "tricklaw_generate = False\n",
        encoding="utf-8",
    )
    (src / "index.md").write_text("# Test\n\nSee {clause}`STI93-TRICK-99`.\n", encoding="utf-8")
    run = _sphinx(src, tmp_path / "out", tmp_path)
    assert run.returncode != 0
    assert "unknown clause id 'STI93-TRICK-99'" in run.stderr


@pytest.mark.slow(minutes=3)
def test_the_docs_build_without_warnings(tmp_path: Path) -> None:
    out = tmp_path / "html"
    run = _sphinx(DOCS, out, tmp_path)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    for page in RULESETS:
        html = (out / "generated" / "rulesets" / f"{page}.html").read_text(encoding="utf-8")
        prefix = trace.known_ids([page])
        assert all(f'id="clause-{cid.lower()}"' in html for cid in prefix if "-D-" not in cid)
    disputes = (out / "generated" / "disputes.html").read_text(encoding="utf-8")
    assert 'id="dispute-sti93-d-allzero"' in disputes
    assert "tl-card" in disputes
    matrix = (out / "generated" / "matrix.html").read_text(encoding="utf-8")
    assert "tl-gap" in matrix  # the legend; no row may show a gap:
    assert matrix.count("✗ missing") == 1
    for page in RULESETS:
        assert (out / "_images" / f"scores-{page}.svg").stat().st_size > 5_000
        assert (out / "_images" / f"bounds-{page}.svg").is_file()
    assert "tricklaw replay" in (out / "generated" / "cli.html").read_text(encoding="utf-8")
