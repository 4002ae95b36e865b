"""The edition diff: two rulesets of one game family compared aspect by aspect, and the
register held to what the comparison finds.

Two rulesets are editions of one game when their model classes declare the same
non-empty ``family`` (:attr:`tricklaw.model.ruleset.Ruleset.family`). :func:`diff`
compares every aspect of :data:`~tricklaw.proofs.edition_aspects.ASPECTS`

* under the **default readings** of both texts (each text as tricklaw reads it): a
  difference here is an edition difference, and
* with **each reading varied one at a time** against the other text's defaults (the
  options with choices, as ``--option`` offers them): a difference that appears only
  under a non-default reading belongs to that option's own dispute, and a reading that
  removes a default difference is named (e.g. 1993 ``all-zero=no-winner`` makes the 1993
  trick rule the later one's).

:func:`diff_results` turns the default comparison into verify results: an edition
difference must be recorded by an edition dispute (kind ``edition``) of either ruleset's
registry that names the other ruleset in ``editions`` and the aspect in ``aspects``; it
is then a *finding* (machine ``diff``, the dispute's id). A difference no dispute records
fails, and so does a recorded difference that the comparison no longer finds, or an
edition dispute naming a ruleset that is no edition of the same game.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.proofs import edition_rules
from tricklaw.proofs.edition_aspects import ASPECTS, compare
from tricklaw.proofs.edition_sides import SAMPLED, Comparison, Side
from tricklaw.proofs.results import Result
from tricklaw.proofs.solver import COUNTEREXAMPLE, FINDING, PROVED, UNKNOWN
from tricklaw.spec import Dispute, load_registry
from tricklaw.spec.errors import OptionError

MACHINE = "diff"


@dataclass(frozen=True, slots=True)
class ReadingDiff:
    """One aspect compared under one varied reading (``side`` is the ruleset whose option
    is varied, ``option=value`` the reading; the other side keeps its defaults)."""

    side: str
    option: str
    value: str
    dispute: str
    """The dispute whose reading this is (empty for a plain option with choices)."""
    comparison: Comparison


@dataclass(frozen=True, slots=True)
class AspectDiff:
    """One aspect of two editions: the comparison under the defaults, and per reading."""

    aspect: str
    default: Comparison
    readings: tuple[ReadingDiff, ...]
    recorded: tuple[tuple[str, str], ...]
    """(ruleset id, dispute id) of each edition dispute recording this aspect."""

    @property
    def differs(self) -> bool:
        """Whether the editions differ here under their default readings."""
        return self.default.status == COUNTEREXAMPLE


def family_of(ruleset: Ruleset[Any]) -> str:
    """The game family of ``ruleset`` (its own id when it declares none)."""
    return ruleset.family or ruleset.id


def editions(ruleset: Ruleset[Any]) -> tuple[Ruleset[Any], ...]:
    """The other rulesets of ``ruleset``'s family, in the registry's order."""
    return tuple(
        r for r in RULESETS.values() if r.id != ruleset.id and family_of(r) == family_of(ruleset)
    )


def pair(first: str, second: str) -> tuple[Ruleset[Any], Ruleset[Any]]:
    """The two rulesets named, checked to be two editions of one game (OptionError else)."""
    a, b = get_ruleset(first), get_ruleset(second)
    if a.id == b.id:
        raise OptionError(f"diff compares two different rulesets, not {a.id} with itself")
    if family_of(a) != family_of(b):
        raise OptionError(
            f"{a.id} and {b.id} are not editions of one game "
            f"(families {family_of(a)!r} and {family_of(b)!r}); diff compares editions only"
        )
    return a, b


def common_counts(a: Ruleset[Any], b: Ruleset[Any], players: int | None = None) -> list[int]:
    """The player counts both rulesets are for (only ``players`` when given)."""
    counts = sorted(set(a.player_counts) & set(b.player_counts))
    return [n for n in counts if players in (None, n)]


def recorded(a: Ruleset[Any], b: Ruleset[Any]) -> dict[str, list[tuple[str, Dispute]]]:
    """Aspect -> the (ruleset id, dispute) pairs of either registry recording a difference
    of ``a`` and ``b`` in that aspect."""
    out: dict[str, list[tuple[str, Dispute]]] = {}
    for own, other in ((a, b), (b, a)):
        for d in load_registry(own.id).disputes:
            if d.kind == "edition" and other.id in d.editions:
                for aspect in d.aspects:
                    out.setdefault(aspect, []).append((own.id, d))
    return out


def _varied(ruleset: Ruleset[Any]) -> list[tuple[str, str, str]]:
    """(option, value, dispute) for each non-default reading of each option with choices."""
    return [
        (s.name, value, s.dispute or "")
        for s in ruleset.option_specs
        for value in s.choices
        if value != s.default
    ]


def diff(
    a: Ruleset[Any],
    b: Ruleset[Any],
    timeout_ms: int = 30_000,
    *,
    players: int | None = None,
    aspects: Sequence[str] = tuple(ASPECTS),
    readings: bool = True,
    progress: Callable[[str], None] = lambda _: None,
) -> list[AspectDiff]:
    """Every aspect of ``a`` and ``b`` compared under the defaults and (``readings``) with
    each reading varied one at a time (for a Z3 aspect, only the options its encoding
    declares it reads: under any other, the comparison is the default one)."""
    counts = common_counts(a, b, players)
    if not counts:
        raise OptionError(f"{a.id} and {b.id} share no player count to compare")
    record = recorded(a, b)
    out = []
    for aspect in aspects:
        progress(f"diff {a.id} {b.id}: {aspect}")
        default = compare(aspect, Side(a), Side(b), counts, timeout_ms)
        varied = []
        if readings:
            for side, other in ((a, b), (b, a)):
                depends = edition_rules.relevant(aspect, Side(side))
                for option, value, dispute in _varied(side):
                    if depends is not None and option not in depends:
                        continue  # the encoding does not read it: the default comparison
                    one = Side(side, {option: value})
                    left, right = (one, Side(other)) if side is a else (Side(other), one)
                    varied.append(
                        ReadingDiff(
                            side.id,
                            option,
                            value,
                            dispute,
                            compare(aspect, left, right, counts, timeout_ms),
                        )
                    )
        out.append(
            AspectDiff(
                aspect,
                default,
                tuple(varied),
                tuple((rid, d.id) for rid, d in record.get(aspect, [])),
            )
        )
    return out


def reading_notes(diff: AspectDiff) -> list[str]:
    """What varying each reading changes against the default comparison."""
    notes = []
    for r in diff.readings:
        label = f"{r.side} {r.option}={r.value}"
        if r.comparison.status == UNKNOWN:
            notes.append(f"{label}: unknown")
        elif (r.comparison.status == COUNTEREXAMPLE) != diff.differs:
            change = "differs" if r.comparison.status == COUNTEREXAMPLE else "agrees"
            why = f" ({r.dispute})" if r.dispute else ""
            notes.append(f"{label}{why} {change}: {r.comparison.summary or 'no difference'}")
    return notes


def as_json(a: Ruleset[Any], b: Ruleset[Any], diffs: Iterable[AspectDiff]) -> dict[str, Any]:
    """The diff as JSON-ready data (``tricklaw diff --json``)."""
    return {
        "rulesets": [a.id, b.id],
        "family": family_of(a),
        "aspects": [
            {
                "aspect": d.aspect,
                "differs": d.differs,
                "default": asdict(d.default),
                "recorded": [list(r) for r in d.recorded],
                "readings": [asdict(r) for r in d.readings],
            }
            for d in diffs
        ],
    }


# --- verify ----------------------------------------------------------------------------


def _unbridged(d: AspectDiff) -> ReadingDiff | None:
    """Whether a difference beyond the recorded ones remains (None when not).

    A recorded edition dispute with a switch (an option of its ruleset) records the
    difference that one of its readings removes: under that reading the editions must
    agree in the aspect, or a further difference, which no dispute records, remains
    (the reading compared is returned, with its witness). A dispute without a switch
    records the whole aspect."""
    for rid, did in d.recorded:
        option = load_registry(rid).dispute(did).option
        if not option:
            return None
        bridges = [r for r in d.readings if r.side == rid and r.option == option]
        if any(r.comparison.status in {PROVED, SAMPLED} for r in bridges):
            return None
        if bridges:
            return bridges[0]
    return None


def _check(a: Ruleset[Any], b: Ruleset[Any], d: AspectDiff, players: int | None) -> list[Result]:
    """The verify results of one aspect of one pair of editions (a recorded difference
    not found fails only on a complete run, over every player count: ``players`` None)."""
    complete = players is None
    c = d.default
    seconds = c.seconds + sum(r.comparison.seconds for r in d.readings)
    notes = reading_notes(d)
    tail = f"; per reading: {'; '.join(notes)}" if notes else ""

    def result(
        ruleset: str, status: str, detail: str, dispute: str = "", witness: Any = None
    ) -> Result:
        shown = witness or (c.witness if status in {FINDING, "fail"} else {})
        return Result(
            f"edition-diff {d.aspect}",
            ruleset,
            "all" if complete else str(players),
            f"{a.id} vs {b.id}",
            status,
            seconds,
            c.clauses,
            detail,
            shown,
            MACHINE if dispute else "",
            dispute,
        )

    if c.status == UNKNOWN:
        return [result(a.id, UNKNOWN, c.summary)]
    if d.differs and not d.recorded:
        return [
            result(a.id, "fail", f"an edition difference no dispute records: {c.summary}{tail}")
        ]
    if not d.differs and d.recorded and complete:
        names = ", ".join(dispute for _, dispute in d.recorded)
        gone = f"{names} records a difference in {d.aspect} that no longer exists ({c.how}){tail}"
        return [result(rid, "fail", gone) for rid in dict.fromkeys(rid for rid, _ in d.recorded)]
    if d.differs:
        left = _unbridged(d)
        if left is not None:
            bad = UNKNOWN if left.comparison.status == UNKNOWN else "fail"
            why = (
                f"under {left.side} {left.option}={left.value}, the reading of "
                f"{left.dispute} that the other edition takes, the editions still differ and "
                f"no dispute records it: {left.comparison.summary}"
            )
            return [result(a.id, bad, why, witness=left.comparison.witness)]
        return [
            result(rid, FINDING, f"{c.summary} ({c.how}; recorded as {dispute}){tail}", dispute)
            for rid, dispute in d.recorded
        ]
    status = PROVED if c.status == PROVED else SAMPLED
    return [result(a.id, status, f"the editions agree: {c.how}{tail}")]


def _unknown_editions(ruleset: Ruleset[Any]) -> list[Result]:
    """An edition dispute naming a ruleset that is no edition of the same game fails, and
    so do ``edition_lines`` beyond the end of the first named edition's text."""
    start = time.perf_counter()
    family = {r.id for r in editions(ruleset)}
    bad = []
    for d in load_registry(ruleset.id).disputes:
        bad += [
            f"{d.id} names {e}, which is not an edition of {family_of(ruleset)}"
            for e in d.editions
            if e not in family
        ]
        if d.editions and d.editions[0] in family:
            text = load_registry(d.editions[0]).source
            bad += [
                f"{d.id}: edition_lines {first}-{last} beyond the {text.lines} lines of {text.file}"
                for first, last in d.edition_lines
                if last > text.lines
            ]
    if not bad:
        return []
    return [
        Result(
            "edition-diff editions",
            ruleset.id,
            "all",
            "all",
            "fail",
            time.perf_counter() - start,
            detail="; ".join(bad),
        )
    ]


def diff_results(
    rulesets: Sequence[Ruleset[Any]],
    players: int | None,
    timeout_ms: int,
    progress: Callable[[str], None] = lambda _: None,
    aspects: Sequence[str] = tuple(ASPECTS),
) -> list[Result]:
    """verify's ``edition-diff`` results for every pair of editions that involves one of
    ``rulesets`` (each pair once, in the registry's order), for ``aspects`` (all)."""
    ids = {r.id for r in rulesets}
    order = list(RULESETS)
    out: list[Result] = []
    for ruleset in rulesets:
        out += _unknown_editions(ruleset)
    seen = set()
    for ruleset in rulesets:
        for other in editions(ruleset):
            a, b = sorted((ruleset, other), key=lambda r: order.index(r.id))
            if (a.id, b.id) in seen or not ids & {a.id, b.id}:
                continue
            seen.add((a.id, b.id))
            if not common_counts(a, b, players):
                continue
            for d in diff(a, b, timeout_ms, players=players, aspects=aspects, progress=progress):
                out += _check(a, b, d, players)
    return out
