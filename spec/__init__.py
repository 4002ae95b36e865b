"""The clause registries: every rule of every text, with a stable id, a paraphrase and its source.

Each ruleset has ``spec/<ruleset>.toml`` (clauses and disputes) and may have
``spec/<ruleset>.examples.toml`` (the text's worked examples as data). The seed
texts they cite are listed, with their line counts and SHA-256, in
``spec/sources.toml``; :func:`load_registry` checks every clause against it.

A game defined outside this package (a plug-in's, the tests' example game) keeps the same
files in a folder of its own and adds it with :func:`add_folder`: its ``sources.toml``
joins the list of texts, and its registries are found by ruleset id.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from tricklaw.spec.errors import SpecError

CLAUSE_KIND_ORDER = (
    "definition",
    "setup",
    "deal",
    "select",
    "lead",
    "play",
    "trick",
    "collect",
    "round",
    "score",
    "game",
    "example",
    "advice",
    "info",
)
"""The clause kinds, in the order a rulebook tells them."""
CLAUSE_KINDS = frozenset(CLAUSE_KIND_ORDER)
DISPUTE_KINDS = frozenset({"contradiction", "gap", "edition"})
DETECTORS = (
    "unsat-core",
    "overlap",
    "gap",
    "tie",
    "diff",
    "liveness",
    "example-legality",
    "equivalence",
)
"""The machines that find disputes (a dispute's ``found_by``); a dispute that none of them
finds was written by hand."""
EDITION_ASPECTS = (
    "players",
    "deck",
    "deal",
    "first-lead",
    "play",
    "trick",
    "no-winner",
    "score",
    "rounds",
    "game-end",
    "winner",
)
"""The aspects in which the edition diff (``tricklaw diff``) compares two rulesets of one
game family; an edition dispute names the ones it records (``aspects``)."""

Lines = tuple[tuple[int, int], ...]

PICK_WHAT = frozenset({"player", "card"})
PICK_BY = frozenset({"most", "fewest", "highest", "lowest", "first", "last"})
"""What a clause may pick (``[[clause.picks]]`` ``what``) and by which extreme (``by``)."""


@dataclass(frozen=True, slots=True)
class Pick:
    """A clause's choice of one player or card by an extreme of a quantity
    (``[[clause.picks]]`` in a registry): the detector of :mod:`tricklaw.proofs.ties` decides
    whether two can share the extreme, and holds ``tie`` to the answer."""

    what: str
    """``player`` or ``card``."""
    by: str
    """``most``, ``fewest``, ``highest``, ``lowest``, ``first`` or ``last``."""
    quantity: str
    """The name of the quantity compared, as the game's tie encodings
    (:data:`tricklaw.proofs.quantities.TIES`) know it."""
    tie: str = ""
    """Where a tie is settled: the id of the clause of the text that breaks it, or of the
    dispute that records the text's silence; empty when the registry claims no tie can
    arise."""
    none: str = ""
    """Where the case with no candidate is settled (the clause must pick, and nothing is
    eligible: the leftmost card it may play, when it may play none): the id of the clause
    of the text that says what happens then, or of the dispute that records its silence;
    empty when the registry claims a candidate is always there (decided for a pick of a
    row, ``pick-candidate``)."""

    @property
    def largest(self) -> bool:
        """Whether the pick takes the largest value (most, highest, last)."""
        return self.by in {"most", "highest", "last"}


@dataclass(frozen=True, slots=True)
class Clause:
    """One clause of a rule text."""

    id: str
    kind: str
    summary: str
    lines: Lines
    players: tuple[int, ...] = ()
    note: str = ""
    source: str = ""
    """The file the lines are in, when it is not the registry's own text (the seeds'
    ``README.md`` for a published fact about the game)."""
    picks: tuple[Pick, ...] = ()
    """The players or cards the clause picks by an extreme (``[[clause.picks]]``)."""


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of a dispute: the option value that selects it, and what it means."""

    value: str
    summary: str


@dataclass(frozen=True, slots=True)
class Dispute:
    """A point where a text contradicts itself, is silent, or differs from another edition."""

    id: str
    option: str
    """The ``--option`` name that selects a reading; empty when no rule depends on it."""
    title: str
    question: str
    kind: str
    quotes: tuple[str, ...]
    lines: Lines
    clauses: tuple[str, ...]
    default: str
    reason: str
    readings: tuple[Reading, ...]
    found_by: tuple[str, ...] = ()
    """The detectors (:data:`DETECTORS`) whose findings this dispute records, as ``verify``
    checks on every full run; empty when it was written by hand."""
    editions: tuple[str, ...] = ()
    """For an edition dispute (kind ``edition``): the ids of the other editions' rulesets
    whose texts differ from this one here."""
    aspects: tuple[str, ...] = ()
    """For an edition dispute: the aspects (:data:`EDITION_ASPECTS`) in which the texts
    differ, as the edition diff compares them."""
    edition_lines: Lines = ()
    """For an edition dispute: the lines of the first other edition's text that say it
    differently (checked against that text's line count by ``verify``)."""


