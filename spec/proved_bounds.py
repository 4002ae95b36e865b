"""The proved score bounds, as checked in: reading ``spec/bounds/v1.json`` without Z3.

``tricklaw bounds`` proves the least and the greatest round score of one player for
every ruleset, player count and reading of the rules that can change them
(:mod:`tricklaw.proofs.bounds`) and writes each result here exactly as ``tricklaw
verify`` reports it, timing aside: its status, the clauses the proof rests on (the unsat
core), the details, and the witness (options, deal, actions, score) with the proved
``bound``. ``tricklaw bounds --check`` and ``tricklaw verify`` (check
``bounds-artifact``) compare fresh proofs with this file. Whatever needs only the values
(the OpenSpiel adapter's utilities, the documentation's bounds page) reads them here,
without Z3.

The file is one JSON object: ``format`` (``"tricklaw-bounds"``), ``version`` (1), a
``description``, ``rulesets`` (ruleset id -> ``unchanged``: the options that cannot
change a round's score range; ``not_varied``: each option (or ``option alone``) no bound
is varied over on its own, with why; ``combinations``: the readings varied together
(at the ``players`` given, or every count), with why) and
``bounds``: the results, in the order ``verify`` proves them (rulesets, player counts,
readings, then ``score-max`` before ``score-min``). Keys are sorted.

A reading is named as ``verify`` names it (:func:`label`): the options that differ from
the defaults, ``name=value`` joined by ``", "`` in name order, or ``default``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.resources.abc import Traversable
from typing import Any

from tricklaw.spec import folders
from tricklaw.spec.errors import SpecError

FORMAT = "tricklaw-bounds"
VERSION = 1
PATH = f"bounds/v{VERSION}.json"
"""Where the file lies in ``spec/`` (and in the installed ``tricklaw.spec``)."""
FILE = f"spec/{PATH}"
"""The file in the repository, as messages name it."""
MAX = "score-max"
"""The obligation that no round gives the player more than the bound."""
MIN = "score-min"
"""The obligation that no round gives the player less than the bound."""
PROVED = "proved"

Reading = tuple[tuple[str, str], ...]
"""A reading: the options whose values differ from the defaults (name, value), sorted."""


def label(reading: Reading) -> str:
    """A reading as ``verify`` names it: ``name=value, ...``, or ``default``."""
    return ", ".join(f"{k}={v}" for k, v in reading) or "default"


@dataclass(frozen=True)
class ProvedBounds:
    """The parsed file: its ``rulesets`` part and its ``bounds`` rows, looked up by
    (obligation, ruleset, players, reading label)."""

    rulesets: Mapping[str, Mapping[str, Any]]
    rows: tuple[Mapping[str, Any], ...]
    index: Mapping[tuple[str, str, str, str], Mapping[str, Any]] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        index = {(r["obligation"], r["ruleset"], r["players"], r["reading"]): r for r in self.rows}
        object.__setattr__(self, "index", index)

    def row(
        self, obligation: str, ruleset_id: str, players: int | str, reading: str
    ) -> Mapping[str, Any] | None:
        """The result of ``obligation`` for ``ruleset_id`` at ``players`` under the reading
        called ``reading`` (:func:`label`), or None when the file has none."""
        return self.index.get((obligation, ruleset_id, str(players), reading))

    def readings(self, ruleset_id: str, players: int) -> list[str]:
        """The readings (labels) bounds are proved under for ``ruleset_id`` at ``players``."""
        here = (ruleset_id, str(players))
        found = [r["reading"] for r in self.rows if (r["ruleset"], r["players"]) == here]
        return list(dict.fromkeys(found))

    def only(self, ruleset_ids: Sequence[str]) -> ProvedBounds:
        """The part of the file about ``ruleset_ids`` (``tricklaw bounds RULESET --check``)."""
        keep = set(ruleset_ids)
        rulesets = {rid: part for rid, part in self.rulesets.items() if rid in keep}
        return ProvedBounds(rulesets, tuple(r for r in self.rows if r["ruleset"] in keep))

    def unchanged(self, ruleset_id: str) -> frozenset[str]:
        """The options of ``ruleset_id`` that cannot change a round's score range."""
        return frozenset(self.rulesets.get(ruleset_id, {}).get("unchanged", ()))

    def round_bounds(
        self, ruleset_id: str, players: int, reading: Reading = ()
    ) -> tuple[int, int] | None:
        """The least and the greatest round score of a player under ``reading``, when
        both are proved (and met by a witness); else None."""
        found = [self.row(name, ruleset_id, players, label(reading)) for name in (MIN, MAX)]
        if any(r is None or r["status"] != PROVED for r in found):
            return None
        low, high = (int(r["witness"]["bound"]) for r in found if r is not None)
        return low, high


def parse_bounds(text: str, where: str = FILE) -> ProvedBounds:
    """The bounds file ``text`` (read from ``where``, named in errors)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SpecError(f"{where} is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SpecError(f"{where} is not a {FORMAT} file")
    if data.get("version") != VERSION:
        raise SpecError(f"{where} has version {data.get('version')!r}, not {VERSION}")
    return ProvedBounds(data["rulesets"], tuple(data["bounds"]))


def load_bounds() -> ProvedBounds:
    """The bounds file installed with the package (``spec/bounds/v1.json``), and those of
    the spec folders plug-ins add (:func:`tricklaw.spec.add_folder`), as one."""
    return _load(folders())


@cache
def _load(places: tuple[Traversable, ...]) -> ProvedBounds:
    rulesets: dict[str, Mapping[str, Any]] = {}
    rows: list[Mapping[str, Any]] = []
    for folder in places:
        path = folder.joinpath(PATH)
        if path.is_file():
            part = parse_bounds(path.read_text("utf-8"), str(path))
            rulesets |= part.rulesets
            rows += part.rows
    return ProvedBounds(rulesets, tuple(rows))


def bound_cells(rows: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str, str], dict[str, str]]:
    """The score bounds among ``rows`` (results as the file or ``verify``'s JSON holds
    them) as table cells: (ruleset, players, reading) -> obligation -> the bound where
    proved, else the status and its details."""
    cells: dict[tuple[str, str, str], dict[str, str]] = {}
    for r in rows:
        if r["obligation"] not in {MAX, MIN}:
            continue
        proved = r["status"] == PROVED
        shown = f"{r['witness']['score']}" if proved else f"{r['status']}: {r['detail']}"
        cells.setdefault((r["ruleset"], r["players"], r["reading"]), {})[r["obligation"]] = shown
    return cells
