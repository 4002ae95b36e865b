"""Docs a reader would look at (issue 15, part 6): card contrast, the action kinds of the
format pages, the oracle page's example log, and "How a trick is won" atop each ruleset
page with the clause citations folded away. The extension is imported from
``docs/_ext`` as in tests/test_docs.py; the full build is tests/test_docs.py's."""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tricklaw.check.lines import check_lines
from tricklaw.model.actions import ActionKind
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.spec import load_registry

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CSS = DOCS / "_static" / "tricklaw.css"


@pytest.fixture
def ext(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The docs extension's package, imported from ``docs/_ext``."""
    monkeypatch.syspath_prepend(str(DOCS / "_ext"))
    return importlib.import_module("tricklaw_docs")


@pytest.fixture
def tiny_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The example plug-in game of ``tests/tiny/``, registered while the test runs."""
    monkeypatch.syspath_prepend(str(ROOT / "tests"))
    tiny = importlib.import_module("tiny")
    tiny.register()
    try:
        yield tiny.RULESET_ID
    finally:
        tiny.unregister()


# --- contrast ----------------------------------------------------------------------------


def _luminance(hex_colour: str) -> float:
    """WCAG 2 relative luminance of ``#rrggbb``."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two ``#rrggbb`` colours."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_contrast_formula_matches_known_values() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert contrast("#e67e22", "#ffffff") < 3  # the old orange card: the failure reported


def test_every_card_colour_passes_wcag_aa_on_white() -> None:
    """Each palette colour of every ruleset is a CSS class whose colour has at least 4.5:1
    contrast with white: the value on a white card and the white value of a winning card
    (AA for normal text; the letter is small). Nothing dims the glyph's text."""
    css = CSS.read_text(encoding="utf-8")
    colours = dict(re.findall(r"\.tl-([a-z]+) \{ --tl-c: (#[0-9a-f]{6}); \}", css))
    names = {name for r in RULESETS.values() for name in r.palette.names}
    assert names <= colours.keys(), names - colours.keys()
    assert "background: #fff" in css
    low = {n: round(contrast(colours[n], "#ffffff"), 2) for n in names}
    assert all(ratio >= 4.5 for ratio in low.values()), low
    card_rules = re.findall(r"\.tl-card[^{]*\{([^}]*)\}", css)
    assert card_rules and not any("opacity" in rule for rule in card_rules)


# --- the format pages --------------------------------------------------------------------


def test_the_actions_table_lists_every_kind_with_its_rulesets(ext: ModuleType) -> None:
    table = "\n".join(ext.actions.actions_table())
    for kind in ActionKind:
        assert f"| {kind.name.lower()} | `" in table
    row = {line.split(" | ")[0].strip("| "): line for line in table.splitlines()[2:]}
    for rid, r in RULESETS.items():
        for kind in ActionKind:
            assert (f"`{rid}`" in row[kind.name.lower()]) == (kind in r.action_kinds)
    assert "`hund`" in row["leader"] and "`hund`" in row["designate"]
    formats = (DOCS / "formats.md").read_text(encoding="utf-8")
    assert "generated/actions.inc" in formats
    assert "literalinclude:: ../spec/record.schema.json" not in formats


def test_the_oracle_page_shows_a_log_that_checks_and_links_the_schema(ext: ModuleType) -> None:
    oracle = (DOCS / "oracle.md").read_text(encoding="utf-8")
    assert "literalinclude:: ../spec/log.schema.json" not in oracle
    assert "{download}`spec/log.schema.json" in oracle
    assert "generated/log-example.inc" in oracle
    rid = next(iter(RULESETS))
    lines = ext.log_example.example_log(rid, 3, 1)
    assert len(lines) > ext.log_example.SHOWN
    assert json.loads(lines[0])["ruleset"] == rid
    verdict = check_lines(iter(lines))
    assert verdict.status == "agrees", verdict.message


# --- the ruleset pages -------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_a_ruleset_page_opens_with_how_a_trick_is_won(ext: ModuleType, ruleset_id: str) -> None:
    page = ext.rulesets.ruleset_page(ruleset_id)
    how = page.index("## How a trick is won")
    assert how < page.index("## Options") < page.index("## Clauses")
    section = page[how : page.index("\n## ", how + 1)]
    trick_clauses = [c.id for c in load_registry(ruleset_id).clauses if c.kind == "trick"]
    at = [section.index(f"{{clause}}`{cid}`") for cid in trick_clauses]
    assert at == sorted(at), "the trick clauses in the text's order"
    examples = ext.trick_intro.trick_examples(ruleset_id)
    assert examples, "at least one trick clause has a drawn example"
    ruleset = get_ruleset(ruleset_id)
    for cid, (players, cards) in examples.items():
        assert f"```{{trick}} {ruleset_id} {' '.join(cards)}" in section
        result = ruleset.judge_trick(
            ruleset.make_game(players), ruleset.palette.parse_all(cards), {}
        )
        assert cid in result.clauses
    assert section.count("```{trick}") == len(examples)
    assert section.count("No drawn example") == len(trick_clauses) - len(examples)


def test_citations_fold_away(ext: ModuleType) -> None:
    page = ext.rulesets.ruleset_page("sticheln-1993")
    assert page.count('<details class="tl-cites">') >= 10
    assert page.count("<details") == page.count("</details>")
    clauses = page[page.index("## Clauses") :]
    for block in clauses.split("\n### ")[1:]:
        for line in block.splitlines():
            if line.startswith(("Code: ", "Z3: ", "Tests: ")) and "missing" not in line:
                before = block[: block.index(line)]
                assert before.count("<details") == before.count("</details>") + 1, line


def test_a_plug_in_game_gets_how_a_trick_is_won(ext: ModuleType, tiny_game: str) -> None:
    page = ext.rulesets.ruleset_page(tiny_game)
    assert "## How a trick is won" in page
    assert ext.trick_intro.trick_examples(tiny_game)


# --- the disputes register and the plots ------------------------------------------------


def test_the_disputes_register_has_an_index_of_every_dispute(ext: ModuleType) -> None:
    index = "\n".join(ext.disputes.dispute_index(list(RULESETS)))
    every = [d.id for rid in RULESETS for d in load_registry(rid).disputes]
    assert every and all(f"{{clause}}`{did}`" in index for did in every)
    assert index.count("\n| `") == len(every)


def test_readings_are_drawn_side_by_side(ext: ModuleType) -> None:
    reg = load_registry("sticheln-1993")
    dispute = reg.dispute("STI93-D-ALLZERO")
    block = "\n".join(ext.disputes.side_by_side("sticheln-1993", dispute, 4, ["R0", "B0"], {}))
    assert block.startswith("````{container} tl-side")
    for reading in dispute.readings:
        assert f":option: {dispute.option}={reading.value}" in block
    assert block.count("```{trick}") == len(dispute.readings)
    assert block.count(":compact:") == len(dispute.readings)


def test_the_score_bounds_become_one_range_plot_per_ruleset(ext: ModuleType) -> None:
    import xml.etree.ElementTree as ET

    from tricklaw.spec.proved_bounds import MAX, MIN, bound_cells, load_bounds

    cells = bound_cells(load_bounds().rows)
    for rid in RULESETS:
        rows, unproved = ext.range_plot.range_rows(cells, rid, MIN, MAX)
        mine = {k: v for k, v in cells.items() if k[0] == rid}
        assert sum(len(r.readings) for r in rows) + len(unproved) == len(mine)
        for r in rows:  # every reading on a bar has exactly that proved range
            for reading in r.readings:
                cell = mine[(rid, r.players, reading)]
                assert (int(cell[MIN]), int(cell[MAX])) == (r.least, r.greatest)
        svg = ext.range_plot.range_svg(rid, rows, "score")
        root = ET.fromstring(svg)
        assert len(root.findall("{http://www.w3.org/2000/svg}g")) == len(rows)
    sti = ext.range_plot.range_rows(cells, "sticheln-1993", MIN, MAX)[0]
    assert len(sti) < len([k for k in cells if k[0] == "sticheln-1993"]) / 3


@pytest.mark.slow
def test_the_statistics_plots_are_svg_panels_with_readable_labels(
    ext: ModuleType, tmp_path: Path
) -> None:
    ext.plot.gen_plot(tmp_path, 4)
    for rid in RULESETS:
        svg = (tmp_path / "img" / f"scores-{rid}.svg").read_text(encoding="utf-8")
        sizes = [float(s) for s in re.findall(r"font-size:\s*([\d.]+)px", svg)]
        width = float(re.search(r'width="([\d.]+)pt"', svg).group(1))  # type: ignore[union-attr]
        # Drawn at most ~1.5x smaller than its own size on a phone (375 px column):
        assert sizes and min(sizes) * min(1.0, 375 / (width * 4 / 3)) >= 9, (rid, sizes, width)
    inc = (tmp_path / "scores-plots.inc").read_text(encoding="utf-8")
    assert inc.count("![") == len(RULESETS)


@pytest.mark.slow
def test_the_statistics_games_are_the_references_whichever_engine_plays(
    ext: ModuleType,
) -> None:
    """The plot's default engine is the batch engine; its first-round scores are the
    reference's, seed for seed, at every player count of every ruleset (The Last's and
    Hund's two-player games too)."""
    pytest.importorskip("numpy")
    for ruleset in RULESETS.values():
        for players in ruleset.player_counts:
            game = ruleset.make_game(players)
            batch = ext.plot.first_round_scores(game, 12, "batch")
            assert batch == ext.plot.first_round_scores(game, 12, "reference"), game
            assert len(batch) == 12 * players


# --- the mutation page --------------------------------------------------------------------


def test_the_mutation_page_names_every_mutant_no_obligation_killed(
    ext: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page counts a checked-in record's results and names, by id, every mutant that
    is not a strict kill (a survivor, a kill by the vectors alone or by a solver's
    ``unknown`` alone); the strict kills and the equivalents only in the counts."""
    from dataclasses import asdict

    from tricklaw.mutation.journal import Journal
    from tricklaw.mutation.runner import MutantResult
    from tricklaw.mutation.verdicts import Settings

    page = importlib.import_module("tricklaw_docs.mutation")
    journal = tmp_path / "run.jsonl"
    kept = Journal.open(journal, "digest", Settings())
    failed = ({"obligation": "agree trick", "status": "fail"},)
    gave_up = ({"obligation": "equivalence", "status": "unknown"},)
    for result in [
        MutantResult("a.strict", "", "killed", ("x",), ("k",), failed, 1.0, {}, "obligation"),
        MutantResult("b.vectors", "", "killed", ("x",), ("k",), failed, 1.0, {}, "vectors"),
        MutantResult("c.survivor", "", "survived", ("x",), ("differs here",), (), 1.0),
        MutantResult("d.same", "", "equivalent", (), (), (), 1.0),
        MutantResult("e.gave-up", "", "killed", ("x",), ("k",), gave_up, 1.0, {}, "unknown"),
    ]:
        kept.add_result(asdict(result), result.id)
    kept.add_baseline("x", 12.0)
    kept.close()
    records = tmp_path / "mutation"
    records.mkdir()
    journal.rename(records / "abc1234.jsonl")
    monkeypatch.setattr(page, "RECORDS", records)
    page.gen_mutation(tmp_path / "gen")
    text = (tmp_path / "gen" / "mutation.md").read_text("utf-8")
    assert "## The run at commit `abc1234`" in text and "5 mutants decided so far" in text
    assert "**Score** (killed / behaviour-changing): 75.0 % of 4" in text
    assert "**strict score**" in text and "25.0 %" in text
    named = re.findall(r"^\| `([^`]+)` \|", text, re.M)
    assert named == ["b.vectors", "c.survivor", "e.gave-up"]
    assert "| `e.gave-up` | killed | unknown | equivalence |" in text
    assert "differs here" in text and "x 12 s" in text
    small = Journal.open(records / "0000000.jsonl", "digest", Settings())
    small.add_result(asdict(MutantResult("f.one", "", "equivalent", (), (), (), 1.0)), "f.one")
    small.close()
    page.gen_mutation(tmp_path / "gen")
    text = (tmp_path / "gen" / "mutation.md").read_text("utf-8")
    runs = re.findall(r"^## The run at commit `(\w+)`", text, re.M)
    assert runs == ["abc1234", "0000000"]  # the most decided first, whatever the names


def test_every_checked_in_mutation_record_reads_as_a_journal() -> None:
    """The records the mutation page shows are journals a run can go on from (named for
    the commit they were run at), each result decided."""
    from tricklaw.mutation import verdicts
    from tricklaw.mutation.journal import read

    decided = {verdicts.KILLED, verdicts.SURVIVED, verdicts.TIMEOUT, verdicts.ERROR}
    decided |= {verdicts.EQUIVALENT, verdicts.NOT_APPLIED, verdicts.UNREACHED}
    records = sorted((DOCS / "mutation").glob("*.jsonl"))
    assert records  # the page would say that no run is checked in
    for path in records:
        assert re.fullmatch(r"[0-9a-f]{7,40}", path.stem), path.name
        got = read(path)
        assert got.results and not got.fingerprint, path.name
        for entry in got.results.values():
            assert entry["status"] in decided
            assert entry["status"] != "killed" or entry["kind"] in verdicts.KINDS