@dataclass(frozen=True, slots=True)
class Preset:
    """A named set of readings (``[[preset]]``): how a table that plays an edition as the
    text is written, or as a known house rule, sets the disputed options. Options it does
    not name keep their defaults. The same presets serve ``--preset NAME`` and the page."""

    name: str
    title: str
    summary: str
    options: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Source:
    """A seed text: its file name, line count and SHA-256."""

    file: str
    lines: int
    sha256: str


@dataclass(frozen=True, slots=True)
class Registry:
    """All clauses and disputes of one ruleset."""

    ruleset: str
    title: str
    source: Source
    prefix: str
    clauses: tuple[Clause, ...]
    disputes: tuple[Dispute, ...]
    presets: tuple[Preset, ...] = ()
    """The named sets of readings (:class:`Preset`), in the file's order."""

    def preset(self, name: str) -> Preset:
        """The preset ``name``; raises SpecError naming the known ones when unknown."""
        for p in self.presets:
            if p.name == name:
                return p
        known = ", ".join(p.name for p in self.presets) or "none"
        raise SpecError(f"{self.ruleset}: no preset {name!r} (presets: {known})")

    def clause(self, clause_id: str) -> Clause:
        """The clause ``clause_id``; raises SpecError when unknown."""
        for c in self.clauses:
            if c.id == clause_id:
                return c
        raise SpecError(f"{self.ruleset}: no clause {clause_id!r}")

    def dispute(self, dispute_id: str) -> Dispute:
        """The dispute ``dispute_id``; raises SpecError when unknown."""
        for d in self.disputes:
            if d.id == dispute_id:
                return d
        raise SpecError(f"{self.ruleset}: no dispute {dispute_id!r}")

    @property
    def ids(self) -> frozenset[str]:
        """Every clause and dispute id."""
        return frozenset(c.id for c in self.clauses) | {d.id for d in self.disputes}


_FOLDERS: list[Traversable] = [resources.files(__name__)]
"""Where spec files are looked up, in order: this package's folder, then each folder
given to :func:`add_folder`."""


def add_folder(folder: Traversable) -> None:
    """Look up spec files in ``folder`` too (after this package's own): a plug-in's
    ``<ruleset>.toml``, ``<ruleset>.examples.toml`` and ``sources.toml``."""
    if folder not in _FOLDERS:
        _FOLDERS.append(folder)
    sources.cache_clear()
    load_registry.cache_clear()


def remove_folder(folder: Traversable) -> None:
    """Undo :func:`add_folder`."""
    if folder in _FOLDERS[1:]:
        _FOLDERS.remove(folder)
    sources.cache_clear()
    load_registry.cache_clear()


def folders() -> tuple[Traversable, ...]:
    """Where spec files are looked up, in order (this package's folder first)."""
    return tuple(_FOLDERS)


def _find(name: str) -> Traversable | None:
    for folder in _FOLDERS:
        path = folder.joinpath(name)
        if path.is_file():
            return path
    return None


def _parse_toml(path: Traversable, name: str) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"spec file {name}: {exc}") from None


def _read_toml(name: str) -> dict[str, Any]:
    path = _find(name)
    if path is None:
        raise SpecError(f"spec file {name} is missing")
    return _parse_toml(path, name)


@cache
def sources() -> dict[str, Source]:
    """The seed texts, by file name (``spec/sources.toml``, then each added folder's)."""
    out: dict[str, Source] = {}
    for folder in _FOLDERS:
        path = folder.joinpath("sources.toml")
        if path.is_file():
            for s in _parse_toml(path, "sources.toml").get("source", []):
                out[s["file"]] = Source(s["file"], int(s["lines"]), s["sha256"])
    return out


def _lines(raw: Any, where: str, limit: int) -> Lines:
    if not isinstance(raw, list) or not raw:
        raise SpecError(f"{where}: 'lines' must be a non-empty list of [first, last] ranges")
    out = []
    for pair in raw:
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(n, int) for n in pair)
        ):
            raise SpecError(f"{where}: line range {pair!r} is not [first, last]")
        first, last = pair
        if not 1 <= first <= last <= limit:
            raise SpecError(f"{where}: line range {first}-{last} is outside 1-{limit}")
        out.append((first, last))
    return tuple(out)


