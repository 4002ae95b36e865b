"""The mutation page (``generated/mutation.md``): how many of the project's own mutants of
the model ``tricklaw verify`` kills, from the checked-in records in ``docs/mutation/``
(each a run's journal without its fingerprints, named for the commit it was run at,
:func:`tricklaw.mutation.journal.write_record`). A whole run takes hours, so the build
reads the records instead of running it; a record that holds only part of the set says
so, and counts only what it holds."""

from __future__ import annotations

from pathlib import Path

from tricklaw.mutation.runner import MutantResult

from .markdown import md_escape, write

RECORDS = Path(__file__).resolve().parents[2] / "mutation"
"""The checked-in records (``docs/mutation/<commit>.jsonl``)."""


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f} %"


def _most_decided(path: Path) -> tuple[int, str]:
    """The page's order of records: the most results first, then by name."""
    from tricklaw.mutation.journal import read

    return -len(read(path).results), path.name


def record_section(path: Path) -> list[str]:
    """The section of one record: the counts, the scores, and every result that is not a
    kill the strict score counts (survivors, time-outs, errors and the other kills, such
    as one by a solver's ``unknown`` alone), by name, with what killed it or where it
    differed."""
    from tricklaw.mutation.journal import read
    from tricklaw.mutation.runner import summary
    from tricklaw.mutation.verdicts import EQUIVALENT, KILLED, NOT_APPLIED, STRICT_KINDS

    got = read(path)
    results = [MutantResult.from_dict(entry) for entry in got.results.values()]
    report = summary(results)
    commit = path.stem
    out = [
        f"## The run at commit `{commit}`",
        "",
        f"{len(results)} mutants decided so far (a run goes on from this record: see "
        "[the mutation tier](mutation-tier)). "
        f"Settings: verify's `--timeout` {got.head.get('timeout_ms')} ms, a child run's limit "
        f"{got.head.get('verify_limit')} s, "
        + (
            "`--fail-fast` (a kill outside the strict score settled by a whole run)."
            if got.head.get("fail_fast")
            else "whole runs."
        ),
        "",
        "| status | mutants |",
        "| --- | ---: |",
    ]
    out += [f"| {status} | {n} |" for status, n in sorted(report["counts"].items())]
    out += [
        "",
        f"**Score** (killed / behaviour-changing): {_percent(report['score'])} of "
        f"{report['behaviour-changing']}; **strict score** (kills by an obligation, a "
        f"counterexample, a check's error or a run cut at its time limit only): "
        f"{_percent(report['strict-score'])}.",
        "",
        "| killed by | mutants |",
        "| --- | ---: |",
    ]
    out += [f"| {md_escape(kind)} | {n} |" for kind, n in report["kinds"].items()]
    if got.baseline:
        times = ", ".join(f"{rid} {s:.0f} s" for rid, s in sorted(got.baseline.items()))
        out += ["", f"The unmutated verify of each ruleset took: {times}."]
    rest = [
        r
        for r in results
        if r.status not in {EQUIVALENT, NOT_APPLIED}
        and not (r.status == KILLED and r.kind in STRICT_KINDS)
    ]
    out += ["", "### Not killed by an obligation", ""]
    if not rest:
        out += ["None: every behaviour-changing mutant decided so far failed an obligation.", ""]
    else:
        out += [
            "| mutant | status | how | first failure or difference |",
            "| --- | --- | --- | --- |",
        ]
        for r in rest:
            first = r.killed_by[0] if r.killed_by else {}
            what = ": ".join(v for v in (first.get("obligation"), first.get("detail")) if v)
            what = what or (r.witness[0] if r.witness else "")
            how = r.kind or "-"
            out.append(f"| `{r.id}` | {r.status} | {md_escape(how)} | {md_escape(what[:160])} |")
        out.append("")
    return out


def gen_mutation(gen: Path) -> None:
    """Write ``generated/mutation.md`` from every record in :data:`RECORDS`."""
    out = [
        "(mutation)=",
        "# Mutation score of verify",
        "",
        "How many bugs planted in the model does `tricklaw verify` catch on its own? "
        "`python -m tricklaw.mutation` plants the project's own mutants (an AST mutator's "
        "fifteen operators over every ruleset's rule functions, and one over its rule "
        "tables; see "
        "{py:mod}`tricklaw.mutation.operators`) one at a time in a copy of the source, tells a "
        "behaviour-changing mutant from an equivalent one by a fingerprint of the model on "
        "seeded games, tricks, hands and game ends ({py:mod}`tricklaw.mutation.behaviour`; "
        "equivalent only where the unmutated fingerprint runs every changed statement, "
        "else verify is asked and a mutant it leaves is `unreached`: "
        "{py:mod}`tricklaw.mutation.reach`), "
        "and runs verify on each ruleset whose behaviour changed "
        "({py:mod}`tricklaw.mutation.runner`). The **score** counts every kill; the **strict "
        "score** only the kills of verify's obligations (not the mutated model's own "
        "exceptions, nor the published vectors alone; {py:mod}`tricklaw.mutation.verdicts`). "
        "Every behaviour-changing mutant must be killed. Each record names the mutants no "
        "obligation killed, and the kills that rest only on proofs the solver left "
        "`unknown` (it gave up; a loaded machine can cause that).",
        "",
        "A whole run takes hours, so it is run apart and checked in here, one record per "
        "commit it was run at ({py:func}`tricklaw.mutation.journal.write_record`), the "
        "record with the most mutants decided first.",
        "",
    ]
    records = sorted(RECORDS.glob("*.jsonl"), key=_most_decided) if RECORDS.is_dir() else []
    if not records:
        out += ["No run is checked in.", ""]
    for path in records:
        out += record_section(path)
    write(gen / "mutation.md", "\n".join(out))