def _require(table: dict[str, Any], key: str, where: str) -> Any:
    if key not in table:
        raise SpecError(f"{where}: missing field {key!r}")
    return table[key]


def _edition_fields(
    raw: dict[str, Any], where: str, kind: str, ruleset: str
) -> tuple[tuple[str, ...], tuple[str, ...], Lines]:
    """A dispute's ``editions``, ``aspects`` and ``edition_lines``, validated: an edition
    dispute names at least one other edition, at least one known aspect and the other
    text's lines (their range is checked by ``verify``, which knows that text); no other
    dispute names any."""
    editions = tuple(raw.get("editions", ()))
    aspects = tuple(raw.get("aspects", ()))
    if kind != "edition":
        if editions or aspects or "edition_lines" in raw:
            raise SpecError(f"{where}: only an edition dispute names editions and aspects")
        return (), (), ()
    other = _lines(_require(raw, "edition_lines", where), f"{where} edition_lines", 10**9)
    if not editions or not all(isinstance(e, str) and e for e in editions):
        raise SpecError(f"{where}: an edition dispute names the other editions ('editions')")
    if ruleset in editions:
        raise SpecError(f"{where}: 'editions' names the dispute's own ruleset {ruleset!r}")
    if not aspects:
        raise SpecError(f"{where}: an edition dispute names the aspects it records ('aspects')")
    strange = [a for a in aspects if a not in EDITION_ASPECTS]
    if strange:
        raise SpecError(f"{where}: unknown aspect {strange[0]!r}")
    return editions, aspects, other


def _picks(raw: Any, where: str) -> tuple[Pick, ...]:
    if not isinstance(raw, list) or not all(isinstance(p, dict) for p in raw):
        raise SpecError(f"{where}: 'picks' must be a list of tables ([[clause.picks]])")
    out = []
    for table in raw:
        strange = sorted(set(table) - {"what", "by", "quantity", "tie", "none"})
        if strange:
            raise SpecError(f"{where}: picks has unknown field {strange[0]!r}")
        what, by = _require(table, "what", where), _require(table, "by", where)
        if what not in PICK_WHAT:
            raise SpecError(f"{where}: picks what {what!r} is not one of {sorted(PICK_WHAT)}")
        if by not in PICK_BY:
            raise SpecError(f"{where}: picks by {by!r} is not one of {sorted(PICK_BY)}")
        quantity = _require(table, "quantity", where)
        if not isinstance(quantity, str) or not quantity:
            raise SpecError(f"{where}: picks quantity must be a non-empty name")
        tie, none = table.get("tie", ""), table.get("none", "")
        for field, value in (("tie", tie), ("none", none)):
            if not isinstance(value, str):
                raise SpecError(f"{where}: picks {field} must be a clause or dispute id")
        out.append(Pick(what, by, quantity, tie, none))
    return tuple(out)


def _presets(raw: Any, name: str, disputes: Sequence[Dispute]) -> tuple[Preset, ...]:
    """The ``[[preset]]`` tables, validated: unique names, and every option a dispute's
    option set to one of its readings (a preset chooses readings, nothing else)."""
    readings = {d.option: {r.value for r in d.readings} for d in disputes if d.option}
    presets: list[Preset] = []
    for table in raw:
        pname = _require(table, "name", f"{name} preset")
        where = f"{name} preset {pname}"
        options = {str(k): str(v) for k, v in _require(table, "options", where).items()}
        for option, value in options.items():
            if option not in readings:
                raise SpecError(f"{where}: {option!r} is not the option of a dispute")
            if value not in readings[option] and not (value.isdigit() and "N" in readings[option]):
                raise SpecError(f"{where}: {option}={value} is not one of its readings")
        if pname in {p.name for p in presets}:
            raise SpecError(f"{where}: the name is used twice")
        presets.append(
            Preset(
                pname,
                _require(table, "title", where),
                _require(table, "summary", where),
                tuple(options.items()),
            )
        )
    return tuple(presets)


def parse_registry(data: dict[str, Any], name: str) -> Registry:
    """A :class:`Registry` from parsed TOML ``data``, validated (see :func:`load_registry`)."""
    ruleset = _require(data, "ruleset", name)
    source_file = _require(data, "source", name)
    source = sources().get(source_file)
    if source is None:
        raise SpecError(f"{name}: source {source_file!r} is not listed in spec/sources.toml")
    prefix = _require(data, "prefix", name)
    clauses = []
    for raw in data.get("clause", []):
        cid = _require(raw, "id", f"{name} clause")
        where = f"{name} {cid}"
        if not str(cid).startswith(prefix + "-"):
            raise SpecError(f"{where}: id does not start with the prefix {prefix}-")
        kind = _require(raw, "kind", where)
        if kind not in CLAUSE_KINDS:
            raise SpecError(f"{where}: unknown kind {kind!r}")
        own = raw.get("source", "")
        cited = sources().get(own) if own else source
        if cited is None:
            raise SpecError(f"{where}: source {own!r} is not listed in spec/sources.toml")
        clauses.append(
            Clause(
                id=cid,
                kind=kind,
                summary=_require(raw, "summary", where),
                lines=_lines(_require(raw, "lines", where), where, cited.lines),
                players=tuple(raw.get("players", ())),
                note=raw.get("note", ""),
                source=own,
                picks=_picks(raw.get("picks", []), where),
            )
        )
    disputes = []
    for raw in data.get("dispute", []):
        did = _require(raw, "id", f"{name} dispute")
        where = f"{name} {did}"
        if not str(did).startswith(prefix + "-D-"):
            raise SpecError(f"{where}: dispute id does not start with {prefix}-D-")
        kind = _require(raw, "kind", where)
        if kind not in DISPUTE_KINDS:
            raise SpecError(f"{where}: unknown dispute kind {kind!r}")
        readings = tuple(
            Reading(_require(r, "value", where), _require(r, "summary", where))
            for r in _require(raw, "reading", where)
        )
        default = _require(raw, "default", where)
        if default not in {r.value for r in readings}:
            raise SpecError(f"{where}: default {default!r} is not one of its readings")
        found_by = tuple(raw.get("found_by", ()))
        strange = [m for m in found_by if m not in DETECTORS]
        if strange:
            raise SpecError(f"{where}: found_by names unknown detector {strange[0]!r}")
        editions, aspects, edition_lines = _edition_fields(raw, where, kind, ruleset)
        disputes.append(
            Dispute(
                id=did,
                option=raw.get("option", ""),
                title=_require(raw, "title", where),
                question=_require(raw, "question", where),
                kind=kind,
                quotes=tuple(raw.get("quotes", ())),
                lines=_lines(_require(raw, "lines", where), where, source.lines),
                clauses=tuple(raw.get("clauses", ())),
                default=default,
                reason=_require(raw, "reason", where),
                readings=readings,
                found_by=found_by,
                editions=editions,
                aspects=aspects,
                edition_lines=edition_lines,
            )
        )
    registry = Registry(
        ruleset,
        data.get("title", ruleset),
        source,
        prefix,
        tuple(clauses),
        tuple(disputes),
        _presets(data.get("preset", []), name, disputes),
    )
    ids = [c.id for c in clauses] + [d.id for d in disputes]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise SpecError(f"{name}: duplicate ids {', '.join(duplicates)}")
    for d in disputes:
        unknown = [c for c in d.clauses if c not in registry.ids]
        if unknown:
            raise SpecError(f"{name} {d.id}: cites unknown clauses {', '.join(unknown)}")
    for c in clauses:
        for pick in c.picks:
            for field, named in (("tie", pick.tie), ("none", pick.none)):
                if named and named not in registry.ids:
                    raise SpecError(f"{name} {c.id}: picks {field} names unknown id {named!r}")
                if (
                    named in {d.id for d in disputes}
                    and c.id not in registry.dispute(named).clauses
                ):
                    raise SpecError(f"{name} {c.id}: its {field} dispute {named} does not cite it")
    return registry


@cache
def load_registry(ruleset: str) -> Registry:
    """The validated registry of ``ruleset``: unique ids, known kinds, sources in range.

    Raises :class:`~tricklaw.spec.errors.SpecError` naming the file and the problem.
    """
    name = f"{ruleset}.toml"
    registry = parse_registry(_read_toml(name), name)
    if registry.ruleset != ruleset:
        raise SpecError(f"{name}: declares ruleset {registry.ruleset!r}")
    return registry


def load_examples(ruleset: str) -> dict[str, Any]:
    """The worked examples of ``ruleset`` as parsed TOML (empty when it has none)."""
    name = f"{ruleset}.examples.toml"
    path = _find(name)
    return {} if path is None else _parse_toml(path, name)
